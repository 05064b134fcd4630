"""The pre-Crawford cube model and the table's edges, checked against ``docs/match_equity.md``.

The document's method is written out here a second time, independently of
``gammon.ai.met``, and the whole table is regenerated from it and compared at 1e-12
(several parameter sets, so a swapped share or efficiency cannot hide behind the
defaults).  The cube model's lines are also checked point by point from the document's
words: where each line starts and ends, playing on past the doubling points, the doubling
points as the taker's indifference, and a cube that is dead for its owner.

From the document (``k`` the cube value, ``x`` the cube efficiency):

* ``W_k``/``L_k``: the MWC after a win/loss at cube ``k``, gammons mixed in;
  ``D0_k``/``D1_k``: after winning/losing ``k`` points (a drop);
* dead cube: ``L_k + p (W_k - L_k)``;
* player 0 owns, live: a line from ``(0, L_k)`` to ``(cp, D0_k)``;
* player 1 owns, live: a line from ``(tp, D1_k)`` to ``(1, W_k)``;
* centred: a line from ``(tp, D1_k)`` to ``(cp, D0_k)``;
* the value is ``x live + (1 - x) dead``; past player 0's cash point (where he has access)
  the live part is playing on with the cube kept: the line from ``(cp, D0_k)`` to
  ``(1, W_k)``, or the dead cube if that is worth more (too good to double); below his
  take point (where player 1 has access) the line from ``(0, L_k)`` to ``(tp, D1_k)``, or
  the dead cube if that is worth less;
* ``cp`` solves ``own1_{2k}(cp) = D0_k`` and ``tp`` solves ``own0_{2k}(tp) = D1_k`` (the
  uncapped lines);
* a cube is dead for its owner when a single win at that cube already wins him the match,
  or when doubling it would pass the cube limit;
* ``equity(a, b)`` is the centred cube at 1 at ``p = 1/2``; a side reaching 1-away plays
  the Crawford game next.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache

import pytest

from gammon.ai.cube_model import CUBE_LIMIT, CubeModel
from gammon.ai.met import MatchEquityTable, MetParameters, default_met
from gammon.core.errors import GammonError

Mix = tuple[float, float, float]


def shares(p: MetParameters) -> Mix:
    """(single, gammon, backgammon) shares of the games won, from the parameters' definitions."""
    return (1.0 - p.gammons, p.gammons - p.backgammons, p.backgammons)


def spec_post_and_crawford(p: MetParameters, n: int) -> tuple[list[float], list[float]]:
    """``(T, C)`` of the document: the trailer's MWC post-Crawford and in the Crawford game."""
    s, g, bg = shares(p)
    d = p.spread * math.sqrt(3)
    drift = ((0.5 - d, 1 / 6), (0.5, 2 / 3), (0.5 + d, 1 / 6))
    t = [1.0, 0.5]

    def tv(k: int) -> float:
        return 1.0 if k <= 0 else t[k]

    for m in range(2, n + 1):
        take = s * tv(m - 2) + g * tv(m - 4) + bg * tv(m - 6)
        t.append(sum(w * min(q * take, tv(m - 1)) for q, w in drift))
    c = [1.0, 0.5] + [0.5 * (s * tv(m - 1) + g * tv(m - 2) + bg * tv(m - 3)) for m in range(2, n + 1)]
    return t, c


