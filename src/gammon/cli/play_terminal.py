"""``gammon play``: the entry point of the terminal game (:mod:`gammon.cli.terminal`).

``gammon play`` calls :func:`run_terminal_game` here with the
:class:`PlaySettings` its options name; the game itself is the package
:mod:`gammon.cli.terminal` (the loop over the session, prompts, narration,
commands), whose public names this module gathers.
"""

from __future__ import annotations

from gammon.cli.terminal.commands import (
    COMMANDS,
    HELP,
    Command,
    CommandError,
    hint_lines,
    parse_command,
    renumber_play,
    resign_kind,
    why_not,
)
from gammon.cli.terminal.loop import EXIT_INTERRUPTED, TerminalGame, run_terminal_game
from gammon.cli.terminal.settings import PLAY_DICE, PlaySettings

__all__ = [
    "COMMANDS",
    "EXIT_INTERRUPTED",
    "HELP",
    "PLAY_DICE",
    "Command",
    "CommandError",
    "PlaySettings",
    "TerminalGame",
    "hint_lines",
    "parse_command",
    "renumber_play",
    "resign_kind",
    "run_terminal_game",
    "why_not",
]
