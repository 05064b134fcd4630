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
One stage can take most of a minute, so while it compiles the line is repeated
every :data:`TICK_SECONDS` with the time so far: the counter always moves.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

from gammon.i18n import N_, _

#: The message shown when compilation is needed (the wording tests look for).
PREPARING = N_("preparing the engine (first run only: compiling it takes a minute or two)")
#: How often a stage that is still compiling says so again, with the seconds so far.
TICK_SECONDS = 5.0


def _clock() -> float:
    """The clock the progress lines count from (one place, so a test can drive it)."""
    return time.perf_counter()


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
    (N_("move generator"), _movegen),
    (N_("neural-net evaluator"), _evaluator),
    (N_("cube decisions"), _cube),
    (N_("search (1 to 3 plies)"), _search),
    (N_("rollouts"), _rollout),
)
#: Stages the computer needs to play at 0-ply (beginner to expert); search is needed beyond.
STAGES_FOR_0PLY = 3


def _kernels() -> list[object]:
    """The compiled entry points whose disk cache tells whether the engine is ready."""
    from gammon.ai import evaluator, rollout_trials, search_kernels
    from gammon.core import movegen

    return [movegen.generate, movegen.single_steps, evaluator.static_eval,
            evaluator.static_batch, search_kernels.run, search_kernels.roll_results,
            rollout_trials.run_trials]


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


def _stage_line(done: int, total: int, stage: str, took: float) -> str:
    return _("  [{number}/{total}] {stage}... ({seconds} s so far)").format(
        number=done + 1, total=total, stage=_(stage), seconds=f"{took:.0f}")


def _warm_up_ticking(stream: TextIO) -> float:
    """:func:`warm_up` in this thread, with a line per stage on ``stream`` and, from a
    background thread, the current stage's line again every :data:`TICK_SECONDS`."""
    t0 = _clock()
    lock = threading.Lock()
    current: list[tuple[int, int, str]] = []
    stop = threading.Event()

    def write(text: str) -> None:
        with lock:
            stream.write(text + "\n")
            stream.flush()

    def report(done: int, total: int, stage: str) -> None:
        took = _clock() - t0
        current[:] = [(done, total, stage)] if done < total else []
        ready = _("  engine ready ({seconds} s)").format(seconds=f"{took:.0f}")
        write(_stage_line(done, total, stage, took) if done < total else ready)

    def tick() -> None:
        while not stop.wait(TICK_SECONDS):
            if current:
                write(_stage_line(*current[0], _clock() - t0))

    ticker = threading.Thread(target=tick, name="gammon-warmup-ticker", daemon=True)
    ticker.start()
    try:
        return warm_up(report)
    finally:
        stop.set()
        ticker.join()


def engine_ready(stream: TextIO | None = None) -> None:
    """Make sure the engine is compiled, saying so (with progress) when that takes time.

    Silent when numba's cache is already warm.
    """
    if is_warm():
        return
    out = stream if stream is not None else sys.stderr
    out.write(PREPARING + "...\n")
    out.flush()
    _warm_up_ticking(out)


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
        self.started = _clock()
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
        (nothing if they already are): ``who`` is what waits ("The computer").

        A line for each stage as it starts, and the same line again every
        :data:`TICK_SECONDS` while it compiles, with the seconds so far.
        """
        if self.ready(needed):
            return
        say(_("{who} is waiting: {what}...").format(who=who, what=_(PREPARING)))
        shown, said = -1, _clock()
        while not self.ready(needed):
            self._thread.join(timeout=min(0.5, TICK_SECONDS))
            now = _clock()
            if (self.done != shown or now - said >= TICK_SECONDS) and not self.ready(needed):
                shown, said = self.done, now
                say(_stage_line(self.done, self.total, self.stage, now - self.started))
        say(_("  ready ({seconds} s).").format(seconds=f"{_clock() - self.started:.0f}"))


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
    print(f"gammon: {_(PREPARING)}...", flush=True)
    _warm_up_ticking(sys.stdout)


if __name__ == "__main__":
    main()
