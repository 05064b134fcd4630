"""Issue 35, D2: the cube is judged at the depth the analysis is asked for.

On today's main every cube decision of an analysis at 1 ply or more was a
1-roll look-ahead, whatever ``--plies`` said.  Written from the rule: an
analysis at ``n`` plies judges the cube with the cubeful look-ahead of
``min(n, MAX_CUBE_PLIES)`` rolls, and the decision it reports is that
look-ahead's (its equities and its words name the depth).
"""

from __future__ import annotations

import pytest

from boards import pos
from gammon.ai.cube import CubeInfo
from gammon.ai.cube_search import cubeful_cube_action
from gammon.analysis.decisions import analyse_cube
from gammon.analysis.valuation import MAX_CUBE_PLIES, Valuer
from gammon.analysis.walk import CubeTask

#: A race without gammons, the player on roll ahead: a double/take (see test_analysis.py).
RACE = pos("x: 8:2 6:3 5:2 4:2 3:1; o: 6:4 5:3 4:3 3:3")


def test_the_depth_follows_plies_up_to_the_cap() -> None:
    assert MAX_CUBE_PLIES == 2
    assert [Valuer(plies=p).cube_plies for p in (0, 1, 2, 3, 4)] == [0, 1, 2, 2, 2]
    assert Valuer(plies=2, cube_plies=1).cube_plies == 1  # a benchmark's own depth


def test_a_2_ply_analysis_judges_the_cube_two_rolls_ahead() -> None:
    valuer = Valuer(plies=2)
    info = CubeInfo()
    ev = valuer.engine.evaluator_for(RACE.variant)
    one = cubeful_cube_action(ev, RACE, info, 1)
    two = cubeful_cube_action(ev, RACE, info, 2)
    # The two depths see the position differently, so the test can tell them apart.
    assert abs(one.no_double - two.no_double) + abs(one.double_take - two.double_take) > 1e-4
    decision, _ = valuer.cube(RACE, info)
    assert (decision.no_double, decision.double_take, decision.double_pass) == pytest.approx(
        (two.no_double, two.double_take, two.double_pass))
    assert decision.explanation.startswith("2-ply cubeful look-ahead")
    d = analyse_cube(valuer, CubeTask(0, 1, 0, RACE, info, doubled=False))
    assert d.cube is not None and d.cube["no_double"] == pytest.approx(two.no_double, abs=1e-4)


def test_a_clear_non_double_keeps_the_1_roll_verdict_and_a_close_one_goes_deeper() -> None:
    from gammon.core.position import Position

    start = Position.initial()
    info = CubeInfo()
    screened = Valuer(plies=2)
    clear, _ = screened.cube(start, info)  # the opening position: far from a double
    assert clear.explanation.startswith("1-ply cubeful look-ahead") and not clear.doubles
    # A double made, or an answer to one, is always judged at full depth.
    assert screened.cube(start, info, True)[0].explanation.startswith("2-ply cubeful look-ahead")
    full, _ = Valuer(plies=2, screen=False).cube(start, info)
    assert full.explanation.startswith("2-ply cubeful look-ahead") and not full.doubles


def test_the_analysis_decides_the_cube_with_its_engines_cube_net() -> None:
    """The analysis judges the cube with the net its engine decides the cube with (one net for
    play, hints and analysis): another ``cube_weights`` gives that net's look-ahead, to the bit."""
    from gammon.ai.engine import Engine
    from gammon.ai.network import Network
    from gammon.analysis.valuation import analysis_engine

    other = Network.random(hidden=16, nets=3, seed=11)
    shipped = analysis_engine()
    engine = Engine(shipped.level, cube_weights=other)
    valuer = Valuer(plies=2, engine=engine, screen=False)
    decision, _ = valuer.cube(RACE, CubeInfo())
    want = cubeful_cube_action(Engine(shipped.level, weights=other).evaluator_for(RACE.variant), RACE,
                               CubeInfo(), 2)
    assert (decision.no_double, decision.double_take) == pytest.approx((want.no_double, want.double_take),
                                                                       abs=1e-12)
    before, _ = Valuer(plies=2, engine=shipped, screen=False).cube(RACE, CubeInfo())
    assert abs(before.no_double - decision.no_double) > 1e-4


def test_the_analysis_searches_with_the_checker_play_net() -> None:
    """The analysis engine plays with the shipped checker-play net at every depth it searches:
    it agrees better with GNU Backgammon's 2-ply analysis than the rollouts' net (Q7) does
    (``benchmarks/results/ANALYSIS.md``, stop 56)."""
    import numpy as np

    from gammon.ai.evaluator import default_network
    from gammon.ai.variant_nets import standard_network
    from gammon.analysis.valuation import analysis_engine

    net = analysis_engine().network
    zero, rollouts = standard_network(), default_network()
    assert net.w1.shape == zero.w1.shape and np.array_equal(net.w1, zero.w1)
    assert net.w1.shape != rollouts.w1.shape or not np.array_equal(net.w1, rollouts.w1)
