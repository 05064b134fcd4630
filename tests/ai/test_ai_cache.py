"""Importing gammon.ai deletes nothing: compiled code goes to a directory named by the sources' digest."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import gammon.ai


def test_import_keeps_every_file_and_uses_a_versioned_cache(tmp_path: Path) -> None:
    pycache = Path(gammon.ai.__file__).resolve().parent / "__pycache__"
    pycache.mkdir(exist_ok=True)
    sentinel = pycache / "sentinel-from-test.nbi"
    sentinel.write_bytes(b"x")
    try:
        env = {"NUMBA_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
        code = "import gammon.ai, numba; print(numba.config.CACHE_DIR)"
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                             check=True).stdout.strip()
        assert sentinel.exists()
        assert out == str(tmp_path / f"gammon-{gammon.ai.numba_sources_key()}")
    finally:
        sentinel.unlink(missing_ok=True)


def test_the_key_follows_the_compiled_sources() -> None:
    key = gammon.ai.numba_sources_key()
    assert len(key) == 16 and key == gammon.ai.numba_sources_key()
    assert gammon.ai.numba_cache_dir("abc").name in ("abc", "gammon-abc")
