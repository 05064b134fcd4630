"""Computer opponents by level: the one registry of levels, and the one place that turns a name into a player.

Interfaces (the terminal game, the server, the page through ``/api/info``)
take the level names, their words and :func:`make_computer_player` from here
and never build bots themselves.  The levels are those of the neural engine
(:data:`gammon.ai.search.LEVELS`, which holds each one's depth, noise and
description: beginner, casual, intermediate and advanced add noise to a 0-ply
choice; expert is 0-ply, world-class and strongest 2-ply, world-class over fewer
plays), plus
``heuristic``, the hand-written bot of :mod:`gammon.play.players`, kept as a
fast, engine-free opponent.  :data:`COMPUTER_LEVELS` adds to each the short
title a person chooses from.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gammon.ai.search import LEVELS as ENGINE_LEVELS
from gammon.ai.search import Level
from gammon.core.errors import GammonError
from gammon.i18n import N_
from gammon.play.players import HeuristicPlayer, Player

if TYPE_CHECKING:
    from gammon.ai.engine import Engine


@dataclass(frozen=True, slots=True)
class ComputerLevel:
    """A level a person can choose: its name, its words, and the engine level behind it.

    ``title`` is the short label of a menu, ``description`` says what the level
    plays with; ``engine`` is None for ``heuristic`` (no neural engine).
    """

    name: str
    title: str
    description: str
    engine: Level | None

    @property
    def plies(self) -> int:
        """The depth of the level's play and analysis (0 for ``heuristic``)."""
        return 0 if self.engine is None else self.engine.plies


#: The short label of each engine level, as the page and menus show it (English here: the page's
#: server translates it, with the description, for the reader).
_TITLES: dict[str, str] = {
    "beginner": N_("Beginner — makes mistakes on purpose"),
    "casual": N_("Casual"),
    "intermediate": N_("Intermediate"),
    "advanced": N_("Advanced"),
    "expert": N_("Expert — the neural nets"),
    "world-class": N_("World class — two rolls ahead, fewer plays"),
    "strongest": N_("Strongest — two rolls ahead (slower)"),
}
assert set(_TITLES) == set(ENGINE_LEVELS), "every engine level needs a title"

#: Every level, weakest first; ``heuristic`` (outside the ladder) last.
COMPUTER_LEVELS: dict[str, ComputerLevel] = {
    **{name: ComputerLevel(name, _TITLES[name], lv.description, lv) for name, lv in ENGINE_LEVELS.items()},
    "heuristic": ComputerLevel("heuristic", N_("Simple bot (no neural nets)"),
                               N_("hand-written position scores, no neural net"), None),
}
#: The level names, weakest first (``heuristic`` is outside the ladder).
LEVELS: tuple[str, ...] = tuple(COMPUTER_LEVELS)
#: The level an opponent has when nobody chooses one.
DEFAULT_LEVEL = "expert"


def find_level(level: str) -> str:
    """The level called ``level`` (case-insensitive; ``strong`` means ``strongest``).

    :raises GammonError: an unknown level, listing the known ones.
    """
    key = str(level).strip().lower().replace(" ", "-").replace("_", "-")
    key = {"strong": "strongest", "worldclass": "world-class"}.get(key, key)
    if key not in COMPUTER_LEVELS:
        raise GammonError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    return key


def computer_level(level: str) -> ComputerLevel:
    """The registry's entry of the level called ``level`` (see :func:`find_level`).

    :raises GammonError: an unknown level, listing the known ones.
    """
    return COMPUTER_LEVELS[find_level(level)]


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
    "COMPUTER_LEVELS", "DEFAULT_LEVEL", "LEVELS", "ComputerLevel", "EnginePool", "computer_level", "find_level",
    "make_computer_player", "make_engine",
]
