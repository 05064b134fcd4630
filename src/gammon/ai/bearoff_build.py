"""Building the one-sided bear-off database (:mod:`gammon.ai.bearoff`) with the move generator.

Positions are filled in order of their pip counts, so every result of a roll
is done before the position that leads to it: its distribution is the
weighted sum over the 21 rolls of the best result's (shifted by one roll),
the best play minimising the expected rolls (ties: finishing sooner).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numba import njit

from gammon.ai.bearoff import (
    MAX_CHECKERS,
    MAX_FIRST,
    MAX_ROLLS,
    N_POSITIONS,
    N_SHORT,
    OFFSETS,
    POINTS,
    SHORT_CHECKERS,
    SHORT_MAX_FIRST,
    SHORT_MAX_ROLLS,
    SHORT_OFFSETS,
    SHORT_POINTS,
    BearoffDatabase,
    all_positions,
    all_short_positions,
    rank,
)
from gammon.core import movegen
from gammon.core.errors import GammonError


@njit(cache=True)
def _better(e_new, d_new, e_old, d_old, kmax):  # type: ignore[no-untyped-def]
    """Whether distribution ``d_new`` (mean ``e_new``) beats ``d_old``: a lower mean,
    or an equal mean and a larger cumulative probability where they first differ."""
    if e_new < e_old - 1e-12:
        return True
    if e_new > e_old + 1e-12:
        return False
    cn = 0.0
    co = 0.0
    for k in range(kmax):
        cn += d_new[k]
        co += d_old[k]
        if cn > co + 1e-12:
            return True
        if cn < co - 1e-12:
            return False
    return False


class Ranking(NamedTuple):
    """The positions of one table and how they are numbered: ``pos`` holds each
    position's counts on the lowest ``points`` points (at most ``checkers``
    checkers), ranked by :func:`rank` with ``offsets``."""

    pos: np.ndarray
    offsets: np.ndarray
    points: int
    checkers: int


class Distributions(NamedTuple):
    """One table being built, a row per position: the probabilities of needing
    exactly ``k`` rolls to bear off all (``rolls``) or the first checker
    (``first``), and their means (``erolls``, ``efirst``); float64."""

    rolls: np.ndarray
    first: np.ndarray
    erolls: np.ndarray
    efirst: np.ndarray


@njit(cache=True)
def _build_range(lo, hi, order, ranking, dist, boards, moves, table):  # type: ignore[no-untyped-def]
    """Fill the rows of ``dist`` (:class:`Distributions`) of the positions ``order[lo:hi]``
    of ``ranking`` (:class:`Ranking`), all their results already done; ``boards``,
    ``moves``, ``table``: the move generator's buffers."""
    pos, offsets, points, checkers = ranking
    rolls, first, erolls, efirst = dist
    board = np.zeros(50, dtype=np.uint8)
    kr = rolls.shape[1]
    kf = first.shape[1]
    acc_r = np.zeros(kr, dtype=np.float64)
    acc_f = np.zeros(kf, dtype=np.float64)
    for q in range(lo, hi):
        i = order[q]
        total = 0
        for j in range(points):
            board[j] = pos[i, j]
            total += pos[i, j]
        if total == 0:
            rolls[i, 0] = 1.0
            first[i, 0] = 1.0
            continue
        for k in range(kr):
            acc_r[k] = 0.0
        for k in range(kf):
            acc_f[k] = 0.0
        er = 0.0
        ef = 0.0
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                w = (1.0 if d1 == d2 else 2.0) / 36.0
                n = movegen.generate(board, d1, d2, 1, 15, boards, moves, table)
                best_r = -1
                best_f = -1
                best_f_off = False
                for r in range(n):
                    j = rank(boards[r], 0, offsets, points, checkers)
                    if best_r < 0 or _better(erolls[j], rolls[j], erolls[best_r], rolls[best_r], kr):
                        best_r = j
                    # A play that bears a checker off ends the wait for the first one.
                    t = 0
                    for s in range(points):
                        t += boards[r, s]
                    if best_f_off:
                        continue
                    if t < total:
                        best_f_off = True
                        best_f = j
                    elif best_f < 0 or _better(efirst[j], first[j], efirst[best_f], first[best_f], kf):
                        best_f = j
                er += w * erolls[best_r]
                for k in range(kr - 1):
                    acc_r[k + 1] += w * rolls[best_r, k]
                if best_f_off:
                    acc_f[1] += w
                else:
                    ef += w * efirst[best_f]
                    for k in range(kf - 1):
                        acc_f[k + 1] += w * first[best_f, k]
        erolls[i] = 1.0 + er
        efirst[i] = 1.0 + ef
        for k in range(kr):
            rolls[i, k] = acc_r[k]
        for k in range(kf):
            first[i, k] = acc_f[k]


def _build_table(pos: np.ndarray, offsets: np.ndarray, points: int, checkers: int, max_rolls: int,
                 max_first: int, done: int, total: int,
                 progress: Callable[[int, int], None] | None) -> tuple[np.ndarray, ...]:
    """Both distributions and their means for the positions ``pos`` (one table)."""
    n = pos.shape[0]
    pips = (pos.astype(np.int64) * np.arange(1, points + 1)).sum(axis=1)
    order = np.argsort(pips, kind="stable").astype(np.int64)
    rolls = np.zeros((n, max_rolls), dtype=np.float64)
    first = np.zeros((n, max_first), dtype=np.float64)
    erolls = np.zeros(n, dtype=np.float64)
    efirst = np.zeros(n, dtype=np.float64)
    ws = movegen.Workspace()
    step = 2048
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        _build_range(lo, hi, order, Ranking(pos, offsets, points, checkers),
                     Distributions(rolls, first, erolls, efirst), ws.boards, ws.moves, ws.table)
        if progress is not None:
            progress(done + hi, total)
    tail = max(float(rolls[:, -1].max()), float(first[:, -1].max()))
    if tail > 0.0:  # pragma: no cover - the bounds above were measured
        raise GammonError("bear-off distribution longer than the table")
    return rolls, first, erolls, efirst


def build(progress: Callable[[int, int], None] | None = None) -> BearoffDatabase:
    """Compute the database with the move generator (about fifteen seconds): the
    home table, then the short-side table.

    ``progress(done, total)`` is called every few thousand positions (``total``
    is ``N_POSITIONS + N_SHORT``).
    """
    t0 = time.perf_counter()
    total = N_POSITIONS + N_SHORT
    rolls, first, erolls, efirst = _build_table(all_positions(), OFFSETS, POINTS, MAX_CHECKERS,
                                                MAX_ROLLS, MAX_FIRST, 0, total, progress)
    s_rolls, s_first, s_erolls, _ = _build_table(all_short_positions(), SHORT_OFFSETS, SHORT_POINTS,
                                                 SHORT_CHECKERS, SHORT_MAX_ROLLS, SHORT_MAX_FIRST,
                                                 N_POSITIONS, total, progress)
    meta = {"positions": N_POSITIONS, "short_positions": N_SHORT,
            "build_seconds": round(time.perf_counter() - t0, 1),
            "play": "minimise expected rolls; ties: finish sooner"}
    return BearoffDatabase(rolls, first, erolls, efirst, meta, (s_rolls, s_first, s_erolls))
