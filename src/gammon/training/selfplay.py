"""The compiled self-play game loop shared by training, refinement and the strength figure.

A turn (:func:`play_turn`) rolls with a seeded splitmix64 generator inside numba
(so a run is reproducible and its state is part of a checkpoint), generates
every distinct legal result under the variant's rules, and lets a
:class:`~gammon.training.bundles.Policy` choose: the net (all results encoded
and evaluated in one batch, the best by cubeless equity, with probability
``eps`` a random one) or a fixed heuristic.  :func:`strength` plays pairs of
such games between two policies.  TD(lambda) learning
(:mod:`gammon.training.train`) and position collection
(:mod:`gammon.training.positions`) drive the same turn.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gammon.ai.encoding import encode_into, swap_into
from gammon.ai.heuristic import yardstick_score
from gammon.ai.network import Network, equity_of, forward_one, net_index, side_empty, terminal_into
from gammon.ai.rng import GOLDEN, M1, next_u64
from gammon.ai.scoring import points_kernel
from gammon.core import movegen
from gammon.core.variants import STANDARD, Variant, find_variant
from gammon.training.bundles import (
    HEURISTIC,
    MAX_SELFPLAY_PLIES,
    NET,
    Policy,
    Rules,
    Scratch,
    policy,
    scratch,
    variant_rules,
)

#: Column of a generated move row holding the dice it used (see ``movegen.MOVE_COLS``).
_USED = 12


# -- random numbers ------------------------------------------------------------


@njit(cache=True)
def die(state):  # type: ignore[no-untyped-def]
    """One die (1 to 6) from the generator ``state``."""
    return np.int64(next_u64(state) % np.uint64(6)) + 1


@njit(cache=True)
def uniform(state):  # type: ignore[no-untyped-def]
    """A float in [0, 1) from the generator ``state`` (53 bits)."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def below(state, n):  # type: ignore[no-untyped-def]
    """An integer in [0, ``n``) from the generator ``state``."""
    return np.int64(next_u64(state) % np.uint64(n))


def seed_state(seed: int) -> np.ndarray:
    """A generator state for ``seed``."""
    s = np.zeros(1, dtype=np.uint64)
    s[0] = (seed * int(M1) + int(GOLDEN)) & 0xFFFFFFFFFFFFFFFF
    return s


# -- a fixed baseline player -----------------------------------------------------


# -- one turn ------------------------------------------------------------------


@njit(cache=True)
def roll(rng, first):  # type: ignore[no-untyped-def]
    """Two dice; with ``first`` a double is thrown again (an opening that rerolls them)."""
    d1 = die(rng)
    d2 = die(rng)
    while first and d1 == d2:
        d1 = die(rng)
        d2 = die(rng)
    return d1, d2


@njit(cache=True)
def _pick(pol, n, checkers, sc):  # type: ignore[no-untyped-def]
    """The best of the ``n`` generated results in ``sc.gb`` by ``pol`` and its value for
    the mover.

    The net (greedy by cubeless equity; a finished game wins at once) leaves each
    result's inputs and probabilities with the opponent on roll in ``sc.cx[r]`` and
    ``sc.cy[r]``; the heuristic scores the boards.
    """
    best = 0
    bestv = -1e30
    gb, cx, cy, tmp = sc.gb, sc.cx, sc.cy, sc.tmp
    if pol.kind == NET:
        w = pol.weights
        h = np.empty(w.b1.shape[1], dtype=np.float32)
        knets = w.w1.shape[0]
        for r in range(n):
            row = gb[r]
            if side_empty(row, 0):
                terminal_into(row, checkers, cy[r])
                return r, 1e6
            swap_into(row, tmp)
            encode_into(tmp, cx[r])
            forward_one(cx[r], w.w1, w.b1, w.w2, w.b2, net_index(tmp, knets), h, cy[r])
            v = -equity_of(cy[r])
            if v > bestv:
                bestv = v
                best = r
        return best, bestv
    for r in range(n):
        v = yardstick_score(gb[r], checkers)
        if v > bestv:
            bestv = v
            best = r
    return best, bestv


@njit(cache=True)
def _choose(pol, board, d1, d2, flags, checkers, rng, sc):  # type: ignore[no-untyped-def]
    """Generate the results of a roll under the generator ``flags`` and pick one.

    Returns (count, index); with probability ``pol.eps`` the net's choice is
    replaced by a random result (exploration).
    """
    n = movegen.generate(board, d1, d2, flags, checkers, sc.gb, sc.gm, sc.table)
    if n == 0:
        return 0, -1
    best, _v = _pick(pol, n, checkers, sc)
    if pol.kind == NET and pol.eps > 0.0 and not side_empty(sc.gb[best], 0) and uniform(rng) < pol.eps:
        best = below(rng, n)
    return n, best


@njit(cache=True)
def _best_double(pol, board, flags, checkers, sc, best_board):  # type: ignore[no-untyped-def]
    """Acey-Deucey's double of choice: the best result by ``pol`` over the six doubles.

    ``best_board`` gets it; returns the dice it used (0: no double could be played).
    """
    found = False
    bestv = -1e30
    bused = 0
    for dd in range(1, 7):
        n = movegen.generate(board, dd, dd, flags, checkers, sc.gb, sc.gm, sc.table)
        if n == 0:
            continue
        r, v = _pick(pol, n, checkers, sc)
        if v > bestv:
            bestv = v
            found = True
            bused = sc.gm[r, _USED]
            for i in range(50):
                best_board[i] = sc.gb[r, i]
    return bused if found else -1


