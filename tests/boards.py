"""Readable board fixtures for the tests.

A board is written as two sides separated by ``;``::

    pos("x: 24:2 13:5 8:3 6:5; o: 24:2 13:5 8:3 6:5")

``x`` is the player on roll and ``o`` the opponent.  Each side lists
``point:count`` pairs numbered from **that side's own** point of view (1..24,
``bar`` for the bar); a bare ``point`` means one checker.  Checkers not listed
are borne off (in Dutch backgammon and Acey-Deucey write them as ``bar:N``
until they have entered).  An empty side is written ``x:`` or ``o:``.

Remember that the mover's point ``p`` is the opponent's point ``25 - p``:
``pos("x: 8:2; o: 20:1")`` has an opponent blot on the mover's 5 point, so
``8/5*`` hits it.
"""

from __future__ import annotations

from collections.abc import Iterable

from gammon import Position, Variant


def row(side: str) -> list[int]:
    """One side's 25 counts (points 1..24, then the bar) from ``"24:2 13:5 bar:1"``."""
    counts = [0] * 25
    for item in side.split():
        point, _, count = item.partition(":")
        index = 24 if point.lower() == "bar" else int(point) - 1
        if not 0 <= index <= 24:
            raise ValueError(f"bad point {point!r} in fixture {side!r}")
        counts[index] += int(count) if count else 1
    return counts


def rows(spec: str) -> tuple[list[int], list[int]]:
    """``(me, opp)`` rows from a ``"x: ...; o: ..."`` spec (sides in either order)."""
    sides: dict[str, list[int]] = {}
    for part in spec.split(";"):
        name, sep, body = part.partition(":")
        name = name.strip().lower()
        if not sep or name not in ("x", "o") or name in sides:
            raise ValueError(f"fixture side must be 'x: ...' or 'o: ...', got {part!r}")
        sides[name] = row(body)
    if set(sides) != {"x", "o"}:
        raise ValueError(f"fixture needs both an 'x:' and an 'o:' side: {spec!r}")
    return sides["x"], sides["o"]


def pos(spec: str, variant: str | Variant = "standard") -> Position:
    """The position ``spec`` draws, ``x`` on roll (see the module docstring)."""
    me, opp = rows(spec)
    return Position(me, opp, variant)


def results(position: Position, dice: Iterable[int]) -> set[str]:
    """The legal plays of ``dice`` written in standard notation (``{"24/18 13/11", ...}``)."""
    return {str(play) for play in position.legal_plays(dice)}


def result_positions(position: Position, dice: Iterable[int]) -> set[Position]:
    """The distinct positions (mover's view) the legal plays of ``dice`` lead to."""
    return set(position.legal_plays(dice).positions())


def result_specs(position: Position, dice: Iterable[int]) -> set[str]:
    """The resulting positions written back as fixture specs (compare with ``spec``)."""
    return {spec(p) for p in result_positions(position, dice)}


def spec(position: Position) -> str:
    """The fixture spec of ``position`` in canonical form (bar first, points high to low)."""
    return _spec(position.me, position.opp)


def canon(text: str) -> str:
    """A hand-written spec in :func:`spec`'s canonical form (for comparisons)."""
    return _spec(*rows(text))


def _spec(me: Iterable[int], opp: Iterable[int]) -> str:
    def side(counts: list[int]) -> str:
        parts = [f"bar:{counts[24]}"] if counts[24] else []
        parts += [f"{i + 1}:{counts[i]}" for i in range(23, -1, -1) if counts[i]]
        return " ".join(parts)

    return f"x: {side(list(me))}; o: {side(list(opp))}".replace(" ;", ";").rstrip()


#: The starting position's XGID board field, the bottom player on roll.
XGID_START_BOARD = "-b----E-C---eE---c-e----B-"


def xgid(cube: object = 0, place: object = 0, turn: object = 1, dice: object = "00", bottom: object = 0,
         top: object = 0, rules: object = 0, length: object = 0, max_cube: object = 10,
         board: str = XGID_START_BOARD) -> str:
    """An XGID text from its fields in order (each written as given, so a test can put a bad value
    in any one); by default the start of a money game, nothing rolled."""
    return f"XGID={board}:{cube}:{place}:{turn}:{dice}:{bottom}:{top}:{rules}:{length}:{max_cube}"
