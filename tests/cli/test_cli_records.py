"""``gammon selfplay`` writes records other programs read; ``gammon verify`` checks crypto dice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gammon.cli import app
from gammon.formats.mat import match_from_mat
from gammon.formats.record_json import record_from_json
from gammon.formats.sgf import match_from_sgf

runner = CliRunner()
#: Self-play with the fast engine-free bot, for the tests about records rather than levels.
SELFPLAY = ["selfplay", "--level", "heuristic"]


def test_selfplay_money_session_writes_a_mat_file_that_replays(tmp_path: Path) -> None:
    out = tmp_path / "session.mat"
    result = runner.invoke(app, [*SELFPLAY, "--games", "4", "--seed", "7", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "4 games (money session, level heuristic against itself)" in result.output
    match = match_from_mat(out.read_text())
    assert len(match.games) == 4
    assert f"points {match.score[0]}-{match.score[1]}" in result.output


def test_selfplay_match_as_sgf_is_reproducible(tmp_path: Path) -> None:
    a, b = tmp_path / "a.sgf", tmp_path / "b.sgf"
    for out in (a, b):
        result = runner.invoke(app, [*SELFPLAY, "--match-length", "3", "--seed", "3", "--out", str(out)])
        assert result.exit_code == 0, result.output
    assert a.read_text() == b.read_text()
    match = match_from_sgf(a.read_text())
    assert max(match.score) >= 3 and match.is_over


def test_verify_accepts_a_crypto_record_and_catches_a_changed_roll(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    result = runner.invoke(
        app, [*SELFPLAY, "--match-length", "1", "--seed", "1", "--dice", "crypto", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    ok = runner.invoke(app, ["verify", str(out)])
    assert ok.exit_code == 0 and ok.output.startswith("OK: 1 game replayed"), ok.output

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
    runner.invoke(app, [*SELFPLAY, "--games", "1", "--seed", "2", "--out", str(out)])
    result = runner.invoke(app, ["verify", str(out)])
    assert result.exit_code == 2 and "no dice commitment" in result.output
    missing = runner.invoke(app, ["verify", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and "cannot read" in missing.output
    bad_suffix = runner.invoke(app, [*SELFPLAY, "--games", "1", "--out", str(tmp_path / "x.txt")])
    assert bad_suffix.exit_code == 2 and "--out must end in" in bad_suffix.output


# -- issue 14: nothing overwritten or mislabelled, records checked whole ---------------------


def test_selfplay_refuses_before_playing(tmp_path: Path, monkeypatch: object) -> None:
    import gammon.play.selfplay as selfplay

    def never(*_: object, **__: object) -> None:
        raise AssertionError("no game may be played before the refusal")

    monkeypatch.setattr(selfplay, "run_selfplay", never)  # type: ignore[attr-defined]
    dutch = runner.invoke(app, [*SELFPLAY, "--variant", "dutch", "--out", str(tmp_path / "x.mat")])
    assert dutch.exit_code == 2 and "cannot carry Dutch" in dutch.output
    existing = tmp_path / "kept.mat"
    existing.write_text("keep")
    again = runner.invoke(app, [*SELFPLAY, "--out", str(existing)])
    assert again.exit_code == 2 and "already exists" in again.output and existing.read_text() == "keep"
    crypto = runner.invoke(app, [*SELFPLAY, "--dice", "crypto", "--out", str(tmp_path / "c.sgf")])
    assert crypto.exit_code == 2 and "commitment" in crypto.output


def test_selfplay_money_records_the_jacoby_rule_it_plays(tmp_path: Path) -> None:
    on, off = tmp_path / "on.mat", tmp_path / "off.mat"
    assert runner.invoke(app, [*SELFPLAY, "--games", "1", "--out", str(on)]).exit_code == 0
    assert runner.invoke(app, [*SELFPLAY, "--games", "1", "--no-jacoby", "--out", str(off)]).exit_code == 0
    assert '[Jacoby "On"]' in on.read_text() and '[Jacoby "Off"]' in off.read_text()
    assert match_from_mat(on.read_text()).rules.jacoby


def test_convert_between_the_three_formats(tmp_path: Path) -> None:
    mat = tmp_path / "s.mat"
    runner.invoke(app, [*SELFPLAY, "--games", "3", "--seed", "4", "--out", str(mat)])
    for a, b in (("s.mat", "s.json"), ("s.json", "s.sgf"), ("s.sgf", "back.mat")):
        result = runner.invoke(app, ["convert", str(tmp_path / a), str(tmp_path / b)])
        assert result.exit_code == 0, result.output
    original, back = match_from_mat(mat.read_text()), match_from_mat((tmp_path / "back.mat").read_text())
    assert [g.record for g in back.games] == [g.record for g in original.games]
    refused = runner.invoke(app, ["convert", str(mat), str(tmp_path / "s.json")])
    assert refused.exit_code == 2 and "already exists" in refused.output
    dutch = tmp_path / "d.json"
    runner.invoke(app, [*SELFPLAY, "--variant", "dutch", "--games", "1", "--out", str(dutch)])
    no = runner.invoke(app, ["convert", str(dutch), str(tmp_path / "d.mat")])
    assert no.exit_code == 2 and "cannot carry Dutch" in no.output and not (tmp_path / "d.mat").exists()


def test_verify_refuses_an_illegal_play(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    args = [*SELFPLAY, "--match-length", "1", "--seed", "1", "--dice", "crypto", "--out", str(out)]
    runner.invoke(app, args)
    data = json.loads(out.read_text())
    moves = [a for g in data["games"] for a in g if a["action"] == "move" and a.get("play")]
    moves[0]["play"] = "24/1"  # no roll plays this: the dice still check out, the play does not
    out.write_text(json.dumps(data))
    bad = runner.invoke(app, ["verify", str(out)])
    assert bad.exit_code == 1 and bad.output.startswith("FAILED:"), bad.output


def test_train_out_never_replaces_a_run_or_a_file(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "checkpoint.npz").write_bytes(b"x")
    refused = runner.invoke(app, ["train", "--out", str(run), "--games", "10"])
    assert refused.exit_code == 2 and "--resume" in refused.output and "--force" in refused.output
    passwd = runner.invoke(app, ["train", "--out", "/etc/passwd", "--games", "10"])
    assert passwd.exit_code == 2 and "is a file" in passwd.output
    bad_resume = runner.invoke(app, ["train", "--out", str(run), "--games", "10", "--resume"])
    assert bad_resume.exit_code == 2 and "checkpoint" in bad_resume.output


def test_serve_refuses_an_sqlite_url_to_a_missing_folder(tmp_path: Path) -> None:
    missing = tmp_path / "nope" / "x.db"
    for url in (f"sqlite:///{missing}", str(missing)):
        result = runner.invoke(app, ["serve", "--database-url", url])
        assert result.exit_code == 2 and "does not exist" in result.output
    assert not missing.parent.exists()


def _one_error_line(result: Any) -> str:
    """The refusal's one ``error:`` line (exit status 2, nothing else on stderr)."""
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


