"""benchmarks/race_tables.py samples the races the short-side table covers and compares fairly."""

from __future__ import annotations

import re

import pytest

from benchmark_modules import load_benchmark
from gammon.ai.evaluator import PositionClass, classify

race_tables = load_benchmark("race_tables")


def _straggler_side(counts: list[int]) -> bool:
    """Four or fewer checkers left, at least one outside the home board (points 7-24)."""
    return sum(counts[:24]) <= 4 and any(counts[6:24])


def _home_side(counts: list[int]) -> bool:
    return not any(counts[6:25])


def test_sampled_races_are_the_ones_the_short_table_covers() -> None:
    races = race_tables.random_races(300, seed=5)
    assert len(races) == 300
    assert len({p.position_id for p in races}) > 250  # random, not one position repeated
    for p in races:
        assert classify(p) is PositionClass.RACE  # no contact left
        assert _straggler_side(p.me) or _straggler_side(p.opp)  # what the table adds
        for side in (p.me, p.opp):  # each side is home or down to four checkers
            assert _home_side(side) or sum(side[:24]) <= 4
    assert race_tables.random_races(50, seed=5) == races[:50]  # seeded


def test_report_names_the_exact_value_of_its_worst_race(capsys: pytest.CaptureFixture[str]) -> None:
    assert race_tables.main(["--positions", "200", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    mad = float(re.search(r"win: .*mean \|difference\| ([\d.]+)", out).group(1))  # type: ignore[union-attr]
    assert 0.0 < mad < 1.0  # the net is not the tables, and both are probabilities
    share = float(re.search(r"share > 0.10: ([\d.]+)", out).group(1))  # type: ignore[union-attr]
    assert 0.0 <= share <= 1.0
    worst = re.search(r"net win ([\d.]+), tables ([\d.]+)", out)
    assert worst and abs(float(worst.group(1)) - float(worst.group(2))) > 0.1