class SpecCube:
    """The document's cube model for one score, written from the text (not from the code)."""

    def __init__(self, mwc: Callable[[int, int], float], a: int, b: int, mix0: Mix, mix1: Mix,
                 x: float, limit: int = CUBE_LIMIT) -> None:
        self.m, self.a, self.b, self.mix0, self.mix1, self.x, self.limit = mwc, a, b, mix0, mix1, x, limit

    def W(self, k: int) -> float:  # noqa: N802 - the document's names
        return sum(w * self.m(self.a - n * k, self.b) for n, w in zip((1, 2, 3), self.mix0, strict=True))

    def L(self, k: int) -> float:  # noqa: N802
        return sum(w * self.m(self.a, self.b - n * k) for n, w in zip((1, 2, 3), self.mix1, strict=True))

    def D0(self, k: int) -> float:  # noqa: N802
        return self.m(self.a - k, self.b)

    def D1(self, k: int) -> float:  # noqa: N802
        return self.m(self.a, self.b - k)

    def dead(self, k: int, p: float) -> float:
        return self.L(k) + p * (self.W(k) - self.L(k))

    def usable(self, away: int, k: int) -> bool:
        """Not dead for an owner ``away`` points away: a single win at ``k`` does not already win
        him the match, and the doubled cube is within the limit."""
        return k < away and 2 * k <= self.limit

    def mixed(self, live: float, k: int, p: float) -> float:
        return self.x * live + (1 - self.x) * self.dead(k, p)

    def own0(self, k: int, p: float, cap: bool = True) -> float:
        if not self.usable(self.a, k):
            return self.dead(k, p)
        cp = self.cp(k)
        if cap and p > cp:
            return self.mixed(self.on0(k, p), k, p)
        return self.mixed(line((0.0, self.L(k)), (cp, self.D0(k)), p), k, p)

    def on0(self, k: int, p: float) -> float:
        """Past the cash point: player 0 plays on, keeping the cube (or plays the game out)."""
        return max(line((self.cp(k), self.D0(k)), (1.0, self.W(k)), p), self.dead(k, p))

    def on1(self, k: int, p: float) -> float:
        """Below player 0's take point: player 1 plays on, keeping the cube (or plays it out)."""
        return min(line((0.0, self.L(k)), (self.tp(k), self.D1(k)), p), self.dead(k, p))

    def own1(self, k: int, p: float, cap: bool = True) -> float:
        if not self.usable(self.b, k):
            return self.dead(k, p)
        tp = self.tp(k)
        if cap and p < tp:
            return self.mixed(self.on1(k, p), k, p)
        return self.mixed(line((tp, self.D1(k)), (1.0, self.W(k)), p), k, p)

    def centred(self, k: int, p: float, cap: bool = True) -> float:
        u0, u1 = self.usable(self.a, k), self.usable(self.b, k)
        if not u0 and not u1:
            return self.dead(k, p)
        if not u1:  # only player 0 can ever turn it: as good as his
            return self.own0(k, p, cap)
        if not u0:
            return self.own1(k, p, cap)
        tp, cp = self.tp(k), self.cp(k)
        if cp <= tp:
            return self.dead(k, p)
        live = line((tp, self.D1(k)), (cp, self.D0(k)), p)
        if cap and p > cp:
            live = self.on0(k, p)
        elif cap and p < tp:
            live = self.on1(k, p)
        return self.mixed(live, k, p)

    def cp(self, k: int) -> float:
        return root(lambda q: self.own1(2 * k, q, cap=False), self.D0(k))

    def tp(self, k: int) -> float:
        return root(lambda q: self.own0(2 * k, q, cap=False), self.D1(k))


def line(start: tuple[float, float], end: tuple[float, float], p: float) -> float:
    """The straight line through two points, at ``p``."""
    (p0, v0), (p1, v1) = start, end
    if p1 == p0:
        return v1
    return v0 + (v1 - v0) * (p - p0) / (p1 - p0)


def root(f: Callable[[float], float], target: float) -> float:
    """Where the rising straight line ``f`` reaches ``target`` within [0, 1] (the ends when it
    does not; a flat line reaches a target above it only at 1)."""
    lo, hi = f(0.0), f(1.0)
    if hi - lo <= 1e-12:
        return 1.0 if target > lo else 0.0
    return min(1.0, max(0.0, (target - lo) / (hi - lo)))


def spec_table(p: MetParameters, n: int) -> dict[tuple[int, int], float]:
    """Every pre-Crawford entry 2..n away, from the document's method."""
    t, c = spec_post_and_crawford(p, n)
    mix = shares(p)

    @cache
    def mwc(a: int, b: int) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        if a == 1 and b == 1:
            return 0.5
        if a == 1:  # reached 1-away in a pre-Crawford game: the Crawford game is next
            return 1.0 - c[b]
        if b == 1:
            return c[a]
        return SpecCube(mwc, a, b, mix, mix, p.efficiency).centred(1, 0.5)

    return {(a, b): mwc(a, b) for a in range(2, n + 1) for b in range(2, n + 1)}


