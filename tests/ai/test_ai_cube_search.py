"""The cubeful look-ahead cube decisions (gammon.ai.cube_search), checked against exact values.

In a last-roll race the value of every line is known in closed form: the
player on roll wins if and only if this roll bears his checkers off, since the
opponent bears off at his next roll whatever happens.  So with ``p`` the
chance of this roll bearing off:

* money, no double: ``2p - 1``; double/take: ``2(2p - 1)``; double/pass: +1;
* a match: the match equity table at the scores each result reaches.

The opponent's cube does not matter (he wins the game anyway, a single game:
he has borne checkers off), which is what makes these exact.
"""

from __future__ import annotations

import pytest

from boards import pos
from gammon.ai.cube import DOUBLE_PASS, DOUBLE_TAKE, NO_DOUBLE, PASS, TAKE, CubeInfo, finish_chance
from gammon.ai.cube_search import ROLLS, cubeful_cube_action
from gammon.ai.engine import Engine
from gammon.ai.met import default_met
from gammon.core.errors import GammonError


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine("expert")


def last_roll(me: str) -> tuple[object, float]:
    """A last-roll race: ``me`` for the player on roll, the opponent one checker from home."""
    position = pos(f"x: {me}; o: 1")
    p = finish_chance(list(position.board[:25]))
    return position, p


def test_rolls_cover_all_36() -> None:
    assert sum(w for _, w in ROLLS) == 36
    assert len({tuple(sorted(d)) for d, _ in ROLLS}) == 21


@pytest.mark.parametrize("me", ["4 2", "6 5", "3 1", "5 5", "6 1"])
def test_money_last_roll_is_exact(engine: Engine, me: str) -> None:
    position, p = last_roll(me)
    d = cubeful_cube_action(engine.evaluator, position, CubeInfo(), 1)
    assert d.no_double == pytest.approx(2 * p - 1, abs=1e-6)
    assert d.double_take == pytest.approx(2 * (2 * p - 1), abs=1e-6)
    assert d.double_pass == 1.0
    # Double when the take is worth more than not doubling; the taker passes above 75%.
    if p > 0.75:
        assert (d.action, d.taker_action) == (DOUBLE_PASS, PASS)
    elif p > 0.5:
        assert (d.action, d.taker_action) == (DOUBLE_TAKE, TAKE)
    else:
        assert d.action == NO_DOUBLE


def test_the_position_4_2_is_a_double_and_take(engine: Engine) -> None:
    # 23 of the 36 rolls bear off a checker on the 4 point and one on the 2 point.
    position, p = last_roll("4 2")
    assert p == pytest.approx(23 / 36)
    d = engine.cube_action(position)
    assert (d.action, d.taker_action) == (DOUBLE_TAKE, TAKE)


def test_match_last_roll_is_exact(engine: Engine) -> None:
    position, p = last_roll("4 2")
    met = default_met(7)
    info = CubeInfo(match_length=7, score=(2, 3))  # 5-away, 4-away
    d = cubeful_cube_action(engine.evaluator, position, info, 1)
    assert d.mwc is not None
    nd, dt, dp = d.mwc
    assert nd == pytest.approx(p * met.after_pre(4, 4) + (1 - p) * met.after_pre(5, 3), abs=1e-6)
    assert dt == pytest.approx(p * met.after_pre(3, 4) + (1 - p) * met.after_pre(5, 2), abs=1e-6)
    assert dp == pytest.approx(met.after_pre(4, 4), abs=1e-12)


def test_two_plies_agree_on_the_last_roll(engine: Engine) -> None:
    # One ply more changes nothing when the game ends within it.
    position, p = last_roll("6 1")
    d = cubeful_cube_action(engine.evaluator, position, CubeInfo(), 2)
    assert d.no_double == pytest.approx(2 * p - 1, abs=1e-6)


def test_no_cube_in_the_crawford_game(engine: Engine) -> None:
    position, _ = last_roll("4 2")
    info = CubeInfo(match_length=7, score=(6, 3), crawford=True)
    d = cubeful_cube_action(engine.evaluator, position, info, 1)
    assert not d.can_double
    assert d.action == NO_DOUBLE


def test_an_owned_cube_cannot_be_doubled_by_the_other_side(engine: Engine) -> None:
    position, p = last_roll("4 2")
    d = cubeful_cube_action(engine.evaluator, position, CubeInfo(value=2, owner=1), 1)
    assert not d.can_double and d.action == NO_DOUBLE
    assert d.no_double == pytest.approx(2 * p - 1, abs=1e-6)


