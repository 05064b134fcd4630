"""Sibling groups of a refinement dataset, and how well a net ranks each group's plays.

A 0-ply net plays by ranking the results of one roll against each other, so what matters for
its checker play is the *differences* between sibling positions' values, not their levels.
The cross-entropy of :mod:`gammon.training.fitting` weighs a position's level and its place
among its siblings alike.  The ranking term here (``fitting.fit(..., groups=,
rank_weight=)``) adds the squared error of each sibling's equity measured from its group's
mean, so the fit spends its capacity where the play is decided.

**Groups.**  :func:`gammon.training.positions.sibling_positions` writes the results of the base
net's best plays of one roll one after another, each seen by the next player on roll.  The
datasets do not mark where a group ends, so :func:`sibling_groups` finds it: two consecutive
rows come from the same roll when the side that just moved has the same pip count in both
(one roll moved it the same distance) and the side on roll differs only by blots the mover
hit (a point with one checker in one row and none in the other, each such checker on the bar
in the other).  Two different positions that happen to meet both tests are rare (the mover
alternates between consecutive self-play positions), and such a merge only adds one more
comparison between two positions' values.

**The figures** (:func:`ranking_figures`): over groups of two or more, how often the net's
choice (the result worst for the side on roll: the mover's best) is the target's choice, and
the mean regret, the target equity lost by playing the net's choice instead: the quantity
0-ply checker play is judged by.
"""

from __future__ import annotations

import numpy as np

from gammon.ai.probabilities import equities
from gammon.core.errors import GammonError

__all__ = [
    "EQUITY_WEIGHTS",
    "choice_regrets",
    "equities",
    "group_residuals",
    "ranking_figures",
    "sibling_groups",
    "split_by_groups",
]

#: Cubeless money equity (:func:`gammon.ai.probabilities.equities`) = 2 w - 1 + wg - lg + wbg - lbg:
#: its weights on the five outputs, for the ranking term's gradient.
EQUITY_WEIGHTS = np.array([2.0, 1.0, 1.0, -1.0, -1.0])


def _pips(side: np.ndarray) -> np.ndarray:
    """Pip counts of sides ``(n, 25)``: points 1..24 and the bar (25 pips)."""
    out: np.ndarray = side.astype(np.int64) @ np.arange(1, 26, dtype=np.int64)
    return out


def sibling_groups(boards: np.ndarray) -> np.ndarray:
    """A group number per row of ``boards`` ``(n, 50)`` (player on roll first), consecutive
    rows from one roll sharing one (see the module doc); numbers rise from 0."""
    b = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, 50).astype(np.int64)
    n = len(b)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    on_roll, mover = b[:, :25], b[:, 25:]
    same_mover = _pips(mover[1:]) == _pips(mover[:-1])
    a, c = on_roll[1:, :24], on_roll[:-1, :24]
    differ = a != c
    only_blots = np.all(~differ | ((a + c) == 1), axis=1)
    # every checker that left a point is on the bar (and the other way round)
    conserved = (a.sum(axis=1) - c.sum(axis=1)) == (on_roll[:-1, 24] - on_roll[1:, 24])
    same = same_mover & only_blots & conserved
    groups: np.ndarray = np.concatenate([[0], np.cumsum(~same)]).astype(np.int64)
    return groups


def group_residuals(e: np.ndarray, t: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each row's equity error measured from its group's mean: ``(e - mean e) - (t - mean t)``
    over the rows given (a group's rows elsewhere do not count); 0 for a row alone."""
    _, inv, counts = np.unique(groups, return_inverse=True, return_counts=True)
    d = np.asarray(e, dtype=np.float64) - np.asarray(t, dtype=np.float64)
    mean = np.bincount(inv, weights=d) / counts
    out: np.ndarray = d - mean[inv]
    return out


def split_by_groups(groups: np.ndarray, holdout: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Row indices (training, held out) with a seeded share ``holdout`` of whole groups held
    out, so that the held-out rows can be ranked within their groups."""
    if not 0.0 < holdout < 1.0:
        raise GammonError("the held-out share must be between 0 and 1")
    ids = np.unique(groups)
    rng = np.random.default_rng(seed + 7919)
    chosen = rng.permutation(ids)[: max(1, int(round(holdout * len(ids))))]
    held = np.isin(groups, chosen)
    return np.flatnonzero(~held), np.flatnonzero(held)


def choice_regrets(probs: np.ndarray, targets: np.ndarray, groups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per group of two or more rows: (the net's choice is the target's best, the regret).

    Rows are seen by the player on roll after the play, so the mover's choice is the row with
    the lowest equity; the regret is the target equity of the net's choice less the lowest.
    """
    e, t = equities(probs), equities(targets)
    _, inv, counts = np.unique(groups, return_inverse=True, return_counts=True)
    order = np.argsort(inv, kind="stable")
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    agree, regret = [], []
    for s, c in zip(starts, counts, strict=True):
        if c < 2:
            continue
        rows = order[s:s + c]
        pick, best = rows[np.argmin(e[rows])], rows[np.argmin(t[rows])]
        agree.append(pick == best)
        regret.append(t[pick] - t[best])
    return np.array(agree, dtype=bool), np.array(regret, dtype=np.float64)


def ranking_figures(probs: np.ndarray, targets: np.ndarray, groups: np.ndarray) -> tuple[int, float, float]:
    """(groups of two or more, share where the net's choice is the target's, mean regret):
    :func:`choice_regrets` summed up."""
    agree, regret = choice_regrets(probs, targets, groups)
    n = len(regret)
    return n, (float(agree.mean()) if n else 0.0), (float(regret.mean()) if n else 0.0)
