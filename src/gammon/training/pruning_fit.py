"""Fit the search's pruning net (:mod:`gammon.ai.pruning`) to our own evaluator: ``gammon train pruning``.

The pruning net ranks a roll's plays cheaply so that the 2-ply search fully
evaluates only the best few.  It is fitted to our own 0-ply evaluator's equities
of move results (never to another engine's outputs):

1. positions come from the training's own compiled self-play
   (:func:`gammon.training.positions.collect_positions`: the net's 0-ply choice,
   a random play with probability ``explore``), the one play-out loop that TD
   training, refinement and the strength figure walk too;
2. each position gets a random roll, and every legal result of it is valued by
   the full evaluator (nets and bear-off database), in the mover's view;
3. the net is fitted to those values by least squares (Adam), and its recall (how
   often the evaluator's best play is among the net's ``k`` best) is measured on
   held-out decisions of other seeds.

The result is written as an ``.npz`` with the settings that made it (``--out``, a
file; an existing one is replaced only with ``--force``).  The shipped
``gammon/ai/data/pruning.npz`` was made by an earlier sampler that played the
self-play games in Python with the full evaluator (its ``meta`` names it); the
weights stay as they are, so every search figure stays the same.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from gammon.ai.distributed import task_seed
from gammon.ai.evaluator import ClassifyingEvaluator
from gammon.ai.probabilities import equities
from gammon.ai.pruning import PRUNE_INPUTS, encode_all, pack, prune_score
from gammon.core.errors import GammonError
from gammon.core.position import Position
from gammon.core.variants import STANDARD
from gammon.training.positions import collect_positions

#: Self-play positions collected per batch while sampling decisions.
_BATCH = 2000


def sample_results(evaluator: ClassifyingEvaluator, decisions: int, seed: int, explore: float = 0.15,
                   progress: Callable[[int], None] | None = None,
                   batch: int = _BATCH) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Move results of ``decisions`` self-play decisions and the evaluator's equity of each
    for its mover.

    Positions come from the compiled self-play of the evaluator's net (a random play
    with probability ``explore``), ``batch`` at a time, batch ``i`` seeded
    ``task_seed(seed, i)``; each gets a roll from a generator seeded ``seed``, and a
    roll with fewer than two legal results is no decision.  Returns boards ``(n, 50)`` (mover first),
    equities ``(n,)`` and the decision each row belongs to ``(n,)``.
    """
    if decisions < 1:
        raise GammonError("the number of decisions must be at least 1")
    rng = np.random.default_rng(seed)
    boards: list[np.ndarray] = []
    values: list[np.ndarray] = []
    groups: list[np.ndarray] = []
    made = i = 0
    while made < decisions:
        base, _games = collect_positions(evaluator.network, batch, task_seed(seed, i), explore)
        i += 1
        for row in base:
            if made >= decisions:
                break
            dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
            results = [q.position for q in Position._make(bytes(row), STANDARD).legal_plays(dice)]
            if len(results) < 2:
                continue
            ys = evaluator.evaluate_batch([r.swap() for r in results])
            boards.append(np.stack([np.frombuffer(r.board, np.uint8) for r in results]))
            values.append((-equities(ys)).astype(np.float32))  # the mover's equity
            groups.append(np.full(len(results), made, dtype=np.int64))
            made += 1
        if progress is not None:
            progress(made)
    return np.concatenate(boards), np.concatenate(values), np.concatenate(groups)


def fit(x: np.ndarray, y: np.ndarray, hidden: int, epochs: int, seed: int, lr: float = 3e-3,
        batch: int = 512, log: Callable[[str], None] | None = None) -> np.ndarray:
    """Least-squares fit of the net to ``y`` by Adam; returns the packed weights
    (:func:`gammon.ai.pruning.pack`).  ``log`` is told each epoch's mean squared error."""
    rng = np.random.default_rng(seed)
    params = [(rng.standard_normal((PRUNE_INPUTS, hidden)) * 0.1).astype(np.float32),
              np.zeros(hidden, dtype=np.float32),
              (rng.standard_normal(hidden) * 0.1).astype(np.float32),
              np.zeros(1, dtype=np.float32)]
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
            hb = 1.0 / (1.0 + np.exp(-(xb @ params[0] + params[1])))
            err = hb @ params[2] + params[3][0] - yb
            total += float(err @ err)
            g_pred = 2.0 * err / len(idx)
            g_h = np.outer(g_pred, params[2]) * hb * (1.0 - hb)
            grads = [xb.T @ g_h, g_h.sum(axis=0), hb.T @ g_pred, np.array([g_pred.sum()], dtype=np.float32)]
            t += 1
            for i, g in enumerate(grads):
                m[i] = 0.9 * m[i] + 0.1 * g
                v[i] = 0.999 * v[i] + 0.001 * g * g
                mh = m[i] / (1 - 0.9 ** t)
                vh = v[i] / (1 - 0.999 ** t)
                params[i] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        if log is not None:
            log(f"epoch {epoch + 1}/{epochs}: mse {total / n:.5f}")
    return pack(params[0], params[1], params[2], float(params[3][0]))


