"""benchmarks/cube_errors.py refuses a missing net before any analysis starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmark_modules import load_benchmark


def test_missing_weights_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cube_errors = load_benchmark("cube_errors")
    cache = tmp_path / "decisions.json.gz"
    cache.write_bytes(b"")  # never read: the net is checked first
    missing = tmp_path / "no-such-net.npz"
    rc = cube_errors.main(["x", "--cache", str(cache), "--policies", "ahead2", "--weights", str(missing)])
    assert rc == 2
    assert f"no such weights file: {missing}" in capsys.readouterr().err
