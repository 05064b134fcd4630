"""Real matches with the cube, judged by GNU Backgammon: the PR table of issue 12.

gammon at ``--level`` plays itself: ``--matches`` matches of ``--length``
points and ``--money-games`` money games (sessions of ``--session`` games;
Jacoby and beavers off, as GNU Backgammon is told to analyse them).  Every
match or session is saved as ``.mat`` and analysed by GNU Backgammon itself
(``gnubg -t``, chequer play and cube at ``--analyse-plies``, cubeful), and its
``show statistics match`` is read: each side's error total (EMG) over its
unforced moves and over its close (or actual) cube decisions.  Both sides are
the same engine, so their figures are added.

Printed (and written to ``OUT.txt``): per kind (matches, money) and over all,

* checker error: chequer error total / unforced moves, in mEMG per move;
* cube error: cube error total / close cube decisions, in mEMG per decision;
* approx. PR: 500 x the overall error per decision (XG's Performance Rating
  scale: half the overall error rate in mEMG);
* GNU Backgammon's label for that overall error rate (its own thresholds:
  < 2 mEMG/decision supernatural, < 5 world class, < 8 expert, < 12 advanced ...);

each with a standard error over the matches (a ratio estimator: each match is
one sample of errors and decisions), and the issue's targets with MET or
MISSED: expert PR <= 3.0 and cube error <= 4 mEMG per close decision,
world-class PR <= 2.5.

Each match is one task of :mod:`gammon.ai.distributed`: here one after the
other, or with ``--ray`` (``--address`` for a cluster) as Ray tasks.  Match
``i`` is seeded by ``--seed`` and ``i`` alone (:func:`match_seed`: each ``--seed`` has its
own block of a million seeds, so the runs of two seeds share no match), and matches already in ``OUT/``
(their ``.json`` row present) are kept, so a stopped run resumes.  GNU
Backgammon only measures: nothing here trains on it.  A finished run is kept in the
repository packed (``benchmarks/results_archive.py pack OUT``: ``OUT.tar.bz2`` beside
``OUT.txt``); ``--summary-only`` reads the packed matches as they are; to resume or extend a
packed run, ``unpack`` it first.

    nice -n 10 python benchmarks/match_pr.py --level expert --matches 8 --money-games 10
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
import results_archive  # noqa: E402  (a run's matches, in its folder or packed)

#: Run inside GNU Backgammon (``gnubg -t -q -p``): analyse one .mat, print its statistics.
GNUBG_SCRIPT = r'''
import gnubg, os
env = os.environ
plies = env["ANALYSE_PLIES"]
for c in ["set jacoby off", "set beavers 0",
          "set analysis chequerplay evaluation plies " + plies,
          "set analysis chequerplay evaluation cubeful on",
          "set analysis chequerplay evaluation prune on",
          "set analysis cubedecision evaluation plies " + plies,
          "set analysis cubedecision evaluation cubeful on",
          "set analysis cubedecision evaluation prune on",
          "set analysis cube on", "set analysis moves on", "set analysis luck on",
          "import mat " + env["MAT_FILE"],
          "analyse match"]:
    gnubg.command(c)
print("=== STATISTICS ===", flush=True)
gnubg.command("show statistics match")
print("=== END ===", flush=True)
'''

#: The two sides' names in the .mat files (both are gammon at the same level).
NAMES = ("gammonA", "gammonB")

#: The issue's targets: (level, quantity, limit).
TARGETS = (("expert", "pr", 3.0), ("expert", "cube", 4.0), ("world-class", "pr", 2.5))


def gnubg_label(error_per_decision: float) -> str:
    """GNU Backgammon's name for an overall error rate in EMG per decision (its own thresholds)."""
    from gammon.analysis.marks import rating_name

    return rating_name(error_per_decision)


# -- reading GNU Backgammon's statistics ------------------------------------------------------

_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")


