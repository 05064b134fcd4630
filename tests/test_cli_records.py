"""``gammon selfplay`` writes records other programs read; ``gammon verify`` checks crypto dice."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from gammon.cli import app
from gammon.formats.mat import match_from_mat
from gammon.formats.record_json import record_from_json
from gammon.formats.sgf import match_from_sgf

runner = CliRunner()


def test_selfplay_money_session_writes_a_mat_file_that_replays(tmp_path: Path) -> None:
    out = tmp_path / "session.mat"
    result = runner.invoke(app, ["selfplay", "--games", "4", "--seed", "7", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "4 games (money session)" in result.output
    match = match_from_mat(out.read_text())
    assert len(match.games) == 4
    assert f"score {match.score[0]}-{match.score[1]}" in result.output


def test_selfplay_match_as_sgf_is_reproducible(tmp_path: Path) -> None:
    a, b = tmp_path / "a.sgf", tmp_path / "b.sgf"
    for out in (a, b):
        result = runner.invoke(app, ["selfplay", "--match-length", "3", "--seed", "3", "--out", str(out)])
        assert result.exit_code == 0, result.output
    assert a.read_text() == b.read_text()
    match = match_from_sgf(a.read_text())
    assert max(match.score) >= 3 and match.is_over


def test_verify_accepts_a_crypto_record_and_catches_a_changed_roll(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    result = runner.invoke(
        app, ["selfplay", "--match-length", "1", "--seed", "1", "--dice", "crypto", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    ok = runner.invoke(app, ["verify", str(out)])
    assert ok.exit_code == 0 and ok.output.startswith("OK: all"), ok.output

    data = json.loads(out.read_text())
    # Swap the dice of a normal roll (not an opening throw, not a double): the same plays are
    # legal, so the record still replays and only the dice check can catch the change.
    game = data["games"][0]
    first_opening = next(i for i, a in enumerate(game)
                         if a["action"] == "roll" and a["dice"][0] != a["dice"][1])
    index = next(i for i, a in enumerate(game)
                 if i > first_opening and a["action"] == "roll" and a["dice"][0] != a["dice"][1])
    number = sum(1 for a in game[:index] if a["action"] == "roll") + 1
    dice = game[index]["dice"]
    dice[0], dice[1] = dice[1], dice[0]
    out.write_text(json.dumps(data))
    record_from_json(dict(data, dice=None))  # it replays without the dice check
    bad = runner.invoke(app, ["verify", str(out)])
    assert bad.exit_code == 1, bad.output
    assert bad.output.startswith("FAILED") and f"roll {number} " in bad.output, bad.output


def test_verify_without_commitment_and_bad_files(tmp_path: Path) -> None:
    out = tmp_path / "plain.json"
    runner.invoke(app, ["selfplay", "--games", "1", "--seed", "2", "--out", str(out)])
    result = runner.invoke(app, ["verify", str(out)])
    assert result.exit_code == 2 and "no dice commitment" in result.output
    missing = runner.invoke(app, ["verify", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and "cannot read" in missing.output
    bad_suffix = runner.invoke(app, ["selfplay", "--games", "1", "--out", str(tmp_path / "x.txt")])
    assert bad_suffix.exit_code == 2 and "--out must end in" in bad_suffix.output
