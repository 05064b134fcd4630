"""Our own match equity table beside a published one (default: Kazaross-XG2 as GNU Backgammon
ships it), entry by entry to 11-away: pre-Crawford, the Crawford game and post-Crawford.

Issue 35 asks for ours within 0.5% MWC of Kazaross-XG2 at every score to 11-away.  The
published table is read here, in the benchmark, as a reference to measure against; it is
never a default (a user may load it with ``--met``).

    .venv/bin/python benchmarks/met_compare.py [--met /usr/share/gnubg/met/Kazaross-XG2.xml]
        [--size 11] [--out benchmarks/results/met_compare.txt]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from gammon.ai.met import MatchEquityTable, default_met, load_met

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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--met", default=DEFAULT_REFERENCE, help="the published table (GNU Backgammon XML)")
    ap.add_argument("--size", type=int, default=11)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    text = report(default_met(), load_met(args.met), args.size)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
