"""Run many seeded tasks in this process or as Ray tasks, with the same results either way.

Rollouts, training-data generation and the analysis of many files all split
into independent tasks: a block of rollout trials, a shard of self-play
positions with their targets, one match file.  Each task carries everything
that decides its result (its index, its own seed from :func:`task_seed`), so
running the tasks one after the other here, or spread over the workers of a
Ray cluster in any order, gives the same numbers bit for bit.

* :class:`LocalRunner`: the tasks in order, in this process.  This is the
  path of a plain install (``pip install gammon``).
* :class:`RayRunner`: each task a Ray task (``pip install 'gammon[ray]'``).
  ``address=None`` starts a private local Ray with ``num_cpus`` workers (no
  dashboard, a small object store) and stops it afterwards; an address
  (``auto``, ``HOST:PORT``, ``ray://HOST:PORT``) joins a running cluster,
  whose nodes must have gammon installed.

Both give :meth:`~LocalRunner.imap_unordered` (``(index, result)`` pairs as
tasks finish) and :func:`run_ordered` puts them back in order, reporting
progress as they come.  A task is ``fn(shared, task)``: ``shared`` (weights,
settings) is sent to the cluster once, not once per task.
"""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType, TracebackType
from typing import Any, Protocol, TypeVar

from gammon.core.errors import GammonError

__all__ = [
    "LOCAL",
    "LocalRunner",
    "RayRunner",
    "RayUnavailableError",
    "Runner",
    "check_ray_address",
    "make_runner",
    "ray_available",
    "run_ordered",
    "task_seed",
]

S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")

#: What ``--ray`` without ``--address`` means: start a local Ray on this machine.
LOCAL = "local"
#: The object store of a local Ray, in bytes: tasks here pass small arrays, and the machine is small.
LOCAL_OBJECT_STORE = 100 * 1024 * 1024
#: Tasks sent ahead per worker: enough to keep workers busy, few enough to stop early cheaply.
AHEAD_PER_WORKER = 2

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB


class RayUnavailableError(GammonError):
    """``--ray`` was asked for, but Ray is not installed or the cluster cannot be reached."""


def task_seed(base: int, index: int) -> int:
    """The seed of task ``index`` of a run seeded ``base``: 0 to 2**63 - 1, from both alone.

    Two rounds of splitmix64 (the generator of :mod:`gammon.ai.rng`) so that
    neighbouring bases and indices give unrelated seeds.

    >>> task_seed(1, 0) == task_seed(1, 0), task_seed(1, 0) != task_seed(1, 1) != task_seed(2, 0)
    (True, True)
    """
    if base < 0 or index < 0:
        raise GammonError("seeds and task numbers must be 0 or more")

    def mix(z: int) -> int:
        z = (z + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * _M1) & _MASK
        z = ((z ^ (z >> 27)) * _M2) & _MASK
        return z ^ (z >> 31)

    return mix(mix(base & _MASK) ^ (index & _MASK)) >> 1


