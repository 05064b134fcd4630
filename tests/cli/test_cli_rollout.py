"""``gammon rollout``: seeded, reproducible, with standard errors, JSON and clear errors; an XGID's
match score is the rollout's, and after a play every figure is the mover's."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
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


def _xgid(position: object, **state: object) -> str:
    from gammon.core.xgid import XgidState, format_xgid

    return format_xgid(XgidState(position=position, **state))  # type: ignore[arg-type]


def test_after_a_play_every_equity_is_the_movers_the_opponents_negated() -> None:
    # Rolling out the position after a play for its maker is rolling out the position the
    # opponent then rolls in, seen from the other side: every equity negated, the chances
    # of a match swapped.  The same seed gives the same trials.
    from gammon.core.position import Position

    after = Position.from_position_id(START).parse_play("8/5 6/5", (3, 1)).position.swap()
    for position in (START, _xgid(Position.from_position_id(START), score=(2, 1), match_length=5)):
        mover = json.loads(runner.invoke(app, ["rollout", position, "--play", "8/5 6/5", "--dice", "31",
                                               "--cubeful", "--trials", "72", "--processes", "1", "--seed", "4",
                                               "--json"]).stdout)
        opp_view = _xgid(after, score=(1, 2), match_length=5) if position != START else after.position_id
        other = json.loads(runner.invoke(app, ["rollout", opp_view, "--cubeful", "--trials", "72",
                                               "--processes", "1", "--seed", "4", "--json"]).stdout)
        assert mover["equity"] == pytest.approx(-other["equity"], abs=1e-6)
        assert mover["cubeful_equity"] == pytest.approx(-other["cubeful_equity"], abs=1e-6)
        if position != START:
            assert mover["match_winning_chance"] == pytest.approx(1 - other["match_winning_chance"], abs=1e-6)


def test_an_xgid_match_score_is_the_rollouts_score() -> None:
    from gammon.ai.met import default_met
    from gammon.core.position import Position

    start = Position.from_position_id(START)
    # Double match point: the cube is dead and a match is won exactly when the game is.
    dmp = run_json_for(_xgid(start, score=(4, 4), match_length=5))
    assert dmp["match_winning_chance"] == pytest.approx(dmp["probabilities"]["win"], abs=1e-9)
    # 3-away/5-away, cube 1: the EMG is the table's reading of the match winning chance.
    mid = run_json_for(_xgid(start, score=(4, 2), match_length=7))
    emg = default_met().mwc_to_emg(mid["match_winning_chance"], 3, 5, 1)
    assert mid["cubeful_equity"] == pytest.approx(emg, abs=1e-5)
    assert mid["match_winning_chance"] != dmp["match_winning_chance"]
    # Money (a Position ID, or an XGID of a money game) has no match winning chance.
    assert "match_winning_chance" not in run_json_for(START)
    text = runner.invoke(app, ["rollout", _xgid(start, score=(4, 2), match_length=7), "--cubeful",
                               "--trials", "36", "--processes", "1"]).output
    assert "cubeful EMG" in text and "match winning" in text


def run_json_for(position: str) -> dict[str, Any]:
    result = runner.invoke(app, ["rollout", position, "--cubeful", "--trials", "72", "--processes", "1",
                                 "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_the_printout_speaks_the_language_asked_for_and_json_stays_english() -> None:
    from gammon.core.position import Position

    match = _xgid(Position.from_position_id(START), score=(4, 2), match_length=7)
    args = ["rollout", match, "--cubeful", "--trials", "36", "--processes", "1", "--truncate", "2"]
    expected = {"nb": ("equity uten kube", "sjanse til å vinne matchen", "spilleren som står for tur"),
                "pl": ("equity bez kostki", "szansa wygrania meczu", "gracza na ruchu")}
    for lang, words in expected.items():
        out = runner.invoke(app, [*args, "--lang", lang]).output
        assert all(w in out for w in words), out
        assert "cubeless equity" not in out
    data = json.loads(runner.invoke(app, [*args, "--lang", "nb", "--json"]).stdout)
    assert data["for"] == "the player on roll" and "match_winning_chance" in data


def test_play_out_plays_past_the_bearoff_tables() -> None:
    # A race of about 75 pips each: by default a trial stops where the bear-off tables value the
    # race (their chances stand in for the rest); --play-out plays every roll to the end, so the
    # same dice give other (noisier) numbers.
    from gammon.core.position import Position

    def side(points: dict[int, int]) -> list[int]:
        return [points.get(p, 0) for p in range(1, 26)]

    race = Position(side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 1, 9: 2, 10: 2}),
                    side({1: 1, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 2, 11: 2})).position_id
    runs = []
    for extra in ([], ["--play-out"]):
        result = runner.invoke(app, ["rollout", race, "--trials", "72", "--processes", "1", "--json", *extra])
        assert result.exit_code == 0, result.output
        runs.append(json.loads(result.stdout))
    stopped, played = runs
    assert stopped["equity"] != played["equity"]
    assert abs(stopped["equity"] - played["equity"]) < 3 * played["se_equity"]
    assert stopped["se_equity"] < played["se_equity"]


#: The last roll: one checker on the 6-point bears off with 27 rolls of 36, else the opponent
#: (one checker on his 1-point) does; no double is worth 27/36 - 9/36 = 0.5, double/take twice
#: that, double/pass 1.
LAST_ROLL = "AQAAgAAAAAAAAA"


def test_cube_rolls_out_the_cube_decision() -> None:
    result = runner.invoke(app, ["rollout", LAST_ROLL, "--cube", "--trials", "72", "--processes", "1",
                                 "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["no_double"] == pytest.approx(0.5) and data["double_take"] == pytest.approx(1.0)
    assert data["double_pass"] == pytest.approx(1.0) and data["trials"] == 72
    assert data["action"] in ("double/take", "double/pass") and "match_winning_chances" not in data
    text = runner.invoke(app, ["rollout", LAST_ROLL, "--cube", "--trials", "72", "--processes", "1",
                               "--lang", "sv"]).output
    assert re.search(r"ingen dubbling +\+0\.5000", text) and "kubbeslutet" in text, text


def test_cube_at_a_match_score_gives_match_winning_chances() -> None:
    from gammon.ai.met import default_met
    from gammon.core.position import Position

    xgid = _xgid(Position.from_position_id(LAST_ROLL), score=(2, 2), match_length=7)
    result = runner.invoke(app, ["rollout", xgid, "--cube", "--trials", "72", "--processes", "1", "--json"])
    assert result.exit_code == 0, result.output
    mwc = json.loads(result.stdout)["match_winning_chances"]
    met = default_met(7)
    assert mwc["no_double"] == pytest.approx(0.75 * met.after_pre(4, 5) + 0.25 * met.after_pre(5, 4))
    assert mwc["double_pass"] == pytest.approx(met.after_pre(4, 5))


def test_cube_after_a_play_is_refused_in_one_line() -> None:
    result = runner.invoke(app, ["rollout", LAST_ROLL, "--cube", "--play", "6/off", "--dice", "61"])
    assert result.exit_code == 2
    assert "--cube rolls out the cube decision of the player on roll" in result.output
