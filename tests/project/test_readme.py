"""The README tells the truth: every ``console`` example runs as shown, every Python example runs.

Each ``$ command`` line of a ```` ```console ```` block runs in a shell (in one
scratch folder for the whole README, so later examples see the files earlier
ones wrote), with ``gammon`` on the PATH.  The lines after it are what it must
print: ``...`` inside a line stands for any text, and a line that is only
``...`` for any number of lines (figures that change with the weights or with
unpredictable crypto dice).  A command whose expected output begins with
``error:`` must fail with status 2; the others must succeed.  A command ending
in ``&`` (the server) runs in the background until its block ends; its port is
replaced by a free one.
"""

from __future__ import annotations

import os
import re
import shlex
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from paths import ROOT

README = ROOT / "README.md"


@dataclass
class Example:
    command: str
    expected: list[str] = field(default_factory=list)


def console_blocks(text: str) -> list[list[Example]]:
    blocks = []
    for body in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        examples: list[Example] = []
        for line in body.splitlines():
            if line.startswith("$ "):
                examples.append(Example(line[2:]))
            elif examples:
                examples[-1].expected.append(line)
        blocks.append(examples)
    return blocks


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def pattern(expected: list[str]) -> re.Pattern[str]:
    parts = []
    for line in expected:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(r"[^\n]*?".join(re.escape(piece) for piece in line.split("...")) + r"[ \t]*\n")
    return re.compile("".join(parts))


def test_the_parser_of_examples_can_fail() -> None:
    assert pattern(["a ... c", "..."]).fullmatch("a b c\nmore\n")
    assert not pattern(["a ... c"]).fullmatch("a b d\n")


@pytest.fixture(scope="module")
def shell_env(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], Path]:
    home = tmp_path_factory.mktemp("readme")
    bin_dir = home / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "gammon"
    shim.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m gammon "$@"\n')
    shim.chmod(0o755)
    env = {
        "PATH": f"{bin_dir}:/usr/bin:/bin", "LANG": "C.UTF-8", "NO_COLOR": "1", "COLUMNS": "80",
        "HOME": str(home), "XDG_DATA_HOME": str(home / "data"), "TERM": "dumb",
    }
    for keep in ("NUMBA_CACHE_DIR", "PYTHONPATH"):
        if keep in os.environ:
            env[keep] = os.environ[keep]
    work = home / "work"
    work.mkdir()
    return env, work


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for_port(port: int, server: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert server.poll() is None, "the server ended at once"
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    pytest.fail(f"the server did not listen on port {port}")


def test_every_console_example_runs_as_shown(shell_env: tuple[dict[str, str], Path]) -> None:
    env, work = shell_env
    blocks = console_blocks(README.read_text(encoding="utf-8"))
    assert sum(len(b) for b in blocks) >= 15
    for block in blocks:
        servers: list[subprocess.Popen[str]] = []
        port: int | None = None
        try:
            for ex in block:
                command = ex.command
                if port is not None:
                    command = command.replace(":8080", f":{port}")
                if command.endswith("&"):
                    m = re.search(r"--port (\d+)", command)
                    assert m, command
                    port = _free_port()
                    command = command[:-1].replace(m.group(0), f"--port {port}")
                    servers.append(subprocess.Popen(command, shell=True, cwd=work, env=env, text=True,
                                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                                    start_new_session=True))
                    _wait_for_port(port, servers[-1])
                    continue
                proc = subprocess.run(command, shell=True, cwd=work, env=env, text=True, timeout=600,
                                      stdin=subprocess.DEVNULL, capture_output=True)
                output = proc.stdout + proc.stderr if proc.returncode else proc.stdout
                if ex.expected and ex.expected[0].startswith("error:"):
                    assert proc.returncode == 2, (ex.command, output)
                else:
                    assert proc.returncode == 0, (ex.command, output)
                if ex.expected:
                    text = output if output.endswith("\n") else output + "\n"
                    assert pattern(ex.expected).fullmatch(text), (ex.command, ex.expected, output)
        finally:
            for server in servers:
                os.killpg(server.pid, 15)
                server.wait(timeout=30)


def test_every_python_example_runs(shell_env: tuple[dict[str, str], Path]) -> None:
    env, work = shell_env
    blocks = python_blocks(README.read_text(encoding="utf-8"))
    assert len(blocks) >= 3
    for code in blocks:
        proc = subprocess.run([sys.executable, "-c", code], cwd=work, env=env, text=True, timeout=600,
                              capture_output=True)
        assert proc.returncode == 0, (code, proc.stderr)
    first = subprocess.run([sys.executable, "-c", blocks[0]], cwd=work, env=env, text=True,
                           capture_output=True, timeout=600).stdout
    assert "(167, 163) sGfwATDgc/ABMA" in first


def test_readme_points_inside_the_repository() -> None:
    text = README.read_text(encoding="utf-8")
    assert "../shared" not in text
    assert (README.parent / "docs" / "architecture.md").exists()
