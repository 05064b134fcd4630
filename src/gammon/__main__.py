"""``python -m gammon`` and the ``gammon`` console script: the command line.

``gammon play`` on a terminal prints a line at once, before the command line and
the engine load (numpy and numba take a second or more on a busy machine), so a
person never faces a blank screen.
"""

from __future__ import annotations

import sys

#: What ``gammon play`` prints before anything loads.
STARTING = "gammon: starting..."


def main(argv: list[str] | None = None) -> None:
    """Run the ``gammon`` command line with ``argv`` (default: the process's arguments)."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["play"] and not {"--help", "-h"} & set(args) and sys.stdout.isatty():
        print(STARTING, flush=True)
    from gammon.cli import main as run

    run(args)


if __name__ == "__main__":
    main()
