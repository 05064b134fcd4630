"""The hand-written heuristics: how good a move result is without the neural nets.

Two compiled scorers, on purpose, each pinned by its own tests:

* :func:`play_score` / :func:`score_positions` (one compiled loop over the boards): the
  ``heuristic`` level's bot (:class:`gammon.play.players.HeuristicPlayer`):
  pips, blots weighted by the rolls that hit them and by what being hit costs,
  points by their value, primes, hits; races by checkers off, pips and wastage.
* :func:`yardstick_score`: the fixed baseline of the training reports
  (:func:`gammon.training.selfplay.strength`): a simpler pip, point, prime and
  shot count.  It stays as it is because every training run's "against the
  heuristic" figure is measured against it; changing it to the bot's scorer
  would make old and new figures incomparable (and change the pins in
  ``tests/ai/test_ai_playout_pins.py``).

Both live here, in the lowest layer that can compile them, with one contact
test (:func:`gammon.ai.encoding.is_contact`) and one pip count
(:func:`gammon.core.pips.pips`).

Every board is a position's 50 bytes (``Position.board``): indices 0..23
are the player-on-roll's points 1..24 and 24 its bar; 25..49 the opponent's,
seen from the opponent's side (its point ``k + 1`` is our point ``24 - k``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from gammon.ai.encoding import is_contact as _encoded_contact
from gammon.ai.hits_escapes import shots as _encoded_shots
from gammon.ai.network import side_empty
from gammon.core.pips import pips
from gammon.core.position import Position

# -- the heuristic bot's scorer ---------------------------------------------

def _roll_table() -> tuple[np.ndarray, np.ndarray]:
    """The 21 rolls: masks of the distances a checker can travel (bit d), weights out of 36."""
    masks, weights = [], []
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            if d1 == d2:
                masks.append(sum(1 << (d1 * k) for k in range(1, 5)))
                weights.append(1)
            else:
                masks.append((1 << d1) | (1 << d2) | (1 << (d1 + d2)))
                weights.append(2)
    return np.array(masks, dtype=np.int64), np.array(weights, dtype=np.int64)


_ROLL_MASKS, _ROLL_WEIGHTS = _roll_table()

#: Value of a made point by our point number 1..24 (index 0..23): the home
#: board (5 and 4 points most), the bar point, and anchors in the opponent's home.
_POINT_VALUE = np.array([
    0.35, 0.7, 0.95, 1.2, 1.5, 1.3,  # 1..6
    1.1, 0.7, 0.45, 0.3, 0.2, 0.15,  # 7..12
    0.1, 0.1, 0.1, 0.1, 0.15, 0.5,  # 13..18
    0.7, 0.95, 0.9, 0.55, 0.35, 0.2,  # 19..24
])


@njit(cache=True)
def _shots(distances, masks, weights):  # type: ignore[no-untyped-def]
    n = 0
    for r in range(masks.shape[0]):
        if masks[r] & distances:
            n += weights[r]
    return n


def shots(distances: int) -> int:
    """How many of the 36 rolls move some checker by one of ``distances`` (bit ``d`` = distance d).

    Blocking points are ignored: a crude count of direct and indirect shots.

    >>> shots(1 << 6)  # a blot six pips away: 17 rolls (11 sixes, 5-1, 4-2, 3-3, 2-2)
    17
    """
    return int(_shots(np.int64(distances), _ROLL_MASKS, _ROLL_WEIGHTS))


@njit(cache=True)
def _race_score(b):  # type: ignore[no-untyped-def]
    pips = 0
    on_board = 0
    outside = 0
    stack = 0
    gaps = 0
    for i in range(25):
        c = int(b[i])
        if c > 0:
            pips += c * (i + 1)
            on_board += c
            if i >= 6:
                outside += c
            if c > 3:
                stack += c - 3
        elif i < 6:
            gaps += 1
    return -4.0 * on_board - 0.15 * pips - 0.5 * outside - 0.12 * stack - 0.08 * gaps


@njit(cache=True)
def _score(b, point_value, masks, weights):  # type: ignore[no-untyped-def]
    if not _encoded_contact(b):
        return _race_score(b)
    # Opponent checkers in our numbering (occ bit q): point 0 is the opponent's bar.
    occ = np.int64(0)
    opp_home_made = 0
    opp_pips = 25 * np.int64(b[49])
    if b[49] > 0:
        occ |= 1
    for k in range(24):
        c = np.int64(b[25 + k])
        if c > 0:
            occ |= np.int64(1) << (24 - k)
            opp_pips += c * (k + 1)
            if k < 6 and c >= 2:
                opp_home_made += 1
    score = 0.0
    my_pips = 25 * np.int64(b[24])
    run = 0
    best_run = 0
    home_made = 0
    danger = 0.0
    for i in range(24):
        c = np.int64(b[i])
        my_pips += c * (i + 1)
        if i >= 18:
            score -= 0.1 * c  # back checkers: time to bring them out
        if c >= 2:
            score += point_value[i]
            if i < 6:
                home_made += 1
            run += 1
            if run > best_run:
                best_run = run
            if c > 3:
                score -= 0.06 * (c - 3)
        else:
            run = 0
            if c == 1:
                p = i + 1
                # Distances from the opponent checkers behind the blot (points q < p).
                mask = np.int64(0)
                for q in range(p):
                    if (occ >> q) & 1:
                        mask |= np.int64(1) << (p - q)
                if mask:
                    danger += _shots(mask, masks, weights) / 36.0 * (0.35 + 0.045 * (25 - p))
    score += 0.03 * (opp_pips - my_pips)
    if best_run >= 3:
        score += 0.45 * (best_run - 2) ** 1.5
    # Checkers on the opponent's bar are worth more against a strong home board.
    score += b[49] * (0.7 + 0.2 * home_made)
    score -= b[24] * (0.5 + 0.2 * opp_home_made)
    score -= danger * (1.0 + 0.2 * opp_home_made)
    return score


@njit(cache=True)
def _score_boards(boards, out, point_value, masks, weights):  # type: ignore[no-untyped-def]
    for j in range(boards.shape[0]):
        out[j] = _score(boards[j], point_value, masks, weights)


def score_positions(positions: Sequence[Position]) -> np.ndarray:
    """:func:`play_score` of many positions at once (one compiled loop), as float64."""
    n = len(positions)
    boards = np.frombuffer(b"".join(p.board for p in positions), dtype=np.uint8).reshape(n, 50)
    out = np.empty(n, dtype=np.float64)
    _score_boards(boards, out, _POINT_VALUE, _ROLL_MASKS, _ROLL_WEIGHTS)
    return out


def play_score(position: Position) -> float:
    """Heuristic value of ``position`` for the side that just moved (``position.me``).

    Higher is better.  Contact positions weigh pips, hit checkers, made points,
    primes and blots (each blot weighted by the opponent rolls that hit it and
    by what being hit costs); races weigh checkers borne off, pips and wastage.
    """
    return float(score_positions([position])[0])


def is_contact(b: bytes) -> bool:
    """Whether the two sides can still hit each other (one board's 50 bytes)."""
    return bool(_encoded_contact(np.frombuffer(b, dtype=np.uint8)))


# -- the training reports' yardstick ---------------------------------------


@njit(cache=True)
def yardstick_score(b, checkers=15):  # type: ignore[no-untyped-def]
    """A simple pip-count and safety heuristic for a move result (mover first).

    Prefers hitting, making points (home board and primes), few exposed blots;
    in a race, bearing off and pips.  A fixed yardstick for progress reports.
    """
    if side_empty(b, 0):
        return 1e6
    off = checkers
    for i in range(25):
        off -= b[i]
    if not _encoded_contact(b):
        return 10.0 * off - 0.1 * pips(b, 0)
    score = 0.02 * (pips(b, 25) - pips(b, 0)) + 1.0 * b[49]
    run = 0
    prime = 0
    home = 0
    made = 0
    for i in range(24):
        c = b[i]
        if c >= 2:
            made += 1
            run += 1
            if run > prime:
                prime = run
            if i < 6:
                home += 1
        else:
            run = 0
    score += 0.3 * home + 0.1 * made + 0.2 * prime
    score -= 2.0 * _encoded_shots(b, 0, 25) / 36.0
    return score


__all__ = ["is_contact", "play_score", "score_positions", "shots", "yardstick_score"]
