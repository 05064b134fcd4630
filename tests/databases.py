"""The PostgreSQL the storage tests may use, and the words of their skip where there is none.

Every test that needs PostgreSQL reads ``GAMMON_TEST_POSTGRES_URL`` (a throwaway database:
the tests empty it).  Where it is not set those tests skip, and the reason, printed by a plain
``pytest`` run (``-rs`` in pyproject's addopts), says how to run them.  In CI
(``.ci/run``, ``GAMMON_CI_NO_SKIP=1``) PostgreSQL runs and a skip is a failure.
"""

from __future__ import annotations

import os

import pytest

#: The database URL of a throwaway PostgreSQL, or None where none is given.
PG_URL = os.environ.get("GAMMON_TEST_POSTGRES_URL") or None
#: How to enable the PostgreSQL tests (in every skip reason).
PG_HOW = ('to run: eval "$(scripts/start_postgres.sh)", which starts a throwaway PostgreSQL '
          "and exports GAMMON_TEST_POSTGRES_URL")


def pg_skip_reason(what: str = "the PostgreSQL tests") -> str:
    """Why ``what`` skipped, and how to run it."""
    return f"GAMMON_TEST_POSTGRES_URL is not set: {what} skipped ({PG_HOW})"


def postgres_url_or_skip(what: str = "the PostgreSQL tests") -> str:
    """The PostgreSQL URL; where none is given, skip the running test (or fixture) saying why."""
    if PG_URL is None:
        pytest.skip(pg_skip_reason(what))
    return PG_URL


def needs_postgres(what: str = "the PostgreSQL tests") -> pytest.MarkDecorator:
    """A mark that skips a test where no PostgreSQL is given."""
    return pytest.mark.skipif(PG_URL is None, reason=pg_skip_reason(what))
