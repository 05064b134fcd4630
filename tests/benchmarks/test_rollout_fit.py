"""``benchmarks/rollout_fit.py``: nets' 0-ply equities against held-out rollout targets."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from benchmark_modules import load_benchmark


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_benchmark("rollout_fit")


def test_equity_counts_gammons_and_backgammons_once_more_each(bench: ModuleType) -> None:
    # a sure backgammon win is worth 3; an even game without gammons 0; a sure gammon loss -2
    p = np.array([[1.0, 1.0, 1.0, 0.0, 0.0], [0.5, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 0.0]])
    np.testing.assert_allclose(bench.equities(p), [3.0, 0.0, -2.0])


def test_only_the_finished_rows_of_a_dataset_are_read(bench: ModuleType, tmp_path: Path) -> None:
    boards = np.arange(4 * 50, dtype=np.uint8).reshape(4, 50)
    targets = np.full((4, 5), 0.25, dtype=np.float32)
    path = tmp_path / "dataset.npz"
    np.savez(path, boards=boards, targets=targets, done=np.array(3))
    b, t = bench.load_rows([str(path), str(path)])
    assert len(b) == len(t) == 6  # the unfinished fourth row of each copy is left out
    np.testing.assert_array_equal(b[3], boards[0])


def test_the_paired_change_is_the_mean_of_the_per_position_changes(bench: ModuleType) -> None:
    base = np.array([0.10, -0.10, 0.02, 0.00])
    better = np.array([0.05, -0.05, 0.02, 0.00])  # |error| down by 0.05, 0.05, 0, 0
    lines = bench.report(["A", "B"], [base, better])
    assert lines[0] == "positions: 4"
    assert "mean |diff| 0.0550" in lines[1] and "share > 0.05 0.500" in lines[1]
    assert lines[3].startswith("B - A: mean |diff| -0.0250 +- 0.0144")


def test_each_probability_bias_is_net_minus_rollout(bench: ModuleType) -> None:
    # the net counts one gammon win in ten too many and no other difference
    targets = np.array([[0.6, 0.2, 0.0, 0.1, 0.0], [0.6, 0.2, 0.0, 0.1, 0.0]])
    net = targets + np.array([[0.0, 0.1, 0.0, 0.0, 0.0], [0.0, 0.1, 0.0, 0.0, 0.0]])
    line = bench.probability_bias("N", net, targets)
    assert line.startswith("N: net - rollout by probability: ")
    assert "wg +0.1000 +- 0.0000" in line and "win +0.0000" in line and "lg +0.0000" in line


def test_the_pip_gap_is_the_player_on_roll_minus_the_opponent_bar_counting_25() -> None:
    bench = load_benchmark("rollout_fit")
    b = np.zeros((2, 50), dtype=np.uint8)
    b[0, 24] = 1      # on roll: one checker on the bar (25 pips)
    b[0, 25 + 5] = 2  # opponent: two on its 6-point (12 pips)
    b[1, 0] = 3       # on roll: three on its ace point (3)
    b[1, 25 + 23] = 1  # opponent: one on its 24-point (24)
    np.testing.assert_array_equal(bench.pip_gaps(b), [13, -21])


def test_the_error_is_split_by_who_leads_the_race(bench: ModuleType) -> None:
    gaps = np.array([0, 10, -50, -40, 45])  # close, close, on roll ahead twice, behind once
    error = np.array([0.01, -0.01, 0.2, 0.1, -0.3])
    line = bench.by_pip_gap("N", error, gaps)
    assert line.startswith("N: |gap| < 40 (2): bias +0.0000 rms 0.0100")
    assert "on roll ahead >= 40 (2): bias +0.1500" in line
    assert "on roll behind >= 40 (1): bias -0.3000 rms 0.3000" in line
