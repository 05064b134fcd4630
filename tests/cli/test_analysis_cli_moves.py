"""``gammon analyse --moves``: the whole move list with every mark, as GNU Backgammon's text
export gives it (issue 35), in the reader's language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gammon.cli import app
from gammon.core.dice import RandomDice
from gammon.core.game import Rules
from gammon.formats.mat import write_mat
from gammon.play.ai_player import AIPlayer
from gammon.play.players import RandomPlayer
from gammon.play.session import play_match

runner = CliRunner()
SYMBOL = {"doubtful": "?!", "error": "?", "blunder": "??"}


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 3-point match of a random player (many marks, some cube errors) against a 0-ply bot."""
    players = (RandomPlayer(seed=3, double_rate=0.2), AIPlayer("beginner", seed=4))
    match = play_match(Rules(match_length=3), players, RandomDice(11))
    path = tmp_path_factory.mktemp("moves") / "m.mat"
    path.write_text(write_mat(match, ("Ann", "Bob")))
    return path


@pytest.fixture(scope="module")
def analysis(record: Path) -> dict[str, object]:
    result = runner.invoke(app, ["analyse", str(record), "--plies", "0", "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.output)
    return data


def _move_list(output: str, title: str) -> list[str]:
    lines = output.splitlines()
    return lines[lines.index(title) + 1:]


def _games(lines: list[str]) -> list[tuple[str, list[str]]]:
    """(header, decision lines) per game: a blank line separates the games."""
    out: list[tuple[str, list[str]]] = []
    for line in lines:
        if not line.strip():
            continue
        if not line.startswith(" "):
            out.append((line, []))
        else:
            out[-1][1].append(line)
    return out


def test_every_decision_with_its_mark_and_loss(record: Path, analysis: dict[str, object]) -> None:
    result = runner.invoke(app, ["analyse", str(record), "--plies", "0", "--moves", "--lang", "en"])
    assert result.exit_code == 0, result.output
    games = _games(_move_list(result.output, "Move list"))
    recorded = analysis["games"]
    assert isinstance(recorded, list) and len(games) == len(recorded)
    marks_seen = 0
    for (header, rows), game in zip(games, recorded, strict=True):
        assert header.startswith(f"Game {game['game']}, score {game['score'][0]}-{game['score'][1]}")
        # every decision but a right decision not to double, in order
        shown = [d for d in game["decisions"]
                 if not (d["kind"] == "cube" and d["played"] == "no double" and d["equity_lost"] < 0.0005)]
        assert len(rows) == len(shown)
        for row, d in zip(rows, shown, strict=True):
            name = analysis["names"][d["player"]]
            assert row.split()[:2] == [str(d["turn"]), name]
            mark = d["mark"]
            symbols = re.findall(r"\s(\?\?|\?!|\?)[:\s]", row)  # "error ? (wrong take): loses ..."
            if mark is None:
                assert symbols == [], row
            else:
                marks_seen += 1
                assert symbols == [SYMBOL[mark]], row
                lost = re.search(r"loses (\d+) mEMG", row)
                assert lost is not None and abs(int(lost.group(1)) - d["equity_lost_memg"]) <= 0.51, row
            if d["kind"] == "move" and d["forced"]:
                assert "forced move" in row
    assert marks_seen > 0  # the random player's mistakes are all listed


def test_the_list_is_in_the_readers_language(record: Path) -> None:
    result = runner.invoke(app, ["analyse", str(record), "--plies", "0", "--moves", "--lang", "pl"])
    assert result.exit_code == 0, result.output
    rows = _move_list(result.output, "Lista ruchów")
    assert "Move list" not in result.output
    assert rows[0].startswith("Partia 1, wynik 0-0: ")
    text = "\n".join(rows)
    assert re.search(r"(błąd|wątpliwy)", text)  # the marks' Polish words
    assert "loses" not in text and "forced move" not in text


def test_without_the_flag_there_is_no_move_list(record: Path) -> None:
    result = runner.invoke(app, ["analyse", str(record), "--plies", "0", "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "Move list" not in result.output
