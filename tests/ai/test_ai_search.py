"""n-ply search: values against a plain Python recursion, move filters, cache, levels."""

from __future__ import annotations

import numpy as np
import pytest

from gammon.ai.evaluator import default_evaluator
from gammon.ai.network import equity, flip_probs
from gammon.ai.search import (
    LEVELS,
    Level,
    MoveFilter,
    PlyEvaluator,
    find_level,
    rank_results,
)
from gammon.core.errors import GammonError
from gammon.core.position import Position

STATIC = default_evaluator()
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
#: A short race with contact left: cheap enough for a Python recursion.
SMALL = Position([0, 2, 2, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] + [0] * 4,
                 [1, 2, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0])
#: The player on roll has a checker on the bar against a closed board.
CLOSED_OUT = Position([0] * 5 + [14] + [0] * 18 + [1],
                      [2, 2, 2, 2, 2, 2] + [0] * 6 + [3] + [0] * 12)


def python_ply(ev: PlyEvaluator, p: Position, plies: int) -> np.ndarray:
    """The n-ply value by the module's definition, in plain Python over the 0-ply evaluator."""
    if plies == 0 or p.is_game_over:
        return ev.evaluate(p, 0)
    total = np.zeros(5)
    for a, b in ROLLS:
        w = 1 if a == b else 2
        plays = p.legal_plays((a, b))
        if len(plays) == 0:
            nxt = p.swap()
        else:
            vals = STATIC.evaluate_batch([q.position.swap() for q in plays])
            best = int(np.argmax([-equity(v) for v in vals]))  # the mover's best by 0-ply
            nxt = plays[best].position.swap()
        total += w * np.array(flip_probs(python_ply(ev, nxt, plies - 1)))
    return total / 36


def test_one_ply_is_the_average_over_the_replies() -> None:
    ev = PlyEvaluator(STATIC, 1)
    np.testing.assert_allclose(ev.evaluate(SMALL), python_ply(ev, SMALL, 1), atol=2e-6)
    np.testing.assert_allclose(ev.evaluate(CLOSED_OUT), python_ply(ev, CLOSED_OUT, 1), atol=2e-6)


def test_two_ply_is_one_more_level() -> None:
    ev = PlyEvaluator(STATIC, 2)
    np.testing.assert_allclose(ev.evaluate(SMALL), python_ply(ev, SMALL, 2), atol=5e-6)


def test_zero_ply_is_the_static_evaluator() -> None:
    ev = PlyEvaluator(STATIC, 0)
    ps = [Position.initial(), SMALL, CLOSED_OUT]
    np.testing.assert_allclose(ev.evaluate_batch(ps), STATIC.evaluate_batch(ps), atol=1e-7)


def test_finished_games_are_exact_at_every_depth() -> None:
    won = Position([0] * 25, [0] * 5 + [15] + [0] * 19)  # the player on roll is off: a gammon
    lost = Position([0] * 5 + [14] + [0] * 13 + [1] + [0] * 5, [0] * 25)  # one left in their home
    single = Position([0] * 5 + [3] + [0] * 19, [0] * 25)
    for plies in (0, 1, 2):
        ev = PlyEvaluator(STATIC, plies)
        np.testing.assert_array_equal(ev.evaluate(won), [1.0, 1.0, 0.0, 0.0, 0.0])
        np.testing.assert_array_equal(ev.evaluate(lost), [0.0, 0.0, 0.0, 1.0, 1.0])
        np.testing.assert_array_equal(ev.evaluate(single), [0.0, 0.0, 0.0, 0.0, 0.0])


def test_cache_gives_the_same_value() -> None:
    ev = PlyEvaluator(STATIC, 1)
    first = ev.evaluate(SMALL)
    hits = int(ev.workspace.stats[0])
    again = ev.evaluate(SMALL)
    np.testing.assert_array_equal(first, again)
    assert int(ev.workspace.stats[0]) == hits + 1
    ev.workspace.clear_cache()
    np.testing.assert_array_equal(ev.evaluate(SMALL), first)


def test_bad_depth_is_refused() -> None:
    with pytest.raises(GammonError, match="plies"):
        PlyEvaluator(STATIC, 9)


