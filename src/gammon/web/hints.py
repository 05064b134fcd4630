"""Hints for the browser page: the best plays of a roll at the score and cube, at a level's depth.

(The analysis after a game, marks included, is :mod:`gammon.analysis`'s: see
:mod:`gammon.web.service.analysis`.)

A hint is given at a level of :mod:`gammon.play.levels`, but never with noise:
:func:`hint_level` turns the level into the noiseless engine that hints with
it (world-class and strongest: 2-ply, world-class over fewer plays; expert, the noisy levels beginner to
advanced and ``heuristic``: expert, 0-ply).  Against the computer the service
hints at the computer's level; between people at the server's
``GAMMON_HINT_LEVEL`` (:mod:`gammon.web.config`).

The engines are a :class:`HintEngines` pool that the service owns (one per
server application, none at module level): at most one
:class:`~gammon.ai.engine.Engine` per hint level, loaded on first use (the
service's :class:`~gammon.play.levels.EnginePool`, whose engines its computer
seats play with too), and one hint at a time on each, so that hints queue
rather than take every core.  The
engine ranks the plays by the mover's equity at the score and cube (cubeful
money, or EMG at a match score; see :mod:`gammon.ai.match_play`).  When
:mod:`gammon.ai` cannot be imported or loaded, or fails on a position (a
variant its nets were not made for), the fast heuristic of
:mod:`gammon.play.players` orders the plays, without equities.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gammon.core.errors import GammonError
from gammon.core.plays import Play
from gammon.core.position import Position
from gammon.play.levels import LEVELS, find_level

log = logging.getLogger("gammon.web")

#: The levels that hint with an engine of their own; every other level hints with expert's.
HINT_LEVELS: tuple[str, ...] = ("expert", "world-class", "strongest")
#: The hint level between people when the server is not told one: the deepest, since a
#: 2-ply hint takes tens of milliseconds (measured: median 14 ms, at most about 50 ms over 91
#: self-play positions with a busy CPU; 1-ply 4 ms, 0-ply 2 ms).
DEFAULT_HINT_LEVEL = "strongest"
#: Name of the ranking when no engine gives one.
HEURISTIC = "heuristic"


def hint_level(level: str) -> str:
    """The noiseless engine level that hints for ``level``: its own for expert, world-class
    and strongest, expert for the noisy levels and ``heuristic`` (a hint is never noisy).

    :raises GammonError: an unknown level, listing the known ones.
    """
    key = find_level(level)
    return key if key in HINT_LEVELS else "expert"


def check_hint_level(level: str, source: str = "the hint level") -> str:
    """``level`` as :func:`hint_level` gives it, with an error that says where it came from.

    :raises GammonError: an unknown level (``source`` names the setting).
    """
    try:
        return hint_level(level)
    except GammonError:
        raise GammonError(f"unknown level {level!r} for {source}: choose one of {', '.join(LEVELS)} "
                          f"(hints use {', '.join(HINT_LEVELS)}; the others hint as expert)") from None


@dataclass(frozen=True, slots=True)
class RankedHint:
    """One candidate play: equity and difference to the best are None from the heuristic."""

    play: Play
    equity: float | None
    difference: float | None
    win: float | None


def _load_engine(level: str) -> Any:
    from gammon.play.levels import make_engine

    return make_engine(level)


class _Slot:
    """One level's engine, loaded on first use, and the lock its calls take turns on."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.engine: Any = None
        self.failed = False


class HintEngines:
    """A pool of hint engines: at most one per hint level (:data:`HINT_LEVELS`), thread-safe.

    ``loader`` makes the engine of a hint level (default:
    :func:`gammon.play.levels.make_engine`); when it raises, that level hints
    with the heuristic from then on.
    """

    def __init__(self, loader: Callable[[str], Any] | None = None) -> None:
        self._loader = loader or _load_engine
        self._lock = threading.Lock()
        self._slots: dict[str, _Slot] = {}

    def _slot(self, level: str) -> _Slot:
        with self._lock:
            return self._slots.setdefault(level, _Slot())

    def loaded(self) -> dict[str, Any]:
        """The engines loaded so far, by hint level."""
        with self._lock:
            return {lv: s.engine for lv, s in self._slots.items() if s.engine is not None}

    def _engine(self, slot: _Slot, level: str) -> Any:
        """The slot's engine, loaded now if need be (call with the slot's lock held)."""
        if slot.engine is None and not slot.failed:
            try:
                slot.engine = self._loader(level)
            except Exception:  # not importable, or no weights: the heuristic stands in
                log.info("hints: the %s engine is unavailable; using the heuristic", level, exc_info=True)
                slot.failed = True
        return slot.engine

    def _by_engine(self, level: str, position: Position, dice: tuple[int, int], match: object | None,
                   ) -> tuple[str, list[RankedHint]] | None:
        """The engine's name and ranking at ``level`` (a hint level); None when it has none."""
        slot = self._slot(level)
        with slot.lock:
            engine = self._engine(slot, level)
            if engine is None:
                return None
            try:
                ranked = engine.rank_plays(position, dice, match)
            except Exception:
                log.warning("hints: the %s engine failed on %s %s; using the heuristic", level,
                            position.position_id, dice, exc_info=True)
                return None
            name = f"gammon.ai {level} ({int(engine.plies)}-ply)"
        return name, [RankedHint(r.play, float(r.equity), float(r.difference), float(r.probabilities[0]))
                      for r in ranked]

    def rank(self, position: Position, dice: Sequence[int], count: int = 5, match: object | None = None,
             level: str = DEFAULT_HINT_LEVEL) -> tuple[str, list[RankedHint]]:
        """The name of the ranking used and the ``count`` best plays (all with ``count`` 0) for
        ``dice`` in ``position`` at ``level`` (as :func:`hint_level` turns it), valued at the
        score and cube ``match`` (a ``CubeInfo``, ``Game`` or ``Match``; None: cubeless money).

        The name says the level and depth (``gammon.ai world-class (2-ply)``), or ``heuristic``.
        An empty list means nothing can be played.

        :raises GammonError: an unknown level.
        """
        d = (int(dice[0]), int(dice[1]))
        found = self._by_engine(hint_level(level), position, d, match)
        name, ranked = found if found is not None else (HEURISTIC, _by_heuristic(position, d))
        return name, ranked[:count] if count > 0 else ranked


def _by_heuristic(position: Position, dice: tuple[int, int]) -> list[RankedHint]:
    from gammon.ai.heuristic import score_positions

    plays = position.legal_plays(dice)
    if len(plays) == 0:
        return []
    scores = score_positions(plays.positions())
    order = sorted(range(len(plays)), key=lambda i: -float(scores[i]))
    return [RankedHint(plays[i], None, None, None) for i in order]


def rank_for_hint(position: Position, dice: Sequence[int], count: int = 5, match: object | None = None,
                  level: str = DEFAULT_HINT_LEVEL, engines: HintEngines | None = None,
                  ) -> tuple[str, list[RankedHint]]:
    """:meth:`HintEngines.rank` with ``engines`` (the service's pool); without one, a pool made
    for this call only (it loads an engine each time: fine for a script, not for a server).

    :raises GammonError: an unknown level.
    """
    pool = engines if engines is not None else HintEngines()
    return pool.rank(position, dice, count, match, level)


__all__ = [
    "DEFAULT_HINT_LEVEL", "HEURISTIC", "HINT_LEVELS", "HintEngines", "RankedHint", "check_hint_level",
    "hint_level", "rank_for_hint",
]
