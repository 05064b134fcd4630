"""The ``gammon`` command line: ``gammon moves``, ``show``, ``play``, ``selfplay``, ``verify``, ...

:func:`main` says at once that ``gammon play`` is starting, before the engine's
libraries load (numba and numpy take a second or more on a busy machine), and
then runs the typer app; ``app`` is built on first use.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import typer

#: What ``gammon play`` prints before anything loads.
STARTING = "gammon: starting..."


def _build() -> typer.Typer:
    from gammon.cli import (
        ai_commands,
        record_commands,
        rollout_command,
        server_commands,
        train_command,
        warmup,
    )
    from gammon.cli.app import app

    if not getattr(app, "_gammon_registered", False):
        record_commands.register(app)
        ai_commands.register(app)
        rollout_command.register(app)
        train_command.register(app)
        server_commands.register(app)
        warmup.register(app)
        app._gammon_registered = True  # type: ignore[attr-defined]
    return app


def main(argv: list[str] | None = None) -> None:
    """Run the ``gammon`` command line (the console script and ``python -m gammon``)."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["play"] and not {"--help", "-h"} & set(args) and sys.stdout.isatty():
        print(STARTING, flush=True)
    _build()
    from gammon.cli.app import main as run

    run(args)


def __getattr__(name: str) -> object:
    if name == "app":
        return _build()
    raise AttributeError(f"module 'gammon.cli' has no attribute {name!r}")


__all__ = ["app", "main"]
