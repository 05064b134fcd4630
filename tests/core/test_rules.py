"""One small test per rule of the game and its variants.

Boards are drawn with the fixture helper of ``tests/boards.py``: ``x`` is the
player on roll, ``o`` the opponent, each side numbering points from its own
side (the mover's point ``p`` is the opponent's point ``25 - p``); checkers not
listed are borne off.
"""

from __future__ import annotations

import pytest

from boards import canon, pos, result_specs, results, rows, spec
from gammon import Outcome, Position, ResultKind
from gammon.core.variants import VARIANTS

STANDARD_START = "x: 24:2 13:5 8:3 6:5; o: 24:2 13:5 8:3 6:5"
ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def specs(*texts: str) -> set[str]:
    return {canon(t) for t in texts}


# -- setup and direction ---------------------------------------------------------------


def test_opening_setup_and_pip_count() -> None:
    # Each side: two on its 24 point, five on 13, three on 8, five on 6.
    p = Position.initial()
    assert p == pos(STANDARD_START)
    assert p.me == p.opp == tuple(pos(STANDARD_START).me)
    assert p.pip_counts == (167, 167)
    assert p.checkers_off == (0, 0)
    assert p.bar == (0, 0)
    assert p.position_id == "4HPwATDgc/ABMA"
    assert not p.is_game_over and p.outcome is None


def test_checkers_move_from_high_points_to_low() -> None:
    # x's lone checker on 10 moves down to 7; o's lone checker on its own 24
    # (x's 1 point) moves down o's numbering, i.e. up x's numbering.
    p = pos("x: 10:1; o: 24:1")
    assert results(p, (2, 1)) == {"10/7"}
    assert result_specs(p, (2, 1)) == specs("x: 7:1; o: 24:1")
    after_o = {q.swap() for q in p.swap().legal_plays((2, 1)).positions()}
    assert {spec(q) for q in after_o} == specs("x: 10:1; o: 21:1")


def test_dice_order_does_not_matter() -> None:
    p = Position.initial()
    for a, b in ALL_ROLLS:
        assert result_specs(p, (a, b)) == result_specs(p, (b, a))


def test_play_position_is_seen_from_the_mover_before_the_turn_passes() -> None:
    p = Position.initial()
    (play,) = [pl for pl in p.legal_plays((3, 1)) if str(pl) == "8/5 6/5"]
    assert spec(play.position) == canon("x: 24:2 13:5 8:2 6:4 5:2; o: 24:2 13:5 8:3 6:5")


# -- moving ----------------------------------------------------------------------------


def test_a_point_held_by_two_opponents_is_blocked() -> None:
    # o holds x's 5 point (o's 20).  8/5 is blocked; 8/7/4 goes round it.
    p = pos("x: 8:1; o: 20:2")
    assert results(p, (3, 1)) == {"8/4"}
    (play,) = p.legal_plays((3, 1))
    assert [(m.from_point, m.to_point) for m in play.moves] == [(8, 7), (7, 4)]
    # With 3-3 nothing can move at all.
    assert len(p.legal_plays((3, 3))) == 0


def test_doubles_are_played_four_times() -> None:
    p = pos("x: 24:1; o: 24:1")
    assert results(p, (2, 2)) == {"24/16"}
    (play,) = p.legal_plays((2, 2))
    assert play.dice_used == 4
    plays = Position.initial().legal_plays((6, 6))
    assert all(pl.dice_used == 4 for pl in plays)
    assert "24/18(2) 13/7(2)" in {str(pl) for pl in plays}


def test_doubles_play_as_many_as_possible_when_not_all_four_can_be() -> None:
    # o holds x's 5 point: 8/7/6 and then the third 1 is blocked.
    p = pos("x: 8:1; o: 20:2")
    assert results(p, (1, 1)) == {"8/6"}
    assert [pl.dice_used for pl in p.legal_plays((1, 1))] == [2]


def test_hitting_a_blot_sends_it_to_the_bar() -> None:
    # o's blot on its 20 point is on x's 5 point: 13/7/5* or 13/11/5*.
    p = pos("x: 13:1; o: 20:1 6:5")
    plays = p.legal_plays((6, 2))
    assert {str(pl) for pl in plays} == {"13/5*"}
    (play,) = plays
    assert play.hits == 1 and play.moves[-1].hit
    assert play.position.bar == (0, p.bar[1] + 1)
    assert spec(play.position) == canon("x: 5:1; o: bar:1 6:5")


