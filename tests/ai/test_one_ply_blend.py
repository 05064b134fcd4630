"""The engine's 1-ply value of a play: the mean of its 1-ply and 0-ply values (search.ONE_PLY_WEIGHT).

The plain n-ply values are checked against their definition in ``test_ai_search.py``; these
tests check that the engine's searches use the blend at 1 ply, and only there.
"""

from __future__ import annotations

import numpy as np
import pytest

from gammon.ai.engine import Engine
from gammon.ai.evaluator import as_boards
from gammon.ai.search import ONE_PLY_WEIGHT, STRONGEST_PRUNE, WORLD_CLASS_PRUNE, PlyEvaluator
from gammon.core.errors import GammonError
from gammon.core.position import Position

#: A middle game: the initial position after eight plays of the expert level.
MIDDLE = Position.from_position_id("4NsOARisPUcAMA")


def test_the_weight_is_a_mean() -> None:
    assert ONE_PLY_WEIGHT == 0.5


def test_a_results_one_ply_value_is_the_mean_of_its_plain_one_and_zero_ply_values() -> None:
    static = Engine("expert").static_evaluator
    boards, _ = as_boards(MIDDLE.legal_plays((6, 2)).positions())
    blended = PlyEvaluator(static, 1, one_ply_weight=0.5).evaluate_results(boards, 1)
    plain = PlyEvaluator(static, 1)
    one, zero = plain.evaluate_results(boards, 1), plain.evaluate_results(boards, 0)
    assert np.allclose(blended, 0.5 * one + 0.5 * zero, atol=1e-6)
    assert not np.allclose(one, zero, atol=1e-3)  # the blend is not a no-op here
    # Other depths and positions on roll are left as they are.
    assert np.allclose(PlyEvaluator(static, 1, one_ply_weight=0.5).evaluate_results(boards, 0), zero)
    assert np.allclose(PlyEvaluator(static, 1, one_ply_weight=0.5).evaluate(MIDDLE, 1),
                       plain.evaluate(MIDDLE, 1))


def test_a_one_ply_engine_ranks_the_plays_by_the_blended_value() -> None:
    engine = Engine(plies=1)
    ranked = engine.rank_plays(MIDDLE, (6, 2))
    plain = PlyEvaluator(engine.static_evaluator, 1)
    searched = [r for r in ranked if r.plies == 1]
    assert len(searched) >= 2
    boards = np.stack([np.frombuffer(r.play.position.board, dtype=np.uint8) for r in searched])
    want = 0.5 * plain.evaluate_results(boards, 1) + 0.5 * plain.evaluate_results(boards, 0)
    got = np.array([tuple(r.probabilities) for r in searched])
    assert np.allclose(got, want, atol=1e-6)
    assert engine.best_play(MIDDLE, (6, 2)).position == searched[0].play.position


def test_the_strongest_levels_two_ply_values_are_not_blended() -> None:
    engine = Engine("strongest")
    ranked = engine.rank_plays(MIDDLE, (6, 2))
    best = ranked[0]
    assert best.plies == 2
    plain = PlyEvaluator(engine.static_evaluator, 2, prune=STRONGEST_PRUNE)
    board = np.frombuffer(best.play.position.board, dtype=np.uint8).reshape(1, 50)
    assert np.allclose(tuple(best.probabilities), plain.evaluate_results(board, 2)[0], atol=1e-6)


def test_world_class_searches_two_plies_over_fewer_plays_than_the_strongest_level() -> None:
    """World-class: up to 5 plays within 0.10 of the best by 0-ply go on to the 1-ply blend, up
    to 2 within 0.04 there to a 2-ply search that values 3 replies fully at each inner node."""
    engine, strongest = Engine("world-class"), Engine("strongest")
    for dice in ((6, 2), (3, 1), (5, 5)):
        ranked = engine.rank_plays(MIDDLE, dice)
        deep = [r for r in ranked if r.plies == 2]
        assert 1 <= len(deep) <= 2
        assert len([r for r in ranked if r.plies >= 1]) <= 5
        assert len(deep) <= len([r for r in strongest.rank_plays(MIDDLE, dice) if r.plies == 2])
        boards = np.stack([np.frombuffer(r.play.position.board, dtype=np.uint8) for r in deep])
        plain = PlyEvaluator(engine.static_evaluator, 2, prune=WORLD_CLASS_PRUNE)
        want = plain.evaluate_results(boards, 2)
        assert np.allclose(np.array([tuple(r.probabilities) for r in deep]), want, atol=1e-6)
        assert engine.best_play(MIDDLE, dice).position == deep[0].play.position


@pytest.mark.parametrize("weight", [-0.1, 1.5, float("nan")])
def test_a_weight_outside_zero_to_one_is_refused(weight: float) -> None:
    with pytest.raises(GammonError, match="1-ply weight must be 0 to 1"):
        PlyEvaluator(Engine("expert").static_evaluator, 1, one_ply_weight=weight)
