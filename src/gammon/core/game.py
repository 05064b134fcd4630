"""One game of backgammon as a state machine driven by actions.

A :class:`Game` accepts actions (roll, play, double, take, drop, beaver,
resign, accept or reject a resignation, choose a double in Acey-Deucey) from
the two players, 0 and 1.  Each action is checked against the state first; an
action that is not legal now raises :class:`IllegalActionError` and changes
nothing.  Every accepted action is appended to ``game.record`` with the dice it
used, so ``Game.replay(rules, record)`` rebuilds the same state without a dice
source, and every action returns the events an interface shows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

from gammon.core.errors import GammonError, IllegalActionError
from gammon.core.plays import Play
from gammon.core.position import Position, ResultKind, check_dice
from gammon.core.variants import STANDARD, Variant, find_variant

CENTERED = -1


class DiceSource(Protocol):
    """Anything that throws two dice (see :mod:`gammon.core.dice`)."""

    def roll(self) -> tuple[int, int]: ...


@dataclass(frozen=True, slots=True)
class Rules:
    """The settings of a game or match, frozen.

    ``match_length`` 0 is money play, where ``jacoby``, ``beavers`` and
    ``automatic_doubles`` (the most automatic doubles per game, 0 = off) apply.
    ``gammons`` False counts gammons and backgammons as single games, as some
    online rooms do.  ``cube_limit`` is the highest cube value.
    """

    variant: Variant = STANDARD
    match_length: int = 0
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: int = 0
    cube_limit: int = 64
    gammons: bool = True
    cube: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "variant", find_variant(self.variant))
        if not 0 <= self.match_length <= 99:
            raise GammonError(f"match length must be 0 (money) to 99, not {self.match_length}")
        if self.cube_limit not in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096):
            raise GammonError(f"cube limit must be a power of two up to 4096, not {self.cube_limit}")
        if self.automatic_doubles < 0:
            raise GammonError("automatic doubles must be 0 (off) or a positive limit")

    @property
    def is_money(self) -> bool:
        return self.match_length == 0

    @property
    def uses_cube(self) -> bool:
        """Whether the cube is in play at all (Acey-Deucey has none)."""
        return self.cube and self.variant.cube and self.cube_limit > 1


class Phase(Enum):
    """What the game waits for."""

    OPENING = "opening"  # the opening roll: each player throws one die
    ROLL = "roll"  # the player on roll may double, then rolls
    DOUBLED = "doubled"  # the opponent must take, drop (or beaver)
    MOVE = "move"  # the player on roll plays the dice
    CHOOSE_DOUBLE = "choose-double"  # Acey-Deucey: name a double after 1-2
    RESIGNED = "resigned"  # the other player must accept or reject a resignation
    OVER = "over"


# -- actions: what players do; the record is a list of them -----------------


@dataclass(frozen=True, slots=True)
class Roll:
    """A throw of the dice.  ``dice`` None asks the game's dice source."""

    player: int
    dice: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """A play, given as a :class:`Play`, a resulting :class:`Position` or notation."""

    player: int
    play: Play | Position | str


@dataclass(frozen=True, slots=True)
class Double:
    player: int


@dataclass(frozen=True, slots=True)
class Take:
    player: int


@dataclass(frozen=True, slots=True)
class Drop:
    player: int


@dataclass(frozen=True, slots=True)
class Beaver:
    """Money play: the taker redoubles at once and keeps the cube."""

    player: int


@dataclass(frozen=True, slots=True)
class Resign:
    player: int
    kind: ResultKind = ResultKind.SINGLE


@dataclass(frozen=True, slots=True)
class AcceptResignation:
    player: int


@dataclass(frozen=True, slots=True)
class RejectResignation:
    player: int


@dataclass(frozen=True, slots=True)
class ChooseDouble:
    """Acey-Deucey: after playing 1-2, the player names the double to play."""

    player: int
    number: int


Action = (
    Roll | Move | Double | Take | Drop | Beaver | Resign | AcceptResignation
    | RejectResignation | ChooseDouble
)


# -- events: what happened, for interfaces -----------------------------------


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened: ``kind`` names it, ``player`` did it, ``text`` says it."""

    kind: str
    player: int | None
    text: str
    data: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of a game: who won, how, the cube, and the points it scores."""

    winner: int
    kind: ResultKind
    cube: int
    points: int
    resigned: bool = False
    dropped: bool = False
    checkers_left: int = 0


