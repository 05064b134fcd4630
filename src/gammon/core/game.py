"""One game of backgammon as a state machine driven by actions.

A :class:`Game` accepts actions (roll, play, double, take, drop, beaver,
resign, accept or reject a resignation, choose a double in Acey-Deucey) from
the two players, 0 and 1.  Each action is checked against the state first; an
action that is not legal now raises :class:`IllegalActionError` with a
:class:`~gammon.core.errors.Reason` and changes nothing.  Every accepted
action is appended to ``game.record`` with the dice it used, so
``Game.replay(rules, record)`` rebuilds the same state without a dice source,
and every action returns the events an interface shows.  What each action
does is in :mod:`gammon.core.transitions`; the phases are in :mod:`gammon.core.phase`.

A game can also be built at any state, from keyword arguments
(``Game(rules, position=..., turn=1, phase=Phase.MOVE, rolled=(3, 1))``), from
an XGID (:meth:`Game.from_xgid`) or from a Position ID and a Match ID
(:meth:`Game.from_ids`); its ``repr`` builds it again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

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
    NewGame,
    RejectResignation,
    Resign,
    Roll,
    Take,
    Timeout,
)
from gammon.core.cube import CubeOwner
from gammon.core.dice import DiceSource
from gammon.core.errors import GammonError, IllegalActionError, InvalidIdError, Reason
from gammon.core.phase import BONUS_CHOOSE, BONUS_ONE_TWO, BONUSES, PHASE_REASON, Phase
from gammon.core.plays import Play
from gammon.core.position import Position, ResultKind, check_dice
from gammon.core.rules import CENTERED, CENTRED, Rules
from gammon.core.transitions import HANDLERS
from gammon.core.variants import Variant, find_variant


def _owner(value: object) -> CubeOwner:
    """``value`` as a :class:`CubeOwner` when it names one; anything else stays as given for
    :meth:`Game._state_problem` to refuse with the rest of the state's checks."""
    if isinstance(value, int) and not isinstance(value, bool) and value in (-1, 0, 1):
        return CubeOwner(value)
    return cast(CubeOwner, value)


