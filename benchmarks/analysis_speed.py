#!/usr/bin/env python3
"""Analysis speed: a whole 7-point match analysed at the default depth, beside GNU Backgammon.

The match is played here by gammon's 0-ply engine against itself (seeded), then
analysed by ``gammon.analysis`` at ``--plies`` (default: the analysis default,
2-ply, one worker process per core) and, with ``--gnubg``, by GNU Backgammon
(``gnubg -t``, chequer play and cube at the same depth) on the same ``.mat``
file, measured in the same run.  The target of issue 13: a 7-point match of
about 150 decisions in under 60 s on the project's 2-core machine.

Usage: python benchmarks/analysis_speed.py [--plies 2] [--seed 3] [--length 7] [--processes N] [--gnubg]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from gammon.analysis.analyse import DEFAULT_PLIES, analyse_record, default_processes
from gammon.core.dice import RandomDice
from gammon.core.game import Rules
from gammon.formats.mat import write_mat
from gammon.play.ai_player import AIPlayer
from gammon.play.session import play_match


def make_match(length: int, seed: int):  # type: ignore[no-untyped-def]
    players = (AIPlayer("expert", seed=2 * seed + 1), AIPlayer("expert", seed=2 * seed + 2))
    return play_match(Rules(match_length=length), players, RandomDice(seed))


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the analysis workers)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def gnubg_seconds(mat: Path, plies: int) -> float | None:
    exe = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None)
    if exe is None:
        return None
    script = mat.with_suffix(".py")
    script.write_text(
        "import gnubg, time\n"
        f"for c in ['set analysis chequerplay evaluation plies {plies}', "
        f"'set analysis cubedecision evaluation plies {plies}', 'import mat {mat}']:\n"
        "    gnubg.command(c)\n"
        "t = time.time()\ngnubg.command('analyse match')\nprint('SECONDS', time.time() - t)\n")
    out = subprocess.run([exe, "-t", "-q", "-p", str(script)], capture_output=True, text=True, timeout=900,
                         env={**os.environ, "HOME": str(mat.parent)})
    for line in out.stdout.splitlines():
        if line.startswith("SECONDS"):
            return float(line.split()[1])
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plies", type=int, default=DEFAULT_PLIES)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--length", type=int, default=7)
    ap.add_argument("--processes", type=int, default=None)
    ap.add_argument("--gnubg", action="store_true", help="also time GNU Backgammon's analysis of the match")
    args = ap.parse_args()

    load0 = os.getloadavg()
    match = make_match(args.length, args.seed)
    games = [g.record for g in match.games]
    # Warm the engine (numba loads its compiled kernels) outside the timing.
    analyse_record(match.rules, games[:1], plies=0, processes=1, explain=False)
    procs = args.processes or default_processes(args.plies)
    cpu0 = _cpu()
    t = time.perf_counter()
    a = analyse_record(match.rules, games, ("gammon A", "gammon B"), plies=args.plies, processes=procs)
    seconds = time.perf_counter() - t
    cpu = _cpu() - cpu0
    ds = a.decisions
    moves = sum(1 for d in ds if d.kind == "move")
    unforced = sum(1 for d in ds if d.kind == "move" and not d.forced)
    cube = len(ds) - moves
    load1 = os.getloadavg()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores; load average (1, 5, 15 min) before "
          f"{load0[0]:.1f} {load0[1]:.1f} {load0[2]:.1f}, after {load1[0]:.1f} {load1[1]:.1f} {load1[2]:.1f}")
    print(f"match: {args.length}-point, seed {args.seed}, {len(match.games)} games, score "
          f"{match.score[0]}-{match.score[1]}")
    print(f"decisions: {len(ds)} ({moves} moves of which {unforced} unforced, {cube} cube decisions and takes)")
    print(f"gammon analysis at {args.plies}-ply, {procs} processes: {seconds:.1f} s "
          f"({1000 * seconds / max(1, len(ds)):.0f} ms per decision)")
    per = cpu / max(1, len(ds))
    print(f"CPU time (all processes): {cpu:.1f} s, {1000 * per:.0f} ms per decision; on an idle machine with "
          f"{procs} cores about {per * 150 / procs:.0f} s for 150 decisions")
    for p in a.players:
        print(f"  {p.name}: error rate {p.error_rate or 0:.1f} mEMG, PR {p.pr or 0:.1f}")
    if args.gnubg:
        with tempfile.TemporaryDirectory() as tmp:
            mat = Path(tmp) / "match.mat"
            mat.write_text(write_mat(match, ("gammonA", "gammonB")))
            g = gnubg_seconds(mat, args.plies)
        if g is None:
            print("GNU Backgammon: not run (not installed or failed)")
        else:
            print(f"GNU Backgammon analysis at {args.plies}-ply: {g:.1f} s "
                  f"(ratio gnubg/gammon {g / seconds:.2f})")


if __name__ == "__main__":
    main()
