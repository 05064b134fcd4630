"""``python -m gammon`` and the ``gammon`` console script: the command line.

``gammon play`` on a terminal prints a line at once, before the command line and
the engine load (numpy and numba take a second or more on a busy machine), so a
person never faces a blank screen; in the game's language (``--lang``, else the
locale), which :mod:`gammon.i18n` finds with the standard library alone.

The console script (and ``python -m gammon``) leaves through :func:`console`: once the
command has finished, its output is flushed and the exit handlers have run, the process ends
without the interpreter's teardown, which frees the engine's compiled code object by object
(about 0.14 s on this project's 2-core machine, a tenth of a 1,296-trial rollout).
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from typing import NoReturn

from gammon.i18n import N_

#: What ``gammon play`` prints before anything loads.
STARTING = N_("gammon: starting...")


def _starting(args: list[str]) -> str:
    """:data:`STARTING` in the language ``gammon play`` will speak."""
    import os

    from gammon.i18n import _, choose_language, use_language

    lang = None
    for i, arg in enumerate(args):
        if arg == "--lang" and i + 1 < len(args):
            lang = args[i + 1]
        elif arg.startswith("--lang="):
            lang = arg.partition("=")[2]
    with use_language(choose_language(lang, os.environ)):
        return _(STARTING)


def main(argv: list[str] | None = None) -> None:
    """Run the ``gammon`` command line with ``argv`` (default: the process's arguments)."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["play"] and not {"--help", "-h"} & set(args) and sys.stdout.isatty():
        print(_starting(args), flush=True)
    from gammon.cli import main as run

    run(args)


def _exit_status(code: object) -> int:
    """The process's exit status for ``SystemExit(code)``, as the interpreter makes it: None is
    0, an integer itself, anything else is printed on stderr and gives 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _flush() -> bool:
    """Flush stdout and stderr; False when either cannot take it (a closed pipe)."""
    ok = True
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            ok = False
    return ok


def console(argv: list[str] | None = None) -> NoReturn:
    """The ``gammon`` console script: :func:`main`, then a quick exit.

    The command's work is done and its output flushed, and the exit handlers (``atexit``:
    temporary files, worker pools, logging) run as they would; only the interpreter's teardown
    is skipped. Where a thread that is not a daemon still runs (a server's, say), or the output
    could not be flushed, the process exits the usual way, which waits for such threads and
    reports the broken pipe.
    """
    try:
        main(argv)
        code: object = 0
    except SystemExit as exc:
        code = exc.code
    status = _exit_status(code)
    others = [t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon]
    if others or not _flush():
        sys.exit(status)
    atexit._run_exitfuncs()  # noqa: SLF001  (the handlers a normal exit runs; then no teardown)
    _flush()
    os._exit(status)


if __name__ == "__main__":
    console()
