"""Variant nets: the engine plays each variant with its own net; self-play follows each variant's rules.

Also ``benchmarks/variant_nets.py``'s luck-adjusted duel estimate.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from benchmark_modules import load_benchmark
from boards import pos
from gammon.ai import variant_nets
from gammon.ai.bearoff import load as load_bearoff
from gammon.ai.encoding import BASE_INPUTS, NUM_INPUTS
from gammon.ai.engine import Engine
from gammon.ai.evaluator import ClassifyingEvaluator, default_evaluator, default_network
from gammon.ai.network import Network
from gammon.ai.variant_nets import CUBE_NET, VARIANT_NETS, ZERO_PLY_NET, load_variant_network
from gammon.core.position import Position
from gammon.core.variants import ACEY_DEUCEY, DUTCH, HYPERGAMMON, NACKGAMMON, STANDARD, VARIANTS
from gammon.training.bundles import HEURISTIC, policy, scratch, variant_rules
from gammon.training.selfplay import play_turn, roll, seed_state
from gammon.training.train import Settings, train

TRAINED = ("nackgammon", "hypergammon", "dutch", "acey-deucey")


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(plies=0)


@pytest.mark.parametrize("name", TRAINED)
def test_each_trained_variant_ships_its_own_net(name: str) -> None:
    net = load_variant_network(VARIANT_NETS[name])
    assert net is not None, f"no shipped net for {name}"
    k, inputs, hidden = net.w1.shape
    # Nets made before the extra inputs (their files 214 inputs wide) read them with zero weights.
    assert inputs == NUM_INPUTS and net.meta["inputs"] in (BASE_INPUTS, NUM_INPUTS)
    assert net.meta["inputs"] == NUM_INPUTS or not net.reads_extras().any()
    assert net.b1.shape == (k, hidden)
    assert net.w2.shape == (k, hidden, 5) and net.b2.shape == (k, 5)
    assert net.meta["variant"] == name
    assert net.meta["games"] > 0


@pytest.mark.parametrize("name", TRAINED)
def test_the_engine_picks_the_variants_net(engine: Engine, name: str) -> None:
    net = engine.network_for(name)
    assert net is not engine.network, f"{name} is played with the standard net"
    assert net.meta["variant"] == name
    assert engine.evaluator_for(name) is not engine.evaluator
    # and the evaluation of a position of that variant comes from that net
    pos = Position.initial(name)
    mine = ClassifyingEvaluator(net, load_bearoff()).evaluate(pos)
    assert np.allclose(engine.evaluate(pos).probabilities, mine, atol=1e-5)


def test_hypergammon_with_fewer_checkers_uses_the_hypergammon_net(engine: Engine) -> None:
    assert engine.network_for("hypergammon1") is engine.network_for(HYPERGAMMON)
    assert engine.network_for("hypergammon2") is engine.network_for(HYPERGAMMON)


def test_standard_backgammon_keeps_the_standard_net(engine: Engine) -> None:
    assert engine.network_for(STANDARD) is engine.network
    assert engine.evaluator_for("backgammon") is engine.evaluator


def test_explicit_weights_play_every_variant_unless_told_otherwise() -> None:
    std = Network.random(8, 2, seed=1)
    other = Network.random(8, 2, seed=2)
    plain = Engine(plies=0, weights=std)
    assert all(plain.network_for(v) is std for v in VARIANTS)
    mixed = Engine(plies=0, weights=std, variant_weights={"dutch-backgammon": other})
    assert mixed.network_for(DUTCH) is other
    assert mixed.network_for(NACKGAMMON) is std
    pos = Position.initial(DUTCH)
    p_other = ClassifyingEvaluator(other, load_bearoff()).evaluate(pos)
    p_std = ClassifyingEvaluator(std, load_bearoff()).evaluate(pos)
    assert not np.allclose(p_other, p_std)
    assert np.allclose(mixed.evaluate(pos).probabilities, p_other, atol=1e-5)
    # a play in Dutch comes from the Dutch net's search: legal, and the engine still answers
    play = mixed.best_play(pos, (6, 5))
    assert play in pos.legal_plays((6, 5))


# -- self-play under each variant's rules ----------------------------------------------


@pytest.mark.parametrize("variant", [STANDARD, NACKGAMMON, HYPERGAMMON, DUTCH, ACEY_DEUCEY])
def test_compiled_start_matches_the_rules(variant) -> None:  # type: ignore[no-untyped-def]
    rules = variant_rules(variant)
    initial = Position.initial(variant)
    assert bytes(rules.start) == initial.board
    assert rules.pool == initial.pool[0] == initial.pool[1]
    assert rules.flags == variant.flags and rules.checkers == variant.checkers
    assert rules.per_checker == variant.pays_per_checker


def _turn_after(variant, dice: tuple[int, int]) -> tuple[int, np.ndarray]:  # type: ignore[no-untyped-def]
    """Pips the player on roll moves in a first turn that starts with ``dice`` (heuristic play)."""
    rules = variant_rules(variant)
    start = rules.start
    out = np.zeros(50, dtype=np.uint8)
    for seed in range(1000):  # a generator state whose first (non-opening) roll is ``dice``
        rng = seed_state(seed)
        probe = rng.copy()
        if tuple(sorted(roll(probe, False))) == dice:
            break
    pools = np.array([rules.pool, rules.pool], dtype=np.int64)
    play_turn(policy(HEURISTIC, Network.random(4, 2, seed=0)), start, pools, False, rules, rng, scratch(), out)
    before = sum(int(c) * (i + 1) for i, c in enumerate(start[:25]))
    after = sum(int(c) * (i + 1) for i, c in enumerate(out[:25]))
    return before - after, pools


def test_acey_deucey_one_two_brings_a_double_of_choice() -> None:
    """Acey-Deucey: "if both the 1 and the 2 were legally played, the player's chosen double follows"."""
    moved, pools = _turn_after(ACEY_DEUCEY, (1, 2))
    assert moved >= 3 + 4  # the 1-2, then four moves of the double
    assert pools[0] < 15  # entries came out of the pool
    assert pools[1] == 15


def test_without_the_bonus_a_one_two_moves_three_pips() -> None:
    moved, _ = _turn_after(DUTCH, (1, 2))
    assert moved == 3
    moved, _ = _turn_after(ACEY_DEUCEY, (3, 5))
    assert moved == 8


def test_training_a_variant_from_given_weights(tmp_path) -> None:  # type: ignore[no-untyped-def]
    base = Network.random(8, 2, seed=3)
    base.save(tmp_path / "base.npz")
    s = Settings(games=6, hidden=8, log_every=3, checkpoint_every=3, eval_every=3, eval_games=4,
                 variant="acey", init=str(tmp_path / "base.npz"))
    net = train(s, tmp_path / "run")
    assert net.w1.shape == base.w1.shape
    assert not np.array_equal(net.w1, base.w1)
    meta = Network.load(tmp_path / "run" / "checkpoint.npz").meta
    assert meta["variant"] == "acey-deucey" and meta["games"] == 6
    assert meta["settings"]["init"] == str(tmp_path / "base.npz")
    assert "vs_init_ppg" in meta["history"][-1]


def test_cli_train_refuses_an_unknown_variant_or_bad_init(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    from gammon.cli import app

    runner = CliRunner()
    r = runner.invoke(app, ["train", "--out", str(tmp_path / "run"), "--variant", "chess", "--games", "5"])
    assert r.exit_code == 2 and "unknown variant 'chess'" in r.output
    bad = tmp_path / "bad.npz"
    bad.write_text("not weights")
    r = runner.invoke(app, ["train", "--out", str(tmp_path / "run"), "--init", str(bad), "--games", "5"])
    assert r.exit_code == 2 and "not a weights file" in r.output
    assert not (tmp_path / "run").exists()


# -- the benchmark's luck-adjusted estimate (benchmarks/variant_nets.py) -------------------

BENCH = load_benchmark("variant_nets", "variant_nets_benchmark")


@pytest.fixture(scope="module")
def judge() -> Engine:
    """The benchmark's judge: the standard net at 0-ply, cubeless."""
    return Engine(plies=0, weights=BENCH._standard_net(None))


