"""The MLP evaluator: forward pass, perspective flips, files."""

from __future__ import annotations

import numpy as np
import pytest

from gammon.ai.encoding import BASE_INPUTS, NUM_INPUTS, OFF_EXTRAS, encode, encode_batch
from gammon.ai.evaluator import NetEvaluator
from gammon.ai.network import Network, equity, flip_probs, forward_batch, net_index
from gammon.ai.ranked import RankedPlay
from gammon.core.errors import GammonError
from gammon.core.position import Position


def _dense(net: Network, x: np.ndarray, k: int) -> np.ndarray:
    def sig(z: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-z))

    h = sig(x.astype(np.float64) @ net.w1[k] + net.b1[k])
    return sig(h @ net.w2[k] + net.b2[k])


def test_forward_matches_dense_numpy() -> None:
    net = Network.random(hidden=16, nets=2, seed=3, scale=0.3)
    boards = np.stack([np.frombuffer(Position.initial().board, dtype=np.uint8)] * 2)
    boards[1, 5] -= 1
    boards[1, 4] += 1
    x = encode_batch(boards)
    for k in (0, 1):
        y = forward_batch(x, np.array([k, k]), net.w1, net.b1, net.w2, net.b2)
        assert y.shape == (2, 5)
        np.testing.assert_allclose(y, _dense(net, x, k), rtol=1e-5, atol=1e-6)


def test_evaluate_picks_contact_or_race_net() -> None:
    net = Network.random(hidden=8, nets=2, seed=1, scale=0.5)
    start = Position.initial().board
    race = Position([3, 3, 3, 3, 3] + [0] * 20, [3, 3, 3, 3, 3] + [0] * 20)
    x0 = encode(start)
    assert net.evaluate(start) == pytest.approx(tuple(_settled(_dense(net, x0, 0), True)), rel=1e-5)
    x1 = encode(race.board)
    assert net.evaluate(race.board) == pytest.approx(tuple(_settled(_dense(net, x1, 1), False)),
                                                     rel=1e-5)


def test_a_third_net_values_the_crashed_positions() -> None:
    # A side down to six working checkers while the other still has its back checkers: crashed.
    opp = [0] * 25
    opp[23], opp[12], opp[7], opp[5] = 2, 5, 3, 5  # its 24-, 13-, 8- and 6-points
    crashed = Position([0, 0, 0, 2, 2, 2] + [0] * 19, opp)
    b = np.frombuffer(crashed.board, dtype=np.uint8).copy()
    assert net_index(b, 3) == 2 and net_index(b, 2) == 0 and net_index(b, 1) == 0
    start = np.frombuffer(Position.initial().board, dtype=np.uint8).copy()
    race_position = Position([3, 3, 3, 3, 3] + [0] * 20, [3, 3, 3, 3, 3] + [0] * 20)
    race = np.frombuffer(race_position.board, dtype=np.uint8).copy()
    assert net_index(start, 3) == 0 and net_index(race, 3) == 1
    three = Network.random(hidden=8, nets=3, seed=4, scale=0.5)
    x = encode(crashed.board)
    by_net = [_dense(three, x, k) for k in range(3)]
    got = three.evaluate(crashed.board)
    assert got.win == pytest.approx(by_net[2][0], rel=1e-5)  # the win chance is never settled
    # the compiled evaluator of the engine (the searches, the rollouts) routes it the same way
    assert tuple(NetEvaluator(three).evaluate_batch([crashed])[0]) == pytest.approx(tuple(got), rel=1e-5)
    # with two nets the same position is the contact net's
    two = Network(three.w1[:2], three.b1[:2], three.w2[:2], three.b2[:2])
    assert two.evaluate(crashed.board).win == pytest.approx(by_net[0][0], rel=1e-5)
    assert NetEvaluator(two).evaluate_batch([crashed])[0][0] == pytest.approx(by_net[0][0], rel=1e-5)
    assert abs(by_net[0][0] - by_net[2][0]) > 1e-3


def _settled(y: np.ndarray, back: bool) -> np.ndarray:
    """Outputs made to obey the board: no backgammon without checkers back; a gammon is
    part of a win (or a loss), a backgammon part of a gammon."""
    y = np.array(y, dtype=np.float64)
    if not back:
        y[2] = y[4] = 0.0
    y[1] = min(y[1], y[0])
    y[2] = min(y[2], y[1])
    y[3] = min(y[3], 1.0 - y[0])
    y[4] = min(y[4], y[3])
    return y


