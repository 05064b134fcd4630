"""The one-sided bear-off database against an independent brute force, and races."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest

from gammon.ai import bearoff, bearoff_build
from gammon.ai.evaluator import ClassifyingEvaluator, PositionClass, classify, default_network
from gammon.core import movegen
from gammon.core.position import Position

DB = bearoff.load()
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


# -- an independent brute force: its own bear-off moves, exact recursion -------------


def _moves(c: tuple[int, ...], dice: list[int]) -> set[tuple[int, ...]]:
    """Every result of playing ``dice`` in order with all checkers home (no opponent).

    In a bear-off every die can be played while a checker is left: the highest
    checker either moves down or comes off.
    """
    if not dice or sum(c) == 0:
        return {c}
    d, rest = dice[0], dice[1:]
    out: set[tuple[int, ...]] = set()
    highest = max(i for i in range(6) if c[i])
    for i in range(6):
        if not c[i]:
            continue
        p = i + 1  # point number
        if p > d:
            nxt = list(c)
            nxt[i] -= 1
            nxt[i - d] += 1
        elif p == d or (p < d and i == highest):
            nxt = list(c)
            nxt[i] -= 1
        else:
            continue
        out |= _moves(tuple(nxt), rest)
    return out


def _results(c: tuple[int, ...], a: int, b: int) -> set[tuple[int, ...]]:
    if a == b:
        return _moves(c, [a] * 4)
    return _moves(c, [a, b]) | _moves(c, [b, a])


def _better(e1: float, d1: np.ndarray, e0: float, d0: np.ndarray) -> bool:
    """The database's documented preference: lower mean, then finishing sooner."""
    if abs(e1 - e0) > 1e-12:
        return e1 < e0
    c1, c0 = np.cumsum(d1), np.cumsum(d0)
    for x, y in zip(c1, c0, strict=True):
        if abs(x - y) > 1e-12:
            return bool(x > y)
    return False


@cache
def brute(c: tuple[int, ...]) -> tuple[float, tuple[float, ...]]:
    """(expected rolls, distribution) with play minimising the expected rolls."""
    n = bearoff.MAX_ROLLS
    if sum(c) == 0:
        return 0.0, (1.0,) + (0.0,) * (n - 1)
    e = 1.0
    dist = np.zeros(n)
    for a, b in ROLLS:
        w = (1 if a == b else 2) / 36
        best: tuple[float, np.ndarray] | None = None
        for r in sorted(_results(c, a, b)):
            er, dr = brute(r)
            arr = np.array(dr)
            if best is None or _better(er, arr, best[0], best[1]):
                best = (er, arr)
        assert best is not None
        e += w * best[0]
        dist[1:] += w * best[1][:-1]
    return e, tuple(dist)


@cache
def brute_first(c: tuple[int, ...]) -> float:
    """Expected rolls until the first checker comes off (best play for that)."""
    total = sum(c)
    e = 1.0
    for a, b in ROLLS:
        w = (1 if a == b else 2) / 36
        e += w * min(0.0 if sum(r) < total else brute_first(r) for r in _results(c, a, b))
    return e


SMALL = [c for c in itertools.product(range(4), repeat=6) if sum(c) <= 3]


def test_index_is_a_bijection() -> None:
    assert bearoff.N_POSITIONS == 54264
    pos = bearoff.all_positions()
    assert pos.shape == (54264, 6)
    assert pos.sum(axis=1).max() == 15
    assert len({tuple(r) for r in pos}) == 54264
    for i in (0, 1, 100, 5000, 54263):
        assert bearoff.position_index(list(pos[i])) == i
    assert bearoff.position_index([0] * 6) == 0


def test_index_rejects_bad_counts() -> None:
    with pytest.raises(ValueError, match="at most 15"):
        bearoff.position_index([16, 0, 0, 0, 0, 0])
    with pytest.raises(ValueError):
        bearoff.position_index([1, 2, 3])


