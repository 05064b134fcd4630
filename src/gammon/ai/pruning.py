"""The pruning net: a small, cheap imitation of the evaluator that pre-filters plays.

A 2-ply search values every legal play of each of 21 rolls at each of 441 inner
nodes per candidate; almost all of its time is the full evaluation (inputs with
shot and escape counts, 128 hidden units) of plays that are plainly not the best.
As GNU Backgammon does with its pruning nets, the search first scores every play
with this small net (only the raw point inputs, few hidden units: a fraction of
the cost) and fully evaluates only the best few (``prune``), of which the best
by the full evaluator is played.

The net is fitted to our own evaluator's equities of move results (never to
another engine's outputs): :func:`fit` plays games with the 0-ply evaluator,
records every legal result of each roll with the evaluator's equity for the
mover, and fits the net to them by least squares (Adam).  Weights ship as
``data/pruning.npz`` with the settings that made them (``python -m
gammon.ai.pruning``).

Inputs, from a move result in the mover's view (mover first): for each side
and each of its points 1..24 the TD-Gammon units (n>=1, n>=2, n>=3, (n-3)/2),
then its checkers waiting to enter / 2 and borne off / 15: ``PRUNE_INPUTS`` =
196.  Packed weights (:func:`pack`): rows ``0..195`` the input weights ``(196,
H)``, row 196 the hidden biases, row 197 the output weights, ``[198, 0]`` the
output bias.
"""

from __future__ import annotations

import argparse
import json
import time
from importlib import resources
from pathlib import Path

import numpy as np
from numba import njit

from gammon.ai.encoding import OFF_FEATURES, encode_points
from gammon.ai.evaluator import ClassifyingEvaluator
from gammon.ai.network import _sigmoid
from gammon.ai.probabilities import equities

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


# -- fitting --------------------------------------------------------------------------


def sample_results(evaluator: ClassifyingEvaluator, decisions: int, seed: int,
                   explore: float = 0.15) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Move results of self-play and the evaluator's equity of each for its mover.

    Games are played by the 0-ply evaluator, a random play with probability
    ``explore``.  Returns boards ``(n, 50)`` (mover first), equities ``(n,)``
    and the decision each row belongs to ``(n,)``.
    """
    from gammon.core.position import Position

    rng = np.random.default_rng(seed)
    boards: list[np.ndarray] = []
    values: list[np.ndarray] = []
    groups: list[np.ndarray] = []
    pos = Position.initial()
    made = 0
    while made < decisions:
        if pos.is_game_over:
            pos = Position.initial()
        d1, d2 = (int(x) for x in rng.integers(1, 7, size=2))
        plays = pos.legal_plays((d1, d2))
        if len(plays) == 0:
            pos = pos.swap()
            continue
        results = [q.position for q in plays]
        ys = evaluator.evaluate_batch([r.swap() for r in results])
        eq = -equities(ys)  # the mover's equity
        if len(results) > 1:
            boards.append(np.stack([np.frombuffer(r.board, np.uint8) for r in results]))
            values.append(eq.astype(np.float32))
            groups.append(np.full(len(results), made, dtype=np.int64))
            made += 1
        k = int(rng.integers(len(results))) if rng.random() < explore else int(np.argmax(eq))
        pos = results[k].swap()
    return np.concatenate(boards), np.concatenate(values), np.concatenate(groups)


def encode_all(boards: np.ndarray) -> np.ndarray:
    """The pruning net's inputs ``(n, PRUNE_INPUTS)`` of move results ``(n, 50)``."""
    out: np.ndarray = encode_points(np.ascontiguousarray(boards, dtype=np.uint8))
    return out