def test_a_checker_on_the_bar_must_enter_before_any_other_moves() -> None:
    p = pos("x: bar:1 13:5; o: 1:2")
    plays = p.legal_plays((4, 3))
    assert len(plays) > 0
    for play in plays:
        assert play.moves[0].from_point == 25
    assert all(sum(m.from_point == 25 for m in pl.moves) == 1 for pl in plays)
    # Two on the bar use both dice to enter.
    assert results(pos("x: bar:2 13:5; o: 1:2"), (6, 5)) == {"bar/20 bar/19"}


def test_no_other_move_while_the_bar_checker_cannot_enter() -> None:
    # o holds its 6 and 5 points (x's 19 and 20): 6-5 cannot enter, so 13/7 is not allowed.
    p = pos("x: bar:1 13:5; o: 6:2 5:2")
    assert len(p.legal_plays((6, 5))) == 0


def test_entering_against_a_closed_board_is_a_pass() -> None:
    p = pos("x: bar:1 13:2; o: 6:2 5:2 4:2 3:2 2:2 1:2")
    for dice in ALL_ROLLS:
        assert len(p.legal_plays(dice)) == 0, dice


def test_both_dice_must_be_played_when_possible() -> None:
    # o holds x's 18 point.  bar/24 (the 1) leaves the 6 unplayable (24/18 blocked,
    # no bear-off), but bar/19 6/5 plays both dice, so bar/24 alone is not offered.
    p = pos("x: bar:1 6:1; o: 7:2")
    assert results(p, (6, 1)) == {"bar/19 6/5"}


def test_when_only_one_die_can_be_played_the_higher_must_be() -> None:
    # o holds x's 4 point: 13/7 or 13/10 alone is possible, never both (13/4 is blocked).
    p = pos("x: 13:1; o: 21:2")
    assert results(p, (6, 3)) == {"13/7"}
    assert results(p, (3, 6)) == {"13/7"}


def test_when_only_the_lower_die_can_be_played_it_is_played() -> None:
    # o holds x's 7 and 4 points: 13/7 is blocked, 13/10 is fine, then 10/4 is blocked.
    p = pos("x: 13:1; o: 18:2 21:2")
    assert results(p, (6, 3)) == {"13/10"}


# -- bearing off -----------------------------------------------------------------------


def test_no_bearing_off_while_a_checker_is_outside_the_home_board() -> None:
    p = pos("x: 8:1 2:1; o: 1:2")
    assert results(p, (2, 1)) == {"8/5", "8/6 2/1"}


def test_bearing_off_becomes_legal_once_the_last_checker_comes_home() -> None:
    # 8/3 brings the last checker home; then the 3 bears one off.
    p = pos("x: 8:1 3:1; o: 1:2")
    assert canon("x: 3:1; o: 1:2") in result_specs(p, (5, 3))


def test_exact_numbers_bear_off() -> None:
    p = pos("x: 6:2 5:2; o: 1:2")
    assert results(p, (6, 5)) == {"6/off 5/off", "6/1 6/off"}


def test_a_higher_number_bears_off_only_from_the_highest_point() -> None:
    # The 6 takes the checker on 4 (the highest), never the one on 2.
    p = pos("x: 4:1 2:1; o: 1:2")
    assert result_specs(p, (6, 1)) == specs("x: 2:1; o: 1:2", "x: 1:1; o: 1:2")


def test_a_higher_number_must_move_a_checker_on_a_higher_point() -> None:
    # A checker on 6 stands above the 3: the 5 and the 4 must move it (6/1, 6/2),
    # and only then may the other die bear off the 3 from the highest point.
    p = pos("x: 6:1 3:1; o: 1:2")
    assert result_specs(p, (5, 4)) == specs("x: 1:1; o: 1:2", "x: 2:1; o: 1:2")
    assert results(p, (5, 4)) == {"6/1 3/off", "6/2 3/off"}


