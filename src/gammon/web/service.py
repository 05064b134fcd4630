"""The game service: everything the server does, with no HTTP or WebSocket in sight.

:class:`GameService` creates games, seats players by token, applies their
actions and the computer's, stores every accepted action before it answers,
and describes a game to a seat or a spectator (:class:`GameView`).  The web
layer (:mod:`gammon.web.routes`) only translates requests into these calls and
the results into API shapes; tests and other front ends may call it directly.

Each game lives in memory as a :class:`~gammon.core.match.Match` replayed from
its stored actions (a cache of recently used games; a game missing from it,
or behind the database, is brought up to date from the stored record).  Within
one process a game's calls are serialised by a lock; between processes the
version check of :meth:`gammon.store.Store.append_action` lets exactly one of
two competing actions in.

Dice: every game has its own :class:`~gammon.core.dice.CryptoDice`.  The
secret seed is stored with the game and never leaves the server before the
game (match) is over; roll ``i`` of the game is roll ``i`` of the seed, so a
restarted server goes on with the same sequence.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

from gammon.core.dice import CryptoDice, verify_rolls
from gammon.core.errors import (
    AmbiguousPlayError,
    GammonError,
    IllegalActionError,
    IllegalPlayError,
    InvalidPositionError,
    PlaySyntaxError,
)
from gammon.core.game import (
    CENTERED,
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    Double,
    Drop,
    Game,
    Move,
    Phase,
    RejectResignation,
    Resign,
    Roll,
    Rules,
    Take,
)
from gammon.core.match import Match
from gammon.core.plays import Play
from gammon.core.position import Position
from gammon.core.variants import VARIANTS, find_variant
from gammon.play.players import Player, can_beaver
from gammon.play.session import next_action
from gammon.store import ActionRecord, GameRecord, NewGameRow, Store, VersionConflict
from gammon.store.codec import RESIGN_KINDS, action_from_dict, action_kind, action_to_dict, event_to_dict
from gammon.web.computer import DEFAULT_LEVEL, check_level, make_computer_player
from gammon.web.names import normalize_name

log = logging.getLogger("gammon.web")

#: The kinds of action a client may send.
COMMAND_TYPES: tuple[str, ...] = (
    "roll", "play", "double", "take", "drop", "beaver", "resign", "accept", "reject", "choose-double",
)

# -- errors: what went wrong, by kind (the web layer picks the HTTP status) ---------------


class ServiceError(GammonError):
    """A request the service refuses; ``code`` names the reason for programs."""

    code = "bad_request"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class NotFoundError(ServiceError):
    code = "not_found"


class ForbiddenError(ServiceError):
    code = "forbidden"


class ConflictError(ServiceError):
    """The action does not fit the game's state (out of turn, illegal, stale version)."""

    code = "illegal_action"


class InvalidError(ServiceError):
    """The request itself is malformed or names impossible settings."""

    code = "invalid_request"


class GoneError(ServiceError):
    """What the request names existed once and is used up (an invitation already used)."""

    code = "invitation_used"


# -- requests ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameSetup:
    """What a new game is: opponent, rules, the creator's seat and names."""

    opponent: str = "computer"  # "computer" or "human"
    variant: str = "standard"
    match_length: int = 0
    games: int | None = None  # money play: games in the session (default 1)
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: int = 0
    cube_limit: int = 64
    gammons: bool = True
    cube: bool = True
    computer_level: str = DEFAULT_LEVEL
    seat: int = 0
    name: str = "Player 1"
    opponent_name: str | None = None
    test_seed: bytes | None = None
    #: Between people: whether both may ask the engine for hints during play (against the computer,
    #: always).  Stored with the game and shown to both players from the start.
    hints: bool = False


@dataclass(frozen=True, slots=True)
class Command:
    """An action a seat asks for.  ``play`` is notation or a list of ``(from, to)`` checker moves."""

    type: str
    play: str | Sequence[Sequence[int]] | None = None
    kind: str = "single"
    number: int | None = None


# -- views: what a seat or a spectator sees --------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    kind: str
    name: str
    joined: bool
    level: str | None
    token_id: str | None


@dataclass(frozen=True, slots=True)
class RulesView:
    variant: str
    match_length: int
    games: int | None
    crawford: bool
    jacoby: bool
    beavers: bool
    automatic_doubles: int
    cube_limit: int
    gammons: bool
    cube: bool
    hints: bool


@dataclass(frozen=True, slots=True)
class MatchView:
    length: int
    score: list[int]
    game_number: int
    crawford_game: bool
    post_crawford: bool
    over: bool
    winner: int | None


@dataclass(frozen=True, slots=True)
class BoardView:
    """Checkers: ``position_id`` seen from ``perspective`` (the player on roll); ``points[s]``
    is seat ``s``'s row from its own side (index 0..23 = its points 1..24, 24 = its bar)."""

    position_id: str
    perspective: int
    points: list[list[int]]
    bar: list[int]
    off: list[int]
    pips: list[int]


