"""What the encoder counts of hits and escapes on a board, compiled with numba: the rolls that
hit a side's blots (:func:`shots`, :func:`hit_rolls`), the rolls with which its rearmost
checker passes the other side's blockade (:func:`escapes`), and the extra inputs' counts of a
side (:func:`side_extras`: pip loss to hits, double shots, containment, the last from the
table :data:`ESCAPES`).  Boards as in :mod:`gammon.ai.encoding` (the player on roll's 25
counts, then the opponent's, each from its own side); the input layout is that module's.

``shots`` and ``escapes`` are cheap approximations: single and combined dice over open
intermediate points, doubles up to four steps; a side with two or more on the bar can only
hit with one die; with one on the bar, other checkers hit with the die the entering checker
leaves them.
"""

from __future__ import annotations

from importlib import resources

import numpy as np
from numba import njit


def _roll_tables() -> tuple[np.ndarray, np.ndarray]:
    """Constant tables of :func:`shots`, over the 36 ordered rolls as bits
    (``6 * (a - 1) + c - 1`` for dice a, c): ``pair[a, c]`` = the rolls a-c and c-a,
    ``row[d]`` = every roll with a ``d``."""
    pair = np.zeros((7, 7), dtype=np.int64)
    row = np.zeros(7, dtype=np.int64)
    for a in range(1, 7):
        for c in range(1, 7):
            pair[a, c] = (1 << (6 * (a - 1) + c - 1)) | (1 << (6 * (c - 1) + a - 1))
            row[a] |= pair[a, c]
    return pair, row


_PAIR, _ROW = _roll_tables()


@njit(cache=True, inline="always")
def _popcount(v):  # type: ignore[no-untyped-def]
    """Set bits of a non-negative int64 (below 2**62)."""
    v = v - ((v >> 1) & np.int64(0x5555555555555555))
    v = (v & np.int64(0x3333333333333333)) + ((v >> 2) & np.int64(0x3333333333333333))
    v = (v + (v >> 4)) & np.int64(0x0F0F0F0F0F0F0F0F)
    return (v * np.int64(0x0101010101010101)) >> 56


@njit(cache=True, inline="always")
def _free_hits(blots, att, free):  # type: ignore[no-untyped-def]
    """Rolls (a 36-bit set) on which a checker of ``att`` that moves freely hits one of
    ``blots``: a die of the distance; a non-double a + c over an open point (a or c
    short of the blot); a double of 2, 3 or 4 steps over open points.  Bit ``t`` of
    each mask is the index ``t`` of the attacker's side; ``free`` = open points."""
    pair = _PAIR
    hit = np.int64(0)
    for d in range(1, 7):
        if blots & (att >> d):
            hit |= _ROW[d]
    for a in range(1, 6):
        for c in range(a + 1, 7):
            if blots & (att >> (a + c)) & ((free >> a) | (free >> c)):
                hit |= pair[a, c]
    for a in range(1, 7):
        if _double_hits(blots, att, free, a, 4):
            hit |= pair[a, a]
    return hit


@njit(cache=True, inline="always")
def _double_hits(blots, att, free, a, steps):  # type: ignore[no-untyped-def]
    """Whether a checker of ``att`` hits one of ``blots`` with 2 to ``steps`` steps of the
    double ``a``, every point it lands on before the blot open (masks as :func:`_free_hits`)."""
    way = free >> a  # the first step lands on an open point
    for k in range(2, steps + 1):
        if blots & (att >> (k * a)) & way:
            return True
        way &= free >> (k * a)
    return False


@njit(cache=True)
def shots(b, ox, oy):  # type: ignore[no-untyped-def]
    """Rolls (0..36) on which side ``oy`` can hit a blot of side ``ox`` (approximation):
    :func:`hit_rolls` of every blot."""
    return _popcount(hit_rolls(b, ox, oy, np.int64(-1)))


@njit(cache=True, inline="always")
def _hit_masks(b, ox, oy):  # type: ignore[no-untyped-def]
    """What :func:`hit_rolls` reads of the board, as bit masks over ``oy``'s point indices
    (``ox``'s index i is ``oy``'s 23 - i): ``ox``'s open points (``free``), its blots, and
    ``oy``'s occupied points."""
    blocked = np.int64(0)
    blots = np.int64(0)
    occ = np.int64(0)
    for i in range(24):
        c = b[ox + i]
        if c >= 2:
            blocked |= np.int64(1) << (23 - i)
        elif c == 1:
            blots |= np.int64(1) << (23 - i)
        if b[oy + i] != 0:
            occ |= np.int64(1) << i
    free = ~blocked & ((np.int64(1) << 24) - 1)
    return free, blots, occ


