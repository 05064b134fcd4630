"""The session: the one driver of a game or a match, whoever fills the seats.

A :class:`Session` holds a :class:`~gammon.core.match.Match` (or a lone
:class:`~gammon.core.game.Game`) and two seats.  It says which decision is
pending and for whom (:attr:`Session.pending`, a typed :class:`Decision`),
takes an action for it (:meth:`Session.submit`, checked by core: an illegal
or out-of-turn action raises core's :class:`~gammon.core.errors.IllegalActionError`
and changes nothing) and hands out what happened as typed events
(:class:`~gammon.core.events.Event`; ``event.payload`` is the kind's dataclass),
both as ``submit``'s result and to ``on_event``.  Every interface drives a
match through it and none keeps a loop of its own: the terminal
(:mod:`gammon.cli.terminal`), the server (each live game's session,
:mod:`gammon.web.service.live`: a person's actions by REST or WebSocket are
submitted, the computer's seat is asked), self-play (:mod:`gammon.play.selfplay`),
the external player (:mod:`gammon.play.external`: a one-decision session per
board line, and :class:`~gammon.play.external.RemotePlayer`, a remote program as
a seat), the analysis walk (:mod:`gammon.analysis.walk`: a record's actions
submitted for two persons), :func:`play_match` and :func:`play_game`.

A seat is a :class:`Person` (decisions arrive by ``submit``: a terminal
prompt, a socket) or a :class:`~gammon.play.players.Player` (the session asks
it: a bot, the engine, a remote program behind a player).  :meth:`Session.ask`
asks the seat of the pending decision; :meth:`Session.advance` submits the
automatic seats' decisions until a person must decide or play ends.

The questions a :class:`Player` is asked, phase by phase (:func:`next_action`):

* the opening roll (ties are thrown again by the game; player 0 throws for both);
* before each roll: an offer to resign (``Player.resign``), then the cube
  (``Player.cube_action``, asked only when ``game.can_double()``);
* a double: take, drop or beaver (``Player.answer_double``; a beaver only
  where the rules allow it, see :func:`gammon.play.players.can_beaver`);
  after a beaver the doubler answers it (``Player.answer_double`` again: take or drop);
* a resignation: accept or reject (``Player.answer_resignation``); after a
  rejection the resigner plays on and is not asked again before that roll;
* the move: ``Player.choose_play`` with the legal plays (a roll with no legal
  play passes by itself, with a ``no-move`` event);
* Acey-Deucey: the double named after a 1-2 (``Player.choose_double_number``).

Each game is announced by a ``game-start`` event (:class:`~gammon.core.events.GameStart`)
before its first action; between games the pending decision is
:attr:`DecisionKind.NEXT_GAME`, answered by ``submit(NewGame())``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from gammon.core.cube import CubeAction
from gammon.core.errors import GammonError, IllegalActionError, Reason
from gammon.core.events import GameStart
from gammon.core.game import (
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    DiceSource,
    Double,
    Drop,
    Event,
    Game,
    GameResult,
    Move,
    NewGame,
    Phase,
    RejectResignation,
    Resign,
    Roll,
    Rules,
    Take,
)
from gammon.core.match import Match
from gammon.core.position import ResultKind
from gammon.formats.record_actions import action_name
from gammon.play.players import Player

EventCallback = Callable[[Event], None]

#: A game that takes more actions than this is stopped: some player never ends it.
MAX_ACTIONS_PER_GAME = 100_000


# -- the pending decision --------------------------------------------------------------


class DecisionKind(StrEnum):
    """What the session waits for."""

    OPENING_ROLL = "opening-roll"  # the opening throw (player 0 throws for both)
    ROLL = "roll"  # roll, or double first when ``may_double``; or resign
    ANSWER_DOUBLE = "answer-double"  # take or drop (or beaver when ``may_beaver``); or resign
    ANSWER_BEAVER = "answer-beaver"  # the doubler takes or drops the beaver
    MOVE = "move"  # play the dice; or resign
    CHOOSE_DOUBLE = "choose-double"  # Acey-Deucey: name the double to play after a 1-2
    ANSWER_RESIGNATION = "answer-resignation"  # accept or reject the offer to resign
    NEXT_GAME = "next-game"  # a game is over and the match goes on: NewGame


_KIND_OF_PHASE: dict[Phase, DecisionKind] = {
    Phase.OPENING: DecisionKind.OPENING_ROLL, Phase.ROLL: DecisionKind.ROLL,
    Phase.DOUBLED: DecisionKind.ANSWER_DOUBLE, Phase.BEAVERED: DecisionKind.ANSWER_BEAVER,
    Phase.MOVE: DecisionKind.MOVE, Phase.CHOOSE_DOUBLE: DecisionKind.CHOOSE_DOUBLE,
    Phase.RESIGNED: DecisionKind.ANSWER_RESIGNATION,
}


@dataclass(frozen=True, slots=True)
class Decision:
    """The decision a session waits for: its ``kind``, the ``player`` who makes it (None for
    :attr:`DecisionKind.NEXT_GAME`: nobody in particular) and the game's number (1 is the first).

    ``dice``: the roll to play (``MOVE``); ``may_double``: the player may double before
    rolling (``ROLL``); ``may_beaver``: the player may beaver (``ANSWER_DOUBLE``);
    ``resignation``: who offered what (``ANSWER_RESIGNATION``).
    """

    kind: DecisionKind
    player: int | None
    game: int
    dice: tuple[int, int] | None = None
    may_double: bool = False
    may_beaver: bool = False
    resignation: tuple[int, ResultKind] | None = None


def decision_of(game: Game, number: int = 1) -> Decision | None:
    """The decision ``game`` (game ``number`` of its match) waits for; None once it is over."""
    kind = _KIND_OF_PHASE.get(game.phase)
    if kind is None:
        return None
    who = game.player_to_act
    return Decision(
        kind, who, number,
        dice=game.rolled if kind is DecisionKind.MOVE else None,
        may_double=kind is DecisionKind.ROLL and game.can_double(who),
        may_beaver=kind is DecisionKind.ANSWER_DOUBLE and game.can_beaver(who),
        resignation=game.resignation if kind is DecisionKind.ANSWER_RESIGNATION else None,
    )


# -- seats --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Person:
    """A seat whose decisions arrive by :meth:`Session.submit` (a prompt, a socket); never asked."""

    name: str = ""


#: Who fills a seat: a person, or a player the session asks (bot, engine, remote program).
Seat = Person | Player


# -- a player's answers as actions -------------------------------------------------------


def _check_players(players: Sequence[object]) -> None:
    if len(players) != 2:
        raise GammonError(f"a session needs two players, not {len(players)}")


#: The action of each answer to a double (or a beaver).
_ANSWER_ACTIONS: dict[CubeAction, type[Take | Drop | Beaver]] = {
    CubeAction.TAKE: Take, CubeAction.DROP: Drop, CubeAction.BEAVER: Beaver,
}


def _cube_word(reply: object) -> CubeAction | None:
    """The cube action a player's reply names (a :class:`CubeAction`, or its value or word), or None."""
    try:
        return CubeAction.parse(reply)
    except GammonError:
        return None