PARAMS = [
    MetParameters(),
    MetParameters(gammons=0.4, backgammons=0.05, efficiency=0.5, spread=0.1),
    MetParameters(gammons=0.1, backgammons=0.03, efficiency=0.9, spread=0.0),
    MetParameters(gammons=0.0, backgammons=0.0, efficiency=1.0, spread=0.2),
    MetParameters(gammons=0.3, backgammons=0.0, efficiency=0.0, spread=0.05),
]


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: f"g{p.gammons}-bg{p.backgammons}-x{p.efficiency}")
def test_pre_crawford_table_follows_the_documented_model(params: MetParameters) -> None:
    n = 12
    table = MatchEquityTable(params, max_away=n)
    bad = [f"{a}-away/{b}-away: model {want:.12f}, code {table.equity(a, b):.12f}"
           for (a, b), want in spec_table(params, n).items()
           if abs(table.equity(a, b) - want) > 1e-12]
    assert not bad, "\n".join(bad[:10])


def test_the_model_table_to_25_away_follows_the_documented_model() -> None:
    want = spec_table(MetParameters(), 25)
    met = MatchEquityTable()
    worst = max(abs(met.equity(a, b) - v) for (a, b), v in want.items())
    assert worst < 1e-12


# -- the cube model's lines, point by point -------------------------------------------------


def toy_mwc(a: int, b: int) -> float:
    """A smooth stand-in for a table (any MWC function will do for the lines' geometry)."""
    if a <= 0:
        return 1.0
    if b <= 0:
        return 0.0
    return 1.0 / (1.0 + math.exp(0.55 * (a - b) / math.sqrt(a + b)))


MIX0: Mix = (0.7, 0.25, 0.05)
MIX1: Mix = (0.8, 0.15, 0.05)


def models(a: int, b: int, x: float = 0.7, limit: int = CUBE_LIMIT) -> tuple[CubeModel, SpecCube]:
    return (CubeModel(toy_mwc, a, b, MIX0, MIX1, x, limit), SpecCube(toy_mwc, a, b, MIX0, MIX1, x, limit))


GRID = [0.0, 0.1, 0.2, 0.3, 0.45, 0.5, 0.6, 0.75, 0.85, 0.95, 1.0]


@pytest.mark.parametrize(("a", "b", "k", "limit"), [
    (7, 5, 1, CUBE_LIMIT), (9, 9, 1, CUBE_LIMIT), (5, 11, 2, CUBE_LIMIT), (11, 4, 2, CUBE_LIMIT),
    (3, 8, 2, CUBE_LIMIT), (8, 2, 1, CUBE_LIMIT), (6, 6, 4, CUBE_LIMIT), (9, 7, 1, 2), (9, 7, 2, 4),
    (9, 7, 1, 4), (2, 2, 1, CUBE_LIMIT), (2, 9, 2, CUBE_LIMIT), (9, 2, 2, CUBE_LIMIT),
])
def test_cube_model_values_follow_the_document(a: int, b: int, k: int, limit: int) -> None:
    code, spec = models(a, b, 0.7, limit)
    assert code.win(k) == pytest.approx(spec.W(k), abs=1e-12)
    assert code.lose(k) == pytest.approx(spec.L(k), abs=1e-12)
    assert code.cash0(k) == spec.D0(k) and code.cash1(k) == spec.D1(k)
    assert code.live0(k) == spec.usable(a, k) and code.live1(k) == spec.usable(b, k)
    if spec.usable(a, k):
        assert code.cash_point0(k) == pytest.approx(spec.cp(k), abs=1e-12)
    if spec.usable(b, k):
        assert code.take_point0(k) == pytest.approx(spec.tp(k), abs=1e-12)
    for p in GRID:
        for cap in (True, False):
            assert code.dead(k, p) == pytest.approx(spec.dead(k, p), abs=1e-12), p
            assert code.own0(k, p, cap) == pytest.approx(spec.own0(k, p, cap), abs=1e-12), ("own0", p, cap)
            assert code.own1(k, p, cap) == pytest.approx(spec.own1(k, p, cap), abs=1e-12), ("own1", p, cap)
            assert code.centered(k, p, cap) == pytest.approx(spec.centred(k, p, cap), abs=1e-12), ("c", p, cap)


