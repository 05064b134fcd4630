"""Match-aware play: plays and cube decisions valued at the score and cube, from the rules of match play.

* Double match point (both 1-away, or any post-Crawford game once the cube is
  at 2): only winning the game counts, so the best play is the one with the
  best chance to win, whatever its gammons.
* 2-away/1-away post-Crawford with the cube at 1: a gammon wins the trailer
  the match, a single game only reaches double match point; the trailer
  doubles at once, unless so gammonish that playing on is better ("gammon go").
* The Crawford game has no doubling.
* Money play with the Jacoby rule: gammons count only once the cube is turned.
"""

from __future__ import annotations

import numpy as np
import pytest

from gammon.ai.cube import CENTERED, DOUBLE_PASS, DOUBLE_TAKE, TOO_GOOD, CubeInfo, cube_decision
from gammon.ai.engine import Engine
from gammon.ai.match_play import PlayValuer
from gammon.core.position import Position

DMP = CubeInfo(match_length=7, score=(6, 6))
#: Trailer (on roll) 2-away, leader 1-away, post-Crawford, cube at 1 in the middle.
TRAILER = CubeInfo(match_length=7, score=(5, 6))


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine("expert")


def _sample(engine: Engine, games: int = 12, seed: int = 5):
    """(position, dice) pairs from seeded 0-ply self-play, cubeless money."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(games):
        pos = Position.initial()
        for _ply in range(120):
            d = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
            ranked = engine.rank_plays(pos, d)
            if not ranked:
                pos = pos.swap()
                continue
            if len(ranked) > 1:
                out.append((pos, d))
            pos = ranked[0].play.position
            if pos.outcome is not None:
                break
            pos = pos.swap()
    return out


def test_at_double_match_point_the_play_maximises_winning_chances(engine: Engine) -> None:
    differ = 0
    for pos, d in _sample(engine):
        money = engine.rank_plays(pos, d)
        best_win = max(r.probabilities[0] for r in money)
        chosen = engine.best_play(pos, d, DMP)
        ranked = engine.rank_plays(pos, d, DMP)
        assert ranked[0].play.position == chosen.position
        win = next(r.probabilities[0] for r in money if r.play.position == chosen.position)
        assert win == pytest.approx(best_win, abs=1e-6)
        # The match winning chance at DMP is the chance to win the game.
        assert ranked[0].mwc == pytest.approx(ranked[0].probabilities[0], abs=1e-9)
        if chosen.position != money[0].play.position:
            differ += 1
    # Gammonish money plays (hitting loose for a blitz) are wrong at DMP in some positions.
    assert differ > 0


def test_dmp_ignores_a_gammon_that_money_play_values() -> None:
    win_single = np.array([[0.60, 0.00, 0.0, 0.0, 0.0]])
    win_gammonish = np.array([[0.58, 0.40, 0.0, 0.10, 0.0]])
    boards = np.frombuffer(bytearray(Position.initial().board), dtype=np.uint8).reshape(1, 50)
    dmp = PlayValuer(DMP)
    assert dmp.results(win_single, boards).equity[0] > dmp.results(win_gammonish, boards).equity[0]
    dead_money = PlayValuer(CubeInfo(value=2, owner=1))  # the opponent owns the cube
    assert (dead_money.results(win_gammonish, boards).equity[0]
            > dead_money.results(win_single, boards).equity[0])


def test_post_crawford_once_doubled_only_winning_counts(engine: Engine) -> None:
    doubled = CubeInfo(value=2, owner=1, match_length=7, score=(5, 6))  # the trailer doubled
    leader = doubled.swap()
    for pos, d in _sample(engine, games=4, seed=9)[:60]:
        money = engine.rank_plays(pos, d)
        best_win = max(r.probabilities[0] for r in money)
        for info in (doubled, leader):
            chosen = engine.best_play(pos, d, info)
            win = next(r.probabilities[0] for r in money if r.play.position == chosen.position)
            assert win == pytest.approx(best_win, abs=1e-6)


def test_trailer_gammon_wins_the_match_single_reaches_dmp() -> None:
    v = PlayValuer(TRAILER)
    assert v.met is not None
    won = np.zeros((2, 50), dtype=np.uint8)
    won[:, 25 + 10] = 15  # the loser still has all 15 checkers on the board: a gammon
    won[1, 25 + 10] = 14  # one borne off: a single game
    probs = np.array([[1.0, 1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0, 0.0]])
    vals = v.results(probs, won)
    assert vals.mwc is not None
    assert vals.mwc[0] == pytest.approx(1.0)
    assert vals.mwc[1] == pytest.approx(v.met.equity(1, 1))
    assert vals.mwc[1] == pytest.approx(0.5)


def test_post_crawford_trailer_doubles_at_once_unless_gammon_go(engine: Engine) -> None:
    decision = engine.cube_action(Position.initial(), TRAILER)
    assert decision.doubles
    # Very gammonish: doubling would give up the gammon that wins the match ("gammon go").
    assert cube_decision((0.9, 0.8, 0.0, 0.0, 0.0), TRAILER).action == TOO_GOOD
    # The leader takes below 50% (the match is this game) and passes above (a pass leaves DMP).
    assert cube_decision((0.45, 0.05, 0.0, 0.05, 0.0), TRAILER).action == DOUBLE_TAKE
    assert cube_decision((0.55, 0.05, 0.0, 0.05, 0.0), TRAILER).action == DOUBLE_PASS
    # The leader never gains by doubling post-Crawford: a single game wins it the match.
    assert not engine.cube_action(Position.initial(), TRAILER.swap()).can_double


def test_no_double_in_the_crawford_game(engine: Engine) -> None:
    crawford = CubeInfo(match_length=7, score=(3, 6), crawford=True)
    for info in (crawford, crawford.swap()):
        d = engine.cube_action(Position.initial(), info)
        assert not d.can_double and not d.doubles


def test_jacoby_gammons_count_only_after_the_cube_is_turned() -> None:
    board = np.zeros((1, 50), dtype=np.uint8)
    board[0, 25 + 3] = 15
    gammon = np.array([[1.0, 1.0, 0.0, 0.0, 0.0]])
    jacoby = PlayValuer(CubeInfo(jacoby=True))
    assert jacoby.results(gammon, board).equity[0] == pytest.approx(1.0)
    turned = PlayValuer(CubeInfo(value=2, owner=0, jacoby=True))
    assert turned.results(gammon, board).equity[0] == pytest.approx(2.0)
    plain = PlayValuer(CubeInfo(owner=CENTERED))
    assert plain.results(gammon, board).equity[0] == pytest.approx(2.0)


def test_money_values_are_cubeful_and_keep_the_cubeless_equity(engine: Engine) -> None:
    pos, d = Position.initial(), (3, 1)
    ranked = engine.rank_plays(pos, d, CubeInfo())
    assert ranked[0].cubeless_equity is not None and ranked[0].mwc is None
    assert ranked[0].difference == 0.0
    assert all(r.difference <= 0.0 for r in ranked)
    assert str(ranked[0].play) == "8/5 6/5"
    # Without a match the values stay cubeless money (backward compatible).
    plain = engine.rank_plays(pos, d)
    assert plain[0].cubeless_equity is None
    assert plain[0].equity == pytest.approx(ranked[0].cubeless_equity)


def test_hints_search_at_the_engine_depth() -> None:
    wc = Engine("world-class")
    hints = wc.hint(Position.initial(), (6, 5), DMP, count=3)
    assert hints[0].plies == 2
    assert hints[0].mwc == pytest.approx(hints[0].probabilities[0], abs=1e-9)


def test_the_computer_player_uses_score_and_depth() -> None:
    from gammon.core.game import Game, Rules
    from gammon.play.ai_player import AIPlayer

    player = AIPlayer("expert")
    engine = player.engine
    pos, d = next((p, dd) for p, dd in _sample(engine, games=12, seed=5)
                  if engine.best_play(p, dd, DMP).position != engine.best_play(p, dd).position)
    game = Game(Rules(match_length=7), score=(6, 6), position=pos)
    game.rolled = d
    plays = list(pos.legal_plays(d))
    assert player.choose_play(game, plays).position == engine.best_play(pos, d, DMP).position


def test_levels_give_engines_and_hints_at_their_depth() -> None:
    from gammon.core.game import Game, Rules
    from gammon.play.ai_player import AIPlayer
    from gammon.play.levels import make_engine

    assert make_engine("world-class").plies == 2
    assert make_engine("strongest").plies == 2
    assert make_engine("heuristic").plies == 0
    player = AIPlayer("world-class")
    game = Game(Rules(match_length=7), score=(6, 6))
    assert player.hint(game) == []  # nothing rolled yet
    game.rolled = (6, 5)
    hints = player.hint(game, count=2)
    assert len(hints) == 2 and hints[0].plies == 2
    assert hints[0].mwc == pytest.approx(hints[0].probabilities[0], abs=1e-9)  # DMP
