#!/usr/bin/env python3
"""How often games end in gammons in each engine's own play: gammon's rollout of the opening
position beside GNU Backgammon 1.07's, in one run.

Why: our rolled-out match equity table gives the leader about 0.5% more than Kazaross-XG2
at most scores (``met_compare.py``), and even the Crawford game, which has no cube at all,
comes out that way in our own play.  A match's chances move with how many games end in
gammons, so this measures that rate in each engine's self-play, each with its own checker
play, and nothing else.

Both engines roll out the opening position (the player on roll has not rolled; doubles allowed
as the first roll) cubelessly, with ``--trials`` trials (default 5,184), checker play at 0-ply,
quasi-random dice and variance reduction, on one core, money play.  Each prints the five
probabilities of the player on roll (win, win gammon, win backgammon, lose gammon, lose
backgammon) with their standard errors.  From them:

  gammons per game   wins by a gammon or backgammon plus losses by one (both sides' gammons);
  share of wins      gammons or backgammons among the player on roll's wins, and among his losses;
  Crawford 1a/2a     what that rate alone gives the Crawford game's leader (1-away) against
                     2-away: the trailer needs a gammon, or a single and then the last game,
                     so he wins 1/2 x (1/2 + g), g the gammon rate per game of one side (the
                     two sides' mean), when the game's chances are even and play is money play.

The same line of our model table (its assumed 26% of wins gammons) and of the published table
(``--met``, default Kazaross-XG2 as GNU Backgammon ships it, when the file is there) stand
beside them.  gnubg keeps its defaults where gammon has no such setting (its trials stop at
its one-sided bear-off database, which gives the gammon chances there exactly).

Usage: python benchmarks/gammon_rate.py [--trials 5184] [--seed 3] [--gnubg /usr/games/gnubg]
       [--met /usr/share/gnubg/met/Kazaross-XG2.xml] [--out FILE]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import time
from pathlib import Path

from gammon.ai.evaluator import default_evaluator
from gammon.ai.met import MatchEquityTable, load_met
from gammon.ai.rollout import RolloutSettings, rollout
from gammon.core.position import Position

sys.path.insert(0, str(Path(__file__).resolve().parent))
import rollout_speed  # noqa: E402  (the gnubg script and runner of the speed benchmark)

OPENING = rollout_speed.OPENING
DEFAULT_MET = "/usr/share/gnubg/met/Kazaross-XG2.xml"
NAMES = ("win", "win g", "win bg", "lose g", "lose bg")
Probs = tuple[list[float], list[float]]


def ours(trials: int, seed: int) -> Probs:
    """gammon's five probabilities of the opening and their standard errors."""
    s = RolloutSettings(trials=trials, seed=seed, variance_reduction=True, processes=1)
    r = rollout(Position.initial(), default_evaluator(), s)
    return [float(x) for x in r.probs], [float(x) for x in r.se_probs]


_ROW = r"^ +(\d\.\d+) (\d\.\d+) (\d\.\d+) - (\d\.\d+) (\d\.\d+) (\d\.\d+) CL"


def parse_gnubg(text: str) -> Probs:
    """gnubg's final five probabilities and SEs: its last result is a line
    ``  0.528 0.149 0.007 - 0.472 0.126 0.005 CL +0.081`` and the SEs in brackets below it."""
    text = text.replace("\r", "\n")
    tail = text[text.rfind("Rollout done"):] if "Rollout done" in text else text
    means = re.findall(_ROW, tail, re.M)
    ses = re.findall(r"^ \[(\d\.\d+) (\d\.\d+) (\d\.\d+) - (\d\.\d+) (\d\.\d+) (\d\.\d+) CL", tail, re.M)
    if not means or not ses:
        raise RuntimeError("gnubg's output has no rollout result:\n" + text[-2000:])
    m, e = means[-1], ses[-1]
    # gnubg prints win, wg, wbg - lose, lg, lbg: drop its "lose" column.
    return ([float(m[i]) for i in (0, 1, 2, 4, 5)], [float(e[i]) for i in (0, 1, 2, 4, 5)])


def theirs(exe: str, trials: int, seed: int) -> Probs:
    """GNU Backgammon's five probabilities of the opening from its own rollout, with
    ``rollout_speed.py``'s settings (cubeless, variance-reduced) and runner."""
    stdout, _, _ = rollout_speed.run_gnubg_script(exe, rollout_speed.gnubg_script(trials, seed, False, True))
    return parse_gnubg(stdout)


def crawford_leader(gammon_rate: float) -> float:
    """The Crawford game's leader's (1-away) chance against 2-away when each side's games
    end in gammons at ``gammon_rate`` and the game's chances are even (see the module doc)."""
    return 1.0 - 0.5 * (0.5 + gammon_rate)


def lines(name: str, p: list[float], se: list[float]) -> list[str]:
    """One engine's block: the probabilities, then the figures derived from them."""
    out = [f"{name}: " + "  ".join(f"{n} {v:.4f} +- {e:.4f}" for n, v, e in zip(NAMES, p, se, strict=True))]
    per_game = p[1] + p[3]
    se_game = (se[1] ** 2 + se[3] ** 2) ** 0.5
    out.append(f"  gammons per game {per_game:.4f} +- {se_game:.4f}; share of wins {p[1] / p[0]:.3f}, "
               f"of losses {p[3] / (1.0 - p[0]):.3f}; Crawford 1a/2a leader "
               f"{100 * crawford_leader(per_game / 2):.2f}%")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trials", type=int, default=5184)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--gnubg", default=shutil.which("gnubg") or "/usr/games/gnubg")
    ap.add_argument("--met", default=DEFAULT_MET)
    ap.add_argument("--out", type=Path)
    a = ap.parse_args(argv)
    if not 36 <= a.trials <= 1_000_000:
        ap.error("--trials must be from 36 to 1,000,000")
    report = [f"$ python benchmarks/gammon_rate.py --trials {a.trials} --seed {a.seed}",
              f"the opening position {OPENING}, cubeless, 0-ply checker play, variance reduction, "
              f"{a.trials} trials each, one core; load average {os.getloadavg()[0]:.1f}"]
    t0 = time.perf_counter()
    p, se = ours(a.trials, a.seed)
    report += lines("gammon", p, se) + [f"  ({time.perf_counter() - t0:.0f} s)"]
    if Path(a.gnubg).is_file():
        t0 = time.perf_counter()
        gp, gse = theirs(a.gnubg, a.trials, a.seed)
        report += lines("GNU Backgammon", gp, gse) + [f"  ({time.perf_counter() - t0:.0f} s)"]
        diff = (p[1] + p[3]) - (gp[1] + gp[3])
        se_diff = (se[1] ** 2 + se[3] ** 2 + gse[1] ** 2 + gse[3] ** 2) ** 0.5
        report.append(f"gammons per game, gammon - GNU Backgammon: {diff:+.4f} +- {se_diff:.4f}")
    else:
        report.append(f"GNU Backgammon: not run ({a.gnubg} is not there)")
    model = MatchEquityTable(max_away=2)
    report.append(f"our model table (gammons {model.parameters.gammons:.0%} of wins): Crawford 1a/2a "
                  f"leader {100 * model.equity(1, 2, crawford=True):.2f}%")
    if Path(a.met).is_file():
        ref = load_met(a.met)
        report.append(f"{ref.name}: Crawford 1a/2a leader {100 * ref.equity(1, 2, crawford=True):.2f}%")
    text = "\n".join(report)
    print(text)
    if a.out:
        a.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
