"""``hint`` at the terminal: the engine's best plays, its cube advice and its take point.

:class:`Hints` loads the hint engine on first use (after the background
warm-up it needs, through ``wait``): world-class's 2-ply over few plays, strong and
still instant, or the strongest level's wider 2-ply when the computer plays at it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from gammon.cli.terminal.commands import hint_lines
from gammon.cli.terminal.screen import Screen
from gammon.cli.terminal.words import is_you
from gammon.core.match import Match
from gammon.core.plays import Play
from gammon.i18n import N_, _
from gammon.i18n.numbers import decimal, percent

if TYPE_CHECKING:
    from gammon.ai.cube import CubeDecision
    from gammon.ai.engine import Engine


#: The engine's cube advice, in the words of core's cube actions.
_ACTIONS: dict[str, str] = {
    "no double": N_("no double"), "double": N_("double"), "take": N_("take"), "pass": N_("pass"),
    "beaver": N_("beaver"), "double/take": N_("double/take"), "double/pass": N_("double/pass"),
    "too good to double": N_("too good to double"),
}


def action_words(action: object) -> str:
    """A cube action (core's :class:`~gammon.core.cube.CubeAction`) in the current language."""
    text = str(action)
    return _(_ACTIONS[text]) if text in _ACTIONS else text


class Hints:
    """The engine's advice on ``match``'s current game, said on ``screen``.

    ``level``: the computer's level (the hint engine looks as deep as it does when
    that is deeper); ``wait()``: called before each use, to wait for the warm-up.
    """

    def __init__(self, screen: Screen, match: Match, names: tuple[str, str], level: str,
                 wait: Callable[[], None]) -> None:
        self.screen = screen
        self.match = match
        self.names = names
        self.level = level
        self.wait = wait
        self._engine: Engine | None = None

    @property
    def engine(self) -> Engine:
        """The engine behind ``hint``: world-class (2-ply over few plays, still instant), or
        the strongest level when the computer plays at it."""
        self.wait()
        if self._engine is None:
            from gammon.play.levels import make_engine

            level = "strongest" if self.level == "strongest" else "world-class"
            self._engine = make_engine(level)
        return self._engine

    def _cube_decision(self) -> CubeDecision:
        """The hint engine's cube decision for the player on roll, at its level's cube depth."""
        g = self.match.game
        engine = self.engine
        with self.screen.busy(_("The engine is weighing the cube...")):
            return engine.cube_action(g.position, g)

    def _label(self) -> str:
        return _("Engine ({level}, {plies}-ply)").format(level=self.engine.level.name, plies=self.engine.plies)

    def _chance(self, name: str, win: float) -> str:
        """``You win 45.3% of games from here`` / ``Computer wins ...``."""
        if is_you(name):
            return _("{name} win {chance} of games from here").format(name=name, chance=percent(win))
        return _("{name} wins {chance} of games from here").format(name=name, chance=percent(win))

    def cube(self, actor: int) -> None:
        """Before a roll: double or not, with the three equities."""
        d = self._cube_decision()
        g = self.match.game
        win = self.engine.evaluate(g.position, cube=False).win  # the cube is decided above
        name = self.names[actor]
        self.screen.say(_("{engine}: {chance}. Cube: {action} (no double {no_double}, double/take "
                          "{double_take}, double/pass {double_pass}).").format(
            engine=self._label(), chance=self._chance(name, win), action=action_words(d.action),
            no_double=decimal(d.no_double, sign=True), double_take=decimal(d.double_take, sign=True),
            double_pass=decimal(d.double_pass, sign=True)))

    def take(self, actor: int) -> None:
        """Facing a double: the chance to win, the take point and the advice."""
        d = self._cube_decision()
        win = 1 - self.engine.evaluate(self.match.game.position, cube=False).win
        name = self.names[actor]
        self.screen.say(_("{engine}: {chance}; take point {take_point}. Advice: {advice}.").format(
            engine=self._label(), chance=self._chance(name, win), take_point=percent(d.take_point),
            advice=action_words(d.taker_action)))

    def plays(self, candidates: Sequence[Play], top: int = 5) -> None:
        """The best of ``candidates`` (the plays still open), ranked with equities."""
        g = self.match.game
        assert g.rolled is not None
        allowed = {p.position for p in candidates}
        ranked = [r for r in self.engine.rank_plays(g.position, g.rolled, g) if r.play.position in allowed]
        self.screen.say(_("Engine's best plays ({plies}-ply; equity for you at this score and cube, "
                          "then win and gammon chances):").format(plies=self.engine.plies))
        for line in hint_lines(ranked[:top]):
            self.screen.say(line)


__all__ = ["Hints"]
