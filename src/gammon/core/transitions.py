"""How a :class:`~gammon.core.game.Game` carries out each action: the checks first, then the change.

:meth:`Game.apply <gammon.core.game.Game.apply>` looks the action's type up in
:data:`HANDLERS` and calls its handler with the game.  Each handler refuses an
action that is not legal now with an :class:`IllegalActionError` before it
changes anything, and returns the events an interface shows with the action as
it goes into the record (a roll with the dice it used, a move with its play).
The handlers are the game's own: they read and change its state directly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gammon.core import events as ev
from gammon.core.actions import (
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    Double,
    Drop,
    Event,
    GameResult,
    Move,
    RejectResignation,
    Resign,
    Roll,
    Take,
    Timeout,
)
from gammon.core.cube import CubeOwner
from gammon.core.errors import GammonError, IllegalActionError, Reason
from gammon.core.phase import BONUS_CHOOSE, BONUS_DOUBLE, BONUS_ONE_TWO, PHASE_REASON, Phase
from gammon.core.plays import Play
from gammon.core.position import Position, ResultKind, check_dice

if TYPE_CHECKING:
    from gammon.core.game import Game


def _need(game: Game, phases: tuple[Phase, ...], player: int, who: int, what: str,
          wrong_phase: Reason | None = None) -> None:
    if game.phase not in phases:
        raise IllegalActionError(f"cannot {what} now: the game is in the {game.phase.value} phase",
                                 wrong_phase or PHASE_REASON[game.phase])
    if player != who:
        raise IllegalActionError(
            f"cannot {what}: it is player {who}'s turn to act, not player {player}'s", Reason.OUT_OF_TURN)


def _draw(game: Game, dice: tuple[int, int] | None) -> tuple[int, int]:
    if dice is not None:
        try:
            return check_dice(dice)
        except GammonError as exc:
            raise IllegalActionError(str(exc), Reason.BAD_VALUE) from None
    if game.dice is None:
        raise IllegalActionError("no dice source: give the dice with the roll", Reason.BAD_VALUE)
    return check_dice(game.dice.roll())


def on_roll(game: Game, a: Roll) -> tuple[list[Event], Action]:
    if game.phase is Phase.OPENING:
        return _opening_roll(game, a)
    _need(game, (Phase.ROLL,), a.player, game.turn, "roll")
    dice = _draw(game, a.dice)
    return _start_move(game, dice), Roll(a.player, dice)


def _opening_roll(game: Game, a: Roll) -> tuple[list[Event], Action]:
    # "Each player throws one die; equal throws are thrown again; the higher
    # die starts and plays both numbers."
    d0, d1 = _draw(game, a.dice)
    rec = Roll(a.player, (d0, d1))
    if d0 == d1:
        events = [Event.of(None, f"both players threw {d0}: throw again", ev.OpeningTie((d0, d1)))]
        r = game.rules
        if (r.is_money and r.uses_cube and game.auto_doubles < r.automatic_doubles
                and game.cube_value * 2 <= r.cube_limit):
            # Automatic doubles: each equal opening throw doubles the cube (it stays centred).
            game.auto_doubles += 1
            game.cube_value *= 2
            events.append(Event.of(None, f"automatic double: the cube is now {game.cube_value}",
                                   ev.AutoDouble(game.cube_value)))
        return events, rec
    game.turn = 0 if d0 > d1 else 1
    if game.turn == 1:
        game.position = game.position.swap()
    if game.rules.rerolls_opening:
        # Norwegian rules' option: "the first player throws his dice anew for the first move".
        game.phase = Phase.ROLL
        return [Event.of(game.turn,
                         f"player 0 threw {d0}, player 1 threw {d1}: player {game.turn} starts"
                         " and throws both dice", ev.Opening((d0, d1), reroll=True))], rec
    hi, lo = max(d0, d1), min(d0, d1)
    events = [Event.of(game.turn, f"player 0 threw {d0}, player 1 threw {d1}: player {game.turn} starts",
                       ev.Opening((d0, d1)))]
    return events + _start_move(game, (hi, lo)), rec


def _start_move(game: Game, dice: tuple[int, int]) -> list[Event]:
    game.rolled = dice
    game.phase = Phase.MOVE
    if game.rules.variant.acey_deucey_bonus and game.bonus is None and sorted(dice) == [1, 2]:
        game.bonus = BONUS_ONE_TWO
    events = [Event.of(game.turn, f"player {game.turn} rolled {dice[0]}-{dice[1]}", ev.Rolled(dice))]
    if not game.position.legal_plays(dice):
        events.append(Event.of(game.turn, f"player {game.turn} cannot move", ev.NoMove()))
        events += _after_play(game, Play((), game.position))
    return events


def _resolve_play(game: Game, given: Play | Position | str) -> Play:
    assert game.rolled is not None
    plays = game.position.legal_plays(game.rolled)
    if isinstance(given, str):
        try:
            return game.position.parse_play(given, game.rolled)
        except GammonError as exc:
            raise IllegalActionError(str(exc), Reason.ILLEGAL_PLAY) from None
    target = given.position if isinstance(given, Play) else given
    # Compare resulting positions only: building every Play is the slow part.
    try:
        return plays[plays.positions().index(target)]
    except ValueError:
        pass
    if game.rules.variant.starts_in_pool and target.variant == game.rules.variant:
        # A position read from a Position ID carries no pool; from one position the
        # board alone decides the pool, so the board names the play.
        boards = [p.board for p in plays.positions()]
        if target.board in boards:
            return plays[boards.index(target.board)]
    raise IllegalActionError(
        f"that play is not legal for {game.rolled[0]}-{game.rolled[1]}", Reason.ILLEGAL_PLAY
    )


def on_move(game: Game, a: Move) -> tuple[list[Event], Action]:
    _need(game, (Phase.MOVE,), a.player, game.turn, "move")
    play = _resolve_play(game, a.play)
    events = [Event.of(game.turn, f"player {game.turn} played {play or 'nothing'}", ev.Played(str(play)))]
    return events + _after_play(game, play), Move(a.player, play)


def _after_play(game: Game, play: Play) -> list[Event]:
    game.plays.append(play)
    game.position = play.position
    outcome = game.position.outcome
    if outcome is not None:
        game.bonus = None
        return _finish(game, game.turn if outcome.winner_is_me else 1 - game.turn, outcome.kind)
    bonus, game.bonus = game.bonus, None
    # Acey-Deucey: "if both the 1 and the 2 were legally played, the player's chosen
    # double follows; if all four of those moves were played too, the dice are
    # thrown again".  What cannot be played ends the sequence.
    if bonus == BONUS_ONE_TWO and play.dice_used == 2:
        game.bonus = BONUS_CHOOSE
        game.rolled = None
        game.phase = Phase.CHOOSE_DOUBLE
        return [Event.of(game.turn, f"acey-deucey: player {game.turn} names a double",
                         ev.ChooseDoubleNow())]
    if bonus == BONUS_DOUBLE and play.dice_used == 4:
        game.rolled = None
        game.phase = Phase.ROLL
        return [Event.of(game.turn, f"player {game.turn} rolls again", ev.RollAgain())]
    game.turn = 1 - game.turn
    game.position = game.position.swap()
    game.rolled = None
    game.phase = Phase.ROLL
    return [Event.of(game.turn, f"player {game.turn} is on roll", ev.Turn())]


def on_choose_double(game: Game, a: ChooseDouble) -> tuple[list[Event], Action]:
    _need(game, (Phase.CHOOSE_DOUBLE,), a.player, game.turn, "choose a double")
    events = [Event.of(game.turn, f"player {game.turn} plays double {a.number}s", ev.ChoseDouble(a.number))]
    game.bonus = BONUS_DOUBLE
    return events + _start_move(game, (a.number, a.number)), a


def on_double(game: Game, a: Double) -> tuple[list[Event], Action]:
    refusal = game._double_refusal(a.player)
    if refusal is not None:
        raise refusal
    game.phase = Phase.DOUBLED
    game.doubled_by = a.player
    return [Event.of(a.player, f"player {a.player} doubles to {game.cube_value * 2}",
                     ev.Doubled(game.cube_value * 2))], a


def _answerer(game: Game) -> int:
    """Who answers the pending double: the doubled player, or after a beaver the doubler."""
    return game.turn if game.phase is Phase.BEAVERED else 1 - game.turn


def on_take(game: Game, a: Take) -> tuple[list[Event], Action]:
    _need(game, (Phase.DOUBLED, Phase.BEAVERED), a.player, _answerer(game), "take",
          Reason.NO_DOUBLE_PENDING)
    game.cube_value *= 2
    if game.phase is Phase.DOUBLED:
        game.cube_owner = CubeOwner(a.player)
        text = f"player {a.player} takes; the cube is {game.cube_value}"
    else:
        # "The game goes on at four times the cube before the double; the beaverer
        # owns the cube."  (The beaver already made the beaverer its owner.)
        text = (f"player {a.player} takes the beaver; the cube is {game.cube_value}, "
                f"owned by player {int(game.cube_owner)}")
    game.phase = Phase.ROLL
    game.doubled_by = None
    game.beavered = False  # a taken beaver is no longer pending
    return [Event.of(a.player, text, ev.Took(game.cube_value))], a


def on_beaver(game: Game, a: Beaver) -> tuple[list[Event], Action]:
    if game.phase not in (Phase.DOUBLED, Phase.BEAVERED):
        _need(game, (Phase.DOUBLED,), a.player, 1 - game.turn, "beaver", Reason.NO_DOUBLE_PENDING)
    refusal = game._beaver_refusal(a.player)
    if refusal is not None:
        raise refusal
    # "After a beaver the original doubler answers it": the beaverer has taken at
    # twice the cube (and owns it) and redoubles at once.
    game.cube_value *= 2
    game.cube_owner = CubeOwner(a.player)
    game.beavered = True
    game.phase = Phase.BEAVERED
    return [Event.of(a.player, f"player {a.player} beavers: player {game.turn} takes at "
                     f"{game.cube_value * 2} or drops for {game.cube_value}",
                     ev.Beavered(game.cube_value * 2))], a


def on_drop(game: Game, a: Drop) -> tuple[list[Event], Action]:
    _need(game, (Phase.DOUBLED, Phase.BEAVERED), a.player, _answerer(game), "drop",
          Reason.NO_DOUBLE_PENDING)
    # "A drop ends the game at the cube before the double"; a dropped beaver costs
    # the doubler twice the cube before his double (the cube the beaverer took).
    events = [Event.of(a.player, f"player {a.player} drops", ev.Dropped())]
    return events + _finish(game, 1 - a.player, ResultKind.SINGLE, dropped=True), a


def on_resign(game: Game, a: Resign) -> tuple[list[Event], Action]:
    if game.phase in (Phase.RESIGNED, Phase.OPENING, Phase.BEAVERED):
        # After a beaver the doubler takes or drops (a drop is his resignation).
        raise IllegalActionError(f"cannot resign in the {game.phase.value} phase",
                                 PHASE_REASON[game.phase])
    if a.player != game.player_to_act:
        raise IllegalActionError(f"cannot resign: it is player {game.player_to_act}'s turn to act",
                                 Reason.OUT_OF_TURN)
    kind = ResultKind(a.kind)
    game.resignation = (a.player, kind)
    game.resigned_from = game.phase
    game.phase = Phase.RESIGNED
    return [Event.of(a.player, f"player {a.player} offers to resign a {kind.name.lower()}",
                     ev.Resigned(kind.name.lower()))], Resign(a.player, kind)


def on_accept(game: Game, a: AcceptResignation) -> tuple[list[Event], Action]:
    if game.phase is not Phase.RESIGNED or game.resignation is None:
        raise IllegalActionError("cannot accept: no resignation is offered", Reason.NO_RESIGN_PENDING)
    who, kind = game.resignation
    if a.player != 1 - who:
        raise IllegalActionError(f"cannot accept: only player {1 - who} may answer the resignation",
                                 Reason.OUT_OF_TURN)
    events = [Event.of(a.player, f"player {a.player} accepts", ev.ResignationAccepted())]
    game.bonus = None
    return events + _finish(game, 1 - who, kind, resigned=True), a


def on_reject(game: Game, a: RejectResignation) -> tuple[list[Event], Action]:
    if game.phase is not Phase.RESIGNED or game.resignation is None:
        raise IllegalActionError("cannot reject: no resignation is offered", Reason.NO_RESIGN_PENDING)
    who, _ = game.resignation
    if a.player != 1 - who:
        raise IllegalActionError(f"cannot reject: only player {1 - who} may answer the resignation",
                                 Reason.OUT_OF_TURN)
    assert game.resigned_from is not None
    game.phase = game.resigned_from
    game.resignation = None
    game.resigned_from = None
    return [Event.of(a.player, f"player {a.player} rejects; play on", ev.ResignationRejected())], a


def on_timeout(game: Game, a: Timeout) -> tuple[list[Event], Action]:
    # A game clock runs only for the player the game waits for (not in the opening,
    # where both throw at once).  "A player whose time runs out loses the match": in
    # match play the opponent scores what is still missing to win it, in a money session
    # the game at the cube as a single game, and the session ends there (see Match).
    if game.phase is Phase.OPENING:
        raise IllegalActionError("nobody's time runs during the opening roll", Reason.NOT_ROLLED)
    if a.player != game.player_to_act:
        raise IllegalActionError(
            f"only the player the game waits for can run out of time: player {game.player_to_act},"
            f" not player {a.player}", Reason.OUT_OF_TURN)
    winner = 1 - a.player
    length = game.rules.match_length
    points = length - game.score[winner] if length else game.cube_value
    events = [Event.of(a.player, f"player {a.player} ran out of time and loses the match", ev.TimedOut())]
    game.resignation = None
    game.resigned_from = None
    game.bonus = None
    return events + _finish(game, winner, ResultKind.SINGLE, timeout_points=points), a


def _finish(game: Game, winner: int, kind: ResultKind, *, resigned: bool = False,
            dropped: bool = False, timeout_points: int | None = None) -> list[Event]:
    loser_row = game.position.me if winner != game.turn else game.position.opp
    left = sum(loser_row)
    timeout = timeout_points is not None
    points = timeout_points if timeout_points is not None else game.points_for(kind, left)
    game.result = GameResult(winner, kind, game.cube_value, points, resigned, dropped, left, timeout)
    game.phase = Phase.OVER
    game.rolled = None
    game.doubled_by = None
    how = "drop" if dropped else "on time" if timeout else kind.name.lower()
    return [Event.of(winner, f"player {winner} wins {points} point{'s' if points != 1 else ''} ({how})",
                     ev.GameOver(points, kind.name.lower(), timeout))]


_Handler = Callable[["Game", Any], tuple[list[Event], Action]]
#: The handler of each action type (``NewGame`` is the match's, not the game's).
HANDLERS: dict[type, _Handler] = {
    Roll: on_roll,
    Move: on_move,
    Double: on_double,
    Take: on_take,
    Drop: on_drop,
    Beaver: on_beaver,
    Resign: on_resign,
    AcceptResignation: on_accept,
    RejectResignation: on_reject,
    ChooseDouble: on_choose_double,
    Timeout: on_timeout,
}