def test_the_lines_start_and_end_where_the_document_says() -> None:
    x = 0.6
    code, spec = models(9, 7, x)
    k = 1
    cp, tp = code.cash_point0(k), code.take_point0(k)
    assert 0.0 < tp < 0.5 < cp < 1.0
    lo, win, d0, d1 = code.lose(k), code.win(k), code.cash0(k), code.cash1(k)

    def dead(p: float) -> float:
        return lo + p * (win - lo)

    def blend(live: float, p: float) -> float:
        return x * live + (1 - x) * dead(p)

    def on0(p: float) -> float:  # past cp: play on keeping the cube, from (cp, D0) to (1, W)
        return max(d0 + (win - d0) * (p - cp) / (1 - cp), dead(p))

    def on1(p: float) -> float:  # below tp: player 1 plays on, from (0, L) to (tp, D1)
        return min(lo + (d1 - lo) * p / tp, dead(p))

    # player 0 owns: from (0, L) to (cp, D0), then playing on to (1, W) past cp
    assert code.own0(k, 0.0) == pytest.approx(lo, abs=1e-12)
    assert code.own0(k, cp) == pytest.approx(blend(d0, cp), abs=1e-12)
    assert code.own0(k, 0.97) == pytest.approx(blend(on0(0.97), 0.97), abs=1e-12)
    assert code.own0(k, 1.0) == pytest.approx(win, abs=1e-12)
    assert code.own0(k, 0.97, clamp=False) > blend(on0(0.97), 0.97) + 1e-6
    # player 1 owns: from (tp, D1) to (1, W), and from (0, L) to (tp, D1) below tp
    assert code.own1(k, tp) == pytest.approx(blend(d1, tp), abs=1e-12)
    assert code.own1(k, 1.0) == pytest.approx(win, abs=1e-12)
    assert code.own1(k, 0.0) == pytest.approx(lo, abs=1e-12)
    assert code.own1(k, 0.03) == pytest.approx(blend(on1(0.03), 0.03), abs=1e-12)
    assert code.own1(k, 0.03, clamp=False) < blend(on1(0.03), 0.03) - 1e-6
    # centred: from (tp, D1) to (cp, D0), playing on beyond either point
    assert code.centered(k, tp) == pytest.approx(blend(d1, tp), abs=1e-12)
    assert code.centered(k, cp) == pytest.approx(blend(d0, cp), abs=1e-12)
    assert code.centered(k, 0.99) == pytest.approx(blend(on0(0.99), 0.99), abs=1e-12)
    assert code.centered(k, 0.01) == pytest.approx(blend(on1(0.01), 0.01), abs=1e-12)
    assert code.centered(k, 1.0) == pytest.approx(win, abs=1e-12)
    assert code.centered(k, 0.0) == pytest.approx(lo, abs=1e-12)
    # with gammons, playing on past cp is worth more than the cash: too good to double
    assert code.centered(k, 0.97) > blend(d0, 0.97) + 1e-6
    assert code.centered(k, 0.99, clamp=False) > blend(d0, 0.99) + 1e-6
    assert code.centered(k, 0.01, clamp=False) < blend(d1, 0.01) - 1e-6


def test_at_the_doubling_points_themselves_the_lines_end_at_the_cash() -> None:
    """The document's live lines end at ``(cp, D0_k)`` and start at ``(tp, D1_k)``; playing on is
    for *past* the cash point and *below* the take point.  The two differ at the points themselves
    only where playing the game out beats the cash there (gammonish wins at a short score), so the
    check is made where they do: 2-away 3-away (and 3-away 2-away) with many gammons."""
    met = default_met()
    gammonish = (0.4, 0.55, 0.05)
    x = 0.7
    m = CubeModel(met.after_pre, 2, 3, gammonish, gammonish, x)
    cp = m.cash_point0(1)
    assert m.dead(1, cp) > m.cash0(1) + 1e-3  # playing on at cp would be worth more than the cash
    at_cp = x * m.cash0(1) + (1 - x) * m.dead(1, cp)
    assert m.own0(1, cp) == pytest.approx(at_cp, abs=1e-12)
    assert m.centered(1, cp) == pytest.approx(at_cp, abs=1e-12)
    assert m.own0(1, cp + 1e-9) > at_cp + 1e-3  # just past it he plays on
    assert m.centered(1, cp + 1e-9) > at_cp + 1e-3
    m = CubeModel(met.after_pre, 3, 2, gammonish, gammonish, x)
    tp = m.take_point0(1)
    assert m.dead(1, tp) < m.cash1(1) - 1e-3  # player 1 playing on at tp would do better than cashing
    at_tp = x * m.cash1(1) + (1 - x) * m.dead(1, tp)
    assert m.own1(1, tp) == pytest.approx(at_tp, abs=1e-12)
    assert m.centered(1, tp) == pytest.approx(at_tp, abs=1e-12)
    assert m.own1(1, tp - 1e-9) < at_tp - 1e-3  # just below it player 1 plays on
    assert m.centered(1, tp - 1e-9) < at_tp - 1e-3


