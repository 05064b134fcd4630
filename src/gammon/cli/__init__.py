"""The ``gammon`` command line: ``gammon moves``, ``show``, ``play``, ``selfplay``, ``verify``, ..."""

from gammon.cli import ai_commands, record_commands, rollout_command, server_commands, train_command
from gammon.cli.app import app, main

record_commands.register(app)
ai_commands.register(app)
rollout_command.register(app)
train_command.register(app)
server_commands.register(app)
from gammon.cli import external_command  # noqa: E402  (own line: fewer merge conflicts)

external_command.register(app)

__all__ = ["app", "main"]
