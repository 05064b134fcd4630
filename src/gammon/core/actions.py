"""What players do (actions) and how a game ended (results); what happened (events) is
:mod:`gammon.core.events`, whose :class:`Event` is named here too.

Actions are frozen values checked when they are built: a player that is not
0 or 1, dice that are not two numbers 1..6, a resignation of an unknown kind
or a double outside 1..6 fail at construction with an
:class:`~gammon.core.errors.IllegalActionError` whose reason is ``BAD_VALUE``.
Whether an action is allowed *now* is the game's business
(:meth:`gammon.core.game.Game.apply`).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

from gammon.core.errors import GammonError, IllegalActionError, Reason
from gammon.core.events import Event
from gammon.core.plays import Play
from gammon.core.position import Position, ResultKind, check_dice


def _check_player(player: object) -> None:
    if isinstance(player, bool) or player not in (0, 1):
        raise IllegalActionError(f"player must be 0 or 1, not {player!r}", Reason.BAD_VALUE)


@dataclass(frozen=True, slots=True)
class _ByPlayer:
    """An action that carries nothing but its player, 0 or 1 (checked when it is built)."""

    player: int

    def __post_init__(self) -> None:
        _check_player(self.player)


@dataclass(frozen=True, slots=True)
class Roll:
    """A throw of the dice.  ``dice`` None asks the game's dice source."""

    player: int
    dice: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        _check_player(self.player)
        if self.dice is not None:
            try:
                object.__setattr__(self, "dice", check_dice(self.dice))
            except GammonError as exc:
                raise IllegalActionError(str(exc), Reason.BAD_VALUE) from None


@dataclass(frozen=True, slots=True)
class Move:
    """A play, given as a :class:`Play`, a resulting :class:`Position` or notation."""

    player: int
    play: Play | Position | str

    def __post_init__(self) -> None:
        _check_player(self.player)
        if not isinstance(self.play, Play | Position | str):
            raise IllegalActionError(
                f"a move is a Play, a Position or notation, not {type(self.play).__name__}",
                Reason.BAD_VALUE,
            )


@dataclass(frozen=True, slots=True)
class Double(_ByPlayer):
    """The player on roll offers the cube at twice its value, before rolling."""


@dataclass(frozen=True, slots=True)
class Take(_ByPlayer):
    """Accept the double (or, for the doubler, the beaver) and play on."""


@dataclass(frozen=True, slots=True)
class Drop(_ByPlayer):
    """Refuse the double (or the beaver) and lose the game at the cube before it."""


@dataclass(frozen=True, slots=True)
class Beaver(_ByPlayer):
    """Money play: the player doubled takes and at once redoubles, keeping the cube.

    The original doubler answers with :class:`Take` or :class:`Drop`.
    """


_KIND_NAMES = {"single": ResultKind.SINGLE, "gammon": ResultKind.GAMMON, "backgammon": ResultKind.BACKGAMMON}


@dataclass(frozen=True, slots=True)
class Resign:
    """An offer to give up the game for ``kind`` (single, gammon or backgammon)."""

    player: int
    kind: ResultKind = ResultKind.SINGLE

    def __post_init__(self) -> None:
        _check_player(self.player)
        kind: object = self.kind
        if isinstance(kind, str) and kind.lower() in _KIND_NAMES:
            kind = _KIND_NAMES[kind.lower()]
        try:
            if isinstance(kind, bool):
                raise ValueError
            value = ResultKind(operator.index(kind))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise IllegalActionError(
                f"a resignation is single (1), gammon (2) or backgammon (3), not {self.kind!r}",
                Reason.BAD_VALUE,
            ) from None
        object.__setattr__(self, "kind", value)


@dataclass(frozen=True, slots=True)
class AcceptResignation(_ByPlayer):
    """Accept the resignation offered: the game ends for its kind."""


@dataclass(frozen=True, slots=True)
class RejectResignation(_ByPlayer):
    """Refuse the resignation offered: play goes on."""


@dataclass(frozen=True, slots=True)
class ChooseDouble:
    """Acey-Deucey: after playing the 1 and the 2, the player names the double to play."""

    player: int
    number: int

    def __post_init__(self) -> None:
        _check_player(self.player)
        n = self.number
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 6:
            raise IllegalActionError(f"the double must be a number from 1 to 6, not {n!r}", Reason.BAD_VALUE)


@dataclass(frozen=True, slots=True)
class Timeout(_ByPlayer):
    """``player``, whom the game was waiting for, ran out of time on a game clock: they lose the match.

    Not a choice a player makes (it is never among the allowed actions): the
    clock that keeps the time records it.  What the loss scores is the game's
    rule (:meth:`gammon.core.game.Game.apply`).
    """


@dataclass(frozen=True, slots=True)
class NewGame:
    """Start the next game of a match once the current one is over (a match action).

    It belongs to nobody: ``player`` is None.
    """

    player: None = None

    def __post_init__(self) -> None:
        if self.player is not None:
            raise IllegalActionError("the next game is started by nobody in particular: player is None",
                                     Reason.BAD_VALUE)


Action = (
    Roll | Move | Double | Take | Drop | Beaver | Resign | AcceptResignation
    | RejectResignation | ChooseDouble | Timeout | NewGame
)


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of a game: who won, how, the cube, and the points it scores.

    ``timeout``: the loser ran out of time (:class:`Timeout`), which loses the
    match; ``points`` are then what the rule awards, not ``kind`` at the cube.
    """

    winner: int
    kind: ResultKind
    cube: int
    points: int
    resigned: bool = False
    dropped: bool = False
    checkers_left: int = 0
    timeout: bool = False


__all__ = [
    "AcceptResignation", "Action", "Beaver", "ChooseDouble", "Double", "Drop", "Event",
    "GameResult", "Move", "NewGame", "RejectResignation", "Resign", "Roll", "Take", "Timeout",
]
