"""Full matches against GNU Backgammon through its external-player interface.

GNU Backgammon (player 0, at ``--gnubg-plies``) plays ``--matches`` matches
of ``--length`` points against gammon (player 1, at ``--level``), which
answers every decision through ``gammon.play.external`` (the code behind
``gammon external``), served from this process on a local TCP port.  The
dice come from GNU Backgammon's Mersenne Twister with ``set seed`` (match i
uses seed ``--seed + i``).  Every match is saved as ``.mat``; gammon's own
``.mat`` reader replays it (every action checked against the rules), and GNU
Backgammon analyses it (``--analyse-plies``, 0 to skip) for both sides' error
rates.  Printed and written to ``OUT.txt``: matches won with a standard
error, points per game, the analysis, and the protocol errors (answers gnubg
refused or could not read, lines gammon could not answer, matches that did
not finish or do not replay).

Matches already in ``OUT/`` (their ``.json`` summary present) are kept, so a
stopped run resumes.  GNU Backgammon is a benchmark peer only.  A finished run is kept
in the repository packed (``benchmarks/results_archive.py pack OUT``: ``OUT.tar.bz2``
beside ``OUT.txt``); ``--summary-only`` reads the packed matches as they are; to resume or
extend a packed run, ``unpack`` it first.

    python benchmarks/vs_gnubg.py --level expert --matches 50 --length 7
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
import threading
import time
from pathlib import Path

from gammon.formats.mat import read_mat
from gammon.play.external import Controller, describe, gnubg_executable, open_listener, serve

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
import results_archive  # noqa: E402  (a run's matches, in its folder or packed)

#: Run inside GNU Backgammon (``gnubg -t -q -p``): one match, exported, then analysed.
GNUBG_SCRIPT = r'''
import gnubg, os, json
env = os.environ
plies = env["GNUBG_PLIES"]
for c in ["set player 0 gnubg",
          "set player 0 name gnubg",
          "set player 0 chequerplay evaluation plies " + plies,
          "set player 0 cubedecision evaluation plies " + plies,
          "set player 1 external " + env["GAMMON_ADDRESS"],
          "set player 1 name gammon",
          "set defaultnames gnubg gammon",
          "set rng mersenne",
          "set seed " + env["MATCH_SEED"],
          "set automatic game on",
          "new match " + env["MATCH_LENGTH"]]:
    gnubg.command(c)
gnubg.command("export match mat " + env["MATCH_BASE"] + ".mat")
print("MATCH_EXPORTED", flush=True)
aplies = env["ANALYSE_PLIES"]
if aplies != "none":
    for c in ["set analysis chequerplay evaluation plies " + aplies,
              "set analysis chequerplay evaluation cubeful on",
              "set analysis cubedecision evaluation plies " + aplies,
              "set analysis cubedecision evaluation cubeful on",
              "set analysis cube on", "set analysis moves on", "set analysis luck on",
              "analyse match"]:
        gnubg.command(c)
    m = gnubg.match(1, 1, 1, 0)
    def clean(o):
        if isinstance(o, dict):
            return {str(k): clean(v) for k, v in o.items()}
        if isinstance(o, (list, tuple)):
            return [clean(v) for v in o]
        if isinstance(o, bytes):
            return o.decode("latin-1")
        return o
    with open(env["MATCH_BASE"] + ".stats.json", "w") as fh:
        json.dump(clean(m.get("stats", {})), fh)
print("MATCH_DONE", flush=True)
'''

#: gnubg's messages about an external player's answer it could not use.
PROTOCOL_TROUBLE = re.compile(r"badly formed|Error|illegal|External connection closed", re.IGNORECASE)


#: gnubg's lines worth keeping in the per-match log (results, scores).
_NOTABLE = re.compile(r"wins |The score|has won|TIMEOUT|MATCH_(EXPORTED|DONE)")


def play_match(i: int, args: argparse.Namespace, address: str, out: Path, script: Path) -> dict[str, object]:
    """Play, save, replay and analyse match ``i``; the summary row."""
    base = out / f"match_{i:03d}"
    env = dict(os.environ, GNUBG_PLIES=str(args.gnubg_plies), GAMMON_ADDRESS=address,
               MATCH_SEED=str(args.seed + i), MATCH_LENGTH=str(args.length), MATCH_BASE=str(base),
               ANALYSE_PLIES=str(args.analyse_plies)
               if args.analyse_plies >= 0 and i % args.analyse_every == 0 else "none")
    for stale in (base.with_suffix(".mat"), base.with_suffix(".stats.json")):
        stale.unlink(missing_ok=True)  # left by a stopped run: gnubg would ask before overwriting
    started = time.monotonic()
    try:
        run = subprocess.run([args.gnubg, "-t", "-q", "-p", str(script)], env=env, capture_output=True,
                             stdin=subprocess.DEVNULL, text=True, timeout=args.match_timeout, check=False)
        output = run.stdout + run.stderr
    except subprocess.TimeoutExpired as exc:
        output = f"TIMEOUT after {args.match_timeout} s\n{exc.stdout or ''}"
    seconds = time.monotonic() - started
    trouble = [ln for ln in output.splitlines() if PROTOCOL_TROUBLE.search(ln)]
    kept = [ln for ln in output.splitlines() if PROTOCOL_TROUBLE.search(ln) or _NOTABLE.search(ln)]
    base.with_suffix(".gnubg.log").write_text("\n".join(kept) + "\n")  # the board drawings are left out
    row: dict[str, object] = {"match": i, "seed": args.seed + i, "seconds": round(seconds, 1),
                              "gnubg_complaints": trouble[:5], "protocol_errors": len(trouble)}
    mat = base.with_suffix(".mat")
    if not mat.exists():
        row["protocol_errors"] = len(trouble) + 1
        row["problem"] = "no .mat written"
        return row
    try:
        data = read_mat(mat.read_text())
        match = data.replay()
    except ValueError as exc:
        row["protocol_errors"] = len(trouble) + 1
        row["problem"] = f"the .mat does not replay in gammon: {exc}"
        return row
    gnubg_points, gammon_points = match.score
    row.update(finished=match.is_over, winner=match.winner, score=[gnubg_points, gammon_points],
               games=len(match.games))
    if not match.is_over:
        row["protocol_errors"] = int(row["protocol_errors"]) + 1  # type: ignore[call-overload]
        row["problem"] = "the match did not finish"
    stats_path = base.with_suffix(".stats.json")
    if stats_path.exists():
        stats = json.loads(stats_path.read_text())
        sides = (("gnubg", "X"), ("gammon", "O"))  # gnubg's statistics call player 0 X, player 1 O
        row["analysis"] = {side: _side_stats(stats.get(key, {})) for side, key in sides}
    return row


def _side_stats(s: dict[str, dict[str, object]]) -> dict[str, float]:
    """Error totals and decision counts of one side of gnubg's match statistics."""
    moves, cube = s.get("moves", {}), s.get("cube", {})
    return {
        "chequer_error": float(moves.get("error-skill", 0.0)),  # type: ignore[arg-type]
        "unforced_moves": float(moves.get("unforced-moves", 0)),  # type: ignore[arg-type]
        "cube_error": float(cube.get("error-skill", 0.0)),  # type: ignore[arg-type]
        "close_cube": float(cube.get("close-cube", 0)),  # type: ignore[arg-type]
        "luck": float(s.get("dice", {}).get("luck", 0.0)),  # type: ignore[attr-defined]
    }


