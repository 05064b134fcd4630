"""A plain ``pytest`` run prints why each test skipped, and the PostgreSQL skips say how to run them.

Issue 34: the 21 PostgreSQL skips of a plain ``make test`` printed no reason (pytest shows
skip reasons only with ``-rs``), so nobody could tell that a whole storage backend went
untested, or how to test it.  Here the real suite's PostgreSQL tests are run by a plain
``pytest`` (the options pyproject gives, nothing added) with no database given.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

from paths import ROOT

POSTGRES_FILES = ("tests/web/test_server_api.py", "tests/store/test_server_scaleout.py",
                  "tests/store/test_server_concurrency.py", "tests/web/test_server_clock_outage.py")


def test_a_plain_run_names_every_skip_and_how_to_run_the_postgresql_tests() -> None:
    unset = ("GAMMON_TEST_POSTGRES_URL", "GAMMON_CI_NO_SKIP", "GAMMON_MUTATION_TESTS", "PYTEST_ADDOPTS")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-k", "postgresql or scaleout",
         *POSTGRES_FILES],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    skipped = re.search(r"(\d+) skipped", run.stdout)
    assert skipped and int(skipped.group(1)) >= 4, run.stdout[-3000:]
    lines = [line for line in run.stdout.splitlines() if line.startswith("SKIPPED")]
    counts = [re.match(r"SKIPPED \[(\d+)\]", line) for line in lines]
    assert sum(int(m.group(1)) for m in counts if m) == int(skipped.group(1)), lines
    for line in lines:
        assert "GAMMON_TEST_POSTGRES_URL is not set" in line and "scripts/start_postgres.sh" in line, line
    for name in POSTGRES_FILES:
        assert any(name in line for line in lines), (name, lines)
