"""The ``gammon`` command line: ``gammon moves``, ``show``, ``play``, ``selfplay``, ``verify``, ..."""

from gammon.cli import (
    ai_commands,
    analyse_command,
    external_command,
    record_commands,
    rollout_command,
    server_commands,
    train_command,
    warmup,
)
from gammon.cli.app import app, main

record_commands.register(app)
ai_commands.register(app)
rollout_command.register(app)
train_command.register(app)
server_commands.register(app)
analyse_command.register(app)
external_command.register(app)
warmup.register(app)

__all__ = ["app", "main"]