@njit(cache=True, inline="always")
def hit_rolls(b, ox, oy, only):  # type: ignore[no-untyped-def]
    """The rolls (a 36-bit set, bit ``6 * (a - 1) + c - 1`` for dice a, c) on which side
    ``oy`` can hit a blot of side ``ox`` among ``only`` (a bit mask over ``oy``'s point
    indices: ``ox``'s index i is bit ``23 - i``; -1: every blot).

    All blots at once, as bit masks over ``oy``'s point indices: a checker hits
    with a die of the distance, with a non-double a + c over an open
    intermediate point, or with a double over open points (2 to 4 steps).  Two
    or more on the bar: only the entering checkers hit, with one die.  One on
    the bar: it moves freely; the others hit with the die it leaves them (a
    die that enters) or with two or three steps of a double that enters.
    """
    free, blots, occ = _hit_masks(b, ox, oy)
    return _hits_on(blots & only, free, occ, b[oy + 24])


@njit(cache=True, inline="always")
def _hits_on(blots, free, occ, onbar):  # type: ignore[no-untyped-def]
    """:func:`hit_rolls` of the blots ``blots`` from :func:`_hit_masks`' ``free`` and ``occ``,
    the attacker having ``onbar`` checkers on the bar."""
    pair = _PAIR
    if blots == 0:
        return np.int64(0)
    bar = np.int64(1) << 24
    if onbar >= 2:
        hit = np.int64(0)
        for d in range(1, 7):
            if blots & (bar >> d):
                hit |= _ROW[d]
        return hit
    if onbar == 0:
        return _free_hits(blots, occ, free)
    hit = _free_hits(blots, bar, free)
    # Dice that enter (onto ``oy``'s index 24 - c); the others move with what is left.
    enter = np.int64(0)
    for c in range(1, 7):
        if (free >> (24 - c)) & 1:
            enter |= np.int64(1) << c
    for d in range(1, 7):
        if blots & (occ >> d):
            for c in range(1, 7):
                if (enter >> c) & 1:
                    hit |= pair[d, c]
    for a in range(1, 7):
        if (enter >> a) & 1 and _double_hits(blots, occ, free, a, 3):
            hit |= pair[a, a]
    return hit


@njit(cache=True)
def _rearmost(b, o):  # type: ignore[no-untyped-def]
    """Index of the rearmost checker of the side at offset ``o`` (24 = bar), -1 when none."""
    for i in range(24, -1, -1):
        if b[o + i] != 0:
            return i
    return -1


@njit(cache=True)
def escapes(b, ox, oy):  # type: ignore[no-untyped-def]
    """Rolls (0..36) on which the rearmost checker of ``ox`` can pass ``oy``'s blockade.

    The blockade is the points ``oy`` has made within 12 pips in front of the
    checker; 36 when the side has no checker back or nothing blocks it.
    """
    return _escapes_from(b, oy, _rearmost(b, ox))


@njit(cache=True)
def _escapes_from(b, oy, s):  # type: ignore[no-untyped-def]
    """:func:`escapes` of a side whose rearmost checker stands at index ``s``."""
    if s < 18:
        return 36
    lo = s
    for k in range(max(0, s - 12), s):
        if b[oy + 23 - k] >= 2:
            lo = k
            break
    if lo == s:
        return 36
    # Per die: whether its landing point is open (``lands``) and past the blockade
    # (``past``), as bits 1..6; each roll is then a few bit tests.
    lands = 0
    past = 0
    for a in range(1, 7):
        t = s - a
        if t >= 0 and b[oy + 23 - t] < 2:
            lands |= 1 << a
            if t < lo:
                past |= 1 << a
    n = 0
    for a in range(1, 7):
        # a-c and c-a escape alike: count the pair twice.
        for c in range(a + 1, 7):
            if (past >> a) & 1 or (past >> c) & 1:
                n += 2
            elif ((lands >> a) | (lands >> c)) & 1:
                t = s - a - c
                if t >= 0 and t < lo and b[oy + 23 - t] < 2:
                    n += 2
        t = s
        for _ in range(4):
            t -= a
            if t < 0 or b[oy + 23 - t] >= 2:
                break
            if t < lo:
                n += 1
                break
    return n


