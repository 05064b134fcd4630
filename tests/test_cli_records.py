"""``gammon selfplay`` writes records other programs read; ``gammon verify`` checks crypto dice."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from gammon.cli import app
from gammon.formats.mat import match_from_mat
from gammon.formats.sgf import match_from_sgf

runner = CliRunner()


def test_selfplay_money_session_writes_a_mat_file_that_replays(tmp_path: Path) -> None:
    out = tmp_path / "session.mat"
    result = runner.invoke(app, ["selfplay", "--games", "4", "--seed", "7", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "4 games (money session)" in result.output
    match = match_from_mat(out.read_text())
    assert len(match.games) == 4
    assert f"points {match.score[0]}-{match.score[1]}" in result.output


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
    assert ok.exit_code == 0 and ok.output.startswith("OK: 1 game replayed"), ok.output

    data = json.loads(out.read_text())
    rolls = [a for g in data["games"] for a in g if a["action"] == "roll"]
    # Change one roll to another legal-looking roll: the record no longer follows from the seed.
    first = rolls[0]["dice"]
    first[0], first[1] = (first[0] % 6) + 1, first[1]
    out.write_text(json.dumps(data))
    bad = runner.invoke(app, ["verify", str(out)])
    assert bad.exit_code != 0
    assert "FAILED" in bad.output or "error:" in bad.output


def test_verify_without_commitment_and_bad_files(tmp_path: Path) -> None:
    out = tmp_path / "plain.json"
    runner.invoke(app, ["selfplay", "--games", "1", "--seed", "2", "--out", str(out)])
    result = runner.invoke(app, ["verify", str(out)])
    assert result.exit_code == 2 and "no dice commitment" in result.output
    missing = runner.invoke(app, ["verify", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and "cannot read" in missing.output
    bad_suffix = runner.invoke(app, ["selfplay", "--games", "1", "--out", str(tmp_path / "x.txt")])
    assert bad_suffix.exit_code == 2 and "--out must end in" in bad_suffix.output
