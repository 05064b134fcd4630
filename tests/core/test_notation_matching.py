"""How a written play is matched to a legal play: the walks of each written part with the dice.

The module docstring of :mod:`gammon.core.notation` says how: every written
part (``from/to``) is one checker walking from ``from`` to ``to`` with one or
more dice *of the roll*; a stop on a point the opponent holds (two or more
checkers) is no way; bearing off may overshoot on the last die; the parts may
be written in any order.  The tests here check those rules where the text
names a stop (written or not) that decides whether a play fits, and the
documented contracts of the matching helpers.
"""

from __future__ import annotations

from collections import Counter

import pytest

from boards import pos
from gammon.core.errors import IllegalPlayError
from gammon.core.notation import _find_board, _landings, _walks, parse_play, parse_segments
from gammon.core.position import Position


def moved(position: Position, text: str, dice: tuple[int, int] | None) -> str:
    return str(parse_play(position, text, dice))


# -- a written stop is a stop --------------------------------------------------


@pytest.mark.parametrize("held", [2, 3])
def test_a_written_stop_on_a_point_the_opponent_holds_is_no_play(held: int) -> None:
    """``13/7 7/2`` stops on the 7-point: with the opponent holding it (two checkers
    or more) the text names no legal play, although the checker can go 13/8/2."""
    p = pos(f"x: 13:2 6:5; o: 18:{held} 1:{15 - held}")  # o's 18 is x's 7
    assert moved(p, "13/2", (6, 5)) == "13/2"  # the way by the open 8-point
    assert moved(p, "13/8/2", (6, 5)) == "13/2"
    for text in ("13/7 7/2", "13/7/2", "7/2 13/7"):
        with pytest.raises(IllegalPlayError, match="the 7-point is held by the opponent"):
            parse_play(p, text, (6, 5))
        with pytest.raises(IllegalPlayError):
            parse_play(p, text)  # no roll makes it either


def test_a_written_stop_on_the_one_point_the_opponent_holds_is_no_play() -> None:
    """The opponent's anchor on the mover's 1-point (their 24-point) is held like
    any other point: ``6/1/off`` with 5-1 names no play, ``6/off`` (by 6/5/off) does."""
    p = pos("x: 6:1 5:2; o: 24:2 13:13")
    assert moved(p, "6/off", (5, 1)) == "6/off"
    assert moved(p, "6/5/off", (5, 1)) == "6/off"
    for dice in ((5, 1), None):
        with pytest.raises(IllegalPlayError, match="the 1-point is held by the opponent"):
            parse_play(p, "6/1/off", dice)
        with pytest.raises(IllegalPlayError):
            parse_play(p, "6/1 1/off", dice)


def test_a_written_stop_must_be_reached_with_the_dice_of_the_roll() -> None:
    """``6/4 4/off`` needs a 2 for 6/4: it is no 6-1 play, though 6/off is (6/5/off;
    each die is used once, and 6/5/4 would need two 1s).  With 4-2 it is a play."""
    p = pos("x: 6:1 5:1 4:1 3:1 2:1 1:1; o: 6:4 14:3 13:8")
    assert moved(p, "6/off", (6, 1)) == "6/off"
    assert moved(p, "6/5/off", (6, 1)) == "6/off"
    for text in ("6/4 4/off", "4/off 6/4", "6/4/off"):
        with pytest.raises(IllegalPlayError, match="no legal play for 6-1"):
            parse_play(p, text, (6, 1))
        assert moved(p, text, (4, 2)) == "6/off"


def test_two_dice_walk_may_stop_on_the_one_point_when_bearing_off() -> None:
    """``3/off`` with 2-1 is one checker with both dice; with the 2-point held the
    only way stops on the 1-point, hitting the blot there (an unwritten hit)."""
    q = pos("x: 3:1; o: 23:2 24:1 13:12")  # o's 23 and 24 are x's 2 and 1
    play = parse_play(q, "3/off", (2, 1))
    assert str(play) == "3/1*/off"
    assert play.position.opp[24] == 1  # the blot went to the bar
    assert moved(q, "3/1*/off", (2, 1)) == "3/1*/off"


def test_parts_in_any_order_bear_off_the_checker_the_other_part_brings_home() -> None:
    """``4/off 8/4`` lists the parts of 8/4/off out of order: 8/4 uses the 4 and the
    checker on the 4-point goes off with the 5 (all home by then)."""
    p = pos("x: 8:1 4:1; o: 13:15")
    assert {str(play) for play in p.legal_plays((5, 4))} == {"8/off", "8/3 4/off"}
    for text in ("8/4 4/off", "4/off 8/4", "4/off, 8/4", "8/4/off"):
        for dice in ((5, 4), (4, 5), None):
            play = parse_play(p, text, dice)
            assert play.position.me[:8] == (0, 0, 0, 1, 0, 0, 0, 0), (text, dice)  # 8 went off


# -- the matching helpers' contracts -------------------------------------------