def test_a_hit_checker_must_come_home_again_before_bearing_off() -> None:
    # x was hit: fourteen at home, one on the bar.  No play may bear off.
    p = pos("x: bar:1 6:4 5:5 4:5; o: 1:2 12:3")
    plays = p.legal_plays((6, 5))
    assert {str(pl) for pl in plays} == {"bar/14", "bar/19 6/1"}
    assert all(m.to_point != 0 for pl in plays for m in pl.moves)


def test_bearing_off_the_last_checker_ends_the_game() -> None:
    p = pos("x: 6:1 1:1; o: 6:2")
    (play,) = [pl for pl in p.legal_plays((6, 1)) if str(pl) == "6/off 1/off"]
    assert play.position.is_game_over
    assert play.position.outcome == Outcome(True, ResultKind.SINGLE)
    # A single checker borne off with one die: the game is over, one die is enough.
    (last,) = pos("x: 3:1; o: 6:2").legal_plays((6, 5))
    assert str(last) == "3/off" and last.dice_used == 1 and last.position.is_game_over


def test_no_legal_move_is_a_pass() -> None:
    p = pos("x: 8:1; o: 20:2 19:2 18:2")  # o holds x's 5, 6 and 7 points
    assert len(p.legal_plays((3, 1))) == 0
    assert list(p.legal_plays((2, 1))) == []


# -- results ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("x: ; o: 6:5", Outcome(True, ResultKind.SINGLE)),
        ("x: ; o: 6:15", Outcome(True, ResultKind.GAMMON)),
        ("x: ; o: 18:1 6:14", Outcome(True, ResultKind.GAMMON)),  # o's 18 = x's 7: outside
        ("x: ; o: bar:1 6:14", Outcome(True, ResultKind.BACKGAMMON)),
        ("x: ; o: 20:1 6:14", Outcome(True, ResultKind.BACKGAMMON)),  # o's 20 = x's 5
        ("x: ; o: 24:1 6:14", Outcome(True, ResultKind.BACKGAMMON)),
        ("x: 6:15; o:", Outcome(False, ResultKind.GAMMON)),
        ("x: 6:3; o:", Outcome(False, ResultKind.SINGLE)),
        ("x: 19:1 6:14; o:", Outcome(False, ResultKind.BACKGAMMON)),  # x's 19 = o's 6
        ("x: 1:1 6:14; o:", Outcome(False, ResultKind.GAMMON)),
    ],
)
def test_game_over_outcomes(text: str, expected: Outcome) -> None:
    p = pos(text)
    assert p.is_game_over
    assert p.outcome == expected
    assert p.swap().outcome == Outcome(not expected.winner_is_me, expected.kind)


def test_a_game_in_progress_has_no_outcome() -> None:
    p = pos("x: 1:1; o: 1:1")
    assert not p.is_game_over and p.outcome is None


# -- variants --------------------------------------------------------------------------


def test_nackgammon_start() -> None:
    p = Position.initial("nackgammon")
    assert p == pos("x: 24:2 23:2 13:4 8:3 6:4; o: 24:2 23:2 13:4 8:3 6:4", "nackgammon")
    assert p.pip_counts == (194, 194)
    assert p.variant.checkers == 15


@pytest.mark.parametrize(
    ("name", "start", "pips"),
    [
        ("hypergammon1", "24:1", 24),
        ("hypergammon2", "24:1 23:1", 47),
        ("hypergammon", "24:1 23:1 22:1", 69),
    ],
)
def test_hypergammon_starts(name: str, start: str, pips: int) -> None:
    p = Position.initial(name)
    assert p == pos(f"x: {start}; o: {start}", name)
    assert p.pip_counts == (pips, pips)
    assert p.checkers_off == (0, 0)
    assert p.variant.checkers == len(start.split())


def test_hypergammon_legal_plays() -> None:
    one = Position.initial("hypergammon1")
    assert results(one, (6, 5)) == {"24/13"}
    three = Position.initial("hypergammon")
    o = "o: 24:1 23:1 22:1"
    assert result_specs(three, (2, 1)) == specs(
        f"x: 22:3; {o}",
        f"x: 23:1 22:1 21:1; {o}",
        f"x: 24:1 21:2; {o}",
        f"x: 23:2 20:1; {o}",
        f"x: 24:1 22:1 20:1; {o}",
        f"x: 24:1 23:1 19:1; {o}",
    )
    # Bearing off with three checkers: all home means all three.
    p = pos("x: 6:1 2:1; o: 6:1 5:1 4:1", "hypergammon")
    assert p.checkers_off == (1, 0)
    (play,) = p.legal_plays((6, 6))
    assert str(play) == "6/off 2/off" and play.dice_used == 2
    # o has borne off none of its three, all in its home board: a gammon.
    assert play.position.outcome == Outcome(True, ResultKind.GAMMON)


