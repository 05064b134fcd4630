"""Load a script of ``benchmarks/`` (or ``training/``) as a module, so tests can call its functions."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load_benchmark(script: str, name: str | None = None, folder: Path = BENCHMARKS) -> ModuleType:
    """``<folder>/<script>.py`` (default: ``benchmarks/``) as the module ``name`` (default: ``script``).

    The module is registered in ``sys.modules`` before it runs: dataclasses look their
    module up there while the file executes.
    """
    spec = importlib.util.spec_from_file_location(name or script, folder / f"{script}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
