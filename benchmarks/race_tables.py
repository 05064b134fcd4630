#!/usr/bin/env python3
"""The race net against the exact tables, on the races the short-side table now covers.

Since the bear-off database holds every position of up to four checkers
anywhere on the board (:mod:`gammon.ai.bearoff`, the short-side table), a race
where each side is home or down to four checkers is valued from the tables;
before, the race net valued every race with a checker outside a home board.
This script measures what that changed: random such races (one side with one
to four checkers, at least one outside its home board; the other side home with
one to fifteen checkers, or also down to four), valued by the race net (the
database without its short-side table, :meth:`BearoffDatabase.home_only`) and
by the tables, for the player on roll, standard backgammon.  It prints the mean
difference net - tables of the winning chance and of the cubeless equity, their
mean absolute differences, the share of positions the net misvalues by more
than 0.10 in equity, and the worst position with its Position ID.

Usage: python benchmarks/race_tables.py [--positions 4000] [--seed 1] [--weights W]
(``--weights`` defaults to the shipped standard net.)
"""

from __future__ import annotations

import argparse

import numpy as np

from gammon.ai.bearoff import load as load_bearoff
from gammon.ai.bearoff import race_row
from gammon.ai.evaluator import ClassifyingEvaluator, PositionClass, classify, default_network
from gammon.ai.network import Network
from gammon.ai.probabilities import equities
from gammon.core.errors import InvalidPositionError
from gammon.core.position import Position


def _side(rng: np.random.Generator, short: bool) -> list[int]:
    """25 counts of one side: up to four checkers anywhere (``short``), else home only."""
    points, most = (24, 4) if short else (6, 15)
    row = [0] * 25
    for p in rng.integers(0, points, size=int(rng.integers(1, most + 1))):
        row[int(p)] += 1
    return row


def stragglers_left(p: Position) -> int:
    """Checkers left of the side with one outside its home board (the fewer, if both have)."""
    sides = zip((p.me, p.opp), p.checkers_off, strict=True)
    return min(p.variant.checkers - off for side, off in sides if any(side[6:24]))


def random_races(n: int, seed: int) -> list[Position]:
    """``n`` races that the tables cover, one side with a checker outside its home board."""
    rng = np.random.default_rng(seed)
    out: list[Position] = []
    while len(out) < n:
        straggler = _side(rng, True)
        if not any(straggler[6:24]):
            continue
        other = _side(rng, bool(rng.random() < 0.5))
        rows = (straggler, other) if rng.random() < 0.5 else (other, straggler)
        try:
            p = Position(rows[0], rows[1])
        except InvalidPositionError:  # both sides on one point
            continue
        b = np.frombuffer(p.board, dtype=np.uint8)
        if classify(p) is PositionClass.RACE and race_row(b, 0, 15) >= 0 and race_row(b, 25, 15) >= 0:
            out.append(p)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--weights", default=None)
    a = ap.parse_args(argv)
    net = Network.load(a.weights) if a.weights else default_network()
    db = load_bearoff()
    tables = ClassifyingEvaluator(net, db)
    race_net = ClassifyingEvaluator(net, db.home_only())
    positions = random_races(a.positions, a.seed)
    exact = tables.evaluate_batch(positions)
    guess = race_net.evaluate_batch(positions)
    dw = guess[:, 0] - exact[:, 0]
    e_guess, e_exact = equities(guess), equities(exact)
    de = e_guess - e_exact
    n = len(positions)
    worst = int(np.argmax(np.abs(de)))
    print(f"race net ({a.weights or 'shipped'}) against the exact tables: {n} random races of"
          f" up to four checkers on one side, seed {a.seed}; player on roll")
    print(f"  win:    mean net - tables {dw.mean():+.4f} +- {dw.std(ddof=1) / np.sqrt(n):.4f},"
          f" mean |difference| {np.abs(dw).mean():.4f}")
    print(f"  equity: mean net - tables {de.mean():+.4f} +- {de.std(ddof=1) / np.sqrt(n):.4f},"
          f" mean |difference| {np.abs(de).mean():.4f}, share > 0.10: {np.mean(np.abs(de) > 0.10):.3f}")
    # By the checkers the side with a straggler has left (the fewer, the further from the net's data).
    left = np.array([stragglers_left(p) for p in positions])
    for k in range(1, 5):
        sel = left == k
        if sel.any():
            print(f"  {k} checker{'s' if k > 1 else ' '} left: {int(sel.sum()):5d} races, win net - tables"
                  f" {dw[sel].mean():+.4f}, mean |win difference| {np.abs(dw[sel]).mean():.4f}")
    print(f"  worst: {positions[worst].position_id}  net win {guess[worst, 0]:.3f}, tables"
          f" {exact[worst, 0]:.3f} (equity {e_guess[worst]:+.3f} against {e_exact[worst]:+.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
