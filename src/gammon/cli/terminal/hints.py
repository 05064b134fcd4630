"""``hint`` at the terminal: the engine's best plays, its cube advice and its take point.

:class:`Hints` loads the hint engine on first use (after the background
warm-up it needs, through ``wait``): 1-ply, strong and still instant, or
the computer's own depth when that looks deeper (strongest: 2-ply).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from gammon.cli.terminal.commands import hint_lines
from gammon.cli.terminal.narration import you
from gammon.cli.terminal.screen import Screen
from gammon.core.match import Match
from gammon.core.plays import Play

if TYPE_CHECKING:
    from gammon.ai.cube import CubeDecision
    from gammon.ai.engine import Engine


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
        """The engine behind ``hint``: 1-ply (strong and still instant), or the computer's
        own depth when it looks deeper (strongest: 2-ply)."""
        self.wait()
        if self._engine is None:
            from gammon.play.levels import make_engine

            level = "strongest" if self.level == "strongest" else "world-class"
            self._engine = make_engine(level)
        return self._engine

    def _cube_decision(self) -> CubeDecision:
        """The hint engine's cube decision for the player on roll, at its level's cube depth."""
        g = self.match.game
        return self.engine.cube_action(g.position, g)

    def _label(self) -> str:
        return f"Engine ({self.engine.level.name}, {self.engine.plies}-ply)"

    def _wins(self, name: str) -> str:
        return "win" if you(name) else "wins"

    def cube(self, actor: int) -> None:
        """Before a roll: double or not, with the three equities."""
        d = self._cube_decision()
        g = self.match.game
        win = self.engine.evaluate(g.position, cube=False).win  # the cube is decided above
        name = self.names[actor]
        self.screen.say(f"{self._label()}: {name} {self._wins(name)} {win:.1%} of games from here. "
                        f"Cube: {d.action} (no double {d.no_double:+.3f}, double/take {d.double_take:+.3f}, "
                        f"double/pass {d.double_pass:+.3f}).")

    def take(self, actor: int) -> None:
        """Facing a double: the chance to win, the take point and the advice."""
        d = self._cube_decision()
        win = 1 - self.engine.evaluate(self.match.game.position, cube=False).win
        name = self.names[actor]
        self.screen.say(f"{self._label()}: {name} {self._wins(name)} {win:.1%} of games "
                        f"from here; take point {d.take_point:.1%}. Advice: {d.taker_action}.")

    def plays(self, candidates: Sequence[Play], top: int = 5) -> None:
        """The best of ``candidates`` (the plays still open), ranked with equities."""
        g = self.match.game
        assert g.rolled is not None
        allowed = {p.position for p in candidates}
        ranked = [r for r in self.engine.rank_plays(g.position, g.rolled, g) if r.play.position in allowed]
        self.screen.say(f"Engine's best plays ({self.engine.plies}-ply; equity for you at this score and cube, "
                        "then win and gammon chances):")
        for line in hint_lines(ranked[:top]):
            self.screen.say(line)


__all__ = ["Hints"]
