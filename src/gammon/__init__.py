"""gammon: backgammon rules, play, AI and analysis.

>>> from gammon import Position
>>> len(Position.initial().legal_plays((3, 1)))
16
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
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
        Timeout,
    )
    from gammon.core.game import Game
    from gammon.core.legal_plays import LegalPlays
    from gammon.core.match import Match
    from gammon.core.phase import Phase
    from gammon.core.plays import CheckerMove, Play
    from gammon.core.position import Outcome, Position, ResultKind
    from gammon.core.rules import CENTERED, Rules
    from gammon.core.variants import VARIANTS, Variant, find_variant

#: Names imported on first use: the move generator behind them loads numba (about a
#: second), which ``gammon play`` should not wait for before it says anything.
_LAZY = {
    **dict.fromkeys(
        ["AcceptResignation", "Beaver", "ChooseDouble", "Double", "Drop", "Move", "NewGame",
         "RejectResignation", "Resign", "Roll", "Take", "Timeout"], "gammon.core.actions"),
    "Game": "gammon.core.game", "Phase": "gammon.core.phase", "Match": "gammon.core.match",
    "CENTERED": "gammon.core.rules", "Rules": "gammon.core.rules",
    "CheckerMove": "gammon.core.plays", "Play": "gammon.core.plays",
    "LegalPlays": "gammon.core.legal_plays", "Outcome": "gammon.core.position",
    "Position": "gammon.core.position", "ResultKind": "gammon.core.position",
    "VARIANTS": "gammon.core.variants", "Variant": "gammon.core.variants",
    "find_variant": "gammon.core.variants",
}


def __getattr__(name: str) -> object:
    from gammon.lazy_names import lazy_attribute

    return lazy_attribute(__name__, _LAZY, globals(), name)


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
    "Timeout",
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
