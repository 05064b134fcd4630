"""A position's counts, its end, and a single checker step, each from the rules of the game."""

from __future__ import annotations

import pytest

from boards import pos, rows
from gammon.core.errors import IllegalPlayError, InvalidDiceError
from gammon.core.position import Outcome, Position, ResultKind, check_dice

START = Position.initial()


# -- counts ----------------------------------------------------------------------------


def test_pip_counts_count_each_checker_its_distance_home() -> None:
    assert START.pip_counts == (167, 167)
    assert pos("x: bar:1 6:2; o: 1:3").pip_counts == (25 + 12, 3)  # the bar is 25 pips away
    assert pos("x: 2:1; o: 24:1 bar:1").pip_counts == (2, 49)


def test_one_pip_count_serves_positions_and_kernels() -> None:
    """Core's compiled count is the one the engine's kernels, the lopsided test and the bots call."""
    import numpy as np

    from gammon.ai import cube_efficiency, encoding
    from gammon.core.pips import pips
    from gammon.training import lopsided

    q = pos("x: bar:1 6:2; o: 1:3")
    board = np.frombuffer(q.board, dtype=np.uint8)
    assert (pips(q.board, 0), pips(board, 25)) == q.pip_counts == (37, 3)
    assert cube_efficiency.pips is pips and lopsided.pips is pips and not hasattr(encoding, "pips")


def test_checkers_off_and_on_the_bar() -> None:
    p = pos("x: 6:2 bar:1; o: 1:1")
    assert p.checkers_off == (12, 14)
    assert p.bar == (1, 0)
    assert p.swap().bar == (0, 1) and p.swap().checkers_off == (14, 12)
    # Acey-Deucey: never-entered checkers wait with the hit ones, but only hit ones are "on the bar".
    a = Position(*rows("x: bar:14 24:1; o: bar:15"), "acey-deucey", pool=(13, 12))
    assert a.bar == (1, 3) and a.pool == (13, 12)
    assert a.swap().pool == (12, 13) and a.swap().bar == (3, 1)


def test_swap_is_the_other_players_view() -> None:
    p = pos("x: 24:2 13:1; o: 6:3")
    q = p.swap()
    assert q.me == p.opp and q.opp == p.me
    assert q.pip_counts == (18, 61)
    assert q.swap() == p


# -- the game's end ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "outcome"),
    [
        ("x: 6:1; o: 1:1", None),  # both sides still have checkers
        ("x:; o: 1:1", Outcome(True, ResultKind.SINGLE)),  # the loser bore one off
        ("x:; o: 1:15", Outcome(True, ResultKind.GAMMON)),  # none off, none in the winner's home
        ("x:; o: 18:15", Outcome(True, ResultKind.GAMMON)),  # 18 is outside the winner's home
        ("x:; o: 19:1 1:14", Outcome(True, ResultKind.BACKGAMMON)),  # in the winner's home
        ("x:; o: 24:1 1:14", Outcome(True, ResultKind.BACKGAMMON)),
        ("x:; o: bar:1 1:14", Outcome(True, ResultKind.BACKGAMMON)),  # on the bar
        ("x: 3:2; o:", Outcome(False, ResultKind.SINGLE)),  # the opponent won
        ("x: 6:15; o:", Outcome(False, ResultKind.GAMMON)),
        ("x: 20:1 6:14; o:", Outcome(False, ResultKind.BACKGAMMON)),
    ],
)
def test_outcome_single_gammon_backgammon(spec: str, outcome: Outcome | None) -> None:
    p = pos(spec)
    assert p.outcome == outcome
    assert p.is_game_over == (outcome is not None)


# -- one checker step ---------------------------------------------------------------------


def test_a_step_moves_one_checker_and_hits_a_blot() -> None:
    p = pos("x: 13:2 6:1; o: 17:1 11:2")  # an o blot on x's 8, an o point on x's 14
    after = p.apply_step(13, 8)
    assert after == pos("x: 13:1 8:1 6:1; o: bar:1 11:2")
    assert p.apply_step(6, 2) == pos("x: 13:2 2:1; o: 17:1 11:2")  # a quiet step
    assert pos("x: 2:1 1:1; o: 1:1").apply_step(2, 0) == pos("x: 1:1; o: 1:1")  # bearing off
    assert pos("x: bar:1 1:1; o: 1:1").apply_step(25, 20) == pos("x: 20:1 1:1; o: 1:1")


def test_an_entry_takes_the_hit_checker_before_a_pool_checker() -> None:
    a = Position(*rows("x: bar:14 24:1; o: bar:15"), "acey-deucey", pool=(13, 15))
    hit_first = a.apply_step(25, 20)
    assert hit_first.pool == (13, 15) and hit_first.bar == (0, 0)
    from_pool = hit_first.apply_step(25, 19)
    assert from_pool.pool == (12, 15) and from_pool.me[18] == 1


