"""Rollout targets with the noise of each sibling's own rollout taken out of the play choice.

A sibling dataset of ``gammon train lopsided --source contact-siblings`` holds, for each roll,
the results of the base net's best plays, each rolled out apart (72 trials: about 0.15 equity
of noise a position).  The differences between siblings are what a 0-ply net ranks plays by,
and they are mostly 0.02 to 0.1: a sibling's own rollout says little about them, while the mean
over a roll's siblings says much about the level the net gives that kind of position (stop 62:
G1c 0.12 RMS from its rollouts, over-confident where a side leads the race by 40 pips or more).

This writes a dataset whose targets are the base net's own probabilities moved, per sibling
group (``gammon.training.sibling_rank.sibling_groups``), by the group's mean of rollout minus
net, plus ``--keep`` times each sibling's own remainder (0: the net's differences kept as they
are; 1: the rollouts unchanged).  Clipped to [0, 1] and to the probabilities' order (a gammon
is a win, a backgammon a gammon).

    python training/rollout1/level_shift.py BASE.npz IN/dataset.npz OUT/dataset.npz [--keep 0]
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import numpy as np

from gammon.ai.bearoff import load as load_bearoff
from gammon.ai.evaluator import ClassifyingEvaluator
from gammon.ai.network import Network
from gammon.training.sibling_rank import sibling_groups


def shifted(base: np.ndarray, targets: np.ndarray, groups: np.ndarray, keep: float) -> np.ndarray:
    """``base`` moved by each group's mean of ``targets - base`` plus ``keep`` times each row's
    own remainder, made consistent (0 <= backgammons <= gammons <= wins or losses)."""
    d = np.asarray(targets, dtype=np.float64) - np.asarray(base, dtype=np.float64)
    _, inv, counts = np.unique(groups, return_inverse=True, return_counts=True)
    mean = np.stack([np.bincount(inv, weights=d[:, k]) / counts for k in range(5)], axis=1)[inv]
    out = np.clip(base + mean + keep * (d - mean), 0.0, 1.0)
    out[:, 1] = np.minimum(out[:, 1], out[:, 0])
    out[:, 2] = np.minimum(out[:, 2], out[:, 1])
    out[:, 3] = np.minimum(out[:, 3], 1.0 - out[:, 0])
    out[:, 4] = np.minimum(out[:, 4], out[:, 3])
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("base")
    p.add_argument("data")
    p.add_argument("out")
    p.add_argument("--keep", type=float, default=0.0)
    a = p.parse_args(argv)
    with np.load(a.data, allow_pickle=False) as z:
        done = int(z["done"])
        boards, targets = np.array(z["boards"][:done]), np.array(z["targets"][:done])
        key = json.loads(str(z["key"]))
    net = ClassifyingEvaluator(Network.load(a.base), load_bearoff())
    base = np.asarray(net.evaluate_batch(boards), dtype=np.float64)
    groups = sibling_groups(boards)
    out = shifted(base, targets, groups, a.keep)
    key.update({"positions": done, "level_shift": {"base": a.base, "keep": a.keep}})
    path = Path(a.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, boards=boards, targets=out.astype(np.float32), done=np.array(done),
                        key=np.array(json.dumps(key, sort_keys=True)))
    os.replace(tmp, path)
    sizes = np.bincount(groups)
    print(f"{done} rows, {len(sizes)} groups (mean {sizes.mean():.2f} rows); mean |shift| "
          f"{np.abs(out - base).mean():.4f}, mean |rollout - net| {np.abs(targets - base).mean():.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
