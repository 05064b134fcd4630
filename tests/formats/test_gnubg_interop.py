"""Interoperability with GNU Backgammon itself (the Debian package ``gnubg``).

gammon writes a seeded match as ``.mat`` and as SGF, GNU Backgammon (``gnubg
-t``, no GUI, a throw-away HOME) imports each and exports it again in both
formats, and gammon reads the exports back: every roll, play, cube action,
resignation, position and the final score must agree with the original.  Then
the other way: GNU Backgammon plays a match against itself and gammon reads its
``.mat`` and SGF exports, replays them legally, and finds the same match in both.

Skipped when ``gnubg`` is not installed (CI installs it: ``apt-get install gnubg``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gammon.core.game import Rules
from gammon.core.match import Match
from gammon.formats.mat import read_mat, write_mat
from gammon.formats.sgf import read_sgf, write_sgf
from gnubg_program import needs_gnubg, run_gnubg
from matches import MATCH_FEATURES, assert_same_match, find_match, play_match


def _round_trip_through_gnubg(tmp_path: Path, m: Match, names: tuple[str, str], *, via: str,
                              settings: list[str] | None = None) -> None:
    if via == "mat":
        (tmp_path / "in.mat").write_text(write_mat(m, names))
        load = "import mat in.mat"
    else:
        (tmp_path / "in.sgf").write_text(write_sgf(m, names))
        load = "load match in.sgf"
    run_gnubg(tmp_path, [*(settings or []), load, "export match mat out.mat", "save match out.sgf"])
    from_mat = read_mat((tmp_path / "out.mat").read_text())
    from_sgf = read_sgf((tmp_path / "out.sgf").read_text())
    for data in (from_mat, from_sgf):
        assert data.names == names
        assert data.rules.match_length == m.rules.match_length
        again = Match.replay(data.rules, data.games, games_limit=m.games_limit)
        assert_same_match(again, m)
        assert again.score == m.score


@pytest.fixture(scope="module")
def seven_point() -> Match:
    # doubles, takes, drops, an accepted and a rejected resignation, the Crawford game
    return find_match(MATCH_FEATURES | {"resign-rejected", "gammon"}, Rules(match_length=7))


@needs_gnubg
@pytest.mark.parametrize("via", ["mat", "sgf"])
def test_gnubg_reads_and_rewrites_our_match(tmp_path: Path, seven_point: Match, via: str) -> None:
    _round_trip_through_gnubg(tmp_path, seven_point, ("Alice", "Bob"), via=via)


@needs_gnubg
@pytest.mark.parametrize("via", ["mat", "sgf"])
def test_gnubg_reads_roll_then_resign_and_unfinished_match(tmp_path: Path, via: str) -> None:
    m = find_match({"resign-after-roll", "double", "take"}, Rules(match_length=5), resign_rate=0.08)
    _round_trip_through_gnubg(tmp_path, m, ("North", "South"), via=via)


@needs_gnubg
@pytest.mark.parametrize("via", ["mat", "sgf"])
def test_gnubg_reads_money_session(tmp_path: Path, via: str) -> None:
    rules = Rules(match_length=0, jacoby=False, beavers=False)
    m = play_match(12, rules, games_limit=4, double_rate=0.1)
    _round_trip_through_gnubg(tmp_path, m, ("East", "West"), via=via, settings=["set jacoby off"])


@needs_gnubg
@pytest.mark.parametrize("via", ["mat", "sgf"])
def test_gnubg_reads_money_session_with_beavers(tmp_path: Path, via: str) -> None:
    # GNU Backgammon models a beaver as the taker's redouble, taken by the doubler; gammon's
    # beaver is one action (see gammon.core.game.Beaver).  The records still agree.
    rules = Rules(match_length=0, jacoby=False, beavers=True)
    m = find_match({"beaver", "double", "take", "drop"}, rules, games_limit=4, beaver_rate=0.5,
                   double_rate=0.15)
    _round_trip_through_gnubg(tmp_path, m, ("East", "West"), via=via,
                              settings=["set jacoby off", "set beavers 3"])


@needs_gnubg
def test_gnubg_reads_nackgammon(tmp_path: Path) -> None:
    m = play_match(4, Rules(variant="nackgammon", match_length=3))
    _round_trip_through_gnubg(tmp_path, m, ("Nack", "Ballard"), via="sgf")


def _gnubg_self_play(tmp_path: Path, length: int, seed: int) -> str:
    return run_gnubg(tmp_path, [
        "set player 0 gnubg", "set player 1 gnubg",
        "set player 0 chequerplay evaluation plies 0", "set player 1 chequerplay evaluation plies 0",
        "set player 0 cubedecision evaluation plies 0", "set player 1 cubedecision evaluation plies 0",
        f"set seed {seed}", f"new match {length}",
        "set player 0 name Deep", "set player 1 name Blue",  # (a new match resets the names)
        "export match mat gnubg.mat", "save match gnubg.sgf",
    ])


@needs_gnubg
@pytest.mark.parametrize("seed", [7, 2024])
def test_we_read_what_gnubg_plays(tmp_path: Path, seed: int) -> None:
    out = _gnubg_self_play(tmp_path, 5, seed)
    from_mat = read_mat((tmp_path / "gnubg.mat").read_text())
    from_sgf = read_sgf((tmp_path / "gnubg.sgf").read_text())
    assert from_mat.names == from_sgf.names == ("Deep", "Blue")
    a = from_mat.replay()
    b = from_sgf.replay()
    assert a.is_over and b.is_over
    assert_same_match(a, b)
    # the final score GNU Backgammon announced
    scores = re.findall(r"The score \(after \d+ games?\) is: \S+ (\d+), \S+ (\d+) \(match to 5", out)
    assert scores, out[-2000:]
    assert a.score == [int(scores[-1][0]), int(scores[-1][1])]
    # and what we write from it, GNU Backgammon reads back to the same match
    again = tmp_path / "again"
    again.mkdir()
    _round_trip_through_gnubg(again, a, ("Deep", "Blue"), via="mat")
