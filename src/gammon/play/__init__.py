"""Play: players (bots, people, engines) and the :class:`Session` that drives every match.

>>> from gammon.play import HeuristicPlayer, RandomPlayer, play_match
>>> from gammon.core.dice import RandomDice
>>> from gammon.core.game import Rules
>>> m = play_match(Rules(match_length=3), (HeuristicPlayer(1), RandomPlayer(2)), RandomDice(3))
>>> m.is_over
True
"""

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