class Game:
    """One game between players 0 and 1 under ``rules``.

    ``position`` is always seen from ``turn``, the player on roll (or, in the
    opening phase, from player 0).  ``cube_owner`` is ``CENTERED`` (-1), 0 or 1.
    Money-only settings (Jacoby, beavers, automatic doubles) are ignored in match
    play; ``crawford_game`` forbids doubling for this game.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        dice: DiceSource | None = None,
        *,
        crawford_game: bool = False,
        score: tuple[int, int] = (0, 0),
        position: Position | None = None,
    ) -> None:
        self.rules = rules or Rules()
        self.dice = dice
        self.crawford_game = crawford_game
        self.score = score
        self.position = position or Position.initial(self.rules.variant)
        self.turn = 0
        self.phase = Phase.OPENING
        self.rolled: tuple[int, int] | None = None
        self.cube_value = 1
        self.cube_owner = CENTERED
        self.doubled_by: int | None = None
        self.beavered = False
        self.resignation: tuple[int, ResultKind] | None = None
        self._resigned_from: Phase | None = None
        self.auto_doubles = 0
        self.aceydeucey_pending = False
        self.result: GameResult | None = None
        self.record: list[Action] = []
        self.plays: list[Play] = []

    # -- state queries ----------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

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

    def _double_refusal(self, player: int) -> str | None:
        r = self.rules
        if self.phase is not Phase.ROLL:
            return f"a double is offered before rolling, not in the {self.phase.value} phase"
        if player != self.turn:
            return f"only player {self.turn}, who is on roll, may double"
        if not r.uses_cube:
            return "the cube is not used in this game"
        if self.crawford_game:
            return "no doubling in the Crawford game"
        if self.cube_owner not in (CENTERED, player):
            return "the opponent owns the cube"
        if self.cube_value * 2 > r.cube_limit:
            return f"the cube is at its limit ({r.cube_limit})"
        return None

    # -- the one entry point ------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Check ``action`` against the state and carry it out.

        :raises IllegalActionError: the action is not allowed now; nothing changed.
        """
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalActionError(f"unknown action {action!r}")
        if self.phase is Phase.OVER:
            raise IllegalActionError("the game is over")
        if action.player not in (0, 1):
            raise IllegalActionError(f"player must be 0 or 1, not {action.player!r}")
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
        return self.apply(Take(1 - self.turn))

    def drop(self) -> list[Event]:
        return self.apply(Drop(1 - self.turn))

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
        record: list[Action],
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

    # -- handlers: each checks first, then changes state ----------------------

    def _need(self, phase: Phase, player: int, who: int, what: str) -> None:
        if self.phase is not phase:
            raise IllegalActionError(f"cannot {what} now: the game is in the {self.phase.value} phase")
        if player != who:
            raise IllegalActionError(f"cannot {what}: it is player {who}'s turn to act, not player {player}'s")

    def _draw(self, dice: tuple[int, int] | None) -> tuple[int, int]:
        if dice is not None:
            try:
                return check_dice(dice)
            except GammonError as exc:
                raise IllegalActionError(str(exc)) from None
        if self.dice is None:
            raise IllegalActionError("no dice source: give the dice with the roll")
        return check_dice(self.dice.roll())

    def _on_roll(self, a: Roll) -> tuple[list[Event], Action]:
        if self.phase is Phase.OPENING:
            # "Each player throws one die; equal throws are thrown again; the
            # higher die starts and plays both numbers."
            d0, d1 = self._draw(a.dice)
            rec = Roll(a.player, (d0, d1))
            if d0 == d1:
                events = [Event("opening-tie", None, f"both players threw {d0}: throw again",
                                {"dice": (d0, d1)})]
                r = self.rules
                if (r.is_money and r.uses_cube and self.auto_doubles < r.automatic_doubles
                        and self.cube_value * 2 <= r.cube_limit):
                    # Automatic doubles: each equal opening throw doubles the cube.
                    self.auto_doubles += 1
                    self.cube_value *= 2
                    events.append(Event("auto-double", None,
                                        f"automatic double: the cube is now {self.cube_value}",
                                        {"cube": self.cube_value}))
                return events, rec
            self.turn = 0 if d0 > d1 else 1
            if self.turn == 1:
                self.position = self.position.swap()
            hi, lo = max(d0, d1), min(d0, d1)
            events = [Event("opening", self.turn,
                            f"player 0 threw {d0}, player 1 threw {d1}: player {self.turn} starts",
                            {"dice": (d0, d1)})]
            return events + self._start_move((hi, lo)), rec
        self._need(Phase.ROLL, a.player, self.turn, "roll")
        dice = self._draw(a.dice)
        return self._start_move(dice), Roll(a.player, dice)

    def _start_move(self, dice: tuple[int, int]) -> list[Event]:
        self.rolled = dice
        self.phase = Phase.MOVE
        if self.rules.variant.acey_deucey_bonus and sorted(dice) == [1, 2]:
            self.aceydeucey_pending = True
        events = [Event("rolled", self.turn, f"player {self.turn} rolled {dice[0]}-{dice[1]}",
                        {"dice": dice})]
        if not self.position.legal_plays(dice):
            events.append(Event("no-move", self.turn, f"player {self.turn} cannot move", {}))
            events += self._after_play(Play((), self.position))
        return events

    def _resolve_play(self, given: Play | Position | str) -> Play:
        assert self.rolled is not None
        plays = self.position.legal_plays(self.rolled)
        if isinstance(given, str):
            try:
                return self.position.parse_play(given, self.rolled)
            except GammonError as exc:
                raise IllegalActionError(str(exc)) from None
        target = given.position if isinstance(given, Play) else given
        # Compare resulting positions only: building every Play is the slow part.
        try:
            return plays[plays.positions().index(target)]
        except ValueError:
            pass
        raise IllegalActionError(
            f"that play is not legal for {self.rolled[0]}-{self.rolled[1]}"
        )

    def _on_move(self, a: Move) -> tuple[list[Event], Action]:
        self._need(Phase.MOVE, a.player, self.turn, "move")
        play = self._resolve_play(a.play)
        events = [Event("played", self.turn, f"player {self.turn} played {play or 'nothing'}",
                        {"play": str(play)})]
        return events + self._after_play(play), Move(a.player, play)

    def _after_play(self, play: Play) -> list[Event]:
        self.plays.append(play)
        self.position = play.position
        outcome = self.position.outcome
        if outcome is not None:
            return self._finish(self.turn if outcome.winner_is_me else 1 - self.turn, outcome.kind)
        if self.aceydeucey_pending and self.rolled is not None and self.rolled[0] != self.rolled[1]:
            # Acey-Deucey: "the 1-2 is played as 1 and 2, then the player names any
            # double and plays it four times, then rolls again".
            self.phase = Phase.CHOOSE_DOUBLE
            return [Event("choose-double", self.turn,
                          f"acey-deucey: player {self.turn} names a double", {})]
        if self.aceydeucey_pending:
            # The chosen double is played: the same player rolls again.
            self.aceydeucey_pending = False
            self.rolled = None
            self.phase = Phase.ROLL
            return [Event("roll-again", self.turn, f"player {self.turn} rolls again", {})]
        self.turn = 1 - self.turn
        self.position = self.position.swap()
        self.rolled = None
        self.phase = Phase.ROLL
        return [Event("turn", self.turn, f"player {self.turn} is on roll", {})]

    def _on_choose_double(self, a: ChooseDouble) -> tuple[list[Event], Action]:
        self._need(Phase.CHOOSE_DOUBLE, a.player, self.turn, "choose a double")
        if not (isinstance(a.number, int) and 1 <= a.number <= 6):
            raise IllegalActionError(f"the double must be a number from 1 to 6, not {a.number!r}")
        events = [Event("chose-double", self.turn,
                        f"player {self.turn} plays double {a.number}s", {"number": a.number})]
        return events + self._start_move((a.number, a.number)), a

    def _on_double(self, a: Double) -> tuple[list[Event], Action]:
        reason = self._double_refusal(a.player)
        if reason is not None:
            raise IllegalActionError(f"cannot double: {reason}")
        self.phase = Phase.DOUBLED
        self.doubled_by = a.player
        return [Event("doubled", a.player,
                      f"player {a.player} doubles to {self.cube_value * 2}",
                      {"cube": self.cube_value * 2})], a

    def _on_take(self, a: Take) -> tuple[list[Event], Action]:
        self._need(Phase.DOUBLED, a.player, 1 - self.turn, "take")
        self.cube_value *= 2
        self.cube_owner = a.player
        self.phase = Phase.ROLL
        self.doubled_by = None
        return [Event("took", a.player, f"player {a.player} takes; the cube is {self.cube_value}",
                      {"cube": self.cube_value})], a

    def _on_beaver(self, a: Beaver) -> tuple[list[Event], Action]:
        self._need(Phase.DOUBLED, a.player, 1 - self.turn, "beaver")
        r = self.rules
        if not (r.is_money and r.beavers):
            raise IllegalActionError("cannot beaver: beavers are only allowed in money play with beavers on")
        if self.cube_value * 4 > r.cube_limit:
            raise IllegalActionError(f"cannot beaver: the cube would pass its limit ({r.cube_limit})")
        # "The taker redoubles at once and keeps the cube."
        self.cube_value *= 4
        self.cube_owner = a.player
        self.beavered = True
        self.phase = Phase.ROLL
        self.doubled_by = None
        return [Event("beavered", a.player,
                      f"player {a.player} beavers; the cube is {self.cube_value}, owned by player {a.player}",
                      {"cube": self.cube_value})], a

    def _on_drop(self, a: Drop) -> tuple[list[Event], Action]:
        self._need(Phase.DOUBLED, a.player, 1 - self.turn, "drop")
        # "A drop ends the game at the current value."
        events = [Event("dropped", a.player, f"player {a.player} drops", {})]
        return events + self._finish(self.turn, ResultKind.SINGLE, dropped=True), a

    def _on_resign(self, a: Resign) -> tuple[list[Event], Action]:
        if self.phase in (Phase.RESIGNED, Phase.OPENING):
            raise IllegalActionError(f"cannot resign in the {self.phase.value} phase")
        if a.player != self.player_to_act:
            raise IllegalActionError(f"cannot resign: it is player {self.player_to_act}'s turn to act")
        try:
            kind = ResultKind(a.kind)
        except ValueError:
            raise IllegalActionError(
                f"cannot resign: the kind must be single (1), gammon (2) or backgammon (3), not {a.kind!r}"
            ) from None
        self.resignation = (a.player, kind)
        self._resigned_from = self.phase
        self.phase = Phase.RESIGNED
        return [Event("resigned", a.player, f"player {a.player} offers to resign a {kind.name.lower()}",
                      {"kind": kind.name.lower()})], Resign(a.player, kind)

    def _on_accept(self, a: AcceptResignation) -> tuple[list[Event], Action]:
        if self.phase is not Phase.RESIGNED or self.resignation is None:
            raise IllegalActionError("cannot accept: no resignation is offered")
        who, kind = self.resignation
        if a.player != 1 - who:
            raise IllegalActionError(f"cannot accept: only player {1 - who} may answer the resignation")
        events = [Event("resignation-accepted", a.player, f"player {a.player} accepts", {})]
        return events + self._finish(1 - who, kind, resigned=True), a

    def _on_reject(self, a: RejectResignation) -> tuple[list[Event], Action]:
        if self.phase is not Phase.RESIGNED or self.resignation is None:
            raise IllegalActionError("cannot reject: no resignation is offered")
        who, _ = self.resignation
        if a.player != 1 - who:
            raise IllegalActionError(f"cannot reject: only player {1 - who} may answer the resignation")
        assert self._resigned_from is not None
        self.phase = self._resigned_from
        self.resignation = None
        self._resigned_from = None
        return [Event("resignation-rejected", a.player, f"player {a.player} rejects; play on", {})], a

    # -- scoring ---------------------------------------------------------------

    def points_for(self, kind: ResultKind, loser_checkers_left: int = 0) -> int:
        """What a win of ``kind`` scores now, with the cube and the customs applied."""
        r = self.rules
        if r.variant.pays_per_checker:
            # Acey-Deucey: "the loser pays the stake times the checkers still on the board".
            return max(1, loser_checkers_left) * self.cube_value
        multiple = int(kind)
        if not r.gammons:
            multiple = 1
        if r.is_money and r.jacoby and self.cube_owner == CENTERED:
            # Jacoby: "gammons and backgammons count single while the cube is centred".
            multiple = 1
        return multiple * self.cube_value

    def _finish(self, winner: int, kind: ResultKind, *, resigned: bool = False,
                dropped: bool = False) -> list[Event]:
        loser_row = self.position.me if winner != self.turn else self.position.opp
        left = sum(loser_row)
        points = self.points_for(kind, left)
        self.result = GameResult(winner, kind, self.cube_value, points, resigned, dropped, left)
        self.phase = Phase.OVER
        self.rolled = None
        return [Event("game-over", winner,
                      f"player {winner} wins {points} point{'s' if points != 1 else ''}"
                      f" ({'drop' if dropped else kind.name.lower()})",
                      {"points": points, "kind": kind.name.lower()})]

    def snapshot(self) -> dict[str, object]:
        """A comparable summary of the state (used to prove actions change nothing on error)."""
        return {
            "position": self.position, "turn": self.turn, "phase": self.phase,
            "rolled": self.rolled, "cube": (self.cube_value, self.cube_owner),
            "doubled_by": self.doubled_by, "resignation": self.resignation,
            "result": self.result, "record": len(self.record), "auto": self.auto_doubles,
        }


_Handler = Callable[[Game, Any], tuple[list[Event], Action]]
_HANDLERS: dict[type, _Handler] = {
    Roll: Game._on_roll,
    Move: Game._on_move,
    Double: Game._on_double,
    Take: Game._on_take,
    Drop: Game._on_drop,
    Beaver: Game._on_beaver,
    Resign: Game._on_resign,
    AcceptResignation: Game._on_accept,
    RejectResignation: Game._on_reject,
    ChooseDouble: Game._on_choose_double,
}

__all__ = [
    "CENTERED", "AcceptResignation", "Action", "Beaver", "ChooseDouble", "DiceSource", "Double",
    "Drop", "Event", "Game", "GameResult", "Move", "Phase", "RejectResignation", "Resign",
    "Roll", "Rules", "Take",
]
