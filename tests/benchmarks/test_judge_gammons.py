"""``benchmarks/judge_gammons.py``: which way our checker errors lean, by our own net."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from benchmark_modules import load_benchmark
from gammon.ai.network import Network
from gammon.core.position import Position


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_benchmark("judge_gammons")


def test_the_best_play_is_the_highest_2ply_equity(bench: ModuleType) -> None:
    assert bench.best_play({"a": [-0.2, 0.1], "b": [0.05], "c": -0.1}) == "b"


def test_only_errors_above_the_threshold_count_and_best_minus_ours_is_signed(bench: ModuleType) -> None:
    start = Position.initial()
    plays = Network.load(bench.SHIPPED).rank_plays(start, (6, 5))
    good, bad = plays[0].play.position.position_id, plays[-1].play.position.position_id
    key = (start.position_id, (6, 5))
    cache = {key: {"ply2": {good: [0.1], bad: [-0.3]}}}
    rows = [{"position_id": key[0], "dice": [6, 5], "choice": bad, "loss2": 0.4},
            {"position_id": key[0], "dice": [6, 5], "choice": good, "loss2": 0.0},
            {"position_id": key[0], "dice": [6, 5], "choice": bad, "loss2": 0.01}]
    net = Network.load(bench.SHIPPED)
    d = bench.differences(rows, cache, net, 0.02)
    assert d.shape == (1, 5)  # the exact choice and the small loss are left out
    y = {p.play.position.position_id: np.asarray(p.probabilities, dtype=np.float64) for p in plays}
    np.testing.assert_allclose(d[0], y[good] - y[bad], atol=1e-6)
    assert d[0][0] > 0  # 24/13 runs a back checker to safety: more wins than the worst play


def test_the_report_gives_each_probability_and_the_gammons(bench: ModuleType) -> None:
    d = np.array([[-0.01, 0.0, 0.0, 0.02, 0.0], [-0.03, 0.0, 0.0, 0.00, 0.0]])
    lines = bench.report(d)
    assert lines[0] == "errors: 2"
    assert "win      best - ours -0.0200 +- 0.0100" in lines
    assert lines[-1].startswith("gammons either way (win g + lose g) +0.0100")
    assert "in 50% of the errors" in lines[-1]
    assert bench.report(d[:1]) == ["errors: 1 (too few to average)"]