def test_move_filter_keeps_the_best_within_threshold() -> None:
    eq = np.array([0.1, 0.5, 0.45, 0.2, 0.36, 0.34])
    assert list(MoveFilter(0, 8, 0.16).keep(eq)) == [1, 2, 4, 5]
    assert list(MoveFilter(0, 2, 0.16).keep(eq)) == [1, 2]
    assert list(MoveFilter(3, 0, 0.0).keep(eq)) == [1, 2, 4]
    assert list(MoveFilter(0, 8, 0.0).keep(eq)) == [1]


def test_rank_results_searches_the_survivors_deeper() -> None:
    ev = PlyEvaluator(STATIC, 1)
    plays = Position.initial().legal_plays((6, 4))
    boards = np.stack([np.frombuffer(p.position.board, dtype=np.uint8) for p in plays])
    probs0 = np.array([flip_probs(STATIC.evaluate(p.position.swap())) for p in plays])
    r = rank_results(ev, boards, probs0, 1, filters=(MoveFilter(0, 3, 2.0),))
    assert sorted(r.order.tolist()) == list(range(len(plays)))
    assert list(r.plies[:3]) == [1, 1, 1] and set(r.plies[3:].tolist()) == {0}
    assert list(r.equities[:3]) == sorted(r.equities[:3], reverse=True)
    # The 1-ply values are those of the evaluator on the results with the opponent on roll.
    top = plays[int(r.order[0])].position
    np.testing.assert_allclose(r.probs[0], flip_probs(ev.evaluate(top.swap(), 1)), atol=1e-6)


def test_levels() -> None:
    names = list(LEVELS)
    assert names == ["beginner", "casual", "intermediate", "advanced", "expert", "world-class",
                     "strongest"]
    noises = [LEVELS[n].noise for n in names]
    assert noises == sorted(noises, reverse=True)
    assert [LEVELS[n].plies for n in names] == [0, 0, 0, 0, 0, 2, 2]
    assert find_level("World Class") is LEVELS["world-class"]
    assert find_level("world_class") is LEVELS["world-class"]
    lv = Level("mine", 1, 0.0, "custom")
    assert find_level(lv) is lv
    with pytest.raises(GammonError, match="unknown level"):
        find_level("grandmaster")


def test_two_ply_searches_only_the_one_ply_stage_survivors() -> None:
    from gammon.ai.engine import Engine
    from gammon.ai.search import DEFAULT_FILTERS

    stage = DEFAULT_FILTERS[1]
    assert stage is not None
    ranked = Engine(plies=2).rank_plays(Position.initial(), (2, 1))
    deep = [r for r in ranked if r.plies == 2]
    one = [r for r in ranked if r.plies == 1]
    assert 1 <= len(deep) <= stage.accept + stage.extra
    assert len(one) >= 1  # valued at 1-ply and filtered out there
    assert ranked[0].plies == 2


#: Acey-Deucey, both sides with never-entered checkers in the pool and others on the
#: board: "checkers still in the pool may wait while others move", a hit checker may not.
POOLED = Position([0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 11],
                  [0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 11],
                  "acey-deucey", pool=(11, 11))


def test_every_ply_generates_with_its_own_movers_pool() -> None:
    # The root's mover and, one ply down, the opponent may leave pool checkers waiting.
    ev = PlyEvaluator(STATIC, 2)
    want = python_ply(ev, POOLED, 2)
    np.testing.assert_allclose(ev.evaluate(POOLED), want, atol=5e-6)
    # The check can fail: the same checkers counted as hit (on the bar) value differently.
    as_bar = Position(POOLED.me, POOLED.opp, "acey-deucey")
    assert abs(equity(python_ply(ev, as_bar, 2)) - equity(want)) > 1e-3


def test_plays_ranked_at_one_ply_see_the_opponents_pool() -> None:
    ev = PlyEvaluator(STATIC, 1)
    plays = POOLED.legal_plays((6, 5))
    boards = np.stack([np.frombuffer(q.position.board, np.uint8) for q in plays])
    from gammon.ai.search import search_flags

    got = ev.evaluate_results(boards, 1, 15, search_flags(POOLED))
    for q, y in zip(plays, got, strict=True):
        np.testing.assert_allclose(y, flip_probs(python_ply(ev, q.position.swap(), 1)), atol=5e-6)


