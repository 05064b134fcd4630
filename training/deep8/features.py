"""Candidate net inputs for contact positions, to be measured before the encoder gets them.

Three per side (``s`` 0: the player on roll, 1: the opponent), each in [0, 1]:

* **pip loss**: over the 36 rolls, the pips ``s`` loses to the other side's hits (a checker of
  ``s`` hit on its own point ``p`` goes back ``25 - p`` pips; a roll that hits several blots
  counts the costliest), divided by 36 * 24;
* **double shots**: the rolls (of 36) that can hit two or more of ``s``'s blots;
* **containment**: the fewest rolls (of 36) with which a checker of ``s`` standing on any of
  the other side's home points (``s``'s 19- to 24-points) passes the other side's blockade,
  whether or not ``s`` has a checker there (the blockade's strength, where ``escapes`` only
  sees the rearmost checker).

The hits are :func:`gammon.ai.hits_escapes.hit_rolls` blot by blot, the escapes
:func:`gammon.ai.hits_escapes.escapes`' count from a given point.

Two more per side with ``--wide`` (:func:`features_wide`, ten in all):

* **back escapes**: the mean over ``s``'s checkers on the other side's home points of the rolls
  (of 36) with which each passes the blockade (1 when none is there);
* **mobility**: over the six dice, the checkers of ``s`` that can move that many pips to an
  open point or off (counted up to 15 a die), divided by 90.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.ai.hits_escapes import _escapes_from, _popcount, hit_rolls

NUM_FEATURES = 6
NUM_WIDE = 10


@njit(cache=True)
def _side(b, s, out, k):  # type: ignore[no-untyped-def]
    ox = 25 * s
    oy = 25 * (1 - s)
    loss = np.zeros(36, dtype=np.int64)
    once = np.int64(0)
    twice = np.int64(0)
    for i in range(24):
        if b[ox + i] == 1:
            m = hit_rolls(b, ox, oy, np.int64(1) << (23 - i))
            twice |= once & m
            once |= m
            for r in range(36):
                if (m >> r) & 1 and 24 - i > loss[r]:
                    loss[r] = 24 - i
    out[k] = loss.sum() / (36.0 * 24.0)
    out[k + 1] = _popcount(twice) / 36.0
    worst = 36
    for p in range(18, 24):
        worst = min(worst, _escapes_from(b, oy, p))
    out[k + 2] = worst / 36.0


@njit(cache=True)
def features(boards):  # type: ignore[no-untyped-def]
    """The candidate inputs ``(n, 6)`` of boards ``(n, 50)`` (player on roll first): pip loss,
    double shots and containment of the player on roll, then of the opponent."""
    n = boards.shape[0]
    out = np.zeros((n, NUM_FEATURES), dtype=np.float32)
    for r in range(n):
        _side(boards[r], 0, out[r], 0)
        _side(boards[r], 1, out[r], 3)
    return out


@njit(cache=True)
def _side_more(b, s, out, k):  # type: ignore[no-untyped-def]
    ox = 25 * s
    oy = 25 * (1 - s)
    total = 0
    n = 0
    for p in range(18, 24):
        c = b[ox + p]
        if c:
            total += c * _escapes_from(b, oy, p)
            n += c
    out[k] = total / (36.0 * n) if n else 1.0
    home = True
    for i in range(6, 25):
        if b[ox + i]:
            home = False
    mob = 0
    for d in range(1, 7):
        movers = 0
        for i in range(25):
            if b[ox + i] == 0:
                continue
            t = i - d
            if t >= 0:
                if b[oy + 23 - t] < 2:
                    movers += b[ox + i]
            elif home:
                movers += b[ox + i]
        mob += min(movers, 15)
    out[k + 1] = mob / 90.0


@njit(cache=True)
def features_wide(boards):  # type: ignore[no-untyped-def]
    """:func:`features` and, per side, back escapes and mobility ``(n, 10)``: the six first,
    then back escapes and mobility of the player on roll, then of the opponent."""
    n = boards.shape[0]
    out = np.zeros((n, NUM_WIDE), dtype=np.float32)
    for r in range(n):
        _side(boards[r], 0, out[r], 0)
        _side(boards[r], 1, out[r], 3)
        _side_more(boards[r], 0, out[r], 6)
        _side_more(boards[r], 1, out[r], 8)
    return out
