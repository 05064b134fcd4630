#!/usr/bin/env python3
"""Move generation speed: gammon beside GNU Backgammon and OpenSpiel, in one run.

Over the positions and dice of the referee's 2,000 public rule vectors, each
candidate runs for a fixed time (``--seconds``, single thread) and reports
calls per second (one call = all legal results of one roll):

  (a) gammon fast path: ``movegen.generate`` on prepared board arrays, one roll
      per call from Python (what search and rollouts use);
  (b) gammon batch: ``movegen.generate_batch`` over all positions at once
      (rate in positions per second);
  (c) gammon object API: ``len(position.legal_plays(dice))``, and the same with
      every ``Play`` built (``[p.position for p in plays]``);
  (d) GNU Backgammon's generator, ``gnubg_nn.moves`` (PyPI ``gnubg-nn``), the
      reference the ratios are taken against;
  (e) OpenSpiel ``legal_actions`` (PyPI ``open-spiel``): it cannot be given
      arbitrary positions, so it runs over decision states reached by random
      games, as the referee's ``bench_anchors.py`` does.

Targets: fast path >= 1.5x gnubg-nn, batch >= 3x, object API >= 0.25x.  Time is
the CPU time of the measuring thread (``time.thread_time``), so the time the
process waits for a core on a shared machine is not counted; rounds are
interleaved, and each row's best round is compared with gnubg-nn's best round
(the ratio the verdict uses: the least disturbed measurement of each, as
``timeit`` advises) beside the ratio over all rounds.  A
reference engine that is not installed is reported as such and skipped
(``pip install -e '.[bench]'`` installs both).

Usage: python benchmarks/movegen.py [--seconds 3] [--rounds 6] [--vectors PATH]
The vectors are found at $GAMMON_SHARED/referee/vectors_public.jsonl, or at
../shared/referee/ beside the repository.
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from gammon import Position
from gammon.core import movegen

REPO = Path(__file__).resolve().parent.parent
#: The clock of every measurement: CPU time of this thread (load from other processes not counted).
clock = time.thread_time

#: (row name, minimum ratio to gnubg-nn) for the rows that have a target.
TARGETS = {
    "gammon fast path (generate)": 1.5,
    "gammon batch (generate_batch)": 3.0,
    "gammon object API len(legal_plays)": 0.25,
    "gammon object API + build all plays": 0.25,
}
REFERENCE = "gnubg-nn moves"


@dataclass
class Row:
    """One line of the table: a benchmark and what it has measured so far."""

    name: str
    run: Callable[[float], tuple[int, float]] | None
    note: str = ""
    calls: int = 0
    elapsed: float = 0.0
    best: float = 0.0

    @property
    def per_second(self) -> float | None:
        """Calls per second over every round, None if it was not measured."""
        return self.calls / self.elapsed if self.run is not None and self.elapsed else None

    def add(self, n: int, elapsed: float) -> None:
        """Count one round: its calls, its time, and the best rate of any round so far."""
        self.calls += n
        self.elapsed += elapsed
        if elapsed > 0:
            self.best = max(self.best, n / elapsed)


def find_vectors(explicit: str | None) -> Path:
    """The public vectors file: --vectors, $GAMMON_SHARED/referee, or ../shared/referee."""
    if explicit:
        return Path(explicit)
    shared = os.environ.get("GAMMON_SHARED")
    base = Path(shared) if shared else REPO.parent / "shared"
    return base / "referee" / "vectors_public.jsonl"


def load_vectors(path: Path) -> list[dict[str, Any]]:
    """Every vector of the JSON-lines file."""
    with path.open() as f:
        return [json.loads(line) for line in f if line.strip()]


def timed(fn: Callable[[int], object], n_items: int) -> Callable[[float], tuple[int, float]]:
    """A runner calling ``fn(i)``, cycling i over ``range(n_items)``, for a given time.

    The cycle resumes where the previous run stopped, so rounds cover every item.
    """
    state = [0]

    def run(seconds: float) -> tuple[int, float]:
        n = 0
        i = state[0]
        t0 = clock()
        while True:
            fn(i)
            n += 1
            i += 1
            if i == n_items:
                i = 0
            if (n & 63) == 0 and clock() - t0 >= seconds:
                break
        state[0] = i
        return n, clock() - t0

    return run


def fast_path(boards: np.ndarray, dice: np.ndarray, flags: int, checkers: int) -> Row:
    """(a) ``movegen.generate`` once per roll, called from Python."""
    ws = movegen.Workspace()
    rows = [boards[i] for i in range(len(boards))]
    d = [(int(a), int(b)) for a, b in dice]
    gen = movegen.generate
    out_b, out_m, table = ws.boards, ws.moves, ws.table

    def call(i: int) -> object:
        d1, d2 = d[i]
        return gen(rows[i], d1, d2, flags, checkers, out_b, out_m, table)

    return Row("gammon fast path (generate)", timed(call, len(rows)), "one roll per call")


def batch(boards: np.ndarray, dice: np.ndarray, flags: int, checkers: int) -> Row:
    """(b) ``movegen.generate_batch`` over every position, repeated: positions/s."""
    ws = movegen.Workspace(capacity=16 * movegen.MAX_RESULTS)
    counts = np.zeros(len(boards), dtype=np.int64)
    total = len(boards)
    calls = [0, 0]  # batch calls, passes

    def run(seconds: float) -> tuple[int, float]:
        n = 0
        t0 = clock()
        while True:
            done = 0
            while done < total:
                done += movegen.generate_batch(
                    boards[done:], dice[done:], flags, checkers,
                    ws.boards, ws.moves, counts[done:], ws.table,
                )
                calls[0] += 1
            calls[1] += 1
            n += total
            if clock() - t0 >= seconds:
                break
        row.note = f"positions/s; {calls[0] / calls[1]:.0f} batch call(s) per {total} positions"
        return n, clock() - t0

    row = Row("gammon batch (generate_batch)", run)
    return row


def object_api(positions: Sequence[Position], rolls: Sequence[tuple[int, int]]) -> list[Row]:
    """(c) ``Position.legal_plays``: counting only, and building every play."""

    def count(i: int) -> object:
        return len(positions[i].legal_plays(rolls[i]))

    def build(i: int) -> object:
        return [p.position for p in positions[i].legal_plays(rolls[i])]

    return [
        Row("gammon object API len(legal_plays)", timed(count, len(positions))),
        Row("gammon object API + build all plays", timed(build, len(positions)),
            "[p.position for p in plays]"),
    ]


def gnubg(positions: Sequence[Position], rolls: Sequence[tuple[int, int]]) -> Row:
    """(d) ``gnubg_nn.moves(board, d1, d2)``, board = [opponent, player on roll]."""
    try:
        import gnubg_nn
    except ImportError:
        return Row(REFERENCE, None, "not installed (pip install 'gnubg-nn==1.1.0a11')")
    lists = [[list(p.opp), list(p.me)] for p in positions]
    moves = gnubg_nn.moves

    def call(i: int) -> object:
        d1, d2 = rolls[i]
        return moves(lists[i], d1, d2)

    for i in range(len(lists)):  # warm up, and check that both generators agree on counts
        d1, d2 = rolls[i]
        if len(moves(lists[i], d1, d2)) != len(positions[i].legal_plays(rolls[i])):
            return Row(REFERENCE, None, f"disagrees with gammon on vector {i}: not timed")
    return Row(REFERENCE, timed(call, len(lists)), "the reference")


def openspiel(seed: int) -> Row:
    """(e) OpenSpiel ``legal_actions`` over decision states from random games."""
    try:
        import pyspiel
    except ImportError:
        return Row("OpenSpiel legal_actions", None, "not installed (pip install 'open-spiel==2.0.2')")
    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < 3000:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = s.legal_actions()
                if rng.random() < 0.2:
                    states.append(s.clone())
                s.apply_action(actions[rng.randrange(len(actions))])
    return Row("OpenSpiel legal_actions", timed(lambda i: states[i].legal_actions(), len(states)),
               f"{len(states)} states from random games (doubles: half turns)")


def check_counts(positions: Sequence[Position], rolls: Sequence[tuple[int, int]],
                 vectors: Sequence[dict[str, Any]]) -> int:
    """How many vectors gammon's result count disagrees with (a sanity check, expect 0)."""
    bad = 0
    for p, roll, v in zip(positions, rolls, vectors, strict=True):
        expected = v["n_legal"] if v["dice_used"] else 0
        bad += len(p.legal_plays(roll)) != expected
    return bad


