"""gammon's kernels load from numba's disk cache without numba's compiler refresh, and nothing breaks.

The refresh imports numba's lowering modules (``numba.np.linalg`` among them), so
their absence after a kernel has run shows the light load took place; a function
compiled afterwards in the same process shows that compiling still refreshes.
"""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace
from typing import Any

from numba.core import caching

import gammon.ai
from gammon.ai.numba_loading import is_own, load_cached_kernels_lightly
from gammon.core.position import Position

_SCRIPT = """
import sys
import gammon.ai
from gammon.core.position import Position
plays = len(Position.initial().legal_plays((3, 1)))
refreshed = "numba.np.linalg" in sys.modules
import numpy as np
from numba import njit
from numba.typed import List

@njit
def fresh(n):
    a = np.zeros(n)
    out = List()
    for i in range(n):
        out.append(np.sqrt(i) + a[i])
    return sum(out), np.sort(np.array([3.0, 1.0, 2.0]))[0] + np.cumsum(np.ones(4))[-1]

total, other = fresh(10)
print(plays, refreshed, round(total, 6), other)
"""


def _run() -> list[str]:
    out = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_a_cached_kernel_loads_without_the_refresh_and_compiling_still_works() -> None:
    _run()  # the first run may compile the move generator into the cache
    plays, refreshed, total, other = _run()
    assert plays == "16"  # the opening 31's sixteen plays: the loaded code runs right
    assert refreshed == "False"  # loading it did not import numba's lowering modules
    # A function compiled after the light load (arrays, a typed list, sorting) is right too.
    assert float(total) == round(sum(i**0.5 for i in range(10)), 6)
    assert float(other) == 5.0


class _Context:
    def __init__(self) -> None:
        self.refreshed = 0

    def refresh(self) -> None:
        self.refreshed += 1


class _Cache:
    """What numba's ``Cache.load_overload`` uses of its cache object."""

    def __init__(self, module: str) -> None:
        self._py_func = SimpleNamespace(__module__=module)
        self.loaded: list[Any] = []

    def _guard_against_spurious_io_errors(self) -> Any:
        from contextlib import nullcontext

        return nullcontext()

    def _load_overload(self, sig: Any, target_context: Any) -> str:
        self.loaded.append(sig)
        return "loaded"


def test_only_gammons_functions_skip_the_refresh() -> None:
    Position.initial().legal_plays((3, 1))  # the runtime is set up, as before any real load
    assert gammon.ai is not None and load_cached_kernels_lightly() is True
    load = caching.Cache.load_overload
    ours, theirs = _Cache("gammon.ai.evaluator"), _Cache("someone_else.kernels")
    ctx_ours, ctx_theirs = _Context(), _Context()
    assert load(ours, "sig", ctx_ours) == "loaded" and ours.loaded == ["sig"]
    assert ctx_ours.refreshed == 0
    assert load(theirs, "sig", ctx_theirs) == "loaded" and theirs.loaded == ["sig"]
    assert ctx_theirs.refreshed == 1  # numba's own path: refresh, then load
    assert is_own(ours) and not is_own(theirs) and not is_own(SimpleNamespace())


def test_installing_twice_wraps_once() -> None:
    first = caching.Cache.load_overload
    assert load_cached_kernels_lightly() is True
    assert caching.Cache.load_overload is first
