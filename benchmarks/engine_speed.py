#!/usr/bin/env python3
"""Move choice speed: gammon's engine beside GNU Backgammon's ``best_move``, in one run.

Positions come from seeded games of gammon's own 0-ply engine against a
random player (distinct positions with a roll that has at least two legal
plays; no GNU Backgammon evaluation while sampling, so its cache starts
cold, as in the referee's ``bench_anchors.py``).  Each position is visited
once by each engine, alternating chunks so both run under the same load:

  0-ply: ``Engine("expert").best_play(position, dice)`` (a ``Play`` built for the
         chosen play) vs ``gnubg_nn.best_move(board, d1, d2, n=0)``;
  2-ply: ``Engine("strongest").best_play`` (2-ply with the pruning net's
         pre-filter at the inner nodes) and ``Engine(plies=2)`` (no pruning) vs
         ``gnubg_nn.best_move(..., n=2)`` on fewer positions.

Printed: milliseconds per call and the ratio (gnubg time / gammon time: above 1
means gammon faster), with the targets of issue 12 (0-ply >= 1.5, pruned 2-ply
>= 2) and MET/MISSED.  Time is the CPU time of the thread (``time.thread_time``):
on a shared machine the time spent waiting for a core is not counted (the load
average is printed).  ``--agreement N`` also plays N more positions at 2-ply
with and without pruning and reports how often both choose the same play (the
strength cost of pruning).

Usage: python benchmarks/engine_speed.py [--positions 4000] [--positions2 40] [--agreement 0] [--seed 7]
       [--weights W] [--sample-weights W]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence

from gammon import Position
from gammon.ai.engine import Engine


def sample(n: int, seed: int, weights: str | None = None) -> list[tuple[Position, tuple[int, int]]]:
    """``n`` distinct (position, dice) decisions with two or more legal plays, from games
    whose moves are random or the expert level's (with ``weights``: that net's at 0 plies)."""
    rng = random.Random(seed)
    engine = Engine("expert", weights=weights)
    out: list[tuple[Position, tuple[int, int]]] = []
    seen: set[bytes] = set()
    while len(out) < n:
        pos = Position.initial()
        for turn in range(300):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = pos.legal_plays(dice)
            if len(plays) >= 2 and pos.board not in seen:
                seen.add(pos.board)
                out.append((pos, dice))
            if len(plays) == 0:
                pos = pos.swap()
                continue
            play = engine.best_play(pos, dice) if turn % 2 else plays[rng.randrange(len(plays))]
            if play.position.is_game_over:
                break
            pos = play.position.swap()
    return out[:n]


def chunked(items: Sequence[tuple[Position, tuple[int, int]]],
            ours: Callable[[Position, tuple[int, int]], object],
            theirs: Callable[[list[list[int]], int, int], object] | None,
            chunk: int) -> tuple[float, float | None]:
    """Seconds per call of each, alternating chunks of ``chunk`` positions."""
    lists = [[list(p.opp), list(p.me)] for p, _ in items]
    t_ours = 0.0
    t_theirs = 0.0
    for lo in range(0, len(items), chunk):
        hi = min(len(items), lo + chunk)
        t0 = time.thread_time()
        for i in range(lo, hi):
            ours(*items[i])
        t_ours += time.thread_time() - t0
        if theirs is not None:
            t0 = time.thread_time()
            for i in range(lo, hi):
                d1, d2 = items[i][1]
                theirs(lists[i], d1, d2)
            t_theirs += time.thread_time() - t0
    n = len(items)
    return t_ours / n, (t_theirs / n if theirs is not None else None)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=4000, help="0-ply decisions")
    ap.add_argument("--positions2", type=int, default=40, help="2-ply decisions")
    ap.add_argument("--agreement", type=int, default=0,
                    help="positions on which pruned and unpruned 2-ply choices are compared")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--weights", help="a weights file instead of the packaged one")
    ap.add_argument("--sample-weights", help="the net that plays the sampled games (default: the expert "
                    "level's own): two engines timed against each other pass the same file, so that "
                    "both meet the same positions")
    a = ap.parse_args(argv)
    try:
        import gnubg_nn
    except ImportError:
        gnubg_nn = None
        print("gnubg-nn not installed (pip install 'gnubg-nn==1.1.0a11'): ours only")

    items = sample(a.positions + a.positions2 + a.agreement + 200, a.seed, a.sample_weights)
    warm, items0 = items[:200], items[200:200 + a.positions]
    items2 = items[200 + a.positions:200 + a.positions + a.positions2]
    items_agree = items[200 + a.positions + a.positions2:]
    e0 = Engine("expert", weights=a.weights)
    e2 = Engine(plies=2, weights=a.weights)
    ep = Engine("strongest", weights=a.weights)
    for p, d in warm[:50]:  # compile / load the numba cache, fill nothing gnubg would reuse
        e0.best_play(p, d)
    e2.best_play(*warm[0])
    ep.best_play(*warm[0])

    rows = []
    g0 = None if gnubg_nn is None else (lambda b, d1, d2: gnubg_nn.best_move(b, d1, d2, n=0))
    ours0, theirs0 = chunked(items0, e0.best_play, g0, 250)
    rows.append(("0-ply best play", len(items0), ours0, theirs0))
    g2 = None if gnubg_nn is None else (lambda b, d1, d2: gnubg_nn.best_move(b, d1, d2, n=2))
    ours2, theirs2 = chunked(items2, ep.best_play, g2, 5)
    rows.append(("2-ply pruned", len(items2), ours2, theirs2))
    ours2u, _ = chunked(items2, e2.best_play, None, 5)
    rows.append(("2-ply unpruned", len(items2), ours2u, theirs2))

    print(f"python {sys.version.split()[0]} on {platform.machine()}, {os.cpu_count()} CPUs; "
          f"weights: {e0.network.meta.get('games', '?')} training games, {e0.network.hidden} hidden"
          f" units; load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; thread CPU time")
    print(f"{'':18} {'positions':>9} {'gammon ms':>10} {'gnubg_nn ms':>12} {'ratio':>7} {'target':>7}  result")
    targets = {"0-ply best play": 1.5, "2-ply pruned": 2.0}
    out = []
    for name, n, o, t in rows:
        ratio = (t / o) if t else None
        target = targets.get(name)
        verdict = "" if target is None or ratio is None else ("MET" if ratio >= target else "MISSED")
        print(f"{name:18} {n:9d} {o * 1e3:10.4f} {(t * 1e3 if t else float('nan')):12.4f} "
              f"{(ratio if ratio else float('nan')):7.2f} {f'>={target:g}' if target else '':>7}  {verdict}")
        out.append({"name": name, "positions": n, "gammon_ms": o * 1e3,
                    "gnubg_ms": t * 1e3 if t else None, "ratio": ratio, "target": target})
    print("ratio = gnubg_nn time / gammon time (above 1: gammon faster)")
    if items_agree:
        same = 0
        for k, (p, d) in enumerate(items_agree, 1):
            same += ep.best_play(p, d).position == e2.best_play(p, d).position
            if k % 50 == 0:
                print(f"  agreement: {same}/{k}", file=sys.stderr, flush=True)
        n = len(items_agree)
        share = same / n
        se = (share * (1 - share) / n) ** 0.5
        print(f"pruned 2-ply chose the unpruned 2-ply play in {same}/{n} positions "
              f"({100 * share:.1f}% +- {100 * se:.1f}%)")
        out.append({"name": "agreement", "positions": n, "same": same})
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
