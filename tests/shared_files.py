"""Where the tests find files shared between projects: the referee's public vectors.

The shared folder lies beside the repository (``<repo>/../shared``), or inside it
(``<repo>/shared``); the search walks up from this file, so it also works from a copy
of the tests (mutation testing runs them from ``<repo>/mutants/tests``).
``GAMMON_VECTORS`` names the file directly.  Never a machine's absolute path.
"""

from __future__ import annotations

import os
from pathlib import Path

VECTORS_NAME = "vectors_public.jsonl"


def find_shared(*parts: str) -> Path | None:
    """``shared/<parts>`` in this file's folder or any folder above it, or None."""
    here = Path(__file__).resolve().parent
    for folder in (here, *here.parents):
        candidate = folder.joinpath("shared", *parts)
        if candidate.exists():
            return candidate
    return None


def find_vectors() -> Path | None:
    """The referee's public rule vectors, or None where they are not provided."""
    given = os.environ.get("GAMMON_VECTORS")
    if given:
        return Path(given) if Path(given).is_file() else None
    return find_shared("referee", VECTORS_NAME)
