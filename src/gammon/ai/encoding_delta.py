"""The inputs in which a board differs from a near one, found from the points where they
differ: what :func:`gammon.ai.evaluator.best_result` adds to the hidden sums of the board
before a roll to value each of its results, without encoding the result whole.

The layout and the values are :mod:`gammon.ai.encoding`'s; the differences are exactly
those of its whole encodings (``tests/ai/test_ai_evaluator_base.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.ai.encoding import (
    _POINT_UNITS,
    CHECKERS,
    EXTRAS_PER_SIDE,
    FEATURES_PER_SIDE,
    OFF_CONTACT,
    OFF_EXTRAS,
    OFF_FEATURES,
    OFF_PIPDIFF,
    RAW_PER_SIDE,
)
from gammon.ai.hits_escapes import _escapes_from, _popcount, extra_values, shots, side_extras

#: What :func:`input_differences` carries per side from a board to the boards near it
#: (:func:`side_counts`): checkers on the board (bar included), pips, blots, checkers back
#: (on the other side's home board or the bar) and the made points (bit ``i``: point index ``i``).
SIDE_COUNTS = 5


@njit(cache=True)
def side_counts(b, out):  # type: ignore[no-untyped-def]
    """Each side's :data:`SIDE_COUNTS` of board ``b`` into ``out[s]`` (``(2, 5)`` int64)."""
    for s in range(2):
        o = 25 * s
        total = 0
        pip = 0
        blots = 0
        back = 0
        made = 0
        for i in range(24):
            n = int(b[o + i])
            total += n
            pip += n * (i + 1)
            if n == 1:
                blots += 1
            if i >= 18:
                back += n
            if n >= 2:
                made |= 1 << i
        bar = int(b[o + 24])
        out[s, 0] = total + bar
        out[s, 1] = pip + 25 * bar
        out[s, 2] = blots
        out[s, 3] = back + bar
        out[s, 4] = made


@njit(cache=True, inline="always")
def _unit(n, u):  # type: ignore[no-untyped-def]
    """Point unit ``u`` (0..3) of ``n`` checkers, as :func:`gammon.ai.encoding._side_pass` writes it."""
    if u == 3 and n > 15:
        return np.float32((n - 3) / 2.0)
    return _POINT_UNITS[min(n, 15), u]


@njit(cache=True, inline="always")
def _longest_run(made):  # type: ignore[no-untyped-def]
    """The longest run of set bits of ``made``: each pass keeps a bit only when the next is set."""
    r = 0
    while made:
        made &= made >> 1
        r += 1
    return r


@njit(cache=True, inline="always")
def _differ(didx, dval, c, i, d):  # type: ignore[no-untyped-def]
    """Write input ``i``'s difference ``d`` at ``c``; the count after it (kept when ``d`` != 0)."""
    didx[c] = i
    dval[c] = d
    return c + (d != 0.0)


