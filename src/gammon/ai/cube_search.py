"""Cube decisions that look ahead: cubeful values at the leaves of an n-ply search.

:func:`gammon.ai.cube.cube_decision` turns one set of cubeless probabilities
into cubeful equities with a fixed cube efficiency (Janowski's model, money or
match).  One efficiency for every position is a rough average: a volatile,
gammonish position loses its market far more often than a quiet one, and the
formula cannot see that.  Fed deeper cubeless probabilities the formula still
cannot see it, because the volatility is averaged away before it is applied.

A search sees it.  The player on roll considers doubling; for each of the 21
rolls he plays his best play **for that cube state**, and the opponent, on roll
after it, takes his own proper cube action.  At the search's last ply that
action comes from :func:`~gammon.ai.cube.cube_decision` on the 0-ply
probabilities (:class:`~gammon.ai.match_play.PlayValuer`, the same values the
checker play ranks by); above it, from the same search one ply shallower.  So

* no double = the average over the rolls with the cube as it is;
* double/take = the same with the cube doubled and owned by the opponent;
* double/pass = the cash.

A roll that takes the game past the point where the opponent would still take
(a market loser) is worth only what the position is worth from there, at most
the cash that doubling now would have won (more only with gammons, playing on),
which is how the market losers of a volatile position lower its no-double value
against double/take.  An ``n``-ply cube decision here applies Janowski's
formula ``n`` rolls ahead (0-ply: the formula at the root, as
:func:`~gammon.ai.cube.cube_action` does).

Values inside the search are match winning chances at a match score and points
(cube value times normalised equity) in money play, so the two cube states of
one decision are compared in one unit; the decision reports them as the usual
normalised equities (EMG at a match score).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from gammon.ai.cube import (
    NO_DOUBLE,
    CubeDecision,
    CubeInfo,
    choose_action,
    cube_decision,
    cube_efficiency,
    refusal,
    taker_action,
)
from gammon.ai.match_play import PlayValuer
from gammon.ai.met import MatchEquityTable, default_met
from gammon.ai.probabilities import equities, flip_rows
from gammon.ai.search import PlyEvaluator, search_flags
from gammon.core.dice import WEIGHTED_ROLLS
from gammon.core.errors import GammonError
from gammon.core.position import LegalPlays, Position

__all__ = ["ROLLS", "cubeful_cube_action"]

#: The 21 distinct rolls and how many of the 36 each stands for (core's table).
ROLLS = WEIGHTED_ROLLS

#: Plays per roll valued cubefully: the best of them by cubeless equity.  A play outside
#: the first eight cubelessly is practically never the cubeful best (the cube moves values
#: by far less than the gap), and valuing every play would cost several times more.
CANDIDATES = 8
#: The same below the first ply, where the positions are many and each matters less.
INNER_CANDIDATES = 3


class _Search:
    """One cubeful look-ahead over ``ev`` (its 0-ply nets), with ``met`` for match play."""

    def __init__(self, ev: PlyEvaluator, met: MatchEquityTable | None) -> None:
        self.ev = ev
        self.met = met
        self._valuers: dict[CubeInfo, PlayValuer] = {}
        #: best_value by (board, pool, cube state, depth): the no-double and the double
        #: lines often reach the same position after the same roll.
        self._best: dict[tuple[bytes, tuple[int, int], CubeInfo, int], float] = {}

    def valuer(self, info: CubeInfo) -> PlayValuer:
        v = self._valuers.get(info)
        if v is None:
            v = self._valuers[info] = PlayValuer(info, self.met)
        return v

    # -- units ----------------------------------------------------------------------

    def cash(self, info: CubeInfo) -> float:
        """The player on roll's value when his double is passed (the cube's points)."""
        if info.is_money:
            return float(info.value)
        assert self.met is not None
        a, b = info.away
        return self.met.after_game(a - info.value, b, info.crawford or info.post_crawford)

    @staticmethod
    def other_side(info: CubeInfo, value: float) -> float:
        """The same value seen by the other player."""
        return -value if info.is_money else 1.0 - value

    def leaf_values(self, info: CubeInfo, probs: np.ndarray, boards: np.ndarray) -> np.ndarray:
        """The mover's values after plays (``boards``, mover first), the opponent on roll taking
        his proper cube action from the 0-ply probabilities."""
        values = self.valuer(info).results(probs, boards)
        if values.mwc is not None:
            return values.mwc
        return values.equity * info.value

    # -- the search -------------------------------------------------------------------

    def best_value(self, position: Position, info: CubeInfo, plies: int) -> float:
        """The value of the player on roll after his proper cube action, ``plies`` deep."""
        key = (position.board, position.pool, info, plies)
        found = self._best.get(key)
        if found is not None:
            return found
        if refusal(info) is not None:
            value = float(self.ahead(position, [info], plies)[0][0])
        else:
            (nd, dt), _ = self.ahead(position, [info, info.after_double()], plies)
            value = max(float(nd), min(float(dt), self.cash(info)))
        self._best[key] = value
        return value

    def ahead(self, position: Position, infos: Sequence[CubeInfo], plies: int,
              width: int = INNER_CANDIDATES) -> tuple[np.ndarray, np.ndarray]:
        """Values of the player on roll of ``position`` before his roll, for each cube state of
        ``infos``, looking ``plies`` rolls ahead, and the average cubeless probabilities after
        his best plays for the first state (his view, the opponent on roll).  ``width``: how
        many plays of each roll (the best by cubeless equity) are valued cubefully."""
        ev = self.ev
        v = position.variant
        flags = search_flags(position)
        totals = np.zeros(len(infos))
        probs_total = np.zeros(5)
        for dice, weight in ROLLS:
            n, _ = ev.roll(position.board, dice, v.checkers, flags)
            if n == 0:  # no play: the same position, the opponent on roll
                boards = np.frombuffer(position.board, dtype=np.uint8).reshape(1, 50).copy()
                probs = flip_rows(ev.inner.evaluate_batch([position.swap()]))
                plays = None
            else:
                ws = ev.workspace
                order = np.argsort(-equities(ws.ys[:n].astype(np.float64)), kind="stable")[:width]
                boards = ws.boards[0, order].copy()
                probs = ws.ys[order].astype(np.float64)
                plays = (boards, ws.moves[0, order].copy())
            for j, info in enumerate(infos):
                values = self.leaf_values(info, probs, boards)
                best = int(np.argmax(values))
                if j == 0:
                    probs_total += weight * probs[best]
                value = float(values[best])
                if plies > 1 and boards[best, :25].any():
                    after = self._result(position, plays, best)
                    opp = info.swap()
                    value = self.other_side(info, self.best_value(after.swap(), opp, plies - 1))
                totals[j] += weight * value
        return totals / 36.0, probs_total / 36.0

    @staticmethod
    def _result(position: Position, plays: tuple[np.ndarray, np.ndarray] | None, k: int) -> Position:
        """The position after candidate ``k`` (the mover still on roll's view)."""
        if plays is None:
            return position
        boards, moves = plays
        found = LegalPlays.from_blocks(position, boards[k:k + 1].tobytes(), moves[k:k + 1].tobytes(), 1)
        return found[0].position


def _normalise(info: CubeInfo, met: MatchEquityTable | None, value: float) -> float:
    """A search value as equity normalised to ``info``'s cube (EMG at a match score)."""
    if info.is_money:
        return value / info.value
    assert met is not None
    a, b = info.away
    return met.mwc_to_emg(value, a, b, info.value, info.crawford or info.post_crawford)


def cubeful_cube_action(ev: PlyEvaluator, position: Position, info: CubeInfo, plies: int,
                        met: MatchEquityTable | None = None, value_double: bool = False) -> CubeDecision:
    """The cube decision of the player on roll, looking ``plies`` (1 or more) rolls ahead.

    See the module documentation.  The take point, efficiency and cubeless
    equity reported are those of the root formula on the averaged cubeless
    probabilities after the best plays (informative; the decision is the search's).

    Where the player should not double (:func:`~gammon.ai.cube.refusal`) the
    decision is no double and, by default, all three equities are the no
    double's.  ``value_double``: a double was made all the same (a dead cube),
    and an analysis must know what it cost: double/take and double/pass are
    then valued as usual (as :func:`~gammon.ai.cube.cube_decision` reports
    them), the action staying no double.

    :raises GammonError: a finished game or a depth below 1.
    """
    if plies < 1:
        raise GammonError("a cube look-ahead needs 1 ply or more")
    if position.outcome is not None:
        raise GammonError("the game is over: there is no cube decision")
    if not info.is_money:
        met = met or default_met(max(info.away))
    search = _Search(ev, met)
    why = refusal(info)
    judged = why is not None and value_double and 2 * info.value <= info.cube_limit
    states = [info] if why is not None and not judged else [info, info.after_double()]
    values, probs = search.ahead(position, states, plies, CANDIDATES)
    # The root formula on the first ply's cubeless probabilities, for the take point and the
    # cubeless equity it reports.
    root = cube_decision(probs, info, cube_efficiency(position), met)
    if judged:
        nd_v, dt_v = (float(x) for x in values)
        dp_v = search.cash(info)
        nd, dt, dp = (_normalise(info, met, float(x)) for x in (nd_v, dt_v, dp_v))
        mwc = None if info.is_money else (nd_v, dt_v, dp_v)
        taker = taker_action(dt_v, dp_v, info.is_money and info.beavers)
        return CubeDecision(NO_DOUBLE, nd, dt, dp, taker, f"{why} (ND {nd:+.3f}, D/T {dt:+.3f}, D/P {dp:+.3f})",
                            False, root.cubeless_equity, root.take_point, root.efficiency, mwc)
    if why is not None:
        nd_v = float(values[0])
        nd = _normalise(info, met, nd_v)
        mwc = None if info.is_money else (float(nd_v), float(nd_v), float(nd_v))
        return CubeDecision(NO_DOUBLE, nd, nd, nd, root.taker_action, why, False, root.cubeless_equity,
                            root.take_point, root.efficiency, mwc)
    nd_v, dt_v = (float(x) for x in values)
    dp_v = search.cash(info)
    nd, dt, dp = (_normalise(info, met, float(x)) for x in (nd_v, dt_v, dp_v))
    action = choose_action(nd_v, dt_v, dp_v)
    taker = taker_action(dt_v, dp_v, info.is_money and info.beavers)
    text = (f"{plies}-ply cubeful look-ahead: ND {nd:+.3f}, D/T {dt:+.3f}, D/P {dp:+.3f}"
            f"{'' if info.is_money else ' (EMG)'}; {action}, the taker should {taker}")
    mwc = None if info.is_money else (float(nd_v), float(dt_v), float(dp_v))
    return CubeDecision(action, nd, dt, dp, taker, text, True, root.cubeless_equity, root.take_point,
                        root.efficiency, mwc)

