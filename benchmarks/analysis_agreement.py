#!/usr/bin/env python3
"""gammon's analysis beside GNU Backgammon's 2-ply analysis, decision by decision (issue 35).

A fixed set of matches (:data:`MATCHES`: gammon's levels from ``beginner`` to
``world-class`` against each other, and GNU Backgammon 2-ply playing itself,
``gnubg -t`` driving both sides) is written as ``.mat`` files; each is analysed
by ``gammon.analysis`` (``--plies``, 2 by default) and by GNU Backgammon
(chequer play and cube at ``--gnubg-plies``, cubeful, pruning on, as
``../shared/referee/gnubg_analyse.py`` (beside the repository) does: its ``gnubg.match()`` with
analysis and statistics, its text export).  Printed (and written to
``OUT.txt``):

* per player (a side of a match): PR by each program (500 x the error per
  decision in EMG: GNU Backgammon's from its statistics, chequer error total
  plus cube error total over unforced moves plus close cube decisions), the
  Spearman rank correlation of the two PR columns, the mean absolute
  difference and the bias (gammon minus GNU Backgammon);
* chequer marks: each unforced move's loss by each program put in GNU
  Backgammon's classes (none, doubtful from 0.030, bad from 0.060, very bad
  from 0.120; gammon's ``?!``, ``?``, ``??``), the confusion table, and
  precision and recall at "doubtful or worse" and at "bad or worse";
* cube decisions: each program's kind of error (missed double, wrong double,
  wrong take, wrong pass; GNU Backgammon's from the alerts of its text export)
  per decision, the confusion, and the share of each program's errors that
  the other calls an error of the same kind (all errors, and those of
  0.030 or more);
* the PR gammon gives GNU Backgammon 2-ply's own self-play;
* the time each program took.

Decisions are matched by game, the number of moves before them in the game and
their kind (move, cube, take), and the dice are checked.  A match already
analysed (its ``NN.row.json`` in ``OUT/``) is kept, so a stopped run resumes;
``--summary-only`` reads the packed run (``results_archive.py``).  ``--variant NAME``
analyses the stored matches again with gammon alone (after a change, or with
``--met FILE``, another match equity table), beside the first analysis.  GNU
Backgammon only measures: nothing here trains on it.

``--gnubg-variant P`` puts GNU Backgammon itself, analysing the same stored matches at ``P``
plies, where gammon's analysis stands, and prints the same figures for it
(``OUT_gnubgP.txt``): how closely the referee agrees with itself one ply shallower or deeper,
the measure of what an analysis that is not GNU Backgammon 2-ply can reach.

    nohup nice python benchmarks/analysis_agreement.py > agreement.log 2>&1 &
    python benchmarks/analysis_agreement.py --gnubg-variant 1
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results_archive  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"


@dataclass(frozen=True)
class MatchSpec:
    """One match: who plays (gammon levels, or ``gnubg`` at ``plies``), its length and seed."""

    players: tuple[str, str]
    length: int
    seed: int
    gnubg_plies: int | None = None  # GNU Backgammon playing itself at this depth


#: The matches: gammon's levels across the range, and GNU Backgammon 2-ply's self-play.
MATCHES: tuple[MatchSpec, ...] = (
    MatchSpec(("beginner", "casual"), 7, 1),
    MatchSpec(("beginner", "intermediate"), 7, 2),
    MatchSpec(("casual", "advanced"), 7, 3),
    MatchSpec(("intermediate", "expert"), 7, 4),
    MatchSpec(("advanced", "world-class"), 7, 5),
    MatchSpec(("expert", "world-class"), 7, 6),
    MatchSpec(("gnubg", "gnubg"), 7, 101, gnubg_plies=2),
    MatchSpec(("beginner", "expert"), 7, 7),
    MatchSpec(("casual", "intermediate"), 7, 8),
    MatchSpec(("advanced", "expert"), 7, 9),
    MatchSpec(("world-class", "world-class"), 7, 10),
    MatchSpec(("gnubg", "gnubg"), 7, 102, gnubg_plies=2),
    MatchSpec(("intermediate", "advanced"), 7, 11),
    MatchSpec(("beginner", "world-class"), 7, 12),
    MatchSpec(("expert", "expert"), 7, 13),
    MatchSpec(("gnubg", "gnubg"), 7, 103, gnubg_plies=2),
    MatchSpec(("casual", "world-class"), 7, 14),
    MatchSpec(("gnubg", "gnubg"), 5, 104, gnubg_plies=2),
)

#: GNU Backgammon's mark classes, worst first (its defaults, ``show analysis``).
CLASSES = ((0.120, "very bad"), (0.060, "bad"), (0.030, "doubtful"))
CLASS_NAMES = ("none", "doubtful", "bad", "very bad")
#: An error below this (normalised equity) is none: GNU Backgammon's alerts print 3 decimals,
#: and "wrong double (-0.000)" is a tie.
NOTHING = 0.0005
#: Cube error groups, GNU Backgammon's alert words -> our group; gammon's kinds -> group.
CUBE_GROUPS = ("missed double", "wrong double", "wrong take", "wrong pass")
GAMMON_KIND = {"missed double (below cash point)": "missed double",
               "missed double (above cash point)": "missed double",
               "wrong double (too early)": "wrong double", "wrong double (too good)": "wrong double",
               "wrong take": "wrong take", "wrong beaver": "wrong take", "wrong pass": "wrong pass"}

PLAY_SCRIPT = """
import gnubg, os
for c in ['set jacoby off', 'set beavers 0', 'set seed {seed}', 'set player 0 gnubg', 'set player 1 gnubg',
          'set player 0 chequerplay evaluation plies {plies}',
          'set player 1 chequerplay evaluation plies {plies}',
          'set player 0 cubedecision evaluation plies {plies}',
          'set player 1 cubedecision evaluation plies {plies}',
          'set display off', 'new match {length}', 'export match mat {mat}']:
    gnubg.command(c)
