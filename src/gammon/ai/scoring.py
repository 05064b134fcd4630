"""What a finished game scores, for the engine: core's one rule, and its compiled twin.

The rule is :meth:`gammon.core.rules.Rules.points_for` (single, gammon,
backgammon = 1, 2, 3 times the cube; gammons off; Jacoby while the cube is
centred in money play; Acey-Deucey's stake per checker left).  The engine's
Python code calls it through :func:`points_for` (a :class:`~gammon.ai.cube.CubeInfo`
carries the settings).  Compiled kernels cannot call Python, so they call
:func:`points_kernel`, a numba twin of the same rule; a test compares the two
on every outcome, cube, owner, Jacoby, gammons and variant setting, so the twin
cannot drift from core.
"""

from __future__ import annotations

from functools import lru_cache

from numba import njit

from gammon.core.position import Outcome, ResultKind
from gammon.core.rules import CENTERED, Rules
from gammon.core.variants import STANDARD, Variant


@lru_cache(maxsize=256)
def rules_for_scoring(money: bool, jacoby: bool, gammons: bool, variant: Variant = STANDARD) -> Rules:
    """The core :class:`Rules` whose scoring these settings have (only money-or-match matters of the length)."""
    return Rules(variant=variant, match_length=0 if money else 1, jacoby=jacoby, gammons=gammons)


def points_for(
    kind: Outcome | ResultKind | int, cube: int, *, owner: int = CENTERED, money: bool = True,
    jacoby: bool = False, gammons: bool = True, variant: Variant = STANDARD, checkers_left: int = 0,
) -> int:
    """Points of a win of ``kind`` with the cube at ``cube`` owned by ``owner``: core's rule."""
    rules = rules_for_scoring(money, jacoby, gammons, variant)
    return rules.points_for(kind, cube, cube_owner=owner, checkers_left=checkers_left)


@njit(cache=True)
def points_kernel(kind, cube, centred, money, jacoby, gammons, per_checker, checkers_left):  # type: ignore[no-untyped-def]
    """The compiled twin of :meth:`Rules.points_for` (``kind`` 1, 2, 3; flags as booleans).

    Tested against core on every combination (``tests/test_ai_scoring.py``).
    """
    if per_checker:
        return max(1, checkers_left) * cube
    multiple = kind
    if not gammons:
        multiple = 1
    if money and jacoby and centred:
        multiple = 1
    return multiple * cube


__all__ = ["points_for", "points_kernel", "rules_for_scoring"]
