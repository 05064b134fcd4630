"""The engine: network evaluator, its input encoding and TD(lambda) self-play training.

numba caches a compiled function by its own file only, so a cached caller in
this package would keep running an old copy of a callee from another file (the
move generator, the encoder, the network) after that file changed.  On import
we therefore compare a digest of those sources with the one the cache was
built from and drop this package's numba cache when they differ.  Only files
that compile numba functions count: editing a pure-Python module of the
package (the cube layer, the CLI glue) keeps the compiled code.
"""

from __future__ import annotations

import hashlib
from pathlib import Path


def _check_numba_cache() -> None:
    here = Path(__file__).resolve().parent
    sources = [
        here.parent / "core" / "movegen.py",
        *sorted(here.glob("*.py")),
    ]
    digest = hashlib.sha256()
    for p in sources:
        try:
            text = p.read_bytes()
        except OSError:
            return
        if b"@njit" in text:
            digest.update(p.name.encode() + b"\0" + text)
    cache = here / "__pycache__"
    stamp = cache / "numba-sources.sha256"
    want = digest.hexdigest()
    try:
        if stamp.read_text() == want:
            return
    except OSError:
        pass
    try:
        cache.mkdir(exist_ok=True)
        for f in cache.iterdir():
            if f.suffix in (".nbi", ".nbc"):
                f.unlink(missing_ok=True)
        stamp.write_text(want)
    except OSError:
        pass


_check_numba_cache()


def __getattr__(name: str) -> object:
    """``gammon.ai.Engine``, imported on first use (it loads weights and compiled code)."""
    if name == "Engine":
        from gammon.ai.engine import Engine

        return Engine
    raise AttributeError(f"module 'gammon.ai' has no attribute {name!r}")