def machine() -> str:
    """CPU model, CPU count and Python version, for the table heading."""
    model = platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} CPUs, Python {platform.python_version()}"


def print_table(rows: Sequence[Row], seconds: float, n_vectors: int, rounds: int) -> None:
    """The result table: calls/s, ratios to gnubg-nn (best round, all rounds), target, MET/MISSED."""
    ref = next((r for r in rows if r.name == REFERENCE and r.per_second is not None), None)
    print(f"\nMove generation, {n_vectors} public vectors, {seconds:g} s each in {rounds} interleaved "
          "rounds, single thread, thread CPU time")
    print(f"on {machine()}; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"{'name':<38} {'best calls/s':>12} {'vs gnubg':>9} {'all rounds':>10} {'target':>8}  result")
    print("-" * 90)
    for r in rows:
        rps = r.per_second
        if rps is None:
            print(f"{r.name:<38} {r.note}")
            continue
        ratio = r.best / ref.best if ref else None
        mean_ratio = rps / ref.per_second if ref and ref.per_second else None
        ratio_s = f"{ratio:.2f}x" if ratio is not None else "n/a"
        mean_s = f"{mean_ratio:.2f}x" if mean_ratio is not None else "n/a"
        target = TARGETS.get(r.name)
        target_s = f">={target:g}x" if target else ""
        verdict = ""
        if target is not None:
            verdict = "n/a" if ratio is None else ("MET" if ratio >= target else "MISSED")
        print(f"{r.name:<38} {r.best:>12,.0f} {ratio_s:>9} {mean_s:>10} {target_s:>8}  {verdict}")
    notes = [f"  {r.name}: {r.note}" for r in rows if r.per_second is not None and r.note]
    if notes:
        print("notes:")
        print("\n".join(notes))


def main(argv: list[str] | None = None) -> int:
    """Run every benchmark and print the table; returns the process exit status."""
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=3.0, help="time per benchmark (default 3)")
    ap.add_argument("--vectors", help="path of vectors_public.jsonl")
    ap.add_argument("--rounds", type=int, default=6,
                    help="interleaved rounds the time is split into (default 6)")
    ap.add_argument("--seed", type=int, default=1, help="seed of OpenSpiel's random games")
    args = ap.parse_args(argv)

    path = find_vectors(args.vectors)
    if not path.is_file():
        print(f"error: vectors not found at {path} (set GAMMON_SHARED or --vectors)",
              file=sys.stderr)
        return 2
    vectors = load_vectors(path)
    positions = [Position.from_position_id(v["position_id"]) for v in vectors]
    rolls = [(int(v["dice"][0]), int(v["dice"][1])) for v in vectors]
    boards = np.stack([np.frombuffer(p.board, np.uint8) for p in positions])
    dice = np.array(rolls, dtype=np.int64)
    variant = positions[0].variant
    flags, checkers = variant.flags, variant.checkers

    # Compile (or load the cached compilation) before any clock starts.
    bad = check_counts(positions, rolls, vectors)
    if bad:
        print(f"warning: gammon's result count differs from the vectors on {bad} of them",
              file=sys.stderr)

    rows: list[Row] = [
        fast_path(boards, dice, flags, checkers),
        batch(boards, dice, flags, checkers),
        *object_api(positions, rolls),
        gnubg(positions, rolls),
        openspiel(args.seed),
    ]
    # Warm up: every compiled signature (a writable board is not the read-only one
    # check_counts compiled) is compiled or loaded before any clock starts.
    for row in rows:
        if row.run is not None:
            row.run(0.05)
    # Interleave: every benchmark runs a slice of its time in each round, so a
    # change of machine load while measuring affects all of them alike.
    s = args.seconds
    for _ in range(args.rounds):
        for row in rows:
            if row.run is not None:
                row.add(*row.run(s / args.rounds))
        print(".", end="", flush=True, file=sys.stderr)
    print(file=sys.stderr)
    print_table(rows, s, len(vectors), args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
