"""Cube efficiency: how live the cube is in a position, the ``x`` of Janowski's model.

Our documented choice (``docs/match_equity.md``): 0.68 in contact positions; in a race it
grows with the length of the race, from 0.6 at 20 pips or fewer for the player on roll to
0.8 at 100 pips or more, times the chance that the opponent does not bear off at his next
roll (on the last roll the cube is dead).  One formula for every cube decision (play,
analysis, rollouts); :mod:`gammon.ai.cube` turns it into cubeful equities.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from gammon.ai.encoding import is_contact
from gammon.core.errors import GammonError
from gammon.core.pips import pips
from gammon.core.position import Position

__all__ = [
    "CONTACT_EFFICIENCY", "RACE_LONG", "RACE_LONG_PIPS", "RACE_SHORT", "RACE_SHORT_PIPS",
    "board_efficiency", "cube_efficiency", "finish_chance", "race_efficiency",
]

#: Cube efficiency in contact positions.
CONTACT_EFFICIENCY = 0.68
#: Cube efficiency of races: from RACE_SHORT at RACE_SHORT_PIPS or fewer pips to RACE_LONG at RACE_LONG_PIPS.
RACE_SHORT = 0.6
RACE_LONG = 0.8
RACE_SHORT_PIPS = 20
RACE_LONG_PIPS = 100


def cube_efficiency(position: Position) -> float:
    """The cube efficiency we use for ``position`` (see the module documentation)."""
    return float(board_efficiency(np.frombuffer(position.board, dtype=np.uint8), 0))


@njit(cache=True)
def board_efficiency(board, roller):  # type: ignore[no-untyped-def]
    """The cube efficiency of the player on roll of ``board`` (50 counts), whose side is ``roller``
    (0: counts 0..24, 1: counts 25..49).

    The one formula of every cube decision (play, analysis, rollouts): 0.68 in
    contact; in a race, :func:`race_efficiency` of the roller's pips, scaled by
    the chance that the other side does not bear off at its next roll
    (:func:`finish_chance`).
    """
    if is_contact(board):
        return CONTACT_EFFICIENCY
    mine = 25 * roller
    other = 25 - mine
    return race_efficiency(pips(board, mine)) * (1.0 - _finish_ways(board, other) / 36.0)


def finish_chance(side: np.ndarray | Sequence[int]) -> float:
    """The chance that a side (25 counts: points 1..24, then the bar) bears off everything in one roll.

    A non-double moves two checkers, so it bears off one checker within the
    two dice's sum, or two checkers when the larger die reaches the higher
    and the smaller the lower; a double ``d`` bears off when the checkers need
    at most four moves of ``d`` in all (``ceil(point / d)`` each).

    The player on roll's cube is only worth its efficiency if the game goes
    on after the opponent's next roll: :func:`board_efficiency` scales the race
    efficiency by the chance that the opponent does not finish then (0 on the
    last roll: a double can never be redoubled, holding the cube is worth
    nothing).
    """
    try:
        c = np.asarray([int(v) for v in side], dtype=np.int64)
    except (TypeError, ValueError):
        raise GammonError("a side has 25 counts") from None
    if len(c) != 25:
        raise GammonError("a side has 25 counts")
    return float(_finish_ways(c, 0)) / 36.0


@njit(cache=True)
def _finish_ways(board, start):  # type: ignore[no-untyped-def]
    """Of the 36 rolls, how many bear off every checker of the side at ``board[start:start + 25]``."""
    if board[start + 24] != 0:
        return 0
    left = np.zeros(4, dtype=np.int64)  # the checkers' points, highest first
    n = 0
    for i in range(23, -1, -1):
        for _ in range(board[start + i]):
            if n == 4:
                return 0
            left[n] = i + 1
            n += 1
    if n == 0:
        return 36
    ways = 0
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            if d1 == d2:
                moves = 0
                for k in range(n):
                    moves += (left[k] + d1 - 1) // d1
                ok = moves <= 4
            elif n == 1:
                ok = left[0] <= d1 + d2
            elif n == 2:
                ok = max(d1, d2) >= left[0] and min(d1, d2) >= left[1]
            else:
                ok = False
            if ok:
                ways += 1
    return ways


@njit(cache=True)
def race_efficiency(pips):  # type: ignore[no-untyped-def]
    """Cube efficiency of a race where the player on roll has ``pips`` to bear off."""
    f = (pips - RACE_SHORT_PIPS) / (RACE_LONG_PIPS - RACE_SHORT_PIPS)
    return RACE_SHORT + (RACE_LONG - RACE_SHORT) * min(1.0, max(0.0, f))