def test_one_to_three_checkers_match_brute_force() -> None:
    assert len(SMALL) == 84
    for c in SMALL:
        e, dist = brute(c)
        assert DB.expected_rolls(c) == pytest.approx(e, abs=1e-9), c
        np.testing.assert_allclose(DB.distribution(c), dist, atol=2e-7, err_msg=str(c))
        if sum(c):
            assert DB.mean_first[bearoff.position_index(c)] == pytest.approx(brute_first(c), abs=1e-9)


def test_known_values() -> None:
    # One checker on the ace: always one roll.  On the six point: one roll unless the
    # roll has fewer than 6 pips: 1-1, and 1-2, 1-3, 1-4, 2-3 in either order.
    assert DB.expected_rolls([1, 0, 0, 0, 0, 0]) == 1.0
    one_six = DB.distribution([0, 0, 0, 0, 0, 1])
    assert one_six[1] == pytest.approx(27 / 36)
    assert DB.expected_rolls([0, 0, 0, 0, 0, 15]) == pytest.approx(12.266187, abs=1e-5)
    # Saving the gammon from 15 on the six point in one roll: a six, 5-1, 4-2, 3-3 or 2-2.
    assert DB.gammon_save_chance([0, 0, 0, 0, 0, 15], 1) == pytest.approx(17 / 36)
    assert DB.gammon_save_chance([0, 0, 0, 0, 0, 15], 0) == 0.0


def test_distributions_are_probabilities() -> None:
    np.testing.assert_allclose(DB.rolls.sum(axis=1, dtype=np.float64), 1.0, atol=1e-6)
    np.testing.assert_allclose(DB.first.sum(axis=1, dtype=np.float64), 1.0, atol=1e-6)
    means = (DB.rolls.astype(np.float64) * np.arange(bearoff.MAX_ROLLS)).sum(axis=1)
    np.testing.assert_allclose(means, DB.mean_rolls, atol=1e-5)


def test_builder_reproduces_the_shipped_rows() -> None:
    """Run the builder on the positions of at most 12 pips and compare with the file."""
    pos = bearoff.all_positions()
    pips = (pos.astype(np.int64) * np.arange(1, 7)).sum(axis=1)
    order = np.argsort(pips, kind="stable").astype(np.int64)
    k = int(np.searchsorted(pips[order], 13))
    rolls = np.zeros((bearoff.N_POSITIONS, bearoff.MAX_ROLLS))
    first = np.zeros((bearoff.N_POSITIONS, bearoff.MAX_FIRST))
    er = np.zeros(bearoff.N_POSITIONS)
    ef = np.zeros(bearoff.N_POSITIONS)
    ws = movegen.Workspace()
    ranking = bearoff_build.Ranking(pos, bearoff.OFFSETS, bearoff.POINTS, bearoff.MAX_CHECKERS)
    bearoff_build._build_range(0, k, order, ranking, bearoff_build.Distributions(rolls, first, er, ef),
                               ws.boards, ws.moves, ws.table)
    rows = order[:k]
    np.testing.assert_allclose(er[rows], DB.mean_rolls[rows], atol=1e-9)
    np.testing.assert_allclose(rolls[rows], DB.rolls[rows], atol=2e-7)
    np.testing.assert_allclose(first[rows], DB.first[rows], atol=2e-7)


# -- two-sided races -----------------------------------------------------------------


def test_race_from_the_two_distributions() -> None:
    # The opponent finishes next roll for sure: the player on roll must finish now.
    y = DB.race([0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0])
    assert y[0] == pytest.approx(27 / 36)
    assert y[1] == y[2] == y[3] == y[4] == 0.0
    # Three on the ace against fifteen on the six point: gammon unless the opponent,
    # after a non-double, saves it with his one roll (17 of 36).
    y = DB.race([3, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 15])
    assert y[0] == pytest.approx(1.0)
    assert y[1] == pytest.approx(1 / 6 + 5 / 6 * 19 / 36)
    # The other way round: the opponent finishes in one roll with a double, else in two.
    y = DB.race([0, 0, 0, 0, 0, 15], [3, 0, 0, 0, 0, 0])
    assert y[0] == pytest.approx(0.0, abs=1e-9)
    save1 = DB.gammon_save_chance([0, 0, 0, 0, 0, 15], 1)
    save2 = DB.gammon_save_chance([0, 0, 0, 0, 0, 15], 2)
    assert save1 < save2 < 1.0
    assert y[3] == pytest.approx(1 / 6 * (1 - save1) + 5 / 6 * (1 - save2), abs=1e-6)


