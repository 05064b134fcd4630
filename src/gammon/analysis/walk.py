"""Walk a match record and list the decisions to analyse, in order.

A record is the list of actions of each game.  Replaying it action by action
through a :class:`~gammon.play.session.Session` whose seats are persons (the
recorded actions are submitted as a person's would be, and each step's pending
:class:`~gammon.play.session.Decision` says what was decided), each decision a player made is
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
    NewGame,
    RejectResignation,
    Resign,
    Roll,
    Rules,
    Take,
)
from gammon.core.match import Match
from gammon.core.position import Position
from gammon.formats.record_actions import action_name
from gammon.play.session import Decision, DecisionKind, Person, Session


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


#: The stored name of what the game waited for when a resignation was offered (:attr:`ResignTask.phase`).
_RESIGN_PHASES = {DecisionKind.ROLL: "roll", DecisionKind.MOVE: "move", DecisionKind.ANSWER_DOUBLE: "doubled"}

#: A roll waiting for its play: (player, position, cube info, dice, opening, chosen).
_PendingRoll = tuple[int, Position, CubeInfo, tuple[int, int], bool, bool]


class _Walk:
    """One record replayed through a :class:`Session` whose seats are persons: before each
    recorded action the pending :class:`Decision` says what was decided (the task listed),
    after it the next decision says what the action led to (a roll to play, a pass)."""

    def __init__(self, rules: Rules, games_limit: int | None) -> None:
        self.session = Session(Match(rules, None, games_limit=games_limit), (Person(), Person()))
        self.pays_per_checker = rules.variant.pays_per_checker
        self.tasks: list[Task] = []
        self.gi = 0  # the game (from 0)
        self.turn = 0  # the turns played in it
        self.pending_roll: _PendingRoll | None = None
        self.asked = False  # the cube decision of this turn has been listed
        self.offered: ResignTask | None = None  # the resignation waiting for its answer

    def start_game(self, gi: int) -> None:
        """Game ``gi`` begins: the session's ``NewGame`` after the first."""
        if gi > 0:
            decision = self.session.pending
            if decision is not None and decision.kind is not DecisionKind.NEXT_GAME:
                raise GammonError(f"game {gi} does not end but another game follows it")
            self.session.submit(NewGame())
        self.gi, self.turn, self.pending_roll, self.asked, self.offered = gi, 0, None, False, None

    def action(self, action: Action, where: str) -> None:
        """List the decision ``action`` answers, submit it, and follow what it led to."""
        decision = self.session.pending
        game = self.session.game
        if decision is not None:
            self._decided(game, decision, action)
        before = game.position
        try:
            self.session.submit(action)
        except GammonError as exc:
            raise GammonError(f"{where}: {exc}") from None
        after = self.session.pending
        if isinstance(action, Roll):
            self._rolled(game, action, before, opening=decision is not None and decision.kind is
                         DecisionKind.OPENING_ROLL, after=after)
        elif isinstance(action, ChooseDouble):
            self._chose(game, action, before, after)
        elif isinstance(action, Move):
            self._moved(game, where, after)

    def _decided(self, game: Game, decision: Decision, action: Action) -> None:
        kind, who, gi, turn = decision.kind, decision.player, self.gi, self.turn + 1
        if kind is DecisionKind.ROLL and isinstance(action, Roll | Double) and not self.asked:
            assert who is not None
            if decision.may_double:
                self.tasks.append(CubeTask(gi, turn, who, game.position, _info(game, who),
                                           doubled=isinstance(action, Double)))
            self.asked = True
        if isinstance(action, Take | Drop | Beaver) and kind is DecisionKind.ANSWER_DOUBLE:
            doubler = game.turn
            # The record's take/drop/beaver as a CubeAction: a refused double reads "pass", as the
            # field writes it.
            self.tasks.append(TakeTask(gi, turn, 1 - doubler, game.position, _info(game, doubler),
                                       answer=CubeAction.parse(action_name(action))))
        if isinstance(action, Resign) and kind in _RESIGN_PHASES and action.player == who \
                and not self.pays_per_checker:
            self.offered = ResignTask(gi, turn, action.player, game.position, _info(game, game.turn),
                                      answer="offer", resigner=action.player, kind=int(action.kind),
                                      phase=_RESIGN_PHASES[kind], on_roll=game.turn, dice=decision.dice)
            self.tasks.append(self.offered)
        elif isinstance(action, AcceptResignation | RejectResignation) and self.offered is not None \
                and kind is DecisionKind.ANSWER_RESIGNATION and action.player == 1 - self.offered.resigner:
            self.tasks.append(replace(self.offered, player=action.player, answer=action_name(action)))
            self.offered = None
        if isinstance(action, ChooseDouble) and kind is DecisionKind.CHOOSE_DOUBLE and action.player == who:
            self.tasks.append(ChoiceTask(gi, turn, action.player, game.position, _info(game, action.player),
                                         number=action.number))

    def _rolled(self, game: Game, action: Roll, before: Position, *, opening: bool,
                after: Decision | None) -> None:
        if after is not None and after.kind is DecisionKind.OPENING_ROLL:
            return  # an opening tie: thrown again
        rec = game.record[-1]
        assert isinstance(rec, Roll) and rec.dice is not None
        if after is not None and after.kind is DecisionKind.MOVE:
            assert after.dice is not None and after.player is not None
            p = after.player
            self.pending_roll = (p, game.position, _info(game, p), after.dice, opening, False)
            return
        # Nothing legal: the turn passed at once.
        d0, d1 = rec.dice
        if opening:
            p = 0 if d0 > d1 else 1
            start = before if p == 0 else before.swap()
            dice = (max(d0, d1), min(d0, d1))
        else:
            p, start, dice = action.player, before, (d0, d1)
        self.turn += 1
        self.tasks.append(RollTask(self.gi, self.turn, p, start, _info(game, p), dice=dice, played=None,
                                   play_text="", opening=opening))
        self.asked = False

    def _chose(self, game: Game, action: ChooseDouble, before: Position, after: Decision | None) -> None:
        p, n = action.player, action.number
        if after is not None and after.kind is DecisionKind.MOVE and after.dice is not None:
            self.pending_roll = (p, game.position, _info(game, p), after.dice, False, True)
        else:  # the chosen double could not be played: the turn went on at once
            self.turn += 1
            self.tasks.append(RollTask(self.gi, self.turn, p, before, _info(game, p), dice=(n, n), played=None,
                                       play_text="", chosen=True))

    def _moved(self, game: Game, where: str, after: Decision | None) -> None:
        rec = game.record[-1]
        assert isinstance(rec, Move)
        play = rec.play
        if self.pending_roll is None:
            raise GammonError(f"{where}: a play without a roll")
        p, start, info, dice, opening, chosen = self.pending_roll
        played = play.position if not isinstance(play, Position | str) else None
        self.turn += 1
        self.tasks.append(RollTask(self.gi, self.turn, p, start, info, dice=dice, played=played,
                                   play_text=str(play), opening=opening, chosen=chosen))
        self.pending_roll = None
        if after is not None and after.kind is DecisionKind.MOVE:  # Acey-Deucey: a bonus double follows at once
            assert after.dice is not None and after.player is not None
            p = after.player
            self.pending_roll = (p, game.position, _info(game, p), after.dice, False, True)
        if after is not None and after.kind is DecisionKind.ROLL:
            self.asked = False

    def summary(self) -> GameSummary:
        """The summary of the game just walked."""
        game = self.session.game
        res = game.result
        return GameSummary(self.gi, (game.score[0], game.score[1]), game.crawford_game,
                           None if res is None else res.winner, 0 if res is None else res.points,
                           bool(res and res.resigned), bool(res and res.dropped))


def walk(rules: Rules, games: Sequence[Sequence[Action]], games_limit: int | None = None
         ) -> tuple[list[Task], list[GameSummary]]:
    """The decisions of a record, in order, and a summary of each game.

    The record is replayed through a :class:`~gammon.play.session.Session` with a person in
    each seat, submitting the recorded actions: the walk sees the decisions play sees.

    :raises GammonError: a record the rules refuse (the message says where).
    """
    w = _Walk(rules, games_limit)
    summaries: list[GameSummary] = []
    for gi, actions in enumerate(games):
        w.start_game(gi)
        for ai, action in enumerate(actions):
            w.action(action, f"game {gi + 1}, action {ai + 1}")
        summaries.append(w.summary())
    return w.tasks, summaries


__all__ = ["ChoiceTask", "CubeTask", "GameSummary", "ResignTask", "RollTask", "TakeTask", "Task", "walk"]
