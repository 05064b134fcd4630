"""Refinement on our own 1-ply targets: positions, targets, training, files."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon.ai.distributed import task_seed
from gammon.ai.evaluator import classify_board, default_network
from gammon.ai.network import Network, net_indices
from gammon.core.errors import GammonError
from gammon.training.fitting import Progress, cross_entropy, target_entropy
from gammon.training.positions import collect_positions, collect_siblings, sibling_positions
from gammon.training.refine import (
    DATASET_FILE,
    Settings,
    compute_targets,
    main,
    refinable_variant,
    refine,
    target_evaluator,
)

TINY = Settings(positions=200, plies=1, epochs=1, lr=1e-3, batch=32, seed=5)


@pytest.fixture(scope="module")
def net() -> Network:
    return default_network()


def test_positions_are_varied_and_unfinished(net: Network) -> None:
    boards, games = collect_positions(net, 150, seed=2)
    assert boards.shape == (150, 50) and boards.dtype == np.uint8 and games >= 1
    assert all(classify_board(b) >= 2 for b in boards)  # race or contact, not DB/over
    assert (boards[:, :25].sum(axis=1) <= 15).all() and (boards[:, 25:].sum(axis=1) <= 15).all()
    assert len({b.tobytes() for b in boards}) > 100
    again, _ = collect_positions(net, 150, seed=2)
    assert np.array_equal(boards, again)
    other, _ = collect_positions(net, 150, seed=3)
    assert not np.array_equal(boards, other)


def test_targets_match_the_one_ply_evaluator(net: Network) -> None:
    boards, _ = collect_positions(net, 6, seed=4)
    ev = target_evaluator(net, 1)
    t = compute_targets(ev, boards)
    assert t.shape == (6, 5) and t.dtype == np.float32
    assert ((t >= 0) & (t <= 1)).all()
    # Cumulative: win >= win gammon >= win backgammon, and the same for losses.
    assert (t[:, 0] + 1e-6 >= t[:, 1]).all() and (t[:, 1] + 1e-6 >= t[:, 2]).all()
    assert (t[:, 3] + 1e-6 >= t[:, 4]).all()
    for i in (0, 5):
        direct = ev.evaluate_batch(boards[i:i + 1].copy(), plies=1)[0]
        assert np.allclose(t[i], direct, atol=1e-6)
    # 1-ply differs from the static value somewhere.
    static = ev.evaluate_batch(boards.copy(), plies=0)
    assert not np.allclose(t, static, atol=1e-4)


def test_tiny_refinement_learns_is_deterministic_and_saves(net: Network, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # A base whose outputs are off (every logit pushed up): training on its own search's
    # targets must bring its loss down.
    net = net.copy()
    net.b2 += 0.5
    seen: list[Progress] = []
    a = refine(TINY, tmp_path / "a", seen.append, base=net)
    assert a.train_loss_after < a.train_loss_before
    assert a.loss_after <= a.loss_before
    stages = {p.stage for p in seen}
    assert {"positions", "targets (1-ply)", "train", "epoch"} <= stages
    b = refine(TINY, None, base=net)
    for n in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(a.network, n), getattr(b.network, n))
    loaded = Network.load(tmp_path / "a" / "weights.npz")
    assert np.array_equal(loaded.w1, a.network.w1)
    m = loaded.meta
    assert m["positions"] == 200 and m["target_plies"] == 1 and m["epochs"] == 1
    assert m["lr"] == 1e-3 and m["base"]["games"] == net.meta.get("games")
    assert "date" in m and "command" in m
    assert json.loads((tmp_path / "a" / "meta.json").read_text())["positions"] == 200
    # The dataset lets a run continue: a second run reuses the saved targets.
    with np.load(tmp_path / "a" / DATASET_FILE) as z:
        assert int(z["done"]) == 200 and z["targets"].shape == (200, 5)
    seen.clear()
    c = refine(TINY, tmp_path / "a", seen.append, base=net)
    assert any("from" in p.info for p in seen if p.stage == "positions")
    assert np.array_equal(c.network.w1, a.network.w1)


def test_bad_settings() -> None:
    with pytest.raises(GammonError):
        refine(Settings(positions=1), None, base=default_network())
    with pytest.raises(GammonError):
        collect_positions(default_network(), 5, keep=0.0)


def test_command_line(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    base = tmp_path / "base.npz"
    default_network().save(base)
    assert main(["--base", str(base), "--positions", "60", "--out", str(tmp_path / "o"),
                 "--epochs", "1", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "held-out loss" in out and (tmp_path / "o" / "weights.npz").exists()


def test_pruned_two_ply_targets_are_close_to_the_full_search(net: Network) -> None:
    boards, _ = collect_positions(net, 4, seed=6)
    full = compute_targets(target_evaluator(net, 2), boards)
    pruned = compute_targets(target_evaluator(net, 2, prune=5), boards)
    one = compute_targets(target_evaluator(net, 1), boards)
    # The pruning net only drops replies the evaluator would rarely pick: values barely move,
    # while a second ply changes them measurably.
    assert np.abs(full - pruned).mean() < 0.01
    assert not np.allclose(full, one, atol=1e-3)


def test_a_pruned_dataset_is_not_reused_by_an_unpruned_run(net: Network, tmp_path) -> None:  # type: ignore[no-untyped-def]
    pruned = Settings(positions=20, plies=1, epochs=1, batch=8, seed=3, prune=5, shard=10)
    seen: list[Progress] = []
    refine(pruned, tmp_path, seen.append, base=net)
    with np.load(tmp_path / DATASET_FILE) as z:
        assert json.loads(str(z["key"]))["prune"] == 5
    seen.clear()
    refine(dataclasses.replace(pruned, prune=0), tmp_path, seen.append, base=net)
    assert not any("from" in p.info for p in seen if p.stage == "positions")


def test_collecting_follows_the_variant() -> None:
    """Refinement's self-play is the training's turn: any variant's games (Hypergammon:
    three checkers a side, so no position holds more)."""
    from gammon.ai.network import Network
    from gammon.training.positions import collect_positions

    boards, games = collect_positions(Network.random(hidden=8, seed=1), 60, seed=2,
                                      variant="hypergammon")
    assert len(boards) == 60 and games >= 1
    assert (boards[:, :25].sum(axis=1) <= 3).all() and (boards[:, 25:].sum(axis=1) <= 3).all()
    assert (boards[:, :25].sum(axis=1) > 0).all()


def test_the_targets_entropy_is_the_floor_of_the_loss() -> None:
    assert target_entropy(np.full((4, 5), 0.5)) == pytest.approx(np.log(2))
    assert target_entropy(np.array([[0.0, 1.0, 1.0, 0.0, 0.0]])) < 1e-5


probs = st.floats(0.0, 1.0, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(probs, probs), min_size=1, max_size=20))
def test_no_output_has_a_lower_loss_than_the_targets_themselves(pairs: list[tuple[float, float]]) -> None:
    # Gibbs' inequality: the cross-entropy H(t, y) is at least the entropy H(t).
    t = np.array([[a] * 5 for a, _ in pairs])
    y = np.array([[b] * 5 for _, b in pairs])
    assert cross_entropy(y, t) >= target_entropy(t) - 1e-9


def test_siblings_are_the_results_of_the_best_plays_of_one_roll(net: Network) -> None:
    from gammon.core.position import Position

    start = Position.initial()
    boards = np.frombuffer(start.board, dtype=np.uint8).reshape(1, 50)
    got = sibling_positions(net, boards, 4, 100, np.random.default_rng(2))
    # The same generator gives the roll; the results are the net's four best plays of it,
    # best first, each seen by the opponent (who is on roll next).
    d = tuple(int(v) for v in np.random.default_rng(2).integers(1, 7, size=2))
    best = [r.play.position.swap().board for r in net.rank_plays(start, d)[:4]]
    assert [bytes(row) for row in got] == best
    assert len(set(best)) == len(best)
    assert len(sibling_positions(net, boards, 4, 2, np.random.default_rng(2))) == 2
    with pytest.raises(GammonError):
        sibling_positions(net, boards, 0, 10, np.random.default_rng(2))


def test_a_sibling_dataset_has_its_own_key_and_valued_results(net: Network, tmp_path) -> None:  # type: ignore[no-untyped-def]
    s = Settings(positions=30, plies=0, epochs=1, batch=8, seed=4, shard=15, siblings=3)
    refine(s, tmp_path / "sib", base=net)
    with np.load(tmp_path / "sib" / DATASET_FILE) as z:
        assert json.loads(str(z["key"]))["siblings"] == 3
        boards, targets = z["boards"], z["targets"]
    assert boards.shape == (30, 50)
    assert all(classify_board(b) >= 2 for b in boards)
    # 0-ply targets are the net's own values of the positions.
    np.testing.assert_allclose(targets, net.evaluate_boards(boards), atol=1e-5)
    # The positions are results of plays, not the self-play positions themselves.
    plain, _ = collect_positions(net, 30, seed=task_seed(4, 0))
    assert not {bytes(b) for b in boards} <= {bytes(b) for b in plain}


def test_a_nackgammon_sibling_dataset_comes_from_nackgammon_games(net: Network, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Nackgammon starts with two checkers on each side's 23-point as well as its 24: the
    early positions of its games show that, standard games (none on the 23 at the start)
    show it far less, and the dataset key keeps the two apart."""
    s = Settings(positions=40, plies=0, epochs=1, batch=8, seed=4, shard=20, siblings=3,
                 variant="nackgammon", keep=1.0)
    refine(s, tmp_path / "nack", base=net)
    with np.load(tmp_path / "nack" / DATASET_FILE) as z:
        assert json.loads(str(z["key"]))["variant"] == "nackgammon"
        nack = np.array(z["boards"])
    std = collect_siblings(net, 40, task_seed(4, 0), 3, keep=1.0)[0]
    # Checkers back on the 23- and 24-points (both sides): Nackgammon starts with four there.
    back = lambda b: (b[:, 22:24].sum(axis=1) + b[:, 47:49].sum(axis=1)).mean()  # noqa: E731
    assert back(nack) > back(std) + 1.0