def test_doubling_points_are_where_the_taker_is_indifferent() -> None:
    code, _ = models(9, 7, 0.68)
    for k in (1, 2):
        cp, tp = code.cash_point0(k), code.take_point0(k)
        # player 1 is indifferent at cp between owning the doubled cube and dropping
        assert code.own1(2 * k, cp, clamp=False) == pytest.approx(code.cash0(k), abs=1e-12)
        # player 0 is indifferent at tp between owning the doubled cube and dropping
        assert code.own0(2 * k, tp, clamp=False) == pytest.approx(code.cash1(k), abs=1e-12)
        # and they are cached: asking again gives the same point
        assert code.cash_point0(k) == cp and code.take_point0(k) == tp


def test_a_cube_dead_for_its_owner_is_the_dead_cube() -> None:
    # 2-away owning a 2-cube: a single win already wins the match
    code, _ = models(2, 6)
    for p in GRID:
        assert code.own0(2, p) == pytest.approx(code.dead(2, p), abs=1e-15)
    code, _ = models(6, 2)
    for p in GRID:
        assert code.own1(2, p) == pytest.approx(code.dead(2, p), abs=1e-15)
    # at the cube limit nobody can double: every cube state is the dead line
    code, _ = models(9, 9, 0.7, limit=1)
    assert not code.live0(1) and not code.live1(1)
    for p in GRID:
        assert code.centered(1, p) == pytest.approx(code.dead(1, p), abs=1e-15)
    # one below the owner's need the cube is alive; at the need it is dead
    code, _ = models(5, 5)
    assert code.live0(4) and code.live1(4) and not code.live0(5) and not code.live1(5)
    assert code.live0(2) and not CubeModel(toy_mwc, 5, 5, MIX0, MIX1, 0.7, 3).live0(2)
    assert CubeModel(toy_mwc, 5, 5, MIX0, MIX1, 0.7, 4).live1(2)


def test_efficiency_blends_live_and_dead() -> None:
    live, _ = models(9, 7, 1.0)
    dead, _ = models(9, 7, 0.0)
    half, _ = models(9, 7, 0.5)
    assert dead.centered(1, 0.5) == pytest.approx(dead.dead(1, 0.5), abs=1e-15)
    # the doubling points differ with the efficiency, so compare at one efficiency's points only
    assert live.centered(1, 0.5) != pytest.approx(dead.centered(1, 0.5), abs=1e-6)
    assert half.x == 0.5 and half.cube_limit == CUBE_LIMIT and (half.a, half.b) == (9, 7)


# -- the table's edges ---------------------------------------------------------------------------


def test_parameters_are_checked_with_their_bounds_included() -> None:
    ok = [{"gammons": 0.0, "backgammons": 0.0}, {"gammons": 1.0, "backgammons": 1.0},
          {"gammons": 0.3, "backgammons": 0.3}, {"efficiency": 0.0}, {"efficiency": 1.0},
          {"spread": 0.0}, {"spread": 0.249}]
    for kw in ok:
        MetParameters(**kw)  # type: ignore[arg-type]
    order = "need 0 <= backgammons <= gammons <= 1"
    bad = [({"gammons": 0.1, "backgammons": 0.2}, order), ({"gammons": 1.01, "backgammons": 0.0}, order),
           ({"backgammons": -0.01}, order),
           ({"efficiency": -0.01}, "cube efficiency must be between 0 and 1"),
           ({"efficiency": 1.01}, "cube efficiency must be between 0 and 1"),
           ({"spread": -0.01}, "spread must be between 0 and 0.25"),
           ({"spread": 0.25}, "spread must be between 0 and 0.25")]
    for kw, message in bad:
        with pytest.raises(GammonError) as err:
            MetParameters(**kw)  # type: ignore[arg-type]
        assert str(err.value) == message, kw


