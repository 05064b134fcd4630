"""The FIBS rating formula: how a rated match moves its two players' ratings.

From FIBS's own ``help formula`` (the First Internet Backgammon Server, as
quoted in the rec.games.backgammon FAQ), for an ``n``-point match between
players rated ``r1`` and ``r2``:

* ``D = abs(r1 - r2)``; the underdog wins with ``P_upset = 1 / (10^(D*sqrt(n)/2000) + 1)``;
* ``P = 1 - P_upset`` if the underdog wins, ``P = P_upset`` if the favourite wins
  (with equal ratings both are 1/2);
* each player's ``K = max(1, 5 - experience/100)``, from their own experience
  before the match (so it falls from 5 to 1 over the first 400 points played);
* the winner gains ``4*K*sqrt(n)*P``, the loser loses ``4*K*sqrt(n)*P`` (each with their own K);
* experience is the sum of the lengths of the matches finished; everyone starts
  at 1500 with experience 0.

(Some FIBS clients' help pages count the match just played into K,
``max(1, 5 - (experience + n)/100)``; the server's own text above does not, and
is what this module follows.)  Pure arithmetic, no storage: :mod:`gammon.store.ratings`
applies it under the database's locks.
"""

from __future__ import annotations

import math

from gammon.store.ratings import START_RATING, Rated

#: The experience (match points finished) from which K is 1.
FULL_EXPERIENCE = 400


def upset_probability(difference: float, length: int) -> float:
    """The underdog's chance to win an ``length``-point match ``difference`` rating points apart."""
    return 1.0 / (math.pow(10.0, abs(difference) * math.sqrt(length) / 2000.0) + 1.0)


def k_factor(experience: int) -> float:
    """``max(1, 5 - experience/100)``: new players' ratings move faster."""
    return max(1.0, 5.0 - experience / 100.0)


def rate_match(winner: Rated, loser: Rated, length: int) -> tuple[Rated, Rated]:
    """The winner's and the loser's rating and experience after a ``length``-point match.

    :raises ValueError: a length below 1 (a money session is not rated).
    """
    if length < 1:
        raise ValueError("only matches of at least one point are rated")
    upset = upset_probability(winner.rating - loser.rating, length)
    # P: the chance the formula gave the loser (the favourite won: the upset chance; else its rest).
    p = upset if winner.rating >= loser.rating else 1.0 - upset
    scale = 4.0 * math.sqrt(length) * p
    return (Rated(winner.rating + k_factor(winner.experience) * scale, winner.experience + length),
            Rated(loser.rating - k_factor(loser.experience) * scale, loser.experience + length))


__all__ = ["FULL_EXPERIENCE", "START_RATING", "Rated", "k_factor", "rate_match", "upset_probability"]
