"""The analysis ranks players as their strength says, and as GNU Backgammon's own analysis does.

Matches are played here between players of clearly different strength: the
engine at 0-ply (``expert``), the hand-written heuristic bot and a random
player.  gammon's analysis (1-ply) must order them by error rate; where GNU
Backgammon is installed its analysis of the same ``.mat`` files (``gnubg -t``,
0-ply, as a referee only) must give the same order, with checker error rates
within a factor of three of ours, and agree on most blunders.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from gammon.analysis import MatchAnalysis, analyse_match
from gammon.core.dice import RandomDice
from gammon.core.game import Rules
from gammon.core.match import Match
from gammon.formats.mat import write_mat
from gammon.play.ai_player import AIPlayer
from gammon.play.players import HeuristicPlayer, RandomPlayer
from gammon.play.session import play_match
from gnubg_program import GNUBG, needs_gnubg


def _match(players: tuple[Any, Any], seed: int) -> Match:
    return play_match(Rules(match_length=3), players, RandomDice(seed))


@pytest.fixture(scope="module")
def matches() -> dict[str, tuple[Match, MatchAnalysis]]:
    out: dict[str, tuple[Match, MatchAnalysis]] = {}
    pairs: dict[str, tuple[tuple[Any, Any], tuple[str, str], int]] = {
        "expert-heuristic": ((AIPlayer("expert", seed=1), HeuristicPlayer(seed=2)),
                             ("expert", "heuristic"), 21),
        "heuristic-random": ((HeuristicPlayer(seed=3), RandomPlayer(seed=4)), ("heuristic", "random"), 22),
    }
    for key, (players, names, seed) in pairs.items():
        m = _match(players, seed)
        out[key] = (m, analyse_match(m, names, plies=1, processes=1, explain=False))
    return out


def test_stronger_players_have_lower_error_rates(matches: dict[str, tuple[Match, MatchAnalysis]]) -> None:
    _, a = matches["expert-heuristic"]
    expert, heuristic = a.players
    assert expert.checker_error_rate is not None and heuristic.checker_error_rate is not None
    assert expert.checker_error_rate < heuristic.checker_error_rate
    assert expert.error_rate < heuristic.error_rate  # type: ignore[operator]
    _, b = matches["heuristic-random"]
    heuristic2, rnd = b.players
    assert heuristic2.checker_error_rate < rnd.checker_error_rate  # type: ignore[operator]
    assert rnd.marks["blunder"] > heuristic2.marks["blunder"]


_GNUBG_SCRIPT = """
import gnubg, json
for c in ['set jacoby off', 'set analysis chequerplay evaluation plies 0',
          'set analysis cubedecision evaluation plies 0', 'import mat {mat}', 'analyse match']:
    gnubg.command(c)
m = gnubg.match(1, 1, 1, 0)
out = {{'stats': m['stats'], 'names': [m['match-info']['X']['name'], m['match-info']['O']['name']],
       'losses': []}}
for g in m['games']:
    for mv in g['game']:
        if mv.get('action') != 'move' or 'analysis' not in mv or 'moves' not in mv['analysis']:
            continue
        moves = mv['analysis']['moves']
        best = max(x['score'] for x in moves)
        mine = [x['score'] for x in moves if x['move'] == mv['move']]
        out['losses'].append([mv['player'], best - mine[0] if mine else None, len(moves)])
print('JSON' + json.dumps(out))
"""


def _gnubg(tmp: Path, match: Match, names: tuple[str, str]) -> dict[str, Any]:
    assert GNUBG is not None
    mat = tmp / "m.mat"
    mat.write_text(write_mat(match, names))
    script = tmp / "an.py"
    script.write_text(_GNUBG_SCRIPT.format(mat=mat))
    proc = subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], capture_output=True, text=True, timeout=600,
                          cwd=tmp, env={"HOME": str(tmp)})
    line = next((x for x in proc.stdout.splitlines() if x.startswith("JSON")), None)
    assert line is not None, proc.stdout[-2000:] + proc.stderr[-2000:]
    data: dict[str, Any] = json.loads(line[4:])
    return data


def _gnubg_rate(stats: dict[str, Any], side: str) -> float:
    mv = stats[side]["moves"]
    return 1000.0 * mv["error-skill"] / max(1, mv["unforced-moves"])


@needs_gnubg
def test_gnubg_ranks_them_the_same(tmp_path: Path, matches: dict[str, tuple[Match, MatchAnalysis]]) -> None:
    report: list[str] = []
    for key, (m, a) in matches.items():
        d = tmp_path / key
        d.mkdir()
        g = _gnubg(d, m, a.names)
        assert g["names"] == list(a.names)
        theirs = [_gnubg_rate(g["stats"], "X"), _gnubg_rate(g["stats"], "O")]
        ours = [p.checker_error_rate or 0.0 for p in a.players]
        report.append(f"{key}: ours {ours[0]:.1f} / {ours[1]:.1f}, gnubg {theirs[0]:.1f} / {theirs[1]:.1f}")
        assert (ours[0] < ours[1]) == (theirs[0] < theirs[1]), report
        for o, t in zip(ours, theirs, strict=True):
            if t > 10.0:
                assert t / 3 <= o <= 3 * t, report
        # Blunders: checker plays gnubg marks as very bad (0.12) that we mark an error or worse.
        our_moves = [d for d in a.decisions if d.kind == "move" and d.played_position_id]
        gnubg_moves = g["losses"]
        if len(our_moves) == len(gnubg_moves):
            theirs_bl = [i for i, (_, loss, n) in enumerate(gnubg_moves) if loss is not None and n > 1
                         and loss >= 0.12]
            agree = sum(1 for i in theirs_bl if our_moves[i].mark in ("error", "blunder"))
            report.append(f"  gnubg blunders {len(theirs_bl)}, ours error or worse on {agree}")
            if len(theirs_bl) >= 5:
                assert agree >= 0.6 * len(theirs_bl), report
    print("\n".join(report))
