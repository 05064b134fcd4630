"""Cube decisions checked against rules derived by hand from the cube model and the match equity table.

Each expected value is worked out here from the rule it states (the live cube
past the cash point, the last roll, a dead cube after a take at the score),
not taken from the code's output.
"""

from __future__ import annotations

import numpy as np
import pytest

from gammon.ai.cube import (
    DOUBLE_PASS,
    DOUBLE_TAKE,
    NO_DOUBLE,
    PASS,
    TAKE,
    TOO_GOOD,
    CubeInfo,
    board_efficiency,
    cube_decision,
    cube_efficiency,
    finish_chance,
    race_efficiency,
)
from gammon.ai.met import default_met
from gammon.core.errors import GammonError
from gammon.core.position import Position

MONEY = CubeInfo()


def side(*points: int) -> list[int]:
    """25 counts (points 1..24, bar) with one checker on each of ``points``."""
    counts = [0] * 25
    for q in points:
        counts[q - 1] += 1
    return counts


# -- past the cash point: playing on with the cube kept -------------------------------------


def test_money_live_cube_past_the_cash_point_is_the_line_to_w() -> None:
    # Fully live cube (x = 1): the taker's take point is (W - 1/2) / (W + L + 1/2), so the
    # doubler's cash point is cp = 1 - that.  Past it he can keep the cube and play on: cash
    # later if the game comes back to cp (+1), win W if it goes all the way: the line from
    # (cp, 1) to (1, W).  That is below Janowski's own line there, so it is the no-double value.
    w, wg = 0.85, 0.5
    big_w, big_l = (w + wg) / w, 1.0
    cp = 1 - (big_w - 0.5) / (big_w + big_l + 0.5)
    expected = 1 + (big_w - 1) * (w - cp) / (1 - cp)
    d = cube_decision((w, wg, 0.0, 0.0, 0.0), MONEY, efficiency=1.0)
    assert d.no_double == pytest.approx(expected, abs=1e-12)
    assert d.action == TOO_GOOD


def test_gammonish_position_below_cubeless_one_is_too_good() -> None:
    # Cubeless equity under +1, so cashing beats playing the game out with a dead cube;
    # but keeping the cube (cash later if needed) and playing for the gammons beats the cash.
    y = (0.776, 0.378, 0.012, 0.044, 0.001)
    cubeless = 2 * y[0] - 1 + y[1] + y[2] - y[3] - y[4]
    assert cubeless < 1
    assert cube_decision(y, MONEY, efficiency=0.68).action == TOO_GOOD
    # the same in a 7-point match at 0-0 and in a long match
    for length in (7, 25):
        assert cube_decision(y, CubeInfo(match_length=length), efficiency=0.68).action == TOO_GOOD


def test_without_gammons_nothing_is_too_good_money_or_match() -> None:
    for w in (0.8, 0.9, 0.97):
        assert cube_decision((w, 0, 0, 0, 0), MONEY, efficiency=0.68).action == DOUBLE_PASS
        assert cube_decision((w, 0, 0, 0, 0), CubeInfo(match_length=9), efficiency=0.68).action == DOUBLE_PASS


def test_opponent_too_good_plays_on_below_our_take_point() -> None:
    # He owns the cube and has gammons: below our take point he need not cash (-1 for us),
    # he plays on, so our no-double value is below -1 (money, dead part included).
    d = cube_decision((0.1, 0.0, 0.0, 0.6, 0.0), CubeInfo(value=2, owner=1), efficiency=0.68)
    assert d.no_double < -1.0
    m = cube_decision((0.1, 0.0, 0.0, 0.6, 0.0), CubeInfo(match_length=9, value=2, owner=1), efficiency=0.68)
    assert m.no_double < -1.0


# -- the last roll ------------------------------------------------------------------------------


@pytest.mark.parametrize(("points", "ways"), [
    ((1,), 36), ((3,), 36),  # one checker within three pips: every roll
    ((4,), 34),  # 2-1 falls short
    ((1, 2), 36), ((1, 1), 36),
    ((1, 3), 34),  # 2-1 takes one checker only
    ((2, 2), 26),  # any non-double with a 1 fails; 1-1 moves four pips
    ((6, 6), 4),  # 3-3, 4-4, 5-5, 6-6
    ((1, 1, 1), 6), ((6, 6, 6, 6), 1),  # doubles only
    ((1, 1, 1, 1, 1), 0),
])
def test_finish_chance_counts_the_rolls(points: tuple[int, ...], ways: int) -> None:
    assert finish_chance(side(*points)) == pytest.approx(ways / 36)


