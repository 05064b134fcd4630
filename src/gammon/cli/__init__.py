"""The ``gammon`` command line: ``gammon moves``, ``show``, ``play``, ``selfplay``, ``verify``, ..."""

from gammon.cli import record_commands, server_commands
from gammon.cli.app import app, main

record_commands.register(app)
server_commands.register(app)

__all__ = ["app", "main"]
