"""A candidate play with its value: what the engine's and the net's rankings return.

One type for both: :meth:`gammon.ai.engine.Engine.rank_plays` (a search at a
level, maybe at a match score) and :meth:`gammon.ai.network.Network.rank_plays`
(the bare net's 0-ply ranking, used by training).
"""

from __future__ import annotations

from typing import NamedTuple

from gammon.ai.probabilities import Probabilities
from gammon.core.plays import Play


class RankedPlay(NamedTuple):
    """A candidate play after a search.

    ``probabilities`` and ``equity`` are the MOVER's after the play (the
    opponent to roll); ``difference`` is ``equity`` minus the best play's
    (0 for the best, negative for the others); ``plies`` is the depth the
    value comes from (plays filtered out early keep their shallower value).

    Ranked with a ``match``, ``equity`` is the mover's cubeful equity at that
    score and cube (money equity per cube, or EMG), ``mwc`` the match winning
    chance (match play) and ``cubeless_equity`` the cubeless money equity;
    without one, ``equity`` is cubeless money and both stay None.
    """

    play: Play
    probabilities: Probabilities
    equity: float
    difference: float
    plies: int
    cubeless_equity: float | None = None
    mwc: float | None = None

    def __str__(self) -> str:
        return f"{self.play} {self.equity:+.3f} ({self.difference:+.3f})"


__all__ = ["RankedPlay"]