def walks(start: int, end: int, dice: dict[int, int], blocked: set[int] = frozenset()) -> list:
    """``_walks`` as a sorted list, checking that it leaves the dice as they were."""
    pool = Counter(dice)
    ways = _walks(start, end, pool, frozenset(blocked))
    assert pool == Counter(dice), "the dice must be the same after the call"
    return sorted(ways)


def test_walks_are_every_way_one_checker_goes_with_the_dice() -> None:
    """24/13 with 6-5: by the 19-point (5 first) or by the 18-point (6 first)."""
    assert walks(24, 13, {6: 1, 5: 1}) == [([5, 6], [19, 13]), ([6, 5], [18, 13])]
    assert walks(24, 18, {6: 1, 5: 1}) == [([6], [18])]
    assert walks(24, 20, {6: 1, 5: 1}) == []  # no die or sum of dice is 4
    assert walks(12, 4, {4: 4}) == [([4, 4], [8, 4])]
    assert walks(13, 1, {4: 4}) == [([4, 4, 4], [9, 5, 1])]
    assert walks(24, 4, {5: 4}) == [([5, 5, 5, 5], [19, 14, 9, 4])]
    assert walks(24, 3, {5: 4}) == []  # 21 pips are no sum of 5s


def test_walks_stop_on_no_point_the_opponent_holds() -> None:
    assert walks(24, 13, {6: 1, 5: 1}, {18}) == [([5, 6], [19, 13])]
    assert walks(24, 13, {6: 1, 5: 1}, {18, 19}) == []
    assert walks(13, 7, {6: 1, 5: 1}, {7}) == []  # nor end on one
    assert walks(12, 4, {4: 4}, {8}) == []


def test_walks_bear_off_exactly_or_overshooting_on_the_last_die() -> None:
    """Off is not a landing; a die at least the distance bears off (the generator
    decides whether an overshoot is legal), and a walk stops there."""
    assert walks(4, 0, {5: 1, 4: 1}) == [([4], []), ([5], [])]
    assert walks(3, 0, {2: 1, 1: 1}) == [([1, 2], [2]), ([2, 1], [1])]  # the 1-point is a stop
    assert walks(3, 0, {2: 1, 1: 1}, {2}) == [([2, 1], [1])]
    assert walks(8, 0, {6: 1, 5: 1}) == [([5, 6], [3]), ([6, 5], [2])]
    assert walks(6, 0, {2: 4}) == [([2, 2, 2], [4, 2])]
    assert walks(7, 0, {2: 4}) == [([2, 2, 2, 2], [5, 3, 1])]
    assert walks(9, 0, {2: 4}) == []  # four 2s carry a checker 8 pips


def landings(segments: str, dice: dict[int, int], blocked: set[int] = frozenset()) -> set:
    return set(_landings(parse_segments(segments), Counter(dice), frozenset(blocked)))


def test_landings_cover_every_part_with_each_die_used_once() -> None:
    assert landings("24/18 13/11", {6: 1, 2: 1}) == {frozenset({18, 11})}
    assert landings("24/13", {6: 1, 5: 1}) == {frozenset({19, 13}), frozenset({18, 13})}
    assert landings("24/13", {6: 1, 5: 1}, {19}) == {frozenset({18, 13})}
    assert landings("13/7 8/2", {6: 1, 5: 1}) == set()  # two 6s wanted
    assert landings("6/4 4/off", {6: 1, 1: 1}) == set()  # 6/4 needs 1 and 1
    assert landings("4/off 6/4", {6: 1, 1: 1}) == set()
    assert landings("4/off 8/4", {5: 1, 4: 1}) == {frozenset({4})}  # the 4 for 8/4, the 5 off
    assert landings("8/4 4/off", {5: 1, 4: 1}) == {frozenset({4})}
    assert landings("13/9(2) 6/2(2)", {4: 4}) == {frozenset({9, 2})}
    assert landings("13/9(3) 6/2(2)", {4: 4}) == set()  # five 4s
    assert landings("13/5 6/2 8/4", {4: 4}) == {frozenset({9, 5, 2, 4})}
    assert landings("13/5 6/2 8/4 8/4", {4: 4}) == set()
    assert landings("", {4: 4}) == {frozenset()}


class _PlaysWithoutBoards:
    """A sequence of plays that offers only its positions (not the generator's rows)."""

    def __init__(self, position: Position, dice: tuple[int, int]) -> None:
        self._legal = position.legal_plays(dice)

    def positions(self) -> list[Position]:
        return self._legal.positions()


@pytest.mark.parametrize("plain", [False, True])
def test_find_board_gives_the_index_of_the_legal_play_reaching_a_board(plain: bool) -> None:
    start = Position.initial()
    legal = start.legal_plays((6, 2))
    plays = _PlaysWithoutBoards(start, (6, 2)) if plain else legal
    for i, play in enumerate(legal):
        assert _find_board(plays, play.position.board) == i  # type: ignore[arg-type]
    assert _find_board(plays, start.board) is None  # type: ignore[arg-type]
    assert _find_board(plays, start.legal_plays((5, 4))[0].position.board) is None  # type: ignore[arg-type]
