"""The engine: evaluators, position classes, play choice, levels and the CLI commands."""

from __future__ import annotations

import json

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from gammon.ai.engine import Engine, Evaluation, RankedPlay, equity
from gammon.ai.evaluator import (
    ClassifyingEvaluator,
    Evaluator,
    NetEvaluator,
    PositionClass,
    classify,
    default_evaluator,
    default_network,
)
from gammon.ai.network import flip_probs
from gammon.ai.probabilities import Probabilities
from gammon.ai.search import PlyEvaluator
from gammon.cli.ai_commands import register
from gammon.core.errors import GammonError, InvalidDiceError
from gammon.core.position import Position

START = Position.initial()
CLOSED_OUT = Position([0] * 5 + [14] + [0] * 18 + [1], [2, 2, 2, 2, 2, 2] + [0] * 6 + [3] + [0] * 12)
RACE = Position([0, 0, 0, 0, 0, 4, 3, 3, 2, 2, 1] + [0] * 14, [0, 0, 3, 3, 3, 3, 3] + [0] * 18)
BEAROFF = Position([3, 3, 3, 2, 2, 2] + [0] * 19, [2, 2, 2, 3, 3, 3] + [0] * 19)
OVER = Position([0] * 25, [5] + [0] * 24)
ENGINE = Engine("expert")


# -- evaluators -------------------------------------------------------------------------


def test_classes() -> None:
    assert classify(START) is PositionClass.CONTACT
    assert classify(RACE) is PositionClass.RACE
    assert classify(BEAROFF) is PositionClass.BEAROFF
    assert classify(OVER) is PositionClass.OVER


def test_evaluators_follow_the_protocol_and_shapes() -> None:
    static = default_evaluator()
    for ev in (static, NetEvaluator(default_network()), PlyEvaluator(static, 1)):
        assert isinstance(ev, Evaluator)
        y = ev.evaluate(START)
        assert type(y) is Probabilities and all(type(v) is float for v in y)
        ys = ev.evaluate_batch([START, RACE, BEAROFF, OVER])
        assert ys.shape == (4, 5) and ys.dtype == np.float64
        assert y == Probabilities.of_row(ys[0])
        assert np.all((ys >= 0.0) & (ys <= 1.0))
        assert np.all(ys[:, 1] <= ys[:, 0] + 1e-6) and np.all(ys[:, 3] <= 1 - ys[:, 0] + 1e-6)
    boards = np.stack([np.frombuffer(p.board, dtype=np.uint8) for p in (START, RACE)])
    np.testing.assert_allclose(static.evaluate_batch(boards), static.evaluate_batch([START, RACE]))
    assert static.evaluate_batch([]).shape == (0, 5)
    with pytest.raises(GammonError):
        static.evaluate_batch(np.zeros((2, 49), dtype=np.uint8))


def test_net_evaluator_matches_the_network() -> None:
    net = default_network()
    ev = NetEvaluator(net)
    ps = [START, RACE, BEAROFF, CLOSED_OUT]
    want = net.evaluate_boards(np.stack([np.frombuffer(p.board, dtype=np.uint8) for p in ps]))
    np.testing.assert_allclose(ev.evaluate_batch(ps), want, atol=2e-6)


def test_only_bearoffs_differ_with_the_database() -> None:
    net = default_network()
    with_db, without = default_evaluator(), NetEvaluator(net)
    np.testing.assert_allclose(with_db.evaluate(RACE), without.evaluate(RACE))
    assert not np.allclose(with_db.evaluate(BEAROFF), without.evaluate(BEAROFF), atol=1e-4)
    assert isinstance(with_db, ClassifyingEvaluator) and with_db.bearoff is not None