def test_table_size_and_score_checks() -> None:
    one = MatchEquityTable(max_away=1)
    assert one.equity(1, 1) == 0.5 and one.max_away == 1
    assert one.parameters == MetParameters()
    for bad in (0, -3):
        with pytest.raises(GammonError) as err:
            MatchEquityTable(max_away=bad)
        assert str(err.value) == "the table needs max_away of 1 or more"
    with pytest.raises(GammonError) as err:
        MatchEquityTable(max_away=4).equity(3, 5)
    assert str(err.value) == "the match equity table reaches 4 points away, not 5"
    met = default_met()
    assert met.mwc(0, 0, 1) == 0.5
    for length in (0, -1):
        with pytest.raises(GammonError) as err:
            met.mwc(0, 0, length)
        assert str(err.value) == "match length must be 1 or more"
    for cube in (0, -2):
        with pytest.raises(GammonError) as err:
            met.emg_to_mwc(0.0, 5, 5, cube)
        assert str(err.value) == "the cube value must be 1 or more"


def test_money_equivalent_equity_is_the_line_through_win_and_lose() -> None:
    met = default_met()
    for a, b, cube, post in ((5, 3, 1, False), (4, 7, 2, False), (3, 2, 1, True), (6, 2, 2, True)):
        win = met.after_game(a - cube, b, post)
        lose = met.after_game(a, b - cube, post)
        assert win > lose
        for emg in (-1.0, -0.4, 0.0, 0.25, 1.0, 1.6):
            want = lose + (emg + 1) / 2 * (win - lose)
            assert met.emg_to_mwc(emg, a, b, cube, post) == pytest.approx(want, abs=1e-12)
            assert met.mwc_to_emg(want, a, b, cube, post) == pytest.approx(emg, abs=1e-12)
    # winning and losing the cube alike (a side that has already won): no EMG scale, 0
    assert met.mwc_to_emg(0.7, 0, 3, 1) == 0.0 and met.mwc_to_emg(0.2, 3, 0, 2, True) == 0.0


def test_table_views() -> None:
    met = MatchEquityTable(max_away=6)
    assert met.crawford_row() == [met.equity(1, b, crawford=True) for b in range(1, 7)]
    assert met.crawford_row(3) == [met.equity(1, b, crawford=True) for b in range(1, 4)]
    assert met.crawford_row(9) == met.crawford_row()
    assert met.post_crawford_row(2) == [0.5, met.equity(1, 2)]
    assert len(met.table()) == 6 and len(met.table(4)) == 4 and len(met.table(4)[0]) == 4
    text = met.format()
    assert text.splitlines()[0] == "away " + "".join(f"{b:>6}" for b in range(1, 7))
    assert text.splitlines()[1].startswith("   1   50.0")
    assert repr(met) == f"MatchEquityTable({MetParameters()!r}, max_away=6)"


def test_default_met_is_built_once_and_grows_on_demand() -> None:
    first = default_met()
    assert first.max_away >= 25 and first.parameters == MetParameters()
    assert default_met() is first and default_met(10) is first
    bigger = default_met(first.max_away + 1)
    assert bigger.max_away == first.max_away + 1
    assert default_met() is bigger


def test_default_met_from_scratch(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first table is 25 away (the document's size), built once and then shared."""
    import gammon.ai.met as met_module

    monkeypatch.setattr(met_module, "_tables", {})
    first = default_met()
    assert first.max_away == 25
    assert default_met() is first and default_met(25) is first and default_met(3) is first
    assert default_met(26).max_away == 26


def test_conversions_default_to_a_one_point_cube_and_follow_the_crawford_rule() -> None:
    met = default_met()
    assert met.emg_to_mwc(1.0, 5, 3) == met.after_game(4, 3) == met.emg_to_mwc(1.0, 5, 3, 1)
    assert met.mwc_to_emg(met.after_game(5, 2), 5, 3) == pytest.approx(-1.0, abs=1e-12)
    # post-Crawford, a win and a loss both lead to post-Crawford scores
    win, lose = met.equity(2, 1), met.equity(3, 0)
    assert met.emg_to_mwc(1.0, 3, 1, 1, post_crawford=True) == pytest.approx(win, abs=1e-12)
    assert met.emg_to_mwc(-1.0, 3, 1, 1, post_crawford=True) == pytest.approx(lose, abs=1e-12)
    assert met.mwc_to_emg(win, 3, 1, 1, post_crawford=True) == pytest.approx(1.0, abs=1e-12)
    assert win != met.equity(2, 1, crawford=True)  # the rule matters here


def test_the_default_printout_is_the_documents_nine_by_nine() -> None:
    met = default_met()
    assert met.format() == met.format(9)
    assert len(met.format().splitlines()) == 10
