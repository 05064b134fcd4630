"""The pip count, once: a compiled function that kernels call and :attr:`Position.pip_counts` uses.

A side's pip count is the number of pips its checkers must travel to bear off:
a checker on point ``n`` counts ``n``, one on the bar 25.  The board is the
50 counts of :attr:`gammon.core.position.Position.board` (bytes or a ``uint8``
array): the player on roll's points 1..24 and bar at 0..24, the opponent's at
25..49, each from its own side.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def pips(board, offset):  # type: ignore[no-untyped-def]
    """The pip count of the side whose 25 counts start at ``offset`` (0: the player on roll, 25: the
    opponent); the bar counts 25.

    >>> from gammon.core.position import Position
    >>> pips(Position.initial().board, 25)
    167
    """
    total = 0
    for i in range(25):
        total += board[offset + i] * (i + 1)
    return total


__all__ = ["pips"]
