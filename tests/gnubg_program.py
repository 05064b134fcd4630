"""GNU Backgammon for the tests: where it is, the mark that skips without it, a script run through it.

GNU Backgammon is the reference the record formats and the analysis are checked against
(a file it reads without a warning, a figure it computes).  Where it is not installed those
tests skip with the reason below; in CI it is installed and a skip is a failure.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest


def _find_gnubg() -> str | None:
    """``gnubg`` on PATH, or where Debian installs it; None where it is not installed."""
    found = shutil.which("gnubg")
    if found:
        return found
    for candidate in ("/usr/games/gnubg", "/usr/local/games/gnubg"):  # Debian installs it here
        if os.access(candidate, os.X_OK):
            return candidate
    return None


GNUBG = _find_gnubg()

#: Why a test that needs GNU Backgammon skipped, and how to install it.
GNUBG_MISSING = "GNU Backgammon is not installed (Debian: apt-get install gnubg)"
# Per test (each is reported, and fails in CI where gnubg is installed: see conftest).
needs_gnubg = pytest.mark.skipif(GNUBG is None, reason=GNUBG_MISSING)

TIMEOUT = 240


def run_gnubg(workdir: Path, commands: list[str]) -> str:
    """Run ``gnubg -t`` on ``commands`` with HOME in ``workdir``; return what it printed.

    Fails the test on a timeout, a non-zero exit, or any warning GNU Backgammon
    gives about the files (an invalid or unrecognised move, a record it skipped).
    """
    assert GNUBG is not None
    home = workdir / "home"
    home.mkdir(exist_ok=True)
    script = "\n".join(["set confirm new off", "set confirm save off", *commands, "quit"]) + "\n"
    env = {
        "HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C", "LC_ALL": "C",
        "TERM": "dumb",
    }
    try:
        proc = subprocess.run(
            [GNUBG, "-t", "-q", "-r"], input=script, capture_output=True, text=True,
            timeout=TIMEOUT, env=env, cwd=workdir, check=False,
        )
    except subprocess.TimeoutExpired as exc:  # pragma: no cover - a hung gnubg
        pytest.fail(f"gnubg did not finish in {TIMEOUT} s; output so far:\n{exc.stdout!r}")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    problems = [line for line in out.splitlines()
                if re.search(r"warning|invalid|unrecognised|unknown|not a valid|doesn't follow|error", line,
                             re.IGNORECASE)]
    assert not problems, "\n".join(problems[:20])
    return out