def test_results_are_flipped_to_the_mover() -> None:
    net = Network.random(hidden=8, nets=2, seed=2, scale=0.5)
    plays = Position.initial().legal_plays((3, 1))
    boards = np.stack([np.frombuffer(p.position.board, dtype=np.uint8) for p in plays])
    ys, best = net.evaluate_results(boards)
    assert ys.shape == (len(plays), 5)
    for r, p in enumerate(plays):
        opp_view = net.evaluate(p.position.swap().board)
        assert tuple(ys[r]) == pytest.approx(flip_probs(opp_view), abs=1e-6)
    eqs = [equity(y) for y in ys]
    assert best == int(np.argmax(eqs))


def test_finished_games_get_their_exact_result() -> None:
    net = Network.random(hidden=8, seed=0)
    won = np.zeros((3, 50), dtype=np.uint8)
    won[0, 25 + 5] = 3  # opponent has borne off some: a single game
    won[1, 25 + 5] = 15  # none off: gammon
    won[2, 25 + 5] = 14  # none off and one in my home board: backgammon
    won[2, 25 + 20] = 1
    ys, _ = net.evaluate_results(won)
    assert [tuple(y) for y in ys] == [(1, 0, 0, 0, 0), (1, 1, 0, 0, 0), (1, 1, 1, 0, 0)]
    assert [equity(y) for y in ys] == [1, 2, 3]
    # Seen from the loser, who would be on roll:
    lost = np.concatenate([won[1, 25:], won[1, :25]])
    assert net.evaluate(lost) == (0, 0, 0, 1, 0)


def test_equity_and_flip() -> None:
    y = (0.6, 0.2, 0.05, 0.1, 0.01)
    assert equity(y) == pytest.approx(2 * 0.6 - 1 + 0.2 - 0.1 + 0.05 - 0.01)
    assert equity(flip_probs(y)) == pytest.approx(-equity(y))
    assert flip_probs(flip_probs(y)) == pytest.approx(y)


def test_save_load_round_trip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    net = Network.random(hidden=12, nets=2, seed=5)
    net.meta = {"games": 7, "settings": {"alpha": 0.1}}
    path = tmp_path / "w.npz"
    net.save(path)
    back = Network.load(path)
    for name in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(back, name), getattr(net, name))
    assert back.meta == net.meta
    assert back.hidden == 12 and back.nets == 2
    assert back.w1.shape == (2, NUM_INPUTS, 12)


def test_a_widened_net_computes_the_same_function() -> None:
    net = Network.random(hidden=12, nets=2, seed=5, scale=0.3)
    wide = net.widened(20, seed=1)
    assert wide.hidden == 20 and wide.nets == 2 and net.hidden == 12
    start = Position.initial()
    boards = np.stack([np.frombuffer(p.position.swap().board, dtype=np.uint8)
                       for p in start.legal_plays((6, 4))])
    np.testing.assert_allclose(wide.evaluate_boards(boards), net.evaluate_boards(boards), atol=1e-6)
    rng = np.random.default_rng(3)
    x = rng.random((30, NUM_INPUTS)).astype(np.float32)
    for k in range(2):
        h = 1 / (1 + np.exp(-(x @ net.w1[k] + net.b1[k])))
        hw = 1 / (1 + np.exp(-(x @ wide.w1[k] + wide.b1[k])))
        y = 1 / (1 + np.exp(-(h @ net.w2[k] + net.b2[k])))
        yw = 1 / (1 + np.exp(-(hw @ wide.w2[k] + wide.b2[k])))
        np.testing.assert_allclose(yw, y, atol=1e-6)
    # The new units are live inputs (random), silent outputs (zero) until trained.
    assert np.abs(wide.w1[:, :, 12:]).sum() > 0 and not wide.w2[:, 12:].any()
    assert np.array_equal(wide.w1[:, :, :12], net.w1)
    with pytest.raises(GammonError):
        net.widened(8)


def test_an_ensemble_averages_the_members_logits() -> None:
    members = [Network.random(hidden=h, nets=2, seed=s, scale=0.4) for h, s in ((8, 1), (12, 2), (8, 3))]
    ens = Network.ensemble(members, {"kind": "ensemble"})
    assert ens.hidden == 28 and ens.meta == {"kind": "ensemble"}
    start = Position.initial()
    boards = np.stack([np.frombuffer(p.position.swap().board, dtype=np.uint8)
                       for p in start.legal_plays((5, 2))])
    x = encode_batch(boards)
    for k in range(2):
        logits = []
        for n in members:
            h = 1 / (1 + np.exp(-(x @ n.w1[k] + n.b1[k])))
            logits.append(h @ n.w2[k] + n.b2[k])
        expected = 1 / (1 + np.exp(-np.mean(logits, axis=0)))
        hw = 1 / (1 + np.exp(-(x @ ens.w1[k] + ens.b1[k])))
        got = 1 / (1 + np.exp(-(hw @ ens.w2[k] + ens.b2[k])))
        np.testing.assert_allclose(got, expected, atol=1e-6)
    # One member is that member.
    one = Network.ensemble(members[:1])
    assert np.array_equal(one.w2, members[0].w2) and np.array_equal(one.b2, members[0].b2)
    with pytest.raises(GammonError):
        Network.ensemble([])
    with pytest.raises(GammonError):
        Network.ensemble([members[0], Network.random(hidden=8, nets=1)])


