"""Our match equity table: symmetry, monotonicity, Crawford and post-Crawford, EMG conversions."""

from __future__ import annotations

import pytest

from gammon.ai.cube_model import CubeModel
from gammon.ai.met import MatchEquityTable, MetParameters, default_met
from gammon.core.errors import GammonError

N = 25


@pytest.fixture(scope="module")
def met() -> MatchEquityTable:
    return default_met()


def test_builds_the_default_size() -> None:
    # No timing assert: how fast it builds depends on the machine (benchmarks measure that).
    table = MatchEquityTable()
    assert table.max_away == 25
    assert table.equity(25, 25) == pytest.approx(0.5, abs=1e-12)
    with pytest.raises(GammonError, match="25 points away"):
        table.equity(26, 3)


def test_trivial_values(met: MatchEquityTable) -> None:
    assert met.equity(1, 1) == 0.5
    assert met.equity(1, 1, crawford=True) == 0.5
    for n in range(2, N + 1):
        assert met.equity(n, n) == pytest.approx(0.5, abs=1e-12)
    assert met.equity(0, 5) == 1.0
    assert met.equity(-2, 5) == 1.0
    assert met.equity(5, 0) == 0.0


def test_symmetry(met: MatchEquityTable) -> None:
    for a in range(1, N + 1):
        for b in range(1, N + 1):
            for crawford in (False, True):
                if crawford and 1 not in (a, b):
                    continue
                total = met.equity(a, b, crawford) + met.equity(b, a, crawford)
                assert total == pytest.approx(1.0, abs=1e-12), (a, b, crawford)


def test_monotonic_in_score(met: MatchEquityTable) -> None:
    """Needing fewer points is better: rows fall, columns rise (table as printed)."""
    rows = met.table()
    for a in range(N):
        for b in range(N):
            if b + 1 < N:
                assert rows[a][b] < rows[a][b + 1], (a + 1, b + 1)
            if a + 1 < N:
                assert rows[a][b] > rows[a + 1][b], (a + 1, b + 1)
    post = met.post_crawford_row()
    assert all(x <= y for x, y in zip(post, post[1:], strict=False))


def test_crawford_values_sensible(met: MatchEquityTable) -> None:
    # The leader of the Crawford game at 1-away/2-away: about two in three.
    assert 0.62 < met.equity(1, 2, crawford=True) < 0.75
    # Without the trailer's cube the leader is better off in the Crawford game than after it.
    for b in range(2, N + 1):
        assert met.equity(1, b, crawford=True) > met.equity(1, b)
    # The Crawford game is for one game: the trailer needs that game and the rest.
    for b in range(3, N + 1):
        assert met.equity(b, 1, crawford=True) < met.equity(b - 1, 1)
    assert met.equity(N, 1, crawford=True) < 0.01


def test_post_crawford_free_drop(met: MatchEquityTable) -> None:
    """The trailer doubles at once: even and odd away come in near-equal pairs.

    At an even number away the leader can drop a double for (nearly) free; at
    1-away/2-away that is worth a little over 50% to the leader.
    """
    assert 0.5 < met.equity(1, 2) < 0.53
    for k in range(1, 9):
        even, odd, next_odd = met.equity(1, 2 * k), met.equity(1, 2 * k - 1), met.equity(1, 2 * k + 1)
        assert 0 < even - odd < 0.03
        assert next_odd - even > 2 * (even - odd)


def test_pre_crawford_sample_values(met: MatchEquityTable) -> None:
    # Leading 2-away/4-away is worth about two thirds; 3-away/2-away a little under 40%.
    assert 0.64 < met.equity(2, 4) < 0.72
    assert 0.35 < met.equity(3, 2) < 0.43
    # Long matches approach even money per point: 1 point ahead at 25/24 away is close to 50%.
    assert 0.45 < met.equity(25, 24) < 0.5


def test_mwc_by_score(met: MatchEquityTable) -> None:
    assert met.mwc(3, 1, 7) == met.equity(4, 6)
    assert met.mwc(6, 4, 7, crawford=True) == met.equity(1, 3, crawford=True)
    with pytest.raises(GammonError):
        met.mwc(0, 0, 0)


def test_emg_conversions(met: MatchEquityTable) -> None:
    a, b = 5, 3
    for cube in (1, 2, 4):
        win = met.after_pre(a - cube, b)
        lose = met.after_pre(a, b - cube)
        assert met.emg_to_mwc(1.0, a, b, cube) == pytest.approx(win)
        assert met.emg_to_mwc(-1.0, a, b, cube) == pytest.approx(lose)
        for emg in (-0.7, 0.0, 0.3, 1.4):
            m = met.emg_to_mwc(emg, a, b, cube)
            assert met.mwc_to_emg(m, a, b, cube) == pytest.approx(emg)
    # Post-Crawford: the results lead to post-Crawford scores.
    assert met.emg_to_mwc(-1.0, 3, 2, 1, post_crawford=True) == pytest.approx(met.equity(3, 1))
    assert met.emg_to_mwc(-1.0, 3, 2, 1) == pytest.approx(met.equity(3, 1, crawford=True))


