"""Computer opponents by level: the one place that turns a level name into a player.

Interfaces (the terminal game, the server) ask :func:`make_computer_player` for
an opponent and never build bots themselves.  The levels are those of the neural
engine (:data:`gammon.ai.search.LEVELS`: beginner, casual, intermediate and
advanced add noise to a 0-ply choice; expert is 0-ply, world-class 1-ply,
strongest 2-ply), plus ``heuristic``, the hand-written bot of
:mod:`gammon.play.players`, kept as a fast, engine-free opponent.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from gammon.core.errors import GammonError
from gammon.play.players import HeuristicPlayer, Player

if TYPE_CHECKING:
    from gammon.ai.engine import Engine

#: The level names, weakest first (``heuristic`` is outside the ladder).
LEVELS: tuple[str, ...] = (
    "beginner", "casual", "intermediate", "advanced", "expert", "world-class", "strongest", "heuristic",
)
#: The level an opponent has when nobody chooses one.
DEFAULT_LEVEL = "expert"

#: What each level plays with, in words (shown to the person choosing).
LEVEL_DESCRIPTIONS: dict[str, str] = {
    "beginner": "neural net with heavy noise: makes mistakes on purpose",
    "casual": "neural net with strong noise",
    "intermediate": "neural net with noise",
    "advanced": "neural net with a little noise",
    "expert": "neural net, 0-ply",
    "world-class": "neural net, 1-ply search",
    "strongest": "neural net, 2-ply search (slower)",
    "heuristic": "hand-written position scores, no neural net",
}


def find_level(level: str) -> str:
    """The level called ``level`` (case-insensitive; ``strong`` means ``strongest``).

    :raises GammonError: an unknown level, listing the known ones.
    """
    key = str(level).strip().lower().replace(" ", "-").replace("_", "-")
    key = {"strong": "strongest", "worldclass": "world-class"}.get(key, key)
    if key not in LEVELS:
        raise GammonError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    return key


def make_computer_player(level: str = DEFAULT_LEVEL, seed: int | None = None,
                         pool: EnginePool | None = None) -> Player:
    """The computer opponent for ``level`` (see :data:`LEVELS`), seeded for reproducible games.

    With ``pool`` its engine is a twin of the pool's engine of that level (shared
    nets, its own noise); without, it loads an engine of its own.

    :raises GammonError: an unknown level.
    """
    key = find_level(level)
    if key == "heuristic":
        return HeuristicPlayer(seed)
    from gammon.play.ai_player import AIPlayer

    if pool is None:
        return AIPlayer(key, seed)
    return AIPlayer(key, engine=pool.engine(key).reseeded(seed))


class EnginePool:
    """One engine per level, loaded on first use and shared: what a server keeps.

    Each engine holds its nets and bear-off database (about 20 MB); a server
    that loaded one for every computer seat of every live game would grow
    with the games.  The pool loads a level once (thread-safe: concurrent first
    calls load it once) and :meth:`player` gives each seat a
    :meth:`~gammon.ai.engine.Engine.reseeded` twin, so each game keeps its own
    reproducible noise.  ``loader`` makes a level's engine (default:
    :func:`make_engine`).
    """

    def __init__(self, loader: Callable[[str], Engine] | None = None) -> None:
        self._loader = loader or make_engine
        self._lock = threading.Lock()
        self._engines: dict[str, Engine] = {}

    def engine(self, level: str) -> Engine:
        """The shared engine of ``level`` (``heuristic``: the expert one), loaded once.

        :raises GammonError: an unknown level.
        """
        key = find_level(level)
        key = "expert" if key == "heuristic" else key
        with self._lock:  # a load (tenths of a second) holds the others back: each level loads once
            found = self._engines.get(key)
            if found is None:
                found = self._engines[key] = self._loader(key)
            return found

    def player(self, level: str, seed: int | None = None) -> Player:
        """The computer opponent of ``level`` for one seat (see :func:`make_computer_player`)."""
        return make_computer_player(level, seed, self)

    def loaded(self) -> tuple[str, ...]:
        """The levels whose engines are loaded, in the order they were."""
        with self._lock:
            return tuple(self._engines)


def make_engine(level: str = DEFAULT_LEVEL, seed: int | None = None):  # type: ignore[no-untyped-def]
    """The neural engine of ``level`` (its depth and noise), for hints and analysis at that level.

    ``heuristic`` has no engine: it gets the expert one.  Pass the game (or a
    :class:`~gammon.ai.cube.CubeInfo`) as ``match`` to the engine's ``hint``,
    ``rank_plays`` and ``cube_action`` to have them valued at its score and cube.

    :raises GammonError: an unknown level.
    """
    from gammon.ai.engine import Engine

    key = find_level(level)
    return Engine("expert" if key == "heuristic" else key, seed=seed)


__all__ = [
    "DEFAULT_LEVEL", "LEVELS", "LEVEL_DESCRIPTIONS", "EnginePool", "find_level", "make_computer_player",
    "make_engine",
]