def _ranked_values(judge: Engine, position: Position) -> list[float]:
    """Each roll's value the slow way: the first of the judge's ranked plays, or the pass."""
    out = []
    for dice, _ in BENCH.ROLLS:
        ranked = judge.rank_plays(position, dice, plies=0)
        if ranked:
            out.append(ranked[0].equity)
        else:
            out.append(-judge.evaluate(position.swap(), plies=0, cube=False).equity)
    return out


LUCK_POSITIONS = {
    "nackgammon start": Position.initial(NACKGAMMON),
    "dutch start": Position.initial(DUTCH),
    "hypergammon": pos("x: 20 13 2; o: 19 11 bar", HYPERGAMMON),
    # on the bar against five closed points: only a 6 enters, every other roll passes
    "standard, closed out but for the 6": pos("x: bar 8:2 6:12; o: 1:2 2:2 3:2 4:2 5:2 13:5"),
}


@pytest.mark.parametrize("name", list(LUCK_POSITIONS))
def test_roll_luck_averages_to_zero_over_the_36_rolls(judge: Engine, name: str) -> None:
    position = LUCK_POSITIONS[name]
    values = BENCH.roll_values(judge, position)
    # the fast path values each roll as the judge's ranked plays (and a pass) do
    assert np.allclose(values, _ranked_values(judge, position), atol=1e-9)
    assert math.isclose(float(BENCH.ROLL_CHANCES.sum()), 1.0)
    lucks = [BENCH.roll_luck(values, dice) for dice, _ in BENCH.ROLLS]
    assert abs(float(np.dot(BENCH.ROLL_CHANCES, lucks))) < 1e-12
    assert BENCH.roll_luck(values, (2, 5)) == BENCH.roll_luck(values, (5, 2))
    if name.startswith("standard"):
        entering = [k for k, (dice, _) in enumerate(BENCH.ROLLS) if 6 in dice]
        passes = [k for k in range(len(BENCH.ROLLS)) if k not in entering]
        assert len(set(values[passes])) == 1  # every pass leaves the same position
        assert min(values[entering]) > values[passes[0]]
        assert all(BENCH.roll_luck(values, BENCH.ROLLS[k][0]) < 0 for k in passes)


