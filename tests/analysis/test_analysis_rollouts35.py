"""Issue 35, ``--rollout``: the doubtful decisions are re-judged by cubeful rollouts, the clear ones not.

Written from the rule (:mod:`gammon.analysis.rollouts`): a checker play whose
play made and best play are within the margin, or whose error is below a
blunder, is doubtful and rolled out (its verdict then says it rests on a
rollout, with trials and standard errors); a blunder, a forced move or a cube
decision far from double/take is not.  Small trials and truncation keep it
quick: the numbers are noisy, the bookkeeping is what is tested.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from gammon.ai.cube import CubeInfo
from gammon.analysis.decisions import Alternative, Decision, analyse_cube, analyse_move
from gammon.analysis.rollouts import RolloutOptions, doubtful, is_doubtful, rollout_doubtful
from gammon.analysis.valuation import Valuer
from gammon.analysis.walk import CubeTask, RollTask
from gammon.cli import app
from gammon.core.cube import CubeOwner
from gammon.core.errors import GammonError
from gammon.core.position import Position

QUICK = RolloutOptions(trials=4, truncate_at=2, processes=1)


@pytest.fixture(scope="module")
def valuer() -> Valuer:
    return Valuer(0)


def _move(valuer: Valuer, dice: tuple[int, int], pick: int) -> tuple[RollTask, Decision]:
    """The opening position, ``dice`` played with the engine's ``pick``-th play (0: the best)."""
    p = Position.initial()
    ranked = valuer.engine.rank_plays(p, dice, CubeInfo(), plies=0)
    play = ranked[pick if pick >= 0 else len(ranked) + pick].play
    task = RollTask(game=0, turn=2, player=0, position=p, info=CubeInfo(), dice=dice, played=play.position,
                    play_text=str(play))
    return task, analyse_move(valuer, task)


def test_a_close_checker_play_is_rolled_out_and_says_so(valuer: Valuer) -> None:
    # 2-1 from the start: the search's two best plays are within a few hundredths.
    task, d = _move(valuer, (2, 1), 0)
    lead = d.alternatives[0].equity - d.alternatives[1].equity
    assert d.equity_lost == 0 and lead <= QUICK.margin, lead
    assert is_doubtful(d, QUICK) and d.rollout is None
    assert rollout_doubtful([task], [d], valuer, QUICK) == [0]
    r = d.rollout
    assert r is not None and r["trials"] == QUICK.trials
    assert len(r["equities"]) >= 2 and set(r["se"]) == set(r["equities"])
    assert all(se > 0 for se in r["se"].values())
    assert d.best in r["equities"] and d.played in r["equities"]
    assert r["search"]["equity_lost"] == 0
    # the verdict follows from the rolled-out equities
    eq = r["equities"]
    assert abs(d.equity_lost - (max(eq.values()) - eq[d.played])) < 1e-3
    assert d.to_dict()["rollout"] == r


def test_a_blunder_and_a_clear_cube_decision_are_not_rolled_out(valuer: Valuer) -> None:
    task, d = _move(valuer, (6, 6), -1)  # the worst 6-6 from the start
    assert d.mark == "blunder" and not is_doubtful(d, QUICK)
    p = Position.initial()
    cube_task = CubeTask(game=0, turn=1, player=0, position=p, info=CubeInfo())
    c = analyse_cube(valuer, cube_task)
    assert not is_doubtful(c, QUICK)
    assert rollout_doubtful([task, cube_task], [d, c], valuer, QUICK) == []
    assert d.rollout is None and c.rollout is None and "rollout" not in d.to_dict()


def test_a_close_cube_decision_is_rolled_out(valuer: Valuer) -> None:
    # a double at the start (a wrong one): with a margin of 1 every cube decision is doubtful
    task = CubeTask(game=0, turn=1, player=0, position=Position.initial(), info=CubeInfo(), doubled=True)
    d = analyse_cube(valuer, task)
    wide = RolloutOptions(trials=4, truncate_at=2, cube_margin=1.0)
    assert is_doubtful(d, wide)
    rollout_doubtful([task], [d], valuer, wide)
    assert d.rollout is not None
    assert set(d.rollout["equities"]) == {"no double", "double/take", "double/pass"}
    assert d.rollout["se"]["double/pass"] == 0  # exact: the opponent gives up the cube's points



