"""What a play is worth at the score and cube: cubeful match-aware values of cubeless probabilities.

The search (:mod:`gammon.ai.search`) values every candidate play of a roll as
five cubeless probabilities in the MOVER's view, the opponent on roll.  Money
equity ``2w - 1 + wg - lg + wbg - lbg`` ranks them right only for money play
with a dead cube.  At a match score a gammon can be worth nothing (double
match point), twice a single (the trailer at 2-away/1-away with the cube at 1)
or anything between, and the cube changes what the next turn is worth.

:class:`PlayValuer` turns the probabilities after each play into the mover's
**cubeful** value: the opponent, on roll, takes the proper cube action of
:func:`gammon.ai.cube.cube_decision` (Janowski's model, money or our own match
equity table with its cube model), and the mover's value is the other side of
it.  Values are normalised to the current cube: money equity per cube in money
play (Jacoby rule and beavers included), EMG at a match score (where
``mwc`` gives the match winning chances too, and plays are ranked by MWC).
A play that ends the game is worth its exact result.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gammon.ai.cube import CubeInfo, board_efficiency, cube_decision
from gammon.ai.met import MatchEquityTable, default_met
from gammon.ai.probabilities import Probabilities


@dataclass(frozen=True, slots=True)
class PlayValues:
    """Match-aware values of ``n`` plays, in the mover's view.

    ``equity``: cubeful, normalised to the current cube (money equity, or EMG
    at a match score); ``mwc``: match winning chances (match play only);
    ``rank_key``: what ranks them (``mwc`` at a match score, else ``equity``).
    """

    equity: np.ndarray
    mwc: np.ndarray | None

    @property
    def rank_key(self) -> np.ndarray:
        return self.mwc if self.mwc is not None else self.equity


class PlayValuer:
    """Values plays at ``info``'s score and cube (see the module doc).

    ``info`` is the cube and score seen by the player about to move (the
    mover); ``met`` the match equity table (default: ours).
    """

    def __init__(self, info: CubeInfo, met: MatchEquityTable | None = None) -> None:
        self.info = info
        self._opp = info.swap()
        self.met = None if info.is_money else (met or default_met(max(info.away)))

    # -- values ---------------------------------------------------------------------

    def results(self, probs: np.ndarray, boards: np.ndarray) -> PlayValues:
        """Values of move results ``boards`` ``(n, 50)`` (mover first) with their
        mover's-view cubeless ``probs`` ``(n, 5)``."""
        p = np.asarray(probs, dtype=np.float64).reshape(-1, 5)
        b = np.asarray(boards, dtype=np.uint8).reshape(-1, 50)
        n = p.shape[0]
        eq = np.empty(n)
        mwc = None if self.met is None else np.empty(n)
        for r in range(n):
            if not b[r, :25].any():  # the mover has borne off everything
                e, m = self._finished(Probabilities.of(p[r]))
            else:
                e, m = self._after_play(Probabilities.of(p[r]), b[r])
            eq[r] = e
            if mwc is not None:
                mwc[r] = m
        return PlayValues(eq, mwc)

    def _after_play(self, y: Probabilities, board: np.ndarray) -> tuple[float, float]:
        """The opponent is on roll: its proper cube action, seen from the mover."""
        x = board_efficiency(board, 1)  # the opponent (side 1 of the mover's board) is on roll
        d = cube_decision(y.flipped().as_tuple(), self._opp, x, self.met)
        m = d.proper_mwc
        return -d.equity, (1.0 - m) if m is not None else 0.0

    def _finished(self, y: Probabilities) -> tuple[float, float]:
        """The mover has won: the exact result at this score and cube."""
        info = self.info
        kind = 1 + int(y.win_gammon > 0.5) + int(y.win_backgammon > 0.5)
        points = info.points_for(kind, 1)  # per cube, by core's scoring (gammons, Jacoby)
        if self.met is None:
            return float(points), 0.0
        a, b = info.away
        k = info.value
        after = self.met.after_post if (info.crawford or info.post_crawford) else self.met.after_pre
        m = after(a - points * k, b)
        c0, c1 = after(a - k, b), after(a, b - k)
        e = 0.0 if abs(c0 - c1) < 1e-12 else 2.0 * (m - c1) / (c0 - c1) - 1.0
        return e, m

    def __repr__(self) -> str:
        return f"PlayValuer({self.info!r})"