def test_only_variants_that_move_like_standard_can_be_refined(net: Network) -> None:
    assert refinable_variant("nackgammon").name == "nackgammon"
    for name in ("dutch", "hypergammon", "acey-deucey"):
        with pytest.raises(GammonError, match="other rules than standard"):
            refine(Settings(positions=10, variant=name), None, base=net)


def test_a_crashed_dataset_holds_crashed_positions_and_their_siblings(net: Network, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # The rows are the results of the best plays of a roll from crashed self-play positions: a
    # play rarely gives a side more working checkers (a checker moves on, or off; a hit blot was
    # working already), so they stay crashed or become a race, for the third net or the race net.
    s = Settings(positions=30, plies=0, epochs=1, batch=8, seed=6, shard=15, siblings=3, keep=1.0,
                 crashed_only=True)
    refine(s, tmp_path / "crashed", base=net)
    with np.load(tmp_path / "crashed" / DATASET_FILE) as z:
        assert json.loads(str(z["key"]))["positions"] == "crashed"
        boards = np.array(z["boards"])
    classes = net_indices(boards, 3)
    assert len(boards) == 30 and (classes == 2).sum() >= 15 and (classes == 0).sum() <= 1
    # the plain run of the same seed is another dataset (its key differs) and mostly contact
    plain = collect_siblings(net, 30, task_seed(6, 0), 3, keep=1.0)[0]
    assert (net_indices(plain, 3) == 0).mean() > 0.5
    with pytest.raises(GammonError, match="siblings"):
        refine(dataclasses.replace(s, siblings=0), tmp_path / "bad", base=net)
