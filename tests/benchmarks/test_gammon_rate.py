"""``benchmarks/gammon_rate.py`` and ``benchmarks/met_crawford.py``: reading gnubg's rollout, the
Crawford-game figure, and the scores asked for."""

from __future__ import annotations

from types import ModuleType

import pytest

from benchmark_modules import load_benchmark

GNUBG_OUTPUT = """Rollout done
Current Position:
  0.526 0.150 0.008 - 0.474 0.126 0.005 CL +0.079
 [0.001 0.001 0.000 - 0.001 0.001 0.000 CL  0.003] 1r
Current Position:
  0.528 0.149 0.007 - 0.472 0.126 0.005 CL +0.081
 [0.001 0.002 0.000 - 0.001 0.001 0.000 CL  0.003] 1r
"""


@pytest.fixture(scope="module")
def rate() -> ModuleType:
    return load_benchmark("gammon_rate")


@pytest.fixture(scope="module")
def crawford() -> ModuleType:
    return load_benchmark("met_crawford")


def test_gnubgs_last_result_is_read_without_its_lose_column(rate: ModuleType) -> None:
    p, se = rate.parse_gnubg(GNUBG_OUTPUT.replace("\n", "\r\n"))
    assert p == [0.528, 0.149, 0.007, 0.126, 0.005]
    assert se == [0.001, 0.002, 0.0, 0.001, 0.0]
    with pytest.raises(RuntimeError, match="no rollout result"):
        rate.parse_gnubg("gnubg crashed")


def test_the_crawford_leader_wins_unless_the_trailer_gets_a_gammon_or_two_games(rate: ModuleType) -> None:
    # no gammons: the trailer must win two games in a row, 1/4; all gammons: one game, 1/2
    assert rate.crawford_leader(0.0) == pytest.approx(0.75)
    assert rate.crawford_leader(0.5) == pytest.approx(0.5)


def test_the_derived_line_counts_both_sides_gammons(rate: ModuleType) -> None:
    lines = rate.lines("X", [0.5, 0.15, 0.0, 0.10, 0.0], [0.001] * 5)
    assert "gammons per game 0.2500" in lines[1] and "share of wins 0.300, of losses 0.200" in lines[1]
    # one side's rate is 0.125: the leader wins 1 - (1/2 + 0.125) / 2
    assert "Crawford 1a/2a leader 68.75%" in lines[1]


def test_scores_are_crawford_or_post_crawford_and_in_range(crawford: ModuleType) -> None:
    assert crawford.parse_scores("craw:2,post:4") == [(True, 2), (False, 4)]
    for bad in ("craw:1", "post:16", "pre:3", "craw:x"):
        with pytest.raises(SystemExit, match="--scores"):
            crawford.parse_scores(bad)
