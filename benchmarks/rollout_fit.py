"""How close nets' 0-ply values come to rollout targets a fit has not seen (issue 36's free check).

Reads datasets of :mod:`gammon.training.lopsided` (finished rows only: ``done``), e.g. a
held-out seed of ``training/contact1``, and prints for each net the mean of its cubeless
equity minus the rollout's (bias, with its SE), the mean and RMS of the absolute difference,
and the share off by more than 0.05; then each later net paired against the first (mean
|difference| change, with the SE of the paired per-position change), because a refinement
that only learnt its training positions shows no gain here.  Last, each net's bias in each of
the five probabilities (win, win gammon, win backgammon, lose gammon, lose backgammon): whether
it counts the gammons its own play makes as often as the rollouts find them.

``--gnubg`` adds GNU Backgammon's 0-ply net as one more row (a measuring stick only: how far
a mature net stands from the same rollouts), and every net's error is split by how far apart
the two sides' pip counts are (``PIP_SPLIT``): stop 62 found the nets' error there.

    python benchmarks/rollout_fit.py training/cube_window/C2/weights.npz \
        training/contact1/K1/weights.npz --data training/contact1/data/s45/dataset.npz --gnubg
"""

from __future__ import annotations

import argparse

import numpy as np

from gammon.ai.network import Network
from gammon.ai.probabilities import equities
from gammon.core.pips import pips

__all__ = ["by_pip_gap", "equities", "load_rows", "pip_gaps", "probability_bias", "report"]


def load_rows(paths: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Boards and targets of the finished rows of every dataset, concatenated."""
    boards, targets = [], []
    for path in paths:
        with np.load(path) as d:
            done = int(d["done"]) if "done" in d.files else len(d["boards"])
            boards.append(d["boards"][:done])
            targets.append(d["targets"][:done])
    return np.concatenate(boards), np.concatenate(targets)


def report(names: list[str], errors: list[np.ndarray]) -> list[str]:
    """Lines: each net's error statistics, then each later net paired against the first."""
    n = len(errors[0])
    lines = [f"positions: {n}"]
    for name, e in zip(names, errors, strict=True):
        a = np.abs(e)
        lines.append(f"{name}: bias {e.mean():+.4f} +- {e.std(ddof=1) / np.sqrt(n):.4f}  "
                     f"mean |diff| {a.mean():.4f}  rms {np.sqrt((e * e).mean()):.4f}  "
                     f"share > 0.05 {np.mean(a > 0.05):.3f}")
    for name, e in zip(names[1:], errors[1:], strict=True):
        d = np.abs(e) - np.abs(errors[0])
        lines.append(f"{name} - {names[0]}: mean |diff| {d.mean():+.4f} +- "
                     f"{d.std(ddof=1) / np.sqrt(n):.4f} (paired SE)")
    return lines


NAMES = ("win", "wg", "wbg", "lg", "lbg")

#: Pip-count differences (player on roll minus opponent) whose rows are reported apart.
PIP_SPLIT = 40


def pip_gaps(boards: np.ndarray) -> np.ndarray:
    """Each board's pip count of the player on roll minus the opponent's (bar = 25)."""
    b = np.ascontiguousarray(boards, dtype=np.uint8)
    return np.array([pips(x, 0) - pips(x, 25) for x in b], dtype=np.int64)


def by_pip_gap(name: str, error: np.ndarray, gaps: np.ndarray) -> str:
    """One line: a net's equity error where the race is close and where a side leads by
    :data:`PIP_SPLIT` pips or more."""
    parts = []
    for label, m in ((f"|gap| < {PIP_SPLIT}", np.abs(gaps) < PIP_SPLIT),
                     (f"on roll ahead >= {PIP_SPLIT}", gaps <= -PIP_SPLIT),
                     (f"on roll behind >= {PIP_SPLIT}", gaps >= PIP_SPLIT)):
        if m.any():
            e = error[m]
            parts.append(f"{label} ({int(m.sum())}): bias {e.mean():+.4f} rms {np.sqrt((e * e).mean()):.4f}")
    return f"{name}: " + "  ".join(parts)




def probability_bias(name: str, probs: np.ndarray, targets: np.ndarray) -> str:
    """One line: the mean of net - rollout in each of the five probabilities, with its SE."""
    e = np.asarray(probs, dtype=np.float64) - np.asarray(targets, dtype=np.float64)
    n = len(e)
    parts = [f"{k} {e[:, i].mean():+.4f} +- {e[:, i].std(ddof=1) / np.sqrt(n):.4f}"
             for i, k in enumerate(NAMES)]
    return f"{name}: net - rollout by probability: " + "  ".join(parts)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("nets", nargs="+", help="weights files; the first is the baseline")
    p.add_argument("--data", nargs="+", required=True, help="rollout dataset.npz files")
    p.add_argument("--gnubg", action="store_true",
                   help="add GNU Backgammon's 0-ply net as the last row (gnubg-nn; measuring only)")
    a = p.parse_args(argv)
    boards, targets = load_rows(a.data)
    truth = equities(targets)
    names = list(a.nets)
    probs = [Network.load(w).evaluate_boards(boards) for w in a.nets]
    if a.gnubg:
        from late_hit_bias import gnubg_probabilities  # gnubg-nn, the measuring stick (a script beside this)

        names.append("gnubg 0-ply")
        probs.append(gnubg_probabilities(boards, 0))
    errors = [equities(p) - truth for p in probs]
    print("\n".join(report(names, errors)))
    gaps = pip_gaps(boards)
    for name, e in zip(names, errors, strict=True):
        print(by_pip_gap(name, e, gaps))
    for name, p in zip(names, probs, strict=True):
        print(probability_bias(name, p, targets))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
