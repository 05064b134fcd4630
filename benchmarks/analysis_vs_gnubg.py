#!/usr/bin/env python3
"""gammon's analysis beside GNU Backgammon's on the same matches, players of several strengths.

Each player (gammon's levels from ``beginner`` to ``expert``, the heuristic
bot, a random player) plays a match against gammon's 0-ply engine; the
``.mat`` file is analysed by ``gammon.analysis`` (``--plies``) and by GNU
Backgammon (``gnubg -t``, ``--gnubg-plies``, a referee only).  Printed per
player: checker error rate (mEMG per unforced move) and overall error rate by
each program, and how many of GNU Backgammon's checker blunders (0.12 or
more) gammon marks as an error or a blunder.

Usage: python benchmarks/analysis_vs_gnubg.py [--length 5] [--plies 1] [--gnubg-plies 0] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from gammon.analysis import analyse_match
from gammon.core.dice import RandomDice
from gammon.core.game import Rules
from gammon.formats.mat import write_mat
from gammon.play.ai_player import AIPlayer
from gammon.play.players import HeuristicPlayer, RandomPlayer
from gammon.play.session import play_match

SCRIPT = """
import gnubg, json
for c in ['set analysis chequerplay evaluation plies {plies}',
          'set analysis cubedecision evaluation plies {plies}', 'import mat {mat}', 'analyse match']:
    gnubg.command(c)
m = gnubg.match(1, 1, 1, 0)
losses = []
for g in m['games']:
    for mv in g['game']:
        if mv.get('action') != 'move' or 'analysis' not in mv or 'moves' not in mv['analysis']:
            continue
        moves = mv['analysis']['moves']
        best = max(x['score'] for x in moves)
        mine = [x['score'] for x in moves if x['move'] == mv['move']]
        losses.append([mv['player'], best - mine[0] if mine else None, len(moves)])
print('JSON' + json.dumps({{'stats': m['stats'], 'losses': losses}}))
"""


def gnubg(mat: Path, plies: int) -> dict[str, Any] | None:
    exe = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None)
    if exe is None:
        return None
    script = mat.with_suffix(".py")
    script.write_text(SCRIPT.format(mat=mat, plies=plies))
    out = subprocess.run([exe, "-t", "-q", "-p", str(script)], capture_output=True, text=True, timeout=1800,
                         cwd=mat.parent, env={"HOME": str(mat.parent)})
    line = next((x for x in out.stdout.splitlines() if x.startswith("JSON")), None)
    return None if line is None else json.loads(line[4:])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--length", type=int, default=5)
    ap.add_argument("--plies", type=int, default=1)
    ap.add_argument("--gnubg-plies", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    field: dict[str, Any] = {
        "random": RandomPlayer(seed=args.seed, double_rate=0.05),
        "heuristic": HeuristicPlayer(seed=args.seed),
        "beginner": AIPlayer("beginner", seed=args.seed),
        "intermediate": AIPlayer("intermediate", seed=args.seed),
        "advanced": AIPlayer("advanced", seed=args.seed),
        "expert": AIPlayer("expert", seed=args.seed + 100),
    }
    print(f"{args.length}-point matches against gammon expert (0-ply); gammon analysis {args.plies}-ply, "
          f"GNU Backgammon {args.gnubg_plies}-ply")
    print(f"{'player':<13}{'moves':>6}{'checker ours':>14}{'checker gnubg':>15}{'overall ours':>14}"
          f"{'overall gnubg':>15}{'gnubg blunders':>16}{'we mark':>9}")
    for i, (name, player) in enumerate(field.items()):
        opponent = AIPlayer("expert", seed=args.seed + 7 + i)
        m = play_match(Rules(match_length=args.length), (player, opponent), RandomDice(args.seed * 31 + i))
        a = analyse_match(m, (name, "expert"), plies=args.plies, explain=False)
        ours = a.players[0]
        with tempfile.TemporaryDirectory() as tmp:
            mat = Path(tmp) / "m.mat"
            mat.write_text(write_mat(m, (name, "expert")))
            g = gnubg(mat, args.gnubg_plies)
        if g is None:
            print(f"{name:<13} gnubg failed or missing")
            continue
        st = g["stats"]["X"]
        mv, cb = st["moves"], st["cube"]
        g_checker = 1000 * mv["error-skill"] / max(1, mv["unforced-moves"])
        decisions = max(1, mv["unforced-moves"] + cb["close-cube"])
        g_overall = 1000 * (mv["error-skill"] + cb["error-skill"]) / decisions
        our_moves = [d for d in a.decisions if d.kind == "move" and d.played_position_id]
        gl = g["losses"]
        agree, blunders = 0, 0
        if len(gl) == len(our_moves):
            for (_who, loss, n), d in zip(gl, our_moves, strict=True):
                if loss is not None and n > 1 and loss >= 0.12 and d.player == 0:
                    blunders += 1
                    agree += d.mark in ("error", "blunder")
        print(f"{name:<13}{ours.unforced_moves:>6}{ours.checker_error_rate or 0:>14.1f}{g_checker:>15.1f}"
              f"{ours.error_rate or 0:>14.1f}{g_overall:>15.1f}{blunders:>16}{agree:>9}")


if __name__ == "__main__":
    main()
