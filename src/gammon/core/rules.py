"""The settings of a game or match, and the one scoring function.

:class:`Rules` is a frozen record of every setting that changes what is legal
or what a game scores.  :meth:`Rules.points_for` is the only place gammon turns
the end of a game into points: the game, the match, the record readers and
the analysis all call it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from gammon.core.cube import CubeOwner
from gammon.core.errors import GammonError
from gammon.core.match_id import MAX_MATCH_LENGTH
from gammon.core.position import Outcome, ResultKind
from gammon.core.variants import OPENINGS, STANDARD, Variant, find_variant

#: ``cube_owner`` of a centred cube (nobody owns it yet): :attr:`CubeOwner.CENTERED` (-1).
CENTERED = CubeOwner.CENTERED
CENTRED = CENTERED

_CUBE_LIMITS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096)


@dataclass(frozen=True, slots=True)
class Rules:
    """The settings of a game or match, frozen.

    ``match_length`` 0 is money play, where ``jacoby``, ``beavers`` and
    ``automatic_doubles`` (the most automatic doubles per game, 0 = off) apply.
    ``gammons`` False counts gammons and backgammons as single games, as some
    online rooms do.  ``cube_limit`` is the highest cube value.  ``opening``
    says who plays the first move (see :attr:`Variant.opening`); None takes
    the variant's usual reading.

    >>> Rules(variant="dutch").opening
    'reroll'
    >>> Rules(match_length=5)
    Rules(match_length=5)
    """

    variant: Variant = STANDARD
    match_length: int = 0
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: int = 0
    cube_limit: int = 64
    gammons: bool = True
    cube: bool = True
    opening: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "variant", find_variant(self.variant))
        for name in ("match_length", "automatic_doubles", "cube_limit"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise GammonError(f"{name.replace('_', ' ')} must be a whole number, not {value!r}")
        if not 0 <= self.match_length <= MAX_MATCH_LENGTH:
            raise GammonError(
                f"match length must be 0 (money) or 1 to {MAX_MATCH_LENGTH} points, not {self.match_length}"
            )
        if self.cube_limit not in _CUBE_LIMITS:
            raise GammonError(f"cube limit must be a power of two up to 4096, not {self.cube_limit}")
        if self.automatic_doubles < 0:
            raise GammonError("automatic doubles must be 0 (off) or a positive limit")
        opening = self.variant.opening if self.opening is None else self.opening
        if opening not in OPENINGS:
            raise GammonError(f"opening must be one of {', '.join(OPENINGS)}, not {opening!r}")
        object.__setattr__(self, "opening", opening)

    def __repr__(self) -> str:
        parts = []
        for f in fields(self):
            value: Any = getattr(self, f.name)
            if f.name == "opening":
                if value != self.variant.opening:
                    parts.append(f"opening={value!r}")
            elif f.name == "variant":
                if value != STANDARD:
                    parts.append(f"variant={value.name!r}")
            elif value != f.default:
                parts.append(f"{f.name}={value!r}")
        return f"Rules({', '.join(parts)})"

    @property
    def is_money(self) -> bool:
        return self.match_length == 0

    @property
    def uses_cube(self) -> bool:
        """Whether the cube is in play at all (Acey-Deucey has none)."""
        return self.cube and self.variant.cube and self.cube_limit > 1

    @property
    def rerolls_opening(self) -> bool:
        """Whether the winner of the opening throw throws both dice anew for the first move."""
        return self.opening == "reroll"

    def points_for(
        self,
        outcome: Outcome | ResultKind | int,
        cube: int = 1,
        *,
        cube_owner: int = CENTERED,
        checkers_left: int = 0,
    ) -> int:
        """What a win of ``outcome`` scores with the cube at ``cube``: the one scoring rule.

        * single, gammon, backgammon: 1, 2, 3 times the cube;
        * ``gammons`` off: every win counts single;
        * Jacoby (money play): "gammons and backgammons count single while the
          cube is centred" (``cube_owner`` is ``CENTERED``: nobody doubled yet,
          automatic doubles included);
        * Acey-Deucey: "the loser pays the stake times the checkers still on the
          board" (``checkers_left``, at least one).

        >>> Rules().points_for(ResultKind.GAMMON, 2, cube_owner=0)
        4
        >>> Rules(jacoby=True).points_for(ResultKind.GAMMON, 1)
        1

        :raises GammonError: an unknown outcome or a cube that is not a power of two.
        """
        kind = outcome.kind if isinstance(outcome, Outcome) else outcome
        try:
            multiple = int(ResultKind(kind))
        except ValueError:
            raise GammonError(f"an outcome is single (1), gammon (2) or backgammon (3), not {kind!r}") from None
        if isinstance(cube, bool) or not isinstance(cube, int) or cube < 1 or cube & (cube - 1):
            raise GammonError(f"the cube is a power of two, not {cube!r}")
        if self.variant.pays_per_checker:
            return max(1, checkers_left) * cube
        if not self.gammons:
            multiple = 1
        if self.is_money and self.jacoby and cube_owner == CENTERED:
            multiple = 1
        return multiple * cube


__all__ = ["CENTERED", "CENTRED", "Rules"]
