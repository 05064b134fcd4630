"""The terminal's input and output: lines shown (:meth:`Screen.say`) and lines read (:meth:`Screen.ask`).

Both are injected, so a game runs the same behind a terminal, a pipe or a
test: ``input_fn(prompt)`` shows the prompt and returns one line (raising
:class:`EOFError` at the end of input, :class:`KeyboardInterrupt` on Ctrl-C)
and ``console`` is a :class:`rich.console.Console`, which writes no colour
codes when ``NO_COLOR`` is set or the output is not a terminal.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

from rich.console import Console
from rich.text import Text

from gammon.cli.terminal.words import answer_word
from gammon.i18n import _


def _default_input(prompt: str) -> str:
    return input(prompt)


def enable_line_editing() -> None:
    """Arrow keys and history at the prompts, on a real terminal that takes escape codes."""
    import sys

    if not sys.stdin.isatty() or os.environ.get("NO_COLOR") or os.environ.get("TERM", "dumb") == "dumb":
        return
    try:
        import readline  # noqa: F401  (importing it is what turns line editing on)
    except ImportError:
        pass


class Screen:
    """Where the game is shown and a person's lines are read."""

    def __init__(self, console: Console | None = None, input_fn: Callable[[str], str] | None = None) -> None:
        self.console = console or Console(highlight=False)
        self.input_fn = input_fn or _default_input

    def say(self, message: str, style: str = "") -> None:
        self.console.print(Text(message, style=style))

    def busy(self, message: str) -> AbstractContextManager[object]:
        """A spinner with ``message`` while the engine works, on a terminal (the strongest
        level's 2-ply plays and a cube call rolled out take seconds, and no wait is silent);
        nothing where the output is a pipe or a file."""
        if not self.console.is_terminal:
            return nullcontext()
        return self.console.status(message)

    def error(self, message: str) -> None:
        self.say(f"! {message}", "bold red")

    def ask(self, prompt: str) -> str:
        """One line from the person (EOFError and KeyboardInterrupt pass through)."""
        self.console.file.flush()
        return self.input_fn(prompt).strip()

    def yes_no(self, question: str, default: bool = False) -> bool:
        choices = _("[Y/n]") if default else _("[y/N]")
        while True:
            answer = self.ask(f"{question} {choices} > ").lower()
            if not answer:
                return default
            word = answer_word(answer)
            if word is not None:
                return word == "accept"
            self.error(_("answer y or n"))


__all__ = ["Screen", "enable_line_editing"]