@dataclass(frozen=True, slots=True)
class CubeView:
    value: int
    owner: int | None
    offered_by: int | None
    in_use: bool


@dataclass(frozen=True, slots=True)
class CheckerMoveView:
    from_point: int
    to_point: int
    hit: bool


@dataclass(frozen=True, slots=True)
class PlayView:
    notation: str
    moves: list[CheckerMoveView]
    position_id: str


@dataclass(frozen=True, slots=True)
class ResignationView:
    player: int
    kind: str


@dataclass(frozen=True, slots=True)
class ResultView:
    winner: int
    kind: str
    points: int
    cube: int
    resigned: bool
    dropped: bool


@dataclass(frozen=True, slots=True)
class DiceCommitmentView:
    kind: str
    commitment: str
    rolls_made: int
    revealed: bool
    seed: str | None


@dataclass(frozen=True, slots=True)
class GameView:
    """The state of a game as ``you`` (a seat, or None for a spectator) sees it."""

    id: str
    version: int
    status: str
    you: int | None
    seats: list[SeatView]
    rules: RulesView
    match: MatchView
    phase: str
    turn: int
    to_act: int | None
    your_turn: bool
    allowed_actions: list[str]
    dice: list[int] | None
    board: BoardView
    cube: CubeView
    resignation: ResignationView | None
    result: ResultView | None
    legal_plays: list[PlayView] | None
    match_id: str | None
    fair_dice: DiceCommitmentView
    actions: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class EventView:
    kind: str
    player: int | None
    text: str
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ActionView:
    """One stored action: its number, who, what (with dice), the events it caused."""

    seq: int
    player: int
    type: str
    action: dict[str, Any]
    events: list[EventView]
    created_at: datetime
    actor: str | None


@dataclass(frozen=True, slots=True)
class Created:
    game_id: str
    seat: int
    token: str
    invite_token: str | None
    view: GameView


@dataclass(frozen=True, slots=True)
class InvitationView:
    """What an open invitation offers: the seat, who invites, and the game's rules."""

    game_id: str
    seat: int
    host: str
    rules: RulesView
    status: str


@dataclass(frozen=True, slots=True)
class JoinedSeat:
    """The seat an invitation gave, the joiner's own new token, and the game as the joiner sees it."""

    seat: int
    token: str
    view: GameView


@dataclass(frozen=True, slots=True)
class Acted:
    version: int
    actions: list[ActionView]
    view: GameView | None  # the actor's view (None when not asked for)


@dataclass(frozen=True, slots=True)
class Updates:
    """What a game's watchers have not seen: actions after a number, and fresh views."""

    version: int
    seq: int
    actions: list[ActionView]
    views: dict[int | None, GameView]


@dataclass(frozen=True, slots=True)
class VerifyReport:
    commitment: str
    revealed: bool
    seed: str | None
    rolls: list[list[int]]
    verified: bool | None
    message: str
    first_bad_index: int | None


@dataclass(frozen=True, slots=True)
class HintPlayView:
    notation: str
    moves: list[CheckerMoveView]
    equity: float | None
    difference: float | None
    win: float | None


@dataclass(frozen=True, slots=True)
class HintView:
    """The best plays of the roll to play, for the seat on move."""

    game_id: str
    version: int
    dice: list[int]
    engine: str
    plays: list[HintPlayView]


@dataclass(frozen=True, slots=True)
class PlayReviewView:
    seq: int
    player: int
    game: int
    dice: list[int]
    played: str
    best: str
    loss: float
    mark: str | None


@dataclass(frozen=True, slots=True)
class AnalysisView:
    """Every play of a finished game or match with a choice, against the engine's best play."""

    game_id: str
    engine: str | None
    plays: list[PlayReviewView]


@dataclass(frozen=True, slots=True)
class Change:
    """Told to listeners after a change is stored."""

    game_id: str
    version: int
    computer_due: bool


# -- the live game -------------------------------------------------------------------------