def ray_available() -> bool:
    """Whether the optional package ``ray`` can be imported."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def _import_ray() -> ModuleType:
    try:
        import ray
    except ImportError:
        raise RayUnavailableError(
            "--ray needs the optional package ray: pip install 'gammon[ray]' (or run without --ray)"
        ) from None
    return ray


_ADDRESS = re.compile(r"^(auto|local|(ray://)?[A-Za-z0-9_.\-\[\]:]+:\d{1,5})$")


def check_ray_address(text: str | None) -> str | None:
    """The cluster address of an ``--address`` value: None for a local Ray (``local`` or nothing).

    :raises GammonError: something that is not ``local``, ``auto``,
        ``HOST:PORT`` or ``ray://HOST:PORT`` (a file name given by mistake, say).
    """
    if text is None:
        return None
    t = text.strip()
    if t in ("", LOCAL):
        return None
    if not _ADDRESS.match(t):
        hint = " (that is a file)" if os.path.exists(t) else ""
        raise GammonError(f"--address {t!r} is not a Ray address{hint}: give local, auto, HOST:PORT "
                          "or ray://HOST:PORT")
    return t


class Runner(Protocol):
    """Something that runs ``fn(shared, task)`` for each task and yields ``(index, result)``."""

    @property
    def workers(self) -> int: ...

    def imap_unordered(self, fn: Callable[[S, T], R], shared: S,
                       tasks: Sequence[T]) -> Iterator[tuple[int, R]]: ...


class LocalRunner:
    """The tasks one after the other in this process (the path of a plain install)."""

    workers = 1

    def __enter__(self) -> LocalRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap_unordered(self, fn: Callable[[S, T], R], shared: S,
                       tasks: Sequence[T]) -> Iterator[tuple[int, R]]:
        for i, task in enumerate(tasks):
            yield i, fn(shared, task)


def _writable(shared: S) -> S:
    """A copy of ``shared`` whose arrays can be written (what Ray hands a task is read-only).

    Read-only arrays would also make numba compile every kernel again for that
    type in each worker.  Anything that cannot be copied is used as it is.
    """
    try:
        return copy.deepcopy(shared)
    except (TypeError, copy.Error):
        return shared


def _ray_task(fn: Callable[[S, T], R], shared: S, task: T) -> R:
    """What a Ray worker runs: ``fn`` on a writable copy of the shared data."""
    return fn(_writable(shared), task)


class RayRunner:
    """Each task a Ray task; a context manager that starts (and stops) Ray when needed.

    ``address``: None starts a local Ray with ``num_cpus`` workers (default:
    this machine's cores); otherwise the cluster to join.  If Ray is already
    initialised in this process (a test's fixture, a caller's own
    ``ray.init``) it is used as it is and left running.

    :raises RayUnavailableError: Ray not installed, or the cluster not reachable.
    """

    def __init__(self, address: str | None = None, num_cpus: int | None = None) -> None:
        if num_cpus is not None and num_cpus < 1:
            raise GammonError("a local Ray needs at least 1 worker")
        self.address = address
        self.num_cpus = num_cpus
        self._ray: ModuleType | None = None
        self._started = False
        self._remote: Any = None  # the remote version of _ray_task, made once

    def __enter__(self) -> RayRunner:
        ray = _import_ray()
        self._ray = ray
        if not ray.is_initialized():
            # No dashboard, no usage report, workers' output not echoed line by line, and
            # workers as nice as this process (Ray's default adds 15: `nice -n 10 gammon ...
            # --ray` would run its tasks at 19, starved on a busy machine).
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
            os.environ.setdefault("RAY_DEDUP_LOGS", "1")
            os.environ.setdefault("RAY_worker_niceness", "0")
            # On a loaded machine Ray's agents can take longer to start than the raylet waits
            # for them (15 s), and the raylet then stops (ray-project/ray#62883): wait longer,
            # and start a local Ray a second time if the first start fails anyway.
            os.environ.setdefault("RAY_agent_register_timeout_ms", "120000")
            tries = 2 if self.address is None else 1
            for attempt in range(1, tries + 1):
                try:
                    if self.address is None:
                        ray.init(num_cpus=self.num_cpus or os.cpu_count() or 1, include_dashboard=False,
                                 object_store_memory=LOCAL_OBJECT_STORE, log_to_driver=False,
                                 configure_logging=False)
                    else:
                        ray.init(address=self.address, log_to_driver=False, configure_logging=False)
                    break
                except Exception as exc:  # Ray raises ConnectionError, RuntimeError, ValueError, ...
                    ray.shutdown()
                    if attempt == tries:
                        where = f"the Ray cluster at {self.address}" if self.address else "a local Ray"
                        reason = " ".join(str(exc).split())[:300]
                        raise RayUnavailableError(f"cannot start {where}: {reason}") from None
            self._started = True
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._started and self._ray is not None:
            self._ray.shutdown()
        self._started = False

    @property
    def workers(self) -> int:
        ray = self._ray
        if ray is None or not ray.is_initialized():
            return self.num_cpus or 1
        return max(1, int(ray.cluster_resources().get("CPU", 1)))

    def imap_unordered(self, fn: Callable[[S, T], R], shared: S,
                       tasks: Sequence[T]) -> Iterator[tuple[int, R]]:
        """Yield ``(index, fn(shared, tasks[index]))`` as Ray tasks finish.

        A few tasks per worker are in flight at a time; closing the iterator
        early (a rollout that reached its target error) cancels the rest.  A
        :class:`GammonError` inside a task is raised here as itself.
        """
        ray = self._ray
        if ray is None:
            raise GammonError("use RayRunner in a with block (it starts and stops Ray)")
        if self._remote is None:
            self._remote = ray.remote(num_cpus=1, max_retries=1)(_ray_task)
        remote = self._remote
        ref = ray.put(shared)
        ahead = AHEAD_PER_WORKER * self.workers
        pending: dict[Any, int] = {}
        nxt = 0
        try:
            while nxt < len(tasks) or pending:
                while nxt < len(tasks) and len(pending) < ahead:
                    pending[remote.remote(fn, ref, tasks[nxt])] = nxt
                    nxt += 1
                ready, _ = ray.wait(list(pending), num_returns=1)
                for r in ready:
                    i = pending.pop(r)
                    yield i, self._get(r)
        finally:
            for r in pending:
                ray.cancel(r)

    def _get(self, ref: Any) -> Any:
        ray = self._ray
        assert ray is not None
        try:
            return ray.get(ref)
        except ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, GammonError):
                raise cause from None
            raise


def make_runner(ray: str | None, num_cpus: int | None = None) -> LocalRunner | RayRunner:
    """The runner a command asks for: None (no ``--ray``) runs here; else a Ray address or ``local``.

    :raises GammonError: a value that is not a Ray address.
    :raises RayUnavailableError: ``--ray`` without Ray installed.
    """
    if ray is None:
        return LocalRunner()
    address = check_ray_address(ray)
    _import_ray()
    return RayRunner(address, num_cpus)


def run_ordered(runner: Runner, fn: Callable[[S, T], R], shared: S, tasks: Sequence[T],
                progress: Callable[[int, int], None] | None = None) -> list[R]:
    """``[fn(shared, t) for t in tasks]`` on ``runner``; ``progress(done, total)`` as tasks finish."""
    total = len(tasks)
    out: dict[int, R] = {}
    if progress is not None:
        progress(0, total)
    for i, result in runner.imap_unordered(fn, shared, tasks):
        out[i] = result
        if progress is not None:
            progress(len(out), total)
    return [out[i] for i in range(total)]