def test_dutch_starts_with_every_checker_on_the_bar() -> None:
    p = Position.initial("dutch")
    assert p == pos("x: bar:15; o: bar:15", "dutch")
    assert p.bar == (15, 15)
    assert p.checkers_off == (0, 0)
    assert p.pip_counts == (375, 375)
    assert results(p, (6, 5)) == {"bar/20 bar/19"}
    assert results(p, (3, 3)) == {"bar/22(4)"}


def test_dutch_must_enter_before_moving_others() -> None:
    p = pos("x: bar:14 24:1; o: bar:15", "dutch")
    assert results(p, (6, 5)) == {"bar/20 bar/19"}
    q = pos("x: bar:1 24:14; o: bar:15", "dutch")
    assert all(pl.moves[0].from_point == 25 for pl in q.legal_plays((6, 5)))


def test_dutch_no_hitting_before_a_checker_has_reached_home() -> None:
    # o's blot on its 16 point is on x's 9 point; no x checker is home or off.
    p = pos("x: 24:14 12:1; o: bar:14 16:1", "dutch")
    plays = p.legal_plays((3, 1))
    assert len(plays) > 0
    assert all(pl.hits == 0 for pl in plays)
    assert all(m.to_point != 9 for pl in plays for m in pl.moves)  # can't land on the blot


def test_dutch_hitting_allowed_once_a_checker_is_home() -> None:
    p = pos("x: 24:13 12:1 3:1; o: bar:14 16:1", "dutch")
    assert {"12/9*/8", "12/9* 3/2", "24/23 12/9*"} <= results(p, (3, 1))
    assert any(pl.hits for pl in p.legal_plays((3, 1)))


def test_dutch_hitting_allowed_once_a_checker_is_borne_off() -> None:
    p = pos("x: 24:13 12:1; o: bar:14 16:1", "dutch")  # one x checker is off
    assert p.checkers_off == (1, 0)
    assert any(pl.hits for pl in p.legal_plays((3, 1)))


def test_dutch_hit_after_reaching_home_earlier_in_the_same_turn_with_the_other_die() -> None:
    # 7/6 brings a checker home, then 12/9* may hit; 12/9* first may not.
    p = pos("x: 24:13 12:1 7:1; o: bar:14 16:1", "dutch")
    plays = p.legal_plays((3, 1))
    hitting = [pl for pl in plays if pl.hits]
    assert [str(pl) for pl in hitting] == ["12/9* 7/6"]
    (play,) = hitting
    assert [(m.from_point, m.to_point, m.hit) for m in play.moves] == [
        (7, 6, False),
        (12, 9, True),
    ]


def test_dutch_hit_after_reaching_home_earlier_in_the_same_turn_with_doubles() -> None:
    p = pos("x: 24:13 12:1 7:1; o: bar:14 16:1", "dutch")
    plays = p.legal_plays((3, 3))
    hitting = [pl for pl in plays if pl.hits]
    assert hitting
    for play in hitting:
        first_hit = next(i for i, m in enumerate(play.moves) if m.hit)
        assert any(m.to_point <= 6 for m in play.moves[:first_hit]), str(play)


def test_dutch_the_hitting_checker_itself_does_not_count_as_reaching_home() -> None:
    # gammon's reading: a checker must already be home (or off) when the hit happens;
    # 8/5* lands the hitter in the home board but it was not there before.
    p = pos("x: 24:14 8:1; o: bar:14 20:1", "dutch")
    assert all(pl.hits == 0 for pl in p.legal_plays((3, 2)))


