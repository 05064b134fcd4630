#!/usr/bin/env python3
"""What our checker errors have in common: the five probabilities of our choice against those of
GNU Backgammon 2-ply's best play, both valued by our own net, over the judge's errors.

``judge.py ... --json FILE`` records each decision's choice and its loss at GNU Backgammon's
2-ply grading; the referee's decision cache (``$JUDGE_CACHE``, default
``~/.cache/gammon-referee``, first filled from ``../shared/referee/judge_cache``) holds every
play's 2-ply equity, so GNU Backgammon's best play of each decision is known.  For every
decision that lost more than ``--threshold`` (0.020, the judge's "error"), both resulting
positions are valued by our net at 0-ply (mover's view) and the mean difference best - ours of
each probability is printed with its standard error.  A systematic sign says which way our
play leans where it errs: e.g. best plays with fewer wins but more gammon losses mean our
engine avoids gammon risks that GNU Backgammon takes.  GNU Backgammon is the measuring stick
only; nothing here trains anything.

    python benchmarks/judge_gammons.py JUDGE.json --cache ~/.cache/gammon-referee/decisions_s1_n1000.jsonl
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from gammon.ai.network import Network
from gammon.core.position import Position

NAMES = ("win", "win g", "win bg", "lose g", "lose bg")
SHIPPED = Path(__file__).resolve().parent.parent / "src" / "gammon" / "ai" / "data" / "weights.npz"


def best_play(ply2: dict[str, Any]) -> str:
    """The play (result position ID) with the highest 2-ply equity: ``{id: [equity, ...]}``."""
    def equity(v: Any) -> float:
        return float(v[0] if isinstance(v, list) else v)
    return max(ply2, key=lambda k: equity(ply2[k]))


def differences(rows: list[dict[str, Any]], cache: dict[tuple[str, tuple[int, int]], dict[str, Any]],
                net: Network, threshold: float) -> np.ndarray:
    """Rows (one per error) of best - ours in each of the five probabilities, by ``net``."""
    out = []
    for row in rows:
        if float(row.get("loss2") or 0.0) <= threshold:
            continue
        best = best_play(cache[row["position_id"], tuple(row["dice"])]["ply2"])
        boards = np.array([np.frombuffer(Position.from_position_id(m).board, dtype=np.uint8)
                           for m in (row["choice"], best)])
        y, _ = net.evaluate_results(boards)
        out.append(np.asarray(y[1], dtype=np.float64) - np.asarray(y[0], dtype=np.float64))
    return np.array(out).reshape(-1, 5)


def report(d: np.ndarray) -> list[str]:
    """The mean difference of each probability with its SE, and of the gammons both ways."""
    n = len(d)
    if n < 2:
        return [f"errors: {n} (too few to average)"]
    se = d.std(axis=0, ddof=1) / np.sqrt(n)
    lines = [f"errors: {n}"]
    lines += [f"{k:<8} best - ours {d[:, i].mean():+.4f} +- {se[i]:.4f}" for i, k in enumerate(NAMES)]
    g = d[:, 1] + d[:, 3]
    lines.append(f"gammons either way (win g + lose g) {g.mean():+.4f} +- {g.std(ddof=1) / np.sqrt(n):.4f}; "
                 f"the best play more gammonish in {np.mean(g > 0):.0%} of the errors")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("judge", type=Path, help="judge.py --json output")
    ap.add_argument("--cache", type=Path, required=True, help="the referee's decisions_sSEED_nN.jsonl")
    ap.add_argument("--weights", type=Path, default=SHIPPED)
    ap.add_argument("--threshold", type=float, default=0.020)
    a = ap.parse_args(argv)
    cache = {}
    with a.cache.open(encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            cache[r["position_id"], tuple(r["dice"])] = r
    rows = json.loads(a.judge.read_text(encoding="utf-8"))["rows"]
    d = differences(rows, cache, Network.load(a.weights), a.threshold)
    print(f"{a.judge.name}: decisions losing more than {a.threshold} at GNU Backgammon's 2-ply grading; "
          f"probabilities by {a.weights.name}, mover's view")
    print("\n".join(report(d)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
