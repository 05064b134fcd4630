"""Sessions: a game or a match between two players, driven to its end.

A session asks the player who must act (``game.player_to_act``) for a
decision, turns it into an action (:mod:`gammon.core.game`), applies it and
hands every event the game returns to ``on_event`` (interfaces render them).
All phases are handled:

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

:func:`next_action` is the one-decision step, for interfaces that mix bots
with people; :func:`play_game` and :func:`play_match` run to the end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gammon.core.cube import CubeAction
from gammon.core.errors import GammonError
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
from gammon.formats.record_actions import action_name
from gammon.play.players import Player

EventCallback = Callable[[Event], None]

#: A game that takes more actions than this is stopped: some player never ends it.
MAX_ACTIONS_PER_GAME = 100_000


def _check_players(players: Sequence[Player]) -> None:
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
        me = game.turn
        player = players[me]
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


def _emit(events: list[Event], on_event: EventCallback | None) -> None:
    if on_event is not None:
        for e in events:
            on_event(e)


def play_game(
    game: Game, players: Sequence[Player], on_event: EventCallback | None = None,
) -> GameResult:
    """Play ``game`` (which has a dice source) to its end between ``players[0]`` and ``players[1]``.

    :raises GammonError: a player chose something illegal, or the game never ends.
    """
    _check_players(players)
    while not game.is_over:
        if len(game.record) >= MAX_ACTIONS_PER_GAME:
            raise GammonError(f"the game did not end within {MAX_ACTIONS_PER_GAME} actions")
        _emit(game.apply(next_action(game, players)), on_event)
    assert game.result is not None
    return game.result


def _game_start_event(match: Match) -> Event:
    game = match.game
    number = len(match.games)
    text = f"game {number} begins, score {match.score[0]}-{match.score[1]}"
    if match.length:
        text += f" in a {match.length}-point match"
    if game.crawford_game:
        text += " (Crawford game)"
    return Event.of(None, text, GameStart(number, (match.score[0], match.score[1]), game.crawford_game))


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
    while True:
        _emit([_game_start_event(match)], on_event)
        game = match.game
        while not game.is_over:
            if len(game.record) >= MAX_ACTIONS_PER_GAME:
                raise GammonError(f"the game did not end within {MAX_ACTIONS_PER_GAME} actions")
            _emit(match.apply(next_action(game, players)), on_event)
        if match.is_over or (games_limit is not None and len(match.games) >= games_limit):
            return match
        _emit(match.apply(NewGame()), on_event)


__all__ = ["EventCallback", "MAX_ACTIONS_PER_GAME", "next_action", "play_game", "play_match"]
