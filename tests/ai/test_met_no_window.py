"""A centred cube with no doubling window is the dead cube (``docs/match_equity.md``).

The centred cube's live part is the line from ``(tp, D1_k)`` to ``(cp, D0_k)``; it only
exists when player 0's cash point ``cp`` lies above his take point ``tp``.  When it does
not (``cp <= tp``) there is no window in which either side may double and the other take,
so the documented model (and its re-implementation ``SpecCube.centred`` in
``tests/test_met_model.py``: ``if cp <= tp: return dead``) plays the game out: the value is
the dead cube ``L_k + p (W_k - L_k)``, whatever the efficiency, with or without the cap.

Real tables never get there, so the tests feed :class:`CubeModel` (which takes any MWC
function ``after(a, b)``) a deliberately perverse one: outside the match's end, the
player *farther* from the finish is sure to win.  Winning points then hurts, both doubling
points are pushed to the ends, and the window closes.
"""

from __future__ import annotations

import pytest

from gammon.ai.cube_model import CubeModel

Mix = tuple[float, float, float]
MIX0: Mix = (0.7, 0.25, 0.05)
MIX1: Mix = (0.8, 0.15, 0.05)
GRID = [0.0, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 1.0]


def trailer_wins(a: int, b: int) -> float:
    """Player 0's MWC with ``a`` and ``b`` points away: 1/0 once the match is over, else the
    player farther behind is sure to win (an even score is a coin toss)."""
    if a <= 0:
        return 1.0
    if b <= 0:
        return 0.0
    return 1.0 if a > b else 0.0 if a < b else 0.5


def degenerate_lose_only(a: int, b: int) -> float:
    """Player 0 wins the match unless player 1 has already won it."""
    return 0.0 if b <= 0 else 1.0


def dead_line(f, a: int, b: int, k: int, p: float) -> float:  # noqa: ANN001
    """The document's dead cube, from the MWC function directly."""
    w = sum(m * f(a - n * k, b) for n, m in zip((1, 2, 3), MIX0, strict=True))
    lo = sum(m * f(a, b - n * k) for n, m in zip((1, 2, 3), MIX1, strict=True))
    return lo + p * (w - lo)


CASES = [
    (trailer_wins, 5, 3), (trailer_wins, 6, 3), (trailer_wins, 3, 2), (trailer_wins, 4, 2),
    (trailer_wins, 6, 6), (degenerate_lose_only, 2, 2), (degenerate_lose_only, 2, 5),
]


@pytest.mark.parametrize(("f", "a", "b"), CASES)
@pytest.mark.parametrize("x", [0.7, 1.0])
def test_centred_cube_without_a_window_is_the_dead_cube(f, a: int, b: int, x: float) -> None:  # noqa: ANN001
    m = CubeModel(f, a, b, MIX0, MIX1, x)
    # both players have access at the centred cube, so the window decides
    assert m.live0(1) and m.live1(1)
    cp, tp = m.cash_point0(1), m.take_point0(1)
    assert cp <= tp, (cp, tp)  # no window: the case this test is about
    for p in GRID:
        for cap in (True, False):
            assert m.centered(1, p, cap) == pytest.approx(dead_line(f, a, b, 1, p), abs=1e-12), (p, cap)
            assert m.centered(1, p, cap) == pytest.approx(m.dead(1, p), abs=1e-12), (p, cap)


def test_the_perverse_table_really_closes_the_window() -> None:
    """The precondition, stated on its own: with the trailer sure to win, player 1 passes any
    double (cash point 0) and player 0 takes none (take point 1)."""
    m = CubeModel(trailer_wins, 5, 3, MIX0, MIX1, 0.7)
    assert m.cash_point0(1) == 0.0
    assert m.take_point0(1) == 1.0