def hash_token(token: str) -> str:
    """The SHA-256 (hex) under which a seat token (or an invitation) is stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


#: Hex digits of a token's hash that name it in the record (``seat1:3f9a0c...``): enough to tell tokens
#: apart, useless for guessing one.
TOKEN_ID_DIGITS = 12


def token_id(token_hash: str | None) -> str | None:
    """The public name of a stored token: the first digits of its hash."""
    return token_hash[:TOKEN_ID_DIGITS] if token_hash else None


def computer_seed(secret: bytes, seat: int) -> int:
    """The seed of the computer's deliberate mistakes (lower levels) in a game whose secret dice seed is
    ``secret``: an HMAC of it, so that nobody can work out the computer's choices from the public game
    id, and a restarted server seeds it the same way.
    """
    digest = hmac.new(secret, f"gammon computer player, seat {seat}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def _same_hash(token: str, stored: str | None) -> bool:
    return stored is not None and hmac.compare_digest(hash_token(token).encode("ascii"), stored.encode("ascii"))


def _rules_dict(rules: Rules) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(Rules):
        value = getattr(rules, f.name)
        out[f.name] = value.name if f.name == "variant" else value
    return out


@dataclass
class LiveGame:
    """A game replayed in memory, in step with its stored record."""

    id: str
    rules: Rules
    games_limit: int | None
    seats: list[dict[str, Any]]
    token_hashes: tuple[str | None, str | None]
    seed: bytes
    commitment: str
    status: str
    version: int
    created_at: datetime
    updated_at: datetime
    invite_hash: str | None = None
    invite_used: bool = False
    #: Whether the engine's hints are open during play (always against the computer).
    hints: bool = True
    match: Match = field(init=False)
    dice: CryptoDice = field(init=False)
    actions: list[ActionRecord] = field(default_factory=list)
    rolls: list[tuple[int, int]] = field(default_factory=list)
    players: dict[int, Player] = field(default_factory=dict)
    #: The legal plays of the current roll as views, kept for the action number they belong to.
    legal_cache: tuple[int, list[PlayView]] | None = None

    def __post_init__(self) -> None:
        self.dice = CryptoDice(self.seed)
        self.match = Match(self.rules, self.dice, games_limit=self.games_limit)

    @classmethod
    def from_record(cls, rec: GameRecord) -> LiveGame:
        settings = rec.settings
        rules = Rules(**{**settings["rules"], "variant": find_variant(settings["rules"]["variant"])})
        return cls(
            rec.id, rules, settings.get("games_limit"), [dict(s) for s in rec.seats],
            rec.seat_token_hashes, bytes.fromhex(rec.dice_seed), rec.commitment, rec.status,
            rec.version, rec.created_at, rec.updated_at, rec.invite_token_hash, rec.invite_used,
            # Games stored before the setting existed: hints were open against the computer only.
            bool(settings.get("hints", rec.has_computer)),
        )

    @property
    def seq(self) -> int:
        return len(self.actions)

    @property
    def game(self) -> Game:
        return self.match.game

    def replay(self, rec: ActionRecord) -> None:
        """Apply a stored action (its dice included), checking each roll against the seed."""
        if rec.seq != self.seq + 1:
            raise GammonError(f"game {self.id}: stored action {rec.seq} follows {self.seq}")
        action = action_from_dict(rec.data, self.rules.variant)
        if isinstance(action, Roll):
            assert action.dice is not None
            expected = self.dice.roll()
            if expected != action.dice:
                raise GammonError(f"game {self.id}: stored roll {rec.seq} is {action.dice}, "
                                  f"but the seed gives {expected}")
            self.rolls.append(action.dice)
        self.match.apply(action)
        self.actions.append(rec)

    def update_meta(self, rec: GameRecord) -> None:
        self.seats = [dict(s) for s in rec.seats]
        self.status = rec.status
        self.version = rec.version
        self.updated_at = rec.updated_at
        self.token_hashes = rec.seat_token_hashes
        self.invite_hash, self.invite_used = rec.invite_token_hash, rec.invite_used

    def seat_of(self, token: str | None) -> int | None:
        """The seat that ``token`` holds, or None."""
        if not token:
            return None
        for seat, stored in enumerate(self.token_hashes):
            if _same_hash(token, stored):
                return seat
        return None

    def is_invitation(self, token: str | None) -> bool:
        """Whether ``token`` is this game's invitation (open or used)."""
        return bool(token) and _same_hash(str(token), self.invite_hash)

    def invited_seat(self) -> int | None:
        """The seat the invitation is for: the human seat nobody holds a token for yet."""
        for seat, info in enumerate(self.seats):
            if info.get("kind") == "human" and not info.get("joined"):
                return seat
        return None

    def actor(self, seat: int) -> str:
        """How the record names whoever acts for ``seat`` now."""
        if self.is_computer(seat):
            return "computer"
        return f"seat{seat}:{token_id(self.token_hashes[seat]) or '?'}"

    def is_computer(self, seat: int) -> bool:
        return bool(self.seats[seat].get("kind") == "computer")

    def between_games(self) -> bool:
        """The current game is over and the match goes on: a roll starts the next game."""
        return self.game.is_over and not self.match.is_over

    def to_act(self) -> int | None:
        """The seat that must act now; None when either may (the opening roll) or nobody."""
        if self.status != "active" or self.match.is_over:
            return None
        if self.between_games() or self.game.phase is Phase.OPENING:
            return None
        return self.game.player_to_act

    def computer_due(self) -> int | None:
        """The computer's seat when it must act now, else None (people roll the opening)."""
        who = self.to_act()
        return who if who is not None and self.is_computer(who) else None

    def computer_player(self, seat: int, factory: Callable[[str, int | None], Player]) -> Player:
        player = self.players.get(seat)
        if player is None:
            level = self.seats[seat].get("level") or DEFAULT_LEVEL
            player = self.players[seat] = factory(level, computer_seed(self.seed, seat))
        return player