def top_recall(pw: np.ndarray, boards: np.ndarray, y: np.ndarray, groups: np.ndarray, keep: int) -> float:
    """How often the evaluator's best result of a decision is among the net's ``keep`` best."""
    h = np.empty(pw.shape[1], dtype=np.float32)
    scores = np.array([prune_score(boards[r], pw, h) for r in range(boards.shape[0])])
    ids = np.unique(groups)
    hits = 0
    for gid in ids:
        rows = np.flatnonzero(groups == gid)
        best = rows[int(np.argmax(y[rows]))]
        top = rows[np.argsort(-scores[rows], kind="stable")[:keep]]
        hits += best in top
    return hits / len(ids)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="gammon train pruning",
        description="Fit the 2-ply search's pruning net to our own evaluator's values of self-play plays.",
    )
    p.add_argument("--out", required=True, type=Path, help="the weights file to write (.npz)")
    p.add_argument("--force", action="store_true", help="replace --out if it exists")
    p.add_argument("--decisions", type=int, default=6000, help="decisions to fit on")
    p.add_argument("--held-out", type=int, default=1000, help="decisions of other seeds to measure recall on")
    p.add_argument("--hidden", type=int, default=16, help="hidden units of the pruning net")
    p.add_argument("--epochs", type=int, default=25)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--weights", type=Path, help="the evaluator's nets (default: the shipped ones)")
    return p


def _check(a: argparse.Namespace) -> None:
    """Refuse settings out of range and an ``--out`` that cannot be written, before any work."""
    from gammon.formats.record_files import check_target

    for value, low, high, option in ((a.decisions, 2, 10_000_000, "--decisions"),
                                     (a.held_out, 1, 10_000_000, "--held-out"), (a.hidden, 1, 1024, "--hidden"),
                                     (a.epochs, 1, 10_000, "--epochs"), (a.seed, 0, 2**32 - 1, "--seed")):
        if not low <= value <= high:
            raise GammonError(f"{option} must be from {low:,} to {high:,}, not {value}")
    if a.out.suffix != ".npz":
        raise GammonError(f"--out {a.out}: the weights are written as .npz")
    check_target(a.out, replace=a.force)


def _write(out: Path, pw: np.ndarray, meta: dict[str, object]) -> None:
    """Write the weights and their ``meta`` to ``out`` through a temporary file (no half file)."""
    tmp = out.with_name(f".{out.stem}.tmp.npz")
    try:
        np.savez_compressed(tmp, pw=pw, meta=np.array(json.dumps(meta)))
        os.replace(tmp, out)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise GammonError(f"cannot write {out}: {exc.strerror or exc}") from None


def main(argv: list[str] | None = None) -> int:
    """Sample our own self-play decisions, fit the net, report its held-out recall, write it."""
    from gammon.ai.bearoff import load as load_bearoff
    from gammon.ai.evaluator import default_evaluator
    from gammon.ai.network import Network

    a = _parser().parse_args(argv)
    try:
        _check(a)
        ev = default_evaluator() if a.weights is None else ClassifyingEvaluator(Network.load(a.weights),
                                                                                  load_bearoff())
        t0 = time.time()

        def said(made: int) -> None:
            print(f"sampled {made:,} decisions ({time.time() - t0:.0f} s)", flush=True)

        b, y, g = sample_results(ev, a.decisions, a.seed, progress=said)
        hb, hy, hg = sample_results(ev, a.held_out, a.seed + 1000)
        print(f"{len(y):,} results of {a.decisions:,} decisions ({time.time() - t0:.0f} s)", flush=True)
        pw = fit(encode_all(b), y, a.hidden, a.epochs, a.seed, log=lambda line: print(line, flush=True))
        recall = {k: top_recall(pw, hb, hy, hg, k) for k in (1, 3, 5, 8)}
        settings = {k: (v.name if isinstance(v, Path) else v) for k, v in vars(a).items()
                    if k not in ("out", "force")}
        _write(a.out, pw, {"command": "gammon train pruning", "settings": settings,
                           "held_out_recall": recall, "results": int(len(y))})
    except GammonError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print("held-out recall of the evaluator's best among the net's top k:",
          ", ".join(f"k={k}: {r:.3f}" for k, r in recall.items()))
    print(f"wrote {a.out}")
    return 0


__all__ = ["fit", "main", "sample_results", "top_recall"]
