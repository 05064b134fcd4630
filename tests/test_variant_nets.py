"""Variant nets: the engine plays each variant with its own net; self-play follows each variant's rules."""

from __future__ import annotations

import numpy as np
import pytest

from gammon.ai.bearoff import load as load_bearoff
from gammon.ai.encoding import NUM_INPUTS
from gammon.ai.engine import Engine
from gammon.ai.evaluator import ClassifyingEvaluator
from gammon.ai.network import Network
from gammon.ai.train import Settings, _play_turn, _Scratch, seed_state, train, variant_rules
from gammon.ai.variant_nets import VARIANT_NETS, load_variant_network
from gammon.core.position import Position
from gammon.core.variants import ACEY_DEUCEY, DUTCH, HYPERGAMMON, NACKGAMMON, STANDARD, VARIANTS

TRAINED = ("nackgammon", "hypergammon", "dutch", "acey-deucey")


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(plies=0)


@pytest.mark.parametrize("name", TRAINED)
def test_each_trained_variant_ships_its_own_net(name: str) -> None:
    net = load_variant_network(VARIANT_NETS[name])
    assert net is not None, f"no shipped net for {name}"
    k, inputs, hidden = net.w1.shape
    assert inputs == NUM_INPUTS == net.meta["inputs"]
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
    start, rules, pool, per_checker = variant_rules(variant)
    initial = Position.initial(variant)
    assert bytes(start) == initial.board
    assert pool == initial.pool[0] == initial.pool[1]
    assert rules[0] == variant.flags and rules[1] == variant.checkers
    assert per_checker == variant.pays_per_checker


def _turn_after(variant, dice: tuple[int, int]) -> tuple[int, np.ndarray]:  # type: ignore[no-untyped-def]
    """Pips the player on roll moves in a first turn that starts with ``dice`` (heuristic play)."""
    start, rules, pool, _ = variant_rules(variant)
    net = Network.random(4, 2, seed=0)
    sc = _Scratch(4)
    tmp = np.zeros(50, dtype=np.uint8)
    out = np.zeros(50, dtype=np.uint8)
    from gammon.ai.train import _roll

    for seed in range(1000):  # a generator state whose first (non-opening) roll is ``dice``
        rng = seed_state(seed)
        probe = rng.copy()
        if tuple(sorted(_roll(probe, False))) == dice:
            break
    pools = np.array([pool, pool], dtype=np.int64)
    _play_turn(1, start, pools, False, rules, net.w1, net.b1, net.w2, net.b2, 0.0, rng, sc.gb,
               sc.gm, sc.table, sc.cx, sc.cy, tmp, out)
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