class _HumanSeat:
    """Stands in for a person in :func:`next_action`; never asked."""

    def __getattr__(self, name: str) -> Any:
        raise GammonError("the computer was asked to decide for a person")


# -- the service -------------------------------------------------------------------------------


class GameService:
    """Games on a :class:`~gammon.store.Store`: create, join, view, act, verify, export.

    Thread-safe: calls on one game are serialised by a lock (one of a fixed set,
    chosen by the game's id); calls on different games run side by side.
    """

    def __init__(
        self, store: Store, *, cache_size: int = 1000, allow_test_seeds: bool = False,
        computer_factory: Callable[[str, int | None], Player] | None = None, shared: bool = True,
    ) -> None:
        self.store = store
        #: Whether other processes may write to the same database.  When not (one server on an
        #: SQLite file), a cached game is trusted without asking the database for its version;
        #: writes are checked against the version either way.
        self.shared = shared
        self.cache_size = max(1, cache_size)
        self.allow_test_seeds = allow_test_seeds
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        self._analyses: OrderedDict[str, AnalysisView] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._locks = [threading.RLock() for _ in range(256)]
        self.listeners: list[Callable[[Change], None]] = []
        #: Makes the computer player of a level: the hook for stronger engines.
        self.computer_factory = computer_factory or make_computer_player

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
                    if lg.match.is_over:
                        lg.dice.reveal()
                    return lg
                except Exception:
                    log.exception("game %s: catching up failed; replaying it whole", game_id)
            self.evict(game_id)
        loaded = self.store.load(game_id)
        if loaded is None:
            raise NotFoundError("no such game")
        rec, actions = loaded
        lg = LiveGame.from_record(rec)
        for a in actions:
            lg.replay(a)
        if lg.match.is_over:
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

    def create_game(self, setup: GameSetup) -> Created:
        """A new game with the creator in ``setup.seat``; the other seat is the computer or a guest.

        :raises InvalidError: impossible settings.
        """
        try:
            rules = Rules(
                variant=find_variant(setup.variant), match_length=setup.match_length,
                crawford=setup.crawford, jacoby=setup.jacoby, beavers=setup.beavers,
                automatic_doubles=setup.automatic_doubles, cube_limit=setup.cube_limit,
                gammons=setup.gammons, cube=setup.cube,
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
        if setup.test_seed is not None and not self.allow_test_seeds:
            raise InvalidError("this server does not accept fixed dice seeds", "invalid_settings")
        seed = setup.test_seed if setup.test_seed is not None else secrets.token_bytes(32)
        try:
            dice = CryptoDice(seed)
        except GammonError as exc:
            raise InvalidError(str(exc), "invalid_settings") from None
        me, other = setup.seat, 1 - setup.seat
        token = secrets.token_urlsafe(32)
        invite = secrets.token_urlsafe(32) if setup.opponent == "human" else None
        hashes: list[str | None] = [None, None]
        hashes[me] = hash_token(token)  # the guest's seat gets its token only when the invitation is used
        seats: list[dict[str, Any]] = [{}, {}]
        seats[me] = {"kind": "human", "name": _name(setup.name, "Player"), "joined": True, "level": None}
        if setup.opponent == "computer":
            seats[other] = {"kind": "computer", "name": _name(setup.opponent_name, f"Computer ({level})"),
                            "joined": True, "level": level}
        else:
            seats[other] = {"kind": "human", "name": _name(setup.opponent_name, "Guest"), "joined": False,
                            "level": None}
        row = NewGameRow(
            id=secrets.token_urlsafe(12), settings={"format": 1, "rules": _rules_dict(rules),
                                                    "games_limit": games_limit,
                                                    "hints": setup.opponent == "computer" or setup.hints},
            seats=seats, seat_token_hashes=(hashes[0], hashes[1]), dice_seed=seed.hex(),
            commitment=dice.commitment, has_computer=setup.opponent == "computer",
            status="active" if setup.opponent == "computer" else "waiting",
            invite_token_hash=hash_token(invite) if invite else None,
        )
        rec = self.store.create_game(row)
        lg = LiveGame.from_record(rec)
        with self._lock(lg.id):
            self._remember(lg)
            view = self._view(lg, me)
        return Created(lg.id, me, token, invite, view)

    def invitation(self, game_id: str, invite: str | None) -> InvitationView:
        """What the invitation ``invite`` offers, while it is open.

        :raises GoneError: the invitation was used: the seat is taken (``invitation_used``).
        :raises ForbiddenError: ``invite`` is not this game's invitation.
        """
        with self._lock(game_id):
            lg = self._current(game_id)
            seat = self._open_invitation(lg, invite)
            host = next((str(s.get("name", "")) for i, s in enumerate(lg.seats) if i != seat), "")
            return InvitationView(lg.id, seat, host, _rules_view(lg), "open")

    def join(self, game_id: str, invite: str | None, name: str | None = None) -> JoinedSeat:
        """Use the invitation ``invite``: it is consumed, and the joiner gets a new seat token
        that only this answer carries (stored hashed).

        :raises GoneError: the invitation was used already: the seat is taken.
        :raises ForbiddenError: ``invite`` is not this game's invitation.
        """
        with self._lock(game_id):
            for attempt in (1, 2):
                lg = self._current(game_id)
                seat = self._open_invitation(lg, invite)
                seats = [dict(s) for s in lg.seats]
                seats[seat]["joined"] = True
                if name:
                    seats[seat]["name"] = _name(name, seats[seat]["name"])
                status = "active" if all(s.get("joined") for s in seats) else "waiting"
                if lg.status == "finished":
                    status = "finished"
                token = secrets.token_urlsafe(32)
                token_hash = hash_token(token)
                try:
                    lg.version = self.store.claim_seat(game_id, lg.version, seat, token_hash, seats, status)
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
                return JoinedSeat(seat, token, self._view(lg, seat))
        raise AssertionError("unreachable")  # pragma: no cover

    @staticmethod
    def _open_invitation(lg: LiveGame, invite: str | None) -> int:
        """The seat the open invitation ``invite`` is for."""
        if not invite or not lg.is_invitation(invite):
            raise ForbiddenError("this is not an invitation to this game")
        seat = lg.invited_seat()
        if lg.invite_used or seat is None:
            raise GoneError("this invitation has been used: the seat is taken")
        return seat

    # -- reading ---------------------------------------------------------------------

    def view(self, game_id: str, token: str | None = None) -> GameView:
        """The game as the seat of ``token`` sees it (a spectator without a token).

        :raises ForbiddenError: a token that holds no seat here.
        """
        with self._lock(game_id):
            lg = self._current(game_id)
            seat = self._seat(lg, token) if token else None
            return self._view(lg, seat)

    def seat_for(self, game_id: str, token: str | None) -> int | None:
        """The seat of ``token`` (None without one). :raises ForbiddenError: a token with no seat."""
        with self._lock(game_id):
            lg = self._current(game_id)
            return self._seat(lg, token) if token else None

    def action_log(self, game_id: str, after_seq: int = 0) -> tuple[int, list[ActionView]]:
        """The version and the stored actions numbered above ``after_seq``."""
        with self._lock(game_id):
            lg = self._current(game_id)
            return lg.version, [_action_view(a) for a in lg.actions[max(0, after_seq):]]

    def updates_since(self, game_id: str, after_seq: int, seats: Iterable[int | None]) -> Updates:
        """Actions numbered above ``after_seq`` and the current view for each of ``seats``."""
        with self._lock(game_id):
            lg = self._current(game_id)
            return Updates(
                lg.version, lg.seq, [_action_view(a) for a in lg.actions[max(0, after_seq):]],
                {s: self._view(lg, s) for s in set(seats)},
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
        if lg.status == "finished" or lg.match.is_over:
            raise ConflictError("the game is over", "game_over")
        if lg.status == "waiting":
            raise ConflictError("waiting for the opponent to join", "waiting_for_opponent")
        who = lg.to_act()
        if who is not None and who != seat:
            raise ConflictError(f"it is player {who}'s turn to act, not yours", "not_your_turn")
        if who is None and command.type != "roll":
            what = "the next game" if lg.between_games() else "the game"
            raise ConflictError(f"{what} starts with the opening roll: send 'roll'", "illegal_action")
        return self._apply(lg, self._build(lg, seat, command), want_view)

    def _build(self, lg: LiveGame, seat: int, c: Command) -> Action:
        t = c.type
        if t == "roll":
            return Roll(seat)
        if t == "play":
            return Move(seat, self._resolve_play(lg.game, c.play))
        if t == "resign":
            if c.kind not in RESIGN_KINDS:
                raise InvalidError("a resignation is single, gammon or backgammon", "invalid_request")
            return Resign(seat, RESIGN_KINDS[c.kind])
        if t == "choose-double":
            n = c.number
            if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 6:
                raise InvalidError("choose-double needs a number from 1 to 6", "invalid_request")
            return ChooseDouble(seat, n)
        simple: dict[str, type] = {"double": Double, "take": Take, "drop": Drop, "beaver": Beaver,
                                   "accept": AcceptResignation, "reject": RejectResignation}
        if t not in simple:
            raise InvalidError(f"unknown action {t!r}: one of {', '.join(COMMAND_TYPES)}", "invalid_request")
        action: Action = simple[t](seat)
        return action

    def _resolve_play(self, game: Game, given: str | Sequence[Sequence[int]] | None) -> Play:
        if game.phase is not Phase.MOVE or game.rolled is None:
            raise ConflictError(f"cannot play now: the game is in the {game.phase.value} phase",
                                "illegal_action")
        try:
            if isinstance(given, str):
                return game.position.parse_play(given, game.rolled)
            if given is None:
                raise InvalidError("a play needs 'play': notation or a list of [from, to] moves",
                                   "invalid_request")
            return _play_from_moves(game, given)
        except PlaySyntaxError as exc:
            raise InvalidError(str(exc), "bad_play_syntax") from None
        except AmbiguousPlayError as exc:
            raise ConflictError(str(exc), "ambiguous_play") from None
        except (IllegalPlayError, InvalidPositionError) as exc:
            raise ConflictError(str(exc), "illegal_play") from None

    def _apply(self, lg: LiveGame, action: Action, want_view: bool = True) -> Acted:
        """Apply ``action`` in memory and store it; on any failure the cached copy is dropped."""
        rolls_before = lg.dice.rolls_made
        try:
            events = lg.match.apply(action)
        except GammonError as exc:
            if lg.dice.rolls_made != rolls_before:
                self.evict(lg.id)
            code = "illegal_action" if isinstance(exc, IllegalActionError) else "invalid_request"
            raise ConflictError(str(exc), code) from None
        except Exception:
            self.evict(lg.id)
            raise
        recorded = lg.game.record[-1]
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
        lg.version, lg.status, lg.updated_at = version, status, rec.created_at
        if lg.match.is_over:
            lg.dice.reveal()
        self._notify(lg)
        return Acted(version, [_action_view(rec)], self._view(lg, action.player) if want_view else None)

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
            if seat is None:
                return False
            players: list[Any] = [_HumanSeat(), _HumanSeat()]
            players[seat] = lg.computer_player(seat, self.computer_factory)
            try:
                action = next_action(lg.game, players)
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

    # -- dice and records -------------------------------------------------------------

    def verify(self, game_id: str) -> VerifyReport:
        """The dice commitment and rolls; once the game is over, the seed and the check of every roll."""
        with self._lock(game_id):
            lg = self._current(game_id)
            rolls = [list(r) for r in lg.rolls]
            if not lg.match.is_over:
                return VerifyReport(lg.commitment, False, None, rolls, None,
                                    f"{len(rolls)} rolls so far; the seed is revealed when the game ends",
                                    None)
            result = verify_rolls(lg.seed, lg.commitment, lg.rolls)
            return VerifyReport(lg.commitment, True, lg.seed.hex(), rolls, result.ok, result.message,
                                result.first_bad_index)

    def export(self, game_id: str, fmt: str) -> str:
        """The game's record as ``mat``, ``sgf`` or ``json`` text.

        :raises InvalidError: a format that cannot carry this game (``unsupported_export``).
        """
        with self._lock(game_id):
            lg = self._current(game_id)
            names = tuple(str(s.get("name") or f"Player {i}") for i, s in enumerate(lg.seats))
            try:
                if fmt == "mat":
                    from gammon.formats.mat import write_mat

                    return write_mat(lg.match, [n.replace(":", " ") for n in names])
                if fmt == "sgf":
                    from gammon.formats.sgf import write_sgf

                    return write_sgf(lg.match, names)
                if fmt == "json":
                    from gammon.formats.record_json import match_to_json

                    dice: dict[str, Any] = {"kind": "crypto", "commitment": lg.commitment,
                                            "rolls_made": len(lg.rolls)}
                    if lg.match.is_over:
                        dice["seed"] = lg.seed.hex()
                    return match_to_json(lg.match, names, dice)
            except GammonError as exc:
                raise InvalidError(str(exc), "unsupported_export") from None
            raise NotFoundError(f"no export format {fmt!r}")

    # -- hints --------------------------------------------------------------------------

    def hint(self, game_id: str, token: str | None, count: int = 5) -> HintView:
        """The ``count`` best plays of the roll the seat of ``token`` must play now.

        Between people the engine helps during play only when the game was
        created with hints for both; once the match is over analysis is open to all.

        :raises ForbiddenError: no seat for the token, or hints are off in this game (``hints_off``).
        :raises ConflictError: the seat has no roll to play now (``no_hint``).
        """
        from gammon.web.hints import rank_for_hint

        with self._lock(game_id):
            lg = self._current(game_id)
            seat = self._seat(lg, token)
            if not lg.hints and not lg.match.is_over:
                raise ForbiddenError("hints are off in this game: both players agreed to play without the "
                                     "engine's help (the analysis opens when the game is over)", "hints_off")
            g = lg.game
            if "play" not in _allowed(lg, seat, lg.to_act(), lg.between_games()) or g.rolled is None:
                raise ConflictError("a hint is for the roll you have to play, and you have none now", "no_hint")
            position, dice, version = g.position, g.rolled, lg.version
        engine, ranked = rank_for_hint(position, dice, count)
        return HintView(game_id, version, list(dice), engine, [
            HintPlayView(str(r.play), [CheckerMoveView(m.from_point, m.to_point, m.hit) for m in r.play.moves],
                         r.equity, r.difference, r.win) for r in ranked])

    def analysis(self, game_id: str) -> AnalysisView:
        """Each play of a finished game or match compared with the engine's best play.

        A finished match never changes, so its analysis is made once and kept
        (anyone may ask for it, and it costs an engine evaluation per play).

        :raises ConflictError: the game is not over yet (``not_over``): no help during play.
        """
        with self._lock(game_id):
            lg = self._current(game_id)
            if not lg.match.is_over:
                raise ConflictError("the analysis comes when the game is over", "not_over")
            with self._cache_lock:
                done = self._analyses.get(game_id)
            if done is not None:
                return done
            view = self._analyse(lg)
            with self._cache_lock:
                self._analyses[game_id] = view
                while len(self._analyses) > self.cache_size:
                    self._analyses.popitem(last=False)
            return view

    def _analyse(self, lg: LiveGame) -> AnalysisView:
        from gammon.web.hints import HINT_LEVEL, engine_available, review_play

        game_id = lg.id
        records = list(lg.actions)
        rules, games_limit = lg.rules, lg.games_limit
        if not engine_available():
            return AnalysisView(game_id, None, [])
        match = Match(rules, None, games_limit=games_limit)
        out: list[PlayReviewView] = []
        for rec in records:
            action = action_from_dict(rec.data, rules.variant)
            if match.game.is_over:
                match.next_game()
            g = match.game
            if isinstance(action, Move) and g.rolled is not None and isinstance(action.play, Position):
                review = review_play(g.position, g.rolled, action.play)
                if review is not None:
                    out.append(PlayReviewView(rec.seq, rec.player, len(match.games), list(g.rolled),
                                              str(rec.data.get("play", "")), str(review.best),
                                              round(review.loss, 4), review.mark))
            match.apply(action)
        return AnalysisView(game_id, f"gammon.ai {HINT_LEVEL}", out)

    # -- views --------------------------------------------------------------------------

    def _view(self, lg: LiveGame, you: int | None) -> GameView:
        g = lg.game
        m = lg.match
        who = lg.to_act()
        over = m.is_over
        phase = "over" if g.is_over else g.phase.value
        between = lg.between_games() and lg.status == "active"
        allowed = _allowed(lg, you, who, between) if you is not None else []
        legal = None
        if you is not None and "play" in allowed and g.rolled is not None:
            if lg.legal_cache is None or lg.legal_cache[0] != lg.seq:
                lg.legal_cache = (lg.seq, [_play_view(p) for p in g.position.legal_plays(g.rolled)])
            legal = list(lg.legal_cache[1])
        perspective = g.turn
        me, opp = list(g.position.me), list(g.position.opp)
        rows = [me, opp] if perspective == 0 else [opp, me]
        n = lg.rules.variant.checkers
        res = g.result
        rules = lg.rules
        return GameView(
            id=lg.id, version=lg.version, status=lg.status, you=you,
            seats=[SeatView(i, s.get("kind", "human"), s.get("name", ""), bool(s.get("joined")),
                            s.get("level"), token_id(lg.token_hashes[i])) for i, s in enumerate(lg.seats)],
            rules=_rules_view(lg),
            match=MatchView(m.length, list(m.score), len(m.games), g.crawford_game, m.is_post_crawford, over,
                            m.winner),
            phase=phase, turn=g.turn, to_act=who, your_turn=you is not None and bool(allowed),
            allowed_actions=allowed,
            dice=list(g.rolled) if g.rolled is not None else None,
            board=BoardView(g.position.position_id, perspective, rows, [rows[0][24], rows[1][24]],
                            [n - sum(rows[0]), n - sum(rows[1])],
                            [sum(c * (i + 1) for i, c in enumerate(r)) for r in rows]),
            cube=CubeView(g.cube_value, None if g.cube_owner == CENTERED else g.cube_owner,
                          g.doubled_by if g.phase is Phase.DOUBLED else None, rules.uses_cube),
            resignation=(ResignationView(g.resignation[0], g.resignation[1].name.lower())
                         if g.phase is Phase.RESIGNED and g.resignation is not None else None),
            result=(ResultView(res.winner, res.kind.name.lower(), res.points, res.cube, res.resigned,
                               res.dropped) if res is not None else None),
            legal_plays=legal, match_id=_match_id(lg), fair_dice=DiceCommitmentView(
                "crypto", lg.commitment, len(lg.rolls), over, lg.seed.hex() if over else None),
            actions=lg.seq, created_at=lg.created_at, updated_at=lg.updated_at,
        )


# -- helpers ---------------------------------------------------------------------------------


def _rules_view(lg: LiveGame) -> RulesView:
    rules = lg.rules
    return RulesView(rules.variant.name, rules.match_length, lg.games_limit, rules.crawford, rules.jacoby,
                     rules.beavers, rules.automatic_doubles, rules.cube_limit, rules.gammons, rules.uses_cube,
                     lg.hints)


def _name(name: str | None, default: str) -> str:
    return normalize_name(name, default)


def _allowed(lg: LiveGame, you: int, who: int | None, between: bool) -> list[str]:
    if lg.status != "active" or lg.match.is_over or lg.is_computer(you):
        return []
    g = lg.game
    if who is None:
        return ["roll"] if (between or g.phase is Phase.OPENING) else []
    if who != you:
        return []
    phase = g.phase
    if phase is Phase.ROLL:
        return ["roll", *(["double"] if g.can_double(you) else []), "resign"]
    if phase is Phase.DOUBLED:
        return ["take", "drop", *(["beaver"] if can_beaver(g) else []), "resign"]
    if phase is Phase.MOVE:
        return ["play", "resign"]
    if phase is Phase.CHOOSE_DOUBLE:
        return ["choose-double", "resign"]
    if phase is Phase.RESIGNED:
        return ["accept", "reject"]
    return []


def _play_view(play: Play) -> PlayView:
    return PlayView(str(play), [CheckerMoveView(m.from_point, m.to_point, m.hit) for m in play.moves],
                    play.position.position_id)


def _action_view(rec: ActionRecord) -> ActionView:
    return ActionView(rec.seq, rec.player, rec.kind, rec.data,
                      [EventView(e.get("kind", ""), e.get("player"), e.get("text", ""), e.get("data") or {})
                       for e in rec.events], rec.created_at, rec.actor)


def _play_from_moves(game: Game, moves: Sequence[Sequence[int]]) -> Play:
    """The legal play that the checker moves ``[[from, to], ...]`` (mover's points) lead to."""
    pos = game.position
    me, opp = list(pos.me), list(pos.opp)
    if not isinstance(moves, list | tuple) or len(moves) > 4:
        raise InvalidError("moves are a list of at most four [from, to] pairs", "invalid_request")
    for k, mv in enumerate(moves):
        if (not isinstance(mv, list | tuple) or len(mv) not in (2, 3)
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in mv[:2])):
            raise InvalidError(f"move {k + 1} must be [from, to] with whole numbers", "invalid_request")
        f, t = int(mv[0]), int(mv[1])
        if not (1 <= f <= 25 and 0 <= t <= 24 and t < f):
            raise IllegalPlayError(f"move {k + 1} ({f}/{t}): a checker moves from a higher point to a lower "
                                   "one (25 = bar, 0 = off)")
        fi = 24 if f == 25 else f - 1
        if me[fi] == 0:
            raise IllegalPlayError(f"move {k + 1} ({f}/{t}): you have no checker there")
        me[fi] -= 1
        if t == 0:
            continue
        oi = 24 - t  # the opponent's index of our point t
        if opp[oi] >= 2:
            raise IllegalPlayError(f"move {k + 1} ({f}/{t}): point {t} is blocked")
        if opp[oi] == 1:
            opp[oi] = 0
            opp[24] += 1
        me[t - 1] += 1
    target = Position(me, opp, pos.variant)
    assert game.rolled is not None
    plays = pos.legal_plays(game.rolled)
    positions = plays.positions()
    if target in positions:
        return plays[positions.index(target)]
    raise IllegalPlayError(
        f"those checker moves are not a legal play for {game.rolled[0]}-{game.rolled[1]}"
        + (f"; legal plays include {', '.join(str(p) for p in plays[:5])}" if len(plays) else ""))


def _match_id(lg: LiveGame) -> str | None:
    from gammon.formats.match_id import GameState, MatchId, Resignation, encode_match_id

    g = lg.game
    try:
        if g.is_over and g.result is not None:
            state = (GameState.DROPPED if g.result.dropped else GameState.RESIGNED if g.result.resigned
                     else GameState.OVER)
        else:
            state = GameState.PLAYING
        resign = Resignation.NONE
        if g.phase is Phase.RESIGNED and g.resignation is not None:
            resign = Resignation(int(g.resignation[1]))
        return encode_match_id(MatchId(
            cube_value=g.cube_value, cube_owner=None if g.cube_owner == CENTERED else g.cube_owner,
            player_on_roll=g.turn, crawford=g.crawford_game and bool(lg.rules.match_length),
            game_state=state, turn=g.player_to_act, double_offered=g.phase is Phase.DOUBLED,
            resignation=resign, dice=g.rolled, match_length=lg.rules.match_length,
            score=(g.score[0], g.score[1]), jacoby=lg.rules.jacoby,
        ))
    except (GammonError, ValueError):
        return None


def variant_names() -> list[str]:
    return list(VARIANTS)


__all__ = [
    "COMMAND_TYPES",
    "Acted",
    "ActionView",
    "Change",
    "Command",
    "ConflictError",
    "Created",
    "ForbiddenError",
    "GameService",
    "GoneError",
    "InvitationView",
    "JoinedSeat",
    "GameSetup",
    "AnalysisView",
    "GameView",
    "HintView",
    "InvalidError",
    "NotFoundError",
    "ServiceError",
    "Updates",
    "VerifyReport",
    "hash_token",
    "variant_names",
]