def test_after_game_crawford_rules(met: MatchEquityTable) -> None:
    # Reaching 1-away in a pre-Crawford game starts the Crawford game.
    assert met.after_pre(1, 4) == met.equity(1, 4, crawford=True)
    assert met.after_post(1, 4) == met.equity(1, 4)
    assert met.after_game(1, 4, post_crawford=True) == met.equity(1, 4)


def test_bigger_tables_on_demand() -> None:
    with pytest.raises(GammonError):
        MatchEquityTable(max_away=5).equity(6, 2)
    big = default_met(31)
    assert big.max_away >= 31
    assert big.equity(31, 30) + big.equity(30, 31) == pytest.approx(1.0)
    assert big.equity(9, 7) == pytest.approx(default_met().equity(9, 7))


def test_parameters() -> None:
    with pytest.raises(GammonError):
        MetParameters(gammons=0.1, backgammons=0.2)
    with pytest.raises(GammonError):
        MetParameters(efficiency=1.5)
    # More gammons help the trailer: a gammon covers more of the distance.
    lo = MatchEquityTable(MetParameters(gammons=0.1, backgammons=0.0), max_away=9)
    hi = MatchEquityTable(MetParameters(gammons=0.4, backgammons=0.02), max_away=9)
    assert hi.equity(4, 1, crawford=True) > lo.equity(4, 1, crawford=True)
    assert "away" in lo.format(5)


def test_cube_model_take_points_money_like() -> None:
    """Far from the end of a match the cube model's take point nears the money one."""
    met = default_met()
    model = CubeModel(met.after_pre, 25, 25, (1.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0)
    tp = model.take_point0(1)
    assert 0.17 < tp < 0.23  # money, live cube, no gammons: 20%
    assert model.cash_point0(1) == pytest.approx(1.0 - tp, abs=0.01)


def test_default_met_is_the_25_away_table_built_once_and_larger_on_demand(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # "The table with the default parameters, built once (larger on demand)": from an empty
    # cache (as in a fresh process), the first call builds the 25-away table, the next call
    # returns that same table, a larger request builds a larger one, which serves smaller ones.
    import gammon.ai.met as met_module

    monkeypatch.setattr(met_module, "_tables", {})
    first = default_met()
    assert first.max_away == 25 and first.parameters == MetParameters()
    assert default_met() is first and default_met(25) is first and default_met(10) is first
    larger = default_met(27)
    assert larger.max_away == 27 and larger is not first
    assert default_met() is larger and default_met(27) is larger


def test_emg_is_plus_one_for_winning_the_cube_and_minus_one_for_losing_it(met: MatchEquityTable) -> None:
    # "EMG +1 is winning ``cube`` points, -1 losing them": the cube is 1 unless given.
    assert met.emg_to_mwc(1.0, 5, 7) == pytest.approx(met.after_game(4, 7))
    assert met.emg_to_mwc(-1.0, 5, 7) == pytest.approx(met.after_game(5, 6))
    assert met.mwc_to_emg(met.after_game(4, 7), 5, 7) == pytest.approx(1.0)
    assert met.mwc_to_emg(met.after_game(5, 6), 5, 7) == pytest.approx(-1.0)
    assert met.emg_to_mwc(1.0, 5, 7, cube=2) == pytest.approx(met.after_game(3, 7))


def test_emg_after_the_crawford_game_uses_the_post_crawford_scores(met: MatchEquityTable) -> None:
    # player 1 is 1-away: winning one point at 4-away reaches 3-away, post-Crawford when the
    # game played was the Crawford game or later, the Crawford game next otherwise
    post, pre = met.after_post(3, 1), met.after_pre(3, 1)
    assert post != pytest.approx(pre)
    assert met.emg_to_mwc(1.0, 4, 1, post_crawford=True) == pytest.approx(post)
    assert met.emg_to_mwc(1.0, 4, 1) == pytest.approx(pre)
    assert met.mwc_to_emg(post, 4, 1, post_crawford=True) == pytest.approx(1.0)


def test_format_shows_nine_by_nine_by_default(met: MatchEquityTable) -> None:
    lines = met.format().splitlines()
    assert len(lines) == 10 and lines[0].split() == ["away", *map(str, range(1, 10))]
    assert [line.split()[0] for line in lines[1:]] == [str(a) for a in range(1, 10)]


def test_solve_finds_the_chance_where_a_rising_line_meets_the_target_within_zero_to_one() -> None:
    # "The p in [0, 1] where the linear function f reaches target": clamped to [0, 1]; a flat line
    # (a rise too small to solve on) meets a target above it only past 1 and one below it before 0.
    solve = CubeModel._solve
    assert solve(lambda p: 0.2 + 0.5 * p, 0.45) == pytest.approx(0.5)
    assert solve(lambda p: 0.2 + 0.5 * p, 0.9) == 1.0
    assert solve(lambda p: 0.2 + 0.5 * p, 0.1) == 0.0
    assert solve(lambda p: 0.3, 0.5) == 1.0
    assert solve(lambda p: 0.3, 0.1) == 0.0
    assert solve(lambda p: 0.3, 0.3) == 0.0
