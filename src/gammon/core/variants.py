"""Variants of backgammon as data: start position, checker count and rule switches.

Every variant runs on the one move generator in :mod:`gammon.core.movegen`; a
variant only sets the switches it reads.  Find one by name or alias with
:func:`find_variant`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from gammon.core.errors import GammonError

#: Index of the bar in a side's row of 25 counts (points 1..24 are indices 0..23).
BAR = 24


def _row(**points: int) -> tuple[int, ...]:
    """A row of 25 counts from ``p24=2, p13=5, bar=15`` style keywords."""
    row = [0] * 25
    for name, count in points.items():
        row[BAR if name == "bar" else int(name[1:]) - 1] = count
    return tuple(row)


@dataclass(frozen=True, slots=True)
class Variant:
    """The rules that differ between variants; everything else is shared.

    ``start`` is one side's starting row seen from that side (both sides start
    alike).  Checkers that start off the board sit on the bar and enter from it.
    """

    name: str
    title: str
    checkers: int
    start: tuple[int, ...]
    #: "Checkers on the bar must enter before any other checker moves."
    must_enter_first: bool = True
    #: Dutch: "no hitting until one of your checkers has reached your home board".
    hit_needs_home: bool = False
    #: Acey-Deucey: the 1-2 roll gives a double of the player's choice and another roll.
    acey_deucey_bonus: bool = False
    #: Whether the doubling cube is used.
    cube: bool = True
    #: Acey-Deucey: the loser pays the stake times the checkers not borne off.
    pays_per_checker: bool = False
    #: Acey-Deucey: the checkers that start off the board wait in a pool, apart from the
    #: bar: "checkers still in the pool may wait while others move", while a hit checker
    #: on the bar "re-enters before any other move", as in standard play.
    starts_in_pool: bool = False
    #: Who plays the first move: ``"use-opening-dice"`` (the winner of the opening throw
    #: plays the two dice thrown) or ``"reroll"`` (the Norwegian rules' option: "the
    #: first player throws his dice anew for the first move").
    opening: str = "use-opening-dice"
    aliases: tuple[str, ...] = ()

    def __reduce__(self) -> tuple[object, ...]:
        # A registered variant unpickles (and deep-copies) as the registry's own object, so
        # identity checks keep working across processes; equality is by value anyway.
        if VARIANTS.get(self.name) == self:
            return (find_variant, (self.name,))
        return (_variant_from_fields, tuple(getattr(self, f.name) for f in fields(self)))

    @property
    def flags(self) -> int:
        """The rule switches packed for the move generator."""
        return int(self.must_enter_first) | (int(self.hit_needs_home) << 1)


STANDARD = Variant(
    "standard", "Backgammon", 15, _row(p24=2, p13=5, p8=3, p6=5), aliases=("backgammon",)
)
NACKGAMMON = Variant(
    "nackgammon", "Nackgammon", 15, _row(p24=2, p23=2, p13=4, p8=3, p6=4), aliases=("nack",)
)
HYPERGAMMON = Variant(
    "hypergammon", "Hypergammon", 3, _row(p24=1, p23=1, p22=1), aliases=("hypergammon3", "hyper")
)
HYPERGAMMON2 = Variant("hypergammon2", "Hypergammon (2 checkers)", 2, _row(p24=1, p23=1))
HYPERGAMMON1 = Variant("hypergammon1", "Hypergammon (1 checker)", 1, _row(p24=1))
DUTCH = Variant(
    "dutch", "Dutch backgammon", 15, _row(bar=15), hit_needs_home=True, opening="reroll",
    aliases=("dutch-backgammon",),
)
ACEY_DEUCEY = Variant(
    "acey-deucey", "Acey-Deucey", 15, _row(bar=15), acey_deucey_bonus=True, cube=False,
    pays_per_checker=True, starts_in_pool=True, opening="reroll",
    aliases=("aceydeucey", "acey_deucey", "acey"),
)

#: The two readings of the first move (see ``Variant.opening``).
OPENINGS = ("use-opening-dice", "reroll")


def _variant_from_fields(*values: object) -> Variant:
    return Variant(*values)  # type: ignore[arg-type]

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (STANDARD, NACKGAMMON, HYPERGAMMON, HYPERGAMMON2, HYPERGAMMON1, DUTCH, ACEY_DEUCEY)
}
_BY_ALIAS = {alias: v for v in VARIANTS.values() for alias in (v.name, *v.aliases)}


def find_variant(name: str | Variant) -> Variant:
    """The variant called ``name`` (or one of its aliases), case-insensitive.

    :raises GammonError: for an unknown name, listing the known ones.
    """
    if isinstance(name, Variant):
        return name
    key = str(name).strip().lower().replace(" ", "-")
    try:
        return _BY_ALIAS[key]
    except KeyError:
        raise GammonError(
            f"unknown variant {name!r}; known variants: {', '.join(VARIANTS)}"
        ) from None
