"""Test-run policy: in CI no test may skip.

CI (``.ci/run``) provides everything the suite can use: GNU Backgammon, PostgreSQL,
Chromium and the referee's shared vectors beside the repository.  There a skipped test is
a test that silently did not run, so with ``GAMMON_CI_NO_SKIP=1`` every skip is reported
as a failure, with its reason.  On a developer's machine skips stay skips (a missing
gnubg or database is named in the reason).

Skips are decided per test (a marker or a fixture), never for a whole module, and never
for the project's own code: a module of ``gammon`` that fails to import is an error.
"""

from __future__ import annotations

import os
from collections.abc import Generator

import pytest
from hypothesis import settings

# No property test depends on timing: Hypothesis's default deadline (200 ms an example) fails
# a test whose example happened to run slowly on a busy machine, which says nothing about the
# code.  Tests that set their own settings keep them; none sets a deadline.
settings.register_profile("gammon", deadline=None)
settings.load_profile("gammon")

NO_SKIP = os.environ.get("GAMMON_CI_NO_SKIP", "") not in ("", "0")
#: Set by ``.ci/run`` only when the shared vectors are not beside the clone (it says so
#: loudly): skips whose reason names this text stay skips; all others still fail.
ALLOWED_SKIP = os.environ.get("GAMMON_CI_ALLOW_SKIP", "").strip()


def _allowed(report: pytest.TestReport | pytest.CollectReport) -> bool:
    return bool(ALLOWED_SKIP) and ALLOWED_SKIP in _reason(report)
#: Mutation testing (``make mutation``): the test files to run for the module under mutation,
#: comma-separated names like ``test_dice,test_fair_dice``; other tests are deselected.
MUTATION_TESTS = {n.strip() for n in os.environ.get("GAMMON_MUTATION_TESTS", "").split(",") if n.strip()}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not MUTATION_TESTS:
        return
    keep = [i for i in items if i.path.stem in MUTATION_TESTS]
    dropped = [i for i in items if i.path.stem not in MUTATION_TESTS]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


def _reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, None, None]:
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    if NO_SKIP and report.skipped and not hasattr(report, "wasxfail") and not _allowed(report):
        report.outcome = "failed"
        report.longrepr = (f"skipped where CI provides everything it needs (GAMMON_CI_NO_SKIP=1): "
                           f"{_reason(report)}")


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, None, None]:
    outcome = yield
    report: pytest.CollectReport = outcome.get_result()
    if NO_SKIP and report.skipped and not _allowed(report):
        # A whole file skipped at collection (which the suite must not do): an error in CI.
        report.outcome = "failed"
        report.longrepr = f"a test file was skipped in CI (GAMMON_CI_NO_SKIP=1): {_reason(report)}"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if NO_SKIP:
        skipped = len(terminalreporter.stats.get("skipped", []))
        extra = f" but those that need the {ALLOWED_SKIP}, which are missing here" if ALLOWED_SKIP else ""
        terminalreporter.write_line(f"GAMMON_CI_NO_SKIP: {skipped} tests skipped (must be 0{extra})")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if not NO_SKIP:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter is not None else 0
    allowed = sum(1 for r in reporter.stats.get("skipped", []) if _allowed(r)) if reporter is not None else 0
    if skipped > allowed and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True)
def _english_unless_a_test_asks(monkeypatch: pytest.MonkeyPatch) -> Generator[None, None, None]:
    """The suite checks gammon's English words: a developer whose locale is Norwegian, Swedish,
    Danish or Polish would otherwise see ``gammon play`` and ``analyse`` speak it (issue 38).
    Nothing changes where the locale is English or C, as in CI.  A test that runs ``gammon play
    --lang pl`` in this process leaves English behind it for the next."""
    from gammon.i18n import from_environment, set_language

    if from_environment(os.environ) != "en":
        monkeypatch.setenv("LC_ALL", "C.UTF-8")
    yield
    set_language("en")
