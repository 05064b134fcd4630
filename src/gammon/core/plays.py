"""Checker moves and plays: what a player does with one roll.

A :class:`Play` is the list of checker moves of one turn together with the
position it leads to.  Two move lists that reach the same position are the same
play; the move generator keeps one of them, and :func:`format_moves` writes it
the way GNU Backgammon does (``24/18 13/11``, ``8/5(2)``, ``24/21*/20``,
``bar/22*``, ``6/off``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from gammon.core.position import Position

#: Point number of the bar and of "borne off" in notation, from the mover's side.
BAR_POINT = 25
OFF_POINT = 0


@dataclass(frozen=True, slots=True)
class CheckerMove:
    """One checker moved by one die: ``from_point`` 1..25 (25 = bar) to ``to_point`` 0..24.

    Points are numbered from the mover's side; ``to_point`` 0 means borne off.
    ``hit`` says an opponent blot on ``to_point`` went to the bar.
    ``from_pool`` (Acey-Deucey) says the checker entered from the pool of
    never-entered checkers rather than from the bar; it is written ``in/22``.
    """

    from_point: int
    to_point: int
    hit: bool = False
    from_pool: bool = False

    def __str__(self) -> str:
        start = "in" if self.from_pool else _name(self.from_point)
        return f"{start}/{_name(self.to_point)}{'*' if self.hit else ''}"


def _name(point: int) -> str:
    if point == BAR_POINT:
        return "bar"
    if point == OFF_POINT:
        return "off"
    return str(point)


def chain_moves(moves: Sequence[CheckerMove]) -> list[list[CheckerMove]]:
    """A play's single-die moves grouped into one chain per checker, highest start first.

    ``24/18 18/13`` is one chain; notation writes a chain as ``24/13``.
    """
    pending = sorted(moves, key=lambda m: (-m.from_point, -m.to_point))
    chains: list[list[CheckerMove]] = []
    while pending:
        chain = [pending.pop(0)]
        while chain[-1].to_point != OFF_POINT:
            follow = next((m for m in pending if m.from_point == chain[-1].to_point), None)
            if follow is None:
                break
            pending.remove(follow)
            chain.append(follow)
        chains.append(chain)
    return chains


def format_moves(moves: Sequence[CheckerMove]) -> str:
    """Standard notation of a list of single-die moves, as GNU Backgammon writes it.

    Moves of one checker are joined (``24/18 18/13`` -> ``24/13``), showing a
    middle point only where it hit; equal parts are counted (``13/11(2)``).
    Parts are ordered from the highest starting point down.  An empty list (a
    pass) is written as an empty string.

    >>> format_moves([CheckerMove(24, 18), CheckerMove(18, 13)])
    '24/13'
    >>> format_moves([CheckerMove(8, 5), CheckerMove(6, 5), CheckerMove(8, 5), CheckerMove(6, 5)])
    '8/5(2) 6/5(2)'
    """
    parts: list[str] = []
    counts: dict[str, int] = {}
    for chain in chain_moves(moves):
        text = "in" if chain[0].from_pool else _name(chain[0].from_point)
        for step in chain[:-1]:
            if step.hit:
                text += f"/{_name(step.to_point)}*"
        last = chain[-1]
        text += f"/{_name(last.to_point)}{'*' if last.hit else ''}"
        if text not in counts:
            parts.append(text)
            counts[text] = 0
        counts[text] += 1
    return " ".join(p if counts[p] == 1 else f"{p}({counts[p]})" for p in parts)


class Play(NamedTuple):
    """A legal play: its checker moves and the position it leads to.

    ``position`` is seen from the mover, before the turn passes (call
    ``play.position.swap()`` for the opponent's view).  An empty ``moves`` is a
    pass.  Plays compare equal when they lead to the same position.  A named
    tuple because move generation builds many of them: it is three times
    cheaper to create than a frozen dataclass.
    """

    moves: tuple[CheckerMove, ...]
    position: Position

    def __str__(self) -> str:
        return format_moves(self.moves)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and self.position == other.position

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.position)

    def __repr__(self) -> str:
        return f"<Play {self} -> {self.position.position_id}>"

    @property
    def hits(self) -> int:
        """How many opponent blots the play sent to the bar."""
        return sum(m.hit for m in self.moves)

    @property
    def dice_used(self) -> int:
        """How many dice the play used (0 for a pass, up to 4 with doubles)."""
        return len(self.moves)
