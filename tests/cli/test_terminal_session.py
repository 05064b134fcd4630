"""The terminal drives its match through the one :class:`~gammon.play.session.Session`.

Every action of a terminal match reaches the session's ``submit`` (the
terminal has no loop or action check of its own), and a person's answer that
core refuses is said at the prompt, which asks again.
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from gammon.cli.terminal.loop import TerminalGame
from gammon.cli.terminal.settings import PlaySettings
from gammon.core.actions import Action
from gammon.core.dice import ScriptedDice
from gammon.core.events import Event
from gammon.play.session import Session


def _run(settings: PlaySettings, lines: list[str], dice: ScriptedDice) -> tuple[TerminalGame, int, str]:
    out = io.StringIO()
    feed = iter(lines)

    def answer(prompt: str) -> str:
        out.write(prompt)
        try:
            line = next(feed)
        except StopIteration:
            raise EOFError from None
        out.write(line + "\n")
        return line

    game = TerminalGame(settings, input_fn=answer, console=Console(file=out, width=1000, highlight=False),
                        dice=dice, pace=0.0)
    return game, game.run(), out.getvalue()


def test_every_action_of_a_terminal_match_goes_through_the_session(monkeypatch: pytest.MonkeyPatch) -> None:
    submitted: list[Action] = []
    real = Session.submit

    def spy(self: Session, action: Action) -> list[Event]:
        submitted.append(action)
        return real(self, action)

    monkeypatch.setattr(Session, "submit", spy)
    settings = PlaySettings(seed=2, match_length=1, level="heuristic")
    game, code, text = _run(settings, ["1", "drop", "n"] * 200, ScriptedDice([(3, 1)] + [(6, 5), (4, 2)] * 200))
    assert code == 0 and game.match.is_over
    # The person's actions and the computer's, and nothing else (the record adds the dice to each roll).
    assert [(type(a), a.player) for a in submitted] == [(type(a), a.player) for a in game.match.actions]
    assert len(submitted) > 10


def test_a_double_outside_1_to_6_is_asked_again() -> None:
    # Acey-Deucey between two people: player 1 starts, rolls 1-2, plays it, then names a double:
    # "9" is refused (it used to end the game with "the game cannot go on"), 3 is taken.
    settings = PlaySettings(seed=1, variant="acey-deucey", opponent="human", match_length=1)
    dice = ScriptedDice([(2, 1), (1, 2)] + [(5, 3)] * 50)
    _, code, text = _run(settings, ["1", "9", "3", "1"], dice)
    assert "name the double to play (1-6) > 9" in text
    assert "the double must be a number from 1 to 6, not 9" in text
    assert "the game cannot go on" not in text
    assert "Player 1 plays double 3s." in text and code == 0
