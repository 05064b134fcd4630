#!/usr/bin/env python3
"""Rollout speed: gammon's rollout of the opening position beside GNU Backgammon 1.07's, in one run.

Both engines roll out the opening position (the player on roll has not rolled; doubles
allowed as the first roll) with ``--trials`` trials (default 1,296), checker play at 0-ply,
quasi-random dice, on one core, money play with a centred cube, no Jacoby rule, no beavers:

  cubeless     no variance reduction (the ``gammon rollout`` default);
  cubeless+VR  with variance reduction (luck-adjusted at every roll over the 21 rolls);
  cubeful+VR   the cube played too (cube decisions at 0-ply), with variance reduction.

Each is timed two ways:

  rollout itself  gammon: ``gammon.ai.rollout.rollout(..., RolloutSettings(processes=1))`` in
                  this process, after a warm-up rollout that loads or compiles the numba
                  kernels (the warm-up is timed and printed on its own); gnubg: the
                  ``rollout`` command alone, timed by a Python script run inside gnubg
                  (``gnubg -t -q -p``) with ``time.perf_counter`` just before and after it;
  whole command   the wall time of the process, from start to exit: ``python -m gammon
                  rollout 4HPwATDgc/ABMA --trials N --processes 1 [--cubeful]
                  [--variance-reduction] --json`` against the same gnubg process (its
                  start-up, the settings and the rollout).

The settings run in turn, and within each the engines alternate (gammon in process, gnubg,
the gammon command), so a load on the machine slows both alike; the load average is printed.
With ``--repeat R`` every time is the best (smallest) of R runs. Times are wall seconds, with
the CPU seconds beside them. The ratio is gnubg's time over gammon's: above 1, gammon is the
faster. Each engine's equity and its standard error show both did the same work (the same
position and settings; the dice differ, so the equities agree within their errors).

gnubg is run under ``script`` (a pseudo-terminal) because it prints a rollout's final result
only when its output is a terminal. gnubg's defaults stay as they are where gammon has no
such setting: its cubeful rollouts stop at its exact two-sided bear-off database (gammon's
cubeful trials play on), its cubeless ones at its one-sided database (gammon's at its own
one-sided tables, ``RolloutSettings.stop_at_bearoff``, both engines' defaults), its
0-ply chequer play is "cubeful" in a cubeful rollout, and its dice are Mersenne Twister with
``set rollout seed`` (gammon's: splitmix64 by ``--seed``).

Usage: python benchmarks/rollout_speed.py [--trials 1296] [--repeat 1] [--seed 1]
       [--settings cubeless,cubeless+VR,cubeful+VR] [--gnubg /usr/games/gnubg] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from gammon.ai.evaluator import default_evaluator
from gammon.ai.rollout import RolloutSettings, rollout
from gammon.cli.warmup import warm_up as engine_warm_up
from gammon.core.position import Position

ROOT = Path(__file__).resolve().parent.parent
OPENING = "4HPwATDgc/ABMA"
SETTINGS = {"cubeless": (False, False), "cubeless+VR": (False, True), "cubeful+VR": (True, True)}


@dataclass
class Timing:
    """One engine's run of one setting: wall and CPU seconds, equity and its standard error
    (cubeful equity in a cubeful rollout)."""

    wall: float
    cpu: float
    equity: float
    se: float


def _children_cpu() -> float:
    """CPU seconds of the finished child processes (and their finished children)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def gammon_in_process(trials: int, seed: int, cubeful: bool, vr: bool) -> Timing:
    """The rollout itself: one call of ``rollout`` in this process, on one core."""
    settings = RolloutSettings(trials=trials, seed=seed, cubeful=cubeful, variance_reduction=vr, processes=1)
    ev = default_evaluator()
    cpu0, t0 = time.process_time(), time.perf_counter()
    r = rollout(Position.initial(), ev, settings)
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    if cubeful:
        assert r.cubeful_equity is not None and r.se_cubeful is not None
        return Timing(wall, cpu, r.cubeful_equity, r.se_cubeful)
    return Timing(wall, cpu, r.equity, r.se_equity)


