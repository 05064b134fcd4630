#!/usr/bin/env python3
"""How well nets rank sibling plays against our own deeper values (issue 36's free check of a
checker-play refinement).

A sibling dataset (``gammon train refine --siblings K``) holds the results of the base net's K
best plays of one roll, valued by our own search.  For each group of two or more
(:func:`gammon.training.sibling_rank.sibling_groups`), the mover's 0-ply choice by each net is
compared with the targets' best: the share of groups where they agree and the mean regret
(target equity lost by the net's choice), then each later net paired against the first (the SE
of the per-group difference).  Only rows from ``--from`` on count, so that positions a fit used
can be left out.

    python benchmarks/sibling_ranking.py src/gammon/ai/data/weights.npz training/deep6/P1/weights.npz \
        --data training/deep6-data/s61/dataset.npz --from 190000
"""

from __future__ import annotations

import argparse

import numpy as np

from gammon.ai.network import Network
from gammon.training.sibling_rank import choice_regrets, sibling_groups


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("nets", nargs="+", help="weights files; the first is the baseline")
    ap.add_argument("--data", required=True, help="a sibling dataset.npz")
    ap.add_argument("--from", dest="start", type=int, default=0, help="first row that counts")
    a = ap.parse_args(argv)
    with np.load(a.data) as d:
        done = int(d["done"])
        boards = np.array(d["boards"][a.start:done])
        targets = np.array(d["targets"][a.start:done])
    groups = sibling_groups(boards)
    base_regret: np.ndarray | None = None
    print(f"rows {a.start}..{done} of {a.data}")
    for w in a.nets:
        agree, regret = choice_regrets(Network.load(w).evaluate_boards(boards), targets, groups)
        n = len(regret)
        line = (f"{w}: {n} groups, the target's best chosen in {agree.mean():.4f}, "
                f"mean regret {regret.mean():.5f} +- {regret.std(ddof=1) / np.sqrt(n):.5f}")
        if base_regret is None:
            base_regret = regret
        else:
            d = regret - base_regret
            line += f"; paired change {d.mean():+.5f} +- {d.std(ddof=1) / np.sqrt(n):.5f}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
