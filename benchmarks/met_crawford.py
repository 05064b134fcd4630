#!/usr/bin/env python3
"""The Crawford game and post-Crawford entries of the match equity table, rolled out with our
own play, beside our model's and a published table's.

Our table in use takes its pre-Crawford entries from our own rollouts (``gammon train met``);
its Crawford and post-Crawford entries (a side 1-away) are still the model's, which assumes
that 26% of the games won are gammons.  This rolls those entries out the way ``gammon train
met`` rolls out the others (the 30 opening cases, cubeful, our 0-ply checker play and cube
handling, the table in use for the scores a game leads to) and prints each beside the model
and the published table, so that one can see whether rolling them out would bring the table
closer to the field's standard before spending the hours.

    python benchmarks/met_crawford.py [--per-case 1000] [--scores craw:2,post:4]
           [--met /usr/share/gnubg/met/Kazaross-XG2.xml] [--out FILE]

``craw:N``: the Crawford game, the leader 1-away, the trailer N-away; ``post:N``: a
post-Crawford game at the same score.  The figure is the leader's match winning chance.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from gammon.ai.engine import Engine
from gammon.ai.met import default_met, load_met
from gammon.training.met_rollouts import engine_case_rollout, opening_positions, roll_out_score

DEFAULT_MET = "/usr/share/gnubg/met/Kazaross-XG2.xml"


def parse_scores(text: str) -> list[tuple[bool, int]]:
    """``craw:2,post:4`` -> [(True, 2), (False, 4)] (Crawford?, the trailer's points away)."""
    out = []
    for part in text.split(","):
        kind, _, n = part.partition(":")
        if kind not in ("craw", "post") or not n.isdigit() or not 2 <= int(n) <= 15:
            raise SystemExit(f"--scores: {part!r} is not craw:N or post:N with N from 2 to 15")
        out.append((kind == "craw", int(n)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--per-case", type=int, default=1000, help="trials per opening case (30 cases)")
    ap.add_argument("--scores", default="craw:2,craw:3,craw:4,post:2,post:4,post:5")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--met", default=DEFAULT_MET)
    ap.add_argument("--out", type=Path)
    a = ap.parse_args(argv)
    if not 1 <= a.per_case <= 100_000:
        ap.error("--per-case must be from 1 to 100,000")
    engine = Engine(plies=0)
    table = default_met(15)
    ref = load_met(a.met) if Path(a.met).is_file() else None
    openings = opening_positions(engine)
    case = engine_case_rollout(engine.evaluator, False)
    out = [f"$ python benchmarks/met_crawford.py --per-case {a.per_case} --scores {a.scores} "
           f"--seed {a.seed}",
           f"{30 * a.per_case} trials a score (the 30 opening cases), cubeful, our 0-ply play; "
           "the leader's MWC in %",
           "score                 ours     SE   model   " + (ref.name if ref else "(no published table)")]
    print("\n".join(out), flush=True)
    for crawford, n in parse_scores(a.scores):
        t0 = time.perf_counter()
        mean, se = roll_out_score(1, n, table, openings, case, 30 * a.per_case, a.seed, crawford)
        name = f"{'Crawford' if crawford else 'post-Crawford'} 1a/{n}a"
        theirs_v = f"{100 * ref.equity(1, n, crawford=crawford):6.2f}" if ref else "     -"
        model = 100 * table.equity(1, n, crawford=crawford)
        line = (f"{name:<20} {100 * mean:6.2f}  {100 * se:5.2f}  {model:6.2f}"
                f"  {theirs_v}   ({time.perf_counter() - t0:.0f} s)")
        out.append(line)
        print(line, flush=True)
    if a.out:
        a.out.write_text("\n".join(out) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