def gammon_command(trials: int, seed: int, cubeful: bool, vr: bool) -> Timing:
    """The whole command: ``python -m gammon rollout`` as a process, wall time to its exit."""
    argv = [sys.executable, "-m", "gammon", "rollout", OPENING, "--trials", str(trials), "--seed", str(seed),
            "--processes", "1", "--json"]
    argv += ["--cubeful"] if cubeful else []
    argv += ["--variance-reduction"] if vr else []
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    cpu0, t0 = _children_cpu(), time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, check=True, env=env, cwd=ROOT)
    wall, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
    data = json.loads(out.stdout)
    if cubeful:
        return Timing(wall, cpu, data["cubeful_equity"], data["se_cubeful"])
    return Timing(wall, cpu, data["equity"], data["se_equity"])


def gnubg_script(trials: int, seed: int, cubeful: bool, vr: bool) -> str:
    """The Python script gnubg runs: the settings, the opening position, the timed ``rollout``."""
    onoff = {True: "on", False: "off"}
    commands = [
        "set threads 1", "set player both human", "set jacoby off", "set beavers 0",
        f"set rollout trials {trials}", f"set rollout seed {seed}", "set rollout quasirandom on",
        "set rollout chequerplay plies 0", "set rollout cubedecision plies 0",
        "set rollout later enable off", "set rollout truncation enable off",
        f"set rollout cubeful {onoff[cubeful]}", f"set rollout varredn {onoff[vr]}",
        "new game", f"set board {OPENING}", "set turn 1",
    ]
    return ("import time, gnubg\n"
            f"for c in {commands!r}:\n"
            "    gnubg.command(c)\n"
            "c0, t0 = time.process_time(), time.perf_counter()\n"
            "gnubg.command('rollout')\n"
            "t1, c1 = time.perf_counter(), time.process_time()\n"
            "print('ROLLOUT_SECONDS', t1 - t0, c1 - c0, flush=True)\n")


_NUM = r"([+-]?\d+\.\d+)"


def parse_gnubg(text: str, cubeful: bool) -> tuple[float, float, float, float]:
    """(rollout wall s, rollout CPU s, equity, SE) from gnubg's output: its final result is
    the last pair of lines ``... CL +0.079 [CF +0.102]`` and ``[... CL  0.034 [CF  0.012]]``."""
    text = text.replace("\r", "\n")
    secs = re.search(r"ROLLOUT_SECONDS ([\d.e-]+) ([\d.e-]+)", text)
    tail = text[text.rfind("Rollout done"):]
    key = "CF" if cubeful else "CL"
    means = re.findall(rf"^ +\d.*{key} {_NUM}", tail, re.M)
    ses = re.findall(rf"^ \[.*{key} +{_NUM}", tail, re.M)
    if secs is None or not means or not ses:
        raise RuntimeError("gnubg's output has no rollout result:\n" + text[-2000:])
    return float(secs.group(1)), float(secs.group(2)), float(means[0]), float(ses[0])


def run_gnubg_script(exe: str, text: str) -> tuple[str, float, float]:
    """Run the Python script ``text`` inside gnubg (``-t -q -p``, under ``script``, a fresh
    HOME): its output, and the process's wall and CPU seconds."""
    with tempfile.TemporaryDirectory() as home:
        script = Path(home) / "rollout.py"
        script.write_text(text, encoding="utf-8")
        inner = f"{exe} -t -q -p {script}"
        cpu0, t0 = _children_cpu(), time.perf_counter()
        out = subprocess.run(["script", "-qec", inner, "/dev/null"], capture_output=True, text=True,
                             stdin=subprocess.DEVNULL, env={**os.environ, "HOME": home}, check=True)
        return out.stdout, time.perf_counter() - t0, _children_cpu() - cpu0


def gnubg_run(exe: str, trials: int, seed: int, cubeful: bool, vr: bool) -> tuple[Timing, Timing]:
    """gnubg's (rollout itself, whole command) for one setting, from one process."""
    stdout, wall, cpu = run_gnubg_script(exe, gnubg_script(trials, seed, cubeful, vr))
    r_wall, r_cpu, eq, se = parse_gnubg(stdout, cubeful)
    return Timing(r_wall, r_cpu, eq, se), Timing(wall, cpu, eq, se)


def best(runs: list[Timing]) -> Timing:
    """The run with the smallest wall time (best of ``--repeat``)."""
    return min(runs, key=lambda t: t.wall)


def warm_up(seed: int) -> tuple[float, float]:
    """Seconds of the commands' own warm-up (it loads or compiles every kernel, so the whole
    command starts with numba's cache warm) and of a short cubeful, variance-reduced rollout."""
    t0 = time.perf_counter()
    engine_warm_up()
    t1 = time.perf_counter()
    gammon_in_process(36, seed, True, True)
    return t1 - t0, time.perf_counter() - t1


