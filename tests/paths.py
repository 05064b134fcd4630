"""Where the tests find the repository's files, wherever in ``tests/`` the test module lies.

The tests are grouped in folders by layer (``tests/core``, ``tests/web``, ...), so a path
built from a test's own ``__file__`` would depend on its folder; these do not.
"""

from __future__ import annotations

from pathlib import Path

#: The tests folder (this file's folder).
TESTS = Path(__file__).resolve().parent
#: The repository root: ``src/``, ``docs/``, ``benchmarks/``, ``training/``, ``README.md``.
ROOT = TESTS.parent
#: The tests' own data files (reference values, a small net).
DATA = TESTS / "data"
#: Where browser tests leave their screenshots (not tracked).
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
