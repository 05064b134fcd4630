"""Network inputs for a position, compiled with numba.

A board is the move generator's 50 bytes (see :mod:`gammon.core.movegen`):
indices 0..24 are the counts of the player ON ROLL (points 1..24, bar at 24),
25..49 the opponent's counts seen from the opponent's side.  The player on
roll's index ``i`` is the opponent's index ``23 - i``.  The encoder always
describes the position from the player on roll; to value the result of a move
(which the generator gives in the mover's view), swap the two halves first so
that the opponent is on roll, evaluate, and flip the outputs back
(:func:`gammon.ai.network.flip_probs`).

Layout (``NUM_INPUTS`` = 214 floats), side 0 = player on roll, side 1 = opponent:

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
=============  =====  ==========================================================

``shots`` and ``escapes`` are cheap approximations: single and combined dice
over open intermediate points, doubles up to four steps; a side with two or
more on the bar can only hit with one die; with one on the bar, other checkers
hit with the die the entering checker leaves them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

CHECKERS = 15
RAW_PER_SIDE = 98
FEATURES_PER_SIDE = 8
OFF_FEATURES = 2 * RAW_PER_SIDE
OFF_PIPDIFF = OFF_FEATURES + 2 * FEATURES_PER_SIDE
OFF_CONTACT = OFF_PIPDIFF + 1
NUM_INPUTS = OFF_CONTACT + 1

# Names of the feature units, for documentation and tests.
FEATURE_NAMES = (
    "pips", "blots", "shots", "home_points", "prime", "anchors", "back", "escapes",
)


@njit(cache=True, inline="always")
def _made(b, ox, i):  # type: ignore[no-untyped-def]
    """Whether side ``ox`` (offset 0 or 25) holds its point index ``i`` with 2+."""
    return b[ox + i] >= 2


@njit(cache=True)
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


@njit(cache=True)
def pips(b, ox):  # type: ignore[no-untyped-def]
    """Pip count of the side at offset ``ox`` (the bar counts 25)."""
    p = 0
    for i in range(25):
        p += b[ox + i] * (i + 1)
    return p


@njit(cache=True)
def shots(b, ox, oy, hit):  # type: ignore[no-untyped-def]
    """Rolls (0..36) on which side ``oy`` can hit a blot of side ``ox`` (approximation).

    ``hit`` is a 6x6 boolean scratch array.
    """
    # Points of ``ox`` made, as a bit mask over ``oy``'s indices (``ox`` index i is
    # ``oy`` index 23 - i): a moving checker of ``oy`` cannot stop there.
    blocked = np.int64(0)
    nblots = 0
    for i in range(24):
        c = b[ox + i]
        if c >= 2:
            blocked |= np.int64(1) << (23 - i)
        elif c == 1:
            nblots += 1
    if nblots == 0:
        return 0
    for a in range(6):
        for c in range(6):
            hit[a, c] = False
    onbar = b[oy + 24]
    for i in range(24):
        if b[ox + i] != 1:
            continue
        t = 23 - i  # the blot's index from oy's side
        for j in range(24, t, -1):
            if b[oy + j] == 0:
                continue
            if onbar >= 2 and j != 24:
                continue  # two or more on the bar: only entering checkers move
            d = j - t
            if onbar == 1 and j != 24:
                # The other die (or three more of a double) after entering.
                if d <= 6:
                    for c in range(1, 7):
                        if not (blocked >> (24 - c)) & 1:
                            hit[d - 1, c - 1] = True
                            hit[c - 1, d - 1] = True
                for a in range(1, 7):
                    if d % a != 0 or (blocked >> (24 - a)) & 1:
                        continue
                    k = d // a
                    if k < 2 or k > 3:
                        continue
                    ok = True
                    for s in range(1, k):
                        if (blocked >> (j - s * a)) & 1:
                            ok = False
                            break
                    if ok:
                        hit[a - 1, a - 1] = True
                continue
            if d <= 6:
                for c in range(6):
                    hit[d - 1, c] = True
                    hit[c, d - 1] = True
            if onbar >= 2 or d > 24:
                continue
            # Non-double combinations a + c = d with one open intermediate point.
            if d >= 3 and d <= 11:
                for a in range(max(1, d - 6), min(6, d - 1) + 1):
                    c = d - a
                    if c == a:
                        continue
                    if not (blocked >> (j - a)) & 1 or not (blocked >> (j - c)) & 1:
                        hit[a - 1, c - 1] = True
                        hit[c - 1, a - 1] = True
            # Doubles: d = k * a, k = 2..4, every intermediate point open.
            for a in range(1, 7):
                if d % a != 0:
                    continue
                k = d // a
                if k < 2 or k > 4:
                    continue
                ok = True
                for s in range(1, k):
                    if (blocked >> (j - s * a)) & 1:
                        ok = False
                        break
                if ok:
                    hit[a - 1, a - 1] = True
    n = 0
    for a in range(6):
        for c in range(6):
            if hit[a, c]:
                n += 1
    return n


@njit(cache=True)
def escapes(b, ox, oy):  # type: ignore[no-untyped-def]
    """Rolls (0..36) on which the rearmost checker of ``ox`` can pass ``oy``'s blockade.

    The blockade is the points ``oy`` has made within 12 pips in front of the
    checker; 36 when the side has no checker back or nothing blocks it.
    """
    s = -1
    for i in range(24, -1, -1):
        if b[ox + i] != 0:
            s = i
            break
    if s < 18:
        return 36
    lo = s
    for k in range(max(0, s - 12), s):
        if b[oy + 23 - k] >= 2:
            lo = k
            break
    if lo == s:
        return 36
    n = 0
    for a in range(1, 7):
        for c in range(1, 7):
            ok = False
            if a != c:
                ta = s - a
                tc = s - c
                oa = ta >= 0 and b[oy + 23 - ta] < 2
                oc = tc >= 0 and b[oy + 23 - tc] < 2
                if oa and ta < lo:
                    ok = True
                elif oc and tc < lo:
                    ok = True
                elif oa or oc:
                    t = s - a - c
                    if t >= 0 and t < lo and b[oy + 23 - t] < 2:
                        ok = True
            else:
                t = s
                for _ in range(4):
                    t -= a
                    if t < 0 or b[oy + 23 - t] >= 2:
                        break
                    if t < lo:
                        ok = True
                        break
            if ok:
                n += 1
    return n


@njit(cache=True)
def _side_features(b, ox, oy, out, off, hit):  # type: ignore[no-untyped-def]
    out[off] = pips(b, ox) / 160.0
    blots = 0
    home = 0
    anchors = 0
    back = 0
    run = 0
    prime = 0
    for i in range(24):
        c = b[ox + i]
        if c == 1:
            blots += 1
        if c >= 2:
            run += 1
            if run > prime:
                prime = run
            if i < 6:
                home += 1
            if i >= 18:
                anchors += 1
        else:
            run = 0
        if i >= 18:
            back += c
    back += b[ox + 24]
    out[off + 1] = blots / 5.0
    out[off + 2] = shots(b, ox, oy, hit) / 36.0
    out[off + 3] = home / 6.0
    out[off + 4] = prime / 6.0
    out[off + 5] = anchors / 2.0
    out[off + 6] = back / 5.0
    out[off + 7] = escapes(b, ox, oy) / 36.0


@njit(cache=True)
def encode_into(b, out):  # type: ignore[no-untyped-def]
    """Write the ``NUM_INPUTS`` inputs of board ``b`` (player on roll first) into ``out``."""
    hit = np.empty((6, 6), dtype=np.bool_)
    for s in range(2):
        o = 25 * s
        base = RAW_PER_SIDE * s
        total = 0
        for i in range(24):
            n = b[o + i]
            total += n
            k = base + 4 * i
            out[k] = 1.0 if n >= 1 else 0.0
            out[k + 1] = 1.0 if n >= 2 else 0.0
            out[k + 2] = 1.0 if n >= 3 else 0.0
            out[k + 3] = (n - 3) / 2.0 if n > 3 else 0.0
        total += b[o + 24]
        out[base + 96] = b[o + 24] / 2.0
        out[base + 97] = (CHECKERS - total) / 15.0
    _side_features(b, 0, 25, out, OFF_FEATURES, hit)
    _side_features(b, 25, 0, out, OFF_FEATURES + FEATURES_PER_SIDE, hit)
    out[OFF_PIPDIFF] = (pips(b, 0) - pips(b, 25)) / 100.0
    out[OFF_CONTACT] = 1.0 if is_contact(b) else 0.0


@njit(cache=True)
def encode_batch(boards):  # type: ignore[no-untyped-def]
    """Inputs for many boards (``(n, 50)`` uint8, player on roll first): ``(n, NUM_INPUTS)``."""
    n = boards.shape[0]
    out = np.zeros((n, NUM_INPUTS), dtype=np.float32)
    for r in range(n):
        encode_into(boards[r], out[r])
    return out


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