def measure(args: argparse.Namespace, names: list[str], exe: str) -> dict[str, dict[str, Timing]]:
    """Every setting's best runs: ``{name: {"gammon itself", "gnubg itself", "gammon command",
    "gnubg command": Timing}}``; the engines alternate within each repeat."""
    runs: dict[str, dict[str, list[Timing]]] = {n: {} for n in names}
    for rep in range(args.repeat):
        for name in names:
            cubeful, vr = SETTINGS[name]
            got = runs[name]
            print(f"[{rep + 1}/{args.repeat}] {name}: gammon in process ...", file=sys.stderr, flush=True)
            got.setdefault("gammon itself", []).append(gammon_in_process(args.trials, args.seed, cubeful, vr))
            print(f"[{rep + 1}/{args.repeat}] {name}: gnubg ...", file=sys.stderr, flush=True)
            itself, whole = gnubg_run(exe, args.trials, args.seed, cubeful, vr)
            got.setdefault("gnubg itself", []).append(itself)
            got.setdefault("gnubg command", []).append(whole)
            print(f"[{rep + 1}/{args.repeat}] {name}: gammon command ...", file=sys.stderr, flush=True)
            got.setdefault("gammon command", []).append(gammon_command(args.trials, args.seed, cubeful, vr))
    return {n: {k: best(v) for k, v in r.items()} for n, r in runs.items()}


def table(results: dict[str, dict[str, Timing]]) -> list[str]:
    """The side-by-side table and each engine's equity."""
    lines = [f"{'setting':<30} {'gammon s':>9} {'gnubg s':>9} {'ratio gnubg/gammon':>19}"
             f" {'gammon CPU s':>13} {'gnubg CPU s':>12} {'CPU ratio':>10}"]
    for name, r in results.items():
        for how, label in (("itself", "rollout itself"), ("command", "whole command")):
            g, n = r[f"gammon {how}"], r[f"gnubg {how}"]
            lines.append(f"{name + ', ' + label:<30} {g.wall:9.2f} {n.wall:9.2f} {n.wall / g.wall:19.2f}"
                         f" {g.cpu:13.2f} {n.cpu:12.2f} {n.cpu / g.cpu:10.2f}")
    lines.append("")
    lines.append("equity of the player on roll +- its standard error (cubeful equity in a cubeful rollout)")
    for name, r in results.items():
        g, c, n = r["gammon itself"], r["gammon command"], r["gnubg itself"]
        same = "same as in process" if (round(c.equity, 6), round(c.se, 6)) == (round(g.equity, 6),
                                                                                round(g.se, 6)) else "DIFFERS"
        lines.append(f"{name:<12} gammon {g.equity:+.4f} +- {g.se:.4f} (the command: {same});"
                     f" gnubg {n.equity:+.3f} +- {n.se:.3f}")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=1296)
    ap.add_argument("--repeat", type=int, default=1, help="runs of each; the best (smallest) time counts")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--settings", default=",".join(SETTINGS), help=f"some of {', '.join(SETTINGS)}")
    ap.add_argument("--gnubg", default=shutil.which("gnubg") or "/usr/games/gnubg")
    ap.add_argument("--out", type=Path, help="also write the report here")
    args = ap.parse_args()
    names = [n.strip() for n in args.settings.split(",") if n.strip()]
    unknown = [n for n in names if n not in SETTINGS]
    if unknown or not Path(args.gnubg).exists() or shutil.which("script") is None:
        print(f"error: unknown settings {unknown}" if unknown else "error: needs gnubg and script(1)",
              file=sys.stderr)
        return 2
    head = [f"rollout of the opening position {OPENING}: {args.trials} trials, 0-ply checker play, one core,"
            f" seed {args.seed}, best of {args.repeat} run(s)",
            f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores;"
            f" load average at the start {os.getloadavg()[0]:.2f}"]
    engine, short = warm_up(args.seed)
    head.append(f"gammon warm-up, not counted in any time below: the engine's kernels {engine:.1f} s"
                f" (loaded from numba's cache, or compiled when it is cold), then 36 cubeful VR trials"
                f" {short:.1f} s")
    results = measure(args, names, args.gnubg)
    lines = head + [f"load average at the end {os.getloadavg()[0]:.2f}", ""] + table(results)
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
