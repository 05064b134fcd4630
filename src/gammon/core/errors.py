"""The errors gammon raises on bad input, one class per kind.

All are ``ValueError`` subclasses so callers that only care "was the input
bad?" can catch ``ValueError``; interfaces catch :class:`GammonError` and show
its message, which is written for a person.
"""

from __future__ import annotations

from enum import StrEnum


class GammonError(ValueError):
    """Base class of every error gammon raises for bad input or an illegal action."""


class InvalidPositionError(GammonError):
    """A position that cannot exist: wrong checker counts, both colours on a point, ..."""


class InvalidIdError(GammonError):
    """A Position ID, Match ID or XGID that is malformed or names an impossible state."""


class InvalidDiceError(GammonError):
    """Dice that are not two numbers from 1 to 6."""


class PlaySyntaxError(GammonError):
    """Move notation that cannot be read at all (``24/18 13/x``)."""


class IllegalPlayError(GammonError):
    """Move notation that reads fine but names no legal play for the roll."""


class AmbiguousPlayError(GammonError):
    """Move notation that fits more than one legal play."""


class Reason(StrEnum):
    """Why a game or match refused an action: callers branch on this, not on the text."""

    OUT_OF_TURN = "out_of_turn"
    ALREADY_ROLLED = "already_rolled"
    NOT_ROLLED = "not_rolled"
    CRAWFORD_NO_DOUBLE = "crawford_no_double"
    NOT_CUBE_OWNER = "not_cube_owner"
    CUBE_AT_MAX = "cube_at_max"
    CUBE_DISABLED = "cube_disabled"
    NO_DOUBLE_PENDING = "no_double_pending"
    DOUBLE_PENDING = "double_pending"
    BEAVER_NOT_ALLOWED = "beaver_not_allowed"
    NO_RESIGN_PENDING = "no_resign_pending"
    RESIGN_PENDING = "resign_pending"
    BAD_VALUE = "bad_value"
    ILLEGAL_PLAY = "illegal_play"
    GAME_OVER = "game_over"
    MATCH_OVER = "match_over"
    GAME_IN_PROGRESS = "game_in_progress"


class IllegalActionError(GammonError):
    """A game action that is not allowed in the current state (out of turn, ...).

    ``reason`` says why, as a :class:`Reason`; the message says it to a person.

    >>> IllegalActionError("the game is over", Reason.GAME_OVER).reason
    <Reason.GAME_OVER: 'game_over'>
    """

    def __init__(self, message: str, reason: Reason = Reason.BAD_VALUE) -> None:
        super().__init__(message)
        self.reason = reason

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (str(self), self.reason))