def test_finish_chance_bad_input_and_edges() -> None:
    assert finish_chance([0] * 25) == 1.0  # nothing left
    bar = side(1)
    bar[24] = 1
    assert finish_chance(bar) == 0.0
    with pytest.raises(GammonError):
        finish_chance([1, 2, 3])


def test_last_roll_cube_is_dead() -> None:
    # The opponent (not on roll) has one checker on his 2-point: he finishes next roll, so
    # this is our last roll and the cube is dead.
    pos = Position(side(1, 5), side(2))
    assert cube_efficiency(pos) == 0.0
    # Two checkers left for each side, far from one-roll finishes: the race efficiency, nearly.
    far = Position(side(6, 6, 6), side(6, 6, 6))
    assert cube_efficiency(far) == pytest.approx(race_efficiency(18) * (1 - finish_chance(side(6, 6, 6))))


def test_one_efficiency_for_either_side_on_roll() -> None:
    # The same board seen with the other side on roll (board_efficiency's side 1, as the checker
    # play's valuer sees the opponent after its play) gives the swapped position's efficiency.
    for mine, theirs in [(side(1, 5), side(2)), (side(6, 6, 6), side(6, 6, 6)), (side(2, 2), side(20, 21)),
                         (side(3), side(1, 1, 1, 1, 1))]:
        pos = Position(mine, theirs)
        board = np.frombuffer(pos.board, dtype=np.uint8)
        assert board_efficiency(board, 0) == pytest.approx(cube_efficiency(pos))
        assert board_efficiency(board, 1) == pytest.approx(cube_efficiency(pos.swap()))
    # The opponent finishes next roll: our last roll, a dead cube, whichever side asks.
    assert board_efficiency(np.frombuffer(Position(side(2), side(1, 5)).board, dtype=np.uint8), 1) == 0.0
    assert cube_efficiency(Position.initial()) == 0.68


def test_checker_play_values_the_opponents_last_roll_with_a_dead_cube() -> None:
    # After our play we are left with one checker on our 2-point (we finish next roll for sure); the
    # opponent, on roll with two checkers on his 6-point, owns nothing: his cube is dead, so his
    # proper action is the dead-cube one (double when ahead) and our value is its negative.
    from gammon.ai.match_play import PlayValuer

    after = Position(side(2), side(6, 6))
    board = np.frombuffer(after.board, dtype=np.uint8).reshape(1, 50)
    w = finish_chance(side(6, 6))  # his chance to finish first: 4/36
    mover = (1 - w, 0.0, 0.0, 0.0, 0.0)
    values = PlayValuer(MONEY).results(np.asarray([mover]), board)
    dead = cube_decision((w, 0, 0, 0, 0), MONEY, efficiency=0.0)
    assert values.equity[0] == pytest.approx(-dead.equity)
    assert values.equity[0] == pytest.approx(1 - 2 * w)  # far behind, he does not double


@pytest.mark.parametrize(("w", "action", "taker"), [
    (0.45, NO_DOUBLE, TAKE), (0.55, DOUBLE_TAKE, TAKE), (0.74, DOUBLE_TAKE, TAKE), (0.8, DOUBLE_PASS, PASS),
])
def test_last_roll_rule_money(w: float, action: str, taker: str) -> None:
    # The last roll, money, dead cube: double with more than 50%, take with up to 75%
    # (taking loses 2(2w - 1), passing loses 1).
    d = cube_decision((w, 0, 0, 0, 0), MONEY, efficiency=0.0)
    assert d.action == action and d.taker_action == taker
    assert d.no_double == pytest.approx(2 * w - 1)
    assert d.double_take == pytest.approx(2 * (2 * w - 1))