def test_acey_deucey_starts_in_the_pool_not_on_the_bar() -> None:
    # "A hit checker is not a checker that never entered": all fifteen start in the pool.
    p = Position.initial("acey-deucey")
    assert p == Position(*rows("x: bar:15; o: bar:15"), "acey-deucey", pool=(15, 15))
    assert p.pool == (15, 15) and p.bar == (0, 0)
    assert p != pos("x: bar:15; o: bar:15", "acey-deucey")  # fifteen hit checkers instead


def test_acey_deucey_pool_checkers_may_wait_while_others_move() -> None:
    # "Checkers still in the pool may wait while others move."  Pool entries are written in/..
    p = Position(*rows("x: bar:14 24:1; o: bar:15"), "acey-deucey", pool=(14, 15))
    assert results(p, (6, 5)) == {
        "in/20 in/19",  # enter two
        "in/14",  # enter one and move it on
        "in/20 24/18",  # enter one and move the one already in
        "in/19 24/19",
        "24/13",  # leave the pool checkers waiting
    }
    after = next(pl for pl in p.legal_plays((6, 5)) if str(pl) == "24/13").position
    assert after.pool == (14, 15)


def test_acey_deucey_a_hit_checker_reenters_before_any_other_move() -> None:
    # "A checker on the bar re-enters before any other move of its side, as in standard play."
    p = Position(*rows("x: bar:14 24:1; o: bar:15"), "acey-deucey", pool=(13, 15))
    assert p.bar == (1, 0)
    # Entering two reaches one position, written with the pool entry first (higher point).
    assert results(p, (6, 5)) == {"in/20 bar/19", "bar/14", "bar/20 24/18", "bar/19 24/19"}
    for play in p.legal_plays((6, 5)):
        assert play.moves[0].from_point == 25 and not play.moves[0].from_pool  # the hit checker first


def test_acey_deucey_a_hit_checker_goes_to_the_bar_not_the_pool() -> None:
    p = Position(*rows("x: 24:1 bar:13; o: 5:1 bar:14"), "acey-deucey", pool=(13, 14))
    (play,) = [pl for pl in p.legal_plays((4, 4)) if str(pl) == "24/20*/8"]
    assert play.position.bar == (0, 1) and play.position.pool == (13, 14)


def test_every_variant_is_registered_and_starts_full() -> None:
    for name, v in VARIANTS.items():
        p = Position.initial(name)
        assert p.variant is v
        assert sum(p.me) == sum(p.opp) == v.checkers
        assert p.checkers_off == (0, 0)


# -- views -----------------------------------------------------------------------------


def test_swap() -> None:
    p = pos("x: bar:1 13:2 6:3; o: 24:1 8:4")
    q = p.swap()
    assert q.me == p.opp and q.opp == p.me
    assert q.swap() == p
    assert q.pip_counts == p.pip_counts[::-1]
    assert q.bar == p.bar[::-1]
    assert q.checkers_off == p.checkers_off[::-1]
    assert Position.initial().swap() == Position.initial()


def test_pip_counts() -> None:
    assert pos("x: bar:1 24:1 1:1; o: 6:2").pip_counts == (50, 12)


def test_checkers_off() -> None:
    assert pos("x: 6:5; o: 1:15").checkers_off == (10, 0)
    assert pos("x: 1:1; o: 1:1", "hypergammon").checkers_off == (2, 2)


def test_bar() -> None:
    assert pos("x: bar:2 6:13; o: bar:1 6:14").bar == (2, 1)


@pytest.mark.parametrize(
    ("text", "variant"),
    [
        (STANDARD_START, "standard"),
        ("x: bar:2 6:13; o: bar:1 20:1 6:10", "standard"),
        ("x: 24:2 23:2 13:4 8:3 6:4; o: 24:2 23:2 13:4 8:3 6:4", "nackgammon"),
        ("x: 24:1; o: 3:1", "hypergammon1"),
        ("x: bar:12 3:1; o: bar:15", "dutch"),
        ("x: bar:12 3:1; o: bar:15", "acey-deucey"),
        ("x: bar:12 3:1; o: bar:15 1:0", "acey-deucey"),
        ("x: ; o: 6:15", "standard"),
    ],
)
def test_repr_round_trip(text: str, variant: str) -> None:
    p = pos(text, variant)
    again = eval(repr(p), {"Position": Position})
    assert again == p
    assert again.variant is p.variant
