#!/usr/bin/env python3
"""The strength cost and speed of the search's pruning: pruned 2-ply against unpruned 2-ply.

Samples decisions as ``engine_speed.py`` does (seed 11), plays each with
``Engine(plies=2)`` (every reply valued) and with the strongest level's 2-ply at
``prune`` 5 and 8 (at the 1-ply frames below the root only the pruning net's
best few replies are valued), and prints the thread CPU time per decision and
how often the pruned search chose the unpruned search's play.

Usage: python benchmarks/pruning_agreement.py [--positions 200]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_speed import sample  # noqa: E402
from gammon.ai.engine import Engine  # noqa: E402
from gammon.ai.search import find_level  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args(argv)
    items = sample(a.positions, a.seed)
    e2 = Engine(plies=2)
    engines = {k: Engine(replace(find_level("strongest"), prune=k)) for k in (5, 8)}
    for e in [e2, *engines.values()]:
        e.best_play(*items[0])
    t0 = time.thread_time()
    ref = [e2.best_play(p, d).position for p, d in items]
    tu = time.thread_time() - t0
    print(f"unpruned {1e3 * tu / len(items):.1f} ms/decision", flush=True)
    for k, e in engines.items():
        t0 = time.thread_time()
        same = sum(e.best_play(p, d).position == r for (p, d), r in zip(items, ref, strict=True))
        tp = time.thread_time() - t0
        print(f"prune={k}: {1e3 * tp / len(items):.1f} ms/decision ({tu / tp:.2f}x faster), "
              f"same play {same}/{len(items)}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