@pytest.mark.parametrize(
    ("spec", "step", "words"),
    [
        ("x: 6:1; o: 1:1", (7, 3), "no checker of the player on roll on the 7-point"),
        ("x: 6:1; o: 1:1", (25, 20), "no checker of the player on roll on the bar"),
        ("x: bar:1 13:1; o: 1:1", (13, 8), "a checker on the bar must enter before"),
        ("x: 13:1 6:1; o: 17:2", (13, 8), "the 8-point is held by the opponent (2)"),
        ("x: 7:1 6:1; o: 1:1", (6, 0), "bearing off needs every checker in the home board"),
        ("x: 6:1; o: 1:1", (6, 25), "not 6/25"),
        ("x: 6:1; o: 1:1", (6, 6), "a step goes from 1-25 (25 = bar) down to 0-24 (0 = off), not 6/6"),
        ("x: 6:1; o: 1:1", (26, 3), "not 26/3"),
        ("x: 6:1; o: 1:1", (6, -1), "not 6/-1"),
        ("x: 6:1; o: 1:1", (0, 0), "not 0/0"),
    ],
)
def test_a_step_that_breaks_a_rule_is_refused(spec: str, step: tuple[int, int], words: str) -> None:
    p = pos(spec)
    assert p.step_problem(*step) is not None and words in p.step_problem(*step)  # type: ignore[operator]
    with pytest.raises(IllegalPlayError, match=f"cannot move {step[0]}/{step[1]}: "):
        p.apply_step(*step)


def test_a_step_that_keeps_the_rules_has_no_problem() -> None:
    assert pos("x: 6:1 1:1; o: 1:1").step_problem(6, 0) is None  # all home: bear off
    assert pos("x: 13:1 6:1; o: 17:1").step_problem(13, 8) is None  # a blot may be hit
    # Acey-Deucey: checkers in the pool may wait while others move.
    a = Position(*rows("x: bar:14 24:1; o: bar:15"), "acey-deucey", pool=(14, 15))
    assert a.step_problem(24, 18) is None


def test_dutch_hits_wait_for_a_checker_in_the_home_board() -> None:
    # "No hitting until one of your checkers has reached your home board."
    p = pos("x: 24:14 8:1; o: bar:14 20:1", "dutch")  # o blot on x's 5
    assert p.step_problem(8, 5) == "no hitting until one of your checkers has reached your home board"
    home = pos("x: 24:13 8:1 6:1; o: bar:14 20:1", "dutch")
    assert home.step_problem(8, 5) is None
    borne = pos("x: 24:13 8:1; o: bar:14 20:1", "dutch")  # one borne off: it reached home
    assert borne.step_problem(8, 5) is None
    assert p.step_problem(24, 20) is None  # a quiet step is fine


@pytest.mark.parametrize("dice", [(0, 3), (3, 7), (-1, 2), (6, 0)])
def test_dice_outside_one_to_six(dice: tuple[int, int]) -> None:
    with pytest.raises(InvalidDiceError, match=f"not {dice[0]} and {dice[1]}"):
        check_dice(dice)


@pytest.mark.parametrize("dice", [(1,), (1, 2, 3), "ab", None, (1.5, 2)])
def test_dice_that_are_not_two_numbers(dice: object) -> None:
    with pytest.raises(InvalidDiceError, match="dice must be two numbers from 1 to 6, not "):
        check_dice(dice)  # type: ignore[arg-type]


def test_good_dice_come_back_in_order() -> None:
    assert check_dice([6, 1]) == (6, 1) and check_dice((1, 1)) == (1, 1) and check_dice((6, 6)) == (6, 6)


def test_step_edges_the_one_point_the_twenty_four_point_and_messages() -> None:
    assert pos("x: 1:1; o: 1:1").step_problem(1, 0) is None  # the 1-point bears off
    assert pos("x: bar:1 6:1; o: 6:1").step_problem(25, 24) is None  # entering on the 24-point
    assert pos("x: bar:1 13:1; o: 1:1").step_problem(13, 8) == (
        "a checker on the bar must enter before any other checker moves")
    assert pos("x: 7:1 6:1; o: 1:1").step_problem(6, 0) == "bearing off needs every checker in the home board"


def test_a_step_onto_checkers_and_a_hit_onto_a_bar_that_has_one() -> None:
    p = pos("x: 13:2 6:1; o: 17:1 bar:1")
    assert p.apply_step(13, 6) == pos("x: 13:1 6:2; o: 17:1 bar:1")  # onto a point of one's own
    assert p.apply_step(13, 8) == pos("x: 13:1 8:1 6:1; o: bar:2")  # the hit checker joins the bar


def test_acey_deucey_pool_counts_whatever_the_opponents_pool() -> None:
    # The same rules whatever the opponent's pool holds (an even count here).
    a = Position(*rows("x: bar:14 24:1; o: bar:14 2:1"), "acey-deucey", pool=(14, 14))
    assert a.step_problem(24, 18) is None  # pool checkers may wait
    b = Position(*rows("x: bar:14 24:1; o: bar:14 2:1"), "acey-deucey", pool=(13, 14))
    entered = b.apply_step(25, 20).apply_step(25, 19)  # the hit checker, then one from the pool
    assert entered.pool == (12, 14) and entered.bar == (0, 0)


def test_dutch_home_board_is_one_to_six() -> None:
    one = pos("x: 24:13 8:1 1:1; o: bar:14 20:1", "dutch")  # a checker home on the 1-point
    assert one.step_problem(8, 5) is None
    seven = pos("x: 24:13 8:1 7:1; o: bar:14 20:1", "dutch")  # the 7-point is not home
    assert seven.step_problem(8, 5) == "no hitting until one of your checkers has reached your home board"
    # One borne off, whatever stands on the opponent's own 1-point.
    off = pos("x: 23:13 8:1; o: 1:1 20:1 bar:13", "dutch")
    assert off.step_problem(8, 5) is None


def test_a_seven_is_not_a_die() -> None:
    with pytest.raises(InvalidDiceError, match="not 7 and 1"):
        check_dice((7, 1))