"""

ANALYSE_SCRIPT = """
import gnubg, json
for c in ['set jacoby off', 'set beavers 0',
          'set analysis chequerplay evaluation plies {plies}', 'set analysis chequerplay evaluation cubeful on',
          'set analysis chequerplay evaluation prune on', 'set analysis cubedecision evaluation plies {plies}',
          'set analysis cubedecision evaluation cubeful on', 'set analysis cubedecision evaluation prune on',
          'set analysis cube on', 'set analysis moves on', 'set analysis luck on',
          'set export moves number 5', 'set export cube probabilities on', 'import mat {mat}',
          'analyse match', 'export match text {base}.analysis.txt']:
    gnubg.command(c)
def clean(o):
    if isinstance(o, dict):
        return {{str(k): clean(v) for k, v in o.items()}}
    if isinstance(o, (list, tuple)):
        return [clean(v) for v in o]
    return o.decode('latin-1') if isinstance(o, bytes) else o
with open('{base}.gnubg.json', 'w') as fh:
    json.dump(clean(gnubg.match(1, 1, 1, 0)), fh)
"""


def gnubg_exe() -> str:
    exe = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None)
    if exe is None:
        raise SystemExit("GNU Backgammon (gnubg) is needed as the referee")
    return exe


def run_gnubg(script: str, folder: Path, name: str) -> float:
    """Run a GNU Backgammon Python script in ``folder`` (a HOME of its own outside it, so that the
    run's folder holds only the outputs); the seconds it took."""
    path = folder / f"{name}.py"
    path.write_text(script)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as home:
        out = subprocess.run([gnubg_exe(), "-t", "-q", "-p", str(path)], capture_output=True, text=True,
                             timeout=3600, cwd=folder, env={"HOME": home})
    path.unlink()
    if out.returncode != 0:
        raise RuntimeError(f"gnubg failed: {out.stderr[-2000:]}")
    return time.perf_counter() - start


def make_match(spec: MatchSpec, mat: Path) -> float:
    """Play ``spec`` and write its ``.mat``; the seconds it took."""
    if spec.gnubg_plies is not None:
        script = PLAY_SCRIPT.format(seed=spec.seed, plies=spec.gnubg_plies, length=spec.length, mat=mat)
        return run_gnubg(script, mat.parent, mat.stem + ".play")
    from gammon.core.dice import RandomDice
    from gammon.core.game import Rules
    from gammon.formats.mat import write_mat
    from gammon.play.ai_player import AIPlayer
    from gammon.play.session import play_match

    start = time.perf_counter()
    players = (AIPlayer(spec.players[0], seed=spec.seed), AIPlayer(spec.players[1], seed=spec.seed + 1000))
    m = play_match(Rules(match_length=spec.length), players, RandomDice(spec.seed * 7919))
    mat.write_text(write_mat(m, (f"{spec.players[0]}-A", f"{spec.players[1]}-B")))
    return time.perf_counter() - start


def analyse_one(spec: MatchSpec, i: int, out: Path, plies: int, gnubg_plies: int,
                processes: int) -> dict[str, Any]:
    """Play (if needed) and analyse match ``i`` both ways; its row (also written to ``NN.row.json``)."""
    from gammon.analysis import analyse_file

    base = out / f"{i:02d}"
    mat = base.with_suffix(".mat")
    row: dict[str, Any] = {"match": i, "players": list(spec.players), "length": spec.length, "seed": spec.seed,
                           "gnubg_self_play": spec.gnubg_plies}
    row["play_seconds"] = make_match(spec, mat) if not mat.exists() else None
    start = time.perf_counter()
    a = analyse_file(str(mat), plies=plies, processes=processes, explain=False)
    row["gammon_seconds"] = time.perf_counter() - start
    (base.parent / f"{i:02d}.gammon.json").write_text(json.dumps(a.to_dict()))
    row["gnubg_seconds"] = run_gnubg(ANALYSE_SCRIPT.format(plies=gnubg_plies, mat=mat, base=base), out,
                                     f"{i:02d}.analyse")
    (base.parent / f"{i:02d}.row.json").write_text(json.dumps(row))
    return row


# -- reading GNU Backgammon's outputs --------------------------------------------------------

def gnubg_checker(gj: dict[str, Any]) -> dict[tuple[int, int], tuple[str, tuple[int, int], float | None]]:
    """(game, move number in the game) -> (player name, dice, loss or None when forced), from
    ``gnubg.match()``."""
    names = {"X": gj["match-info"]["X"]["name"], "O": gj["match-info"]["O"]["name"]}
    out: dict[tuple[int, int], tuple[str, tuple[int, int], float | None]] = {}
    for g, game in enumerate(gj["games"], 1):
        k = 0
        for rec in game["game"]:
            if rec.get("action") != "move":
                continue
            an = rec.get("analysis", {})
            moves = an.get("moves", [])
            loss = None
            if an.get("candidates", len(moves)) > 1 and "imove" in an:
                loss = max(0.0, moves[0]["score"] - moves[an["imove"]]["score"])
            d = rec.get("dice") or [0, 0]
            out[(g, k)] = (names[rec["player"]], (min(d), max(d)), loss)
            k += 1
    return out


HEAD = re.compile(r"^Move number \d+:\s+(.+?) (to play (\d)(\d)|on roll, cube decision\?|doubles to \d+)\s*$")
ALERT = re.compile(r"^Alert: (missed double|wrong double|wrong take|wrong pass)\S*\s*\(\s*([-+]?\d*\.\d+)")


def gnubg_cube(base: Path, games: int) -> dict[tuple[int, int, str], tuple[str, str | None, float]]:
    """(game, moves before, 'cube' or 'take') -> (decider's name, error group or None, loss), from the
    text export (one file a game: ``NN.analysis.txt``, ``NN.analysis_002.txt``, ...)."""
    out: dict[tuple[int, int, str], tuple[str, str | None, float]] = {}
    for g in range(1, games + 1):
        path = base.parent / (f"{base.name}.analysis.txt" if g == 1 else f"{base.name}.analysis_{g:03d}.txt")
        text = results_archive.read_text(path)
        k, key, who = 0, None, ""
        for line in text.splitlines():
            h = HEAD.match(line)
            if h:
                name, what = h.group(1), h.group(2)
                if what.startswith("to play"):
                    key, who = (g, k, "cube"), name
                    k += 1
                elif what.startswith("on roll"):
                    key, who = (g, k, "cube"), name
                else:
                    key, who = (g, k, "take"), ""  # the taker: named by the action line
                continue
            if key is None:
                continue
            if key[2] == "take" and line.startswith("* ") and (" accepts" in line or " rejects" in line):
                who = line[2:].rsplit(" ", 1)[0]
            if line.startswith("Cube analysis") or line.startswith("* ") and " doubles" in line:
                out.setdefault(key, (who, None, 0.0))
            a = ALERT.match(line)
            if a:
                out[key] = (who, a.group(1), abs(float(a.group(2))))
    return out


def gnubg_players(gj: dict[str, Any]) -> dict[str, dict[str, float]]:
    """Per player name: unforced moves, close cube decisions, chequer and cube error totals (EMG), PR."""
    out = {}
    for side in ("X", "O"):
        st = gj["stats"][side]
        mv, cb = st["moves"], st["cube"]
        cube_err = sum(v for k, v in cb.items() if k.startswith("err-") and k.endswith("-skill"))
        n = mv["unforced-moves"] + cb["close-cube"]
        err = mv["error-skill"] + cube_err
        out[gj["match-info"][side]["name"]] = {
            "unforced": mv["unforced-moves"], "close_cube": cb["close-cube"],
            "checker_error": mv["error-skill"],
            "cube_error": cube_err, "pr": 500.0 * err / n if n else 0.0}
    return out


def gammon_decisions(aj: dict[str, Any]) -> tuple[dict[tuple[int, int], dict[str, Any]],
                                                   dict[tuple[int, int, str], dict[str, Any]]]:
    """gammon's decisions keyed as GNU Backgammon's: moves by (game, move number), cube decisions and
    takes by (game, moves before, kind)."""
    moves: dict[tuple[int, int], dict[str, Any]] = {}
    cubes: dict[tuple[int, int, str], dict[str, Any]] = {}
    for game in aj["games"]:
        g, k = game["game"], 0
        for d in game["decisions"]:
            if d["kind"] == "move":
                moves[(g, k)] = d
                k += 1
            elif d["kind"] in ("cube", "take"):
                cubes[(g, k, d["kind"])] = d
    return moves, cubes


def mark_class(loss: float) -> str:
    """GNU Backgammon's mark for a loss (normalised equity)."""
    for limit, name in CLASSES:
        if loss >= limit - 1e-9:
            return name
    return "none"


# -- figures ------------------------------------------------------------------------------------

def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation (average ranks for ties)."""
    def ranks(v: list[float]) -> list[float]:
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        i = 0
        while i < len(v):
            j = i
            while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for t in range(i, j + 1):
                r[order[t]] = (i + j) / 2.0
            i = j + 1
        return r

    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx) ** 0.5
    vy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (vx * vy) if vx and vy else float("nan")


def load_run(out: Path, variant: str = "") -> list[dict[str, Any]]:
    """Every analysed match of the run: its row with the two analyses (gammon's of ``variant``: the
    matches it has analysed, with its times)."""
    rows = []
    for member in results_archive.glob(out, "*.row.json"):
        row = json.loads(member.read_text())
        base = out / f"{row['match']:02d}"
        name = f"{base.name}.gammon.{variant}.json" if variant else f"{base.name}.gammon.json"
        if not results_archive.exists(base.with_name(name)):
            continue
        row["gammon"] = json.loads(results_archive.read_text(base.with_name(name)))
        if variant:
            seconds = results_archive.read_text(base.with_name(f"{base.name}.{variant}.seconds"))
            row["gammon_seconds"] = float(seconds)
        row["gnubg"] = json.loads(results_archive.read_text(base.with_name(f"{base.name}.gnubg.json")))
        row["base"] = base
        rows.append(row)
    return sorted(rows, key=lambda r: r["match"])


#: One analysis's view of a match, the side compared with GNU Backgammon 2-ply: per player (name,
#: PR, decisions counted), moves by key -> (dice, loss or None when forced), cube decisions by
#: key -> (error group or None, loss).
Analysis = tuple[list[tuple[str, float, int]], dict[tuple[int, int], tuple[tuple[int, int], float | None]],
                 dict[tuple[int, int, str], tuple[str | None, float]]]


def gammon_analysis(row: dict[str, Any]) -> Analysis:
    """gammon's analysis of the row's match (``row["gammon"]``) as :data:`Analysis`."""
    aj = row["gammon"]
    players = [(name, aj["players"][i]["pr"] or 0.0, aj["players"][i]["decisions"])
               for i, name in enumerate(aj["names"])]
    moves, cubes = gammon_decisions(aj)
    return (players,
            {key: (tuple(sorted(d["dice"] or (0, 0))), None if d["forced"] else d["equity_lost"])
             for key, d in moves.items()},
            {key: (GAMMON_KIND.get(d["error_kind"] or ""), d["equity_lost"]) for key, d in cubes.items()})


def gnubg_analysis(gj: dict[str, Any], base: Path) -> Analysis:
    """GNU Backgammon's analysis ``gj`` (its text export beside ``base``) as :data:`Analysis`."""
    players = [(name, p["pr"], p["unforced"] + p["close_cube"]) for name, p in gnubg_players(gj).items()]
    return (players, {key: (dice, loss) for key, (_who, dice, loss) in gnubg_checker(gj).items()},
            {key: (kind, loss) for key, (_who, kind, loss) in gnubg_cube(base, len(gj["games"])).items()})


def compare(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The side-by-side figures over all matches (see the module text): gammon's analysis against
    GNU Backgammon 2-ply's, or, in a row holding ``other`` (:func:`load_gnubg_variant`), GNU
    Backgammon's own at another depth in gammon's place."""
    players, marks, cube = [], Counter(), Counter()
    dice_mismatch = 0
    for row in rows:
        gj = row["gnubg"]
        ours_players, ours_moves, ours_cube = (gnubg_analysis(row["other"], row["other_base"]) if "other" in row
                                               else gammon_analysis(row))
        theirs_players, theirs_moves, theirs_cube = gnubg_analysis(gj, row["base"])
        theirs_by_name = {name: (pr, n) for name, pr, n in theirs_players}
        for name, pr, n in ours_players:
            players.append({"match": row["match"], "name": name,
                            "self_play": row["gnubg_self_play"] is not None,
                            "ours": pr, "gnubg": theirs_by_name[name][0], "ours_n": n,
                            "gnubg_n": theirs_by_name[name][1]})
        for key, (dice, loss) in theirs_moves.items():
            found = ours_moves.get(key)
            if found is None or found[0] != dice:
                dice_mismatch += 1
                continue
            if found[1] is None or loss is None:
                continue
            marks[(mark_class(found[1]), mark_class(loss))] += 1
        for key in set(ours_cube) | set(theirs_cube):
            ours_kind, ours_loss = ours_cube.get(key, (None, 0.0))
            their_kind, their_loss = theirs_cube.get(key, (None, 0.0))
            cube[(ours_kind if ours_loss >= NOTHING else None, their_kind if their_loss >= NOTHING else None,
                  ours_loss >= 0.03, their_loss >= 0.03)] += 1
    return {"players": players, "marks": marks, "cube": cube, "dice_mismatch": dice_mismatch}


def _ratio(num: int, den: int) -> str:
    return f"{num / den:.2f} ({num}/{den})" if den else "n/a"


def marks_lines(marks: Counter[tuple[str, str]]) -> list[str]:
    """The chequer marks' confusion table and precision / recall at two levels."""
    lines = ["Chequer marks, unforced moves (rows: gammon, columns: GNU Backgammon)",
             f"{'':<10}" + "".join(f"{c:>10}" for c in CLASS_NAMES)]
    for r in CLASS_NAMES:
        lines.append(f"{r:<10}" + "".join(f"{marks[(r, c)]:>10}" for c in CLASS_NAMES))
    for label, level in (("doubtful or worse (?!, ?, ??)", 1), ("bad or worse (?, ??)", 2)):
        worse = set(CLASS_NAMES[level:])
        both = sum(n for (a, b), n in marks.items() if a in worse and b in worse)
        ours = sum(n for (a, _), n in marks.items() if a in worse)
        theirs = sum(n for (_, b), n in marks.items() if b in worse)
        lines.append(f"  {label}: precision {_ratio(both, ours)}, recall {_ratio(both, theirs)}")
    bad, marked = set(CLASS_NAMES[2:]), set(CLASS_NAMES[1:])
    theirs_bad = sum(n for (_, b), n in marks.items() if b in bad)
    ours_bad = sum(n for (a, _), n in marks.items() if a in bad)
    lines.append("  one class apart allowed: GNU Backgammon's bad or worse that gammon marks at all "
                 f"{_ratio(sum(n for (a, b), n in marks.items() if b in bad and a in marked), theirs_bad)}; "
                 "gammon's bad or worse that GNU Backgammon marks at all "
                 f"{_ratio(sum(n for (a, b), n in marks.items() if a in bad and b in marked), ours_bad)}")
    exact = sum(n for (a, b), n in marks.items() if a == b)
    lines.append(f"  same class: {_ratio(exact, sum(marks.values()))}")
    return lines


def cube_lines(cube: Counter[tuple[Any, ...]]) -> list[str]:
    """The cube errors' confusion by kind and the agreement both ways."""
    kinds = (None, *CUBE_GROUPS)
    label = {None: "no error", **{k: k for k in CUBE_GROUPS}}
    lines = ["Cube decisions by kind of error (rows: gammon, columns: GNU Backgammon)",
             f"{'':<15}" + "".join(f"{label[c]:>15}" for c in kinds)]
    for r in kinds:
        lines.append(f"{label[r]:<15}" + "".join(
            f"{sum(n for k, n in cube.items() if k[0] == r and k[1] == c):>15}" for c in kinds))
    for title, big in (("all errors", False), ("errors of 0.030 or more", True)):
        agree_g = sum(n for k, n in cube.items() if k[1] and k[0] == k[1] and (k[3] or not big))
        all_g = sum(n for k, n in cube.items() if k[1] and (k[3] or not big))
        agree_o = sum(n for k, n in cube.items() if k[0] and k[0] == k[1] and (k[2] or not big))
        all_o = sum(n for k, n in cube.items() if k[0] and (k[2] or not big))
        lines.append(f"  {title}: GNU Backgammon's errors gammon calls the same kind {_ratio(agree_g, all_g)}; "
                     f"gammon's errors GNU Backgammon calls the same kind {_ratio(agree_o, all_o)}")
    return lines


def _met(ok: bool) -> str:
    return "MET" if ok else "MISSED"


def summary(rows: list[dict[str, Any]], plies: int, gnubg_plies: int, who: str = "") -> str:
    """The whole printed report of a run; ``who``: the analysis compared with GNU Backgammon's, when
    it is not gammon's at ``plies``."""
    c = compare(rows)
    ps = c["players"]
    who = who or f"gammon analysis {plies}-ply"
    lines = [f"{who} against GNU Backgammon {gnubg_plies}-ply (cubeful, pruning), "
             f"{len(rows)} matches, {len(ps)} players",
             f"{'match':>5} {'player':<18}{'decisions g/G':>15}{'PR gammon':>11}{'PR gnubg':>10}{'diff':>8}"]
    for p in ps:
        lines.append(f"{p['match']:>5} {p['name']:<18}{p['ours_n']:>8}/{p['gnubg_n']:<6}{p['ours']:>11.2f}"
                     f"{p['gnubg']:>10.2f}{p['ours'] - p['gnubg']:>+8.2f}")
    xs, ys = [p["ours"] for p in ps], [p["gnubg"] for p in ps]
    diffs = [a - b for a, b in zip(xs, ys, strict=True)]
    rho = spearman(xs, ys)
    mad = sum(abs(d) for d in diffs) / len(diffs)
    bias = sum(diffs) / len(diffs)
    own = [p for p in ps if p["self_play"]]
    own_ours = sum(p["ours"] for p in own) / len(own) if own else float("nan")
    own_gnubg = sum(p["gnubg"] for p in own) / len(own) if own else float("nan")
    lines += ["", f"Spearman rank correlation of PR: {rho:.4f} (target >= 0.95: {_met(rho >= 0.95)})",
              f"mean |PR gammon - PR gnubg|: {mad:.2f} (target <= 0.4: {_met(mad <= 0.4)})",
              f"mean bias (gammon - gnubg): {bias:+.2f} (target within +-0.2: {_met(abs(bias) <= 0.2)})",
              f"GNU Backgammon {gnubg_plies}-ply self-play ({len(own)} players): PR by gammon {own_ours:.2f}, "
              f"by GNU Backgammon {own_gnubg:.2f} (target: gammon <= 0.5: {_met(own_ours <= 0.5)})"]
    rest = [p for p in ps if not p["self_play"]]
    if len(rest) > 2:
        rho_rest = spearman([p["ours"] for p in rest], [p["gnubg"] for p in rest])
        lines.append(f"without the self-play: Spearman {rho_rest:.3f}, "
                     f"mean |diff| {sum(abs(p['ours'] - p['gnubg']) for p in rest) / len(rest):.2f}, "
                     f"bias {sum(p['ours'] - p['gnubg'] for p in rest) / len(rest):+.2f}")
    lines += ["", *marks_lines(c["marks"]), "", *cube_lines(c["cube"]), "",
              f"moves whose dice did not match (left out): {c['dice_mismatch']}",
              "", "Timings (seconds, this machine shared with other work)",
              f"{'match':>5} {'players':<28}{'play':>8}{'gammon':>9}{'gnubg':>8}"]
    for r in rows:
        play = "-" if r.get("play_seconds") is None else f"{r['play_seconds']:.0f}"
        lines.append(f"{r['match']:>5} {' v '.join(r['players']):<28}{play:>8}{r['gammon_seconds']:>9.1f}"
                     f"{r['gnubg_seconds']:>8.1f}")
    lines.append(f"total: gammon {sum(r['gammon_seconds'] for r in rows):.0f} s, "
                 f"GNU Backgammon {sum(r['gnubg_seconds'] for r in rows):.0f} s")
    return "\n".join(lines) + "\n"


#: The lines of GNU Backgammon's text export the comparison reads (the rest is boards and candidates).
_KEPT_LINE = re.compile(r"^(Move number |\* |Alert: |Cube analysis|Proper cube action|\d\. (No|Double))")


def slim(out: Path) -> None:
    """Cut the raw outputs in ``out`` to what the comparison reads, before packing: GNU Backgammon's
    ``gnubg.match()`` without the probabilities and the candidates but the best and the one played
    (their equities, and how many candidates there were), its text export without boards and
    candidate lists (headers, actions, alerts, cube equities stay), gammon's analyses without the
    candidates and explanations.
    What the comparison prints is the same before and after, and slimming again changes nothing
    (a run packed once can be unpacked, given a variant's files and packed again)."""
    for path in out.glob("*.gnubg.json"):
        gj = json.loads(path.read_text())
        for game in gj["games"]:
            for rec in game["game"]:
                an = rec.get("analysis", {})
                an.pop("probs", None)
                moves = an.get("moves")
                if moves and "imove" in an:  # the best and the played play, and how many there were
                    kept = [moves[0]] if an["imove"] == 0 else [moves[0], moves[an["imove"]]]
                    an.update(moves=[{"score": round(m["score"], 6)} for m in kept], imove=len(kept) - 1,
                              candidates=an.get("candidates", len(moves)))  # slimmed twice: the same
        path.write_text(json.dumps(gj))
    for path in out.glob("*.analysis*.txt"):
        kept = [line for line in path.read_text().splitlines() if _KEPT_LINE.match(line)]
        path.write_text("\n".join(kept) + "\n")
    for path in out.glob("*.gammon*.json"):
        aj = json.loads(path.read_text())
        for game in aj["games"]:
            for d in game["decisions"]:
                for key in ("alternatives", "explanation", "probabilities"):
                    d.pop(key, None)
        path.write_text(json.dumps(aj))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=RESULTS / "analysis_agreement")
    ap.add_argument("--plies", type=int, default=2)
    ap.add_argument("--gnubg-plies", type=int, default=2)
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--matches", type=int, default=len(MATCHES), help="the first N of the set")
    ap.add_argument("--start", type=int, default=0, help="begin at match K (another process may do the others)")
    ap.add_argument("--variant", default="", help="analyse the stored matches again (gammon only) under this "
                    "name, e.g. after a change to the analysis: NN.gammon.NAME.json, summary OUT_NAME.txt")
    ap.add_argument("--met", type=Path, help="with --variant: a match equity table file for gammon's analysis")
    ap.add_argument("--gnubg-variant", type=int, metavar="P", help="GNU Backgammon's own analysis of the "
                    "stored matches at P plies in gammon's place (NN.gnubgP.*, summary OUT_gnubgP.txt)")
    ap.add_argument("--summary-only", action="store_true")
    ap.add_argument("--pack", action="store_true", help="at the end, cut the raw outputs to what the "
                    "comparison reads and pack them (results_archive.py): OUT.tar.bz2")
    args = ap.parse_args(argv)
    out: Path = args.out
    if args.gnubg_variant is not None:
        return gnubg_variant_main(out, args.gnubg_variant, args.gnubg_plies, args.matches, args.summary_only,
                                  args.pack)
    if not args.summary_only:
        out.mkdir(parents=True, exist_ok=True)
        for i, spec in list(enumerate(MATCHES[: args.matches]))[args.start:]:
            row_path = out / f"{i:02d}.row.json"
            if args.variant:
                if not row_path.exists() or (out / f"{i:02d}.gammon.{args.variant}.json").exists():
                    continue
                analyse_variant(out, i, args.variant, args.met, args.plies, args.processes)
            elif row_path.exists():
                continue
            else:
                analyse_one(spec, i, out, args.plies, args.gnubg_plies, args.processes)
            print(f"match {i} {' v '.join(spec.players)} done {time.strftime('%H:%M:%S')}", flush=True)
    rows = load_run(out, args.variant)
    text = summary(rows, args.plies, args.gnubg_plies)
    if args.variant:
        table = f" (match equity table {args.met})" if args.met else ""
        text = f"variant {args.variant}{table}\n{text}"
    print(text)
    out.with_name(out.name + (f"_{args.variant}" if args.variant else "") + ".txt").write_text(text)
    if args.pack:
        slim(out)
        results_archive.pack(out)
    return 0


def analyse_variant(out: Path, i: int, variant: str, met: Path | None, plies: int, processes: int) -> None:
    """gammon's analysis of stored match ``i`` again, as ``variant`` (with the table ``met``, if given)."""
    from gammon.ai.met import load_met, met_in_use
    from gammon.analysis import analyse_file

    start = time.perf_counter()
    with met_in_use(None if met is None else load_met(met)):
        a = analyse_file(str(out / f"{i:02d}.mat"), plies=plies, processes=processes, explain=False)
    seconds = time.perf_counter() - start
    (out / f"{i:02d}.gammon.{variant}.json").write_text(json.dumps(a.to_dict()))
    (out / f"{i:02d}.{variant}.seconds").write_text(f"{seconds:.1f}\n")


def gnubg_variant_main(out: Path, plies: int, gnubg_plies: int, matches: int, summary_only: bool,
                       pack: bool) -> int:
    """``--gnubg-variant``: GNU Backgammon's analysis of every stored match at ``plies`` (those not yet
    done), compared with its ``gnubg_plies`` analysis as gammon's would be."""
    if not 0 <= plies <= 4:
        raise SystemExit(f"--gnubg-variant takes 0 to 4 plies, not {plies}")
    name = f"gnubg{plies}"
    if not summary_only:
        out.mkdir(parents=True, exist_ok=True)
        for member in results_archive.glob(out, "*.row.json"):
            i = json.loads(member.read_text())["match"]
            if i >= matches or results_archive.exists(out / f"{i:02d}.{name}.gnubg.json"):
                continue
            with tempfile.TemporaryDirectory() as tmp:
                mat = Path(tmp) / f"{i:02d}.mat"
                mat.write_bytes(results_archive.read_bytes(out / f"{i:02d}.mat"))
                seconds = run_gnubg(ANALYSE_SCRIPT.format(plies=plies, mat=mat, base=out / f"{i:02d}.{name}"),
                                    out, f"{i:02d}.{name}.analyse")
            (out / f"{i:02d}.{name}.seconds").write_text(f"{seconds:.1f}\n")
            print(f"match {i} analysed by GNU Backgammon {plies}-ply {time.strftime('%H:%M:%S')}", flush=True)
    rows = load_gnubg_variant(out, name)
    text = summary(rows, plies, gnubg_plies, who=f"GNU Backgammon's own analysis {plies}-ply")
    # The compared analysis is named where gammon's would be ("Backgammon" has no word break).
    text = f"variant {name}\n" + re.sub(r"\bgammon\b", name, text)
    print(text)
    out.with_name(f"{out.name}_{name}.txt").write_text(text)
    if pack:
        slim(out)
        results_archive.pack(out)
    return 0


def load_gnubg_variant(out: Path, name: str) -> list[dict[str, Any]]:
    """The stored matches that GNU Backgammon analysed as ``name`` (``gnubgP``): each row with the
    reference analysis (``gnubg``, ``base``) and the other (``other``, ``other_base``); its time in
    ``gammon_seconds``, where the report's timings read it."""
    rows = []
    for member in results_archive.glob(out, "*.row.json"):
        row = json.loads(member.read_text())
        base = out / f"{row['match']:02d}"
        other = base.with_name(f"{base.name}.{name}.gnubg.json")
        if not results_archive.exists(other):
            continue
        row["other"] = json.loads(results_archive.read_text(other))
        row["other_base"] = base.with_name(f"{base.name}.{name}")
        row["gammon_seconds"] = float(results_archive.read_text(base.with_name(f"{base.name}.{name}.seconds")))
        row["gnubg"] = json.loads(results_archive.read_text(base.with_name(f"{base.name}.gnubg.json")))
        row["base"] = base
        rows.append(row)
    return sorted(rows, key=lambda r: r["match"])


if __name__ == "__main__":
    raise SystemExit(main())

