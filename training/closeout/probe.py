"""Closeouts from the expert's own self-play: each net's 0-ply winning and gammon chances against
our own rollouts of the same positions (the closeout round's held-out check, README.md).

A position is kept when the side on roll holds all six of its home points with at most three
checkers outside them and the other side has a checker on the bar.  The positions (self-play of
the shipped expert level, dice seeded by ``--seed``, one per game) and their rollouts (1,296
trials a position by the shipped 0-ply net at 0-ply, to the end) are made once and kept in
``--cache``; then every net named is valued against them.  Run from the repository root::

    python training/closeout/probe.py --positions 200 --seed 7 --cache training/closeout-data/probe.npz \\
        src/gammon/ai/data/weights-standard-0ply.npz training/closeout/C1/weights.npz
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from gammon import Position
from gammon.ai.bearoff import load as load_bearoff
from gammon.ai.engine import Engine
from gammon.ai.evaluator import ClassifyingEvaluator, load_network
from gammon.ai.rollout import RolloutSettings, rollout


def closeouts(count: int, seed: int) -> list[Position]:
    """``count`` closeouts, the first of each game of the expert's self-play that reaches one."""
    rng = np.random.default_rng(seed)
    expert = Engine("expert")
    found: list[Position] = []
    while len(found) < count:
        pos = Position.initial()
        while not pos.is_game_over:
            me = pos.me
            if pos.bar[1] >= 1 and all(me[i] >= 2 for i in range(6)) and sum(me[6:24]) <= 3:
                found.append(pos)
                break
            play = expert.best_play(pos, (int(rng.integers(1, 7)), int(rng.integers(1, 7))))
            if play is None:
                pos = pos.swap()
                continue
            if play.position.is_game_over:
                break
            pos = play.position.swap()
    return found


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("weights", nargs="+")
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--trials", type=int, default=1296)
    p.add_argument("--cache", type=Path, required=True)
    a = p.parse_args()
    if a.cache.exists():
        data = np.load(a.cache)
        boards, targets = data["boards"], data["targets"]
    else:
        t0 = time.time()
        found = closeouts(a.positions, a.seed)
        boards = np.stack([np.frombuffer(q.board, dtype=np.uint8) for q in found])
        ev = Engine("expert").static_evaluator
        targets = np.zeros((len(found), 5))
        for i, q in enumerate(found):
            targets[i] = rollout(q, ev, RolloutSettings(trials=a.trials, seed=1000 + i)).probs
            if (i + 1) % 20 == 0:
                print(f"rollouts: {i + 1}/{len(found)}  {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
        a.cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez(a.cache, boards=boards, targets=targets)
    print(f"{len(boards)} closeouts (seed {a.seed}), each rolled out {a.trials} times by the shipped 0-ply net")
    print("net: mean (net - rollout) of win / win gammon / lose gammon, and mean |win difference|")
    for w in a.weights:
        ev = ClassifyingEvaluator(load_network(w), load_bearoff())
        d = np.asarray(ev.evaluate_batch(np.ascontiguousarray(boards)), dtype=float) - targets
        se = d[:, 0].std(ddof=1) / np.sqrt(len(d))
        big = int((np.abs(d[:, 0]) > 0.05).sum())
        print(f"{w}: win {d[:, 0].mean():+.4f} +- {se:.4f}  wg {d[:, 1].mean():+.4f}  "
              f"lg {d[:, 3].mean():+.4f}  |win| {np.abs(d[:, 0]).mean():.4f}  |win| > 0.05: {big}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