def test_no_double_is_the_average_of_the_best_plays(engine: Engine) -> None:
    """The no-double value is what checker play at that cube expects over the 21 rolls."""
    position = pos("x: 24:2 13:5 8:3 6:4 5:1; o: 24:2 13:4 8:3 6:5 4:1")
    info = CubeInfo(match_length=5, score=(1, 2))
    total = 0.0
    for dice, weight in ROLLS:
        ranked = engine.rank_plays(position, dice, info, plies=0)
        total += weight * ranked[0].mwc
    d = cubeful_cube_action(engine.evaluator, position, info, 1)
    assert d.mwc is not None
    assert d.mwc[0] == pytest.approx(total / 36, abs=1e-9)


def test_levels_take_the_cube_at_their_depth() -> None:
    position, _ = last_roll("4 2")
    assert "2-ply cubeful look-ahead" in Engine("expert").cube_action(position).explanation
    assert "2-ply cubeful look-ahead" in Engine("world-class").cube_action(position).explanation
    assert "2-ply cubeful look-ahead" in Engine("strongest").cube_action(position).explanation
    assert "look-ahead" not in Engine("advanced", seed=1).cube_action(position).explanation
    assert "look-ahead" not in Engine(plies=0).cube_action(position).explanation


def test_bad_depth_and_finished_games_are_refused(engine: Engine) -> None:
    position, _ = last_roll("4 2")
    with pytest.raises(GammonError):
        cubeful_cube_action(engine.evaluator, position, CubeInfo(), 0)
    with pytest.raises(GammonError):
        cubeful_cube_action(engine.evaluator, pos("x: ; o: 1"), CubeInfo(), 1)


def test_evaluate_reports_the_same_cube_decision_as_cube_action() -> None:
    """One cube decision per engine: ``evaluate`` shows what ``cube_action`` decides."""
    engine = Engine("world-class")
    position, p = last_roll("4 2")
    info = CubeInfo(match_length=5, score=(0, 2))
    value = engine.evaluate(position, info)
    d = engine.cube_action(position, info)
    assert value.cube_action == d.action
    assert value.cubeful_equity == pytest.approx(d.equity, abs=1e-12)
    # Money: the last roll race is a double and take at 23/36, worth twice 2p - 1.
    money = engine.evaluate(position)
    assert money.cube_action == DOUBLE_TAKE
    assert money.cubeful_equity == pytest.approx(2 * (2 * p - 1), abs=1e-6)


def test_cube_weights_value_only_the_cube_look_ahead() -> None:
    """``cube_weights``: the cube's look-ahead plays and values with that net, exactly as an
    engine playing with it would decide; checker play keeps the level's net."""
    from gammon.ai.network import Network

    position = pos("x: 24:2 13:5 8:3 6:4 5:1; o: 24:2 13:4 8:3 6:5 4:1")
    info = CubeInfo(match_length=5, score=(1, 2))
    other = Network.random(hidden=16, nets=3, seed=7)
    split = Engine("world-class", cube_weights=other)
    whole = Engine("world-class", weights=other)
    shipped = Engine("world-class")
    d, want, before = (e.cube_action(position, info) for e in (split, whole, shipped))
    assert d.mwc == pytest.approx(want.mwc, abs=1e-12)
    assert d.mwc != pytest.approx(before.mwc, abs=1e-3)
    assert [p.play.moves for p in split.rank_plays(position, (3, 1))] == \
        [p.play.moves for p in shipped.rank_plays(position, (3, 1))]


def test_the_shipped_levels_decide_the_cube_with_the_cube_net() -> None:
    """With the shipped weights every level that looks 2 rolls ahead decides the cube with the
    cube's own net (the one refined on the doubling window and on closeouts), whatever net its
    checker play uses: expert, world-class and strongest take the same decision with the same
    values, and neither the checker-play net nor the rollouts' net would."""
    from gammon.ai.evaluator import default_network
    from gammon.ai.variant_nets import standard_network

    position = pos("x: 24:2 13:5 8:3 6:4 5:1; o: 24:2 13:4 8:3 6:5 4:1")
    info = CubeInfo(match_length=7, score=(2, 4))
    decisions = [Engine(name).cube_action(position, info) for name in ("expert", "world-class", "strongest")]
    for d in decisions[1:]:
        assert d.action == decisions[0].action
        assert d.mwc == pytest.approx(decisions[0].mwc, abs=1e-12)
    for other in (standard_network(), default_network()):
        own = Engine("world-class", cube_weights=other).cube_action(position, info)
        assert own.mwc != pytest.approx(decisions[0].mwc, abs=1e-4)
