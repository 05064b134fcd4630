"""The first ``gammon play`` on a machine: no silent wait while the engine compiles.

numba keeps compiled kernels in a disk cache (``NUMBA_CACHE_DIR`` here, an
empty folder: a fresh install).  The game must put something on the screen at
once, show the board, and explain the wait before the computer's first move.
This test compiles the engine from nothing, so it takes a minute or more.
"""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

import pexpect

from gammon.__main__ import STARTING
from gammon.cli.warmup import PREPARING


def test_first_play_from_a_fresh_cache_says_what_it_waits_for(tmp_path: Path) -> None:
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "dumb", "NO_COLOR": "1",
           "NUMBA_CACHE_DIR": str(cache)}
    started = time.perf_counter()
    child = pexpect.spawn(sys.executable, ["-m", "gammon", "play", "--seed", "7"], env=env,
                          encoding="utf-8", timeout=900, dimensions=(24, 80))
    child.logfile_read = io.StringIO()
    # Something on the screen at once: the line printed before any library loads (it comes
    # before the board, below; the bound is generous, as a busy machine starts Python slowly).
    child.expect_exact(STARTING, timeout=30)
    first_text = time.perf_counter() - started
    child.expect("Position ID")
    first_board = time.perf_counter() - started
    # Seed 7: the person wins the opening roll; the first legal play is made.
    child.expect(r"\[You\] play \d-\d > ")
    child.sendline("1")
    child.expect(r"You play [^\r\n]+\.")
    # Before the computer moves, the wait is explained...
    child.expect(r"Computer is waiting: " + PREPARING.replace("(", r"\(").replace(")", r"\)")[:40])
    child.expect(r"ready \(\d+ s\)")
    # ...and then its move is reported.
    child.expect(r"Computer plays [^\r\n]+\.")
    first_move = time.perf_counter() - started
    child.sendline("quit")
    child.expect(r"\[y/N\] > ")
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    log = child.logfile_read.getvalue()
    assert log.index(STARTING) < log.index("Position ID") < log.index("Computer is waiting")
    assert any(cache.rglob("*.nbi")), "the compiled kernels were written to NUMBA_CACHE_DIR"
    print(f"\nfirst text {first_text:.2f} s, first board {first_board:.1f} s, "
          f"first computer move {first_move:.1f} s")