def test_race_matches_exact_two_sided_recursion() -> None:
    """Small races: exact game recursion, each side playing its one-sided best play."""

    @cache
    def win(me: tuple[int, ...], opp: tuple[int, ...]) -> float:
        p = 0.0
        for a, b in ROLLS:
            w = (1 if a == b else 2) / 36
            best = min(_results(me, a, b), key=lambda r: (brute(r)[0], [-x for x in np.cumsum(brute(r)[1])]))
            p += w * (1.0 if sum(best) == 0 else 1.0 - win(opp, best))
        return p

    for me, opp in [((0, 1, 1, 0, 0, 0), (1, 0, 0, 1, 0, 0)), ((0, 0, 2, 0, 0, 1), (0, 0, 0, 0, 1, 1)),
                    ((1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 2))]:
        assert DB.race(list(me), list(opp))[0] == pytest.approx(win(me, opp), abs=1e-6)


def test_bearoff_positions_use_the_database() -> None:
    me = [2, 2, 1, 0, 0, 0] + [0] * 19
    opp = [0, 3, 0, 1, 0, 0] + [0] * 19
    p = Position(me, opp)
    assert classify(p) is PositionClass.BEAROFF
    ev = ClassifyingEvaluator(default_network(), DB)
    np.testing.assert_allclose(ev.evaluate(p), DB.race(me[:6], opp[:6]), atol=1e-6)


# -- the short-side table: a few checkers anywhere on the 24 points -------------------


def _short_moves(c: tuple[int, ...], dice: list[int]) -> set[tuple[int, ...]]:
    """Every result of playing ``dice`` in order, one side alone on 24 points.

    Written from the rules: a checker moves ``d`` points down; it bears off only
    when every checker is home (points 1-6), by the exact number, or by a higher
    one from the highest point.  With no opponent every die can be played.
    """
    if not dice or sum(c) == 0:
        return {c}
    d, rest = dice[0], dice[1:]
    home = all(c[i] == 0 for i in range(6, 24))
    highest = max(i for i in range(24) if c[i])
    out: set[tuple[int, ...]] = set()
    for i in range(24):
        if not c[i]:
            continue
        p = i + 1
        nxt = list(c)
        nxt[i] -= 1
        if p > d:
            nxt[i - d] += 1
        elif not (home and (p == d or i == highest)):
            continue
        out |= _short_moves(tuple(nxt), rest)
    return out


@cache
def _short_mean(c: tuple[int, ...]) -> float:
    """Expected rolls to bear off alone, each roll played to minimise it (exact recursion)."""
    if sum(c) == 0:
        return 0.0
    total = 1.0
    for a, b in ROLLS:
        w = (1 if a == b else 2) / 36
        res = _short_moves(c, [a] * 4) if a == b else _short_moves(c, [a, b]) | _short_moves(c, [b, a])
        total += w * min(_short_mean(r) for r in res)
    return total


