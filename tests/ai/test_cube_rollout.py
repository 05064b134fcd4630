"""A cube decision rolled out (gammon.ai.cube_rollout): no double keeps the cube for the first
turn, double/take hands it over doubled, double/pass is the cash; at a match score the values
are the match equity table's after the game's possible results."""

from __future__ import annotations

import pytest

from gammon.ai.cube import DOUBLE_PASS, PASS, CubeInfo
from gammon.ai.cube_rollout import rollout_cube
from gammon.ai.engine import Engine
from gammon.ai.met import default_met
from gammon.ai.rollout import RolloutSettings
from gammon.core.cube import CubeAction, RelativeOwner
from gammon.core.errors import GammonError
from gammon.core.position import Position


def _side(**points: int) -> list[int]:
    row = [0] * 25
    for name, n in points.items():
        row[int(name[1:]) - 1] = n
    return row


#: The last roll: one checker on the 6-point bears off with 27 rolls of 36 (all but 1-1, 1-2,
#: 1-3, 1-4 and 2-3); otherwise the opponent, one checker on his 1-point, bears off.
LAST_ROLL = Position(_side(p6=1), _side(p1=1))
#: From the 5-point: 31 rolls of 36 (all but 1-1, 1-2 and 1-3).
LAST_ROLL_86 = Position(_side(p5=1), _side(p1=1))
QUICK = RolloutSettings(trials=72)


@pytest.fixture(scope="module")
def ev() -> object:
    return Engine(plies=0).evaluator  # its bear-off tables know these positions exactly


def test_money_last_roll_at_the_take_point(ev: object) -> None:
    # No double: 27/36 - 9/36 = 0.5; double/take: twice that; double/pass: the one point.
    r = rollout_cube(LAST_ROLL, ev, QUICK)
    d = r.decision
    assert d.no_double == pytest.approx(0.5)
    assert d.double_take == pytest.approx(1.0) and d.double_pass == pytest.approx(1.0)
    assert d.doubles and d.mwc is None
    assert r.trials == 72 and r.no_double.settings.first_cube_action is False


def test_money_last_roll_is_a_pass_at_86_percent(ev: object) -> None:
    d = rollout_cube(LAST_ROLL_86, ev, QUICK).decision
    assert d.no_double == pytest.approx(26 / 36)
    assert d.double_take == pytest.approx(2 * 26 / 36) and d.double_pass == pytest.approx(1.0)
    assert d.action == DOUBLE_PASS and d.taker_action == PASS


def test_match_score_values_are_the_tables_after_each_result(ev: object) -> None:
    # 5-away, 5-away, cube 1 (a 7-point match at 2-2): no double wins or loses one point,
    # double/take two, double/pass gives one.
    met = default_met(7)
    r = rollout_cube(LAST_ROLL, ev, QUICK, CubeInfo(match_length=7, score=(2, 2)), met)
    assert r.decision.mwc is not None
    nd, dt, dp = r.decision.mwc
    assert nd == pytest.approx(0.75 * met.after_pre(4, 5) + 0.25 * met.after_pre(5, 4))
    assert dt == pytest.approx(0.75 * met.after_pre(3, 5) + 0.25 * met.after_pre(5, 3))
    assert dp == pytest.approx(met.after_pre(4, 5))
    assert r.decision.double_pass == pytest.approx(1.0)  # EMG: the cash is +1 cube by definition
    assert r.decision.doubles == (min(dt, dp) > nd)


def test_a_player_who_may_not_double_gets_no_double(ev: object) -> None:
    # The opponent owns the cube: the rollout still values double/take (what a double made all
    # the same would cost), and the decision stays no double.
    d = rollout_cube(LAST_ROLL, ev, QUICK, CubeInfo(value=2, owner=RelativeOwner.OPPONENT)).decision
    assert d.action == CubeAction.NO_DOUBLE and not d.can_double
    assert d.no_double == pytest.approx(0.5)


def test_what_cannot_be_rolled_out_is_refused(ev: object) -> None:
    with pytest.raises(GammonError, match="limit"):
        rollout_cube(LAST_ROLL, ev, QUICK, CubeInfo(value=64))
    won = Position(_side(), _side(p1=1))
    with pytest.raises(GammonError, match="over"):
        rollout_cube(won, ev, QUICK)


def test_progress_counts_both_rollouts(ev: object) -> None:
    seen: list[tuple[int, int]] = []
    rollout_cube(LAST_ROLL, ev, QUICK, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1] == (144, 144)
    assert all(total == 144 for _done, total in seen)
    assert [done for done, _total in seen] == sorted(done for done, _total in seen)


def test_the_engine_rolls_out_a_cube_decision_with_its_own_nets() -> None:
    engine = Engine("expert")
    d = engine.rollout_cube(LAST_ROLL, QUICK).decision
    assert d.no_double == pytest.approx(0.5) and d.double_take == pytest.approx(1.0)
    held = engine.rollout_cube(LAST_ROLL, QUICK, match=CubeInfo(value=2, owner=RelativeOwner.OPPONENT))
    assert held.decision.action == CubeAction.NO_DOUBLE