def _answer(reply: object, player: int, kinds: tuple[type, ...], what: str) -> Action:
    """The action a player's answer names (``TAKE``, ``DROP``, ``BEAVER``; the words ``take``,
    ``drop`` and ``beaver`` too, as the record layer names those actions)."""
    action = _ANSWER_ACTIONS.get(_cube_word(reply))  # type: ignore[arg-type]
    if action is None or action not in kinds:
        names = [action_name(k) for k in kinds]
        raise GammonError(f"{what} is answered {' or '.join(repr(n) for n in names)}, not {reply!r}")
    return action(player)


def _before_roll(game: Game, player: Player) -> Action:
    me = game.turn
    # Ask to resign once per roll: not again right after a rejection.
    if not (game.record and isinstance(game.record[-1], RejectResignation)):
        kind = player.resign(game)
        if kind is not None:
            return Resign(me, kind)
    if game.can_double():
        answer = player.cube_action(game)
        action = _cube_word(answer)
        if action is CubeAction.DOUBLE:
            return Double(me)
        if action is not CubeAction.NO_DOUBLE:
            raise GammonError(f"a cube action is 'double' or 'no-double', not {answer!r}")
    return Roll(me)


def next_action(game: Game, players: Sequence[Player]) -> Action:
    """The action that the player who must act now chooses (nothing is applied).

    :raises GammonError: the game is over, or a player answered with something
        that is not one of the allowed choices.
    """
    _check_players(players)
    phase = game.phase
    if phase is Phase.OPENING:
        return Roll(game.player_to_act)
    if phase is Phase.ROLL:
        return _before_roll(game, players[game.turn])
    if phase is Phase.DOUBLED:
        taker = 1 - game.turn
        return _answer(players[taker].answer_double(game), taker, (Take, Drop, Beaver), "a double")
    if phase is Phase.BEAVERED:
        # "After a beaver the original doubler answers it": take or drop, no raccoons.
        doubler = game.turn
        return _answer(players[doubler].answer_double(game), doubler, (Take, Drop), "a beaver (no raccoons)")
    if phase is Phase.MOVE:
        assert game.rolled is not None
        # The lazy sequence: a Play is only built when a player looks at it.
        plays = game.position.legal_plays(game.rolled)
        return Move(game.turn, players[game.turn].choose_play(game, plays))
    if phase is Phase.CHOOSE_DOUBLE:
        return ChooseDouble(game.turn, players[game.turn].choose_double_number(game))
    if phase is Phase.RESIGNED:
        assert game.resignation is not None
        who, kind = game.resignation
        if players[1 - who].answer_resignation(game, kind):
            return AcceptResignation(1 - who)
        return RejectResignation(1 - who)
    raise GammonError("the game is over")


