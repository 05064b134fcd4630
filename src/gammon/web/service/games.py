"""The game service: everything the server does with games, with no HTTP or WebSocket in sight.

:class:`GameService` creates games, seats players by token (and single-use
invitation), applies their actions and the computer's, stores every accepted
action before it answers, and describes a game to a seat or a spectator.  The
web layer (:mod:`gammon.web.routes`) only translates requests into these calls;
tests and other front ends may call it directly.

Each game lives in memory as a :class:`~gammon.web.service.live.LiveGame`
replayed from its stored actions (a cache of recently used games; a game
missing from it, or behind the database, is brought up to date from the stored
record).  Within one process a game's calls are serialised by a lock; between
processes the version check of :meth:`gammon.store.Store.append_action` lets
exactly one of two competing actions in.

Clocks (:mod:`gammon.web.service.clock` has the model): the service checks
the clock before every action, the computer's included (a computer move
finished after its time ran out is not stored; the timeout is), refuses a
second resignation offer in a turn, and keeps :attr:`GameService.outages` (the
stored stretches without a running server, which no clock charges) in step
with the store through :meth:`GameService.beat`.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from gammon.core.dice import CryptoDice
from gammon.core.errors import GammonError, IllegalActionError
from gammon.core.game import Action, NewGame, Roll, Rules, Timeout
from gammon.core.variants import find_variant
from gammon.formats.record_json import rules_to_data
from gammon.play.levels import EnginePool
from gammon.play.players import Player
from gammon.play.session import Person, Seat, Session
from gammon.store import ActionRecord, NewGameRow, Store, VersionConflict
from gammon.store.codec import action_kind, action_to_dict, event_to_dict
from gammon.store.repository import OutageRecord
from gammon.web.computer import DEFAULT_LEVEL, check_level
from gammon.web.hints import DEFAULT_HINT_LEVEL, HintEngines, check_hint_level
from gammon.web.names import normalize_name
from gammon.web.schemas import (
    ActionEntry,
    AnalysisResult,
    GameState,
    HintResult,
    Invitation,
    LobbyGame,
    StepAnswer,
    StepQuery,
    VerifyResult,
)
from gammon.web.service.analysis import Analyses
from gammon.web.service.clock import Outages, clock_settings
from gammon.web.service.commands import build_action
from gammon.web.service.errors import (
    ConflictError,
    ForbiddenError,
    GoneError,
    InvalidError,
    NotFoundError,
    ServiceError,
)
from gammon.web.service.live import TIMEOUT, LiveGame
from gammon.web.service.records import (
    analysis_snapshot,
    export_text,
    hint_level_of,
    hint_request,
    rank_hint,
    step_answer,
    verify_report,
)
from gammon.web.service.requests import Command, GameSetup
from gammon.web.service.tokens import hash_token
from gammon.web.service.views import action_view, game_view, rules_view

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


class GameService:
    """Games on a :class:`~gammon.store.Store`: create, join, view, act, verify, export.

    Thread-safe: calls on one game are serialised by a lock (one of a fixed set,
    chosen by the game's id); calls on different games run side by side.

    The service owns its engines (:attr:`engines`, a
    :class:`~gammon.play.levels.EnginePool`: one per level, loaded on first use):
    every computer seat plays with a twin of its level's engine (its own noise,
    the shared nets), and the hint engines (:attr:`hint_engines`, a
    :class:`~gammon.web.hints.HintEngines` pool) are the same ones, so the memory
    does not grow with the games; two services, and two apps, share none.
    ``hint_level`` is the level of the hints between people.

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

    # -- creating and joining ------------------------------------------------------------

    def create_game(self, setup: GameSetup, host: str | None = None) -> Created:
        """A new game with the creator in ``setup.seat``; the other seat is the computer or a guest.

        ``host`` names the creator (the web layer passes the address) for the limit on public
        games: one host has at most :attr:`max_public_per_host` of them waiting in the lobby
        (counted in this process's memory; None: not counted).

        :raises InvalidError: impossible settings.
        :raises ConflictError: the host's public games already fill its share of the lobby
            (``too_many_public_games``).
        """
        if host is not None and setup.public and setup.opponent == "human" and setup.rematch_of is None:
            with self._hosts_lock:  # one host's creations one at a time: two at once cannot both fit
                waiting = self._waiting_public(host)
                if len(waiting) >= self.max_public_per_host:
                    raise ConflictError(
                        f"you have {len(waiting)} public games waiting in the lobby already: cancel one, "
                        "or wait for a guest", "too_many_public_games")
                created = self._create(setup)
                self._public_hosts[host] = [*waiting, created.game_id]
                self._public_hosts.move_to_end(host)
                while len(self._public_hosts) > 10_000:  # bounded: the oldest hosts are forgotten
                    self._public_hosts.popitem(last=False)
                return created
        return self._create(setup)

    def _waiting_public(self, host: str) -> list[str]:
        """The games of ``host``'s list that still wait in the lobby."""
        waiting = []
        for game_id in self._public_hosts.get(host, []):
            with self._lock(game_id):
                try:
                    lg = self._current(game_id)
                except (NotFoundError, GammonError):
                    continue
                if lg.status == "waiting" and not lg.invite_used and not self._expired(lg):
                    waiting.append(game_id)
        return waiting

    def _create(self, setup: GameSetup) -> Created:
        try:
            rules = Rules(
                variant=find_variant(setup.variant), match_length=setup.match_length,
                crawford=setup.crawford, jacoby=setup.jacoby, beavers=setup.beavers,
                automatic_doubles=setup.automatic_doubles, cube_limit=setup.cube_limit,
                gammons=setup.gammons, cube=setup.cube, opening=setup.opening,
            )
            level = check_level(setup.computer_level) if setup.opponent == "computer" else None
        except GammonError as exc:
            raise InvalidError(str(exc), "invalid_settings") from None
        if setup.opponent not in ("computer", "human"):
            raise InvalidError("the opponent is 'computer' or 'human'", "invalid_settings")
        if setup.seat not in (0, 1):
            raise InvalidError("the seat is 0 or 1", "invalid_settings")
        if rules.match_length and setup.games is not None:
            raise InvalidError("'games' is for money play; a match runs to its length", "invalid_settings")
        games_limit = None if rules.match_length else (setup.games or 1)
        try:  # test servers (fixed dice allowed) may run a clock out in a second
            clock = clock_settings(setup.clock_delay, setup.clock_reserve, short_ok=self.allow_test_seeds)
        except ValueError as exc:
            raise InvalidError(str(exc), "invalid_clock") from None
        if setup.test_seed is not None and not self.allow_test_seeds:
            raise InvalidError("this server does not accept fixed dice seeds", "invalid_settings")
        seed = setup.test_seed if setup.test_seed is not None else secrets.token_bytes(32)
        try:
            dice = CryptoDice(seed)
        except GammonError as exc:
            raise InvalidError(str(exc), "invalid_settings") from None
        me, other = setup.seat, 1 - setup.seat
        token = secrets.token_urlsafe(32)
        # A rematch's guest takes the seat with the old game's token (see rematch), not an invitation.
        invite = secrets.token_urlsafe(32) if setup.opponent == "human" and setup.rematch_of is None else None
        hashes: list[str | None] = [None, None]
        hashes[me] = hash_token(token)  # the guest's seat gets its token only when the invitation is used
        seats: list[dict[str, Any]] = [{}, {}]
        seats[me] = {"kind": "human", "name": normalize_name(setup.name, "Player"), "joined": True,
                     "level": None}
        if setup.opponent == "computer":
            seats[other] = {"kind": "computer", "joined": True, "level": level,
                            "name": normalize_name(setup.opponent_name, f"Computer ({level})")}
        else:
            seats[other] = {"kind": "human", "name": normalize_name(setup.opponent_name, "Guest"),
                            "joined": False, "level": None}
        row = NewGameRow(
            id=secrets.token_urlsafe(12), settings={"format": 1, "rules": rules_to_data(rules),
                                                    "games_limit": games_limit,
                                                    "hints": setup.opponent == "computer" or setup.hints,
                                                    "rematch_of": setup.rematch_of,
                                                    "clock": ({"delay": clock.delay, "reserve": clock.reserve}
                                                              if clock else None)},
            seats=seats, seat_token_hashes=(hashes[0], hashes[1]), dice_seed=seed.hex(),
            commitment=dice.commitment, has_computer=setup.opponent == "computer",
            status="active" if setup.opponent == "computer" else "waiting",
            invite_token_hash=hash_token(invite) if invite else None,
            public=setup.public and invite is not None,
        )
        rec = self.store.create_game(row)
        lg = LiveGame.from_record(rec, self.outages)
        with self._lock(lg.id):
            self._remember(lg)
            view = game_view(lg, me)
        return Created(lg.id, me, token, invite, view)

    def invitation(self, game_id: str, invite: str | None) -> Invitation:
        """What the invitation ``invite`` offers, while it is open.

        :raises GoneError: the invitation was used: the seat is taken (``invitation_used``).
        :raises ForbiddenError: ``invite`` is not this game's invitation.
        """
        with self._lock(game_id):
            lg = self._current(game_id)
            seat = self._open_invitation(lg, invite)
            host = next((str(s.get("name", "")) for i, s in enumerate(lg.seats) if i != seat), "")
            return Invitation.model_construct(game_id=lg.id, seat=seat, host=host, rules=rules_view(lg),
                                              status="open")

    def join(self, game_id: str, invite: str | None, name: str | None = None) -> JoinedSeat:
        """Use the invitation ``invite``: it is consumed, and the joiner gets a new seat token
        that only this answer carries (stored hashed).  A public game (listed in the lobby) is
        joined without an invitation, by whoever comes first.

        :raises GoneError: the invitation was used already (the seat is taken), or the game expired.
        :raises ForbiddenError: ``invite`` is not this game's invitation.
        """
        return self._claim(game_id, lambda lg: self._open_invitation(lg, invite), name)

    def _claim(self, game_id: str, pick_seat: Callable[[LiveGame], int], name: str | None) -> JoinedSeat:
        """Give the seat ``pick_seat`` names a fresh token, once (the store's check makes it once)."""
        with self._lock(game_id):
            for attempt in (1, 2):
                lg = self._current(game_id)
                seat = pick_seat(lg)
                seats = [dict(s) for s in lg.seats]
                seats[seat]["joined"] = True
                if name:
                    seats[seat]["name"] = normalize_name(name, seats[seat]["name"])
                status = "active" if all(s.get("joined") for s in seats) else "waiting"
                if lg.status == "finished":
                    status = "finished"
                token = secrets.token_urlsafe(32)
                token_hash = hash_token(token)
                try:
                    lg.version, lg.updated_at = self.store.claim_seat(game_id, lg.version, seat, token_hash,
                                                                      seats, status)
                except VersionConflict:
                    self.evict(game_id)  # another process changed the game, or used the invitation
                    if attempt == 2:
                        raise ConflictError("the game changed meanwhile; try again",
                                            "version_conflict") from None
                    continue
                hashes = list(lg.token_hashes)
                hashes[seat] = token_hash
                lg.token_hashes = (hashes[0], hashes[1])
                lg.seats, lg.status, lg.invite_used = seats, status, True
                self._notify(lg)
                return JoinedSeat(seat, token, game_view(lg, seat))
        raise AssertionError("unreachable")  # pragma: no cover

    def _open_invitation(self, lg: LiveGame, invite: str | None) -> int:
        """The seat the open invitation ``invite`` (or, in a public game, no invitation) is for."""
        if lg.status == "expired" or self._expired(lg):
            raise GoneError("this game has expired: nobody joined it in time", "expired")
        if lg.status == "cancelled":
            raise GoneError("this game was cancelled", "cancelled")
        if not (lg.public and not invite) and (not invite or not lg.is_invitation(invite)):
            raise ForbiddenError("this is not an invitation to this game")
        seat = lg.invited_seat()
        if lg.invite_used or seat is None:
            raise GoneError("this invitation has been used: the seat is taken")
        return seat

    def _expired(self, lg: LiveGame) -> bool:
        return (lg.status == "waiting" and self.expire_after is not None
                and lg.created_at < datetime.now(UTC) - timedelta(seconds=self.expire_after))

    # -- rematches, the lobby, expiry ------------------------------------------------------

    def rematch(self, game_id: str, token: str | None) -> JoinedSeat:
        """A rematch of the finished game ``game_id`` for the seat of ``token``.

        The first player to ask creates it (the same settings and seats, linked
        to the old game both ways) and gets their seat in it; against a person,
        the other player asks next and takes the other seat, each with a fresh
        token.  The old game's state shows the link to both.

        :raises ConflictError: the game is not over (``not_over``).
        :raises GoneError: the seat in the rematch is taken already (``rematch_taken``).
        """
        with self._lock(game_id):
            lg = self._current(game_id)
            seat = self._seat(lg, token)
            if not lg.is_over:
                raise ConflictError("a rematch comes when the game is over", "not_over")
            rematch_id = lg.rematch_id
            if rematch_id is None:
                created = self.create_game(self._rematch_setup(lg, seat))
                linked = self.store.set_rematch(game_id, created.game_id)
                if linked is not None:
                    lg.rematch_id = created.game_id
                    lg.version, lg.updated_at = linked
                    self._notify(lg)
                    return JoinedSeat(created.seat, created.token, created.view)
                self.evict(game_id)  # the other player made one first: take a seat in theirs
                rematch_id = self._current(game_id).rematch_id
                assert rematch_id is not None

        def other_seat(new: LiveGame) -> int:
            if new.rematch_of != game_id:
                raise ForbiddenError("that game is not this game's rematch")
            if new.seats[seat].get("joined"):
                raise GoneError("your seat in the rematch is taken already", "rematch_taken")
            return seat

        return self._claim(rematch_id, other_seat, None)

    @staticmethod
    def _rematch_setup(lg: LiveGame, seat: int) -> GameSetup:
        other = lg.seats[1 - seat]
        rules = rules_to_data(lg.rules)
        return GameSetup(
            opponent="computer" if lg.is_computer(1 - seat) else "human", variant=rules["variant"],
            match_length=rules["match_length"], games=None if rules["match_length"] else lg.games_limit,
            crawford=rules["crawford"], jacoby=rules["jacoby"], beavers=rules["beavers"],
            automatic_doubles=rules["automatic_doubles"], cube_limit=rules["cube_limit"],
            gammons=rules["gammons"], cube=rules["cube"], seat=seat,
            computer_level=str(other.get("level") or DEFAULT_LEVEL),
            name=str(lg.seats[seat].get("name") or "Player"), opponent_name=str(other.get("name") or "Guest"),
            hints=lg.hints, rematch_of=lg.id,
            clock_delay=lg.clock.settings.delay if lg.clock else 0.0,
            clock_reserve=lg.clock.settings.reserve if lg.clock else 0.0,
        )

    def lobby(self, limit: int = 50) -> list[LobbyGame]:
        """Public games waiting for a guest (not expired), newest first."""
        after = datetime.now(UTC) - timedelta(seconds=self.expire_after or 10 ** 9)
        out = []
        for rec in self.store.lobby(after, limit):
            lg = LiveGame.from_record(rec)
            seat = lg.invited_seat()
            if seat is None:
                continue
            out.append(LobbyGame.model_construct(
                game_id=lg.id, seat=seat, host=str(lg.seats[1 - seat].get("name", "")), rules=rules_view(lg),
                created_at=lg.created_at))
        return out

    def expire_waiting(self) -> list[str]:
        """Mark expired the games nobody joined within ``expire_after`` seconds, and cancel the public
        games whose player to act never acted (:meth:`cancel_idle`); their ids."""
        ids = self.cancel_idle()
        if self.expire_after is None:
            return ids
        expired = self.store.expire_waiting(datetime.now(UTC) - timedelta(seconds=self.expire_after))
        for game_id in expired:
            self.evict(game_id)
        return ids + expired

    # -- calling a game off before it is played ----------------------------------------------

    def cancel(self, game_id: str, token: str | None) -> GameState:
        """Cancel ``game_id`` for the seat of ``token``: its status becomes ``cancelled``, nobody can
        join or act any more, and it has no result.

        Allowed while the game waits for its guest (the host cancels the invitation or leaves the
        lobby), and in a game between people that has not changed for :attr:`cancel_grace` seconds
        while nothing was played at all or it waits on an opponent who has never acted (a guest who
        took the seat and never moved: nothing was played that a result could be given for).

        :raises ForbiddenError: no seat for the token.
        :raises ConflictError: the game cannot be cancelled now (``cannot_cancel``), and why.
        """
        with self._lock(game_id):
            lg = self._current(game_id)
            seat = self._seat(lg, token)
            if lg.status != "waiting":
                if not self._stalled(lg, seat):
                    raise ConflictError("only a game nobody joined, or one whose opponent never moved, can be "
                                        "cancelled", "cannot_cancel")
                waited = (datetime.now(UTC) - lg.updated_at).total_seconds()
                if waited < self.cancel_grace:
                    raise ConflictError(f"your opponent has had {waited:.0f} s to move: you can cancel after "
                                        f"{self.cancel_grace:.0f} s", "cannot_cancel")
            self._set_cancelled(lg)
            return game_view(lg, seat)

    def cancel_idle(self) -> list[str]:
        """Cancel the public games in this process's memory that have waited :attr:`idle_abort` seconds
        with nothing played, or on a player who never acted (a lobby guest who took the seat and
        left); their ids."""
        if self.idle_abort is None:
            return []
        limit = datetime.now(UTC) - timedelta(seconds=self.idle_abort)
        with self._cache_lock:
            candidates = [g.id for g in self._cache.values() if g.public and g.status == "active"
                          and g.updated_at < limit]
        cancelled = []
        for game_id in candidates:
            with self._lock(game_id):
                try:
                    lg = self._current(game_id)
                    if lg.status == "active" and lg.updated_at < limit and self._stalled(lg):
                        self._set_cancelled(lg)
                        cancelled.append(game_id)
                except (ServiceError, VersionConflict, GammonError):
                    continue
        return cancelled

    @staticmethod
    def _stalled(lg: LiveGame, by: int | None = None) -> bool:
        """Whether an active game between people is stalled before it was played: nothing played at
        all, or the game waits on a player (other than ``by``) who has never acted."""
        if lg.status != "active" or lg.is_over or any(lg.is_computer(s) for s in (0, 1)):
            return False
        if not lg.actions:
            return True
        who = lg.to_act()
        return who is not None and who != by and not any(a.player == who for a in lg.actions)

    def _set_cancelled(self, lg: LiveGame) -> None:
        try:
            lg.version, lg.updated_at = self.store.set_status(lg.id, lg.version, "cancelled")
        except VersionConflict:
            self.evict(lg.id)
            raise ConflictError("the game changed meanwhile; try again", "version_conflict") from None
        lg.status = "cancelled"
        self._notify(lg)
        log.info("game %s: cancelled", lg.id)

    # -- reading ---------------------------------------------------------------------

    def view(self, game_id: str, token: str | None = None) -> GameState:
        """The game as the seat of ``token`` sees it (a spectator without a token).

        :raises ForbiddenError: a token that holds no seat here.
        """
        with self._lock(game_id):
            lg = self._current(game_id)
            seat = self._seat(lg, token) if token else None
            return game_view(lg, seat)

    def seat_for(self, game_id: str, token: str | None) -> int | None:
        """The seat of ``token`` (None without one). :raises ForbiddenError: a token with no seat."""
        with self._lock(game_id):
            lg = self._current(game_id)
            return self._seat(lg, token) if token else None

    def known_seat(self, game_id: str, token: str | None) -> tuple[bool, int | None]:
        """Without waiting for anything: whether ``game_id`` is in this process's memory, and the
        seat ``token`` holds in that copy (None: no seat there; the copy may be behind the store).

        For the rate limits, which must not block the event loop on a game's lock or the store.
        """
        lg = self._cached(game_id) if isinstance(game_id, str) else None
        if lg is None:
            return False, None
        return True, lg.seat_of(token)

    def action_log(self, game_id: str, after_seq: int = 0) -> tuple[int, list[ActionEntry]]:
        """The version and the stored actions numbered above ``after_seq``."""
        with self._lock(game_id):
            lg = self._current(game_id)
            return lg.version, [action_view(a) for a in lg.actions[max(0, after_seq):]]

    def updates_since(self, game_id: str, after_seq: int, seats: Iterable[int | None]) -> Updates:
        """Actions numbered above ``after_seq`` and the current view for each of ``seats``."""
        with self._lock(game_id):
            lg = self._current(game_id)
            return Updates(
                lg.version, lg.seq, [action_view(a) for a in lg.actions[max(0, after_seq):]],
                {s: game_view(lg, s) for s in set(seats)},
            )

    def _seat(self, lg: LiveGame, token: str | None) -> int:
        seat = lg.seat_of(token)
        if seat is None:
            raise ForbiddenError("this token holds no seat in this game")
        return seat

    # -- acting ----------------------------------------------------------------------

    def act(self, game_id: str, token: str | None, command: Command,
            expected_version: int | None = None, *, want_view: bool = True) -> Acted:
        """Carry out ``command`` for the seat of ``token``; stored before this returns.

        :raises ForbiddenError: no seat for the token.
        :raises ConflictError: out of turn, illegal now, or not at ``expected_version``.
        :raises InvalidError: a malformed command.
        """
        with self._lock(game_id):
            lg = self._current(game_id)
            seat = self._seat(lg, token)
            if lg.is_computer(seat):  # pragma: no cover - computer seats have no token
                raise ForbiddenError("this seat is played by the computer")
            try:
                return self._act(lg, seat, command, expected_version, want_view)
            except VersionConflict:
                if expected_version is not None:
                    raise ConflictError("another action was accepted first; reload the game",
                                        "version_conflict") from None
            # Another process stored an action first: judge the command again on the fresh state.
            lg = self._current(game_id)
            try:
                return self._act(lg, seat, command, None, want_view)
            except VersionConflict:
                raise ConflictError("another action was accepted first; reload the game",
                                    "version_conflict") from None

    def _act(self, lg: LiveGame, seat: int, command: Command, expected_version: int | None,
             want_view: bool = True) -> Acted:
        if expected_version is not None and expected_version != lg.version:
            raise ConflictError(
                f"the game is at version {lg.version}, not {expected_version}: reload it",
                "version_conflict")
        if lg.status == "active" and self._time_out(lg) is not None:
            raise ConflictError("time ran out: the game is over", "game_over")
        if lg.status == "finished" or lg.is_over:
            raise ConflictError("the game is over", "game_over")
        if lg.status in ("cancelled", "expired"):
            raise ConflictError(f"the game was {lg.status} before it was played", "game_over")
        if lg.status == "waiting":
            raise ConflictError("waiting for the opponent to join", "waiting_for_opponent")
        who = lg.to_act()
        if who is not None and who != seat:
            raise ConflictError(f"it is player {who}'s turn to act, not yours", "not_your_turn")
        if who is None and command.type != "roll":
            what = "the next game" if lg.between_games() else "the game"
            raise ConflictError(f"{what} starts with the opening roll: send 'roll'", "illegal_action")
        if command.type == "resign" and not lg.may_offer_resignation(seat):
            raise ConflictError("you offered to resign in this turn already: play on, and offer again in a "
                                "later turn", "resignation_limit")
        return self._apply(lg, build_action(lg, seat, command), want_view)

    def _apply(self, lg: LiveGame, action: Action, want_view: bool = True) -> Acted:
        """Apply ``action`` in memory and store it; on any failure the cached copy is dropped."""
        rolls_before = lg.dice.rolls_made
        new_game = lg.between_games()
        try:
            if new_game:
                lg.match.apply(NewGame())  # a roll between games starts the next game
            events = lg.match.apply(action)
        except GammonError as exc:
            if lg.dice.rolls_made != rolls_before or new_game:
                self.evict(lg.id)
            code = "illegal_action" if isinstance(exc, IllegalActionError) else "invalid_request"
            raise ConflictError(str(exc), code) from None
        except Exception:
            self.evict(lg.id)
            raise
        recorded = lg.game.record[-1]
        if isinstance(recorded, NewGame):  # pragma: no cover - a game records only its players' actions
            self.evict(lg.id)
            raise ConflictError("the game recorded no player's action", "invalid_request")
        data = action_to_dict(recorded)
        data["game"] = len(lg.match.games)
        ev = [event_to_dict(e) for e in events]
        status = "finished" if lg.match.is_over else "active"
        seq = lg.seq + 1
        try:
            actor = lg.actor(recorded.player)
            version, stored_at = self.store.append_action(lg.id, lg.version, seq, recorded.player,
                                                          action_kind(recorded), data, ev, status, actor)
        except BaseException:
            self.evict(lg.id)
            raise
        if isinstance(recorded, Roll) and recorded.dice is not None:
            lg.rolls.append(recorded.dice)
        rec = ActionRecord(seq, recorded.player, action_kind(recorded), data, ev, stored_at, actor)
        lg.actions.append(rec)
        lg.after_action(rec)
        lg.version, lg.status, lg.updated_at = version, status, rec.created_at
        if lg.match.is_over:
            lg.dice.reveal()
        self._notify(lg)
        return Acted(version, [action_view(rec)], game_view(lg, action.player) if want_view else None)

    # -- clocks ------------------------------------------------------------------------

    def _time_out(self, lg: LiveGame) -> int | None:
        """If the player to act has run out of time, store the timeout (they lose the match); the seat."""
        if lg.clock is None or lg.is_over or lg.status != "active":
            return None
        loser = lg.clock.timed_out(datetime.now(UTC))
        if loser is None:
            return None
        name = str(lg.seats[loser].get("name") or f"player {loser}")
        try:  # what the loss scores is core's rule; the clock only says whose time ran out
            events = [event_to_dict(e) for e in lg.match.apply(Timeout(loser))]
        except GammonError:  # pragma: no cover - the clock runs only for the player the game waits for
            self.evict(lg.id)
            return None
        data = action_to_dict(Timeout(loser))
        data["game"] = len(lg.match.games)
        seq = lg.seq + 1
        try:
            version, stored_at = self.store.append_action(lg.id, lg.version, seq, loser, TIMEOUT, data, events,
                                                          "finished", "clock")
        except VersionConflict:  # the copy in memory has the timeout applied: read the game again
            self.evict(lg.id)
            return None
        except BaseException:
            self.evict(lg.id)
            raise
        rec = ActionRecord(seq, loser, TIMEOUT, data, events, stored_at, "clock")
        lg.actions.append(rec)
        lg.after_action(rec)
        lg.version, lg.status, lg.updated_at = version, "finished", stored_at
        lg.dice.reveal()
        log.info("game %s: %s ran out of time", lg.id, name)
        self._notify(lg)
        return loser

    def beat(self, stale_after: float) -> OutageRecord | None:
        """Stamp the store's heartbeat (an outage when it was older than ``stale_after`` seconds:
        see :meth:`gammon.store.Store.beat`) and read the outages stored since the last call."""
        outage = self.store.beat(stale_after)
        self.refresh_outages()
        return outage

    def refresh_outages(self) -> int:
        """Add the outages stored since the last call (by any process) to :attr:`outages`; how many."""
        new = self.store.outages(self._outages_seen)
        for o in new:
            self.outages.add(o.started, o.ended)
            self._outages_seen = max(self._outages_seen, o.id)
        return len(new)

    def check_clock(self, game_id: str) -> bool:
        """Store the timeout of ``game_id`` if its player to act has run out of time; whether it did."""
        with self._lock(game_id):
            try:
                lg = self._current(game_id)
            except NotFoundError:
                return False
            return self._time_out(lg) is not None

    def clock_games(self) -> list[str]:
        """Games in memory whose clock is running."""
        with self._cache_lock:
            return [g.id for g in self._cache.values()
                    if g.clock is not None and g.clock.running is not None and g.status == "active"]

    def load_clock_games(self) -> int:
        """Load the unfinished games with a clock (after a restart), so that their clocks are watched."""
        n = 0
        for game_id in self.store.active_games_with("clock"):
            with self._lock(game_id):
                try:
                    lg = self._current(game_id)
                except (NotFoundError, GammonError):
                    continue
                n += lg.clock is not None
        return n

    # -- the computer ---------------------------------------------------------------

    def computer_step(self, game_id: str) -> bool:
        """Make the computer's next action in ``game_id`` if it is the computer's turn.

        Returns whether an action was stored (False: not the computer's turn, or
        another process acted first).
        """
        with self._lock(game_id):
            try:
                lg = self._current(game_id)
            except NotFoundError:
                return False
            seat = lg.computer_due()
            if seat is None or self._time_out(lg) is not None:
                return False
            seats: list[Seat] = [Person(), Person()]  # a person's actions come by the socket
            seats[seat] = lg.computer_player(seat, self.computer_factory)
            try:
                action = Session(lg.match, seats).ask()
                # Checked like a person's move: one finished after the computer's time ran out is not
                # stored, the timeout is.
                if self._time_out(lg) is not None:
                    return False
                self._apply(lg, action, want_view=False)
            except VersionConflict:
                return True  # someone else moved on: look again
            except GammonError:
                log.exception("game %s: the computer could not act", game_id)
                return False
            return True

    def computer_games(self) -> list[str]:
        """Unfinished games with a computer seat (to resume after a restart)."""
        return list(self.store.active_computer_games())

    # -- records: the dice check, exports, hints, analysis ------------------------------------

    def verify(self, game_id: str) -> VerifyResult:
        """The dice commitment and rolls; once the game is over, the seed and the check of every roll."""
        with self._lock(game_id):
            return verify_report(self._current(game_id))

    def export(self, game_id: str, fmt: str) -> str:
        """The game's record as ``mat``, ``sgf`` or ``json`` text.

        :raises InvalidError: a format that cannot carry this game (``unsupported_export``).
        """
        with self._lock(game_id):
            return export_text(self._current(game_id), fmt)

    def hint(self, game_id: str, token: str | None, count: int = 5) -> HintResult:
        """The ``count`` best plays of the roll the seat of ``token`` must play now.

        Between people the engine helps during play only when the game was
        created with hints for both; once the match is over analysis is open to all.
        The hint is given at the computer opponent's level, or between people at
        :attr:`hint_level`, by the noiseless engine of that level, at the game's
        score and cube (see :mod:`gammon.web.hints`).

        :raises ForbiddenError: no seat for the token, or hints are off in this game (``hints_off``).
        :raises ConflictError: the seat has no roll to play now (``no_hint``).
        """
        with self._lock(game_id):
            lg = self._current(game_id)
            position, dice, version, cube = hint_request(lg, self._seat(lg, token))
            level = hint_level_of(lg, self.hint_level)
        return rank_hint(game_id, position, dice, version, count, cube, level=level,
                         engines=self.hint_engines)

    def why_not(self, game_id: str, query: StepQuery) -> StepAnswer:
        """Why the checker cannot make the step ``query`` names now: core's rule (:meth:`StepTree.refusal`).

        Anyone who sees the board may ask (it tells no more than the step tree in the state).

        :raises ConflictError: no roll to play now (``no_roll``), a stale version (``stale_version``)
            or walked steps that are not the beginning of a legal play (``illegal_play``).
        """
        with self._lock(game_id):
            lg = self._current(game_id)
            return step_answer(lg, query)

    def analysis(self, game_id: str, token: str | None = None, requester: str | None = None) -> AnalysisResult:
        """The analysis of a finished game or match by :mod:`gammon.analysis`, as ``gammon analyse``.

        Answers at once: the first call queues the analysis in the analysis
        thread and gives its progress (``running``), later calls the progress
        or, once made, the report (kept: a finished match never changes).

        The queue is fair (:class:`~gammon.web.service.analysis.Analyses`): a player of the game
        (``token`` holds a seat) goes before everyone else, and ``requester`` (the address) has
        only a few analyses of other people's games waiting at once.

        :raises ConflictError: the game is not over yet (``not_over``): no help during play.
        :raises BusyError: ``requester`` has too many analyses waiting (``too_busy``).
        """
        known = self.analyses.known(game_id)
        if known is not None and (known.status != "running" or token is None):
            return known
        with self._lock(game_id):
            lg = self._current(game_id)
            player = token is not None and lg.seat_of(token) is not None
            if known is not None and not player:
                return known
            snap = analysis_snapshot(lg)
        return self.analyses.start(snap, requester, player)

    def close(self) -> None:
        """Stop the background work the service owns (the analysis threads)."""
        self.analyses.close()


__all__ = ["Acted", "Change", "Created", "GameService", "JoinedSeat", "Updates"]
