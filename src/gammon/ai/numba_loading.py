"""Loading gammon's compiled kernels from numba's disk cache without refreshing numba's compiler.

Before it reads a compiled function from its disk cache, numba's
``Cache.load_overload`` refreshes its whole compiler: it imports numba's
lowering modules and installs their registries (the implementations of every
function it can compile, about 250 of them).  Rebuilding a function that was
compiled already does not use them, and a cache miss compiles, which refreshes
again itself.  Every command that uses the engine paid that once, on its first
kernel: 0.10 to 0.14 s of a 1.8 s rollout command, 0.09 s of a first
``legal_plays``.  :func:`load_cached_kernels_lightly` (run when :mod:`gammon.ai`
is imported) makes the loads of gammon's own functions initialize only what the
loaded machine code calls: the runtime's symbols (NRT), for the arrays the
kernels allocate.

This file compiles nothing, so editing it leaves the compiled code's cache key
(:func:`gammon.ai.numba_sources_key`) as it is.
"""

from __future__ import annotations

from typing import Any

#: The modules whose numba functions load the light way: gammon's own.
OWN_PREFIX = "gammon."


def is_own(cache: Any) -> bool:
    """Whether numba's ``cache`` object holds one of gammon's functions."""
    func = getattr(cache, "_py_func", None)
    return str(getattr(func, "__module__", "")).startswith(OWN_PREFIX)


def load_cached_kernels_lightly() -> bool:
    """Make numba load gammon's functions from its disk cache without the refresh; whether it did.

    Only functions of gammon's modules (:func:`is_own`) load this way: any other numba code
    in the process keeps numba's own path.  Where numba's internals are not the ones
    this expects (another numba version), nothing changes and the result is False.
    Calling it again changes nothing more.
    """
    try:
        from numba.core import caching
        from numba.core.runtime import nrt
    except ImportError:  # pragma: no cover  (a numba without these modules)
        return False
    cache = getattr(caching, "Cache", None)
    original = getattr(cache, "load_overload", None)
    if cache is None or original is None:
        return False
    if getattr(original, "light", False):
        return True
    if (not hasattr(cache, "_load_overload") or not hasattr(cache, "_guard_against_spurious_io_errors")
            or not hasattr(getattr(nrt, "rtsys", None), "initialize")):
        return False

    def load_overload(self: Any, sig: Any, target_context: Any) -> Any:
        if not is_own(self):
            return original(self, sig, target_context)
        nrt.rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)
        return None  # the guard swallowed an I/O error: compile instead, as numba does

    load_overload.light = True  # type: ignore[attr-defined]
    load_overload.__doc__ = original.__doc__
    cache.load_overload = load_overload
    return True