class Game:
    """One game between players 0 and 1 under ``rules``.

    ``position`` is always seen from ``turn``, the player on roll (or, in the
    opening phase, from player 0); while a double or a beaver is pending,
    ``turn`` is the doubler.  ``cube_owner`` is a :class:`~gammon.core.cube.CubeOwner`:
    ``CENTERED`` (-1), 0 or 1.
    Money-only settings (Jacoby, beavers, automatic doubles) are ignored in
    match play; ``crawford_game`` forbids doubling for this game.

    The keyword arguments after ``position`` build a game in the middle:
    ``turn``, ``phase``, ``rolled`` (the dice of the move phase),
    ``cube_value``/``cube_owner``, ``resignation`` (resigner, kind) with
    ``resigned_from`` (the phase play goes back to on a rejection), ``bonus``
    (the Acey-Deucey stage) and ``auto_doubles`` (automatic doubles so far).

    :raises GammonError: a state that cannot exist (dice outside the move
        phase, a double in the Crawford game, ...).
    """

    def __init__(
        self,
        rules: Rules | None = None,
        dice: DiceSource | None = None,
        *,
        crawford_game: bool = False,
        score: tuple[int, int] = (0, 0),
        position: Position | None = None,
        turn: int = 0,
        phase: Phase = Phase.OPENING,
        rolled: tuple[int, int] | None = None,
        cube_value: int = 1,
        cube_owner: int = CENTERED,
        resignation: tuple[int, ResultKind] | None = None,
        resigned_from: Phase | None = None,
        bonus: str | None = None,
        auto_doubles: int = 0,
    ) -> None:
        self.rules = rules or Rules()
        self.dice = dice
        self.crawford_game = bool(crawford_game)
        self.score = (score[0], score[1])
        self.position = position or Position.initial(self.rules.variant)
        self.turn = turn
        self.phase = Phase(phase)
        self.rolled = None if rolled is None else check_dice(rolled)
        self.cube_value = cube_value
        self.cube_owner = _owner(cube_owner)
        self.doubled_by: int | None = turn if self.phase in (Phase.DOUBLED, Phase.BEAVERED) else None
        self.beavered = self.phase is Phase.BEAVERED
        self.resignation = None if resignation is None else (resignation[0], ResultKind(resignation[1]))
        self.resigned_from = resigned_from
        self.auto_doubles = auto_doubles
        self.bonus = bonus
        self.result: GameResult | None = None
        self.record: list[Action] = []
        self.plays: list[Play] = []
        problem = self._state_problem()
        if problem is not None:
            raise GammonError(f"impossible game state: {problem}")

    def _state_problem(self) -> str | None:
        r = self.rules
        if self.position.variant != r.variant:
            return f"the position is {self.position.variant.title}, the rules {r.variant.title}"
        if self.position.is_game_over:
            return "the position is already over; replay the game to reach its end"
        if self.turn not in (0, 1) or isinstance(self.turn, bool):
            return f"turn must be player 0 or 1, not {self.turn!r}"
        if self.phase is Phase.OVER:
            return "a finished game is reached by playing it, not built"
        moving = self.phase is Phase.MOVE or (
            self.phase is Phase.RESIGNED and self.resigned_from is Phase.MOVE)
        if (self.rolled is None) == moving:
            return "dice are rolled exactly in the move phase"
        if not (isinstance(self.cube_value, int) and self.cube_value >= 1
                and not self.cube_value & (self.cube_value - 1) and self.cube_value <= r.cube_limit):
            return f"the cube must be a power of two up to {r.cube_limit}, not {self.cube_value!r}"
        if self.cube_owner not in (CENTERED, 0, 1):
            return f"the cube owner must be -1 (centred), 0 or 1, not {self.cube_owner!r}"
        if not r.uses_cube and (self.cube_value != 1 or self.cube_owner != CENTERED):
            return "the cube is not used in this game"
        if self.crawford_game and (self.cube_value != 1 or self.cube_owner != CENTERED):
            return "the Crawford game is played in a match without the cube"
        if self.phase in (Phase.DOUBLED, Phase.BEAVERED):
            if self.crawford_game or not r.uses_cube:
                return "no double can be pending without the cube"
            if self.cube_owner not in (CENTERED, self.turn) and self.phase is Phase.DOUBLED:
                return "the doubler does not own the cube"
            if self.cube_value * 2 > r.cube_limit:
                # A double (a beaver: the beaverer's redouble) taken doubles the cube again;
                # play refuses one that would pass the limit.
                return f"the pending double would take the cube past its limit ({r.cube_limit})"
            if self.phase is Phase.BEAVERED and (not (r.is_money and r.beavers)
                                                 or self.cube_owner != 1 - self.turn):
                return "a beaver is pending only in money play with beavers, the beaverer owning the cube"
        if (self.phase is Phase.RESIGNED) != (self.resignation is not None):
            return "a resignation is pending exactly in the resigned phase"
        if self.resignation is not None:
            if self.resignation[0] not in (0, 1):
                return "the resigner must be player 0 or 1"
            if self.resigned_from in (None, Phase.OPENING, Phase.RESIGNED, Phase.OVER):
                return "a resignation needs the phase play goes back to (resigned_from)"
        if self.bonus not in BONUSES:
            return f"the Acey-Deucey bonus stage is one of {BONUSES}, not {self.bonus!r}"
        if self.bonus is not None and not r.variant.acey_deucey_bonus:
            return "only Acey-Deucey has the 1-2 bonus"
        if (self.bonus == BONUS_CHOOSE) != (self.phase is Phase.CHOOSE_DOUBLE or (
                self.phase is Phase.RESIGNED and self.resigned_from is Phase.CHOOSE_DOUBLE)):
            return "the double is named exactly in the choose-double phase"
        if self.phase is Phase.MOVE and self.bonus == BONUS_ONE_TWO and sorted(self.rolled or ()) != [1, 2]:
            return "the 1-2 bonus stage needs the roll 1-2"
        if not isinstance(self.auto_doubles, int) or self.auto_doubles < 0:
            return "automatic doubles are counted from 0"
        return None

    # -- building at a state from IDs -------------------------------------------

    @classmethod
    def from_xgid(cls, text: str, rules: Rules | None = None, dice: DiceSource | None = None,
                  *, variant: str | Variant | None = None) -> Game:
        """The game an XGID describes: position, cube, turn, dice, score, Crawford.

        The player at the bottom of the XGID board is player 0.  ``rules``
        (optional) supplies settings the XGID does not carry; its match length,
        Jacoby, beavers and cube limit are taken from the XGID (the limit raised, if
        need be, to the cube that taking a pending double or beaver reaches).

        :raises InvalidIdError: a malformed XGID, or a raccoon (gammon plays beavers without).
        """
        from dataclasses import replace

        from gammon.core.xgid import parse_xgid

        base = rules or Rules(variant=find_variant(variant or "standard"))
        s = parse_xgid(text, variant or base.variant)
        if s.raccooned:
            raise InvalidIdError("the XGID has a raccoon; gammon plays beavers without raccoons")
        # The limit covers the cube that taking the pending double (or beaver) reaches.
        reached = s.cube_value * (4 if s.beavered else 2 if s.double_offered else 1)
        try:
            r = replace(base, match_length=s.match_length, jacoby=s.jacoby,
                        beavers=s.beaver or (s.beavered and s.is_money),
                        cube_limit=min(max(s.max_cube, reached), 4096))
        except GammonError as exc:
            raise InvalidIdError(f"the XGID's rules: {exc}") from None
        turn = 0 if s.turn == 1 else 1
        score = s.score if turn == 0 else (s.score[1], s.score[0])
        owner = CubeOwner.from_relative(s.relative_owner, turn)
        cube = s.cube_value
        phase = Phase.MOVE if s.dice is not None else Phase.ROLL
        if s.beavered:
            # The XGID's cube is the one before the double; after a beaver it has been
            # taken at twice that, owned by the beaverer, and redoubled.
            phase, cube, owner = Phase.BEAVERED, cube * 2, CubeOwner(1 - turn)
        elif s.double_offered:
            phase = Phase.DOUBLED
        try:
            return cls(r, dice, crawford_game=s.crawford, score=score, position=s.position, turn=turn,
                       phase=phase, rolled=s.dice, cube_value=cube, cube_owner=owner)
        except GammonError as exc:
            raise InvalidIdError(f"the XGID names an impossible game: {exc}") from None

    @classmethod
    def from_ids(cls, position_id: str, match_id: str, rules: Rules | None = None,
                 dice: DiceSource | None = None) -> Game:
        """The game a GNU Backgammon Position ID and Match ID describe.

        The Position ID is read from the side of the Match ID's player on roll
        (the dice owner).  A finished game (game state over, resigned or
        dropped) cannot be built: replay it.

        :raises InvalidIdError: a malformed ID, or one naming a finished game.
        """
        from dataclasses import replace

        from gammon.core.match_id import GameState, Resignation, decode_match_id

        m = decode_match_id(match_id)
        base = rules or Rules()
        position = Position.from_position_id(position_id, base.variant)
        try:
            r = replace(base, match_length=m.match_length, jacoby=m.jacoby and m.is_money)
        except GammonError as exc:
            raise InvalidIdError(f"the Match ID's rules: {exc}") from None
        on_roll = m.player_on_roll
        owner = CubeOwner.of(m.cube_owner)
        resignation = None
        resigned_from = None
        if m.game_state is GameState.NONE:
            phase = Phase.OPENING
            if on_roll == 1:
                position = position.swap()
            on_roll = 0
        elif m.game_state is not GameState.PLAYING:
            raise InvalidIdError("the Match ID names a finished game: replay it to reach its end")
        elif m.double_offered:
            phase = Phase.DOUBLED
        elif m.resignation is not Resignation.NONE:
            phase = Phase.RESIGNED
            resignation = (1 - m.turn, ResultKind(int(m.resignation)))
            resigned_from = Phase.MOVE if m.dice is not None else Phase.ROLL
        else:
            phase = Phase.MOVE if m.dice is not None else Phase.ROLL
        try:
            return cls(r, dice, crawford_game=m.crawford, score=m.score, position=position, turn=on_roll,
                       phase=phase, rolled=m.dice, cube_value=m.cube_value, cube_owner=owner,
                       resignation=resignation, resigned_from=resigned_from)
        except GammonError as exc:
            raise InvalidIdError(f"the IDs name an impossible game: {exc}") from None

    def xgid(self) -> str:
        """The XGID of the game now, player 0 at the bottom; :meth:`from_xgid` reads it back.

        :raises InvalidIdError: the opening roll, a pending resignation, an
            Acey-Deucey bonus or a finished game (an XGID carries none of them).
        """
        from gammon.core.xgid import game_xgid

        return game_xgid(self)

    def match_id(self) -> str:
        """GNU Backgammon's Match ID of the game now (with :attr:`position`'s Position ID,
        :meth:`from_ids` reads it back while the game is under way).

        :raises InvalidIdError: a state the Match ID cannot carry (a cube above 4096, ...).
        """
        from gammon.core.match_id import game_match_id

        return game_match_id(self)

    # -- state queries ----------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def aceydeucey_pending(self) -> bool:
        """Whether an Acey-Deucey 1-2 bonus is under way (see ``bonus`` for the stage)."""
        return self.bonus is not None

    @property
    def player_to_act(self) -> int:
        """Who must act now: the opponent answers a double or a resignation."""
        if self.phase is Phase.DOUBLED:
            return 1 - self.turn
        if self.phase is Phase.RESIGNED and self.resignation is not None:
            return 1 - self.resignation[0]
        return self.turn

    def legal_plays(self) -> list[Play]:
        """The legal plays for the dice just rolled (empty outside the move phase)."""
        if self.phase is not Phase.MOVE or self.rolled is None:
            return []
        return list(self.position.legal_plays(self.rolled))

    def can_double(self, player: int | None = None) -> bool:
        """Whether ``player`` (default: the player on roll) may double now."""
        player = self.turn if player is None else player
        return self._double_refusal(player) is None

    def can_beaver(self, player: int | None = None) -> bool:
        """Whether ``player`` (default: the player doubled) may beaver now."""
        player = 1 - self.turn if player is None else player
        return self._beaver_refusal(player) is None

    def _double_refusal(self, player: int) -> IllegalActionError | None:
        r = self.rules
        if self.phase is not Phase.ROLL:
            return IllegalActionError(
                f"cannot double: a double is offered before rolling, not in the {self.phase.value} phase",
                PHASE_REASON[self.phase])
        if player != self.turn:
            return IllegalActionError(f"cannot double: only player {self.turn}, who is on roll, may double",
                                      Reason.OUT_OF_TURN)
        if not r.uses_cube:
            return IllegalActionError("cannot double: the cube is not used in this game", Reason.CUBE_DISABLED)
        if self.crawford_game:
            return IllegalActionError("cannot double: no doubling in the Crawford game",
                                      Reason.CRAWFORD_NO_DOUBLE)
        if self.cube_owner not in (CENTERED, player):
            return IllegalActionError("cannot double: the opponent owns the cube", Reason.NOT_CUBE_OWNER)
        if self.cube_value * 2 > r.cube_limit:
            return IllegalActionError(f"cannot double: the cube is at its limit ({r.cube_limit})",
                                      Reason.CUBE_AT_MAX)
        return None

    def _beaver_refusal(self, player: int) -> IllegalActionError | None:
        r = self.rules
        if self.phase is Phase.BEAVERED:
            return IllegalActionError("cannot beaver a beaver: gammon plays no raccoons",
                                      Reason.BEAVER_NOT_ALLOWED)
        if self.phase is not Phase.DOUBLED:
            return IllegalActionError("cannot beaver: no double is offered", Reason.NO_DOUBLE_PENDING)
        if player != 1 - self.turn:
            return IllegalActionError(f"cannot beaver: only player {1 - self.turn} answers the double",
                                      Reason.OUT_OF_TURN)
        if not (r.is_money and r.beavers):
            return IllegalActionError("cannot beaver: beavers are only allowed in money play with beavers on",
                                      Reason.BEAVER_NOT_ALLOWED)
        if self.cube_value * 4 > r.cube_limit:
            return IllegalActionError(f"cannot beaver: the cube would pass its limit ({r.cube_limit})",
                                      Reason.CUBE_AT_MAX)
        return None

    def allowed_actions(self) -> list[Action]:
        """Every action that :meth:`apply` accepts now (a :class:`Move` per legal play).

        >>> Game().allowed_actions()
        [Roll(player=0, dice=None), Roll(player=1, dice=None)]
        """
        phase = self.phase
        if phase is Phase.OVER:
            return []
        if phase is Phase.OPENING:
            return [Roll(0), Roll(1)]
        if phase is Phase.RESIGNED:
            who = self.player_to_act
            return [AcceptResignation(who), RejectResignation(who)]
        who = self.player_to_act
        out: list[Action] = []
        if phase is Phase.ROLL:
            out.append(Roll(who))
            if self.can_double(who):
                out.append(Double(who))
        elif phase is Phase.DOUBLED:
            out += [Take(who), Drop(who)]
            if self.can_beaver(who):
                out.append(Beaver(who))
        elif phase is Phase.BEAVERED:
            return [Take(who), Drop(who)]  # the beaver is answered first: no resignation
        elif phase is Phase.MOVE:
            assert self.rolled is not None
            out += [Move(who, play) for play in self.position.legal_plays(self.rolled)]
        elif phase is Phase.CHOOSE_DOUBLE:
            out += [ChooseDouble(who, n) for n in range(1, 7)]
        out += [Resign(who, kind) for kind in ResultKind]
        return out

    # -- the one entry point ------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Check ``action`` against the state and carry it out.

        :raises IllegalActionError: the action is not allowed now (its
            ``reason`` says why); nothing changed.
        """
        if isinstance(action, NewGame):
            if self.phase is Phase.OVER:
                raise IllegalActionError("the next game is started by the match", Reason.GAME_OVER)
            raise IllegalActionError("cannot start a new game: this one is still being played",
                                     Reason.GAME_IN_PROGRESS)
        handler = HANDLERS.get(type(action))
        if handler is None:
            raise IllegalActionError(f"unknown action {action!r}", Reason.BAD_VALUE)
        if self.phase is Phase.OVER:
            raise IllegalActionError("the game is over", Reason.GAME_OVER)
        if isinstance(action.player, bool) or action.player not in (0, 1):
            raise IllegalActionError(f"player must be 0 or 1, not {action.player!r}", Reason.BAD_VALUE)
        events, recorded = handler(self, action)
        self.record.append(recorded)
        return events

    # -- convenience wrappers --------------------------------------------------

    def roll(self, dice: tuple[int, int] | None = None) -> list[Event]:
        return self.apply(Roll(self.player_to_act, dice))

    def play(self, play: Play | Position | str) -> list[Event]:
        return self.apply(Move(self.turn, play))

    def double(self) -> list[Event]:
        return self.apply(Double(self.turn))

    def take(self) -> list[Event]:
        return self.apply(Take(self.player_to_act if self.phase is Phase.BEAVERED else 1 - self.turn))

    def drop(self) -> list[Event]:
        return self.apply(Drop(self.player_to_act if self.phase is Phase.BEAVERED else 1 - self.turn))

    def beaver(self) -> list[Event]:
        return self.apply(Beaver(1 - self.turn))

    def resign(self, kind: ResultKind = ResultKind.SINGLE, player: int | None = None) -> list[Event]:
        return self.apply(Resign(self.player_to_act if player is None else player, kind))

    def accept_resignation(self) -> list[Event]:
        return self.apply(AcceptResignation(self.player_to_act))

    def reject_resignation(self) -> list[Event]:
        return self.apply(RejectResignation(self.player_to_act))

    def choose_double(self, number: int) -> list[Event]:
        return self.apply(ChooseDouble(self.turn, number))

    @classmethod
    def replay(
        cls,
        rules: Rules | None,
        record: Sequence[Action],
        *,
        crawford_game: bool = False,
        score: tuple[int, int] = (0, 0),
    ) -> Game:
        """Rebuild a game from its record (the dice are in the record).

        :raises IllegalActionError: the record contains an illegal action.
        """
        game = cls(rules, None, crawford_game=crawford_game, score=score)
        for action in record:
            game.apply(action)
        return game

    # -- scoring ---------------------------------------------------------------

    def points_for(self, kind: ResultKind, loser_checkers_left: int = 0) -> int:
        """What a win of ``kind`` scores now: :meth:`Rules.points_for` at this game's cube."""
        return self.rules.points_for(kind, self.cube_value, cube_owner=self.cube_owner,
                                     checkers_left=loser_checkers_left)

    def snapshot(self) -> dict[str, object]:
        """Every piece of the state, comparable (used to prove refusals change nothing)."""
        return {
            "rules": self.rules, "position": self.position, "turn": self.turn, "phase": self.phase,
            "rolled": self.rolled, "cube": (self.cube_value, self.cube_owner),
            "doubled_by": self.doubled_by, "beavered": self.beavered,
            "resignation": self.resignation, "resigned_from": self.resigned_from,
            "result": self.result, "record": len(self.record), "plays": len(self.plays),
            "auto": self.auto_doubles, "bonus": self.bonus, "crawford_game": self.crawford_game,
            "score": self.score,
        }

    def __repr__(self) -> str:
        """A call that builds this state again (the record is not part of it)."""
        if self.phase is Phase.OVER:
            return f"<Game over: {self.result}>"
        parts = [repr(self.rules)]
        if self.crawford_game:
            parts.append("crawford_game=True")
        if self.score != (0, 0):
            parts.append(f"score={self.score!r}")
        if self.position != Position.initial(self.rules.variant) or self.turn:
            parts.append(f"position={self.position!r}")
        defaults: list[tuple[str, object, object]] = [
            ("turn", self.turn, 0), ("phase", self.phase, Phase.OPENING), ("rolled", self.rolled, None),
            ("cube_value", self.cube_value, 1), ("cube_owner", self.cube_owner, CENTERED),
            ("resignation", self.resignation, None), ("resigned_from", self.resigned_from, None),
            ("bonus", self.bonus, None), ("auto_doubles", self.auto_doubles, 0),
        ]
        for name, value, default in defaults:
            if value != default:
                if isinstance(value, Phase):
                    text = f"Phase.{value.name}"
                elif isinstance(value, CubeOwner):
                    text = repr(int(value))
                elif name == "resignation" and self.resignation is not None:
                    text = f"({self.resignation[0]}, ResultKind.{self.resignation[1].name})"
                else:
                    text = repr(value)
                parts.append(f"{name}={text}")
        return f"Game({', '.join(parts)})"


__all__ = [
    "CENTERED", "CENTRED", "AcceptResignation", "Action", "Beaver", "ChooseDouble", "CubeOwner", "DiceSource",
    "Double", "Drop", "Event", "Game", "GameResult", "Move", "NewGame", "Phase", "RejectResignation",
    "Resign", "Roll", "Rules", "Take", "Timeout",
]