def fit(x: np.ndarray, y: np.ndarray, hidden: int, epochs: int, seed: int, lr: float = 3e-3,
        batch: int = 512, log: bool = True) -> np.ndarray:
    """Least-squares fit of the net to ``y`` by Adam; returns the packed weights."""
    rng = np.random.default_rng(seed)
    w1 = (rng.standard_normal((PRUNE_INPUTS, hidden)) * 0.1).astype(np.float32)
    b1 = np.zeros(hidden, dtype=np.float32)
    w2 = (rng.standard_normal(hidden) * 0.1).astype(np.float32)
    b2 = np.float32(0.0)
    params = [w1, b1, w2, np.array([b2], dtype=np.float32)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    t = 0
    n = x.shape[0]
    for epoch in range(epochs):
        order = rng.permutation(n)
        total = 0.0
        for s in range(0, n, batch):
            idx = order[s:s + batch]
            xb, yb = x[idx], y[idx]
            z = xb @ params[0] + params[1]
            hb = 1.0 / (1.0 + np.exp(-z))
            pred = hb @ params[2] + params[3][0]
            err = pred - yb
            total += float(err @ err)
            g_pred = 2.0 * err / len(idx)
            g_w2 = hb.T @ g_pred
            g_b2 = np.array([g_pred.sum()], dtype=np.float32)
            g_h = np.outer(g_pred, params[2]) * hb * (1.0 - hb)
            grads = [xb.T @ g_h, g_h.sum(axis=0), g_w2, g_b2]
            t += 1
            for i, g in enumerate(grads):
                m[i] = 0.9 * m[i] + 0.1 * g
                v[i] = 0.999 * v[i] + 0.001 * g * g
                mh = m[i] / (1 - 0.9 ** t)
                vh = v[i] / (1 - 0.999 ** t)
                params[i] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        if log:
            print(f"epoch {epoch + 1}/{epochs}: mse {total / n:.5f}", flush=True)
    return pack(params[0], params[1], params[2], float(params[3][0]))


def top_recall(pw: np.ndarray, boards: np.ndarray, y: np.ndarray, groups: np.ndarray,
               keep: int) -> float:
    """How often the evaluator's best result of a decision is among the net's ``keep`` best."""
    h = np.empty(pw.shape[1], dtype=np.float32)
    scores = np.array([prune_score(boards[r], pw, h) for r in range(boards.shape[0])])
    hits = 0
    ids = np.unique(groups)
    for gid in ids:
        rows = np.flatnonzero(groups == gid)
        best = rows[int(np.argmax(y[rows]))]
        top = rows[np.argsort(-scores[rows], kind="stable")[:keep]]
        hits += best in top
    return hits / len(ids)


def main(argv: list[str] | None = None) -> int:
    """Make ``data/pruning.npz``: sample our own self-play results, fit, report recall."""
    from gammon.ai.evaluator import default_evaluator

    ap = argparse.ArgumentParser(description="fit the search's pruning net to our own evaluator")
    ap.add_argument("--decisions", type=int, default=6000)
    ap.add_argument("--held-out", type=int, default=1000)
    ap.add_argument("--hidden", type=int, default=16)
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=str(Path(__file__).parent / "data" / PRUNING_FILE))
    args = ap.parse_args(argv)
    ev = default_evaluator()
    t0 = time.time()
    b, y, g = sample_results(ev, args.decisions, args.seed)
    hb, hy, hg = sample_results(ev, args.held_out, args.seed + 1000)
    print(f"{len(y)} results of {args.decisions} decisions ({time.time() - t0:.0f} s)", flush=True)
    pw = fit(encode_all(b), y, args.hidden, args.epochs, args.seed)
    recall = {k: top_recall(pw, hb, hy, hg, k) for k in (1, 3, 5, 8)}
    print("held-out recall of the evaluator's best among the net's top k:",
          ", ".join(f"k={k}: {r:.3f}" for k, r in recall.items()))
    settings = {k: v for k, v in vars(args).items() if k != "out"}
    np.savez_compressed(args.out, pw=pw, meta=np.array(json.dumps(
        {"command": "python -m gammon.ai.pruning", "settings": settings,
         "held_out_recall": recall, "results": int(len(y))})))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
