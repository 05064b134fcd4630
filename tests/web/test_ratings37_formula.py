"""The FIBS rating formula, checked against FIBS's published numbers and by hand.

The expected values here are worked out from the formula's text (FIBS ``help formula``) or taken
from the rec.games.backgammon FAQ's table, not from the code under test.
"""

from __future__ import annotations

import pytest

from gammon.web.fibs_rating import START_RATING, Rated, k_factor, rate_match, upset_probability

# The FAQ's "batting average for the favourite to keep his rating": 1 - P_upset, by rating
# difference (rows) and match length 1, 3, 5, 7, 9, 11 (columns), to three decimals.
FAQ_TABLE = {
    100: (0.529, 0.550, 0.564, 0.576, 0.585, 0.594),
    400: (0.613, 0.689, 0.737, 0.772, 0.799, 0.822),
    700: (0.691, 0.802, 0.858, 0.894, 0.918, 0.935),
}


@pytest.mark.parametrize("difference", sorted(FAQ_TABLE))
def test_the_favourites_chances_match_the_published_table(difference: int) -> None:
    for length, expected in zip((1, 3, 5, 7, 9, 11), FAQ_TABLE[difference], strict=True):
        assert round(1 - upset_probability(difference, length), 3) == expected
        assert upset_probability(-difference, length) == upset_probability(difference, length)


def test_k_falls_from_five_to_one_over_400_points() -> None:
    ks = [k_factor(e) for e in (0, 1, 100, 250, 399, 400, 401, 5000)]
    assert ks == pytest.approx([5.0, 4.99, 4.0, 2.5, 1.01, 1.0, 1.0, 1.0], abs=1e-12)


def test_two_new_players_in_a_one_point_match() -> None:
    # D = 0: P_upset = 1/(10^0 + 1) = 1/2; K = 5 for both; 4 * 5 * sqrt(1) * 1/2 = 10.
    win, lose = rate_match(Rated(START_RATING, 0), Rated(START_RATING, 0), 1)
    assert (win, lose) == (Rated(1510.0, 1), Rated(1490.0, 1))


def test_the_underdog_wins_a_three_point_match() -> None:
    # 1490 (experience 1) beats 1510 (experience 1) over 3 points: D = 20,
    # 10^(20*sqrt(3)/2000) = 1.0406879071742315, P_upset = 0.49003083542780124,
    # P = 1 - P_upset = 0.50996916457219876, K = 5 - 1/100 = 4.99 for both,
    # change = 4 * 4.99 * sqrt(3) * P = 17.630518366516751 (worked with bc to 20 digits).
    win, lose = rate_match(Rated(1490.0, 1), Rated(1510.0, 1), 3)
    assert win.rating == pytest.approx(1507.6305183665168, abs=1e-9) and win.experience == 4
    assert lose.rating == pytest.approx(1492.3694816334832, abs=1e-9) and lose.experience == 4


def test_each_player_has_their_own_k() -> None:
    # The favourite (1700, experience 1000, K = 1) beats a newcomer (1500, experience 0, K = 5) over
    # 5 points: D = 200, P_upset = 1/(10^(200*sqrt(5)/2000) + 1) = 0.374051718141836189 (bc), the
    # favourite won so P = P_upset: +1*4*sqrt(5)*P = 3.345620275462948, -5*4*sqrt(5)*P = 16.728101377314741.
    p = 1 / (10 ** (200 * 5 ** 0.5 / 2000) + 1)
    win, lose = rate_match(Rated(1700.0, 1000), Rated(1500.0, 0), 5)
    assert win.rating == pytest.approx(1700 + 1 * 4 * 5 ** 0.5 * p, abs=1e-9)
    assert lose.rating == pytest.approx(1500 - 5 * 4 * 5 ** 0.5 * p, abs=1e-9)
    assert win.rating == pytest.approx(1703.345620275462948, abs=1e-9)
    assert lose.rating == pytest.approx(1483.271898622685259, abs=1e-9)
    assert (win.experience, lose.experience) == (1005, 5)


def test_a_money_session_is_not_rated() -> None:
    with pytest.raises(ValueError):
        rate_match(Rated(1500.0, 0), Rated(1500.0, 0), 0)