def parse_statistics(text: str, names: tuple[str, str] = NAMES) -> list[dict[str, object]]:
    """Each side's figures from ``show statistics match``: error totals (EMG, positive), counts, labels.

    The table has one fixed-width column per player, placed under the names
    in its ``Player`` line; sections are ``Chequerplay``, ``Luck``, ``Cube``
    and ``Overall statistics``.
    """
    lines = text.splitlines()
    header = next((ln for ln in lines if ln.startswith("Player")), None)
    if header is None:
        raise ValueError("no statistics table in GNU Backgammon's output")
    starts = [header.index(n) for n in names]
    sides: list[dict[str, object]] = [{}, {}]
    section = ""
    for ln in lines:
        stripped = ln.strip()
        if stripped.endswith("statistics") and len(ln) < starts[0]:
            section = stripped.split()[0].lower()
            continue
        if len(ln) <= starts[0] or not section:
            continue
        label = ln[:starts[0]].strip()
        cells = (ln[starts[0]:starts[1]].strip(), ln[starts[1]:].strip())
        for side, cell in zip(sides, cells, strict=True):
            key = f"{section}: {label}"
            m = _NUMBER.match(cell)
            side[key] = float(m.group()) if m else cell
    out = []
    for s in sides:
        def num(key: str, s: dict[str, object] = s) -> float:
            """The first row starting ``key`` (units differ: (MWC) in matches, (Points) in money)."""
            v = next((v for k, v in s.items() if k.startswith(key)), 0.0)
            return abs(float(v)) if isinstance(v, float) else 0.0

        out.append({
            "unforced_moves": num("chequerplay: Unforced moves"),
            "chequer_error": num("chequerplay: Error total EMG"),
            "close_cube": num("cube: Close or actual cube decisions"),
            "cube_error": num("cube: Error total EMG"),
            "overall_error": num("overall: Error total EMG"),
            "missed_doubles": num("cube: Missed doubles below CP")
            + num("cube: Missed doubles above CP"),
            "wrong_doubles": num("cube: Wrong doubles below DP")
            + num("cube: Wrong doubles above TG"),
            "wrong_takes": num("cube: Wrong takes"),
            "wrong_passes": num("cube: Wrong passes"),
            "gnubg_rating": str(s.get("overall: Overall rating", "")),
        })
    return out


# -- one match (a task) ------------------------------------------------------------------------



def match_seed(seed: int, kind: str, number: int) -> int:
    """The dice and players' seed of match (or money session) ``number`` of a run with ``--seed``.

    ``--seed 1`` gives 1 + number (+ 100,000 for money sessions), the seeds of the stored runs;
    every other ``--seed`` has its own block of a million, so two runs never share a match.
    """
    return (seed - 1) * 1_000_000 + 1 + number + (0 if kind == "match" else 100_000)

@dataclass(frozen=True)
class Job:
    """What every match shares."""

    level: str
    out: str
    plies: int
    gnubg: str
    seed: int
    timeout: float
    #: The cube's look-ahead depth instead of the level's own (None: the level's).
    cube_plies: int | None = None
    #: A weights file instead of the shipped nets (None: the shipped ones).
    weights: str | None = None
    #: The weights the cube's look-ahead uses instead of the level's net (None: the level's).
    cube_weights: str | None = None
    #: Trials of the rollouts that decide the level's close cube calls (0: none; Level.cube_rollout).
    cube_rollout: int = 0