# -- the session --------------------------------------------------------------------------


def _game_start_event(match: Match) -> Event:
    game = match.game
    number = len(match.games)
    text = f"game {number} begins, score {match.score[0]}-{match.score[1]}"
    if match.length:
        text += f" in a {match.length}-point match"
    if game.crawford_game:
        text += " (Crawford game)"
    return Event.of(None, text, GameStart(number, (match.score[0], match.score[1]), game.crawford_game))


class Session:
    """A match (or one game) between two seats, driven one decision at a time.

    ``match``: the match to drive (a lone :class:`Game` is driven to its end,
    with no ``game-start`` events).  ``seats``: player 0's and player 1's.
    ``on_event``: called with every event, in order, as :meth:`submit` returns them.
    A match with a ``games_limit`` stops after that many games (in match play too,
    leaving the match unfinished).

    :raises GammonError: not two seats.
    """

    def __init__(self, match: Match | Game, seats: Sequence[Seat] = (Person(), Person()), *,
                 on_event: EventCallback | None = None) -> None:
        _check_players(seats)
        self.match: Match | None = match if isinstance(match, Match) else None
        self._game = match if isinstance(match, Game) else None
        self.seats: tuple[Seat, Seat] = (seats[0], seats[1])
        self.on_event = on_event
        self._announced = 0  # the games announced by a game-start event so far

    @property
    def game(self) -> Game:
        """The game being played (the last one, between games)."""
        if self.match is not None:
            return self.match.game
        assert self._game is not None
        return self._game

    @property
    def number(self) -> int:
        """The current game's number (1 is the first)."""
        return len(self.match.games) if self.match is not None else 1

    @property
    def finished(self) -> bool:
        """Whether nothing is left to decide: the match (or lone game) is over, or the games limit is met."""
        if self.match is None:
            return self.game.is_over
        m = self.match
        return m.is_over or (m.game.is_over and m.games_limit is not None and len(m.games) >= m.games_limit)

    @property
    def pending(self) -> Decision | None:
        """The decision the session waits for; None when :attr:`finished`."""
        if self.finished:
            return None
        if self.game.is_over:
            return Decision(DecisionKind.NEXT_GAME, None, self.number)
        return decision_of(self.game, self.number)

    def allowed(self) -> list[Action]:
        """Every action :meth:`submit` accepts now (none once :attr:`finished`)."""
        if self.finished:
            return []
        return self.match.allowed_actions() if self.match is not None else self.game.allowed_actions()

    def is_person(self, player: int | None) -> bool:
        """Whether ``player``'s decisions come by :meth:`submit` (a :class:`Person` seat)."""
        return player is not None and isinstance(self.seats[player], Person)

    def begin(self) -> list[Event]:
        """Announce the current game (a ``game-start`` event) if that is not done yet."""
        if self.match is None or self._announced >= len(self.match.games):
            return []
        self._announced = len(self.match.games)
        return self._emit([_game_start_event(self.match)])

    def ask(self) -> Action:
        """The action the pending decision's seat chooses (nothing is applied).

        The opening throw and the next game need nobody's choice.

        :raises GammonError: nothing is pending, a person must decide, or the
            player answered with something not allowed.
        """
        decision = self.pending
        if decision is None:
            raise GammonError("the match is over: nothing is left to decide")
        if decision.kind is DecisionKind.NEXT_GAME:
            return NewGame()
        self._check_progress()
        if decision.kind is not DecisionKind.OPENING_ROLL and self.is_person(decision.player):
            raise GammonError(f"player {decision.player} is a person: their decision comes by submit")
        players = [s if not isinstance(s, Person) else _ASK_NO_PERSON for s in self.seats]
        return next_action(self.game, players)  # type: ignore[arg-type]

    def submit(self, action: Action) -> list[Event]:
        """Carry out ``action`` and return what happened (a ``game-start`` event first for a game
        not yet announced, and after the ``NewGame`` that starts it).

        :raises IllegalActionError: core refuses the action (out of turn, illegal, the
            match is over ...); nothing changes.
            A session whose games limit is met refuses everything the same way
            (``MATCH_OVER``).
        :raises GammonError: the game has run past :data:`MAX_ACTIONS_PER_GAME` actions.
        """
        if self.finished and self.match is not None and not self.match.is_over:
            raise IllegalActionError(f"the session's limit of {self.match.games_limit} games is reached",
                                     Reason.MATCH_OVER)
        self._check_progress()
        match = self.match
        if match is None:
            return self._emit(self.game.apply(action))
        # The announcement is made before the action changes the score, and sent only once it is accepted.
        start = [_game_start_event(match)] if self._announced < len(match.games) else []
        done = match.apply(action)
        if start:  # the game announced is the one before a NewGame
            self._announced = len(match.games) - isinstance(action, NewGame)
        return self._emit(start + done) + self.begin()

    def step(self) -> list[Event]:
        """Ask the pending decision's seat and submit its answer (:meth:`ask`, then :meth:`submit`)."""
        return self.submit(self.ask())

    def advance(self, *, next_games: bool = True) -> list[Event]:
        """Submit the seats' decisions until a person must decide or play ends; the events.

        ``next_games``: start each next game too (else stop between games).
        """
        events = self.begin()
        while (decision := self.pending) is not None:
            if decision.kind is DecisionKind.NEXT_GAME and not next_games:
                break
            if decision.kind is not DecisionKind.NEXT_GAME and self.is_person(decision.player):
                break
            events += self.step()
        return events

    def _check_progress(self) -> None:
        if len(self.game.record) >= MAX_ACTIONS_PER_GAME and not self.game.is_over:
            raise GammonError(f"the game did not end within {MAX_ACTIONS_PER_GAME} actions")

    def _emit(self, events: list[Event]) -> list[Event]:
        if self.on_event is not None:
            for e in events:
                self.on_event(e)
        return events


