#!/usr/bin/env python3
"""The cube decisions GNU Backgammon flagged in our matches: its probabilities beside ours.

For every decision of one kind (``--alert``, default ``wrong take``) in the cached analyses
of ``benchmarks/cube_errors.py`` (``--cache``), prints the doubler's win, win-gammon and
win-backgammon chances by GNU Backgammon's analysis (measuring only), by our net at 0 and
2 plies, and by our own 0-ply rollout; then the mean difference of each from GNU
Backgammon's.  It tells an evaluator error our rollouts can teach (the rollout agrees with
GNU Backgammon, the net does not) from one beyond them.

    python benchmarks/flagged_probabilities.py --cache CACHE.json.gz [CACHE2 ...]
        [--alert "wrong take"] [--trials 1296] [--weights W]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cube_errors import Decision, cube_info  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    from gammon.ai.engine import Engine
    from gammon.ai.rollout import RolloutSettings

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", nargs="+", required=True, type=Path)
    ap.add_argument("--alert", default="wrong take")
    ap.add_argument("--trials", type=int, default=1296)
    ap.add_argument("--weights", default=None)
    a = ap.parse_args(argv)
    missing = [str(c) for c in a.cache if not c.is_file()]
    if missing:
        print(f"error: no cache {', '.join(missing)} (make one with cube_errors.py --cache)", file=sys.stderr)
        return 2
    engine = Engine("expert", weights=a.weights) if a.weights else Engine("expert")
    rows: dict[str, list[np.ndarray]] = {"gnubg": [], "0p": [], "2p": [], "ro": []}
    print(f"# {a.alert}: the doubler's win / win gammon / win backgammon; g = GNU Backgammon, "
          f"0p / 2p = ours at 0 / 2 plies, ro = our 0-ply rollout ({a.trials} trials)")
    for cache in a.cache:
        raw = cache.read_bytes()
        for r in json.loads(gzip.decompress(raw) if cache.suffix == ".gz" else raw):
            d = Decision(**{**r, "probs": tuple(r["probs"])})
            if d.alert != a.alert:
                continue
            _, pos = cube_info(d)
            t = time.perf_counter()
            got = {"gnubg": np.array(d.probs),
                   "0p": np.array(engine.evaluate(pos, plies=0, cube=False).probabilities),
                   "2p": np.array(engine.evaluate(pos, plies=2, cube=False).probabilities),
                   "ro": np.array(engine.rollout(pos, RolloutSettings(trials=a.trials, seed=7)).probs)}
            for k, v in got.items():
                rows[k].append(v)
            f = lambda y: " ".join(f"{v:.3f}" for v in y[:3])  # noqa: E731
            print(f"{d.cost:.3f} {d.position_id} g {f(got['gnubg'])} | 0p {f(got['0p'])} | "
                  f"2p {f(got['2p'])} | ro {f(got['ro'])}  ({time.perf_counter() - t:.1f}s)", flush=True)
    if not rows["gnubg"]:
        print(f"no decision flagged {a.alert!r}")
        return 0
    g = np.array(rows["gnubg"])
    for k in ("0p", "2p", "ro"):
        diff = np.array(rows[k]) - g
        print(f"{k} minus gnubg ({len(g)} decisions): win {diff[:, 0].mean():+.3f}  "
              f"gammon {diff[:, 1].mean():+.3f}  loss-gammon {diff[:, 3].mean():+.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
