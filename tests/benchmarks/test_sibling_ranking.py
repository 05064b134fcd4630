"""``benchmarks/sibling_ranking.py``: each net's choice among sibling plays against the targets."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from benchmark_modules import load_benchmark


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_benchmark("sibling_ranking")


def test_regret_is_the_target_equity_the_movers_choice_gives_away(bench: ModuleType) -> None:
    def probs(eq: list[float]) -> np.ndarray:
        return np.array([[(v + 1) / 2, 0, 0, 0, 0] for v in eq])  # no gammons: equity 2 w - 1

    groups = np.array([0, 0, 1, 1, 1, 2])
    # rows are seen by the side on roll after the play: the mover picks the lowest equity
    net = probs([0.2, 0.1, -0.5, 0.0, 0.1, 0.3])
    target = probs([0.0, 0.3, -0.2, -0.4, 0.0, 0.3])
    agree, regret = bench.choice_regrets(net, target, groups)
    # group 0: the net picks row 1 (worth 0.3), the best is row 0 (0.0); group 1: the net picks
    # row 2 (-0.2), the best is row 3 (-0.4); group 2 (one row) does not count
    assert agree.tolist() == [False, False]
    np.testing.assert_allclose(regret, [0.3, 0.2], atol=1e-12)
    agree, regret = bench.choice_regrets(target, target, groups)
    assert agree.all() and not regret.any()