def test_a_tiny_duel_reports_a_luck_adjusted_estimate(judge: Engine) -> None:
    net = load_variant_network(VARIANT_NETS["hypergammon"])
    assert net is not None
    standard = judge.network
    seed = 3
    r = BENCH.duel(HYPERGAMMON, net, standard, 4, seed, log=False)
    assert r["games"] == 4
    assert all(math.isfinite(r[k]) for k in ("ppg", "se", "win", "ppg_adj", "se_adj"))
    # the same games again, game by game: adjusted = raw - (luck of player 0 - luck of player 1)
    ours = Engine(plies=0, weights=standard, variant_weights={HYPERGAMMON.name: net})
    theirs = Engine(plies=0, weights=standard)
    raw, adjusted = [], []
    for p in range(2):
        s = seed * 1_000_003 + p
        a, luck_a = BENCH.play_game(HYPERGAMMON, (ours, theirs), s, judge)
        b, luck_b = BENCH.play_game(HYPERGAMMON, (theirs, ours), s, judge)
        assert (a, 0.0) == BENCH.play_game(HYPERGAMMON, (ours, theirs), s)  # the judge only watches
        assert luck_a != 0.0 and luck_b != 0.0
        raw.append(a - b)
        adjusted.append((a - luck_a) - (b - luck_b))
    assert math.isclose(r["ppg"], sum(raw) / 4)
    assert math.isclose(r["ppg_adj"], sum(adjusted) / 4)
    assert math.isclose(r["se_adj"], float(np.std(adjusted, ddof=1)) / math.sqrt(2) / 2)


def test_a_games_luck_is_player_0s_rolls_minus_player_1s(judge: Engine) -> None:
    """Replayed roll by roll (same seed, same plays): every roll after the opening counts, passes
    included, with player 0's luck added and player 1's subtracted."""
    from gammon.core.actions import Move, Roll
    from gammon.core.dice import RandomDice
    from gammon.core.game import Game, Phase
    from gammon.core.rules import Rules

    seed = 11
    points, luck = BENCH.play_game(HYPERGAMMON, (judge, judge), seed, judge)
    game = Game(Rules(variant=HYPERGAMMON), RandomDice(seed))
    mine = [0.0, 0.0]
    rolls = 0
    while game.phase is not Phase.OVER:
        if game.phase is Phase.OPENING:
            game.apply(Roll(0))
        elif game.phase is Phase.ROLL:
            roller, before = game.turn, game.position
            game.roll()
            dice = game.record[-1].dice  # type: ignore[attr-defined]
            mine[roller] += BENCH.roll_luck(BENCH.roll_values(judge, before), dice)
            rolls += 1
        else:
            game.apply(Move(game.turn, judge.best_play(game.position, game.rolled)))
    assert game.result is not None
    assert points == (1 if game.result.winner == 0 else -1) * game.result.points
    assert rolls > 2
    assert math.isclose(luck, mine[0] - mine[1], abs_tol=1e-12)


