"""The engine: network evaluator, its input encoding, search, cube and rollouts.

Training the nets lives in :mod:`gammon.training`, which this package never imports.

numba caches a compiled function by its own file only, so a cached caller in
this package would keep running an old copy of a callee from another file (the
move generator, the encoder, the network) after that file changed.  On import
we therefore point numba's cache at a directory named by a digest of those
sources (``numba.config.CACHE_DIR``, i.e. ``NUMBA_CACHE_DIR``): changed
sources get a fresh directory and are compiled anew, and nothing is deleted.
Only files that compile numba functions (or define a numba intrinsic) count, in
the rules' core, this package and training: editing a pure-Python module (the
cube layer, the CLI glue) keeps the compiled code.  The training
package's compiled files count too (read as text, never imported): their kernels
call this package's.

The directory is ``$NUMBA_CACHE_DIR/gammon-<key>`` when the user set
``NUMBA_CACHE_DIR``, else ``$XDG_CACHE_HOME/gammon/numba/<key>`` (or
``~/.cache/...``); when it cannot be created numba falls back to its own
places.  Loading from that cache skips numba's compiler refresh, which only
compiling needs (:mod:`gammon.ai.numba_loading`).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def numba_sources_key() -> str:
    """A digest of every source file of the core, the engine and training that compiles numba functions."""
    here = Path(__file__).resolve().parent
    sources = [*sorted((here.parent / "core").glob("*.py")), *sorted(here.glob("*.py")),
               *sorted((here.parent / "training").glob("*.py"))]
    digest = hashlib.sha256()
    for p in sources:
        try:
            text = p.read_bytes()
        except OSError:
            continue
        if b"@njit" in text or b"@intrinsic" in text:
            digest.update(p.name.encode() + b"\0" + text)
    return digest.hexdigest()[:16]


def numba_cache_dir(key: str | None = None) -> Path:
    """Where this version of the engine keeps its compiled code (see the module doc)."""
    key = key or numba_sources_key()
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user:
        return Path(user) / f"gammon-{key}"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gammon" / "numba" / key


def _use_versioned_numba_cache() -> None:
    from numba import config

    config.CACHE_DIR = str(numba_cache_dir())  # type: ignore[attr-defined]  # set at run time


_use_versioned_numba_cache()

from gammon.ai.numba_loading import load_cached_kernels_lightly  # noqa: E402  (after the cache directory is set)

load_cached_kernels_lightly()


def __getattr__(name: str) -> object:
    """``gammon.ai.Engine``, imported on first use (it loads weights and compiled code)."""
    if name == "Engine":
        from gammon.ai.engine import Engine

        return Engine
    raise AttributeError(f"module 'gammon.ai' has no attribute {name!r}")
