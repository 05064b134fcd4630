"""Computer opponents by level: one small function picks the bot for a level name.

Interfaces (the terminal game, later the web page) ask :func:`make_computer_player`
for an opponent and never build bots themselves, so the neural engine of
:mod:`gammon.ai` can replace the heuristic here, in one place, when it is ready.

For now every level is built on :class:`~gammon.play.players.HeuristicPlayer`:

* ``beginner`` adds random noise to the heuristic's score of each play, so it
  often picks a plausible but second-rate play (and sometimes a clear error);
* ``intermediate`` and ``strong`` are the heuristic itself (the strongest bot
  available until the neural engine is wired in).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from gammon.core.errors import GammonError
from gammon.core.plays import Play
from gammon.play.players import HeuristicPlayer, Player, score_positions

if TYPE_CHECKING:
    from gammon.core.game import Game

#: The level names, weakest first.
LEVELS: tuple[str, ...] = ("beginner", "intermediate", "strong")

#: What each level plays with, in words (shown to the person choosing).
LEVEL_DESCRIPTIONS: dict[str, str] = {
    "beginner": "heuristic bot with random noise: makes mistakes on purpose",
    "intermediate": "heuristic bot (hand-written position scores)",
    "strong": "heuristic bot (the strongest until the neural engine is wired in)",
}


class NoisyHeuristicPlayer(HeuristicPlayer):
    """A :class:`HeuristicPlayer` that adds Gaussian noise to each play's score.

    ``noise`` is the standard deviation, in the heuristic's score units (the
    gap between a good and a poor play is typically 0.5 to 2).  Cube and
    resignation decisions are the heuristic's.
    """

    def __init__(self, seed: int | None = None, *, noise: float = 1.0) -> None:
        super().__init__(seed)
        self.noise = noise
        self._noise_rng = np.random.default_rng(random.Random(seed).getrandbits(64))

    def choose_play(self, game: Game, plays: Sequence[Play]) -> Play:
        if len(plays) == 1:
            return plays[0]
        positions_of = getattr(plays, "positions", None)
        positions = positions_of() if positions_of is not None else [p.position for p in plays]
        scores = score_positions(positions) + self._noise_rng.normal(0.0, self.noise, len(positions))
        return plays[int(np.argmax(scores))]

    def __repr__(self) -> str:
        return f"NoisyHeuristicPlayer(noise={self.noise})"


def find_level(level: str) -> str:
    """The level called ``level`` (case-insensitive).

    :raises GammonError: an unknown level, listing the known ones.
    """
    key = str(level).strip().lower()
    if key not in LEVELS:
        raise GammonError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    return key


def make_computer_player(level: str = "intermediate", seed: int | None = None) -> Player:
    """The computer opponent for ``level`` (see :data:`LEVELS`), seeded for reproducible games.

    :raises GammonError: an unknown level.
    """
    key = find_level(level)
    if key == "beginner":
        return NoisyHeuristicPlayer(seed, noise=1.2)
    return HeuristicPlayer(seed)


__all__ = ["LEVELS", "LEVEL_DESCRIPTIONS", "NoisyHeuristicPlayer", "find_level", "make_computer_player"]
