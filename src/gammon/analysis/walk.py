"""Walk a match record and list the decisions to analyse, in order.

A record is the list of actions of each game (:class:`~gammon.core.match.Match`
replays it).  Replaying it action by action, each decision a player made is
turned into a self-contained task (position, cube, score, dice, what was
done) that can be valued anywhere, in any order, in another process:

* :class:`CubeTask`: the player on roll could double, and did or did not;
* :class:`TakeTask`: the opponent answered a double (take, pass, beaver);
* :class:`RollTask`: the dice were rolled (luck) and played (checker play);
* :class:`ResignTask`: a resignation was offered, accepted or rejected;
* :class:`ChoiceTask`: Acey-Deucey's double named after a 1-2.

A beaver is valued as a take at twice the cube (money play).  Resignations
are not analysed where the loser pays per checker left (Acey-Deucey: the
engine values games as single games, gammons and backgammons), nor one
offered while a double is to be named.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from gammon.ai.cube import CubeInfo
from gammon.core.cube import CubeAction
from gammon.core.errors import GammonError
from gammon.core.game import (
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
from gammon.core.position import Position
from gammon.formats.record_actions import action_name


@dataclass(frozen=True, slots=True)
class Task:
    """Where a decision happened: game ``game`` (from 0), turn ``turn`` (from 1), by ``player``.

    ``position`` is seen from ``player``'s side (for a :class:`TakeTask`, from
    the doubler's side); ``info`` is the cube and score from the same side.
    """

    game: int
    turn: int
    player: int
    position: Position
    info: CubeInfo


@dataclass(frozen=True, slots=True)
class CubeTask(Task):
    """The player on roll could double: ``doubled`` says whether he did."""

    doubled: bool = False


@dataclass(frozen=True, slots=True)
class TakeTask(Task):
    """``player`` answered a double by ``1 - player``; ``answer``: take, pass or beaver."""

    answer: CubeAction = CubeAction.TAKE


@dataclass(frozen=True, slots=True)
class RollTask(Task):
    """``player`` rolled ``dice`` and played to ``played`` (his side; None: nothing legal).

    ``opening``: the opening roll (no doubles among the possible rolls);
    ``chosen``: Acey-Deucey's double chosen after 1-2 (a choice, not luck).
    """

    dice: tuple[int, int] = (1, 1)
    played: Position | None = None
    play_text: str = ""
    opening: bool = False
    chosen: bool = False


@dataclass(frozen=True, slots=True)
class ResignTask(Task):
    """A resignation: offered by ``resigner`` (``answer`` ``offer``, ``player`` the resigner) or
    answered by the other (``accept`` or ``reject``, ``player`` the one who answered).

    ``kind``: what was offered (1 single game, 2 gammon, 3 backgammon).  ``phase``:
    what the game waited for when it was offered: ``roll`` (the resigner on roll,
    before rolling or doubling), ``move`` (he rolled ``dice``) or ``doubled`` (he
    was doubled and resigned instead of answering).  ``position`` and ``info``
    are seen from ``on_roll``, the player whose turn it was (the doubler for
    ``doubled``).
    """

    answer: str = "offer"
    resigner: int = 0
    kind: int = 1
    phase: str = "roll"
    on_roll: int = 0
    dice: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class ChoiceTask(Task):
    """Acey-Deucey: ``player`` played his 1-2 and named the double ``number`` (``position``: his view)."""

    number: int = 6


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game's start and end: the score before it and who won what."""

    index: int
    score: tuple[int, int]
    crawford: bool
    winner: int | None
    points: int
    resigned: bool = False
    dropped: bool = False




def _info(game: Game, player: int) -> CubeInfo:
    return CubeInfo.from_game(game, player)