class _Reached(BaseException):
    """The long part of a command started: the check that should have come first did not."""


def test_train_into_a_folder_that_takes_no_file_is_refused_before_training(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tests run as root, whom permission bits do not stop: /proc and a path under a file are real refusals."""
    import gammon.training.train as train_module

    def reached(*args: object, **kwargs: object) -> None:
        raise _Reached

    monkeypatch.setattr(train_module, "train", reached)
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    for out in ("/proc/gammon-run", "/proc/self/gammon-run", str(a_file / "run")):
        line = _one_error_line(runner.invoke(app, ["train", "--out", out, "--games", "10"]))
        assert "--out" in line
    with pytest.raises(_Reached):  # a folder that takes files goes on to train
        runner.invoke(app, ["train", "--out", str(tmp_path / "run"), "--games", "10"], catch_exceptions=False)


def test_bearoff_build_replaces_a_file_only_with_force(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gammon.ai.bearoff as bearoff

    built: list[int] = []

    class Database:
        meta = {"build_seconds": 0.0}

        def save(self, path: Path) -> None:
            Path(path).write_bytes(b"PK new database")

    def build(progress: object = None) -> Database:
        built.append(1)
        return Database()

    monkeypatch.setattr(bearoff, "build", build)
    precious = tmp_path / "match.mat"
    precious.write_text("a match file\n")
    line = _one_error_line(runner.invoke(app, ["bearoff-build", "--out", str(precious)]))
    assert "already exists" in line and "--force" in line
    assert precious.read_text() == "a match file\n" and not built  # refused before the build
    for out in ("/proc/gammon-bearoff.npz", str(precious / "db.npz"), str(tmp_path)):
        _one_error_line(runner.invoke(app, ["bearoff-build", "--out", out]))
    assert not built
    result = runner.invoke(app, ["bearoff-build", "--out", str(precious), "--force"])
    assert result.exit_code == 0, result.output
    assert built == [1] and precious.read_bytes() == b"PK new database"


def test_selfplay_plays_the_expert_by_default_and_says_so(tmp_path: Path) -> None:
    """It used to play the hand-written heuristic bot quietly; now the level is an option (the
    registry of ``gammon play``), the neural expert by default, and the output names it."""
    from gammon.play.selfplay import run_selfplay

    out = tmp_path / "m.json"
    result = runner.invoke(app, ["selfplay", "--match-length", "1", "--seed", "5", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "level expert against itself" in result.output
    played = record_from_json(out.read_text()).games
    heuristic = run_selfplay(1, 5, match_length=1, level="heuristic")
    assert played != [g.record for g in heuristic.games]
    unknown = runner.invoke(app, ["selfplay", "--level", "godlike", "--out", str(tmp_path / "x.json")])
    assert unknown.exit_code == 2 and "unknown level" in unknown.stderr and not (tmp_path / "x.json").exists()
    assert "--level" in runner.invoke(app, ["selfplay", "--help"]).output