def test_a_variant_rollouts_cannot_play_keeps_the_look_ahead_decision() -> None:
    from dataclasses import replace

    from gammon.ai.search import find_level

    # Acey-Deucey's bonus rolls are not played by a rollout: its close call (the last roll at
    # 75%, take and pass equal) is the look-ahead's, exact here, not an error.
    rolling = Engine(replace(find_level("expert"), cube_rollout=72))
    acey = Position(_side(p6=1), _side(p1=1), variant="acey-deucey")
    d = rolling.cube_action(acey, role="taker")
    assert "rolled out" not in d.explanation
    assert d.no_double == pytest.approx(0.5) and d.double_take == pytest.approx(1.0)


def test_a_close_call_is_either_question_left_open() -> None:
    from gammon.ai.cube import DOUBLE_TAKE, NO_DOUBLE, TAKE, CubeDecision
    from gammon.ai.cube_rollout import is_close_call

    def decision(nd: float, dt: float, dp: float, can: bool = True) -> CubeDecision:
        return CubeDecision(DOUBLE_TAKE if min(dt, dp) > nd else NO_DOUBLE, nd, dt, dp, TAKE, "", can,
                            0.0, 0.2, 0.7)

    assert is_close_call(decision(0.50, 0.55, 1.0), 0.08)  # double or not
    assert is_close_call(decision(0.30, 0.96, 1.0), 0.08)  # take or pass
    assert not is_close_call(decision(0.30, 0.70, 1.0), 0.08)  # a clear double and a clear take
    assert not is_close_call(decision(0.50, 0.55, 1.0, can=False), 0.08)  # no call to make


def test_a_close_call_asked_for_one_side_is_that_sides_question_alone() -> None:
    from gammon.ai.cube import DOUBLE_TAKE, NO_DOUBLE, TAKE, CubeDecision
    from gammon.ai.cube_rollout import is_close_call

    def decision(nd: float, dt: float, dp: float) -> CubeDecision:
        return CubeDecision(DOUBLE_TAKE if min(dt, dp) > nd else NO_DOUBLE, nd, dt, dp, TAKE, "", True,
                            0.0, 0.2, 0.7)

    double_or_not = decision(0.50, 0.55, 1.0)  # a clear take
    take_or_pass = decision(0.30, 0.96, 1.0)  # a clear double
    assert is_close_call(double_or_not, 0.08, "doubler") and not is_close_call(double_or_not, 0.08, "taker")
    assert is_close_call(take_or_pass, 0.08, "taker") and not is_close_call(take_or_pass, 0.08, "doubler")
    with pytest.raises(GammonError, match="'doubler' or 'taker'"):
        is_close_call(double_or_not, 0.08, "beaver")  # type: ignore[arg-type]


def test_the_computer_rolls_out_only_the_question_it_answers() -> None:
    from dataclasses import replace

    from gammon.ai.search import find_level
    from gammon.core.game import Game, Phase
    from gammon.play.ai_player import AIPlayer

    engine = Engine(replace(find_level("expert"), cube_rollout=72))
    # The last roll at 75%: a clear double (0.5 against 1.0) whose take and pass are worth the same.
    assert "rolled out" not in engine.cube_action(LAST_ROLL, role="doubler").explanation
    seen: list[tuple[int, int]] = []
    taker = engine.cube_action(LAST_ROLL, role="taker", progress=lambda done, total: seen.append((done, total)))
    assert taker.explanation.startswith("rolled out, 72 trials")
    assert seen[-1] == (144, 144)  # both rollouts' trials told as they go
    # Through the player: it doubles at once; asked to take, it rolls its question out (take
    # and pass are equal there, so either answer is right; the rollout is what is checked).
    asked: list[object] = []
    real = engine.cube_action

    def spy(position: Position, match: object | None = None, role: object = None):  # type: ignore[no-untyped-def]
        d = real(position, match, role)  # type: ignore[arg-type]
        asked.append((role, d.explanation.startswith("rolled out")))
        return d

    engine.cube_action = spy  # type: ignore[method-assign]
    player = AIPlayer("expert", engine=engine)
    assert player.cube_action(Game(position=LAST_ROLL, phase=Phase.ROLL)) == CubeAction.DOUBLE
    player.answer_double(Game(position=LAST_ROLL, phase=Phase.DOUBLED))
    assert asked == [("doubler", False), ("taker", True)]


def test_a_level_with_cube_rollouts_rolls_out_only_its_close_calls() -> None:
    from dataclasses import replace

    from gammon.ai.search import find_level

    rolling = Engine(replace(find_level("expert"), cube_rollout=72))
    # The last roll at 75%: take and pass are worth the same, a close call: rolled out.
    d = rolling.cube_action(LAST_ROLL)
    assert d.explanation.startswith("rolled out, 72 trials") and d.no_double == pytest.approx(0.5)
    # The opening position: far from doubling, a clear take: the look-ahead's own decision.
    opening = rolling.cube_action(Position.initial())
    assert "rolled out" not in opening.explanation and opening.action == CubeAction.NO_DOUBLE
    # The expert level (instant) rolls nothing out; the strongest does (test_ai_engine).
    assert "rolled out" not in Engine("expert").cube_action(LAST_ROLL).explanation
