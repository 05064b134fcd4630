"""The engine's first compilation never waits in silence: the "(N s so far)" counter moves.

One stage of the compilation can take most of a minute; the counter used to be
printed once, when the stage started, and then stood still.  These tests
replace the stages with one that blocks until the person has been told three
times how long it has been, and drive the clock the lines count from, so they
neither sleep nor depend on how fast the machine is (a counter that never
moves lets the stage give up after a generous time-out and fails the test).
"""

from __future__ import annotations

import io
import itertools
import re
import threading
from collections.abc import Callable

import pytest

from gammon.cli import warmup

SO_FAR = re.compile(r"\[1/2\] slow stage\.\.\. \((\d+) s so far\)")


def _counters(text: str) -> list[int]:
    return [int(s) for s in SO_FAR.findall(text)]


@pytest.fixture
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seven seconds pass at every reading of the clock; a tick is due at every chance."""
    ticks = itertools.count(0, 7)
    monkeypatch.setattr(warmup, "_clock", lambda: float(next(ticks)))
    monkeypatch.setattr(warmup, "TICK_SECONDS", 0.01)


def _stage_until(told: threading.Event) -> Callable[[], None]:
    def stage() -> None:
        told.wait(timeout=60)  # a generous bound: only a counter that never moves gets there

    return stage


@pytest.mark.usefixtures("fake_clock")
def test_engine_ready_repeats_the_stage_line_with_the_time_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    told = threading.Event()

    class Stream(io.StringIO):
        def write(self, text: str) -> int:
            n = super().write(text)
            if len(_counters(self.getvalue())) >= 3:
                told.set()
            return n

    monkeypatch.setattr(warmup, "STAGES", (("slow stage", _stage_until(told)), ("quick stage", lambda: None)))
    monkeypatch.setattr(warmup, "is_warm", lambda: False)
    out = Stream()
    warmup.engine_ready(out)
    assert told.is_set(), out.getvalue()
    counts = _counters(out.getvalue())
    assert len(counts) >= 3 and counts == sorted(counts) and len(set(counts)) == len(counts), counts
    assert out.getvalue().rstrip().splitlines()[-1].startswith("  engine ready (")


@pytest.mark.usefixtures("fake_clock")
def test_the_game_waiting_for_the_engine_sees_the_counter_move(monkeypatch: pytest.MonkeyPatch) -> None:
    told = threading.Event()

    def fake_warm_up(report: Callable[[int, int, str], None] | None = None) -> float:
        assert report is not None
        report(0, 2, "slow stage")
        _stage_until(told)()
        report(2, 2, "ready")
        return 0.0

    monkeypatch.setattr(warmup, "warm_up", fake_warm_up)
    said: list[str] = []

    def say(text: str) -> None:
        said.append(text)
        if len(_counters("\n".join(said))) >= 3:
            told.set()

    warmup.BackgroundWarmup().wait(say)
    assert told.is_set(), said
    counts = _counters("\n".join(said))
    assert len(counts) >= 3 and counts == sorted(counts) and len(set(counts)) == len(counts), counts
    assert said[0].startswith("The computer is waiting") and said[-1].startswith("  ready (")
