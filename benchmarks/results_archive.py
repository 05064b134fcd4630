#!/usr/bin/env python3
"""A benchmark run's raw outputs packed into one archive beside its summary, read by their old paths.

A run that writes a folder of raw outputs (``match_pr.py``'s and ``vs_gnubg.py``'s matches,
their GNU Backgammon analyses) is kept in the repository as ``benchmarks/results/<run>.tar.bz2``
beside its summary ``<run>.txt``, not as hundreds of files: the folder itself is ignored by git.
The archive holds ``<run>/<file>`` for every file of the folder (bzip2 came out smallest of
bzip2, xz and zip on these text files: 1.4 MB for all runs against 1.8 MB and 4 MB).

Readers name a file by its old path, ``benchmarks/results/<run>/<file>``: :func:`read_bytes`,
:func:`glob` and :func:`unpacked` read it from the folder when it is there and from the archive
when it is not.  A folder beside its archive (a run resumed after :func:`unpack`, or new files)
is read over the archive: its files replace the packed ones of the same name.

    python benchmarks/results_archive.py pack benchmarks/results/match_pr_expert_cube2
    python benchmarks/results_archive.py unpack benchmarks/results/match_pr_expert_cube2
    python benchmarks/results_archive.py list benchmarks/results/match_pr_expert_cube2

``pack`` writes the same bytes for the same files (sorted names, no dates or owners), checks
the archive against the folder and then removes the folder.
"""

from __future__ import annotations

import argparse
import bz2
import fnmatch
import io
import shutil
import sys
import tarfile
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

SUFFIX = ".tar.bz2"
#: The most one archive may unpack to: raw outputs of a run are a few MB at most.
MAX_UNPACKED = 256 * 1024 * 1024


class ArchiveError(Exception):
    """An archive that is not what :func:`pack` writes (a member outside its folder, a link)."""


def archive_of(folder: Path) -> Path:
    """Where ``folder``'s packed files are: ``<folder>.tar.bz2`` beside it."""
    return folder.with_name(folder.name + SUFFIX)


@lru_cache(maxsize=8)
def _load(archive: Path, stamp: tuple[int, int]) -> dict[str, bytes]:
    """Every member of ``archive`` (cached while its size and time stay ``stamp``): file name -> bytes."""
    del stamp  # part of the cache key only
    out: dict[str, bytes] = {}
    total = 0
    with tarfile.open(archive, "r:bz2") as tar:
        for info in tar:
            parts = PurePosixPath(info.name).parts
            if not info.isfile() or len(parts) != 2 or parts[0] != archive.name[: -len(SUFFIX)] \
                    or parts[1] in (".", ".."):
                raise ArchiveError(f"{archive}: {info.name!r} is not a file of the run's folder")
            total += info.size
            if total > MAX_UNPACKED:
                raise ArchiveError(f"{archive}: unpacks to more than {MAX_UNPACKED} bytes")
            f = tar.extractfile(info)
            assert f is not None
            out[parts[1]] = f.read()
    return out


def _members(folder: Path) -> dict[str, bytes]:
    archive = archive_of(folder)
    if not archive.is_file():
        return {}
    st = archive.stat()
    return _load(archive.resolve(), (st.st_size, st.st_mtime_ns))


@dataclass(frozen=True)
class Member:
    """One file of a run, in its folder or packed: read like a :class:`~pathlib.Path`."""

    path: Path  # its old path, ``<folder>/<name>``
    packed: bytes | None = None  # the bytes from the archive; None: read ``path``

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def stem(self) -> str:
        return self.path.stem

    @property
    def suffix(self) -> str:
        return self.path.suffix

    @property
    def parent(self) -> Path:
        return self.path.parent

    def read_bytes(self) -> bytes:
        return self.path.read_bytes() if self.packed is None else self.packed

    def read_text(self, encoding: str = "utf-8") -> str:
        return self.read_bytes().decode(encoding)


def glob(folder: Path, pattern: str = "*") -> list[Member]:
    """The files of the run ``folder`` whose names match ``pattern``, sorted by name: the
    archive's, with those of the folder itself over them."""
    found = {name: Member(folder / name, data) for name, data in _members(folder).items()
             if fnmatch.fnmatchcase(name, pattern)}
    if folder.is_dir():
        found.update((p.name, Member(p)) for p in folder.glob(pattern) if p.is_file())
    return [found[name] for name in sorted(found)]


