"""A game in memory (:class:`LiveGame`): replayed from its stored actions, in step with the store.

Dice: every game has its own :class:`~gammon.core.fair_dice.CryptoDice`, thrown as dice or
drawn as the rule texts' two piles of cards (the game's ``dice`` setting).  The
secret seed is stored with the game and never leaves the server before the
game (match) is over; roll ``i`` of the game is roll ``i`` of the seed, so a
restarted server goes on with the same sequence.

Play: a live game is driven by its :class:`~gammon.play.session.Session`
(:attr:`LiveGame.session`): the stored actions are replayed through it, a
person's actions and the computer's are submitted to it, and whose decision is
pending is its :attr:`~gammon.play.session.Session.pending`.  A person's seat is a
:class:`~gammon.play.session.Person`; a computer's seat holds its player once
it is first asked.

Turns: :attr:`LiveGame.turn_no` numbers the turns of the match as the stored
actions leave them (a new number whenever the player on roll changes or a new
game starts); the clock gives one delay per turn by it, and a player may offer
to resign once per turn (:meth:`LiveGame.may_offer_resignation`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from gammon.core.errors import GammonError
from gammon.core.events import Event, GameStart
from gammon.core.fair_dice import CryptoDice
from gammon.core.game import Action, Game, NewGame, Roll, Rules
from gammon.core.match import Match
from gammon.formats.record_json import rules_from_data
from gammon.play.players import Player
from gammon.play.session import DecisionKind, Person, Session
from gammon.store import ActionRecord, GameRecord
from gammon.store.codec import action_from_dict
from gammon.web.computer import DEFAULT_LEVEL
from gammon.web.schemas import LegalPlay, StepTreeOut
from gammon.web.service.clock import Clock, ClockSettings, Outages
from gammon.web.service.tokens import computer_seed, same_hash, token_id

#: The stored kind of a timeout: the player ran out of time and lost the match.
TIMEOUT = "timeout"


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
    public: bool = False
    rematch_id: str | None = None
    rematch_of: str | None = None
    #: The game's clock (None: played without one).
    clock: Clock | None = None
    match: Match = field(init=False)
    #: The driver of :attr:`match`: every action reaches the match through it.
    session: Session = field(init=False)
    dice: CryptoDice = field(init=False)
    actions: list[ActionRecord] = field(default_factory=list)
    rolls: list[tuple[int, int]] = field(default_factory=list)
    players: dict[int, Player] = field(default_factory=dict)
    #: The legal plays of the current roll as views, kept for the action number they belong to.
    legal_cache: tuple[int, list[LegalPlay], StepTreeOut] | None = None
    #: The number of the turn now (see the module's docstring).
    turn_no: int = 0
    #: The turn in which each seat last offered to resign (-1: never).
    offered_in: list[int] = field(default_factory=lambda: [-1, -1])
    _turn_mark: tuple[int, int] = (0, 0)
    #: How the seed gives the rolls: ``"dice"`` or ``"cards"`` (the rule texts' two piles).
    draw: str = "dice"

    def __post_init__(self) -> None:
        self.dice = CryptoDice(self.seed, draw=self.draw)
        self.match = Match(self.rules, self.dice, games_limit=self.games_limit)
        self.session = Session(self.match, (Person(), Person()))  # a computer is seated when first asked
        self._turn_mark = (len(self.match.games), self.game.turn)

    @classmethod
    def from_record(cls, rec: GameRecord, outages: Outages | None = None) -> LiveGame:
        """The game of a stored record, before its actions; its clock leaves ``outages`` out."""
        settings = rec.settings
        # Games stored before the opening option played the opening dice in every variant.
        rules = rules_from_data({"opening": "use-opening-dice", **settings["rules"]})
        return cls(
            rec.id, rules, settings.get("games_limit"), [dict(s) for s in rec.seats],
            rec.seat_token_hashes, bytes.fromhex(rec.dice_seed), rec.commitment, rec.status,
            rec.version, rec.created_at, rec.updated_at, rec.invite_token_hash, rec.invite_used,
            # Games stored before the setting existed: hints were open against the computer only.
            bool(settings.get("hints", rec.has_computer)), rec.public, rec.rematch_id,
            settings.get("rematch_of"),
            Clock(ClockSettings(float(settings["clock"]["delay"]), float(settings["clock"]["reserve"])),
                  outages if outages is not None else Outages())
            if settings.get("clock") else None,
            draw=str(settings.get("dice", "dice")),  # games stored before card dice threw dice
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
        action = action_from_dict(rec.data, self.rules.variant)  # a timeout too: core scores it
        if isinstance(action, Roll):
            assert action.dice is not None
            expected = self.dice.roll()
            if expected != action.dice:
                raise GammonError(f"game {self.id}: stored roll {rec.seq} is {action.dice}, "
                                  f"but the seed gives {expected}")
            self.rolls.append(action.dice)
        self.submit(action)
        self.actions.append(rec)
        self.after_action(rec)

    def submit(self, action: Action, *, start_next: bool = True) -> list[Event]:
        """Submit ``action`` to the session (between games, and with ``start_next``, the next game
        is started first with ``NewGame``: the service's roll between games does that); the match's
        events of ``action``, as stored (the session's ``game-start`` announcements are its
        narration, not the record's).

        :raises GammonError: core refused the action (``IllegalActionError``); a refused action
            changes nothing, but the next game, once started, stays started.
        """
        if start_next and self.between_games():
            self.session.submit(NewGame())  # the service's roll between games starts the next one
        return [e for e in self.session.submit(action) if not isinstance(e.payload, GameStart)]

    def after_action(self, rec: ActionRecord) -> None:
        """Keep the turn count and the clock in step with a stored action (its time comes from the store)."""
        mark = (len(self.match.games), self.game.turn)
        if mark != self._turn_mark:
            self._turn_mark = mark
            self.turn_no += 1
        if rec.kind == "resign" and rec.player in (0, 1):
            self.offered_in[rec.player] = self.turn_no
        if self.clock is not None:
            self.clock.charge(rec.created_at, self.turn_owner(), self.turn_no)

    def may_offer_resignation(self, seat: int) -> bool:
        """Whether ``seat`` may offer to resign now as far as the service goes: once per turn."""
        return self.offered_in[seat] != self.turn_no

    @property
    def is_over(self) -> bool:
        """The match is over: played out, or lost on time."""
        return self.match.is_over

    @property
    def forfeit(self) -> int | None:
        """The seat that ran out of time and so lost the match (core's :attr:`Match.timed_out`)."""
        return self.match.timed_out

    def turn_owner(self) -> int | None:
        """The seat the rules wait for now, whatever the stored status (None: either or nobody):
        the session's pending decision, where it is one seat's (the opening roll is either's)."""
        decision = self.session.pending
        if decision is None or decision.kind in (DecisionKind.OPENING_ROLL, DecisionKind.NEXT_GAME):
            return None
        return decision.player

    def update_meta(self, rec: GameRecord) -> None:
        self.seats = [dict(s) for s in rec.seats]
        self.status = rec.status
        self.version = rec.version
        self.updated_at = rec.updated_at
        self.token_hashes = rec.seat_token_hashes
        self.invite_hash, self.invite_used = rec.invite_token_hash, rec.invite_used
        self.rematch_id, self.public = rec.rematch_id, rec.public

    def seat_of(self, token: str | None) -> int | None:
        """The seat that ``token`` holds, or None."""
        if not token:
            return None
        for seat, stored in enumerate(self.token_hashes):
            if same_hash(token, stored):
                return seat
        return None

    def is_invitation(self, token: str | None) -> bool:
        """Whether ``token`` is this game's invitation (open or used)."""
        return bool(token) and same_hash(str(token), self.invite_hash)

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
        decision = self.session.pending
        return decision is not None and decision.kind is DecisionKind.NEXT_GAME

    def to_act(self) -> int | None:
        """The seat that must act now; None when either may (the opening roll) or nobody."""
        if self.status != "active":
            return None
        return self.turn_owner()

    def computer_due(self) -> int | None:
        """The computer's seat when it must act now, else None (people roll the opening)."""
        who = self.to_act()
        return who if who is not None and self.is_computer(who) else None

    def computer_level(self, seat: int) -> str:
        """The level of the computer in ``seat`` (a seat stored without one plays the default)."""
        return str(self.seats[seat].get("level") or DEFAULT_LEVEL)

    def opponent_level(self) -> str | None:
        """The level of the computer seat, the level hints are given at; None between people."""
        for seat in range(len(self.seats)):
            if self.is_computer(seat):
                return self.computer_level(seat)
        return None

    def computer_player(self, seat: int, factory: Callable[[str, int | None], Player]) -> Player:
        """The computer player of ``seat`` (made by ``factory`` once), seated in the session."""
        player = self.players.get(seat)
        if player is None:
            player = self.players[seat] = factory(self.computer_level(seat), computer_seed(self.seed, seat))
        if self.session.seats[seat] is not player:
            seats = list(self.session.seats)
            seats[seat] = player
            self.session.seats = (seats[0], seats[1])
        return player

    def computer_action(self, factory: Callable[[str, int | None], Player]) -> Action | None:
        """The action the computer chooses now (asked by the session; nothing is applied), or None
        when no computer seat must act."""
        seat = self.computer_due()
        if seat is None:
            return None
        self.computer_player(seat, factory)
        return self.session.ask()


__all__ = ["TIMEOUT", "LiveGame"]
