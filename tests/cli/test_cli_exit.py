"""How the ``gammon`` process ends: the console script skips the interpreter's teardown, and
nothing a normal exit gives is lost by it.

:func:`gammon.__main__.console` flushes the output, runs the exit handlers and then leaves with
``os._exit``.  These run real processes: the whole output arrives, the exit status is the
command's, ``atexit`` handlers still run, and a thread that is not a daemon is still waited for.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gammon.__main__ import _exit_status

SRC = str(Path(__file__).resolve().parents[2] / "src")


def _python(code: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=120, check=False)


def test_the_command_prints_everything_and_keeps_its_exit_status() -> None:
    # Every legal play of 1-1 from the start: a long listing, all of it through the pipe.
    done = _python("from gammon.__main__ import console; console(['moves', '4HPwATDgc/ABMA', '11'])")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    count = int(lines[0].split(": ")[1].split()[0])
    assert count > 10 and len(lines) == count + 1
    bad = _python("from gammon.__main__ import console; console(['moves', '4HPwATDgc/ABMA', '71'])")
    assert bad.returncode == 2 and bad.stderr.startswith("error: bad dice '71'")


def _moves_after(prelude: str, console: str = "from gammon.__main__ import console\nconsole") -> str:
    """Run ``prelude``, then ``gammon moves`` of 3-1 from the start through ``console``; its output,
    once the process has ended with status 0 and the listing came first."""
    done = _python(prelude + console + "(['moves', '4HPwATDgc/ABMA', '31'])\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith("4HPwATDgc/ABMA with 3-1")
    return done.stdout


def test_exit_handlers_run_after_the_command() -> None:
    out = _moves_after("import atexit, sys\n"
                       "atexit.register(lambda: sys.stdout.write('the handler ran\\n'))\n")
    assert out.endswith("the handler ran\n")


def test_a_thread_still_running_is_waited_for() -> None:
    # The thread prints a moment after the command has finished: a quick exit would end the
    # process first.
    out = _moves_after(
        "import threading, time\n"
        "import gammon.__main__ as entry\n"
        "finished = threading.Event()\n"
        "real = entry.main\n"
        "def main(argv=None):\n"
        "    try:\n"
        "        real(argv)\n"
        "    finally:\n"
        "        finished.set()\n"
        "entry.main = main\n"
        "def late():\n"
        "    finished.wait()\n"
        "    time.sleep(0.3)\n"
        "    print('the thread finished', flush=True)\n"
        "threading.Thread(target=late).start()\n",
        console="entry.console")
    assert out.endswith("the thread finished\n")


@pytest.mark.parametrize(("code", "status", "printed"), [
    (None, 0, ""), (0, 0, ""), (2, 2, ""), (130, 130, ""), ("a message", 1, "a message\n"),
])
def test_the_exit_status_is_the_interpreters(code: object, status: int, printed: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_status(code) == status
    assert capsys.readouterr().err == printed