def python_pruned_ply(ev: PlyEvaluator, p: Position, plies: int, keep: int,
                      root: bool = True) -> np.ndarray:
    """:func:`python_ply` with the inner nodes' pre-filter: at the last ply below the root,
    of each roll's plays only the ``keep`` best by the pruning net are valued by the
    evaluator (ties: the first)."""
    from gammon.ai.pruning import load_pruning, prune_score

    pw = load_pruning()
    h = np.empty(pw.shape[1], dtype=np.float32)
    if plies == 0 or p.is_game_over:
        return ev.evaluate(p, 0)
    total = np.zeros(5)
    for a, b in ROLLS:
        w = 1 if a == b else 2
        plays = list(p.legal_plays((a, b)))
        if not plays:
            nxt = p.swap()
        else:
            if plies == 1 and not root and len(plays) > keep:
                scores = [prune_score(np.frombuffer(q.position.board, np.uint8), pw, h) for q in plays]
                top = sorted(np.argsort(-np.array(scores), kind="stable")[:keep])
                plays = [plays[i] for i in top]
            vals = STATIC.evaluate_batch([q.position.swap() for q in plays])
            best = int(np.argmax([-equity(v) for v in vals]))
            nxt = plays[best].position.swap()
        total += w * np.array(flip_probs(python_pruned_ply(ev, nxt, plies - 1, keep, False)))
    return total / 36


@pytest.mark.parametrize("keep", [1, 3])
def test_pruning_values_only_the_pruning_nets_best_few(keep: int) -> None:
    ev = PlyEvaluator(STATIC, 2, prune=keep)
    np.testing.assert_allclose(ev.evaluate(SMALL), python_pruned_ply(ev, SMALL, 2, keep), atol=5e-6)


def test_one_ply_is_never_pruned() -> None:
    # The root's replies are all valued: pruning is for the plies below it.
    np.testing.assert_array_equal(PlyEvaluator(STATIC, 1, prune=1).evaluate(SMALL),
                                  PlyEvaluator(STATIC, 1).evaluate(SMALL))


def test_pruning_that_keeps_every_play_changes_nothing() -> None:
    # No roll of SMALL has 64 plays: every play is valued, as without pruning.
    full = PlyEvaluator(STATIC, 2).evaluate(SMALL)
    np.testing.assert_array_equal(PlyEvaluator(STATIC, 2, prune=64).evaluate(SMALL), full)
    # The pre-filter does change values when it keeps fewer (the test can fail).
    assert abs(equity(PlyEvaluator(STATIC, 2, prune=1).evaluate(SMALL)) - equity(full)) > 1e-6


def test_prune_is_checked() -> None:
    with pytest.raises(GammonError):
        PlyEvaluator(STATIC, 2, prune=-1)


def test_pruning_score_is_its_net_over_the_encoders_point_inputs() -> None:
    """The pruning net's fused score equals the plain product of its weights with the raw
    point inputs of :mod:`gammon.ai.encoding` (the first 196 of the full inputs)."""
    from gammon.ai.encoding import OFF_FEATURES, encode_batch
    from gammon.ai.pruning import PRUNE_INPUTS, encode_all, load_pruning, prune_score

    pw = load_pruning()
    h = np.empty(pw.shape[1], dtype=np.float32)
    boards = np.stack([np.frombuffer(q.position.board, np.uint8)
                       for d in ROLLS for q in SMALL.legal_plays(d)])
    x = encode_all(boards)
    assert PRUNE_INPUTS == OFF_FEATURES and np.array_equal(x, encode_batch(boards)[:, :OFF_FEATURES])
    hidden = 1.0 / (1.0 + np.exp(-(x.astype(np.float64) @ pw[:PRUNE_INPUTS] + pw[PRUNE_INPUTS])))
    want = hidden @ pw[PRUNE_INPUTS + 1] + pw[PRUNE_INPUTS + 2, 0]
    got = np.array([prune_score(b, pw, h) for b in boards])
    np.testing.assert_allclose(got, want, atol=2e-5)