def play_and_analyse(job: Job, task: tuple[str, int, int, int]) -> dict[str, object]:
    """Play match ``task`` = (kind, number, length, games), save it, have GNU Backgammon analyse it."""
    from gammon.core.dice import RandomDice
    from gammon.core.rules import Rules
    from gammon.formats.mat import read_mat, write_mat
    from gammon.play.levels import make_computer_player
    from gammon.play.session import play_match

    kind, number, length, games = task
    base = Path(job.out) / f"{kind}_{number:03d}"
    row_path = base.with_suffix(".json")
    if row_path.exists():
        row: dict[str, object] = json.loads(row_path.read_text())
        return row
    seed = match_seed(job.seed, kind, number)
    started = time.monotonic()
    if job.cube_plies is None and job.weights is None and job.cube_weights is None and not job.cube_rollout:
        players = (make_computer_player(job.level, seed=2 * seed + 1),
                   make_computer_player(job.level, seed=2 * seed + 2))
    else:
        from dataclasses import replace

        from gammon.ai.engine import Engine
        from gammon.ai.search import find_level as engine_level
        from gammon.play.ai_player import AIPlayer

        level = engine_level(job.level)
        if job.cube_plies is not None:
            level = replace(level, cube_plies=job.cube_plies)
        if job.cube_rollout:
            level = replace(level, cube_rollout=job.cube_rollout)
        engine = Engine(level, weights=job.weights, seed=2 * seed + 1, cube_weights=job.cube_weights)
        players = (AIPlayer(job.level, engine=engine),
                   AIPlayer(job.level, engine=engine.reseeded(2 * seed + 2)))
    rules = Rules(match_length=length)
    match = play_match(rules, players, RandomDice(seed), games_limit=None if length else games)
    mat = base.with_suffix(".mat")
    mat.write_text(write_mat(match, NAMES))
    read_mat(mat.read_text()).replay()  # our own reader checks every action again
    played = time.monotonic() - started
    script = Path(tempfile.mkdtemp(prefix="match_pr_")) / "analyse.py"
    script.write_text(GNUBG_SCRIPT)
    env = dict(os.environ, MAT_FILE=str(mat), ANALYSE_PLIES=str(job.plies))
    try:
        run = subprocess.run([job.gnubg, "-t", "-q", "-p", str(script)], env=env, capture_output=True,
                             stdin=subprocess.DEVNULL, text=True, timeout=job.timeout, check=False)
        output = run.stdout
    except subprocess.TimeoutExpired:
        output = ""
    stats_text = output.split("=== STATISTICS ===", 1)[-1].split("=== END ===", 1)[0] if output else ""
    base.with_suffix(".stats.txt").write_text(stats_text)
    row = {"kind": kind, "number": number, "seed": seed, "length": length, "games": len(match.games),
           "score": list(match.score), "play_seconds": round(played, 1),
           "analyse_seconds": round(time.monotonic() - started - played, 1)}
    try:
        row["sides"] = parse_statistics(stats_text)
    except ValueError as exc:
        row["problem"] = f"GNU Backgammon's analysis could not be read: {exc}"
        return row  # not saved: a rerun tries again
    row_path.write_text(json.dumps(row))
    return row


# -- the table ---------------------------------------------------------------------------------


def ratio(errors: list[float], counts: list[float]) -> tuple[float, float]:
    """Sum(errors) / sum(counts) in mEMG, and its standard error over the samples (ratio estimator)."""
    n = len(errors)
    total = sum(counts)
    if not total:
        return math.nan, math.nan
    r = sum(errors) / total
    if n < 2:
        return 1000 * r, math.nan
    mean_count = total / n
    var = sum((e - r * c) ** 2 for e, c in zip(errors, counts, strict=True)) / (n - 1)
    return 1000 * r, 1000 * math.sqrt(var / n) / mean_count


def figures(rows: list[dict[str, object]]) -> dict[str, float | int | str]:
    """The table's figures over ``rows`` (both sides of each match added)."""
    ch, um, cu, cc, ov = [], [], [], [], []
    counts = {"missed_doubles": 0.0, "wrong_doubles": 0.0, "wrong_takes": 0.0, "wrong_passes": 0.0}
    for r in rows:
        sides = r["sides"]
        assert isinstance(sides, list)
        ch.append(sum(float(s["chequer_error"]) for s in sides))
        um.append(sum(float(s["unforced_moves"]) for s in sides))
        cu.append(sum(float(s["cube_error"]) for s in sides))
        cc.append(sum(float(s["close_cube"]) for s in sides))
        ov.append(ch[-1] + cu[-1])
        for k in counts:
            counts[k] += sum(float(s[k]) for s in sides)
    checker, checker_se = ratio(ch, um)
    cube, cube_se = ratio(cu, cc)
    overall, overall_se = ratio(ov, [a + b for a, b in zip(um, cc, strict=True)])
    return {"samples": len(rows), "games": sum(int(r["games"]) for r in rows),  # type: ignore[call-overload]
            "unforced": int(sum(um)), "close": int(sum(cc)),
            "checker": checker, "checker_se": checker_se, "cube": cube, "cube_se": cube_se,
            "overall": overall, "pr": overall / 2, "pr_se": overall_se / 2,
            "label": gnubg_label(overall / 1000) if not math.isnan(overall) else "N/A",
            **{k: int(v) for k, v in counts.items()}}