class _AskNoPerson:
    """Stands in for a person's seat in :func:`next_action`, which only asks the seat that acts."""

    def __getattr__(self, name: str) -> object:
        raise GammonError("a person's decision comes by submit: the session never asks it")


_ASK_NO_PERSON = _AskNoPerson()


# -- running to the end -------------------------------------------------------------------------


def play_game(
    game: Game, players: Sequence[Player], on_event: EventCallback | None = None,
) -> GameResult:
    """Play ``game`` (which has a dice source) to its end between ``players[0]`` and ``players[1]``.

    :raises GammonError: a player chose something illegal, or the game never ends.
    """
    Session(game, players, on_event=on_event).advance()
    assert game.result is not None
    return game.result


def play_match(
    rules: Rules,
    players: Sequence[Player],
    dice: DiceSource,
    games_limit: int | None = None,
    on_event: EventCallback | None = None,
) -> Match:
    """Play a match to ``rules.match_length`` (or a money session of ``games_limit`` games).

    Emits a ``game-start`` event before each game, then the games' events
    (``score`` after each game, ``match-over`` at the end).  In match play
    ``games_limit`` may stop the match early (the result is then unfinished).

    :raises GammonError: money play without ``games_limit``, a limit below 1, or
        a player that chose something illegal.
    """
    _check_players(players)
    if games_limit is not None and games_limit < 1:
        raise GammonError(f"games_limit must be at least 1, not {games_limit}")
    if rules.is_money and games_limit is None:
        raise GammonError("a money session needs a number of games (games_limit)")
    match = Match(rules, dice, games_limit=games_limit)
    Session(match, players, on_event=on_event).advance()
    return match


__all__ = [
    "MAX_ACTIONS_PER_GAME", "Decision", "DecisionKind", "EventCallback", "Person", "Seat", "Session",
    "decision_of", "next_action", "play_game", "play_match",
]