def test_finished_game_is_exact() -> None:
    # The opponent has borne off everything; the player on roll has none off: gammon.
    lost = Position([5] + [0] * 24, [0] * 25)
    np.testing.assert_array_equal(default_evaluator().evaluate(lost), [0, 0, 0, 0, 0])
    lost15 = Position([0] * 5 + [15] + [0] * 19, [0] * 25)
    np.testing.assert_array_equal(default_evaluator().evaluate(lost15), [0, 0, 0, 1, 0])
    np.testing.assert_array_equal(default_evaluator().evaluate(OVER), [1, 0, 0, 0, 0])


def test_play_values_are_the_flipped_values_of_the_opponent() -> None:
    """A play's value for the mover is the flip of the position after it, opponent on roll."""
    static = ENGINE.static_evaluator
    for r in ENGINE.rank_plays(START, (3, 1))[:4]:
        opp = static.evaluate(r.play.position.swap())
        assert r.probabilities == pytest.approx(flip_probs(opp), abs=1e-6)
        assert r.equity == pytest.approx(-equity(opp), abs=1e-6)


# -- the engine --------------------------------------------------------------------------


def test_best_play_is_legal_and_the_top_ranked() -> None:
    for dice in [(3, 1), (6, 6), (5, 2), (1, 1)]:
        play = ENGINE.best_play(START, dice)
        assert play in START.legal_plays(dice)
        ranked = ENGINE.rank_plays(START, dice)
        assert ranked[0].play == play
        assert len(ranked) == len(START.legal_plays(dice))
        assert ranked[0].difference == 0.0
        assert all(r.difference <= 0 for r in ranked)
        assert [r.equity for r in ranked] == sorted((r.equity for r in ranked), reverse=True)
    assert str(ENGINE.best_play(START, (3, 1))) == "8/5 6/5"


def test_pass_when_nothing_is_legal() -> None:
    play = ENGINE.best_play(CLOSED_OUT, (6, 6))
    assert play.moves == () and play.position == CLOSED_OUT
    assert ENGINE.rank_plays(CLOSED_OUT, (6, 6)) == []


def test_bad_dice_and_depth() -> None:
    with pytest.raises(InvalidDiceError):
        ENGINE.best_play(START, (7, 1))
    with pytest.raises(GammonError, match="plies"):
        Engine(plies=5)
    with pytest.raises(GammonError, match="plies"):
        ENGINE.evaluate(START, plies=-1)
    with pytest.raises(GammonError, match="unknown level"):
        Engine("godlike")


def test_evaluate_and_hint() -> None:
    ev = ENGINE.evaluate(START)
    assert isinstance(ev, Evaluation)
    assert ev.position_class is PositionClass.CONTACT and ev.plies == 0
    assert ev.equity == pytest.approx(equity(ev.probabilities))
    assert abs(ev.equity) < 0.25  # the opening position is close to even
    ev1 = ENGINE.evaluate(START, plies=1)
    assert ev1.plies == 1 and ev1.probabilities != ev.probabilities
    hints = ENGINE.hint(START, (6, 4), count=3)
    assert len(hints) == 3 and all(isinstance(h, RankedPlay) for h in hints)
    assert ENGINE.probabilities([START, RACE]).shape == (2, 5)


def test_an_engine_is_not_an_evaluator() -> None:
    # Issue 34: the protocol was loose enough that an Engine passed for an Evaluator while
    # its evaluate answers an Evaluation; now the names differ, so isinstance sees it too.
    assert not isinstance(ENGINE, Evaluator)
    assert isinstance(ENGINE.evaluate(START), Evaluation)
    assert isinstance(ENGINE.evaluator_for(START.variant), Evaluator)
    np.testing.assert_array_equal(ENGINE.probabilities([START]),
                                  ENGINE.evaluator.evaluate_batch([START]))