@njit(cache=True)
def play_turn(pol, board, pools, first, rules, rng, sc, out):  # type: ignore[no-untyped-def]
    """Play one whole turn of the player on roll of ``board`` by ``pol`` under ``rules``.

    ``pools`` = never-entered checkers (mover, opponent) (Acey-Deucey's pool: of
    the checkers at index 24, that many may wait; entries take hit ones first).
    Acey-Deucey: "if both the 1 and the 2 were legally played, the player's
    chosen double follows; if all four of those moves were played too, the dice
    are thrown again" (the double is chosen with its play: the best result over
    the six doubles).  ``out`` gets the final board in the mover's view.
    Returns 1 when the mover won (``out``'s side 0 is empty), else 0; ``pools``
    is updated for the mover (not swapped).
    """
    checkers = rules.checkers
    for i in range(50):
        out[i] = board[i]
    stage = 0
    opening = first
    best_board = np.empty(50, dtype=np.uint8)
    while True:
        if stage == 0:
            d1, d2 = roll(rng, opening and rules.reroll == 0)
            opening = False
            n, best = _choose(pol, out, d1, d2, rules.flags | (pools[0] << 8), checkers, rng, sc)
            if n == 0:
                return 0
            used = sc.gm[best, _USED]
            for i in range(50):
                out[i] = sc.gb[best, i]
            if out[24] < pools[0]:
                pools[0] = out[24]
            if side_empty(out, 0):
                return 1
            if rules.bonus != 0 and d1 + d2 == 3 and d1 != d2 and used == 2:
                stage = 1
                continue
            return 0
        bused = _best_double(pol, out, rules.flags | (pools[0] << 8), checkers, sc, best_board)
        if bused < 0:
            return 0
        for i in range(50):
            out[i] = best_board[i]
        if out[24] < pools[0]:
            pools[0] = out[24]
        if side_empty(out, 0):
            return 1
        if bused == 4:
            stage = 0
            continue
        return 0


@njit(cache=True)
def pass_turn(after, pools, board):  # type: ignore[no-untyped-def]
    """The turn passes: ``board`` gets ``after`` (the mover's view after the turn) seen by
    the other player, and the two pools change places."""
    swap_into(after, board)
    p = pools[0]
    pools[0] = pools[1]
    pools[1] = p


# -- a game and a match ------------------------------------------------------------


@njit(cache=True)
def _result_points(b, checkers=15, per_checker=False):  # type: ignore[no-untyped-def]
    """Points won by the player whose side of ``b`` is empty: 1, 2 or 3 (single, gammon,
    backgammon), or with ``per_checker`` (Acey-Deucey) the loser's checkers not borne off."""
    if per_checker:
        left = 0
        for i in range(25):
            left += b[25 + i]
        return points_kernel(1, 1, True, True, False, True, True, left)
    out = np.empty(5, dtype=np.float32)
    terminal_into(b, checkers, out)
    # Cubeless money scoring (cube 1, gammons count): core's rule through its compiled twin.
    return points_kernel(1 + int(out[1]) + int(out[2]), 1, True, True, False, True, False, 0)


@njit(cache=True)
def _play_game(rules, pa, pb, rng, sc):  # type: ignore[no-untyped-def]
    """One game between policy ``pa`` (moves first) and ``pb``; returns A's points
    (0: abandoned)."""
    board = rules.start.copy()
    after = np.empty(50, dtype=np.uint8)
    pools = np.empty(2, dtype=np.int64)
    pools[0] = rules.pool
    pools[1] = rules.pool
    for t in range(MAX_SELFPLAY_PLIES):
        p = t % 2
        if p == 0:
            won = play_turn(pa, board, pools, t == 0, rules, rng, sc, after)
        else:
            won = play_turn(pb, board, pools, t == 0, rules, rng, sc, after)
        if won:
            pts = _result_points(after, rules.checkers, rules.per_checker)
            return pts if p == 0 else -pts
        pass_turn(after, pools, board)
    return 0


@njit(cache=True)
def _match(npairs, seed0, rules, pa, pb, sc):  # type: ignore[no-untyped-def]
    """``npairs`` pairs of games with the same dice, A first then B first.

    Returns (A's total points, A's wins, games, A's sum of squared pair totals)."""
    rng = np.zeros(1, dtype=np.uint64)
    total = 0
    wins = 0
    sq = 0
    for p in range(npairs):
        pair = 0
        for side in range(2):
            rng[0] = np.uint64(seed0 + p) * M1 + GOLDEN
            if side == 0:
                pts = _play_game(rules, pa, pb, rng, sc)
            else:
                pts = -_play_game(rules, pb, pa, rng, sc)
            total += pts
            pair += pts
            if pts > 0:
                wins += 1
        sq += pair * pair
    return total, wins, 2 * npairs, sq


def strength(net: Network, games: int = 200, seed: int = 12345,
             opponent: Network | None = None,
             variant: str | Variant = STANDARD) -> dict[str, float]:
    """Win rate and points per game of ``net`` against the heuristic (or ``opponent``)
    in ``variant`` (0-ply, cubeless; Acey-Deucey scores per checker left).

    Pairs of games share their dice with the sides exchanged; same seeds every call.
    ``se`` is the standard error of ``ppg`` over the pairs.
    """
    rules: Rules = variant_rules(find_variant(variant))
    a: Policy = policy(NET, net)
    b: Policy = policy(NET, opponent) if opponent is not None else policy(HEURISTIC, net)
    sc: Scratch = scratch()
    npairs = max(1, games // 2)
    total, wins, n, sq = _match(npairs, seed, rules, a, b, sc)
    mean_pair = total / npairs
    var = max(0.0, sq / npairs - mean_pair * mean_pair)
    se = (var / max(1, npairs - 1)) ** 0.5 / 2.0
    return {"win": wins / n, "ppg": total / n, "se": se}
