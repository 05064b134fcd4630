#!/usr/bin/env python3
"""Gammon chances in constructed lopsided positions: the nets against our OWN rollouts.

Positions are built at random from a seed: the player on roll has one or two
checkers on the bar (and perhaps a blot or an anchor back) against a board of
four to six made home points, the opponent's spare checkers piled deep
("crunched") or kept outside.  Each is valued by the static evaluator of the
given weights and by a 0-ply rollout played to the end with the same weights
(no other engine is involved), and the script prints per position and on
average the difference net - rollout of the five chances, with standard errors.

Usage: python benchmarks/gammon_bias.py [--positions 16] [--trials 648]
       [--weights W] [--seed 1] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import random
import sys

import numpy as np

from gammon.ai.engine import Engine
from gammon.ai.rollout import RolloutSettings
from gammon.training.lopsided import construct_lopsided


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=16)
    ap.add_argument("--trials", type=int, default=648)
    ap.add_argument("--weights", default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    engine = Engine("expert", weights=a.weights)
    rng = random.Random(a.seed)
    rows = []
    print(f"weights: {a.weights or 'shipped'}; {a.positions} positions x {a.trials} trials")
    print(f"{'position':16} {'net win/wg/lg':>22} {'rollout win/wg/lg':>22}")
    for k in range(a.positions):
        pos = construct_lopsided(rng)
        net = np.array(engine.evaluate(pos, plies=0).probabilities)
        r = engine.rollout(pos, RolloutSettings(trials=a.trials, seed=a.seed + k,
                                                variance_reduction=False))
        ro = np.array(r.probs)
        rows.append({"position_id": pos.position_id, "net": net.tolist(), "rollout": ro.tolist(),
                     "rollout_se": list(r.se_probs)})
        print(f"{pos.position_id:16} {net[0]:6.3f} {net[1]:6.3f} {net[3]:6.3f}   "
              f"{ro[0]:6.3f} {ro[1]:6.3f} {ro[3]:6.3f}", flush=True)
    d = np.array([np.array(x["net"]) - np.array(x["rollout"]) for x in rows])
    mean = d.mean(axis=0)
    se = d.std(axis=0, ddof=1) / np.sqrt(len(d)) if len(d) > 1 else np.zeros(5)
    names = ("win", "wg", "wbg", "lg", "lbg")
    print("mean net - rollout: " + "  ".join(
        f"{n} {m:+.3f} +- {s:.3f}" for n, m, s in zip(names, mean, se, strict=True)))
    print(f"mean |lg error|: {np.abs(d[:, 3]).mean():.3f}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rows": rows, "mean": mean.tolist(), "se": se.tolist()}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