#: Containment from a table (:data:`ESCAPES`): the escapes from a point of the other side's
#: home board depend on the blockade's points in the 18 pips in front of it alone.
ESCAPE_WINDOW = 18
_WINDOW_MASK = (1 << ESCAPE_WINDOW) - 1
#: The table's file in the package data (3.5 kB compressed): ``np.savez_compressed(path,
#: escapes=_escape_table())``; a test checks it.  Made anew (0.12 s) when it is missing.
ESCAPES_FILE = "escapes.npz"


@njit(cache=True)
def _escape_table():  # type: ignore[no-untyped-def]
    """:func:`_escapes_from` of a checker on point index 18 in front of each pattern of made
    points (bit ``k``: index ``k``, for ``k`` < 18): every roll it counts lands 1 to 18 pips
    ahead of the checker (it stops at the first landing past the blockade, which starts at
    most 12 pips ahead), so the count from any point ``p`` >= 18 is the entry of the 18
    points in front of ``p``."""
    n = 1 << ESCAPE_WINDOW
    out = np.empty(n, dtype=np.uint8)
    b = np.zeros(50, dtype=np.uint8)
    for w in range(n):
        for k in range(ESCAPE_WINDOW):
            b[25 + 23 - k] = 2 if (w >> k) & 1 else 0
        out[w] = _escapes_from(b, 25, ESCAPE_WINDOW)
    return out


def _read_escape_table() -> np.ndarray:
    """:data:`ESCAPES` from the package data, or made anew when the file is missing or not
    that table's shape."""
    try:
        with resources.as_file(resources.files("gammon.ai") / "data" / ESCAPES_FILE) as path, \
                np.load(path, allow_pickle=False) as z:
            table = np.ascontiguousarray(z["escapes"], dtype=np.uint8)
        if table.shape == (1 << ESCAPE_WINDOW,):
            return table
    except (OSError, KeyError, ValueError):
        pass
    return np.asarray(_escape_table())


#: The escapes of each blockade in front of a checker (:func:`_escape_table`), 2**18 bytes: a
#: constant of the compiled code (a global array), so the kernels take no argument for it.
ESCAPES = _read_escape_table()


@njit(cache=True, inline="always")
def _blockade(b, oy):  # type: ignore[no-untyped-def]
    """Side ``oy``'s made points as a mask over the other side's indices (bit ``k``: the other
    side's index ``k``, ``oy``'s ``23 - k``)."""
    blk = 0
    for j in range(24):
        if b[oy + j] >= 2:
            blk |= 1 << (23 - j)
    return blk


@njit(cache=True, inline="always")
def _containment(b, oy):  # type: ignore[no-untyped-def]
    """The fewest rolls with which a checker on any of ``oy``'s home points (the other side's
    indices 18 to 23) passes ``oy``'s blockade: the least :func:`_escapes_from` of the six
    points, each read from :data:`ESCAPES`."""
    blk = _blockade(b, oy)
    if (blk >> 6) & ((1 << 17) - 1) == 0:  # nothing made within 12 pips in front of any
        return 36
    table = ESCAPES
    worst = 36
    for p in range(18, 24):
        e = int(table[(blk >> (p - ESCAPE_WINDOW)) & _WINDOW_MASK])
        if e < worst:
            worst = e
    return worst


@njit(cache=True, inline="always")
def side_extras(b, s):  # type: ignore[no-untyped-def]
    """Side ``s``'s extra inputs (``s`` 0: the player on roll) as counts: the pips lost to
    hits summed over the 36 rolls (a roll's costliest blot), the rolls that hit two or more
    blots, and the containment (:func:`_containment`; see the layout in the module doc).

    The hits are :func:`hit_rolls` blot by blot, costliest first (the blot nearest the
    other side's home, that loses most), so each roll counts the costliest blot it hits.
    """
    ox = 25 * s
    oy = 25 - ox
    free, blots, occ = _hit_masks(b, ox, oy)
    onbar = b[oy + 24]
    once = np.int64(0)
    twice = np.int64(0)
    loss = 0
    if blots:
        for i in range(24):
            bit = np.int64(1) << (23 - i)
            if blots & bit:
                m = _hits_on(bit, free, occ, onbar)
                loss += _popcount(m & ~once) * (24 - i)
                twice |= once & m
                once |= m
    return loss, _popcount(twice), _containment(b, oy)


@njit(cache=True, inline="always")
def extra_values(loss, twice, worst):  # type: ignore[no-untyped-def]
    """The three inputs of :func:`side_extras`' counts, as the layout scales them (float32)."""
    return (np.float32(loss / 864.0), np.float32(twice / 36.0), np.float32(worst / 36.0))
