"""The ``gammon`` command line: ``gammon moves``, ``show``, ``play``, ``selfplay``, ``verify``, ..."""

import gammon.cli.analyse_command as analyse_command
from gammon.cli import ai_commands, record_commands, rollout_command, server_commands, train_command
from gammon.cli.app import app, main

record_commands.register(app)
ai_commands.register(app)
rollout_command.register(app)
train_command.register(app)
server_commands.register(app)
analyse_command.register(app)

__all__ = ["app", "main"]
