"""gammon: backgammon rules, play, AI and analysis.

>>> from gammon import Position
>>> len(Position.initial().legal_plays((3, 1)))
16
"""

from gammon.core.actions import (
    AcceptResignation,
    Beaver,
    ChooseDouble,
    Double,
    Drop,
    Move,
    NewGame,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from gammon.core.errors import (
    AmbiguousPlayError,
    GammonError,
    IllegalActionError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidIdError,
    InvalidPositionError,
    PlaySyntaxError,
    Reason,
)
from gammon.core.game import Game, Phase
from gammon.core.match import Match
from gammon.core.plays import CheckerMove, Play
from gammon.core.position import LegalPlays, Outcome, Position, ResultKind
from gammon.core.rules import CENTERED, Rules
from gammon.core.variants import VARIANTS, Variant, find_variant

__all__ = [
    "CENTERED",
    "AcceptResignation",
    "Beaver",
    "ChooseDouble",
    "Double",
    "Drop",
    "Game",
    "Match",
    "Move",
    "NewGame",
    "Phase",
    "Reason",
    "RejectResignation",
    "Resign",
    "Roll",
    "Rules",
    "Take",
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