def test_the_engine_api_returns_probabilities() -> None:
    # Issue 34: the engine's values are the one Probabilities type (still a tuple of five floats).
    ev = ENGINE.evaluate(START)
    assert isinstance(ev.probabilities, Probabilities) and ev.probabilities.equity == pytest.approx(ev.equity)
    assert ev.probabilities == tuple(ev.probabilities) and all(type(v) is float for v in ev.probabilities)
    ranked = ENGINE.rank_plays(START, (6, 4))
    assert all(isinstance(r.probabilities, Probabilities) for r in ranked)
    assert ranked[0].probabilities.win == ranked[0].probabilities[0]


def test_two_ply_engine_ranks_the_filtered_plays_first() -> None:
    e2 = Engine(plies=2)
    ranked = e2.rank_plays(START, (6, 4))
    deep = [r for r in ranked if r.plies == 2]
    assert 1 <= len(deep) <= 8
    assert ranked[: len(deep)] == deep
    assert e2.best_play(START, (6, 4)) == ranked[0].play


def test_noisy_levels_play_legally_and_reproducibly() -> None:
    a = Engine("beginner", seed=3)
    b = Engine("beginner", seed=3)
    rolls = [(6, 4), (5, 3), (2, 1), (6, 5), (4, 4), (3, 2)]
    pa = [a.best_play(START, d) for d in rolls]
    assert pa == [b.best_play(START, d) for d in rolls]
    assert all(p in START.legal_plays(d) for p, d in zip(pa, rolls, strict=True))
    assert Engine("advanced").level.noise < Engine("beginner").level.noise
    assert Engine("expert", noise=0.5).level.noise == 0.5


def test_prune_overrides_the_levels_pruning() -> None:
    # The strongest level prunes its inner nodes; prune=0 searches every reply there, which
    # is the plain 2-ply search's value, and a bad count is refused in one line.
    strongest = Engine("strongest")
    assert strongest.level.prune > 0 and strongest.evaluator.prune == strongest.level.prune
    exact = Engine("strongest", prune=0)
    assert exact.level.prune == 0 and exact.evaluator.prune == 0
    assert exact.evaluate(RACE).probabilities == Engine(plies=2).evaluate(RACE).probabilities
    assert Engine(plies=2, prune=3).evaluator.prune == 3
    with pytest.raises(GammonError, match="prune must be 0"):
        Engine("strongest", prune=65)


def test_weights_meta_records_the_training() -> None:
    meta = default_network().meta
    assert meta.get("games", 0) > 0 and "settings" in meta


# -- CLI -------------------------------------------------------------------------------------

_app = typer.Typer()
register(_app)
runner = CliRunner()


