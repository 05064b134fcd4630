#!/usr/bin/env python3
"""Move choice speed: gammon's engine beside GNU Backgammon's ``best_move``, in one run.

Positions come from seeded games of gammon's own 0-ply engine against a
random player (distinct positions with a roll that has at least two legal
plays; no GNU Backgammon evaluation while sampling, so its cache starts
cold, as in the referee's ``bench_anchors.py``).  Each position is visited
once by each engine, alternating chunks so both run under the same load:

  0-ply: ``Engine("expert").best_play(position, dice)`` (a ``Play`` built for the
         chosen play) vs ``gnubg_nn.best_move(board, d1, d2, n=0)``;
  2-ply: ``Engine(plies=2).best_play`` vs ``gnubg_nn.best_move(..., n=2)`` on fewer
         positions.

Printed: microseconds per call and the ratio (gnubg time / gammon time: above 1
means gammon is faster), and each target met or missed: 0-ply ratio >= 1.5, 2-ply
ratio >= 2 (issue 12).

Usage: python benchmarks/engine_speed.py [--positions 4000] [--positions2 40] [--seed 7]
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

#: (ratio gnubg time / gammon time, where it is set) for the 0-ply and the 2-ply rows.
TARGETS = ((1.5, "issue 12"), (2.0, "issue 12"))


def sample(n: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """``n`` distinct (position, dice) decisions with two or more legal plays."""
    rng = random.Random(seed)
    engine = Engine("expert")
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
        t0 = time.perf_counter()
        for i in range(lo, hi):
            ours(*items[i])
        t_ours += time.perf_counter() - t0
        if theirs is not None:
            t0 = time.perf_counter()
            for i in range(lo, hi):
                d1, d2 = items[i][1]
                theirs(lists[i], d1, d2)
            t_theirs += time.perf_counter() - t0
    n = len(items)
    return t_ours / n, (t_theirs / n if theirs is not None else None)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=4000, help="0-ply decisions")
    ap.add_argument("--positions2", type=int, default=40, help="2-ply decisions")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", help="write the figures here")
    a = ap.parse_args(argv)
    try:
        import gnubg_nn
    except ImportError:
        gnubg_nn = None
        print("gnubg-nn not installed (pip install 'gnubg-nn==1.1.0a11'): ours only")

    items = sample(a.positions + a.positions2 + 200, a.seed)
    warm, items0, items2 = items[:200], items[200:200 + a.positions], items[200 + a.positions:]
    e0 = Engine("expert")
    e2 = Engine(plies=2)
    for p, d in warm[:50]:  # compile / load the numba cache, fill nothing gnubg would reuse
        e0.best_play(p, d)
    e2.best_play(*warm[0])

    rows = []
    g0 = None if gnubg_nn is None else (lambda b, d1, d2: gnubg_nn.best_move(b, d1, d2, n=0))
    ours0, theirs0 = chunked(items0, e0.best_play, g0, 250)
    rows.append(("0-ply best play", len(items0), ours0, theirs0))
    g2 = None if gnubg_nn is None else (lambda b, d1, d2: gnubg_nn.best_move(b, d1, d2, n=2))
    ours2, theirs2 = chunked(items2, e2.best_play, g2, 5)
    rows.append(("2-ply best play", len(items2), ours2, theirs2))

    print(f"python {sys.version.split()[0]} on {platform.machine()}, {os.cpu_count()} CPUs; "
          f"weights: {e0.network.meta.get('games', '?')} training games")
    print(f"{'':18} {'positions':>9} {'gammon ms':>10} {'gnubg_nn ms':>12} {'ratio':>7}")
    out = []
    for name, n, o, t in rows:
        ratio = (t / o) if t else None
        print(f"{name:18} {n:9d} {o * 1e3:10.4f} {(t * 1e3 if t else float('nan')):12.4f} "
              f"{(ratio if ratio else float('nan')):7.2f}")
        out.append({"name": name, "positions": n, "gammon_ms": o * 1e3,
                    "gnubg_ms": t * 1e3 if t else None, "ratio": ratio})
    print("ratio = gnubg_nn time / gammon time (above 1: gammon faster)")
    for (name, _, o, t), (target, issue) in zip(rows, TARGETS, strict=True):
        verdict = "not measured (no gnubg-nn)" if not t else ("MET" if t / o >= target else "MISSED")
        print(f"target {name}: ratio >= {target} ({issue}): {verdict}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
