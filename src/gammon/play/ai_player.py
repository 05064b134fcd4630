"""The neural engine as a :class:`~gammon.play.players.Player`: plays, cube, resignations.

Checker play comes from :class:`gammon.ai.engine.Engine` at the chosen level,
valued at the game's score and cube (match-aware: :mod:`gammon.ai.match_play`);
cube decisions from :meth:`Engine.cube_action` over the engine's evaluation of
the position before the roll at the level's own depth (money or match play,
with our own match equity table).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from gammon.ai.probabilities import equity
from gammon.core.cube import CubeAction
from gammon.core.game import Phase
from gammon.core.plays import Play
from gammon.core.position import ResultKind
from gammon.play.players import DoubleAnswer, can_beaver

if TYPE_CHECKING:
    from gammon.ai.cube_rollout import Role
    from gammon.ai.engine import Engine
    from gammon.core.game import Game


class AIPlayer:
    """The computer opponent driven by our own network and search.

    ``level`` is one of :data:`gammon.ai.search.LEVELS` (beginner ... strongest).
    Plays and cube decisions both use the level's depth (world-class and
    strongest 2-ply) and the game's score and cube.
    """

    def __init__(self, level: str = "expert", seed: int | None = None, engine: Engine | None = None) -> None:
        from gammon.ai.engine import Engine

        self.level = level
        self.engine = engine or Engine(level, seed=seed)

    def __repr__(self) -> str:
        return f"AIPlayer(level={self.level!r})"

    # -- checker play --------------------------------------------------------

    def choose_play(self, game: Game, plays: Sequence[Play]) -> Play:
        if len(plays) == 1:
            return plays[0]
        assert game.rolled is not None
        best = self.engine.best_play(game.position, game.rolled, game)
        for play in plays:
            if play.position == best.position:
                return play
        return plays[0]  # unreachable: the engine chooses among the same legal plays

    def hint(self, game: Game, count: int = 5):  # type: ignore[no-untyped-def]
        """The best plays of the roll in ``game`` at this player's depth, score and cube.

        A list of :class:`gammon.ai.engine.RankedPlay` (empty before a roll or
        when nothing can be played).
        """
        if game.rolled is None:
            return []
        return self.engine.hint(game.position, game.rolled, game, count)

    def choose_double_number(self, game: Game) -> int:
        """Acey-Deucey: the double whose best play leaves the highest equity."""
        best_number, best_equity = 1, -np.inf
        for n in range(1, 7):
            ranked = self.engine.rank_plays(game.position, (n, n), game)
            value = ranked[0].equity if ranked else -np.inf
            if value > best_equity:
                best_number, best_equity = n, value
        return best_number

    # -- the cube --------------------------------------------------------------

    def _decision(self, game: Game, role: Role):  # type: ignore[no-untyped-def]
        """The engine's decision, asked for ``role``'s question (a level that rolls out its
        close calls rolls out only those this side has to answer)."""
        return self.engine.cube_action(game.position, game, role)

    def cube_action(self, game: Game) -> CubeAction:
        return CubeAction.DOUBLE if self._decision(game, "doubler").action.doubles else CubeAction.NO_DOUBLE

    def answer_double(self, game: Game) -> DoubleAnswer:
        if game.phase is Phase.BEAVERED:
            # The engine doubled believing the opponent should not beaver; it takes the beaver.
            return CubeAction.TAKE
        taker: CubeAction = self._decision(game, "taker").taker_action
        if taker is CubeAction.BEAVER and not can_beaver(game):
            return CubeAction.TAKE
        return taker

    # -- resignations -----------------------------------------------------------

    def answer_resignation(self, game: Game, kind: ResultKind) -> bool:
        """Accept when the offer is worth at least what playing on is expected to win."""
        resigner = game.resignation[0] if game.resignation else 1 - game.player_to_act
        position = game.position if game.turn != resigner else game.position.swap()
        # ``position`` is now seen by the player answering (on roll or not, the
        # evaluation is close enough to judge an offer).
        expected = equity(self.engine.static_evaluator.evaluate(position))
        offered = game.points_for(ResultKind(kind)) / max(1, game.cube_value)
        return offered >= expected - 1e-9

    def resign(self, game: Game) -> ResultKind | None:
        """Never resigns: a person playing the computer wants the game played out."""
        return None


__all__ = ["AIPlayer"]
