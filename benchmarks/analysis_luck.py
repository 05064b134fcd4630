#!/usr/bin/env python3
"""Luck: the spread of luck-adjusted results against raw results over self-play games.

gammon's 0-ply engine plays itself (money, cube in use, seeded dice); each game
is analysed (``gammon.analysis``, luck at 0-ply as always, plays at ``--plies``)
and its raw result (points won by player 0) is set beside the luck-adjusted
result (raw minus the luck difference, in points).  Between equal players the
adjusted result should have a much smaller standard deviation: that is what
makes it a better measure of skill than the score.

Usage: python benchmarks/analysis_luck.py [--games 100] [--seed 1] [--plies 0]
"""

from __future__ import annotations

import argparse
import statistics
import time

from gammon.analysis.analyse import analyse_record
from gammon.core.dice import RandomDice
from gammon.core.game import Rules
from gammon.play.ai_player import AIPlayer
from gammon.play.session import play_match


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plies", type=int, default=0)
    args = ap.parse_args()
    players = (AIPlayer("expert", seed=args.seed), AIPlayer("expert", seed=args.seed + 1))
    t = time.perf_counter()
    match = play_match(Rules(), players, RandomDice(args.seed), games_limit=args.games)
    a = analyse_record(match.rules, [g.record for g in match.games], plies=args.plies, processes=1,
                       games_limit=args.games, explain=False)
    raw = [float(g.summary.points if g.summary.winner == 0 else -g.summary.points) for g in a.games]
    adjusted = [r - g.luck_points for r, g in zip(raw, a.games, strict=True)]
    n = len(raw)
    print(f"{n} money games, 0-ply engine against itself, analysed at {args.plies}-ply "
          f"in {time.perf_counter() - t:.0f} s")
    print(f"raw result:           mean {statistics.fmean(raw):+.3f}  SD {statistics.stdev(raw):.3f} "
          "points/game")
    print(f"luck-adjusted result: mean {statistics.fmean(adjusted):+.3f}  SD {statistics.stdev(adjusted):.3f} "
          "points/game")
    print(f"SD ratio adjusted/raw: {statistics.stdev(adjusted) / statistics.stdev(raw):.2f}")


if __name__ == "__main__":
    main()
