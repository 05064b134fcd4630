"""``gammon analyse``: every record format, JSON output, annotated SGF that GNU Backgammon loads, errors."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gammon.cli import app
from gammon.core.match import Match
from gammon.formats.mat import match_from_mat, write_mat
from gammon.formats.record_json import match_to_json
from gammon.formats.sgf import match_from_sgf, write_sgf
from gammon.play.selfplay import run_selfplay
from gnubg_program import GNUBG, needs_gnubg

runner = CliRunner()


@pytest.fixture(scope="module")
def match() -> Match:
    return run_selfplay(1, 5, match_length=3)


def _write(match: Match, path: Path) -> Path:
    names = ("Ann", "Bob")
    text = {".mat": write_mat, ".sgf": write_sgf, ".json": match_to_json}[path.suffix](match, names)
    path.write_text(text)
    return path


@pytest.mark.parametrize("suffix", [".mat", ".sgf", ".json"])
def test_json_output_for_every_format(tmp_path: Path, match: Match, suffix: str) -> None:
    f = _write(match, tmp_path / f"m{suffix}")
    result = runner.invoke(app, ["analyse", str(f), "--plies", "0", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    names = [p["name"] for p in data["players"]]
    assert names == ["Ann", "Bob"]
    for p in data["players"]:
        for key in ("checker_error_rate", "cube_error_rate", "error_rate", "luck", "marks", "pr"):
            assert key in p
        assert set(p["marks"]) == {"doubtful", "error", "blunder"}
    assert len(data["games"]) == len(match.games)
    moves = sum(1 for g in data["games"] for d in g["decisions"] if d["kind"] == "move")
    rolls = sum(1 for g in match.games for a in g.record if type(a).__name__ == "Roll"
                and a.dice is not None and not (g.record.index(a) == 0 and a.dice[0] == a.dice[1]))
    assert moves <= rolls and moves > 0


def test_the_alias_and_the_summary(tmp_path: Path, match: Match) -> None:
    f = _write(match, tmp_path / "m.mat")
    result = runner.invoke(app, ["analyze", str(f), "--plies", "0"])
    assert result.exit_code == 0, result.output
    assert "checker error rate" in result.stdout and "PR" in result.stdout
    assert "luck-adjusted" in result.stdout


def test_replay_steps_through_every_move(tmp_path: Path, match: Match) -> None:
    f = _write(match, tmp_path / "m.mat")
    result = runner.invoke(app, ["analyse", str(f), "--plies", "0", "--replay"])
    assert result.exit_code == 0, result.output
    moves = sum(1 for g in match.games for a in g.record if type(a).__name__ == "Move")
    assert result.stdout.count("Position ID:") >= moves
    assert "checker error rate" in result.stdout  # the summary follows the replay


@pytest.mark.parametrize("args,message", [
    (["nowhere.mat"], "cannot read"),
    (["x.txt"], "cannot tell the format"),
    (["{f}", "--plies", "7"], "--plies must be"),
    (["{f}", "--html", "out.pdf"], "should end in"),
])
def test_bad_input_is_one_error_line(tmp_path: Path, match: Match, args: list[str], message: str) -> None:
    f = _write(match, tmp_path / "m.mat")
    args = [a.replace("{f}", str(f)) if a == "{f}" else str(tmp_path / a) if a.endswith((".mat", ".txt"))
            else a for a in args]
    result = runner.invoke(app, ["analyse", *args])
    assert result.exit_code == 2
    assert result.output.count("error:") == 1 and message in result.output
    assert "Traceback" not in result.output


def test_a_broken_record_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "broken.mat"
    f.write_text(" 3 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5 9/1\n")
    result = runner.invoke(app, ["analyse", str(f), "--plies", "0"])
    assert result.exit_code == 2 and "error:" in result.output




@needs_gnubg
def test_gnubg_loads_the_annotated_sgf(tmp_path: Path, match: Match) -> None:
    f = _write(match, tmp_path / "m.mat")
    out = tmp_path / "annotated.sgf"
    result = runner.invoke(app, ["analyse", str(f), "--plies", "0", "--annotated", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert text.count("C[") > 10
    # Our own reader reads it back as the same match.
    again = match_from_sgf(text)
    analysed = match_from_mat(f.read_text())
    assert [g.record for g in again.games] == [g.record for g in analysed.games]
    # GNU Backgammon loads it, keeps the comments and replays the same games.
    assert GNUBG is not None
    proc = subprocess.run([GNUBG, "-t", "-q"], input="load match annotated.sgf\nsave match back.sgf\n"
                          "export match mat back.mat\n", cwd=tmp_path, env={"HOME": str(tmp_path)},
                          capture_output=True, text=True, timeout=120)
    back = (tmp_path / "back.sgf").read_text()
    assert "Luck:" in back and "Eq " in back, proc.stdout[-2000:]
    theirs = match_from_mat((tmp_path / "back.mat").read_text())
    assert [len(g.record) for g in theirs.games] == [len(g.record) for g in analysed.games]


def test_the_terminal_shows_the_game_analysis_at_its_end() -> None:
    import io

    from rich.console import Console

    from gammon.cli.terminal.loop import TerminalGame
    from gammon.cli.terminal.settings import PlaySettings
    from gammon.core.dice import RandomDice

    lines = iter(["13/10 13/9", "resign", "n", "n"])  # player 0 plays 4-3 after an opening 4-3, then resigns

    def answer(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    console = Console(file=out, width=200, force_terminal=True, no_color=True, highlight=False)
    settings = PlaySettings(seed=1, match_length=0, jacoby=False, level="heuristic")
    game = TerminalGame(settings, input_fn=answer, console=console, dice=RandomDice(3))
    game.run()
    text = out.getvalue()
    assert "Analysis of the game" in text and "error rate" in text and "PR" in text
    # The equity graph, drawn in letters, and the resignation judged (at the start: a blunder).
    assert "after each decision (X blunder, ? error):" in text and " decisions" in text
    assert "resigns a single game: blunder ??" in text


@pytest.mark.parametrize("variant", ["nackgammon", "hypergammon", "dutch", "acey-deucey"])
def test_every_variant_the_engine_plays(tmp_path: Path, variant: str) -> None:
    m = run_selfplay(1, 3, variant=variant)
    f = tmp_path / "v.json"
    f.write_text(match_to_json(m, ("Ann", "Bob")))
    result = runner.invoke(app, ["analyse", str(f), "--plies", "0", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    moves = [d for g in data["games"] for d in g["decisions"] if d["kind"] == "move"]
    plays = sum(1 for g in m.games for a in g.record if type(a).__name__ == "Move")
    assert len(moves) >= plays > 0


def test_play_replays_a_saved_match_with_its_analysis(tmp_path: Path, match: Match) -> None:
    # Issue 13: "`gammon play` can replay a saved match move by move with the analysis".
    f = _write(match, tmp_path / "m.mat")
    result = runner.invoke(app, ["play", "--replay", str(f), "--level", "expert"])
    assert result.exit_code == 0, result.output
    moves = sum(1 for g in match.games for a in g.record if type(a).__name__ == "Move")
    assert result.stdout.count("Position ID:") >= moves
    assert "analysed at 0-ply" in result.stdout  # expert's depth
    assert "checker error rate" in result.stdout


@pytest.mark.parametrize("args,message", [
    (["play", "--replay", "nowhere.mat"], "cannot read"),
    (["play", "--replay", "{f}", "--resume", "{f}"], "cannot be used together"),
    (["play", "--replay", "{f}", "--level", "grandmaster"], "unknown level"),
])
def test_play_replay_refuses_bad_input_in_one_line(tmp_path: Path, match: Match, args: list[str],
                                                   message: str) -> None:
    f = _write(match, tmp_path / "m.mat")
    args = [str(f) if a == "{f}" else str(tmp_path / a) if a.endswith(".mat") else a for a in args]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
