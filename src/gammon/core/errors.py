"""The errors gammon raises on bad input, one class per kind.

All are ``ValueError`` subclasses so callers that only care "was the input
bad?" can catch ``ValueError``; interfaces catch :class:`GammonError` and show
its message, which is written for a person.
"""

from __future__ import annotations


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


class IllegalActionError(GammonError):
    """A game action that is not allowed in the current state (out of turn, ...)."""
