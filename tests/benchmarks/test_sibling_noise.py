"""``benchmarks/sibling_noise.py``: the noise of sibling differences from two repeats of a rollout."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from benchmark_modules import load_benchmark


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_benchmark("sibling_noise")


def test_centring_removes_each_groups_own_mean(bench: ModuleType) -> None:
    values = np.array([1.0, 3.0, 10.0, 20.0, 30.0])
    groups = np.array([4, 4, 9, 9, 9])  # group numbers need not start at 0
    np.testing.assert_allclose(bench.centred(values, groups), [-1.0, 1.0, -10.0, 0.0, 10.0])


def test_luck_shared_by_a_group_is_not_noise_in_its_differences(bench: ModuleType) -> None:
    # Two repeats whose every sibling moved by its group's common luck (+0.3 / -0.2 per group):
    # the values are noisy, their differences within a group are not.
    groups = np.array([0, 0, 0, 1, 1])
    truth = np.array([0.1, 0.2, -0.1, 0.5, 0.4])
    first = truth + np.array([0.3, 0.3, 0.3, -0.2, -0.2])
    second = truth + np.array([-0.3, -0.3, -0.3, 0.2, 0.2])
    assert bench.repeat_noise(first, second) == pytest.approx(np.sqrt(np.mean((first - second) ** 2) / 2))
    assert bench.repeat_noise(first, second) > 0.2
    assert bench.repeat_noise(bench.centred(first, groups), bench.centred(second, groups)) == pytest.approx(0.0)


def test_independent_noise_of_sd_s_is_measured_as_s(bench: ModuleType) -> None:
    rng = np.random.default_rng(3)
    first, second = rng.normal(0, 0.1, 20_000), rng.normal(0, 0.1, 20_000)
    assert bench.repeat_noise(first, second) == pytest.approx(0.1, rel=0.03)


def test_the_summary_line_reports_each_figure(bench: ModuleType) -> None:
    groups = np.array([0, 0, 1, 1])
    ref = np.array([0.0, 0.2, 0.5, 0.7])
    line = bench.summary("shared dice", ref + 0.1, ref - 0.1, groups, ref)
    assert line.startswith("shared dice: within-group noise RMS 0.0000")
    assert "value noise RMS 0.1414" in line and "targets RMS 0.0000" in line
