"""The service's plumbing: its settings, the games in memory and their locks, and what it tells listeners.

:class:`ServiceBase` is the part of :class:`~gammon.web.service.games.GameService` that
the other parts stand on: the constructor (the service's settings and engines), the
cache of :class:`~gammon.web.service.live.LiveGame` copies kept in step with the store
(:meth:`ServiceBase._current`), the per-game locks, the seat of a token, and the
:class:`Change` told to listeners after every stored change.  The answers of the
service's calls (:class:`Created`, :class:`JoinedSeat`, :class:`Acted`,
:class:`Updates`) are here too.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from gammon.play.levels import EnginePool
from gammon.play.players import Player
from gammon.store import Store
from gammon.web.hints import DEFAULT_HINT_LEVEL, HintEngines, check_hint_level
from gammon.web.schemas import ActionEntry, GameState
from gammon.web.service.analysis import Analyses
from gammon.web.service.clock import Outages
from gammon.web.service.errors import ForbiddenError, NotFoundError
from gammon.web.service.live import LiveGame

log = logging.getLogger("gammon.web")


@dataclass(frozen=True, slots=True)
class Created:
    game_id: str
    seat: int
    token: str
    invite_token: str | None
    view: GameState


@dataclass(frozen=True, slots=True)
class JoinedSeat:
    """The seat an invitation gave, the joiner's own new token, and the game as the joiner sees it."""

    seat: int
    token: str
    view: GameState


@dataclass(frozen=True, slots=True)
class Acted:
    version: int
    actions: list[ActionEntry]
    view: GameState | None  # the actor's view (None when not asked for)


@dataclass(frozen=True, slots=True)
class Updates:
    """What a game's watchers have not seen: actions after a number, and fresh views."""

    version: int
    seq: int
    actions: list[ActionEntry]
    views: dict[int | None, GameState]


@dataclass(frozen=True, slots=True)
class Change:
    """Told to listeners after a change is stored."""

    game_id: str
    version: int
    computer_due: bool

class ServiceBase:
    """The settings, cache, locks and listeners of a :class:`~gammon.web.service.games.GameService`
    (whose docstring describes the arguments).

    :raises GammonError: an unknown ``hint_level``.
    """

    def __init__(
        self, store: Store, *, cache_size: int = 1000, allow_test_seeds: bool = False,
        computer_factory: Callable[[str, int | None], Player] | None = None, shared: bool = True,
        expire_after: float | None = None, analysis_plies: int | None = None, analysis_workers: int = 1,
        hint_level: str = DEFAULT_HINT_LEVEL, hint_engines: HintEngines | None = None,
        engines: EnginePool | None = None, max_public_per_host: int = 2, cancel_grace: float = 30.0,
        idle_abort: float | None = 180.0,
    ) -> None:
        self.store = store
        #: Public games one host (an address, see :meth:`create_game`) may have waiting in the lobby.
        self.max_public_per_host = max_public_per_host
        #: Seconds a game must have waited on a player who never acted before the other may cancel it.
        self.cancel_grace = cancel_grace
        #: Seconds after which a public game waiting on a player who never acted is cancelled (None: never).
        self.idle_abort = idle_abort
        self._public_hosts: OrderedDict[str, list[str]] = OrderedDict()
        self._hosts_lock = threading.Lock()
        #: The engines of the computer seats and the hints: one per level, shared by the games.
        self.engines = engines if engines is not None else EnginePool()
        #: The level of hints between people (against the computer: the computer's level).
        self.hint_level = check_hint_level(hint_level)
        #: This service's hint engines: at most one per hint level, shared by its games.
        self.hint_engines = hint_engines if hint_engines is not None else HintEngines(self.engines.engine)
        #: Seconds after which a game nobody joined expires (None: never).
        self.expire_after = expire_after
        #: Whether other processes may write to the same database.  When not (one server on an
        #: SQLite file), a cached game is trusted without asking the database for its version;
        #: writes are checked against the version either way.
        self.shared = shared
        self.cache_size = max(1, cache_size)
        self.allow_test_seeds = allow_test_seeds
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        if analysis_plies is None:
            from gammon.analysis.analyse import DEFAULT_PLIES

            analysis_plies = DEFAULT_PLIES
        #: The analyses of finished games (``gammon analyse``'s, at ``analysis_plies``), made in threads.
        self.analyses = Analyses(analysis_plies, analysis_workers, min(cache_size, 100))
        self._cache_lock = threading.Lock()
        self._locks = [threading.RLock() for _ in range(256)]
        self.listeners: list[Callable[[Change], None]] = []
        #: Makes the computer player of a level: the hook for stronger engines.
        self.computer_factory = computer_factory or self.engines.player
        #: The stretches in which no server process ran (no clock runs in them), read from the store.
        self.outages = Outages()
        self._outages_seen = 0

    # -- plumbing ------------------------------------------------------------------

    def _lock(self, game_id: str) -> threading.RLock:
        return self._locks[int.from_bytes(hashlib.blake2s(game_id.encode()).digest()[:2], "big") % 256]

    def _cached(self, game_id: str) -> LiveGame | None:
        with self._cache_lock:
            lg = self._cache.get(game_id)
            if lg is not None:
                self._cache.move_to_end(game_id)
            return lg

    def _remember(self, lg: LiveGame) -> None:
        with self._cache_lock:
            self._cache[lg.id] = lg
            self._cache.move_to_end(lg.id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def cached_games(self) -> list[LiveGame]:
        """The games in this process's memory now (a snapshot: read them, change nothing)."""
        with self._cache_lock:
            return list(self._cache.values())

    def evict(self, game_id: str) -> None:
        """Forget the in-memory copy of a game (the next call replays it from the store)."""
        with self._cache_lock:
            self._cache.pop(game_id, None)

    @staticmethod
    def _check_id(game_id: str) -> None:
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 32:
            raise NotFoundError("no such game")

    def _current(self, game_id: str) -> LiveGame:
        """The game, up to date with the store (call with the game's lock held)."""
        self._check_id(game_id)
        lg = self._cached(game_id)
        if lg is not None and not self.shared:
            return lg
        if lg is not None:
            version = self.store.get_version(game_id)
            if version is None:
                self.evict(game_id)
                raise NotFoundError("no such game")
            if version == lg.version:
                return lg
            loaded = self.store.load(game_id, after_seq=lg.seq)
            if loaded is not None:
                rec, new_actions = loaded
                try:
                    for a in new_actions:
                        lg.replay(a)
                    lg.update_meta(rec)
                    if lg.is_over:
                        lg.dice.reveal()
                    return lg
                except Exception:
                    log.exception("game %s: catching up failed; replaying it whole", game_id)
            self.evict(game_id)
        loaded = self.store.load(game_id)
        if loaded is None:
            raise NotFoundError("no such game")
        rec, actions = loaded
        lg = LiveGame.from_record(rec, self.outages)
        for a in actions:
            lg.replay(a)
        if lg.is_over:
            lg.dice.reveal()
        self._remember(lg)
        return lg

    def _notify(self, lg: LiveGame) -> None:
        change = Change(lg.id, lg.version, lg.computer_due() is not None)
        for listener in list(self.listeners):
            try:
                listener(change)
            except Exception:  # a listener's failure must not undo a stored action
                log.exception("change listener failed")

    def _seat(self, lg: LiveGame, token: str | None) -> int:
        seat = lg.seat_of(token)
        if seat is None:
            raise ForbiddenError("this token holds no seat in this game")
        return seat


__all__ = ["Acted", "Change", "Created", "JoinedSeat", "ServiceBase", "Updates"]
