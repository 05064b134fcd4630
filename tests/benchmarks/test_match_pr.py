"""``benchmarks/match_pr.py`` reads GNU Backgammon's statistics table and adds up the figures right."""

from __future__ import annotations

import math
from types import ModuleType

import pytest

from benchmark_modules import load_benchmark

# GNU Backgammon 1.07's `show statistics match` for a money session (units "(Points)").
STATS = """
Player                                   gammonA                 gammonB

Chequerplay statistics

Total moves                               49                      49
Unforced moves                            41                      34
Moves marked very bad                      0                       2
Error total EMG (Points)                      -0.000 ( -0.000)        -0.562 ( -1.009)
Error rate mEMG (Points)                      -0.0   ( -0.000)       -16.5   ( -0.441)
Chequerplay rating                       Supernatural            Intermediate


Cube statistics

Total cube decisions                      21                      46
Close or actual cube decisions             8                       9
Missed doubles below CP (EMG (Points))     0                       0
Wrong takes (EMG (Points))                 0                       1 (-0.078 ( -1.023))
Error total EMG (Points)                      -0.000 ( -0.000)        -0.078 ( -1.023)
Cube decision rating                     Supernatural            Advanced


Overall statistics

Error total EMG (Points)                      -0.000 ( -0.000)        -0.640 ( -2.032)
Overall rating                           Supernatural            Intermediate
"""


@pytest.fixture(scope="module")
def match_pr() -> ModuleType:
    return load_benchmark("match_pr")


def test_each_column_is_read_under_its_name(match_pr: ModuleType) -> None:
    a, b = match_pr.parse_statistics(STATS)
    assert a["unforced_moves"] == 41 and b["unforced_moves"] == 34
    assert a["chequer_error"] == 0.0 and b["chequer_error"] == pytest.approx(0.562)
    assert a["close_cube"] == 8 and b["close_cube"] == 9
    assert b["cube_error"] == pytest.approx(0.078) and b["wrong_takes"] == 1
    assert b["overall_error"] == pytest.approx(0.640)
    assert a["gnubg_rating"] == "Supernatural" and b["gnubg_rating"] == "Intermediate"
    with pytest.raises(ValueError):
        match_pr.parse_statistics("no table here")


def test_rates_pr_and_label_from_the_totals(match_pr: ModuleType) -> None:
    sides = match_pr.parse_statistics(STATS)
    f = match_pr.figures([{"sides": sides, "games": 3}, {"sides": sides, "games": 2}])
    assert f["checker"] == pytest.approx(1000 * 0.562 / 75)  # both sides added, per unforced move
    assert f["cube"] == pytest.approx(1000 * 0.078 / 17)
    assert f["pr"] == pytest.approx(1000 * 0.640 / 92 / 2)  # 500 x EMG per decision
    assert f["checker_se"] == 0.0  # two identical samples: no spread
    assert f["label"] == "Expert" and f["games"] == 5  # 6.96 mEMG per decision
    one = match_pr.figures([{"sides": sides, "games": 1}])
    assert math.isnan(one["checker_se"])  # one sample gives no error estimate


def test_the_table_names_a_cube_depth_other_than_the_levels(match_pr: ModuleType) -> None:
    rows = [{"sides": match_pr.parse_statistics(STATS), "games": 3}]
    own = match_pr.table("expert", 2, [("all", rows)])
    deeper = match_pr.table("expert", 2, [("all", rows)], cube_plies=2)
    assert "gammon expert (0-ply) against itself" in own and "rolls ahead" not in own
    assert "gammon expert (0-ply, the cube 2 rolls ahead) against itself" in deeper
    assert "the cube at the root" in match_pr.table("expert", 2, [("all", rows)], cube_plies=0)


@pytest.mark.parametrize(("option", "keyword", "named"), [
    ("--weights", "weights", "(0-ply, the cube 2 rolls ahead, weights runs/C2/weights.npz)"),
    ("--cube-weights", "cube_weights",
     "(0-ply, the cube 2 rolls ahead, the cube's weights runs/C2/weights.npz)"),
])
def test_the_table_names_other_weights_and_a_missing_file_is_refused(  # type: ignore[no-untyped-def]
        match_pr: ModuleType, tmp_path, capsys, option: str, keyword: str, named: str) -> None:
    rows = [{"sides": match_pr.parse_statistics(STATS), "games": 3}]
    text = match_pr.table("expert", 2, [("all", rows)], cube_plies=2, **{keyword: "runs/C2/weights.npz"})
    assert f"gammon expert {named} against itself" in text
    out = tmp_path / "out"
    assert match_pr.main([option, str(tmp_path / "none.npz"), "--gnubg", "/bin/true", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "no weights file" in err and "none.npz" in err
    assert not out.exists()  # refused before anything is made


def test_the_table_names_cube_rollouts_and_a_bad_count_is_refused(  # type: ignore[no-untyped-def]
        match_pr: ModuleType, tmp_path, capsys) -> None:
    rows = [{"sides": match_pr.parse_statistics(STATS), "games": 3}]
    text = match_pr.table("expert", 2, [("all", rows)], cube_rollout=648)
    assert "gammon expert (0-ply, close cube calls rolled out (648 trials)) against itself" in text
    out = tmp_path / "out"
    for bad in ("1", "-5"):
        assert match_pr.main(["--cube-rollout", bad, "--gnubg", "/bin/true", "--out", str(out)]) == 2
        assert "--cube-rollout must be 0 (none) or 2 to 1000000 trials" in capsys.readouterr().err
    assert not out.exists()
