"""``gammon rollout``: seeded, reproducible, with standard errors, JSON and clear errors."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from gammon.cli import app

runner = CliRunner()
START = "4HPwATDgc/ABMA"


def run_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["rollout", START, "--trials", "36", "--processes", "1", "--json", *args])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # progress lines (a cold engine) go to stderr
    assert isinstance(data, dict)
    return data


def test_rollout_is_reproducible_and_reports_errors() -> None:
    a = run_json("--seed", "5", "--truncate", "6")
    b = run_json("--seed", "5", "--truncate", "6")
    assert a["equity"] == b["equity"] and a["trials"] == 36
    probs = a["probabilities"]
    assert isinstance(probs, dict) and 0.0 < probs["win"] < 1.0
    assert isinstance(a["se_equity"], float) and a["se_equity"] > 0.0


def test_rollout_after_a_play_is_seen_by_the_mover() -> None:
    data = run_json("--play", "8/5 6/5", "--dice", "31", "--truncate", "4")
    assert data["position"] == f"{START} after 8/5 6/5"
    assert data["for"] == "the player who made the play"


def test_rollout_text_output_and_bad_input() -> None:
    ok = runner.invoke(app, ["rollout", START, "--trials", "36", "--processes", "1", "--truncate", "2"])
    assert ok.exit_code == 0 and "cubeless equity" in ok.output and "+-" in ok.output
    illegal = runner.invoke(app, ["rollout", START, "--play", "8/5 6/4", "--dice", "31"])
    assert illegal.exit_code == 2 and "error: no legal play" in illegal.output
    no_dice = runner.invoke(app, ["rollout", START, "--play", "8/5 6/5"])
    assert no_dice.exit_code == 2 and "--dice" in no_dice.output
    bad = runner.invoke(app, ["rollout", "garbage"])
    assert bad.exit_code == 2 and "error:" in bad.output


def test_train_command_trains_and_resumes(tmp_path: object) -> None:
    from pathlib import Path

    out = Path(str(tmp_path)) / "run"
    first = runner.invoke(app, ["train", "--out", str(out), "--games", "40", "--hidden", "8"])
    assert first.exit_code == 0, first.output
    assert (out / "checkpoint.npz").exists() and "trained to 40 games" in first.output
    again = runner.invoke(app, ["train", "--out", str(out), "--games", "60", "--hidden", "8", "--resume"])
    assert again.exit_code == 0 and "trained to 60 games" in again.output
    missing = runner.invoke(app, ["train", "--out", str(out / "none"), "--resume"])
    assert missing.exit_code == 2 and "nothing to resume" in missing.output