def test_short_table_means_match_an_exact_recursion() -> None:
    """All 325 positions of up to two checkers, and a sample of three and four."""
    assert bearoff.N_SHORT == 20475
    assert DB.short_rolls is not None and DB.short_mean_rolls is not None
    cases = [tuple(1 if j in (i, k) else 0 for j in range(24)) for i in range(24) for k in range(i + 1, 24)]
    cases += [tuple(2 if j == i else 0 for j in range(24)) for i in range(24)]
    cases += [tuple(1 if j == i else 0 for j in range(24)) for i in range(24)]
    rng = np.random.default_rng(7)
    for k in (3, 4):
        for _ in range(12):
            c = [0] * 24
            for p in rng.integers(0, 24, size=k):
                c[int(p)] += 1
            cases.append(tuple(c))
    for c in cases:
        i = bearoff.short_index(list(c))
        assert DB.short_mean_rolls[i] == pytest.approx(_short_mean(c), abs=1e-9), c
    means = (DB.short_rolls.astype(np.float64) * np.arange(bearoff.SHORT_MAX_ROLLS)).sum(axis=1)
    np.testing.assert_allclose(means, DB.short_mean_rolls, atol=1e-5)
    np.testing.assert_allclose(DB.short_rolls.sum(axis=1, dtype=np.float64), 1.0, atol=1e-6)


def test_short_table_agrees_with_the_home_table() -> None:
    """A position with every checker home is in both tables, with the same distribution."""
    for counts in ([1, 0, 2, 0, 0, 1], [0, 0, 0, 0, 0, 4], [1, 1, 1, 1, 0, 0]):
        short = DB.short_distribution(counts + [0] * 18)
        np.testing.assert_allclose(short[: bearoff.MAX_ROLLS], DB.distribution(counts), atol=1e-6)


def _race(me: dict[int, int], opp: dict[int, int], variant: str = "standard") -> Position:
    """A position from {point: checkers} per side, each from its own side's view."""
    rows = [[0] * 25, [0] * 25]
    for row, side in zip(rows, (me, opp), strict=True):
        for point, n in side.items():
            row[point - 1] = n
    return Position(rows[0], rows[1], variant=variant)


def test_stragglers_race_is_exact() -> None:
    ev = ClassifyingEvaluator(default_network(), DB)
    # One checker on the 13-point against one on the ace, which comes off next roll:
    # only 4-4, 5-5 and 6-6 carry it home and off at once.
    p = _race({13: 1}, {1: 1})
    assert classify(p) is PositionClass.RACE
    y = ev.evaluate(p)
    assert y[0] == pytest.approx(3 / 36, abs=1e-6)
    assert y[1] == y[2] == y[3] == y[4] == 0.0
    # The race the race net valued at 85.7% wins: 13 off and two stragglers (34 pips)
    # against eight home (18 pips); 1,296 rollout trials gave 34.7% +- 1.3%.
    y = ev.evaluate(Position.from_position_id("uwUAAABAEAAAAA"))
    assert abs(y[0] - 0.347) < 3 * 0.013


def test_hypergammon_race_gammons_are_exact() -> None:
    """Three checkers a side: the gammon chances come from the first-off distributions."""
    ev = ClassifyingEvaluator(default_network(), DB)
    # Three on the ace finish this roll with a double, else next roll.  The opponent's
    # three on his 8-point save the gammon in one roll only with 4-4, 5-5 or 6-6.
    y = ev.evaluate(_race({1: 3}, {8: 3}, "hypergammon"))
    assert y[0] == pytest.approx(1.0, abs=1e-6)
    assert y[1] == pytest.approx(1 / 6 + 5 / 6 * 33 / 36, abs=1e-6)
    assert y[2] == y[3] == y[4] == 0.0


def test_race_rows_leave_backgammon_chances_to_the_net() -> None:
    """A side with none off and a checker in the winner's home board could lose a
    backgammon, which the tables do not count: no row, so the race net values it."""
    def row(p: Position, o: int) -> int:
        b = np.frombuffer(p.board, dtype=np.uint8).copy()
        return int(bearoff.race_row(b, o, p.variant.checkers))

    deep = _race({1: 3}, {20: 3}, "hypergammon")
    assert row(deep, 0) >= 0 and row(deep, 25) == -1
    assert row(_race({1: 3}, {20: 2}, "hypergammon"), 25) >= 0  # one is off: no backgammon
    assert row(_race({13: 5}, {1: 1}), 0) == -1  # five checkers left: the race net
    assert row(_race({6: 15}, {1: 1}), 0) == bearoff.position_index([0, 0, 0, 0, 0, 15])
