"""Cube decisions: Janowski's money model and match play through our match equity table."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from gammon.ai.cube import (
    BEAVER,
    CENTERED,
    DOUBLE_PASS,
    DOUBLE_TAKE,
    NO_DOUBLE,
    PASS,
    TAKE,
    TOO_GOOD,
    CubeInfo,
    cube_action,
    cube_decision,
    cube_efficiency,
    evaluate_plies,
    race_efficiency,
    take_decision,
)
from gammon.ai.met import default_met
from gammon.ai.network import Network
from gammon.ai.probabilities import Probabilities
from gammon.core.errors import GammonError
from gammon.core.game import Game, Rules
from gammon.core.position import Position

MONEY = CubeInfo()
NO_GAMMONS = (0.0, 0.0, 0.0, 0.0)


def p(win: float, wg: float = 0.0, wbg: float = 0.0, lg: float = 0.0, lbg: float = 0.0) -> tuple[float, ...]:
    return (win, wg, wbg, lg, lbg)


class NetAdapter:
    """The evaluator protocol over a bare :class:`Network` (player on roll's view)."""

    def __init__(self, net: Network) -> None:
        self.net = net

    def evaluate(self, position: Position) -> Probabilities:
        return Probabilities.of(self.net.evaluate(position.board))

    def evaluate_batch(self, positions: Sequence[Position]) -> np.ndarray:
        boards = np.frombuffer(b"".join(q.board for q in positions), dtype=np.uint8).reshape(-1, 50)
        return self.net.evaluate_boards(boards).astype(np.float64)


# -- money -------------------------------------------------------------------------------


def test_even_game_no_double() -> None:
    d = cube_decision(p(0.5), MONEY)
    assert d.action == NO_DOUBLE
    assert d.no_double == pytest.approx(0.0)
    assert d.double_take < d.no_double
    assert d.taker_action == TAKE
    assert d.can_double


def test_strong_position_double_pass() -> None:
    d = cube_decision(p(0.8), MONEY)
    assert d.action == DOUBLE_PASS
    assert d.taker_action == PASS
    assert d.double_take > 1.0 == d.double_pass
    assert d.equity == 1.0
    assert d.doubles


def test_double_take_window() -> None:
    d = cube_decision(p(0.72), MONEY)
    assert d.action == DOUBLE_TAKE
    assert d.no_double < d.double_take < d.double_pass


def test_money_take_point() -> None:
    d = cube_decision(p(0.6), MONEY)
    assert 0.2 < d.take_point < 0.25  # live cube, no gammons, efficiency 0.68
    assert cube_decision(p(0.6), MONEY, efficiency=1.0).take_point == pytest.approx(0.2)
    assert cube_decision(p(0.6), MONEY, efficiency=0.0).take_point == pytest.approx(0.25)
    # Just inside and just outside the take point (taker's chances 1 - p).
    tp = d.take_point
    assert take_decision(p(1 - tp + 0.01), MONEY).action == PASS
    assert take_decision(p(1 - tp - 0.01), MONEY).action == TAKE
    # The taker's gammon losses raise the take point.
    assert cube_decision(p(0.6, 0.2), MONEY).take_point > tp


def test_too_good_with_gammons() -> None:
    d = cube_decision(p(0.8, 0.45), MONEY)
    assert d.action == TOO_GOOD
    assert d.no_double > d.double_pass
    assert d.taker_action == PASS
    assert d.equity == d.no_double
    # Without gammons nothing is too good to double.
    for w in (0.8, 0.9, 0.99, 1.0):
        assert cube_decision(p(w), MONEY).action == DOUBLE_PASS


def test_jacoby_cashes_gammonish_positions() -> None:
    d = cube_decision(p(0.8, 0.45), CubeInfo(jacoby=True))
    assert d.action == DOUBLE_PASS  # gammons count only once the cube is turned


def test_beaver() -> None:
    info = CubeInfo(beavers=True)
    d = take_decision(p(0.4), info)
    assert d.action == BEAVER
    assert d.double_take < 0
    assert take_decision(p(0.4), MONEY).action == TAKE  # no beavers without the rule
    assert take_decision(p(0.62), info).action == TAKE


def test_cube_access() -> None:
    d = cube_decision(p(0.9), CubeInfo(value=2, owner=1))
    assert d.action == NO_DOUBLE and not d.can_double
    assert "owns the cube" in d.explanation
    owned = cube_decision(p(0.6), CubeInfo(value=2, owner=0))
    centred = cube_decision(p(0.6), MONEY)
    assert owned.no_double > centred.no_double  # owning the cube is worth something
    limited = cube_decision(p(0.9), CubeInfo(value=64, owner=0))
    assert not limited.can_double and "limit" in limited.explanation


def test_gammons_off_rule() -> None:
    d = cube_decision(p(0.8, 0.45), CubeInfo(gammons=False))
    assert d.action == DOUBLE_PASS


def test_bad_inputs() -> None:
    with pytest.raises(GammonError):
        cube_decision((0.5, 0.1), MONEY)
    with pytest.raises(GammonError):
        cube_decision(p(0.5), MONEY, efficiency=2.0)
    with pytest.raises(GammonError):
        CubeInfo(value=3)
    with pytest.raises(GammonError):
        CubeInfo(owner=2)
    with pytest.raises(GammonError):
        CubeInfo(match_length=5, score=(5, 0))
    with pytest.raises(GammonError):
        CubeInfo(match_length=5, score=(1, 1), crawford=True)
    with pytest.raises(GammonError):
        CubeInfo(crawford=True)


# -- match play --------------------------------------------------------------------------


def test_crawford_game_no_cube() -> None:
    info = CubeInfo(match_length=5, score=(2, 4), crawford=True)
    d = cube_decision(p(0.6, 0.1), info)
    assert d.action == NO_DOUBLE and not d.can_double
    assert "Crawford" in d.explanation
    assert d.mwc is not None
    # No cube: the no-double MWC is the cubeless one.
    met = default_met()
    s = 0.6 - 0.1
    expect = s * met.equity(2, 1) + 0.1 * met.equity(1, 1) + 0.4 * 0.0
    assert d.mwc[0] == pytest.approx(expect)


def test_post_crawford() -> None:
    trailer = CubeInfo(match_length=5, score=(2, 4))
    assert trailer.post_crawford
    d = cube_decision(p(0.5, 0.13, 0.005, 0.13, 0.005), trailer)
    assert d.action == DOUBLE_TAKE  # the trailer doubles at once
    leader = trailer.swap()
    dl = cube_decision(p(0.7), leader)
    assert dl.action == NO_DOUBLE and not dl.can_double
    assert "dead" in dl.explanation


def test_match_equities_consistent_with_met() -> None:
    met = default_met()
    info = CubeInfo(match_length=7, score=(2, 4))  # 5-away, 3-away
    d = cube_decision(p(0.7, 0.15), info)
    assert d.mwc is not None
    assert d.double_pass == pytest.approx(1.0)
    assert d.mwc[2] == pytest.approx(met.equity(4, 3))
    assert met.mwc_to_emg(d.mwc[0], 5, 3, 1) == pytest.approx(d.no_double)
    assert d.proper_mwc == pytest.approx(max(d.mwc[0], min(d.mwc[1], d.mwc[2])))


def test_two_away_two_away() -> None:
    info = CubeInfo(match_length=2)
    even = cube_decision(p(0.5), info)
    assert even.no_double == pytest.approx(even.double_take)  # the double costs nothing
    d = cube_decision(p(0.75), info)
    assert d.action == DOUBLE_PASS


def test_long_match_close_to_money() -> None:
    d = cube_decision(p(0.6), CubeInfo(match_length=25))
    assert 0.18 < d.take_point < 0.3
    assert cube_decision(p(0.5), CubeInfo(match_length=25)).action == NO_DOUBLE
    assert cube_decision(p(0.82), CubeInfo(match_length=25)).action == DOUBLE_PASS


def test_dead_cube_when_double_gives_the_match() -> None:
    # The opponent 2-away: after taking a 2-cube any win gives him the match,
    # so his gammons stop counting and his recube is dead.
    info = CubeInfo(match_length=7, score=(2, 5))
    with_gammons = cube_decision(p(0.55, 0.0, 0.0, 0.3, 0.0), info)
    without = cube_decision(p(0.55), info)
    assert with_gammons.mwc is not None and without.mwc is not None
    assert with_gammons.mwc[1] == pytest.approx(without.mwc[1])


# -- positions and evaluators ----------------------------------------------------------


def test_efficiency_by_position() -> None:
    assert cube_efficiency(Position.initial()) == pytest.approx(0.68)
    race = Position([3, 3, 3, 3, 3] + [0] * 20, [3, 3, 3, 3, 3] + [0] * 20)
    assert cube_efficiency(race) == pytest.approx(race_efficiency(45))
    assert race_efficiency(10) == 0.6 and race_efficiency(150) == 0.8


def test_cube_action_with_an_evaluator() -> None:
    ev = NetAdapter(Network.random(hidden=8, seed=4, scale=0.2))
    pos = Position.initial()
    d = cube_action(ev, pos, MONEY)
    assert d == cube_decision(ev.evaluate(pos), MONEY, 0.68)
    one = evaluate_plies(ev, pos, 1)
    assert one.shape == (5,) and 0.0 <= one[0] <= 1.0
    # the 1-ply decision is the decision on the 1-ply probabilities (not just "some action")
    assert cube_action(ev, pos, MONEY, plies=1) == cube_decision(one, MONEY, 0.68)
    over = Position([0] * 25, [1] + [0] * 24)
    with pytest.raises(GammonError):
        cube_action(ev, over, MONEY)


def test_cube_info_views() -> None:
    info = CubeInfo(value=2, owner=0, match_length=9, score=(3, 6))
    assert info.away == (6, 3)
    s = info.swap()
    assert s.owner == 1 and s.score == (6, 3) and s.swap() == info
    assert CubeInfo().after_double() == CubeInfo(value=2, owner=1)
    assert CubeInfo().after_double(beaver=True) == CubeInfo(value=4, owner=0)
    g = Game(Rules(match_length=5))
    assert CubeInfo.from_game(g, 0) == CubeInfo(match_length=5, owner=CENTERED)