def exists(path: Path) -> bool:
    """Whether ``path`` is a file, or a file of a packed run (``<run>/<file>``)."""
    return path.is_file() or (path.name in _members(path.parent))


def is_run(path: Path) -> bool:
    """Whether ``path`` is a run's folder, here or packed."""
    return path.is_dir() or archive_of(path).is_file()


def read_bytes(path: Path) -> bytes:
    """The bytes of ``path``, from the file or, when it is not there, from its run's archive."""
    if path.is_file():
        return path.read_bytes()
    packed = _members(path.parent)
    if path.name not in packed:
        raise FileNotFoundError(f"no file {path} (nor in {archive_of(path.parent)})")
    return packed[path.name]


def read_text(path: Path, encoding: str = "utf-8") -> str:
    return read_bytes(path).decode(encoding)


@contextmanager
def unpacked(paths: Iterable[Path]) -> Iterator[list[Path]]:
    """``paths`` with each packed run copied out into a temporary folder of the same name (its
    archive's files, with those of its folder over them), for programs that need real files
    (GNU Backgammon reads a ``.mat`` by its path); the copies are removed on exit."""
    paths = list(paths)
    packed = [p for p in paths if archive_of(p).is_file()]
    if not packed:
        yield paths
        return
    with tempfile.TemporaryDirectory(prefix="results_archive_") as tmp:
        swap: dict[Path, Path] = {}
        for i, run in enumerate(packed):
            copy = swap[run] = Path(tmp) / str(i) / run.name
            copy.mkdir(parents=True)
            for m in glob(run):
                (copy / m.name).write_bytes(m.read_bytes())
        yield [swap.get(p, p) for p in paths]


def pack_bytes(files: dict[str, bytes], run: str) -> bytes:
    """The archive of ``files`` (name -> bytes) as the folder ``run``: the same bytes for the same files."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name in sorted(files):
            info = tarfile.TarInfo(f"{run}/{name}")
            info.size, info.mode, info.mtime = len(files[name]), 0o644, 0
            tar.addfile(info, io.BytesIO(files[name]))
    return bz2.compress(raw.getvalue(), compresslevel=9)


def pack(folder: Path) -> Path:
    """Pack ``folder`` (over its archive, if there is one) into its archive, check it and remove
    the folder.  Only plain files directly in the folder are packed; anything else is refused."""
    if not folder.is_dir():
        raise ArchiveError(f"{folder} is not a folder")
    odd = [p.name for p in folder.iterdir() if not p.is_file() or p.is_symlink()]
    if odd:
        raise ArchiveError(f"{folder} holds more than plain files: {', '.join(sorted(odd))}")
    files = {m.name: m.read_bytes() for m in glob(folder)}
    archive = archive_of(folder)
    part = archive.with_name(archive.name + ".part")
    part.write_bytes(pack_bytes(files, folder.name))
    part.replace(archive)
    if _load.__wrapped__(archive, (0, 0)) != files:
        raise ArchiveError(f"{archive} does not read back as {folder}")  # pragma: no cover
    shutil.rmtree(folder)
    return archive


def unpack(folder: Path, into: Path | None = None) -> Path:
    """Write the packed files of the run ``folder`` into ``into`` (default: the folder itself),
    keeping files already there; returns the folder written."""
    into = folder if into is None else into
    packed = _members(folder)  # read (and checked) before anything is written
    into.mkdir(parents=True, exist_ok=True)
    for name, data in packed.items():
        if not (into / name).exists():
            (into / name).write_bytes(data)
    return into


def _run_folder(arg: str) -> Path:
    """A run named by its folder or by its archive."""
    return Path(arg[: -len(SUFFIX)] if arg.endswith(SUFFIX) else arg)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("action", choices=("pack", "unpack", "list"))
    ap.add_argument("runs", nargs="+", type=_run_folder, metavar="RUN", help="a run's folder (or its archive)")
    args = ap.parse_args(argv)
    try:
        for run in args.runs:
            if args.action == "pack":
                archive = pack(run)
                print(f"{run} -> {archive} ({archive.stat().st_size} bytes)")
            elif not archive_of(run).is_file():
                print(f"error: no archive {archive_of(run)}", file=sys.stderr)
                return 2
            elif args.action == "unpack":
                print(f"{archive_of(run)} -> {unpack(run)}")
            else:
                for m in glob(run):
                    print(f"{len(m.read_bytes()):>9} {m.path}")
    except (ArchiveError, OSError, tarfile.TarError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
