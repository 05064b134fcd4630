"""Our own match equity table beside a published one (default: Kazaross-XG2 as GNU Backgammon
ships it), entry by entry to 11-away: pre-Crawford, the Crawford game and post-Crawford.

Issue 35 asks for ours within 0.5% MWC of Kazaross-XG2 at every score to 11-away.  The
published table is read here, in the benchmark, as a reference to measure against; it is
never a default (a user may load it with ``--met``).

    .venv/bin/python benchmarks/met_compare.py [--met /usr/share/gnubg/met/Kazaross-XG2.xml]
        [--size 11] [--out benchmarks/results/met_compare.txt] [--ours met11.json | --model]

By default it compares the table in use: the model with the pre-Crawford entries of the
shipped ``gammon train met`` run (``gammon.ai.met.ROLLOUT_TABLE_FILE``), and lists the
rolled-out entries with their standard errors: how many are within 0.5% of the reference,
and how many within 0.5% or within two standard errors (a difference the rollouts' noise may
explain).  ``--ours FILE`` does the same for another run's file, ``--model`` compares the
model alone.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from gammon.ai.met import ROLLOUT_TABLE_FILE, MatchEquityTable, load_met, load_rollout_met
from gammon.formats.met_rollout_file import RolloutMetFile, read_rollout_met

DEFAULT_REFERENCE = "/usr/share/gnubg/met/Kazaross-XG2.xml"


def rows(ours: MatchEquityTable, ref: MatchEquityTable, size: int) -> list[tuple[str, int, int, float, float]]:
    """(kind, away0, away1, ours, reference) for every score to ``size``-away, player 0's chance."""
    out = []
    for a in range(2, size + 1):
        for b in range(2, size + 1):
            out.append(("pre", a, b, ours.equity(a, b), ref.equity(a, b)))
    for b in range(2, size + 1):
        out.append(("crawford", 1, b, ours.equity(1, b, crawford=True), ref.equity(1, b, crawford=True)))
        out.append(("post", 1, b, ours.equity(1, b), ref.equity(1, b)))
    return out


def report(ours: MatchEquityTable, ref: MatchEquityTable, size: int) -> str:
    table = rows(ours, ref, size)
    lines = [f"Our table ({ours.name}) against {ref.name!r}, player 0's MWC, to {size}-away", ""]
    for kind in ("pre", "crawford", "post"):
        part = [r for r in table if r[0] == kind]
        diffs = [abs(r[3] - r[4]) for r in part]
        worst = max(part, key=lambda r: abs(r[3] - r[4]))
        within = sum(d <= 0.005 for d in diffs)
        lines.append(f"{kind:9s} {len(part):4d} scores  mean |diff| {100 * sum(diffs) / len(diffs):5.2f}%  "
                     f"max {100 * max(diffs):5.2f}% at {worst[1]}-away/{worst[2]}-away "
                     f"(ours {100 * worst[3]:.1f}%, theirs {100 * worst[4]:.1f}%)  "
                     f"within 0.5%: {within}/{len(part)}")
    lines += ["", "pre-Crawford difference (ours - theirs) in % MWC; rows player 0 away, columns player 1",
              "away " + "".join(f"{b:>6}" for b in range(2, size + 1))]
    for a in range(2, size + 1):
        lines.append(f"{a:>4} " + "".join(f"{100 * (ours.equity(a, b) - ref.equity(a, b)):6.2f}"
                                          for b in range(2, size + 1)))
    return "\n".join(lines)


def rolled_report(run: RolloutMetFile, ours: MatchEquityTable, ref: MatchEquityTable) -> str:
    """The rolled-out entries (player 0's MWC at a < b) beside the reference, with their SEs."""
    order = sorted(run.entries.values(), key=lambda e: (e.a + e.b, e.a))
    model = MatchEquityTable()
    n_all = (run.max_away - 1) * (run.max_away - 2) // 2
    lines = [f"Rolled-out entries ({len(order)} of {n_all} pairs 2 <= a < b <= {run.max_away}; "
             f"settings {run.settings}); the others below are the model's", "",
             "   a   b    ours     SE  theirs   diff  |diff|/SE   model  model diff"]
    diffs = []
    for e in order:
        theirs = ref.equity(e.a, e.b)
        d = e.mwc - theirs
        diffs.append((abs(d), e.se))
        z = abs(d) / e.se if e.se > 0 else float("inf")
        m = model.equity(e.a, e.b)
        lines.append(f"{e.a:>4}{e.b:>4}  {100 * e.mwc:6.2f} {100 * e.se:6.2f}  {100 * theirs:6.2f} "
                     f"{100 * d:+6.2f}  {z:9.1f}  {100 * m:6.2f}  {100 * (m - theirs):+6.2f}")
    if diffs:
        n = len(diffs)
        within = sum(d <= 0.005 for d, _ in diffs)
        either = sum(d <= 0.005 or d <= 2 * se for d, se in diffs)
        model_within = sum(abs(model.equity(e.a, e.b) - ref.equity(e.a, e.b)) <= 0.005 for e in order)
        mean_d, mean_se = sum(d for d, _ in diffs) / n, sum(s for _, s in diffs) / n
        lines += ["", f"rolled-out entries: mean |diff| {100 * mean_d:.2f}%, "
                      f"max {100 * max(d for d, _ in diffs):.2f}%, mean SE {100 * mean_se:.2f}%",
                  f"within 0.5%: {within}/{n}; within 0.5% or 2 SE: {either}/{n} "
                  f"(the model alone at these scores: within 0.5% {model_within}/{n})"]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--met", default=DEFAULT_REFERENCE, help="the published table (GNU Backgammon XML)")
    ap.add_argument("--size", type=int, default=11)
    ap.add_argument("--out", type=Path)
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--ours", type=Path, default=ROLLOUT_TABLE_FILE,
                       help="a gammon train met file: our rolled-out entries (default: the shipped ones)")
    which.add_argument("--model", action="store_true", help="the model table alone, no rolled-out entries")
    args = ap.parse_args()
    ref = load_met(args.met)
    if args.model:
        text = report(MatchEquityTable(), ref, args.size)
    else:
        ours = load_rollout_met(args.ours)
        text = rolled_report(read_rollout_met(args.ours), ours, ref) + "\n\n" + report(ours, ref, args.size)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
