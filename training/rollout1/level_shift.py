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
are; 1: the rollouts unchanged), made consistent as the cube code makes a net's outputs
(:func:`gammon.ai.cube_money.clamp_probs`: within [0, 1], gammons within wins).

    python training/rollout1/level_shift.py BASE.npz IN/dataset.npz OUT/dataset.npz [--keep 0]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from gammon.ai.bearoff import load as load_bearoff
from gammon.ai.cube_money import clamp_probs
from gammon.ai.evaluator import ClassifyingEvaluator
from gammon.ai.network import Network
from gammon.training.lopsided import save_dataset
from gammon.training.refine_fit import load_datasets
from gammon.training.sibling_rank import sibling_groups


def shifted(base: np.ndarray, targets: np.ndarray, groups: np.ndarray, keep: float) -> np.ndarray:
    """``base`` moved by each group's mean of ``targets - base`` plus ``keep`` times each row's
    own remainder, made consistent (0 <= backgammons <= gammons <= wins or losses)."""
    d = np.asarray(targets, dtype=np.float64) - np.asarray(base, dtype=np.float64)
    _, inv, counts = np.unique(groups, return_inverse=True, return_counts=True)
    mean = np.stack([np.bincount(inv, weights=d[:, k]) / counts for k in range(5)], axis=1)[inv]
    moved = base + mean + keep * (d - mean)
    return np.array([clamp_probs(*row) for row in moved], dtype=np.float64).reshape(-1, 5)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("base")
    p.add_argument("data")
    p.add_argument("out")
    p.add_argument("--keep", type=float, default=0.0)
    a = p.parse_args(argv)
    boards, targets, (record,) = load_datasets([a.data])
    done, key = int(record["positions"]), dict(record["key"])
    net = ClassifyingEvaluator(Network.load(a.base), load_bearoff())
    base = np.asarray(net.evaluate_batch(boards), dtype=np.float64)
    groups = sibling_groups(boards)
    out = shifted(base, targets, groups, a.keep)
    key.update({"positions": done, "level_shift": {"base": a.base, "keep": a.keep}})
    path = Path(a.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    save_dataset(path, key, boards, out.astype(np.float32), done)
    sizes = np.bincount(groups)
    print(f"{done} rows, {len(sizes)} groups (mean {sizes.mean():.2f} rows); mean |shift| "
          f"{np.abs(out - base).mean():.4f}, mean |rollout - net| {np.abs(targets - base).mean():.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
