"""Checker moves and plays: what a player does with one roll.

A :class:`Play` is the list of checker moves of one turn together with the
position it leads to.  Two move lists that reach the same position are the same
play; the move generator keeps one of them, and :func:`format_moves` writes it
the way GNU Backgammon does (``24/18 13/11``, ``8/5(2)``, ``24/21*/20``,
``bar/22*``, ``6/off``).
"""

from __future__ import annotations

from collections import _tuplegetter  # type: ignore[attr-defined]  # named tuples' field getter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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


#: Every possible checker move, built once: moves are immutable, so plays share them.
_MOVES = [CheckerMove(i // 50, (i % 50) // 2, bool(i % 2)) for i in range(26 * 50)]
_new_tuple = tuple.__new__


class _DecodedMoves(dict[bytes, tuple[CheckerMove, ...]]):
    """Move lists by the move generator's packed row (14 bytes: four moves of (from,
    to, hit), then the dice used); plays repeat across positions, so they are cached.

    A dict whose misses decode the row.
    """

    def __missing__(self, row: bytes) -> tuple[CheckerMove, ...]:
        if len(self) > 200_000:
            self.clear()  # a bound on memory; the common rows come back at once
        moves = tuple([_MOVES[row[k] * 50 + row[k + 1] * 2 + row[k + 2]] for k in range(0, 3 * row[12], 3)])
        self[row] = moves
        return moves


#: The move lists of generator rows seen so far.
DECODED_MOVES = _DecodedMoves()


class Play(tuple[Any, Any]):
    """A legal play: its checker moves and the position it leads to.

    ``position`` is seen from the mover, before the turn passes (call
    ``play.position.swap()`` for the opponent's view).  An empty ``moves`` is a
    pass.  Plays compare equal when they lead to the same position.

    It behaves as the pair ``(moves, position)`` (unpacking, indexing, pickling).
    Underneath it is a tuple holding the position and either the moves or the move
    generator's packed row of them, decoded on first use of :attr:`moves`: move
    generation builds many plays, most of whose moves are never read, and a tuple
    subclass is built in one C call.
    """

    __slots__ = ()
    #: Field names, as a named tuple has (``dataclasses.asdict`` rebuilds plays by them).
    _fields = ("moves", "position")
    if TYPE_CHECKING:
        position: Position
    else:
        position = _tuplegetter(0, "the position the play leads to, seen from the mover")
        _raw = _tuplegetter(1, "the moves, or the generator's packed row of them")

    def __new__(cls, moves: Iterable[CheckerMove], position: Position) -> Play:
        return _new_tuple(cls, (position, tuple(moves)))

    @property
    def moves(self) -> tuple[CheckerMove, ...]:
        """The checker moves, one per die played, in the order they were played."""
        raw = self._raw  # type: ignore[attr-defined]
        if raw.__class__ is bytes:
            return DECODED_MOVES[raw]
        return raw  # type: ignore[no-any-return]

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

    # The pair (moves, position), as the named tuple Play once was.
    def __len__(self) -> int:
        return 2

    def __iter__(self) -> Iterator[Any]:
        return iter((self.moves, self.position))

    def __getitem__(self, index: Any) -> Any:
        return (self.moves, self.position)[index]

    def __contains__(self, item: object) -> bool:
        return item in (self.moves, self.position)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Play, (self.moves, self.position))

    @property
    def hits(self) -> int:
        """How many opponent blots the play sent to the bar."""
        return sum(m.hit for m in self.moves)

    @property
    def dice_used(self) -> int:
        """How many dice the play used (0 for a pass, up to 4 with doubles)."""
        return len(self.moves)
