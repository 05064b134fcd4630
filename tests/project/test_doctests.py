"""Every docstring example in the package runs, and runs at least one example.

The modules are found by looking for ``>>>`` in the source, so a new example is picked up
without a new test, and a module whose examples stop being collected (a broken docstring,
a ``__test__`` mistake) fails here instead of passing with nothing tried.
"""

from __future__ import annotations

import doctest
import importlib

import pytest

from paths import ROOT

SRC = ROOT / "src"


def _modules_with_examples() -> list[str]:
    found = []
    for path in sorted((SRC / "gammon").rglob("*.py")):
        if ">>> " in path.read_text(encoding="utf-8"):
            parts = path.relative_to(SRC).with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


MODULES = _modules_with_examples()


def test_the_search_finds_the_modules_with_examples() -> None:
    expected = {"gammon.core.dice", "gammon.core.position", "gammon.core.match_id", "gammon.ai.met"}
    assert expected <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has '>>>' in its source but no example ran"
    assert result.failed == 0
