"""Every cube decision GNU Backgammon judges in our matches, next to what our cube code says and why.

For each ``.mat`` given (or every ``.mat`` in the folders given), GNU Backgammon
analyses the cube decisions only (``--plies``, cubeful) and exports the match
as text.  Every cube decision is read back: Position ID, Match ID, what was
played, GNU Backgammon's probabilities, its cubeful equities (no double,
double/take, double/pass, in the doubler's view) and its alert if it marks
the decision as an error.  Printed:

* every flagged decision: the score (away-away, cube, owner, Crawford or
  post-Crawford), what was played, GNU Backgammon's probabilities and verdict,
  our own probabilities (the level's depth) and our decision from them, and
  our decision from GNU Backgammon's probabilities;
* the split of the error: **played** (what the matches lost, as GNU
  Backgammon's analysis counts it) against **model** (what our cube code
  loses when it is fed GNU Backgammon's own probabilities, costed with GNU
  Backgammon's cubeful equities).  The model figure isolates the cube logic
  (match equity table, efficiency, special cases) from the evaluator.

GNU Backgammon only measures here; nothing in the engine uses its numbers.

    python benchmarks/cube_errors.py benchmarks/results/match_pr_expert --level expert

A packed run (``benchmarks/results/match_pr_expert.tar.bz2``, see ``results_archive.py``) is
named by its folder as before: its ``.mat`` files are unpacked into a temporary folder of the
same name for GNU Backgammon.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results_archive  # noqa: E402

GNUBG_SCRIPT = r'''
import gnubg, os
plies = os.environ["ANALYSE_PLIES"]
for c in ["set jacoby off", "set beavers 0",
          "set analysis cubedecision evaluation plies " + plies,
          "set analysis cubedecision evaluation cubeful on",
          "set analysis cubedecision evaluation prune on",
          "set analysis cube on", "set analysis moves off", "set analysis luck off",
          "import mat " + os.environ["MAT_FILE"], "analyse match",
          "export match text " + os.environ["OUT_FILE"]]:
    gnubg.command(c)
'''

_FLOAT = r"([+-]?\d+\.\d+)"
_ALERT = re.compile(r"^Alert: (missed double|wrong double|wrong take|wrong pass|missed redouble|wrong redouble)"
                    r"[^(]*\(" + _FLOAT + r"\)", re.M)
_EQUITY = re.compile(r"^\d\. (No (?:re)?double|(?:Re)?[Dd]ouble, pass|(?:Re)?[Dd]ouble, take)\s+" + _FLOAT,
                     re.M)
_PROBS = re.compile(r"^\s+(\d\.\d+) (\d\.\d+) (\d\.\d+) - (\d\.\d+) (\d\.\d+) (\d\.\d+)\s*$", re.M)


@dataclass
class Decision:
    """One cube decision GNU Backgammon analysed, in the doubler's view.

    ``action``: ``no double``, ``double`` (the doubler's decision), ``take`` or
    ``pass`` (the taker's).  ``probs``: GNU Backgammon's, for the player on
    roll (the doubler).  ``nd``, ``dt``, ``dp``: its cubeful equities (EMG in
    matches), the doubler's view.  ``alert``/``cost``: its verdict when it
    marks the decision as an error.
    """

    source: str
    move: int
    action: str
    position_id: str
    match_id: str
    probs: tuple[float, float, float, float, float]
    nd: float
    dt: float
    dp: float
    proper: str
    alert: str = ""
    cost: float = 0.0


def export_text(mat: Path, plies: int, gnubg: str, workdir: Path) -> list[Path]:
    """GNU Backgammon's analysed text export of ``mat`` (one file per game)."""
    script = workdir / "analyse.py"
    script.write_text(GNUBG_SCRIPT)
    out = workdir / f"{mat.stem}.txt"
    env = dict(os.environ, MAT_FILE=str(mat), OUT_FILE=str(out), ANALYSE_PLIES=str(plies))
    subprocess.run([gnubg, "-t", "-q", "-p", str(script)], env=env, capture_output=True, text=True,
                   stdin=subprocess.DEVNULL, timeout=1800, check=False)
    return sorted(workdir.glob(f"{mat.stem}*.txt"))


def parse_export(text: str, source: str) -> list[Decision]:
    """Every analysed cube decision of one exported game."""
    found = []
    for block in re.split(r"^Move number ", text, flags=re.M)[1:]:
        if "Cube analysis" not in block:
            continue
        number = int(block.split(":", 1)[0])
        pid = re.search(r"Position ID: (\S+)", block)
        mid = re.search(r"Match ID\s*: (\S+)", block)
        act = re.search(r"^\* \S+ (doubles|accepts|rejects|moves|cannot move)", block, flags=re.M)
        cube = block.split("Cube analysis", 1)[1]
        pm = _PROBS.search(cube)
        eq = {k.lower(): float(v) for k, v in _EQUITY.findall(cube)}
        if not (pid and mid and act and pm and len(eq) == 3):
            continue
        nums = [float(v) for v in pm.groups()]
        probs = (nums[0], nums[1], nums[2], nums[4], nums[5])
        nd = next(v for k, v in eq.items() if k.startswith("no "))
        dp = next(v for k, v in eq.items() if k.endswith("pass"))
        dt = next(v for k, v in eq.items() if k.endswith("take"))
        action = {"doubles": "double", "accepts": "take", "rejects": "pass"}.get(act.group(1), "no double")
        if action in ("take", "pass"):  # the export shows the taker's view: back to the doubler's
            probs = (1 - nums[0], nums[4], nums[5], nums[1], nums[2])
            nd, dt, dp = -nd, -dt, -dp
        proper = re.search(r"Proper cube action: (.*)", cube)
        alert = _ALERT.search(block)
        found.append(Decision(source, number, action, pid.group(1), mid.group(1), probs, nd, dt, dp,
                              proper.group(1).strip() if proper else "?",
                              alert.group(1) if alert else "", abs(float(alert.group(2))) if alert else 0.0))
    return found


def cube_info(d: Decision):  # type: ignore[no-untyped-def]
    """Our CubeInfo of the decision (the doubler on roll) and its position."""
    from gammon.ai.cube import CubeInfo
    from gammon.core.match_id import decode_match_id
    from gammon.core.position import Position

    mid = decode_match_id(d.match_id)
    p = mid.player_on_roll
    owner = -1 if mid.cube_owner is None else (0 if mid.cube_owner == p else 1)
    info = CubeInfo(value=mid.cube_value, owner=owner, match_length=mid.match_length,
                    score=(mid.score[p], mid.score[1 - p]), crawford=mid.crawford)
    return info, Position.from_position_id(d.position_id)


def cost(d: Decision, doubles: bool, takes: bool) -> float:
    """What a decision costs by GNU Backgammon's equities (EMG; the doubler's view for the doubler)."""
    if d.action in ("take", "pass"):
        return max(0.0, d.dt - d.dp) if takes else max(0.0, d.dp - d.dt)
    best = max(d.nd, min(d.dt, d.dp))
    return best - (min(d.dt, d.dp) if doubles else d.nd)


def model_cost(d: Decision) -> tuple[float, object]:
    """The cost of our cube code's decision from GNU Backgammon's probabilities."""
    from gammon.ai.cube import DOUBLE_PASS, DOUBLE_TAKE, PASS, cube_decision, cube_efficiency

    info, pos = cube_info(d)
    ours = cube_decision(d.probs, info, cube_efficiency(pos))
    return cost(d, ours.action in (DOUBLE_TAKE, DOUBLE_PASS), ours.taker_action != PASS), ours


def where(info) -> str:  # type: ignore[no-untyped-def]
    if info.is_money:
        return "money"
    a, b = info.away
    tag = " Crawford" if info.crawford else (" post-Crawford" if info.post_crawford else "")
    return f"{a}a-{b}a{tag}"


def describe(d: Decision, engine: object) -> str:
    """One flagged decision with our own view of it."""
    from gammon.ai.cube import cube_efficiency

    info, pos = cube_info(d)
    ours = engine.cube_action(pos, info)  # type: ignore[attr-defined]
    mine = tuple(float(v) for v in engine.evaluate(pos).probabilities)  # type: ignore[attr-defined]
    mcost, theirs = model_cost(d)
    own = {-1: "centred", 0: "own", 1: "theirs"}[info.owner]

    def fmt(y: tuple[float, ...]) -> str:
        return " ".join(f"{v:.3f}" for v in y)

    return "\n".join([
        f"{d.source} move {d.move}: {d.alert} ({d.cost:.3f}) {where(info)} cube {info.value} {own}; "
        f"played: {d.action}; {d.position_id}:{d.match_id}",
        f"   gnubg {fmt(d.probs)}  ND {d.nd:+.3f} DT {d.dt:+.3f} DP {d.dp:+.3f} -> {d.proper}",
        f"   ours  {fmt(mine)}  ND {ours.no_double:+.3f} DT {ours.double_take:+.3f} "
        f"DP {ours.double_pass:+.3f} -> {ours.action}/{ours.taker_action} "
        f"(tp {100 * ours.take_point:.1f}%, x {cube_efficiency(pos):.2f})",
        f"   our cube code on gnubg's probs: ND {theirs.no_double:+.3f} DT {theirs.double_take:+.3f} "  # type: ignore[attr-defined]
        f"DP {theirs.double_pass:+.3f} -> {theirs.action}/{theirs.taker_action} costs {mcost:.3f}",  # type: ignore[attr-defined]
    ])


def load(paths: list[Path], plies: int, gnubg: str, cache: Path | None) -> list[Decision]:
    """The analysed decisions of every .mat (from ``cache`` when it holds them)."""
    if cache is not None and cache.exists():
        raw = gzip.decompress(cache.read_bytes()) if cache.suffix == ".gz" else cache.read_bytes()
        return [Decision(**{**r, "probs": tuple(r["probs"])}) for r in json.loads(raw)]
    mats: list[Path] = []
    for p in paths:
        mats += sorted(p.glob("*.mat")) if p.is_dir() else [p]
    out: list[Decision] = []
    for i, mat in enumerate(mats):
        print(f"[{i + 1}/{len(mats)}] GNU Backgammon analyses {mat.parent.name}/{mat.name}", file=sys.stderr,
              flush=True)
        with tempfile.TemporaryDirectory(prefix="cube_errors_") as tmp:
            for part in export_text(mat, plies, gnubg, Path(tmp)):
                tail = part.stem[len(mat.stem):].lstrip("_") or "001"
                out += parse_export(part.read_text(), f"{mat.parent.name}/{mat.stem} game {tail}")
    if cache is not None:
        data = json.dumps([asdict(d) for d in out]).encode()
        cache.write_bytes(gzip.compress(data) if cache.suffix == ".gz" else data)
    return out


def main(argv: list[str] | None = None) -> int:
    from gammon.play.external import gnubg_executable

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", type=Path, help=".mat files or folders of them")
    parser.add_argument("--level", default="expert", help="whose probabilities to show (the level's depth)")
    parser.add_argument("--plies", type=int, default=2, help="GNU Backgammon's analysis depth")
    parser.add_argument("--cache", type=Path, default=None,
                        help="JSON of the analyses, gzipped if it ends in .gz (read if present)")
    parser.add_argument("--summary-only", action="store_true", help="only the totals, not each flagged one")
    parser.add_argument("--gnubg", default=gnubg_executable())
    parser.add_argument("--policies", default="",
                        help="comma-separated cube policies to cost on the same decisions instead "
                             f"({', '.join(POLICIES)})")
    parser.add_argument("--limit", type=int, default=0, help="with --policies: the first N decisions only")
    parser.add_argument("--weights", type=Path, default=None,
                        help="with --policies: re-decide with this net (default: the shipped one)")
    parser.add_argument("--roll-margin", type=float, default=ROLL_MARGIN,
                        help="policy rollout: how close (EMG, by ahead2) a decision is rolled out")
    parser.add_argument("--roll-trials", type=int, default=ROLL_TRIALS,
                        help="policy rollout: trials of each cube state")
    parser.add_argument("--roll-processes", type=int, default=1,
                        help="policy rollout: worker processes of each rollout")
    parser.add_argument("--met", default=None, metavar="FILE|model",
                        help="the match equity table our cube code uses: a published one (GNU Backgammon "
                             "XML), 'model' for our model alone (default: the table in use)")
    args = parser.parse_args(argv)
    try:
        table = _table(args.met)
    except Exception as exc:  # GammonError: the file's own one-line reason
        print(f"error: {exc}", file=sys.stderr)
        return 2
    from gammon.ai.met import met_in_use

    with met_in_use(table):
        return _run(args)


def _table(met: str | None):  # type: ignore[no-untyped-def]
    """The table ``--met`` names (None: the table in use)."""
    from gammon.ai.met import MatchEquityTable, load_met

    if met is None:
        return None
    return MatchEquityTable() if met == "model" else load_met(met)


def _run(args: argparse.Namespace) -> int:
    from gammon.ai.engine import Engine
    from gammon.ai.met import default_met

    print(f"match equity table: {default_met().name}")
    if not args.gnubg and not (args.cache and args.cache.exists()):
        print("error: GNU Backgammon (gnubg) is not installed", file=sys.stderr)
        return 2
    if args.weights is not None and not args.weights.is_file():
        print(f"error: no such weights file: {args.weights}", file=sys.stderr)
        return 2
    with results_archive.unpacked(args.paths) as paths:  # a packed run's .mat files, for gnubg
        decisions = load(paths, args.plies, args.gnubg, args.cache)
    if args.policies:
        names = [p.strip() for p in args.policies.split(",") if p.strip()]
        unknown = [p for p in names if p not in POLICIES]
        if unknown:
            print(f"error: unknown policies {unknown}; known: {', '.join(POLICIES)}", file=sys.stderr)
            return 2
        policy_table(decisions[: args.limit or None], names, args.weights, args.roll_margin, args.roll_trials,
                     args.roll_processes)
        return 0
    engine = None if args.summary_only else Engine(args.level)
    played: dict[str, list[float]] = {}
    model: dict[str, list[float]] = {}
    for d in decisions:
        mcost, ours = model_cost(d)
        if d.alert:
            played.setdefault(d.alert, []).append(d.cost)
            if engine is not None:
                print(describe(d, engine), flush=True)
        if mcost > 1e-9:
            kind = _kind(d, ours)
            model.setdefault(kind, []).append(mcost)
    n = len(decisions)
    print(f"\n{n} cube decisions analysed by GNU Backgammon ({args.plies}-ply)")
    for name, table in (("played (gnubg's alerts)", played), ("model: our cube code on gnubg's probabilities",
                                                              model)):
        total = sum(sum(v) for v in table.values())
        print(f"{name}: {total:.3f} EMG in all")
        for k, v in sorted(table.items()):
            print(f"  {k}: {len(v)}, {sum(v):.3f} EMG")
    return 0


#: Cube policies :func:`policy_table` compares: Janowski's formula at the root on our
#: n-ply cubeless probabilities (``rootN``), or the cubeful look-ahead of
#: :mod:`gammon.ai.cube_search` with the formula N rolls ahead (``aheadN``).
POLICIES = ("root0", "root1", "root2", "ahead1", "ahead2", "rollout")
#: ``rollout``: ahead2's decision, except where ahead2's own equities call it close (within
#: ``--roll-margin`` EMG: no double against double for the doubler, take against pass for the
#: taker); those are decided by cubeful, variance-reduced rollouts of no double and double/take
#: (``--roll-trials`` trials each, the same dice for both, the policy's 0-ply net playing).
ROLL_MARGIN = 0.08
ROLL_TRIALS = 72


def is_close(d: Decision, ahead, margin: float) -> bool:  # type: ignore[no-untyped-def]
    """Whether ``ahead`` (our decision) calls ``d``'s choice close: the doubler's no double
    against double, or the taker's take against pass."""
    from gammon.ai.cube_rollout import is_close_call

    return is_close_call(ahead, margin, "taker" if d.action in ("take", "pass") else "doubler")


def policy_table(decisions: list[Decision], names: list[str], weights: Path | None = None,
                 roll_margin: float = ROLL_MARGIN, roll_trials: int = ROLL_TRIALS,
                 roll_processes: int = 1) -> None:
    """Every decision re-decided by each policy, costed by GNU Backgammon's cubeful equities.

    ``weights`` is the net to decide with (None: the shipped one); the same recorded
    decisions re-decided by two nets compare them paired, without replaying matches."""
    import time

    from gammon.ai.cube import (
        DOUBLE_PASS,
        DOUBLE_TAKE,
        PASS,
        cube_decision,
        cube_efficiency,
    )
    from gammon.ai.cube_rollout import rollout_cube
    from gammon.ai.cube_search import cubeful_cube_action
    from gammon.ai.engine import Engine
    from gammon.ai.rollout import RolloutSettings

    rolled = 0
    net = None if weights is None else str(weights)
    shallow = Engine(plies=0, weights=net).evaluator
    deep = Engine("strongest", weights=net).evaluator  # its pruned 2-ply search
    totals = {k: {"all": 0.0, "doubler": 0.0, "taker": 0.0, "errors": 0.0} for k in names}
    seconds = dict.fromkeys(names, 0.0)
    costs: dict[str, list[float]] = {k: [] for k in names}
    races: list[bool] = []
    for i, d in enumerate(decisions):
        info, pos = cube_info(d)
        races.append(is_race(pos))
        for k in names:
            t = time.perf_counter()
            depth = int(k[-1]) if k[-1].isdigit() else 2
            if k == "rollout":
                ours = cubeful_cube_action(shallow, pos, info, 2)
                if is_close(d, ours, roll_margin):
                    settings = RolloutSettings(trials=roll_trials, min_trials=2, processes=roll_processes)
                    ours = rollout_cube(pos, shallow, settings, info).decision
                    rolled += 1
            elif k.startswith("root"):
                ev = deep if depth == 2 else shallow
                ours = cube_decision(ev.evaluate(pos, depth), info, cube_efficiency(pos))
            else:
                ours = cubeful_cube_action(shallow, pos, info, depth)
            seconds[k] += time.perf_counter() - t
            c = cost(d, ours.action in (DOUBLE_TAKE, DOUBLE_PASS), ours.taker_action != PASS)
            row = totals[k]
            row["all"] += c
            row["taker" if d.action in ("take", "pass") else "doubler"] += c
            row["errors"] += c > 1e-9
            costs[k].append(c)
        if (i + 1) % 500 == 0:
            print(f"[{i + 1}/{len(decisions)}] " + ", ".join(f"{k} {totals[k]['all']:.3f}" for k in names),
                  file=sys.stderr, flush=True)
    n = max(1, len(decisions))
    print(f"{len(decisions)} cube decisions analysed by GNU Backgammon; each re-decided by each policy and "
          "costed by its cubeful equities (EMG)")
    print("| policy | error (EMG, all) | as doubler | as taker | decisions in error | ms per decision |")
    print("|---|---|---|---|---|---|")
    for k in names:
        r = totals[k]
        print(f"| {k} | {r['all']:.3f} | {r['doubler']:.3f} | {r['taker']:.3f} | {int(r['errors'])} | "
              f"{1000 * seconds[k] / n:.1f} |")
    if "rollout" in names:
        print(f"rollout: {rolled} decisions within {roll_margin} EMG by ahead2 rolled out "
              f"({roll_trials} trials each state)")
    for k in names:
        print(where_lost(k, decisions, costs[k], races))


#: How many of a policy's costliest decisions :func:`where_lost` lists.
LARGEST = 5


def is_race(position: object) -> bool:
    """No contact left (the race net's or the bear-off tables' positions)."""
    import numpy as np

    from gammon.ai.encoding import is_contact

    return not is_contact(np.frombuffer(position.board, dtype=np.uint8))  # type: ignore[attr-defined]


def where_lost(name: str, decisions: list[Decision], costs: list[float], races: list[bool]) -> str:
    """Lines: a policy's error in races and in contact, and its :data:`LARGEST` costliest decisions
    with their share of the whole (a few large errors or many small ones)."""
    total = sum(costs)
    parts = []
    for label, want in (("contact", False), ("races", True)):
        c = [x for x, r in zip(costs, races, strict=True) if r == want]
        parts.append(f"{label} {sum(c):.3f} EMG in {len(c)} decisions ({sum(x > 1e-9 for x in c)} in error)")
    order = sorted(range(len(costs)), key=lambda i: -costs[i])[:LARGEST]
    top = sum(costs[i] for i in order)
    lines = [f"{name}: " + ", ".join(parts),
             f"{name}: its {len(order)} costliest decisions {top:.3f} EMG "
             f"({100 * top / total if total else 0:.0f}% of it):"]
    for i in order:
        d = decisions[i]
        lines.append(f"  {costs[i]:.3f} {d.action} (GNU Backgammon: {d.proper}) {d.position_id}:{d.match_id}")
    return "\n".join(lines)


def _kind(d: Decision, ours: object) -> str:
    from gammon.ai.cube import DOUBLE_PASS, DOUBLE_TAKE, PASS

    if d.action in ("take", "pass"):
        return "wrong pass" if ours.taker_action == PASS else "wrong take"  # type: ignore[attr-defined]
    doubles = ours.action in (DOUBLE_TAKE, DOUBLE_PASS)  # type: ignore[attr-defined]
    if doubles:
        return "wrong double (too good)" if d.nd > min(d.dt, d.dp) and d.nd > d.dp else "wrong double"
    return "missed double"


if __name__ == "__main__":
    sys.exit(main())
