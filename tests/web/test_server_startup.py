"""``gammon serve`` that cannot start says why in one line: ``error: ...``, exit status 2, nothing else.

Before, a busy port, a host that does not resolve, an unreachable PostgreSQL, an SQLite
URL naming a file that is not a database or a folder nobody can write in gave uvicorn's
log lines or a 130-line traceback and exit status 3.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest


def serve(*args: str, timeout: float = 90) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "GAMMON_DATABASE_URL"}
    return subprocess.run([sys.executable, "-m", "gammon", "serve", *args], capture_output=True, text=True,
                          timeout=timeout, env=env, stdin=subprocess.DEVNULL)


def assert_one_error_line(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr[-2000:]
    for word in words:
        assert word in lines[0], lines[0]


def test_a_busy_port(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = serve("--port", str(port), "--database-url", str(tmp_path / "g.db"))
    assert_one_error_line(result, f"127.0.0.1:{port}", "in use")


def test_a_host_that_does_not_resolve(tmp_path: Path) -> None:
    assert_one_error_line(serve("--host", "no-such-host.invalid", "--database-url", str(tmp_path / "g.db")),
                          "no-such-host.invalid", "does not resolve")


def test_an_unreachable_postgresql() -> None:
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    result = serve("--database-url", f"postgresql+psycopg://gammon:secret-pw@127.0.0.1:{port}/gammon")
    assert_one_error_line(result, "cannot open the database", f"127.0.0.1:{port}")
    assert "secret-pw" not in result.stderr  # the password is never shown


def test_a_file_that_is_not_a_database_is_left_alone(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    text = "not a database, and it must stay as it is\n" * 100
    notes.write_text(text)
    assert_one_error_line(serve("--database-url", f"sqlite:///{notes}"), "not a database")
    assert notes.read_text() == text


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc (a folder no one can create files in)")
def test_a_folder_nobody_can_write_in() -> None:
    assert_one_error_line(serve("--database-url", "/proc/gammon.db"), "cannot open the database")


@pytest.mark.parametrize(("option", "value", "word"), [
    ("--public-url", "ftp://example.org", "https://"),
    ("--public-url", "https://example.org/?token=x", "only a scheme"),
    ("--forwarded-allow-ips", "10.0.0.1,proxy", "not an address"),
    ("--max-connections", "1", "--max-connections"),
])
def test_bad_options(tmp_path: Path, option: str, value: str, word: str) -> None:
    assert_one_error_line(serve(option, value, "--database-url", str(tmp_path / "g.db")), word)