def walk(rules: Rules, games: Sequence[Sequence[Action]], games_limit: int | None = None
         ) -> tuple[list[Task], list[GameSummary]]:
    """The decisions of a record, in order, and a summary of each game.

    :raises GammonError: a record the rules refuse (the message says where).
    """
    match = Match(rules, None, games_limit=games_limit)
    tasks: list[Task] = []
    summaries: list[GameSummary] = []
    for gi, actions in enumerate(games):
        if gi > 0:
            if not match.game.is_over:
                raise GammonError(f"game {gi} does not end but another game follows it")
            match.next_game()
        game = match.game
        turn = 0
        pending_roll: tuple[int, Position, CubeInfo, tuple[int, int], bool, bool] | None = None
        asked = False  # the cube decision of this turn has been listed
        offered: ResignTask | None = None  # the resignation waiting for its answer
        for ai, action in enumerate(actions):
            where = f"game {gi + 1}, action {ai + 1}"
            phase = game.phase
            if phase is Phase.ROLL and isinstance(action, Roll | Double) and not asked:
                p = game.turn
                if game.can_double(p):
                    tasks.append(CubeTask(gi, turn + 1, p, game.position, _info(game, p),
                                          doubled=isinstance(action, Double)))
                asked = True
            if isinstance(action, Take | Drop | Beaver) and phase is Phase.DOUBLED:
                doubler = game.turn
                # The record's take/drop/beaver as a CubeAction: a refused double reads "pass", as
                # the field writes it.
                answer = CubeAction.parse(action_name(action))
                tasks.append(TakeTask(gi, turn + 1, 1 - doubler, game.position, _info(game, doubler),
                                      answer=answer))
            if isinstance(action, Resign) and phase in (Phase.ROLL, Phase.MOVE, Phase.DOUBLED) \
                    and action.player == game.player_to_act and not rules.variant.pays_per_checker:
                on_roll = game.turn
                offered = ResignTask(gi, turn + 1, action.player, game.position, _info(game, on_roll),
                                     answer="offer", resigner=action.player, kind=int(action.kind),
                                     phase=phase.value, on_roll=on_roll,
                                     dice=game.rolled if phase is Phase.MOVE else None)
                tasks.append(offered)
            elif isinstance(action, AcceptResignation | RejectResignation) and offered is not None \
                    and phase is Phase.RESIGNED and action.player == 1 - offered.resigner:
                answered = action_name(action)  # accept or reject
                tasks.append(replace(offered, player=action.player, answer=answered))
                offered = None
            if isinstance(action, ChooseDouble) and phase is Phase.CHOOSE_DOUBLE and action.player == game.turn:
                tasks.append(ChoiceTask(gi, turn + 1, action.player, game.position, _info(game, action.player),
                                        number=action.number))
            before = game.position
            try:
                match.apply(action)
            except GammonError as exc:
                raise GammonError(f"{where}: {exc}") from None
            if isinstance(action, Roll):
                if game.phase is Phase.OPENING:
                    continue  # an opening tie: thrown again
                opening = phase is Phase.OPENING
                rec = game.record[-1]
                assert isinstance(rec, Roll) and rec.dice is not None
                if game.phase is Phase.MOVE:
                    assert game.rolled is not None
                    p = game.turn
                    pending_roll = (p, game.position, _info(game, p), game.rolled, opening, False)
                    continue
                # Nothing legal: the turn passed at once.
                d0, d1 = rec.dice
                if opening:
                    p = 0 if d0 > d1 else 1
                    start = before if p == 0 else before.swap()
                    dice = (max(d0, d1), min(d0, d1))
                else:
                    p, start, dice = action.player, before, (d0, d1)
                turn += 1
                tasks.append(RollTask(gi, turn, p, start, _info(game, p), dice=dice, played=None,
                                      play_text="", opening=opening))
                asked = False
            elif isinstance(action, ChooseDouble):
                p = action.player
                n = action.number
                if game.phase is Phase.MOVE and game.rolled is not None:
                    pending_roll = (p, game.position, _info(game, p), game.rolled, False, True)
                else:  # the chosen double could not be played: the turn went on at once
                    turn += 1
                    tasks.append(RollTask(gi, turn, p, before, _info(game, p), dice=(n, n), played=None,
                                          play_text="", chosen=True))
            elif isinstance(action, Move):
                rec = game.record[-1]
                assert isinstance(rec, Move)
                play = rec.play
                if pending_roll is None:
                    raise GammonError(f"{where}: a play without a roll")
                p, start, info, dice, opening, chosen = pending_roll
                after = play.position if not isinstance(play, Position | str) else None
                text = str(play)
                turn += 1
                tasks.append(RollTask(gi, turn, p, start, info, dice=dice, played=after, play_text=text,
                                      opening=opening, chosen=chosen))
                pending_roll = None
                if game.phase is Phase.MOVE:  # Acey-Deucey: a bonus double follows at once
                    assert game.rolled is not None
                    pending_roll = (game.turn, game.position, _info(game, game.turn), game.rolled, False, True)
                if game.phase is Phase.ROLL:
                    asked = False
        res = game.result
        summaries.append(GameSummary(
            gi, (game.score[0], game.score[1]), game.crawford_game,
            None if res is None else res.winner, 0 if res is None else res.points,
            bool(res and res.resigned), bool(res and res.dropped)))
    return tasks, summaries


__all__ = ["ChoiceTask", "CubeTask", "GameSummary", "ResignTask", "RollTask", "TakeTask", "Task", "walk"]
