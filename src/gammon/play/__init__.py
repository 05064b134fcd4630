"""Play: players (bots, people, engines) and the :class:`Session` that drives every match.

>>> from gammon.play import HeuristicPlayer, RandomPlayer, play_match
>>> from gammon.core.dice import RandomDice
>>> from gammon.core.game import Rules
>>> m = play_match(Rules(match_length=3), (HeuristicPlayer(1), RandomPlayer(2)), RandomDice(3))
>>> m.is_over
True
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gammon.play.players import (
        CubeAction,
        DoubleAnswer,
        HeuristicPlayer,
        Player,
        RandomPlayer,
        can_beaver,
    )
    from gammon.play.selfplay import run_selfplay
    from gammon.play.session import (
        Decision,
        DecisionKind,
        EventCallback,
        Person,
        Session,
        next_action,
        play_game,
        play_match,
    )

#: Names imported on first use, so that a command which needs only the levels
#: (``gammon.play.levels``) does not load the session and the game loop.
_LAZY = {
    **dict.fromkeys(["CubeAction", "DoubleAnswer", "HeuristicPlayer", "Player", "RandomPlayer",
                     "can_beaver"], "gammon.play.players"),
    "run_selfplay": "gammon.play.selfplay",
    **dict.fromkeys(["Decision", "DecisionKind", "EventCallback", "Person", "Session", "next_action",
                     "play_game", "play_match"], "gammon.play.session"),
}


def __getattr__(name: str) -> object:
    from gammon.lazy_names import lazy_attribute

    return lazy_attribute(__name__, _LAZY, globals(), name)


__all__ = [
    "CubeAction",
    "Decision",
    "DecisionKind",
    "DoubleAnswer",
    "EventCallback",
    "HeuristicPlayer",
    "Person",
    "Player",
    "RandomPlayer",
    "Session",
    "can_beaver",
    "next_action",
    "play_game",
    "play_match",
    "run_selfplay",
]
