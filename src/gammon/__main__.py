"""``python -m gammon`` and the ``gammon`` console script: the command line.

``gammon play`` on a terminal prints a line at once, before the command line and
the engine load (numpy and numba take a second or more on a busy machine), so a
person never faces a blank screen; in the game's language (``--lang``, else the
locale), which :mod:`gammon.i18n` finds with the standard library alone.
"""

from __future__ import annotations

import sys

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


if __name__ == "__main__":
    main()
