"""Cube decisions by a mix of the 1-roll and 2-roll cubeful look-aheads, costed by GNU Backgammon.

The stored cube decisions of our expert matches, each analysed by GNU Backgammon 2-ply
(``cube_decisions_expert_3805k.json.gz``, as ``cube_errors.py --policies`` reads them), are
decided again by :func:`gammon.ai.cube_search.cubeful_cube_action` 1 and 2 rolls ahead, and by
each weighted mean of the two look-aheads' no-double and double/take values (``--weights``: the
weight of the 2-roll values).  Each decision is costed with GNU Backgammon's own cubeful
equities (``cube_errors.cost``): printed, per weight, the error in EMG over all decisions, the
number in error, and the part as doubler and as taker.  It measured a rule that was tried and
not kept (``benchmarks/results/cube_blend.txt``: the mean beat the 2-roll look-ahead on one
sample of decisions and lost on another); GNU Backgammon only measures, nothing trains on it.

    python benchmarks/cube_blend.py --first 0 --last 2000
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cube_errors  # noqa: E402

CACHE = Path(__file__).resolve().parent / "results" / "cube_decisions_expert_3805k.json.gz"


def main(argv: list[str] | None = None) -> int:
    from gammon.ai.cube import DOUBLE_PASS, DOUBLE_TAKE, PASS, choose_action, taker_action
    from gammon.ai.cube_search import cubeful_cube_action
    from gammon.ai.engine import Engine

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--first", type=int, default=0, help="the first decision (default 0)")
    parser.add_argument("--last", type=int, default=2000, help="one past the last decision (default 2000)")
    parser.add_argument("--weights", default="0,0.25,0.5,0.75,1", help="weights of the 2-roll values")
    parser.add_argument("--cache", type=Path, default=CACHE, help="the stored analyses (default: %(default)s)")
    args = parser.parse_args(argv)
    try:
        weights = [float(w) for w in args.weights.split(",")]
    except ValueError:
        print(f"error: --weights must be numbers separated by commas, not {args.weights!r}", file=sys.stderr)
        return 2
    if not all(0.0 <= w <= 1.0 for w in weights) or not 0 <= args.first < args.last:
        print("error: weights must be 0 to 1, and 0 <= --first < --last", file=sys.stderr)
        return 2
    if not args.cache.is_file():
        print(f"error: no such file: {args.cache}", file=sys.stderr)
        return 2
    decisions = cube_errors.load([], 2, "", args.cache)[args.first:args.last]
    ev = Engine(plies=0).evaluator
    totals = {w: [0.0, 0, 0.0, 0.0] for w in weights}  # EMG, decisions in error, as doubler, as taker
    start = time.perf_counter()
    for i, d in enumerate(decisions):
        info, position = cube_errors.cube_info(d)
        one = cubeful_cube_action(ev, position, info, 1)
        two = cubeful_cube_action(ev, position, info, 2)
        for w in weights:
            if not one.can_double:  # no double whatever the depth (a refusal)
                action, taker = two.action, two.taker_action
            else:
                nd = w * two.no_double + (1 - w) * one.no_double
                dt = w * two.double_take + (1 - w) * one.double_take
                action, taker = choose_action(nd, dt, two.double_pass), taker_action(dt, two.double_pass, False)
            cost = cube_errors.cost(d, action in (DOUBLE_TAKE, DOUBLE_PASS), taker != PASS)
            row = totals[w]
            row[0] += cost
            row[1] += cost > 1e-9
            row[3 if d.action in ("take", "pass") else 2] += cost
        if (i + 1) % 100 == 0:
            print(f"[{args.first + i + 1}] {time.perf_counter() - start:.0f} s "
                  + " ".join(f"{w:g}: {totals[w][0]:.3f}" for w in weights), file=sys.stderr, flush=True)
    print(f"decisions {args.first} to {args.last - 1} ({len(decisions)}); each re-decided by the mean of the "
          "1-roll and 2-roll look-aheads at each weight of the 2-roll values, costed by GNU Backgammon's "
          "cubeful equities")
    print("| weight of the 2-roll values | error (EMG, all) | decisions in error | as doubler | as taker |")
    print("|---|---|---|---|---|")
    for w in weights:
        r = totals[w]
        print(f"| {w:g} | {r[0]:.3f} | {int(r[1])} | {r[2]:.3f} | {r[3]:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