def summarise(rows: list[dict[str, object]], args: argparse.Namespace, controller_errors: int) -> str:
    done = [r for r in rows if r.get("finished")]
    n = len(done)
    wins = sum(1 for r in done if r["winner"] == 1)
    p = wins / n if n else 0.0
    se = math.sqrt(p * (1 - p) / n) if n else 0.0
    games = sum(int(r["games"]) for r in done)  # type: ignore[call-overload]
    net = sum(r["score"][1] - r["score"][0] for r in done)  # type: ignore[index]
    protocol = sum(int(r.get("protocol_errors", 0)) for r in rows) + controller_errors  # type: ignore[call-overload]
    lines = [
        f"gammon {args.level} vs GNU Backgammon {args.gnubg_plies}-ply, {args.length}-point matches, "
        f"seeds {min((int(r['seed']) for r in rows), default=args.seed)}.."  # type: ignore[call-overload]
        f"{max((int(r['seed']) for r in rows), default=args.seed)} (gnubg set seed, Mersenne Twister)",  # type: ignore[call-overload]
        f"matches played: {len(rows)}, finished: {n}",
        f"gammon won {wins} of {n}: {100 * p:.1f}% +- {100 * se:.1f}% (1 SE)",
        f"games: {games}; gammon's points per game: {net / games if games else 0.0:+.3f} "
        f"(net {net:+d} points)",
        f"protocol errors: {protocol} (gnubg complaints, unanswered lines, unfinished or unreplayable matches)",
    ]
    analysed = [r for r in done if "analysis" in r]
    if analysed:
        lines.append(f"GNU Backgammon's analysis ({args.analyse_plies}-ply, {len(analysed)} matches), "
                     "error rate = total error / unforced moves or close cube decisions, in mEMG:")
        for side in ("gammon", "gnubg"):
            a = [r["analysis"][side] for r in analysed]  # type: ignore[index]
            ch = sum(x["chequer_error"] for x in a)
            um = sum(x["unforced_moves"] for x in a)
            cu = sum(x["cube_error"] for x in a)
            cc = sum(x["close_cube"] for x in a)
            overall = (ch + cu) / (um + cc) if um + cc else 0.0
            lines.append(
                f"  {side:7s} chequer {1000 * ch / max(um, 1):6.2f} mEMG/move ({int(um)} unforced), "
                f"cube {1000 * cu / max(cc, 1):6.2f} mEMG/decision ({int(cc)} close), "
                f"overall {1000 * overall:6.2f}"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--level", default="expert")
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--length", type=int, default=7)
    parser.add_argument("--gnubg-plies", type=int, default=0)
    parser.add_argument("--analyse-plies", type=int, default=2, help="gnubg analysis depth; -1 skips it")
    parser.add_argument("--analyse-every", type=int, default=1,
                        help="analyse only every Kth match (analysis costs more than a 0-ply match)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="folder of the matches (OUT.txt: the summary)")
    parser.add_argument("--match-timeout", type=float, default=7200.0)
    parser.add_argument("--gnubg", default=gnubg_executable())
    parser.add_argument("--start", type=int, default=0, help="first match number (several runs can share OUT)")
    parser.add_argument("--summary-only", action="store_true",
                        help="play nothing: summarise every match already in OUT")
    args = parser.parse_args(argv)
    if not args.gnubg:
        print("error: GNU Backgammon (gnubg) is not installed", file=sys.stderr)
        return 2
    out: Path = args.out or ROOT / "results" / f"vs_gnubg_{args.level}"
    if args.summary_only:
        rows = [json.loads(p.read_text()) for p in results_archive.glob(out, "match_*.json")
                if "." not in p.stem]
        text = summarise(rows, args, 0)
        print(text)
        (out.parent / f"{out.name}.txt").write_text(text + "\n")
        return 0
    out.mkdir(parents=True, exist_ok=True)

    controller = Controller(args.level, name="gammon")
    sock = open_listener("127.0.0.1:0")
    address = describe(sock)
    threading.Thread(target=serve, args=(controller, sock), kwargs={"connections": None}, daemon=True).start()
    script = Path(tempfile.mkdtemp(prefix="vs_gnubg_")) / "play_match.py"
    script.write_text(GNUBG_SCRIPT)

    rows: list[dict[str, object]] = []
    print(f"gammon {args.level} vs gnubg {args.gnubg_plies}-ply: {args.matches} x {args.length}-point matches "
          f"-> {out}", flush=True)
    for i in range(args.start, args.start + args.matches):
        summary = out / f"match_{i:03d}.json"
        if summary.exists():
            row = json.loads(summary.read_text())
        else:
            row = play_match(i, args, address, out, script)
            summary.write_text(json.dumps(row))
        rows.append(row)
        won = sum(1 for r in rows if r.get("finished") and r["winner"] == 1)
        fin = sum(1 for r in rows if r.get("finished"))
        print(f"[{time.strftime('%H:%M:%S')}] match {i + 1}/{args.start + args.matches}: "
              f"score {row.get('score')} "
              f"({row.get('games')} games, {row['seconds']} s) "
              f"{'PROBLEM ' + str(row.get('problem')) if row.get('problem') else ''}"
              f"gammon leads {won}/{fin}; protocol errors so far "
              f"{sum(int(r.get('protocol_errors', 0)) for r in rows) + controller.errors}", flush=True)
        if args.start == 0:
            (out.parent / f"{out.name}.txt").write_text(summarise(rows, args, controller.errors) + "\n")
    text = summarise(rows, args, controller.errors)
    print(text)
    if args.start == 0:
        (out.parent / f"{out.name}.txt").write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
