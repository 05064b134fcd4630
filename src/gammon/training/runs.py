"""How a training run was started: the command recorded with the weights it made.

Training (:mod:`gammon.training.train`), refinement (:mod:`gammon.training.refine`,
:mod:`gammon.training.refine_fit`) and the lopsided refinement
(:mod:`gammon.training.lopsided`) store the command line in their metadata so that
a run can be made again.  It is written as ``gammon train <stage> ARGS`` with
every argument that names a path inside the
repository made relative to the repository's root, so the record does not depend
on the checkout, worktree or directory the run was started from.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

#: The repository this package is a checkout of (its ``src/gammon/training`` holds this file);
#: for an installed package, None (paths are then kept relative to the working directory).
_HERE = Path(__file__).resolve().parents[3]
REPOSITORY: Path | None = _HERE if (_HERE / "pyproject.toml").is_file() else None


def relative_path(arg: str, cwd: Path, root: Path) -> str:
    """``arg`` relative to ``root`` when it names a path inside it, else unchanged.

    An absolute path counts, and so does a relative one (taken from ``cwd``) that
    exists or has a directory part; anything else (numbers, names) is left alone.
    """
    if not arg:
        return arg
    p = Path(arg)
    full = p if p.is_absolute() else cwd / p
    if not p.is_absolute() and os.sep not in arg and "/" not in arg and not full.exists():
        return arg
    try:
        rel = Path(os.path.normpath(full)).relative_to(root)
    except ValueError:
        return arg
    return rel.as_posix() or "."


def run_command(stage: str, argv: Sequence[str] | None = None, cwd: Path | None = None,
                root: Path | None = None) -> str:
    """The command line that reruns ``gammon train <stage>`` with ``argv`` from the
    repository's root (default: this process's arguments after ``gammon train <stage>``).

    >>> run_command("td", ["--games", "100", "--out", "training/td1"], Path("/repo"), Path("/repo"))
    'gammon train td --games 100 --out training/td1'
    """
    args = _own_arguments(stage, sys.argv[1:]) if argv is None else list(argv)
    here = Path.cwd() if cwd is None else cwd
    base = root if root is not None else (REPOSITORY or here)
    out: list[str] = []
    for a in args:
        if a.startswith("-") and "=" in a:
            key, value = a.split("=", 1)
            out.append(f"{key}={relative_path(value, here, base)}")
        else:
            out.append(relative_path(a, here, base))
    return shlex.join(["gammon", "train", stage, *out])


def _own_arguments(stage: str, argv: list[str]) -> list[str]:
    """``argv`` without the leading ``train`` and ``stage`` words of ``gammon train <stage> ...``."""
    if argv[:1] == ["train"]:
        argv = argv[1:]
        if argv[:1] == [stage]:
            argv = argv[1:]
    return argv