def test_acey_deucey_gets_only_the_raw_estimate(judge: Engine) -> None:
    assert not BENCH.luck_applies(ACEY_DEUCEY)
    assert all(BENCH.luck_applies(v) for v in (STANDARD, NACKGAMMON, HYPERGAMMON, DUTCH))
    with pytest.raises(ValueError, match="no luck adjustment"):
        BENCH.play_game(ACEY_DEUCEY, (judge, judge), 1, judge)
    net = load_variant_network(VARIANT_NETS["acey-deucey"])
    assert net is not None
    r = BENCH.duel(ACEY_DEUCEY, net, judge.network, 2, 1, log=False)
    assert r["games"] == 2 and math.isfinite(r["ppg"])
    assert math.isnan(r["ppg_adj"]) and math.isnan(r["se_adj"])


# -- the standard game's nets: one plays checkers at every depth, one decides the cube -----------


def test_every_level_plays_with_the_checker_play_net_and_rollouts_with_the_standard_net() -> None:
    zero = load_variant_network(ZERO_PLY_NET)
    assert zero is not None, "the checker-play net ships with the package"
    std = default_network()
    # the same contact and race shapes; the checker-play net adds a third for crashed positions
    assert zero.w1.shape[1:] == std.w1.shape[1:] and not np.array_equal(zero.w1[:2], std.w1)
    assert zero.nets == 3 and std.nets == 2
    for engine in (Engine("beginner"), Engine("expert"), Engine(plies=0), Engine("strongest", plies=0),
                   Engine("world-class"), Engine("strongest"), Engine(plies=1), Engine(plies=2)):
        assert np.array_equal(engine.network.w1, zero.w1), engine.level.name
        assert engine.evaluator.inner.network is engine.network
    # The rollouts play with the standard net, which reads none of the extra inputs.
    assert np.array_equal(default_evaluator().network.w1, std.w1) and not std.reads_extras().any()
    # Weights given by the caller play at every depth.
    assert Engine(plies=0, weights=std).network is std
    assert Engine(plies=2, weights=std).network is std


def test_the_cube_net_decides_the_standard_games_cube_at_every_level_and_plays_no_checker() -> None:
    cube = load_variant_network(CUBE_NET)
    zero = load_variant_network(ZERO_PLY_NET)
    assert cube is not None and zero is not None, "the cube net ships with the package"
    assert cube.w1.shape == zero.w1.shape and not np.array_equal(cube.w1, zero.w1)
    for name in ("beginner", "expert", "world-class", "strongest"):
        engine = Engine(name)
        assert np.array_equal(engine.cube_evaluator_for(STANDARD).inner.network.w1, cube.w1), name
        assert not np.array_equal(engine.network.w1, cube.w1), name
    # A variant with its own net decides its cube with it; weights the caller gives do both.
    dutch = Engine("expert")
    assert dutch.cube_evaluator_for(DUTCH) is dutch.evaluator_for(DUTCH)
    std = default_network()
    own = Engine(plies=0, weights=std)
    assert own.cube_evaluator_for(STANDARD) is own.evaluator


def test_without_the_cube_net_the_zero_ply_net_decides_the_cube(monkeypatch: pytest.MonkeyPatch) -> None:
    real = variant_nets.load_variant_network
    monkeypatch.setattr(variant_nets, "load_variant_network",
                        lambda name: None if name == CUBE_NET else real(name))
    zero = load_variant_network(ZERO_PLY_NET)
    assert zero is not None
    assert np.array_equal(variant_nets.cube_network().w1, zero.w1)
    for name in ("expert", "world-class"):
        assert np.array_equal(Engine(name).cube_evaluator_for(STANDARD).inner.network.w1, zero.w1)


def test_without_the_checker_play_net_the_standard_net_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(variant_nets, "load_variant_network", lambda name: None)
    assert np.array_equal(variant_nets.standard_network().w1, default_network().w1)
    for name in ("expert", "strongest"):
        assert np.array_equal(Engine(name).network.w1, default_network().w1)
