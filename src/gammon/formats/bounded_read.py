"""Reading a file of bounded size safely: the one reader behind every file gammon reads.

Match records (:mod:`gammon.formats.record_files`), match equity tables
(:mod:`gammon.formats.met_file`, :mod:`gammon.formats.met_rollout_file`) and the
command line's other files (:func:`gammon.cli.limits.read_bytes`) are read here,
so each refuses the same hostile files in the same words.  It imports nothing of
the rules, so the engine's commands can read a table without loading the game loop.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from gammon.core.errors import GammonError

__all__ = ["read_bounded"]


def _refuse_special(mode: int, p: Path, what: str) -> None:
    if stat.S_ISDIR(mode):
        raise GammonError(f"{what} {p} is a folder, not a file")
    if not stat.S_ISREG(mode):
        raise GammonError(f"{what} {p} is not a regular file (a device or pipe?)")


def read_bounded(path: Path | str, limit: int, what: str) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    Folders, devices and pipes (or links to them) are refused before anything
    is read; the file is opened without blocking and checked again once open,
    so a FIFO swapped in meanwhile cannot hang the reader; at most
    ``limit + 1`` bytes are ever read, so a file that grows cannot exhaust memory.

    :raises GammonError: a missing, unreadable, special or oversized file.
    """
    p = Path(path)
    try:
        _refuse_special(p.stat().st_mode, p, what)
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise GammonError(f"cannot read {what} {p}: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        _refuse_special(st.st_mode, p, what)
        if st.st_size > limit:
            raise GammonError(f"{what} {p} is too large ({st.st_size:,} bytes; at most {limit:,})")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise GammonError(f"cannot read {what} {p}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > limit:
        raise GammonError(f"{what} {p} is too large (more than {limit:,} bytes)")
    return b"".join(chunks)
