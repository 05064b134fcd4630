"""The engine scores a finished game by core's one rule (``Rules.points_for``).

Its compiled kernels use a numba twin of the rule; these tests compare the twin
with core on every combination of outcome, cube, owner, Jacoby, gammons, money
or match and variant, so the two cannot drift apart.  The engine's Python code
(cube decisions, rollouts, match play, analysis) goes through the same rule.
"""

from __future__ import annotations

import itertools

import pytest

from gammon.ai.cube import CENTERED, CubeInfo, _stakes, cube_decision
from gammon.ai.cube_money import averages
from gammon.ai.scoring import points_for, points_kernel
from gammon.core.position import ResultKind
from gammon.core.rules import CENTERED as CORE_CENTERED
from gammon.core.rules import Rules
from gammon.core.variants import VARIANTS

CUBES = [1 << k for k in range(13)]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_compiled_twin_agrees_with_core_everywhere(variant: str) -> None:
    v = VARIANTS[variant]
    lefts = range(16) if v.pays_per_checker else (0,)
    checked = 0
    for kind, cube, owner, jacoby, gammons, length, left in itertools.product(
            ResultKind, CUBES, (CORE_CENTERED, 0, 1), (False, True), (False, True), (0, 1, 7), lefts):
        rules = Rules(variant=v, match_length=length, jacoby=jacoby, gammons=gammons)
        want = rules.points_for(kind, cube, cube_owner=owner, checkers_left=left)
        got = points_kernel(int(kind), cube, owner == CORE_CENTERED, length == 0, jacoby, gammons,
                            v.pays_per_checker, left)
        assert got == want, (variant, kind, cube, owner, jacoby, gammons, length, left)
        assert points_for(kind, cube, owner=owner, money=length == 0, jacoby=jacoby, gammons=gammons,
                          variant=v, checkers_left=left) == want
        checked += 1
    assert checked >= 3 * 13 * 3 * 2 * 2 * 3


def test_cube_info_scores_by_core() -> None:
    assert CENTERED == CORE_CENTERED
    # "Jacoby: gammons and backgammons count single while the cube is centred" (money only).
    assert CubeInfo(jacoby=True).points_for(ResultKind.GAMMON) == 1
    assert CubeInfo(jacoby=True, value=2, owner=1).points_for(ResultKind.GAMMON) == 4
    assert CubeInfo(jacoby=True, match_length=5).points_for(ResultKind.BACKGAMMON) == 3
    assert CubeInfo(gammons=False, value=4, owner=0).points_for(ResultKind.BACKGAMMON) == 4
    assert CubeInfo(value=8, owner=0).points_for(ResultKind.BACKGAMMON) == 24


def test_cube_model_stakes_follow_the_scoring_rule() -> None:
    assert _stakes(True, False, True, True) == (1, 2, 3)
    assert _stakes(True, True, True, True) == (1, 1, 1)  # Jacoby, centred cube
    assert _stakes(True, True, True, False) == (1, 2, 3)  # Jacoby, cube turned
    assert _stakes(True, False, False, False) == (1, 1, 1)
    # W and L: average points of a win and a loss.
    y = (0.6, 0.2, 0.05, 0.1, 0.01)
    assert averages(y, 1, 2, 3) == pytest.approx(((0.6 + 0.2 + 0.05) / 0.6, (0.4 + 0.1 + 0.01) / 0.4))
    assert averages(y, 1, 1, 1) == pytest.approx((1.0, 1.0))


def test_jacoby_centred_cube_values_gammonish_positions_as_single_games() -> None:
    """With Jacoby and a centred cube, the no-double equity ignores the gammons (they count
    single until the cube is turned): the same as a position without gammons."""
    gammonish = (0.7, 0.3, 0.05, 0.05, 0.0)
    plain = (0.7, 0.0, 0.0, 0.0, 0.0)
    jac = cube_decision(gammonish, CubeInfo(jacoby=True))
    same = cube_decision(plain, CubeInfo(jacoby=True))
    assert jac.no_double == pytest.approx(same.no_double)
    assert jac.double_take != pytest.approx(same.double_take)  # once doubled, gammons count
    assert cube_decision(gammonish, CubeInfo()).no_double > jac.no_double
