"""``benchmarks/late_hit_bias.py`` turns every row to the view of the side that was hit."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from benchmark_modules import load_benchmark


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_benchmark("late_hit_bias")


def test_the_side_with_more_checkers_off_is_the_one_seen(bench: ModuleType) -> None:
    hit_on_roll = np.zeros(50, dtype=np.uint8)
    hit_on_roll[24], hit_on_roll[0] = 1, 4  # 10 off, on the bar
    hit_on_roll[25:31] = (3, 3, 3, 2, 2, 2)  # the opponent: 15 on the board
    hitter_on_roll = np.concatenate([hit_on_roll[25:], hit_on_roll[:25]])
    boards = np.stack([hit_on_roll, hitter_on_roll])
    p = np.array([[0.7, 0.1, 0.01, 0.0, 0.0], [0.3, 0.0, 0.0, 0.1, 0.01]])
    q = bench.hit_side_view(boards, p)
    # The first row is already the hit side's; the second is the hitter's, turned round:
    # the hit side wins 70% (of which 10% gammons) either way.
    np.testing.assert_allclose(q[0], p[0])
    np.testing.assert_allclose(q[1], [0.7, 0.1, 0.01, 0.0, 0.0])


def test_the_summary_is_the_mean_difference_with_its_error(bench: ModuleType) -> None:
    ref = np.array([[0.5, 0.1, 0.0, 0.1, 0.0], [0.4, 0.0, 0.0, 0.2, 0.0]])
    p = ref + np.array([[0.1, 0, 0, 0, 0], [0.3, 0, 0, 0, 0]])
    r = bench.summary("x", p, ref)
    assert r["win"] == pytest.approx(0.2) and r["equity"] == pytest.approx(0.4)
    assert r["equity_mae"] == pytest.approx(0.4) and r["win_se"] == pytest.approx(0.1)
