"""The computer as a player on the server: levels and the factory the server calls.

:func:`make_computer_player` is the one hook that turns a level name into a
:class:`~gammon.play.players.Player`.  Until the neural engine of
:mod:`gammon.ai` is wired in, every level runs on the fast heuristic bot;
``beginner`` blunders on purpose (a random legal play a third of the time).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from gammon.core.errors import GammonError
from gammon.core.plays import Play
from gammon.play.players import HeuristicPlayer, Player

if TYPE_CHECKING:
    from gammon.core.game import Game

#: The levels a client may choose, weakest first.
COMPUTER_LEVELS: tuple[str, ...] = ("beginner", "intermediate", "expert")
DEFAULT_LEVEL = "intermediate"


class BlunderingPlayer(HeuristicPlayer):
    """The heuristic bot that plays a random legal play with probability ``blunder_rate``."""

    def __init__(self, seed: int | None = None, blunder_rate: float = 1 / 3) -> None:
        super().__init__(seed)
        self.blunder_rate = blunder_rate
        self._blunders = random.Random(None if seed is None else seed + 1)

    def choose_play(self, game: Game, plays: Sequence[Play]) -> Play:
        if len(plays) > 1 and self._blunders.random() < self.blunder_rate:
            return plays[self._blunders.randrange(len(plays))]
        return super().choose_play(game, plays)


def check_level(level: str) -> str:
    """``level`` if it names a level, else :class:`GammonError` listing them."""
    if level not in COMPUTER_LEVELS:
        raise GammonError(f"unknown computer level {level!r}: choose one of {', '.join(COMPUTER_LEVELS)}")
    return level


def make_computer_player(level: str, seed: int | None = None) -> Player:
    """The computer player for ``level`` (see :data:`COMPUTER_LEVELS`).

    :raises GammonError: an unknown level.
    """
    check_level(level)
    if level == "beginner":
        return BlunderingPlayer(seed)
    # "intermediate" and "expert" share the heuristic bot until gammon.ai provides a stronger one.
    return HeuristicPlayer(seed)


__all__ = ["COMPUTER_LEVELS", "DEFAULT_LEVEL", "BlunderingPlayer", "check_level", "make_computer_player"]