def test_load_errors(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(GammonError):
        Network.load(tmp_path / "missing.npz")
    bad = tmp_path / "bad.npz"
    np.savez(bad, w1=np.zeros((1, 3, 4)))
    with pytest.raises(GammonError):
        Network.load(bad)


def test_rank_plays() -> None:
    net = Network.random(hidden=8, seed=4, scale=0.5)
    p = Position.initial()
    ranked = net.rank_plays(p, (6, 5))
    assert len(ranked) == len(p.legal_plays((6, 5)))
    eqs = [r.equity for r in ranked]
    assert eqs == sorted(eqs, reverse=True)
    assert ranked[0].equity == pytest.approx(equity(ranked[0].probabilities))
    # The engine's type (issue 34: one RankedPlay): the best play's difference is 0.
    assert isinstance(ranked[0], RankedPlay) and ranked[0].difference == 0.0 and ranked[-1].difference <= 0.0
    blocked = Position([0] * 24 + [2], [2, 2, 2, 2, 2, 2] + [0] * 19)
    assert net.rank_plays(blocked, (6, 6)) == []


def test_the_ensemble_command_writes_the_mean_net(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from gammon.training.ensemble import main

    paths = []
    for s in (1, 2):
        paths.append(tmp_path / f"m{s}.npz")
        Network.random(hidden=6, nets=2, seed=s).save(paths[-1])
    assert main(["--out", str(tmp_path / "e.npz"), *map(str, paths)]) == 0
    ens = Network.load(tmp_path / "e.npz")
    assert ens.hidden == 12 and len(ens.meta["members"]) == 2
    assert main(["--out", str(tmp_path / "x.npz"), str(tmp_path / "missing.npz")]) == 2
    assert "error:" in capsys.readouterr().err and not (tmp_path / "x.npz").exists()


def _contact_results() -> np.ndarray:
    """The 6-4 results from the opening, the opponent on roll (contact, some with blots)."""
    start = Position.initial()
    return np.stack([np.frombuffer(p.position.swap().board, dtype=np.uint8)
                     for p in start.legal_plays((6, 4))])


def test_a_net_made_before_the_extra_inputs_reads_them_with_zero_weights(tmp_path) -> None:  # type: ignore[no-untyped-def]
    old = Network.random(hidden=8, nets=2, seed=6, scale=0.4)
    w1 = old.w1[:, :BASE_INPUTS]
    np.savez(tmp_path / "old.npz", w1=w1, b1=old.b1, w2=old.w2, b2=old.b2)
    net = Network.load(tmp_path / "old.npz")
    assert net.w1.shape == (2, NUM_INPUTS, 8) and not net.w1[:, BASE_INPUTS:].any()
    assert np.array_equal(net.w1[:, :BASE_INPUTS], w1)
    assert not net.reads_extras().any()
    boards = _contact_results()
    x = encode_batch(boards)
    assert x[:, BASE_INPUTS:].any()  # the extras are there; the old net ignores them
    h = 1 / (1 + np.exp(-(x[:, :BASE_INPUTS].astype(np.float64) @ w1[0] + old.b1[0])))
    want = [_settled(y, True) for y in 1 / (1 + np.exp(-(h @ old.w2[0] + old.b2[0])))]
    np.testing.assert_allclose(NetEvaluator(net).evaluate_batch(boards), want, atol=2e-6)
    with pytest.raises(GammonError, match="inputs"):
        Network(old.w1[:, :200], old.b1, old.w2, old.b2)


def test_the_evaluator_gives_the_extra_inputs_to_the_nets_that_read_them() -> None:
    net = Network.random(hidden=8, nets=2, seed=7, scale=0.4)
    net.w1[1, OFF_EXTRAS:] = 0.0  # the race net does not read them, the contact net does
    assert net.reads_extras().tolist() == [True, False]
    boards = _contact_results()
    got = NetEvaluator(net).evaluate_batch(boards)
    # The sparse evaluator against the dense inputs, extras included.
    np.testing.assert_allclose(got, net.evaluate_boards(boards), atol=2e-6)
    x = encode_batch(boards)
    want = np.array([_settled(_dense(net, x[r], 0), True) for r in range(len(boards))])
    np.testing.assert_allclose(got, want, atol=2e-6)
    # Not a vacuous check: without its extra weights the contact net's values move.
    blind = net.copy()
    blind.w1[0, OFF_EXTRAS:] = 0.0
    assert not blind.reads_extras().any()
    assert np.abs(NetEvaluator(blind).evaluate_batch(boards) - got).max() > 1e-3
