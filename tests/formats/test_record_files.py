"""One registry of record formats (:mod:`gammon.formats.record_files`), with the same caps for every reader.

The analysis used to read records on its own: ``gammon analyse`` and ``play
--replay`` read a link to ``/dev/zero`` until memory ran out and hung on a
FIFO, where ``convert`` refused both.  Each command that reads a record is run
here as a real process on those files, under a memory limit and a time-out,
so a reader that slips past the registry fails instead of hanging.
"""

from __future__ import annotations

import importlib.util
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gammon.cli import app
from gammon.core.errors import GammonError
from gammon.formats import record_files
from gammon.formats.record_files import (
    FORMATS,
    MAX_NESTING,
    check_target,
    load_record,
    parse_record,
    render_record,
)
from gammon.play.selfplay import run_selfplay


def _limit_memory() -> None:  # pragma: no cover - runs in the child
    limit = 3 * 1024**3
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _one_error_line(code: int, stderr: str) -> None:
    assert code == 2, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    assert "Traceback" not in stderr


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("records")
    zero = d / "zero.json"
    zero.symlink_to("/dev/zero")
    fifo = d / "fifo.json"
    os.mkfifo(fifo)
    fifo_mat = d / "fifo.mat"
    os.mkfifo(fifo_mat)
    return {"zero": zero, "fifo": fifo, "fifo_mat": fifo_mat, "dir": d}


READERS = [
    ["analyse", "--plies", "0", "{}"],
    ["play", "--replay", "{}", "--level", "heuristic"],
    ["play", "--resume", "{}"],
    ["convert", "{}", "{dir}/out.sgf"],
    ["verify", "{}"],
]


#: Every reader against every hostile file, but ``verify`` on a ``.mat`` FIFO: verify reads JSON only.
CASES = [(command, which) for command in READERS for which in ("zero", "fifo", "fifo_mat")
         if not (which == "fifo_mat" and command[0] == "verify")]


@pytest.mark.parametrize(("command", "which"), CASES,
                         ids=lambda c: " ".join(c[:2]) if isinstance(c, list) else c)
def test_every_reader_refuses_dev_zero_and_a_fifo_at_once(
    command: list[str], which: str, hostile: dict[str, Path]
) -> None:
    argv = [a.format(hostile[which], dir=hostile["dir"]) for a in command]
    proc = subprocess.run(
        [sys.executable, "-m", "gammon", *argv], capture_output=True, text=True, timeout=120,
        preexec_fn=_limit_memory, env={**os.environ, "NO_COLOR": "1"}, stdin=subprocess.DEVNULL,
    )
    _one_error_line(proc.returncode, proc.stderr)
    assert "not a regular file" in proc.stderr


def test_the_analysis_and_the_commands_share_one_reader(hostile: dict[str, Path]) -> None:
    from gammon.analysis.analyse import analyse_file

    assert importlib.util.find_spec("gammon.analysis.records") is None  # no second name for the reader
    assert set(FORMATS) == {".mat", ".sgf", ".json"}
    with pytest.raises(GammonError, match="not a regular file"):
        analyse_file(str(hostile["fifo"]))


def _deep_json(depth: int) -> str:
    return '{"format": "gammon.match", "version": 1, "info": ' + "[" * depth + "]" * depth + "}"


@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 100_000])
def test_deeply_nested_records_are_refused_before_parsing(depth: int, tmp_path: Path) -> None:
    with pytest.raises(GammonError, match="nested too deeply"):
        parse_record(_deep_json(depth), ".json")
    sgf = "(;FF[4]GM[6]" + "(;C[x]" * depth + ")" * depth + ")"
    with pytest.raises(GammonError, match="nested too deeply"):
        parse_record(sgf, ".sgf")
    deep = tmp_path / "deep.json"
    deep.write_text(_deep_json(depth))
    for args in (["analyse", "--plies", "0", str(deep)], ["play", "--replay", str(deep)]):
        result = CliRunner().invoke(app, args)
        _one_error_line(result.exit_code, result.stderr)
        assert "nested too deeply" in result.stderr


def test_brackets_inside_strings_and_values_are_not_nesting() -> None:
    match = run_selfplay(1, 3, match_length=1)
    names = ("[[[[" * 40, "((((" * 40)
    for suffix in (".json", ".sgf"):
        text = render_record(match, suffix, names)
        assert parse_record(text, suffix).names == names


def test_oversized_records_and_long_matches_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = run_selfplay(1, 3, match_length=1)
    ok = tmp_path / "m.json"
    ok.write_text(render_record(match, ".json", ("a", "b")))
    assert load_record(ok).replay().score == match.score
    monkeypatch.setattr(record_files, "MAX_RECORD_BYTES", ok.stat().st_size - 1)
    with pytest.raises(GammonError, match="too large"):
        load_record(ok)
    monkeypatch.undo()
    doc = json.loads(ok.read_text())
    doc["rules"]["match_length"] = 65
    doc["games"], doc["score"] = [], None
    with pytest.raises(GammonError, match="64 points"):
        parse_record(json.dumps(doc), ".json")


def test_a_target_in_a_folder_that_takes_no_file_is_refused(tmp_path: Path) -> None:
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    for target in (a_file / "m.json", Path("/proc/gammon-test.json"), tmp_path):
        with pytest.raises(GammonError):
            check_target(target, replace=True)
    assert check_target(tmp_path / "new.json", replace=False) == tmp_path / "new.json"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".gammon-probe")]
