"""GNU Backgammon itself against ``gammon external``, and gammon asking gnubg's ``external`` command.

These run the real ``gnubg`` program (installed by ``.ci/run``; each test is
skipped where it is absent).  A short match is played to its end through the
external-player interface and the ``.mat`` GNU Backgammon writes must replay
legally in gammon's own reader.
"""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from gammon.core.position import Position
from gammon.formats.fibs import parse_fibs_board
from gammon.formats.mat import read_mat
from gammon.play.external import GnubgExternalClient, read_decision, start_gnubg_external
from gnubg_program import GNUBG, needs_gnubg

#: gnubg's messages when it cannot use an external player's answer.
TROUBLE = ("badly formed", "Error", "External connection closed")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@needs_gnubg
def test_gnubg_plays_a_full_match_against_gammon_external(tmp_path: Path) -> None:
    assert GNUBG is not None
    server = subprocess.Popen(
        [sys.executable, "-m", "gammon", "external", "--listen", "127.0.0.1:0", "--level", "expert",
         "--name", "gammon", "--verbose"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert server.stdout is not None
        first = server.stdout.readline().strip()
        assert first.startswith("listening on 127.0.0.1:"), first
        address = first.removeprefix("listening on ")
        mat = tmp_path / "match.mat"
        commands = "\n".join([
            "set defaultnames gnubg gammon",
            "set player 0 gnubg",
            "set player 0 chequerplay evaluation plies 0",
            "set player 0 cubedecision evaluation plies 0",
            f"set player 1 external {address}",
            "set seed 11",
            "new match 3",
            f"export match mat {mat}",
            "",
        ])
        run = subprocess.run([GNUBG, "-t", "-q"], input=commands, capture_output=True, text=True, timeout=240,
                             check=False)
        _, err = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
    output = run.stdout + run.stderr
    assert not [ln for ln in output.splitlines() if any(t in ln for t in TROUBLE)]
    assert "has won the match" in output
    assert server.returncode == 0
    assert " 0 errors" in err
    data = read_mat(mat.read_text())
    assert data.names == ("gnubg", "gammon")
    match = data.replay()  # every action checked against gammon's rules
    assert match.is_over and max(match.score) >= 3
    assert sum(len(g.record) for g in match.games) > 10
    # Every decision was read with the score of its game, from the decider's side
    # (gnubg 1.07 writes the score fields for the other player unless gammon is doubled).
    game_scores = {(gammon, gnubg) for gnubg, gammon in data.scores}
    logged = [ln.split(" => ")[0] for ln in err.splitlines() if ln.startswith("board:")]
    assert len(logged) > 10
    for line in logged:
        seen = read_decision(parse_fibs_board(line), name="gammon").score
        assert seen in game_scores, (line, seen, game_scores)
    assert len(game_scores) > 1 and any(a != b for a, b in game_scores)
    # Read as plain FIBS (no name), some of gnubg 1.07's lines give the other player's score.
    assert any(read_decision(parse_fibs_board(line)).score not in game_scores for line in logged)


@needs_gnubg
def test_gammon_asks_gnubg_external_for_its_decisions() -> None:
    address = f"127.0.0.1:{free_port()}"
    proc = start_gnubg_external(address, plies=0)
    try:
        with GnubgExternalClient(address) as gnubg:
            assert gnubg.version()["Software"].startswith("1.")
            opening = gnubg.decide(Position.initial(), dice=(3, 1))
            assert str(opening) == "8/5 6/5"
            race = Position([3, 3, 3, 3, 3] + [0] * 20, [0] * 6 + [3, 3, 3, 3, 3] + [0] * 14)
            assert gnubg.decide(race) == "double"
            assert gnubg.decide(race.swap(), doubled=True) == "drop"
            assert gnubg.decide(Position.initial(), doubled=True, match_length=7) == "take"
            assert gnubg.decide(Position.initial()) == "roll"
            assert gnubg.ask("board:nonsense").startswith("Error")
    finally:
        proc.terminate()
        proc.wait(timeout=30)