def _run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(_app, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_cli_hint() -> None:
    code, out, err = _run("hint", "4HPwATDgc/ABMA", "31")
    assert code == 0, err
    assert "8/5 6/5" in out.splitlines()[1]
    code, out, _ = _run("hint", "4HPwATDgc/ABMA", "3-1", "--json", "--count", "0")
    data = json.loads(out)
    assert data["dice"] == [3, 1] and len(data["plays"]) == 16 and data["plies"] == 0
    assert data["plays"][0]["difference"] == 0.0
    code, out, _ = _run("hint", CLOSED_OUT.position_id, "66")
    assert code == 0 and "no legal play" in out


def test_cli_eval() -> None:
    code, out, err = _run("eval", "4HPwATDgc/ABMA", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["class"] == "contact" and set(data["probabilities"]) == {
        "win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"}
    assert data["equity"] == pytest.approx(equity(list(data["probabilities"].values())), abs=1e-5)
    code, out, _ = _run("eval", "4HPwATDgc/ABMA", "--plies", "1")
    assert code == 0 and "1-ply" in out and "cubeless equity" in out


def test_cli_eval_cube_of_an_xgid() -> None:
    """The XGID's cube and score decide: no double in the Crawford game or with the opponent's
    cube, and the reason is said; a centred money cube shows all three equities."""
    start = "XGID=-b----E-C---eE---c-e----B-"
    code, out, _ = _run("eval", start + ":0:0:1:00:6:3:1:7:10")  # 6-3 in a 7-point match, Crawford
    assert code == 0 and "cube: no double (Crawford game: no doubling)" in out
    code, out, _ = _run("eval", start + ":1:-1:1:00:0:0:0:0:10")  # money, the opponent owns 2
    assert code == 0 and "the opponent owns the cube" in out
    code, out, _ = _run("eval", start + ":0:0:1:00:0:0:0:0:10", "--json")
    data = json.loads(out)["cube"]
    assert data["can_double"] and data["double_pass"] == 1.0
    assert data["action"] == "no double" and data["double_take"] < data["no_double"]


def test_cli_eval_at_the_strongest_level_rolls_out_a_close_cube_call() -> None:
    """The last roll at 75% (one checker on the 6-point against one on the ace point): take and
    pass are worth the same, a close call the strongest level rolls out; no double is exactly
    27/36 - 9/36, double/take twice that.  The opening position is no close call."""
    last_roll = Position(tuple([0] * 5 + [1] + [0] * 19), tuple([1] + [0] * 24))  # type: ignore[arg-type]
    code, out, err = _run("eval", last_roll.position_id, "--level", "strongest", "--json")
    assert code == 0, err
    cube = json.loads(out)["cube"]
    assert cube["explanation"].startswith("rolled out, 648 trials")
    assert cube["no_double"] == pytest.approx(0.5) and cube["double_take"] == pytest.approx(1.0)
    code, out, err = _run("eval", "4HPwATDgc/ABMA", "--level", "strongest", "--json")
    assert code == 0, err
    assert "rolled out" not in json.loads(out)["cube"]["explanation"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("hint", "nonsense", "31"), "Position ID"),
        (("hint", "4HPwATDgc/ABMA", "71"), "dice"),
        (("hint", "4HPwATDgc/ABMA"), "give the dice"),
        (("eval", "4HPwATDgc/ABMA", "--plies", "9"), "plies"),
        (("eval", "4HPwATDgc/ABMA", "--level", "godlike"), "unknown level"),
    ],
)
def test_cli_errors(args: tuple[str, ...], message: str) -> None:
    code, out, err = _run(*args)
    assert code == 2
    assert err.startswith("error: ") and message in err and len(err.strip().splitlines()) == 1


def test_engine_cube_action_and_cubeful_evaluation() -> None:
    from gammon.ai.cube import NO_DOUBLE, CubeInfo
    from gammon.ai.engine import Engine

    engine = Engine("expert")
    start = Position.initial()
    assert engine.cube_action(start).action == NO_DOUBLE
    ev = engine.evaluate(start)
    assert ev.cube_action == NO_DOUBLE and ev.cubeful_equity is not None
    bare = engine.evaluate(start, cube=False)  # the caller takes the cube decision itself
    assert bare.cube_action is None and bare.cubeful_equity is None
    assert bare.probabilities == ev.probabilities and bare.equity == ev.equity
    # A trivially won race: the player on roll has one checker left, the opponent fifteen.
    me = [1] + [0] * 24
    opp = [0] * 18 + [5, 5, 5] + [0] * 4
    won = Position(me, opp)
    decision = engine.cube_action(won, CubeInfo())
    assert decision.action in ("double/pass", "too good to double")
    crawford = engine.cube_action(won, CubeInfo(match_length=5, score=(3, 4), crawford=True))
    assert crawford.action == NO_DOUBLE


def test_engine_rollout_is_seeded() -> None:
    from gammon.ai.engine import Engine
    from gammon.ai.rollout import RolloutSettings

    engine = Engine("expert")
    settings = RolloutSettings(trials=36, seed=3, truncate_at=6, variance_reduction=False, processes=1)
    a = engine.rollout(Position.initial(), settings)
    b = engine.rollout(Position.initial(), settings)
    assert a.trials == 36 and a.equity == b.equity and a.se_equity > 0
