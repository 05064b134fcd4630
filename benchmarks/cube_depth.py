#!/usr/bin/env python3
"""The analysis's cube verdicts at each look-ahead depth, beside GNU Backgammon's on the same matches.

For each ``.mat`` given (a stored run's folder or packed ``.tar.bz2`` works too, see
``results_archive.py``) whose GNU Backgammon statistics lie beside it
(``match_NNN.stats.txt``, written by ``match_pr.py``: GNU Backgammon's 2-ply,
cubeful analysis), only the cube decisions (doubles, non-doubles and answers)
are analysed, the way ``gammon analyse`` does (dead cubes left out), once per
cube look-ahead depth (``--cube-plies``; ``2s``: 2 rolls only where 1 roll finds
the decision close or a double, as the analysis does by default).  Printed per depth, over all the
players: the close cube decisions, the cube loss (EMG) and the count of each
kind of cube error, GNU Backgammon's beside them; the mean absolute difference
of the players' cube error rates (mEMG per close decision) from GNU
Backgammon's; and the time per cube decision.

    python benchmarks/cube_depth.py benchmarks/results/match_pr_expert_3805k.tar.bz2 --first 5

GNU Backgammon only measures here; nothing in the analysis uses its numbers.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results_archive  # noqa: E402
from gammon.analysis.analyse import decision_tasks  # noqa: E402
from gammon.analysis.decisions import MISSED_DOUBLES, analyse_task  # noqa: E402
from gammon.analysis.valuation import Valuer  # noqa: E402
from gammon.analysis.walk import CubeTask, TakeTask  # noqa: E402
from gammon.formats.record_files import load_record  # noqa: E402
from match_pr import parse_statistics  # noqa: E402

#: Our kinds grouped as GNU Backgammon's statistics count them.
GROUPS = {"missed_doubles": MISSED_DOUBLES,
          "wrong_doubles": ("wrong double (too early)", "wrong double (too good)"),
          "wrong_takes": ("wrong take", "wrong beaver"), "wrong_passes": ("wrong pass",)}


def ours(mat: Path, valuer: Valuer) -> tuple[list[dict[str, float]], int, float]:
    """Per player: close decisions, cube loss (EMG) and error counts by group; decisions; seconds."""
    rec = load_record(str(mat))
    tasks, _ = decision_tasks(rec.rules, rec.games, rec.games_limit)
    rows = [dict.fromkeys(("close_cube", "cube_error", *GROUPS), 0.0) for _ in range(2)]
    cube_tasks = [t for t in tasks if isinstance(t, CubeTask | TakeTask)]
    start = time.perf_counter()
    for t in cube_tasks:
        d = analyse_task(valuer, t)
        row = rows[d.player]
        row["close_cube"] += d.close
        row["cube_error"] += d.equity_lost
        for group, kinds in GROUPS.items():
            row[group] += d.error_kind in kinds
    return rows, len(cube_tasks), time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", type=Path, help=".mat files or folders (or packed runs) of them")
    parser.add_argument("--cube-plies", default="1,2,2s",
                        help="the look-ahead depths to compare (2s: 2 rolls where 1 roll finds it close)")
    parser.add_argument("--plies", type=int, default=2, help="the analysis's depth (its probabilities)")
    parser.add_argument("--first", type=int, default=0, help="the first N matches only")
    args = parser.parse_args(argv)
    depths = [x.strip() for x in args.cube_plies.split(",") if x.strip()]
    with results_archive.unpacked(args.paths) as paths:
        mats = sorted(m for p in paths for m in ([p] if p.is_file() else p.glob("*.mat")))
        mats = [m for m in mats if m.with_suffix(".stats.txt").exists()][: args.first or None]
        if not mats:
            print("error: no .mat file with GNU Backgammon's statistics beside it", file=sys.stderr)
            return 2
        theirs = [parse_statistics(m.with_suffix(".stats.txt").read_text()) for m in mats]
        keys = ("close_cube", "cube_error", *GROUPS)
        gnu = {k: sum(float(p[k]) for match in theirs for p in match) for k in keys}  # type: ignore[arg-type]
        print(f"{len(mats)} matches, {2 * len(mats)} players; GNU Backgammon 2-ply: "
              + ", ".join(f"{k} {gnu[k]:.3f}" if k == "cube_error" else f"{k} {gnu[k]:.0f}" for k in keys))
        print("| cube look-ahead | close | cube loss (EMG) | missed doubles | wrong doubles | wrong takes "
              "| wrong passes | mean abs diff of cube error rate (mEMG) | ms per cube decision |")
        print("|---|---|---|---|---|---|---|---|---|")
        for depth in depths:
            valuer = Valuer(plies=args.plies, cube_plies=int(depth.rstrip("s")), screen=depth.endswith("s"))
            total = dict.fromkeys(keys, 0.0)
            diffs: list[float] = []
            n, seconds = 0, 0.0
            for mat, gnu_match in zip(mats, theirs, strict=True):
                rows, k, s = ours(mat, valuer)
                n, seconds = n + k, seconds + s
                for row, g in zip(rows, gnu_match, strict=True):
                    for key in keys:
                        total[key] += row[key]
                    close_g = float(g["close_cube"])  # type: ignore[arg-type]
                    if row["close_cube"] and close_g:
                        diffs.append(abs(1000 * row["cube_error"] / row["close_cube"]
                                         - 1000 * float(g["cube_error"]) / close_g))  # type: ignore[arg-type]
            mad = sum(diffs) / max(1, len(diffs))
            print(f"| {depth} | {total['close_cube']:.0f} | {total['cube_error']:.3f} | "
                  + " | ".join(f"{total[g]:.0f}" for g in GROUPS)
                  + f" | {mad:.1f} | {1000 * seconds / max(1, n):.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