def test_a_rolled_out_no_double_keeps_the_cube_for_the_first_turn(valuer: Valuer) -> None:
    # The last roll, money: one checker on the 6-point bears off with 27 rolls of 36, else the
    # opponent (one checker on his 1-point) bears off.  Not doubling is worth 27/36 - 9/36 =
    # 0.5; double/take 2 x 0.5 = 1.0; double/pass 1.0.  Not doubling loses 0.5, a missed
    # double, which a "no double" rollout that let the player double at once would not see.
    p = Position([0, 0, 0, 0, 0, 1] + [0] * 19, [1] + [0] * 24)
    task = CubeTask(game=0, turn=1, player=0, position=p, info=CubeInfo(), doubled=False)
    d = analyse_cube(valuer, task)
    full = RolloutOptions(trials=72, truncate_at=None, cube_margin=1.0)
    rollout_doubtful([task], [d], valuer, full)
    assert d.rollout is not None
    eq = d.rollout["equities"]
    assert eq["no double"] == pytest.approx(0.5)
    assert eq["double/take"] == pytest.approx(1.0) and eq["double/pass"] == pytest.approx(1.0)
    assert d.equity_lost == pytest.approx(0.5) and (d.error_kind or "").startswith("missed double")

def _decision(lost: float, lead: float) -> Decision:
    d = Decision("move", 0, 1, 0, "id", 1, CubeOwner.CENTERED, (0, 0), 0, False)
    d.equity_lost = lost
    d.alternatives = [Alternative("a", 0.1, None, 0.0, (), "a", 0),
                      Alternative("b", 0.1 - lead, None, -lead, (), "b", 0)]
    return d


def test_rollout_errors_keeps_the_closest() -> None:
    ds = [_decision(0.0, 0.03), _decision(0.05, 0.05), _decision(0.0, 0.001), _decision(0.0, 0.2),
          _decision(0.2, 0.2)]
    tasks = [RollTask(game=0, turn=i, player=0, position=Position.initial(), info=CubeInfo())
             for i in range(len(ds))]
    assert doubtful(tasks, ds, RolloutOptions()) == [0, 1, 2]
    assert doubtful(tasks, ds, RolloutOptions(limit=2)) == [0, 2]


@pytest.mark.parametrize("kwargs", [{"trials": 0}, {"trials": 1.5}, {"limit": 0}, {"margin": -1.0},
                                    {"margin": float("nan")}, {"truncate_at": 0}, {"processes": 0}])
def test_bad_options_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(GammonError):
        RolloutOptions(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("args", [["--rollout-trials", "0"], ["--rollout-errors", "0"],
                                  ["--rollout", "--rollout-trials", "-5"]])
def test_bad_rollout_values_are_one_error_line(tmp_path: Path, args: list[str]) -> None:
    f = tmp_path / "m.mat"
    f.write_text(" 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n")
    result = CliRunner().invoke(app, ["analyse", str(f), "--plies", "0", *args])
    assert result.exit_code == 2, result.output
    assert result.output.count("error:") == 1 and "Traceback" not in result.output


def test_rollout_is_for_one_record(tmp_path: Path) -> None:
    f = tmp_path / "m.mat"
    f.write_text(" 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n")
    result = CliRunner().invoke(app, ["analyse", str(f), str(f), "--rollout"])
    assert result.exit_code == 2 and "one record" in result.output


def test_a_rolled_out_verdict_is_marked_and_fits_the_schema(valuer: Valuer) -> None:
    """The report says which verdicts rest on a rollout ("R" after the mark, in text and
    HTML), and the JSON's ``rollout`` object is part of docs/analysis.schema.json."""
    import json

    import jsonschema

    from gammon.analysis.move_list import _row
    from gammon.analysis.text import mark_text
    from paths import ROOT

    task, d = _move(valuer, (6, 4), 1)  # the search's second best 6-4: an error or doubtful at most
    d.mark = d.mark or "doubtful"
    assert not mark_text(d).endswith(" R") and ">R</abbr>" not in _row(d, ("Ann", "Bob"))
    rollout_doubtful([task], [d], valuer, RolloutOptions(trials=4, truncate_at=2, processes=1, margin=1.0))
    assert d.rollout is not None
    d.mark = d.mark or "doubtful"
    assert mark_text(d).endswith(" R") and ">R</abbr>" in _row(d, ("Ann", "Bob"))
    schema = json.loads((ROOT / "docs" / "analysis.schema.json").read_text(encoding="utf-8"))
    decision = {"$ref": "#/$defs/decision", "$defs": schema["$defs"]}
    jsonschema.Draft202012Validator(decision).validate(d.to_dict())
    broken = d.to_dict()
    broken["rollout"]["trails"] = broken["rollout"].pop("trials")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(decision).validate(broken)
