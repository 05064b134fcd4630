"""Why a step is refused (``StepTree.refusal``): the rule, as a code and in words.

The page and other interfaces that let a player move one checker at a time tell
the player the rule a refused step breaks.  Each case quotes the rule it checks
and is written from the rule texts, not from the code's output.
"""

from __future__ import annotations

import pytest

from boards import pos, rows
from gammon import Position
from gammon.core.errors import IllegalPlayError
from gammon.core.position import StepReason
from gammon.core.steps import StepRefusal


def refusal(p: Position, dice: tuple[int, int], step: tuple[int, int],
            walked: tuple[tuple[int, int], ...] = ()) -> StepRefusal | None:
    tree = p.step_tree(dice)
    return tree.refusal(tree.walk(walked), *step)


def test_a_legal_step_is_not_refused() -> None:
    start = Position.initial()
    assert refusal(start, (6, 5), (24, 13)) is None  # one checker moved by both dice
    assert refusal(start, (6, 5), (13, 7)) is None
    assert refusal(start, (6, 5), (13, 8), walked=((24, 18),)) is None


def test_bar_first() -> None:
    # "A checker on the bar must enter before any other checker moves."
    r = refusal(pos("x: bar:1 13:5 6:5; o: 24:2 13:5"), (6, 5), (13, 7))
    assert r is not None and r.reason is StepReason.BAR_FIRST
    assert "on the bar must enter first" in r.message and "1 of yours is on the bar" in r.message


def test_blocked_point() -> None:
    # "A checker may land on any point that is not occupied by two or more opposing checkers."
    r = refusal(Position.initial(), (6, 5), (13, 8), walked=((13, 7),))  # fine: the 8-point is own
    assert r is None
    r = refusal(Position.initial(), (5, 2), (24, 19))  # the opponent's 6-point is the mover's 19
    assert r is not None and r.reason is StepReason.BLOCKED
    assert r.message.startswith("point 19 is blocked: your opponent has 5 checkers there")


def test_way_blocked_for_two_dice() -> None:
    # One checker played with both dice touches down on the way: 24/13 with 6-5 lands on 18 or 19.
    p = pos("x: 24:1 13:2 6:12; o: 7:2 6:2")  # the mover's 18 and 19 are the opponent's 7 and 6
    r = refusal(p, (6, 5), (24, 13))
    assert r is not None and r.reason is StepReason.BLOCKED
    assert r.message.startswith("on the way to point 13: point 18 is blocked")


def test_a_blocked_landing_point_reached_by_two_dice() -> None:
    # 24/19 with 3-2 lands on the opponent's 6-point (5 checkers) whichever die goes first.
    r = refusal(Position.initial(), (3, 2), (24, 19))
    assert r is not None and r.reason is StepReason.BLOCKED
    assert r.message.startswith("point 19 is blocked: your opponent has 5 checkers there")


def test_bear_off_needs_every_checker_home() -> None:
    # "Once all of a player's checkers are in the home board, he may start bearing off."
    r = refusal(pos("x: 7:1 6:2; o: 24:2"), (6, 1), (6, 0))
    assert r is not None and r.reason is StepReason.BEAR_OFF_NOT_HOME
    assert "1 is still outside" in r.message


def test_higher_number_bears_off_only_from_the_highest_point() -> None:
    # "If there is no checker on the point shown, a checker on a higher point must be moved;
    # if there is none on a higher point, the checker on the highest point is borne off."
    p = pos("x: 5:1 2:1; o: 13:2")
    assert refusal(p, (6, 4), (2, 0), walked=((5, 1),)) is None  # the 5 moved down: the 2 is highest
    r = refusal(p, (4, 3), (2, 0))  # a 4 may not bear off the 2 while the 5 stands
    assert r is not None and r.reason is StepReason.BEAR_OFF_HIGHER
    assert "a checker still stands on point 5" in r.message
    # Two dice of one checker: with 2-2 from the 3-point, 3/1 then 1/off needs no checker above the 1.
    q = pos("x: 3:1 2:2; o: 13:2")
    r = refusal(q, (2, 2), (3, 0))
    assert r is not None and r.reason is StepReason.BEAR_OFF_HIGHER
    assert r.message.startswith("on the way off: a higher number")


def test_no_die_covers_the_distance() -> None:
    r = refusal(Position.initial(), (6, 5), (8, 4))
    assert r is not None and r.reason is StepReason.NO_DIE and "4 pips away (dice left: 6 and 5)" in r.message


def test_the_higher_die_when_only_one_can_be_played() -> None:
    # "If either number can be played, but not both, the player must play the larger one."
    p = Position.from_position_id("P4BgZA3/PwBAAA")
    plays = p.legal_plays((3, 4))
    assert [str(pl) for pl in plays] == ["17/13"]  # the case: one die only, the 4
    r = refusal(p, (3, 4), (17, 14))  # the 3 alone is a legal step, but not the play
    assert r is not None and r.reason is StepReason.HIGHER_DIE and "play the 4" in r.message


def test_as_many_dice_as_possible() -> None:
    # "A player must use both numbers of a roll if this is legally possible."
    p = Position.from_position_id("4j1kJCB+HwIAGA")
    assert sorted(str(pl) for pl in p.legal_plays((3, 5))) == ["24/16", "24/21 7/2"]
    r = refusal(p, (3, 5), (7, 4))  # 7/4 leaves the 5 unplayable
    assert r is not None and r.reason is StepReason.MORE_DICE and "as many dice as it can" in r.message


def test_dutch_no_hitting_before_home() -> None:
    # Dutch: "no hitting until one of your checkers has reached your home board".
    p = pos("x: 24:14 13:1; o: bar:14 15:1", "dutch")  # an opponent blot on the mover's 10-point
    r = refusal(p, (3, 1), (13, 10))
    assert r is not None and r.reason is StepReason.NO_HIT_YET and r.message.startswith("Dutch backgammon:")


def test_acey_deucey_pool_must_enter_before_bearing_off() -> None:
    # Acey-Deucey: the checkers in the pool have not come home, so nothing bears off yet.
    a = Position(*rows("x: bar:1 6:14; o: 24:2 bar:13"), "acey-deucey", pool=(1, 13))
    r = refusal(a, (6, 5), (6, 0))
    assert r is not None and r.reason is StepReason.POOL_NOT_ENTERED
    assert r.message.startswith("Acey-Deucey:") and "1 still waits in the pool" in r.message


def test_no_checker_and_wrong_way() -> None:
    start = Position.initial()
    r = refusal(start, (6, 5), (11, 5))
    assert r is not None and r.reason is StepReason.NO_CHECKER and "no checker on point 11" in r.message
    r = refusal(start, (6, 5), (1, 0))  # the opponent's 24-point is the mover's 1
    assert r is not None and r.reason is StepReason.NO_CHECKER and "opponent's checker" in r.message
    r = refusal(start, (6, 5), (8, 13))
    assert r is not None and r.reason is StepReason.WRONG_WAY


def test_roll_played() -> None:
    tree = Position.initial().step_tree((6, 5))
    at = tree.walk([(24, 18), (18, 13)])
    r = tree.refusal(at, 13, 7)
    assert r is not None and r.reason is StepReason.ROLL_PLAYED


def test_bad_node() -> None:
    tree = Position.initial().step_tree((6, 5))
    with pytest.raises(IllegalPlayError):
        tree.refusal(len(tree.nodes), 13, 7)
