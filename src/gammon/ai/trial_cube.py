"""The money cube as a rollout's trials follow it (:mod:`gammon.ai.rollout_trials`).

A cubeful money rollout's trials play the cube as they go, by the one money rule
(:mod:`gammon.ai.cube_money`), and stop where a double is passed; the replay after
the trials (:mod:`gammon.ai.rollout`) takes each turn's action from the same
function, so both end a trial at the same turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numba import njit

from gammon.ai.cube import OWNER_CODES, CubeInfo, money_stakes
from gammon.ai.cube_money import (
    BEAVERS,
    DP,
    DT,
    OWN_CENTRED,
    OWN_ME,
    OWN_OPPONENT,
    PASSES,
    choose_code,
    clamp_probs,
    money_values,
    taker_code,
)

if TYPE_CHECKING:
    from gammon.ai.rollout import RolloutSettings


class MoneyCube(NamedTuple):
    """The cube of a cubeful money rollout, for the trials to follow it
    (:func:`cube_turn`): whether they do (``on``), the cube at the start (``value``,
    ``owner``: :data:`~gammon.ai.cube_money.OWN_CENTRED`, ``OWN_ME`` for the root
    player, ``OWN_OPPONENT``), its ``limit``, whether ``beavers`` are allowed and
    ``gammons`` count, and what a single game, a gammon and a backgammon score once
    the cube is turned (``owned``) and while it is centred (``centred``); ``first``:
    whether the root player may double before his first roll
    (:attr:`~gammon.ai.rollout.RolloutSettings.first_cube_action`; match play's replay
    reads it too)."""

    on: bool
    value: int
    owner: int
    limit: int
    beavers: bool
    gammons: bool
    owned: np.ndarray
    centred: np.ndarray
    first: bool = True

    @classmethod
    def of(cls, settings: RolloutSettings, info: CubeInfo | None) -> MoneyCube:
        """The cube the trials follow: a cubeful money rollout's, else none (cubeless
        trials; in match play the cube is replayed afterwards only)."""
        if not settings.cubeful or info is None or not info.is_money:
            none = np.ones(3, dtype=np.int64)
            return cls(False, 1, OWN_CENTRED, 1, False, True, none, none, settings.first_cube_action)
        owned, centred = money_stakes(info)
        return cls(True, info.value, OWNER_CODES[info.owner], info.cube_limit, info.beavers,
                   info.gammons, np.array(owned, dtype=np.int64), np.array(centred, dtype=np.int64),
                   settings.first_cube_action)


@njit(cache=True)
def cube_turn(cube, state, probs, eff, root):  # type: ignore[no-untyped-def]
    """The money cube at a turn of a trial: the player on roll (the root player when
    ``root``) doubles if the rule says so (:mod:`gammon.ai.cube_money`, from his
    probabilities ``probs`` and cube efficiency ``eff``) and the other takes, passes or
    beavers.  ``state`` (2 int64): the cube's value and owner seen by the root player,
    updated; returns True when the double is passed (the game ends there).

    The same decisions as the cubeful replay of :mod:`gammon.ai.rollout` (the one rule,
    the same numbers), so a trial stopped here is the one the replay ends.
    """
    value = state[0]
    owner = state[1]
    mine = owner if root or owner == OWN_CENTRED else (OWN_ME if owner == OWN_OPPONENT else OWN_OPPONENT)
    if mine == OWN_OPPONENT or value * 2 > cube.limit:
        return False
    w, wg, wbg, lg, lbg = clamp_probs(probs[0], probs[1], probs[2], probs[3], probs[4])
    if not cube.gammons:
        wg = wbg = lg = lbg = 0.0
    nd, dt, dp, _ = money_values((w, wg, wbg, lg, lbg), mine, cube.owned, cube.centred, eff)
    action = choose_code(nd, dt, dp)
    if action != DT and action != DP:
        return False
    answer = taker_code(dt, dp, cube.beavers)
    if answer == PASSES:
        return True
    state[0] = min(value * 4, cube.limit) if answer == BEAVERS else value * 2
    state[1] = OWN_OPPONENT if root else OWN_ME
    return False
