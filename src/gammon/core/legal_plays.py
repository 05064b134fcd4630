"""The legal plays of one roll as the move generator leaves them, and the buffers it writes.

:meth:`Position.legal_plays <gammon.core.position.Position.legal_plays>` runs the
generator into the calling thread's :class:`Buffers` and wraps the rows in a
:class:`LegalPlays`, which builds its :class:`Play` objects only when asked.
Positions are made here with the origin's own class (``type(origin)``, always
:class:`~gammon.core.position.Position`), so this module needs no import of it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from itertools import repeat
from typing import TYPE_CHECKING, Any, NamedTuple, overload

import numpy as np

from gammon.core import movegen
from gammon.core.plays import BAR_POINT, DECODED_MOVES, CheckerMove, Play

if TYPE_CHECKING:
    from gammon.core.position import Position

_new_tuple = tuple.__new__

#: Numpy views that turn a block of generator rows into a list of ``bytes`` in one C call.
_BOARD_ROW = np.dtype((np.void, 50))
_MOVES_ROW = np.dtype((np.void, movegen.MOVE_COLS))


#: Each thread's :class:`Buffers` (``BUFFERS.buffers``), made on its first call of :func:`buffers`.
BUFFERS = threading.local()


class Buffers(NamedTuple):
    """The calling thread's move generator buffers, made once and reused."""

    board_in: memoryview  # written with a position's 50 bytes (cheaper than np.frombuffer)
    board: np.ndarray[Any, np.dtype[np.uint8]]  # the same memory, the generator's input
    boards: np.ndarray[Any, np.dtype[np.uint8]]
    moves: np.ndarray[Any, np.dtype[np.int8]]
    table: np.ndarray[Any, np.dtype[np.int64]]
    board_rows: np.ndarray[Any, np.dtype[np.void]]  # result rows seen as one ``bytes`` each
    move_rows: np.ndarray[Any, np.dtype[np.void]]


def buffers() -> Buffers:
    """The calling thread's buffers (see :class:`Buffers`), made on first use."""
    try:
        return BUFFERS.buffers  # type: ignore[no-any-return]
    except AttributeError:
        ws = movegen.Workspace()
        board = np.zeros(50, dtype=np.uint8)
        made = BUFFERS.buffers = Buffers(
            board.data, board, ws.boards, ws.moves, ws.table,
            ws.boards.view(_BOARD_ROW).reshape(-1), ws.moves.view(_MOVES_ROW).reshape(-1),
        )
        return made


def _pool_after(origin: Position, board: bytes) -> int:
    """The pool after a play from ``origin`` to ``board``: entries take hit checkers first.

    The mover's pool shrinks only once every hit checker has entered; the
    opponent's pool is untouched (a hit checker goes to the bar, not the pool).
    """
    pool = origin._pool
    return min(pool & 15, board[24]) | (pool & 0xF0)


def _pool_entries(moves: tuple[CheckerMove, ...], hit_waiting: int) -> tuple[CheckerMove, ...]:
    """The moves with entries beyond the first ``hit_waiting`` written as from the pool."""
    out = []
    for m in moves:
        if m.from_point == BAR_POINT:
            if hit_waiting > 0:
                hit_waiting -= 1
            else:
                m = CheckerMove(BAR_POINT, m.to_point, m.hit, True)
        out.append(m)
    return tuple(out)


class LegalPlays(Sequence[Play]):
    """The legal plays of one roll: a sequence that builds its :class:`Play` objects on first use.

    ``len()``, indexing, iteration and ``in`` work as on a tuple.  ``boards`` and
    ``moves`` are the generator's rows (50 and ``MOVE_COLS`` bytes each), one
    ``bytes`` per row (:meth:`from_blocks` takes them as one block each).
    """

    __slots__ = ("_position", "_boards", "_moves", "_n", "_plays")

    def __init__(self, position: Position, boards: list[bytes], moves: list[bytes], n: int) -> None:
        self._position = position
        self._boards = boards
        self._moves = moves
        self._n = n
        self._plays: list[Play] | None = None

    @classmethod
    def from_blocks(cls, position: Position, boards: bytes, moves: bytes, n: int) -> LegalPlays:
        """The plays of ``n`` generator rows given as one block of bytes per array."""
        rows = np.frombuffer(boards, _BOARD_ROW).tolist()
        return cls(position, rows, np.frombuffer(moves, _MOVES_ROW).tolist(), n)

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> Play: ...
    @overload
    def __getitem__(self, i: slice) -> list[Play]: ...
    def __getitem__(self, i: int | slice) -> Play | list[Play]:
        plays = self._plays
        if plays is None:
            plays = self._build()
        if isinstance(i, slice):
            return plays[i]
        if not -self._n <= i < self._n:
            raise IndexError("play index out of range")
        return plays[i]

    def __iter__(self) -> Iterator[Play]:
        plays = self._plays
        if plays is None:
            plays = self._build()
        return iter(plays)

    def _build(self) -> list[Play]:
        """Every play at once: positions and plays are made by ``map`` over the rows, so
        no Python code runs per play (what made building plays slow before); a play
        keeps its packed row of moves and decodes it when asked (see :class:`Play`)."""
        origin = self._position
        if not origin._pool:
            made = type(origin)
            positions = map(_new_tuple, repeat(made), zip(self._boards, repeat(origin._variant), repeat(0)))
            plays = list(map(_new_tuple, repeat(Play), zip(positions, self._moves, strict=True)))
        else:
            plays = [self._build_one(board, row) for board, row in zip(self._boards, self._moves, strict=True)]
        self._plays = plays
        return plays

    def _build_one(self, board: bytes, row: bytes) -> Play:
        """One play from a position with an Acey-Deucey pool: its entries and the pool after it."""
        origin = self._position
        moves = DECODED_MOVES[row]
        if origin._pool & 15:
            moves = _pool_entries(moves, origin.bar[0])
        return _new_tuple(Play, (origin._make(board, origin._variant, _pool_after(origin, board)), moves))

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Play):
            item = item.position
        if not isinstance(item, type(self._position)):
            return False
        return item in self.positions()

    def positions(self) -> list[Position]:
        """The resulting positions only (cheaper than building every play)."""
        if self._plays is not None:
            return [p.position for p in self._plays]
        origin = self._position
        v = origin._variant
        if origin._pool:
            return [origin._make(b, v, _pool_after(origin, b)) for b in self._boards]
        return list(map(_new_tuple, repeat(type(origin)), zip(self._boards, repeat(v), repeat(0))))

    def __repr__(self) -> str:
        return f"<LegalPlays {len(self)}: {', '.join(str(p) for p in self)}>"