@njit(cache=True, inline="always")
def _side_differences(b, before, s, counts, dense, didx, dval, c):  # type: ignore[no-untyped-def]
    """:func:`input_differences` of side ``s``'s point, bar, off and feature inputs; the count
    after them, the side's pips and its rearmost checker's index (-1: none)."""
    o = 25 * s
    first = RAW_PER_SIDE * s
    total = counts[s, 0]
    pip = counts[s, 1]
    blots = counts[s, 2]
    back = counts[s, 3]
    made = counts[s, 4]
    for i in range(24):
        nn = int(b[o + i])
        no = int(before[o + i])
        if nn != no:
            dn = nn - no
            total += dn
            pip += dn * (i + 1)
            blots += int(nn == 1) - int(no == 1)
            if i >= 18:
                back += dn
            if nn >= 2:
                made |= 1 << i
            else:
                made &= ~(1 << i)
            k = first + 4 * i
            for u in range(4):
                c = _differ(didx, dval, c, k + u, _unit(nn, u) - _unit(no, u))
    nn = int(b[o + 24])
    no = int(before[o + 24])
    if nn != no:
        dn = nn - no
        total += dn
        pip += 25 * dn
        back += dn
        c = _differ(didx, dval, c, first + 96, np.float32(nn / 2.0) - np.float32(no / 2.0))
    c = _differ(didx, dval, c, first + 97, np.float32((CHECKERS - total) / 15.0) - dense[first + 97])
    rear = -1
    if nn != 0:
        rear = 24
    else:
        for i in range(23, -1, -1):
            if b[o + i] != 0:
                rear = i
                break
    ox = o
    oy = 25 - o
    f = OFF_FEATURES + FEATURES_PER_SIDE * s
    c = _differ(didx, dval, c, f, np.float32(pip / 160.0) - dense[f])
    c = _differ(didx, dval, c, f + 1, np.float32(blots / 5.0) - dense[f + 1])
    c = _differ(didx, dval, c, f + 2, np.float32(shots(b, ox, oy) / 36.0) - dense[f + 2])
    c = _differ(didx, dval, c, f + 3, np.float32(_popcount(made & 63) / 6.0) - dense[f + 3])
    c = _differ(didx, dval, c, f + 4, np.float32(_longest_run(made) / 6.0) - dense[f + 4])
    c = _differ(didx, dval, c, f + 5, np.float32(_popcount(made >> 18) / 2.0) - dense[f + 5])
    c = _differ(didx, dval, c, f + 6, np.float32(back / 5.0) - dense[f + 6])
    c = _differ(didx, dval, c, f + 7, np.float32(_escapes_from(b, oy, rear) / 36.0) - dense[f + 7])
    return c, pip, rear


@njit(cache=True, inline="always")
def input_differences(b, before, counts, dense, didx, dval):  # type: ignore[no-untyped-def]
    """The inputs in which board ``b`` differs from board ``before`` (each with the player on
    roll first): their numbers into ``didx`` and their differences (``b``'s value less
    ``before``'s, float32 as :func:`~gammon.ai.encoding.encode_sparse` writes the values) into ``dval``; returns
    how many, and whether ``b`` is in contact.  ``dense``: every input of ``before``;
    ``counts``: its :func:`side_counts`.

    The same differences as comparing :func:`~gammon.ai.encoding.encode_sparse` of ``b`` with ``dense`` input by
    input, found from the points where the boards differ: a roll's results differ from the
    board before it in a few points, so the point inputs of the rest and the side's counts
    carry over; the features that look at the whole board (shots, escapes) are computed
    anew.  ``didx``/``dval`` need room for ``2 * NUM_INPUTS``.
    """
    c, p0, r0 = _side_differences(b, before, 0, counts, dense, didx, dval, 0)
    c, p1, r1 = _side_differences(b, before, 1, counts, dense, didx, dval, c)
    pd = np.float32((p0 - p1) / 100.0) if p0 != p1 else np.float32(0.0)
    c = _differ(didx, dval, c, OFF_PIPDIFF, pd - dense[OFF_PIPDIFF])
    contact = r0 >= 0 and r1 >= 0 and r0 + r1 > 23
    c = _differ(didx, dval, c, OFF_CONTACT, np.float32(1.0 if contact else 0.0) - dense[OFF_CONTACT])
    return c, contact


@njit(cache=True)
def extra_differences(b, dense, didx, dval, c):  # type: ignore[no-untyped-def]
    """Append to :func:`input_differences`' ``c`` differences those of the extra inputs
    (:func:`~gammon.ai.encoding.add_extras`) of board ``b`` from ``dense`` (the near
    board's inputs, extras included); returns the new count.  Computed anew: they look at
    the whole board."""
    for s in range(2):
        loss, twice, worst = side_extras(b, s)
        v0, v1, v2 = extra_values(loss, twice, worst)
        f = OFF_EXTRAS + EXTRAS_PER_SIDE * s
        c = _differ(didx, dval, c, f, v0 - dense[f])
        c = _differ(didx, dval, c, f + 1, v1 - dense[f + 1])
        c = _differ(didx, dval, c, f + 2, v2 - dense[f + 2])
    return c
