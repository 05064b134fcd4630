"""How noisy a rollout measures the differences between the plays of one roll, with and without shared dice.

A 0-ply net chooses a play by the differences between the values of one roll's results (the
*siblings*), so a rollout target helps its checker play only where it measures those
differences better than the net.  Each sibling rolled out with dice of its own carries its
own luck into every difference; rolled out with the *same* dice (common random numbers: one
seed for the whole group, so trial ``t`` of every sibling throws the same rolls) the luck the
siblings share cancels.  How much of it they share is the question, since two positions soon
play differently after the same rolls.

Each sibling group of a dataset of :mod:`gammon.training.lopsided` (``contact-siblings``:
the results of the best plays of one roll, one after another;
:func:`gammon.training.sibling_rank.sibling_groups` finds them) is rolled out twice with
independent dice and twice with shared dice, ``--trials`` each, by the 0-ply net.  Printed for
both ways: the noise of a sibling's value measured from its group's mean (half the RMS
difference of the two repeats, in RMS), of its value itself, and its RMS distance from the
dataset's own targets centred the same way; last, the spread of those centred targets (the
signal the differences carry).

    python benchmarks/sibling_noise.py --data training/rollout1-data/s8/dataset.npz --groups 100
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from gammon.ai.probabilities import equities
from gammon.training.sibling_rank import group_residuals

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rollout_fit import load_rows  # noqa: E402  (a script beside this one)

#: Shared-dice groups use seed ``base + STRIDE * group`` (far from the independent seeds' ``base + row``).
STRIDE = 7


def centred(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each value minus the mean of its group's values."""
    return group_residuals(values, np.zeros(len(values)), groups)


def repeat_noise(first: np.ndarray, second: np.ndarray) -> float:
    """The RMS noise of one measurement, from two independent repeats of it (``RMS(a - b) / sqrt 2``)."""
    d = np.asarray(first, dtype=np.float64) - np.asarray(second, dtype=np.float64)
    return float(np.sqrt(np.mean(d * d) / 2.0))


def rms(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.asarray(x, dtype=np.float64) ** 2)))


def summary(kind: str, first: np.ndarray, second: np.ndarray, groups: np.ndarray, reference: np.ndarray) -> str:
    """One line for one way of seeding: the two repeats' equities against each other and the reference."""
    c1, c2 = centred(first, groups), centred(second, groups)
    return (f"{kind}: within-group noise RMS {repeat_noise(c1, c2):.4f}  value noise RMS "
            f"{repeat_noise(first, second):.4f}  centred, from the dataset's centred targets RMS "
            f"{rms(group_residuals(first, reference, groups)):.4f}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", nargs="+", required=True, help="sibling dataset.npz files (gammon train lopsided)")
    p.add_argument("--groups", type=int, default=100, help="the first N sibling groups")
    p.add_argument("--trials", type=int, default=72)
    p.add_argument("--vr", action="store_true", help="variance-reduced rollouts")
    p.add_argument("--weights", default=None, help="the rolling-out net (default: the shipped 0-ply net)")
    a = p.parse_args(argv)
    if a.groups < 2 or a.trials < 2:
        print("error: --groups and --trials must be 2 or more", file=sys.stderr)
        return 2

    from gammon.ai.bearoff import load as load_bearoff
    from gammon.ai.evaluator import ClassifyingEvaluator
    from gammon.ai.variant_nets import standard_network
    from gammon.training.lopsided import rollout_targets
    from gammon.training.refine import load_base
    from gammon.training.sibling_rank import sibling_groups

    boards, targets = load_rows(a.data)
    groups = sibling_groups(boards)
    keep = np.isin(groups, np.unique(groups)[:a.groups])
    boards, targets, groups = boards[keep], targets[keep], groups[keep]
    net = load_base(a.weights) if a.weights else standard_network()
    ev = ClassifyingEvaluator(net, load_bearoff())

    def roll_out(seeds: np.ndarray) -> np.ndarray:
        out = np.zeros((len(boards), 5), dtype=np.float32)
        for i, b in enumerate(boards):
            out[i] = rollout_targets(ev, b[None], a.trials, int(seeds[i]), variance_reduction=a.vr)[0]
        return equities(out)

    t0 = time.perf_counter()
    rows = np.arange(len(boards))
    runs = {"independent dice": (roll_out(1_000 + rows), roll_out(500_000 + rows)),
            "shared dice": (roll_out(1_000 + STRIDE * groups), roll_out(500_000 + STRIDE * groups))}
    reference = equities(targets)
    print(f"{len(boards)} positions in {a.groups} sibling groups, {a.trials} trials"
          f"{' with variance reduction' if a.vr else ''}, two repeats each way, "
          f"{time.perf_counter() - t0:.0f} s")
    for kind, (first, second) in runs.items():
        print(summary(kind, first, second, groups, reference))
    print(f"signal: the dataset's targets centred on their groups, RMS {rms(centred(reference, groups)):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