def test_last_roll_redouble_with_an_owned_cube() -> None:
    # We own a 2-cube, two checkers on our 1- and 5-points, the opponent finishes next roll.
    # We bear off with 23 of 36 rolls (anything with a 5 or a 6, or 2-2, 3-3, 4-4): owning the
    # cube is worth nothing on the last roll, so we redouble and he takes (23/36 < 75%).
    pos = Position(side(1, 5), side(2))
    w = finish_chance(side(1, 5))
    assert w == pytest.approx(23 / 36)
    d = cube_decision((w, 0, 0, 0, 0), CubeInfo(value=2, owner=0), cube_efficiency(pos))
    assert d.action == DOUBLE_TAKE
    assert d.no_double == pytest.approx(2 * w - 1)


# -- match scores -------------------------------------------------------------------------------


def test_take_point_when_the_takers_cube_is_dead() -> None:
    # 4-away doubles 2-away (7-point match, 3-5).  After the take the 2-away side owns a
    # 2-cube that wins him the match with any win (dead), so with no gammons the doubler's
    # MWC after the take is w * MWC(2a-2a) = w / 2, and the taker takes while his
    # chance t meets t * 1 + (1 - t) * (1 - 1/2) >= 1 - MWC(3a-2a): t >= 1 - 2 MWC(3a-2a).
    met = default_met()
    info = CubeInfo(match_length=7, score=(3, 5))
    for w in (0.55, 0.7):
        d = cube_decision((w, 0, 0, 0, 0), info, efficiency=0.68)
        assert d.mwc is not None
        assert d.mwc[1] == pytest.approx(w * met.equity(2, 2))
        assert d.mwc[2] == pytest.approx(met.equity(3, 2))
        assert d.take_point == pytest.approx(1 - 2 * met.equity(3, 2))


def test_post_crawford_trailer_doubles_at_once_and_leader_takes_or_drops_by_the_table() -> None:
    # The leader is 1-away: his cube is dead, the trailer loses nothing by doubling at once.
    met = default_met()
    for trailer_away in (2, 3, 4, 5):
        info = CubeInfo(match_length=7, score=(7 - trailer_away, 6))
        d = cube_decision((0.5, 0.13, 0.005, 0.13, 0.005), info, efficiency=0.68)
        assert d.doubles
        # passing gives the trailer one point: the post-Crawford table at (n - 1)-away
        assert d.mwc is not None and d.mwc[2] == pytest.approx(met.equity(trailer_away - 1, 1))


# -- hints at the score ------------------------------------------------------------------------


def test_cube_info_from_an_xgid() -> None:
    from gammon.core.xgid import XgidState

    state = XgidState(Position.initial(), cube_value=2, cube_owner=-1, score=(3, 5), match_length=7)
    info = CubeInfo.from_xgid(state)
    assert (info.value, info.owner, info.match_length, info.score) == (2, 1, 7, (3, 5))
    money = CubeInfo.from_xgid(XgidState(Position.initial(), cube_owner=1, jacoby=True, beaver=True))
    assert money.is_money and money.owner == 0 and money.jacoby and money.beavers


def test_protocol_hint_at_double_match_point_ranks_by_winning_chances() -> None:
    # At 1-away/1-away only winning matters: gammons count for nothing, no cube.  The hint
    # the engine protocol gives for an XGID at that score must rank plays by the chance to win.
    from gammon.core.xgid import XgidState, format_xgid
    from gammon.play.engine_protocol import EngineProtocol

    pos = Position.from_position_id("4HPwATDgc/ABMA")
    state = XgidState(pos, dice=(6, 4), score=(6, 6), match_length=7)
    proto = EngineProtocol("expert")
    proto.handle(f"position xgid {format_xgid(state)}")
    lines = proto.handle("hint 100")
    ranked = proto.player.engine.rank_plays(pos, (6, 4), CubeInfo.from_xgid(state))  # type: ignore[attr-defined]
    assert len(lines) == len(ranked) > 5
    wins = [r.probabilities[0] for r in ranked]
    assert wins == sorted(wins, reverse=True)
    shown = [line.split(" equity ")[0].split(" ", 2)[2] for line in lines]
    assert shown == [str(r.play) for r in ranked]
    # and that is not the cubeless money order here (so the score really is used)
    money = proto.player.engine.rank_plays(pos, (6, 4))  # type: ignore[attr-defined]
    assert [str(r.play) for r in money] != shown
