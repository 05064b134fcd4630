#!/usr/bin/env python3
"""Paired comparison of two judge runs on the same decisions (``judge.py ... --json FILE``).

Two nets judged on the same 1,000 decisions mostly choose the same plays, so the SE of the
difference of their mean losses is much smaller than either run's own SE.  Prints B - A of
the mean loss (mp/decision) at the 2-ply and 0-ply grading with the paired SE (the standard
deviation of the per-decision differences over the square root of their number).

    python benchmarks/judge_compare.py A.json B.json
"""

from __future__ import annotations

import argparse
import json
import math
import sys


def paired(a: list[dict[str, object]], b: list[dict[str, object]], key: str) -> tuple[float, float]:
    """Mean of ``b[key] - a[key]`` in millipoints and its standard error."""
    d = [1000.0 * (float(y[key]) - float(x[key])) for x, y in zip(a, b, strict=True)]  # type: ignore[arg-type]
    n = len(d)
    if n < 2:
        raise ValueError("need at least 2 decisions")
    m = sum(d) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in d) / (n - 1))
    return m, sd / math.sqrt(n)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("a", help="judge --json output of A")
    ap.add_argument("b", help="judge --json output of B")
    args = ap.parse_args(argv)
    try:
        rows = [json.load(open(p, encoding="utf-8"))["rows"] for p in (args.a, args.b)]
        if [r["position_id"] for r in rows[0]] != [r["position_id"] for r in rows[1]]:
            raise ValueError("the two runs judged different decisions")
        same = sum(1 for x, y in zip(*rows, strict=True) if x["choice"] == y["choice"])
        for key, grading in (("loss2", "2-ply"), ("loss0", "0-ply")):
            m, se = paired(rows[0], rows[1], key)
            print(f"{grading} grading: B - A = {m:+.2f} mp/decision (paired SE {se:.2f});"
                  f" same choice {same}/{len(rows[0])}")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
