"""Preparing the engine: compile its numba kernels once, and never wait in silence.

The move generator and the engine are numba-compiled functions cached on disk
(``cache=True``: in ``__pycache__`` beside the sources, or under
``NUMBA_CACHE_DIR`` when that is set).  The first use on a machine compiles
them, which takes from half a minute to two minutes; every later run loads them
in a moment.  ``gammon warmup`` (run by the Makefile's install step) does that
compilation ahead of time.  Where a command still finds the cache cold it says
so at once, with a progress line per stage, instead of freezing:
:func:`engine_ready` for the engine commands and :class:`BackgroundWarmup` for
``gammon play``, which compiles while the person reads the board and thinks.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

#: The message shown when compilation is needed (the wording tests look for).
PREPARING = "preparing the engine (first run only: compiling it takes a minute or two)"


def _movegen() -> None:
    from gammon.core.position import Position

    start = Position.initial()
    start.legal_plays((3, 1))
    start.legal_plays((5, 5))
    start.step_tree((3, 1))  # single steps: partial plays in the terminal, the browser's step tree


def _evaluator() -> None:
    from gammon.ai.engine import Engine
    from gammon.core.position import Position

    engine = Engine("expert")
    start = Position.initial()
    engine.rank_plays(start, (3, 1))
    engine.evaluate(start)
    engine.static_evaluator.evaluate(start)


def _search() -> None:
    from gammon.ai.engine import Engine
    from gammon.core.position import Position

    Engine("world-class").rank_plays(Position.initial(), (6, 5))


def _cube() -> None:
    from gammon.ai.cube import CubeInfo, cube_decision, cube_efficiency
    from gammon.ai.engine import Engine
    from gammon.core.position import Position

    start = Position.initial()
    probs = Engine("expert").evaluate(start).probabilities
    cube_decision(probs, CubeInfo(), cube_efficiency(start))


def _rollout() -> None:
    from gammon.ai.evaluator import default_evaluator
    from gammon.ai.rollout import RolloutSettings, rollout
    from gammon.core.position import Position

    settings = RolloutSettings(trials=36, seed=1, truncate_at=4, processes=1, min_trials=36)
    rollout(Position.initial(), default_evaluator(), settings)


#: The stages of :func:`warm_up`: a name a person understands, and what compiles it.
STAGES: tuple[tuple[str, Callable[[], None]], ...] = (
    ("move generator", _movegen),
    ("neural-net evaluator", _evaluator),
    ("cube decisions", _cube),
    ("search (1 to 3 plies)", _search),
    ("rollouts", _rollout),
)
#: Stages the computer needs to play at 0-ply (beginner to expert); search is needed beyond.
STAGES_FOR_0PLY = 3


def _kernels() -> list[object]:
    """The compiled entry points whose disk cache tells whether the engine is ready."""
    from gammon.ai import evaluator, rollout, search
    from gammon.core import movegen

    return [movegen.generate, movegen.single_steps, evaluator.static_eval, evaluator.result_eval,
            evaluator.static_batch, search.run, search.roll_results, rollout._run_trials]


def _cached(dispatcher: object) -> bool:
    """Whether numba has a compiled copy of ``dispatcher`` on disk (False when unknown)."""
    try:
        path = dispatcher._cache._cache_file._index_path  # type: ignore[attr-defined]
    except AttributeError:
        return False
    return os.path.exists(path)


def is_warm() -> bool:
    """Whether the engine's kernels are in numba's disk cache (so no compilation is due)."""
    try:
        return all(_cached(k) for k in _kernels())
    except Exception:  # noqa: BLE001  (an engine that cannot even load is not warm)
        return False


def warm_up(report: Callable[[int, int, str], None] | None = None) -> float:
    """Compile (or load) every kernel the commands use; the seconds it took.

    ``report(done, total, stage)`` is called before each stage and once at the end.
    """
    t0 = time.perf_counter()
    for i, (name, stage) in enumerate(STAGES):
        if report is not None:
            report(i, len(STAGES), name)
        stage()
    if report is not None:
        report(len(STAGES), len(STAGES), "ready")
    return time.perf_counter() - t0


def _line_reporter(stream: TextIO, t0: float) -> Callable[[int, int, str], None]:
    def report(done: int, total: int, stage: str) -> None:
        took = time.perf_counter() - t0
        if done < total:
            stream.write(f"  [{done + 1}/{total}] {stage}... ({took:.0f} s so far)\n")
        else:
            stream.write(f"  engine ready ({took:.0f} s)\n")
        stream.flush()

    return report


def engine_ready(stream: TextIO | None = None) -> None:
    """Make sure the engine is compiled, saying so (with progress) when that takes time.

    Silent when numba's cache is already warm.
    """
    if is_warm():
        return
    out = stream if stream is not None else sys.stderr
    out.write(PREPARING + "...\n")
    out.flush()
    warm_up(_line_reporter(out, time.perf_counter()))


class BackgroundWarmup:
    """Compiles the engine on a background thread while a person plays.

    ``gammon play`` starts one when the cache is cold; before the computer's
    first decision (or a hint) :meth:`wait` tells the person what is happening
    and shows the stages as they finish.
    """

    def __init__(self) -> None:
        self.stage = ""
        self.done = 0
        self.total = len(STAGES)
        self.error: BaseException | None = None
        self.started = time.perf_counter()
        self._thread = threading.Thread(target=self._run, name="gammon-warmup", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        # Ctrl-C belongs to the main thread, which waits at the person's prompt: with SIGINT
        # blocked here (and in any thread this one starts) the kernel never hands it to the
        # compiling thread, where it would not wake the prompt's blocking read.
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

        def report(done: int, total: int, stage: str) -> None:
            self.done, self.total, self.stage = done, total, stage

        try:
            warm_up(report)
        except BaseException as exc:  # noqa: BLE001  (reported by wait(), never lost)
            self.error = exc

    @property
    def finished(self) -> bool:
        return not self._thread.is_alive()

    def ready(self, needed: int | None = None) -> bool:
        """Whether the first ``needed`` stages (all by default) are compiled."""
        return self.finished or self.done >= (self.total if needed is None else needed)

    def wait(self, say: Callable[[str], None], who: str = "The computer", needed: int | None = None) -> None:
        """Block until the first ``needed`` stages are compiled, printing what is happening
        (nothing if they already are): ``who`` is what waits ("The computer")."""
        if self.ready(needed):
            return
        say(f"{who} is waiting: {PREPARING}...")
        shown = -1
        while not self.ready(needed):
            self._thread.join(timeout=0.5)
            if self.done != shown and not self.ready(needed):
                shown = self.done
                took = time.perf_counter() - self.started
                say(f"  [{self.done + 1}/{self.total}] {self.stage}... ({took:.0f} s so far)")
        took = time.perf_counter() - self.started
        say(f"  ready ({took:.0f} s).")


def register(app: object) -> None:
    """Add ``gammon warmup`` to the app."""
    import typer

    assert isinstance(app, typer.Typer)

    @app.command("warmup")
    def warmup_command() -> None:
        """Compile the engine now (first run only), so no later command waits for it."""
        main()


def main() -> None:
    """``python -m gammon.cli.warmup``: compile the engine now (the Makefile's install step)."""
    if is_warm():
        print("gammon: the engine is already compiled (numba cache warm).")
        return
    print(f"gammon: {PREPARING}...", flush=True)
    warm_up(_line_reporter(sys.stdout, time.perf_counter()))


if __name__ == "__main__":
    main()
