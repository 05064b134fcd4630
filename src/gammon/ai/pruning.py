"""The pruning net: a small, cheap imitation of the evaluator that pre-filters plays.

A 2-ply search values every legal play of each of 21 rolls at each of 441 inner
nodes per candidate; almost all of its time is the full evaluation (inputs with
shot and escape counts, 128 hidden units) of plays that are plainly not the best.
As GNU Backgammon does with its pruning nets, the search first scores every play
with this small net (only the raw point inputs, few hidden units: a fraction of
the cost) and fully evaluates only the best few (``prune``), of which the best
by the full evaluator is played.

The net is fitted to our own evaluator's equities of move results (never to
another engine's outputs) by ``gammon train pruning``
(:mod:`gammon.training.pruning_fit`, which the runtime never imports).  Weights
ship as ``data/pruning.npz`` with the settings that made them.

Inputs, from a move result in the mover's view (mover first): for each side
and each of its points 1..24 the TD-Gammon units (n>=1, n>=2, n>=3, (n-3)/2),
then its checkers waiting to enter / 2 and borne off / 15: ``PRUNE_INPUTS`` =
196.  Packed weights (:func:`pack`): rows ``0..195`` the input weights ``(196,
H)``, row 196 the hidden biases, row 197 the output weights, ``[198, 0]`` the
output bias.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import numpy as np
from numba import njit

from gammon.ai.encoding import OFF_FEATURES, encode_points
from gammon.ai.network import _sigmoid

#: The raw point inputs of :mod:`gammon.ai.encoding` (its first ``OFF_FEATURES``): 196.
PRUNE_INPUTS = OFF_FEATURES
#: File of the shipped pruning net inside ``gammon/ai/data``.
PRUNING_FILE = "pruning.npz"


@njit(cache=True, fastmath=True, error_model="numpy")
def prune_score(b, pw, h):  # type: ignore[no-untyped-def]
    """The pruning net's equity for the mover of move result ``b`` (mover first).

    Only the units that are not zero are added: a point's first unit is 1 when
    it has a checker, and the others follow from its count.  ``h`` is scratch
    of the hidden size.
    """
    nh = h.shape[0]
    for j in range(nh):
        h[j] = pw[PRUNE_INPUTS, j]
    for s in range(2):
        o = 25 * s
        base = 98 * s
        total = 0
        for i in range(24):
            n = b[o + i]
            if n == 0:
                continue
            total += n
            k = base + 4 * i
            r0 = pw[k]
            if n == 1:
                for j in range(nh):
                    h[j] += r0[j]
            elif n == 2:
                r1 = pw[k + 1]
                for j in range(nh):
                    h[j] += r0[j] + r1[j]
            else:
                r1 = pw[k + 1]
                r2 = pw[k + 2]
                r3 = pw[k + 3]
                extra = np.float32((n - 3) / 2.0)
                for j in range(nh):
                    h[j] += r0[j] + r1[j] + r2[j] + extra * r3[j]
        total += b[o + 24]
        bar = np.float32(b[o + 24] / 2.0)
        off = np.float32((15 - total) / 15.0)
        rb = pw[base + 96]
        ro = pw[base + 97]
        for j in range(nh):
            h[j] += bar * rb[j] + off * ro[j]
    acc = pw[PRUNE_INPUTS + 2, 0]
    w2 = pw[PRUNE_INPUTS + 1]
    for j in range(nh):
        acc += _sigmoid(h[j]) * w2[j]
    return acc


def pack(w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: float) -> np.ndarray:
    """The weights as one ``(PRUNE_INPUTS + 3, H)`` float32 array (see the module doc)."""
    hidden = w1.shape[1]
    pw = np.zeros((PRUNE_INPUTS + 3, hidden), dtype=np.float32)
    pw[:PRUNE_INPUTS] = w1
    pw[PRUNE_INPUTS] = b1
    pw[PRUNE_INPUTS + 1] = w2
    pw[PRUNE_INPUTS + 2, 0] = b2
    return pw


def load_pruning(path: str | Path | None = None) -> np.ndarray:
    """The packed pruning weights (the shipped ones by default)."""
    if path is None:
        with resources.as_file(resources.files("gammon.ai") / "data" / PRUNING_FILE) as p:
            with np.load(p) as data:
                return np.ascontiguousarray(data["pw"], dtype=np.float32)
    with np.load(path) as data:
        return np.ascontiguousarray(data["pw"], dtype=np.float32)


def encode_all(boards: np.ndarray) -> np.ndarray:
    """The pruning net's inputs ``(n, PRUNE_INPUTS)`` of move results ``(n, 50)``."""
    out: np.ndarray = encode_points(np.ascontiguousarray(boards, dtype=np.uint8))
    return out