def _pm(value: float, se: float, digits: int = 1) -> str:
    if math.isnan(value):
        return "-"
    return f"{value:.{digits}f}" + ("" if math.isnan(se) else f" +- {se:.{digits}f}")


def table(level: str, plies: int, groups: list[tuple[str, list[dict[str, object]]]],
          cube_plies: int | None = None, weights: str | None = None,
          cube_weights: str | None = None, cube_rollout: int = 0) -> str:
    from gammon.ai.search import LEVELS

    depth = f"{LEVELS[level].plies}-ply" if level in LEVELS else level
    if cube_plies is not None:
        rolls = "roll" if cube_plies == 1 else "rolls"
        depth += f", the cube {cube_plies} {rolls} ahead" if cube_plies else ", the cube at the root"
    if weights is not None:
        depth += f", weights {weights}"
    if cube_weights is not None:
        depth += f", the cube's weights {cube_weights}"
    if cube_rollout:
        depth += f", close cube calls rolled out ({cube_rollout} trials)"
    lines = [
        f"gammon {level} ({depth}) against itself, analysed by GNU Backgammon ({plies}-ply, cubeful); "
        "+- = 1 SE over the matches",
        "",
        "| player | sample | checker error (mEMG/move) | cube error (mEMG/close decision) | approx. PR "
        "| gnubg's label |",
        "|---|---|---|---|---|---|",
    ]
    shown: dict[str, dict[str, float | int | str]] = {}
    for name, rows in groups:
        if not rows:
            continue
        f = figures(rows)
        shown[name] = f
        lines.append(
            f"| gammon {level} ({depth}), {name} | {f['samples']} x, {f['games']} games, "
            f"{f['unforced']} moves, {f['close']} close cube | {_pm(f['checker'], f['checker_se'])} "  # type: ignore[arg-type]
            f"| {_pm(f['cube'], f['cube_se'])} | {_pm(f['pr'], f['pr_se'], 2)} | {f['label']} |"  # type: ignore[arg-type]
        )
    if "all" in shown:
        f = shown["all"]
        lines += ["", f"cube errors (count, both sides): missed doubles {f['missed_doubles']}, wrong doubles "
                      f"{f['wrong_doubles']}, wrong takes {f['wrong_takes']}, wrong passes {f['wrong_passes']}"]
        lines += ["", "targets (issue 12):"]
        for who, what, limit in TARGETS:
            if who != level:
                continue
            value = float(f["pr"] if what == "pr" else f["cube"])
            se = float(f["pr_se"] if what == "pr" else f["cube_se"])
            name = "PR" if what == "pr" else "cube error (mEMG/close decision)"
            verdict = "MET" if value <= limit else "MISSED"
            lines.append(f"  {level} {name} <= {limit}: {_pm(value, se, 2)} -> {verdict}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from gammon.ai.distributed import LocalRunner, make_runner, run_ordered
    from gammon.core.errors import GammonError
    from gammon.play.external import gnubg_executable
    from gammon.play.levels import find_level

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--level", default="expert")
    parser.add_argument("--matches", type=int, default=8)
    parser.add_argument("--length", type=int, default=7)
    parser.add_argument("--money-games", type=int, default=0, help="money games (in sessions of --session)")
    parser.add_argument("--session", type=int, default=5, help="money games per session (.mat file)")
    parser.add_argument("--analyse-plies", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="folder of the matches (OUT.txt: the table)")
    parser.add_argument("--cube-plies", type=int, default=None, choices=range(0, 4), metavar="N",
                        help="the cube's look-ahead depth (0: the formula at the root) instead of the level's")
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds for one analysis")
    parser.add_argument("--weights", default=None, help="a weights file instead of the shipped nets")
    parser.add_argument("--cube-weights", default=None,
                        help="a weights file for the cube's look-ahead instead of the level's net")
    parser.add_argument("--cube-rollout", type=int, default=0, metavar="TRIALS",
                        help="roll out the level's close cube calls with this many trials (Level.cube_rollout)")
    parser.add_argument("--gnubg", default=gnubg_executable())
    parser.add_argument("--ray", action="store_true", help="each match a Ray task (a local Ray)")
    parser.add_argument("--address", default=None, help="the Ray cluster to use; implies --ray")
    parser.add_argument("--workers", type=int, default=None, help="workers of a local Ray")
    parser.add_argument("--summary-only", action="store_true", help="play nothing: tabulate OUT")
    args = parser.parse_args(argv)
    try:
        level = find_level(args.level)
    except GammonError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.cube_rollout != 0 and not 2 <= args.cube_rollout <= 1_000_000:
        print(f"error: --cube-rollout must be 0 (none) or 2 to 1000000 trials, not {args.cube_rollout}",
              file=sys.stderr)
        return 2
    if not args.gnubg:
        print("error: GNU Backgammon (gnubg) is not installed", file=sys.stderr)
        return 2
    for given in (args.weights, args.cube_weights):
        if given is not None and not args.summary_only and not Path(given).is_file():
            print(f"error: no weights file {given}", file=sys.stderr)
            return 2
    out: Path = args.out or ROOT / "results" / f"match_pr_{level}"
    if not args.summary_only:
        out.mkdir(parents=True, exist_ok=True)
    matches = [("match", i, args.length, 0) for i in range(args.matches)]
    sessions = [min(args.session, args.money_games - lo) for lo in range(0, args.money_games, args.session)]
    money = [("money", i, 0, g) for i, g in enumerate(sessions)]
    # Interleaved, so that a run stopped early has some of both kinds.
    order = sorted(range(len(matches) + len(money)),
                   key=lambda k: (k / max(len(matches), 1)) if k < len(matches)
                   else (k - len(matches) + 0.5) / max(len(money), 1))
    tasks = [(matches + money)[k] for k in order]
    job = Job(level, str(out), args.analyse_plies, args.gnubg, args.seed, args.timeout, args.cube_plies,
              args.weights, args.cube_weights, args.cube_rollout)
    if args.summary_only:
        rows = [json.loads(p.read_text()) for p in results_archive.glob(out, "*_[0-9][0-9][0-9].json")]
    else:
        started = time.monotonic()

        def progress(done: int, total: int) -> None:
            print(f"[{time.strftime('%H:%M:%S')}] {done}/{total} matches and sessions played and analysed "
                  f"({time.monotonic() - started:.0f} s)", flush=True)

        where = out.relative_to(ROOT.parent) if out.is_relative_to(ROOT.parent) else out
        print(f"gammon {level} against itself: {args.matches} x {args.length}-point matches, "
              f"{args.money_games} money games; GNU Backgammon {args.analyse_plies}-ply analysis -> {where}",
              flush=True)
        try:
            runner = make_runner(args.address or "local", args.workers) if args.ray or args.address \
                else LocalRunner()
            with runner:
                rows = run_ordered(runner, play_and_analyse, job, tasks, progress)
        except GammonError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    problems = [r for r in rows if "problem" in r]
    for r in problems:
        print(f"{r['kind']} {r['number']}: {r['problem']}", file=sys.stderr)
    rows = [r for r in rows if "sides" in r]
    groups = [(f"{args.length}-point matches", [r for r in rows if r["kind"] == "match"]),
              ("money games", [r for r in rows if r["kind"] == "money"]), ("all", rows)]
    text = table(level, args.analyse_plies, groups, args.cube_plies, args.weights, args.cube_weights,
                 args.cube_rollout)
    print(text)
    (out.parent / f"{out.name}.txt").write_text(text + "\n")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
