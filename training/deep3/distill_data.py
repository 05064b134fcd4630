#!/usr/bin/env python3
"""The distillation datasets of deep3: sibling positions labelled by an ensemble at 0-ply.

Self-play positions of the COLLECTOR net (0-ply, 10% random plays, each kept with
chance 0.35), each thrown a random roll, and the results of the collector's 5 best
plays of it (:func:`gammon.training.refine.collect_siblings`, 2,000 self-play positions per
batch); every such position is labelled with the
TEACHER's 0-ply probabilities.  Written in the format of :mod:`gammon.training.refine`
datasets, so :mod:`gammon.training.refine_fit` trains on it.  About 10,000 positions a second.

    python training/deep3/distill_data.py TEACHER.npz N SEED OUT.npz [--collector W.npz]

deep3 used the 3,805,000-game net (``git show e42ee8f:src/gammon/ai/data/weights.npz``)
as the collector: seed 902 (1,500,000 positions, teacher Q4) and seed 903 (2,000,000,
teacher E8); see ``training/deep3/README.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from gammon.ai.network import Network
from gammon.training import refine


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("teacher")
    p.add_argument("n", type=int)
    p.add_argument("seed", type=int)
    p.add_argument("out")
    p.add_argument("--collector", default="src/gammon/ai/data/weights.npz")
    a = p.parse_args()
    teacher = Network.load(a.teacher)
    collector = Network.load(a.collector)
    t0 = time.time()

    def show(made: int, batches: int) -> None:
        if batches % 20 == 0:
            print(f"positions: {made}/{a.n}  {time.time() - t0:.0f}s", flush=True)

    boards, _ = refine.collect_siblings(collector, a.n, a.seed, 5, epsilon=0.1, keep=0.35,
                                        batch=2000, progress=show)
    targets = teacher.evaluate_boards(boards).astype(np.float32)
    key = {"teacher": a.teacher, "collector": a.collector, "plies": 0, "seed": a.seed, "siblings": 5}
    # written beside OUT and renamed, so a killed run never leaves a partial OUT that a
    # rerun (training/deep_round.sh's distill keeps every OUT it finds) would take as made
    part = a.out + ".part.npz"
    np.savez_compressed(part, boards=boards, targets=targets, done=np.array(len(boards)),
                        games=np.array(0), key=np.array(json.dumps(key)))
    os.replace(part, a.out)
    print(f"done: {len(boards)} positions in {time.time() - t0:.0f}s -> {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
