"""gammon: backgammon rules, play, AI and analysis.

>>> from gammon import Position
>>> len(Position.initial().legal_plays((3, 1)))
16
"""

from gammon.core.errors import (
    AmbiguousPlayError,
    GammonError,
    IllegalActionError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidIdError,
    InvalidPositionError,
    PlaySyntaxError,
)
from gammon.core.plays import CheckerMove, Play
from gammon.core.position import LegalPlays, Outcome, Position, ResultKind
from gammon.core.variants import VARIANTS, Variant, find_variant

__all__ = [
    "AmbiguousPlayError",
    "CheckerMove",
    "GammonError",
    "IllegalActionError",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidIdError",
    "InvalidPositionError",
    "LegalPlays",
    "Outcome",
    "Play",
    "PlaySyntaxError",
    "Position",
    "ResultKind",
    "VARIANTS",
    "Variant",
    "find_variant",
]
