"""Network inputs for a position, compiled with numba.

A board is the move generator's 50 bytes (see :mod:`gammon.core.movegen`):
indices 0..24 are the counts of the player ON ROLL (points 1..24, bar at 24),
25..49 the opponent's counts seen from the opponent's side.  The player on
roll's index ``i`` is the opponent's index ``23 - i``.  The encoder always
describes the position from the player on roll; to value the result of a move
(which the generator gives in the mover's view), swap the two halves first so
that the opponent is on roll, evaluate, and flip the outputs back
(:func:`gammon.ai.network.flip_probs`).

Layout (``NUM_INPUTS`` = 220 floats), side 0 = player on roll, side 1 = opponent:

=============  =====  ==========================================================
offset         units  meaning
=============  =====  ==========================================================
0 + 98*s       96     points 1..24 of side s from its own side, 4 units each
                      (TD-Gammon): n>=1, n>=2, n>=3, (n-3)/2 when n>3
96 + 98*s      1      checkers on the bar / 2
97 + 98*s      1      checkers borne off / 15
196 + 8*s      1      pip count / 160
197 + 8*s      1      blots (single checkers on points 1..24) / 5
198 + 8*s      1      rolls (of 36) on which the other side hits a blot of s / 36
199 + 8*s      1      points made in s's home board (its 1..6) / 6
200 + 8*s      1      longest prime of s (consecutive made points) / 6
201 + 8*s      1      anchors of s in the other side's home board / 2
202 + 8*s      1      checkers of s back (other side's home board or bar) / 5
203 + 8*s      1      rolls (of 36) on which s's rearmost checker can jump past the
                      other side's blockade (36 when it has nothing back) / 36
212            1      (pip of side 0 - pip of side 1) / 100
213            1      1 when the sides are still in contact, 0 in a pure race
214 + 3*s      1      pip loss of s to the other side's hits: over the 36 rolls, the
                      pips s's costliest blot hit on that roll loses (a checker hit on
                      s's point p goes back 25 - p pips), summed, / (36 * 24)
215 + 3*s      1      rolls (of 36) on which the other side can hit two or more of
                      s's blots / 36
216 + 3*s      1      containment of s: the fewest rolls (of 36) with which a checker
                      of s on any point of the other side's home board would pass the
                      other side's blockade (whether or not s has a checker there) / 36
=============  =====  ==========================================================

The first ``BASE_INPUTS`` (214) are every net's; the six after them (the *extra* inputs,
:func:`~gammon.ai.hits_escapes.side_extras`) came later (stop 54) and are read by the nets
trained with them: a net made for 214 inputs is read with zero weights on them
(:class:`gammon.ai.network.Network`), and the evaluator computes them (:func:`add_extras`)
only for a net with non-zero weights there, since the blot-by-blot hits are among the
dearest inputs of all (the containment is read from a table,
:data:`~gammon.ai.hits_escapes.ESCAPES`). They come after the contact flag so that a net is
chosen from the first 214 before they are computed.

The hit and escape counts behind the features are :mod:`gammon.ai.hits_escapes`'s.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.ai.hits_escapes import _escapes_from, extra_values, shots, side_extras
from gammon.core.borrowed import borrowed

CHECKERS = 15
RAW_PER_SIDE = 98
FEATURES_PER_SIDE = 8
OFF_FEATURES = 2 * RAW_PER_SIDE
OFF_PIPDIFF = OFF_FEATURES + 2 * FEATURES_PER_SIDE
OFF_CONTACT = OFF_PIPDIFF + 1
#: The inputs every net reads (up to the contact flag); the extra inputs follow them.
BASE_INPUTS = OFF_CONTACT + 1
OFF_EXTRAS = BASE_INPUTS
EXTRAS_PER_SIDE = 3
NUM_EXTRAS = 2 * EXTRAS_PER_SIDE
NUM_INPUTS = OFF_EXTRAS + NUM_EXTRAS

# Names of the feature units, for documentation and tests.
FEATURE_NAMES = (
    "pips", "blots", "shots", "home_points", "prime", "anchors", "back", "escapes",
)
#: Names of the extra inputs of a side (:func:`~gammon.ai.hits_escapes.side_extras`).
EXTRA_NAMES = ("pip_loss", "double_shots", "containment")


@njit(cache=True, inline="always")
def _made(b, ox, i):  # type: ignore[no-untyped-def]
    """Whether side ``ox`` (offset 0 or 25) holds its point index ``i`` with 2+."""
    return b[ox + i] >= 2


@njit(cache=True, inline="always")
def is_contact(b):  # type: ignore[no-untyped-def]
    """True while some checker of one side still has to pass a checker of the other."""
    hm = -1
    for i in range(24, -1, -1):
        if b[i] != 0:
            hm = i
            break
    ho = -1
    for i in range(24, -1, -1):
        if b[25 + i] != 0:
            ho = i
            break
    if hm < 0 or ho < 0:
        return False
    return hm + ho > 23


#: A side with at most this many working checkers is crashed (:func:`is_crashed`).
CRASHED_WORKING = 6


@njit(cache=True, inline="always")
def _working(b, o):  # type: ignore[no-untyped-def]
    """Checkers of the side at offset ``o`` (0 or 25) that still work: those on the board or
    the bar, less the extra ones piled on its ace and deuce points (all but one of each)."""
    t = 0
    for i in range(25):
        t += b[o + i]
    for i in range(2):
        if b[o + i] > 1:
            t -= b[o + i] - 1
    return t


@njit(cache=True, inline="always")
def a_side_is_down(b):  # type: ignore[no-untyped-def]
    """Whether either side is down to :data:`CRASHED_WORKING` working checkers or fewer
    (:func:`_working`); :func:`is_crashed` without its contact test, for a caller that knows."""
    return _working(b, 0) <= CRASHED_WORKING or _working(b, 25) <= CRASHED_WORKING


@njit(cache=True)
def is_crashed(b):  # type: ignore[no-untyped-def]
    """True when, in contact, either side is down to :data:`CRASHED_WORKING` working checkers or
    fewer (:func:`_working`): the side has borne off or buried most of its checkers while the
    other still has checkers to bring past it, as in the late stages of a backgame or an
    ace-point game, where the plays turn on gammons and backgammons more than elsewhere."""
    return is_contact(b) and a_side_is_down(b)


@njit(cache=True)
def add_extras(b, idx, val, m):  # type: ignore[no-untyped-def]
    """Append board ``b``'s non-zero extra inputs after the ``m`` of :func:`encode_sparse`
    (they follow every other input, so the index order holds); returns the new count."""
    for s in range(2):
        loss, twice, worst = side_extras(b, s)
        v0, v1, v2 = extra_values(loss, twice, worst)
        f = OFF_EXTRAS + EXTRAS_PER_SIDE * s
        m = _put(idx, val, m, f, v0)
        m = _put(idx, val, m, f + 1, v1)
        m = _put(idx, val, m, f + 2, v2)
    return m


#: The four point units (n>=1, n>=2, n>=3, (n-3)/2 when n>3) for each count 0..15, as
#: float32 values of the layout's formulas.
_POINT_UNITS = np.array(
    [[1.0 if n >= 1 else 0.0, 1.0 if n >= 2 else 0.0, 1.0 if n >= 3 else 0.0,
      (n - 3) / 2.0 if n > 3 else 0.0] for n in range(16)], dtype=np.float32)


@njit(cache=True, inline="always")
def _side_pass(b, s, idx, val, m):  # type: ignore[no-untyped-def]
    """The point, bar and off inputs of side ``s`` appended at ``idx[m:]``/``val[m:]``,
    and the counts its features need: (m after, pips, blots, home points, longest
    prime, anchors, checkers back, rearmost index)."""
    units = _POINT_UNITS
    o = 25 * s
    base = RAW_PER_SIDE * s
    total = 0
    pip = 0
    blots = 0
    home = 0
    anchors = 0
    back = 0
    run = 0
    prime = 0
    rear = -1
    for i in range(24):
        n = int(b[o + i])  # an int64 in numba (no uint8 arithmetic), an int for mypy
        if n == 0:
            run = 0
            continue
        rear = i
        total += n
        pip += n * (i + 1)
        if i >= 18:
            back += n
        k = base + 4 * i
        u = units[min(n, 15)]
        idx[m] = k
        val[m] = u[0]
        m += 1
        if n == 1:
            blots += 1
            run = 0
            continue
        idx[m] = k + 1
        val[m] = u[1]
        m += 1
        if n >= 3:
            idx[m] = k + 2
            val[m] = u[2]
            m += 1
            if n > 3:
                idx[m] = k + 3
                val[m] = np.float32((n - 3) / 2.0) if n > 15 else u[3]
                m += 1
        run += 1
        if run > prime:
            prime = run
        if i < 6:
            home += 1
        if i >= 18:
            anchors += 1
    bar = int(b[o + 24])
    if bar != 0:
        rear = 24
        total += bar
        pip += 25 * bar
        back += bar
        idx[m] = base + 96
        val[m] = bar / 2.0
        m += 1
    if total != CHECKERS:
        idx[m] = base + 97
        val[m] = (CHECKERS - total) / 15.0
        m += 1
    return m, pip, blots, home, prime, anchors, back, rear


@njit(cache=True, inline="always")
def _put(idx, val, m, i, v):  # type: ignore[no-untyped-def]
    """Append input ``i`` with value ``v`` when it is not zero; returns the new count."""
    if v != 0.0:
        idx[m] = i
        val[m] = v
        return m + 1
    return m


@njit(cache=True, inline="always")
def _put_features(b, s, counts, idx, val, m):  # type: ignore[no-untyped-def]
    """Append side ``s``'s non-zero feature inputs after ``m``; returns the new count.

    ``counts`` is what :func:`_side_pass` returned for that side (its first item,
    the count after the side's point inputs, is not used here).
    """
    _, pip, blots, home, prime, anchors, back, rear = counts
    ox = 25 * s
    oy = 25 - ox
    f = OFF_FEATURES + FEATURES_PER_SIDE * s
    m = _put(idx, val, m, f, pip / 160.0)
    m = _put(idx, val, m, f + 1, blots / 5.0)
    m = _put(idx, val, m, f + 2, shots(b, ox, oy) / 36.0)
    m = _put(idx, val, m, f + 3, home / 6.0)
    m = _put(idx, val, m, f + 4, prime / 6.0)
    m = _put(idx, val, m, f + 5, anchors / 2.0)
    m = _put(idx, val, m, f + 6, back / 5.0)
    return _put(idx, val, m, f + 7, _escapes_from(b, oy, rear) / 36.0)


@njit(cache=True)
def encode_sparse(b, idx, val):  # type: ignore[no-untyped-def]
    """The non-zero inputs of board ``b`` (player on roll first) up to the contact flag (the
    first ``BASE_INPUTS``; :func:`add_extras` appends the others), in index order.

    Writes input numbers into ``idx`` and their values into ``val`` (each of
    ``NUM_INPUTS`` at least) and returns how many: the form the forward pass
    consumes (:func:`gammon.ai.evaluator.forward_sparse` adds one weight row per
    non-zero input), so no dense vector is written and scanned.  One pass over
    each side gathers every count the features need; the values are those of
    the layout in the module doc, rounded to float32 once.
    """
    b, idx, val = borrowed((b, idx, val))  # no reference counting of the caller's arrays (gammon.core.borrowed)
    c0 = _side_pass(b, 0, idx, val, 0)
    c1 = _side_pass(b, 1, idx, val, c0[0])
    m = _put_features(b, 0, c0, idx, val, c1[0])
    m = _put_features(b, 1, c1, idx, val, m)
    p0 = c0[1]
    p1 = c1[1]
    r0 = c0[7]
    r1 = c1[7]
    if p0 != p1:
        idx[m] = OFF_PIPDIFF
        val[m] = (p0 - p1) / 100.0
        m += 1
    if r0 >= 0 and r1 >= 0 and r0 + r1 > 23:  # contact, as :func:`is_contact`
        idx[m] = OFF_CONTACT
        val[m] = 1.0
        m += 1
    return m


@njit(cache=True)
def _encode_rows(boards, width):  # type: ignore[no-untyped-def]
    """The first ``width`` inputs of each board: all ``NUM_INPUTS``, or the point
    inputs alone (``OFF_FEATURES``, both sides' :func:`_side_pass`)."""
    n = boards.shape[0]
    out = np.zeros((n, width), dtype=np.float32)
    idx = np.empty(NUM_INPUTS, dtype=np.int64)
    val = np.empty(NUM_INPUTS, dtype=np.float32)
    for r in range(n):
        if width == NUM_INPUTS:
            m = add_extras(boards[r], idx, val, encode_sparse(boards[r], idx, val))
        else:
            m = _side_pass(boards[r], 0, idx, val, 0)[0]
            m = _side_pass(boards[r], 1, idx, val, m)[0]
        row = out[r]
        for t in range(m):
            row[idx[t]] = val[t]
    return out


@njit(cache=True)
def encode_points(boards):  # type: ignore[no-untyped-def]
    """The point, bar and off inputs (the first ``OFF_FEATURES``) of many boards
    (``(n, 50)`` uint8, player on roll first): ``(n, OFF_FEATURES)`` float32.

    What the pruning net reads (:mod:`gammon.ai.pruning`), from the same code as
    the full inputs.
    """
    return _encode_rows(boards, OFF_FEATURES)


@njit(cache=True)
def encode_into(b, out):  # type: ignore[no-untyped-def]
    """Write the ``NUM_INPUTS`` inputs of board ``b`` (player on roll first) into ``out``
    (:func:`encode_sparse` and :func:`add_extras` scattered into a dense vector)."""
    idx = np.empty(NUM_INPUTS, dtype=np.int64)
    val = np.empty(NUM_INPUTS, dtype=np.float32)
    m = add_extras(b, idx, val, encode_sparse(b, idx, val))
    for i in range(NUM_INPUTS):
        out[i] = 0.0
    for t in range(m):
        out[idx[t]] = val[t]


@njit(cache=True)
def encode_batch(boards):  # type: ignore[no-untyped-def]
    """Inputs for many boards (``(n, 50)`` uint8, player on roll first): ``(n, NUM_INPUTS)``."""
    return _encode_rows(boards, NUM_INPUTS)


@njit(cache=True)
def swap_into(b, out):  # type: ignore[no-untyped-def]
    """The board seen by the other player (halves exchanged) written into ``out``."""
    for i in range(25):
        out[i] = b[25 + i]
        out[25 + i] = b[i]


def encode(board: bytes | np.ndarray) -> np.ndarray:
    """Inputs of one board (50 counts, player on roll first) as a float32 vector."""
    b = np.frombuffer(board, dtype=np.uint8) if isinstance(board, bytes) else np.asarray(
        board, dtype=np.uint8
    )
    out = np.zeros(NUM_INPUTS, dtype=np.float32)
    encode_into(b, out)
    return out
