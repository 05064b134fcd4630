"""Lopsided positions: the detector, the rules gammon chances obey, and the refinement run."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from gammon.ai.engine import Engine
from gammon.ai.network import Network
from gammon.core.position import Position
from gammon.training.lopsided import Settings, gammon_bias, is_lopsided, run


def _row(**points: int) -> list[int]:
    """A side's 25 counts: p1..p24 and bar."""
    r = [0] * 25
    for k, v in points.items():
        r[24 if k == "bar" else int(k[1:]) - 1] = v
    return r


CRUSHED = Position(  # on the bar against a five-point board, with the rest far behind
    _row(bar=1, p24=1, p13=5, p8=3, p6=3, p5=2),
    _row(p6=3, p5=3, p4=2, p3=2, p2=2, p13=3),
)


def test_the_detector_follows_its_definition() -> None:
    assert is_lopsided(CRUSHED.board)
    assert is_lopsided(CRUSHED.swap().board)  # either side may be the crushed one
    assert not is_lopsided(Position.initial().board)
    race = Position(_row(p6=5, p5=5, p4=5), _row(p6=5, p5=5, p3=5))
    assert not is_lopsided(race.board)


def test_gammon_chances_obey_the_board() -> None:
    """A side that has borne off a checker cannot lose a gammon; no checker back, no backgammon."""
    engine = Engine("expert")
    rng = np.random.default_rng(2)
    checked = 0
    for _ in range(10):
        pos = Position.initial()
        for _ply in range(300):
            p = engine.evaluate(pos).probabilities
            me_left = sum(pos.board[:25])
            opp_left = sum(pos.board[25:])
            if opp_left < 15:
                assert p[1] == 0.0 and p[2] == 0.0
                checked += 1
            if me_left < 15:
                assert p[3] == 0.0 and p[4] == 0.0
            if not any(pos.board[25 + 18:50]):
                assert p[2] == 0.0
            if not any(pos.board[18:25]):
                assert p[4] == 0.0
            assert p[1] <= p[0] and p[2] <= p[1] and p[3] <= 1 - p[0] + 1e-7 and p[4] <= p[3]
            d = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
            ranked = engine.rank_plays(pos, d)
            if ranked:
                pos = ranked[0].play.position
                if pos.outcome is not None:
                    break
            pos = pos.swap()
    assert checked > 0


def test_the_refinement_run_makes_weights_and_resumes(tmp_path: Path) -> None:
    base = tmp_path / "base.npz"
    Engine("expert").network.save(base)
    s = Settings(base=str(base), positions=12, trials=4, epochs=1, holdout=0.25)
    lines: list[str] = []
    net = run(s, tmp_path / "run", lines.append)
    assert isinstance(net, Network)
    assert (tmp_path / "run" / "weights.npz").exists() and (tmp_path / "run" / "meta.json").exists()
    assert any(line.startswith("held-out bias after") for line in lines)
    again: list[str] = []
    run(s, tmp_path / "run", again.append)
    assert "from" in again[0] and "(12 rolled out)" in again[0]


def test_bias_is_zero_against_the_evaluator_itself() -> None:
    engine = Engine("expert")
    boards = np.frombuffer(CRUSHED.board + Position.initial().board, dtype=np.uint8).reshape(2, 50)
    ys = engine.static_evaluator.evaluate_batch(boards.copy())
    b = gammon_bias(engine.static_evaluator, boards.copy(), ys)
    assert max(abs(v) for v in b.mean) < 1e-9 and b.positions == 2


def test_a_larger_saved_dataset_serves_a_smaller_run(tmp_path: Path) -> None:
    from gammon.training.lopsided import _load, save_dataset

    key = {"base": "b", "positions": 10, "trials": 4, "seed": 1}
    boards = np.arange(500, dtype=np.uint8).reshape(10, 50)
    targets = np.ones((10, 5), dtype=np.float32)
    save_dataset(tmp_path / "d.npz", key, boards, targets, 7)
    got = _load(tmp_path / "d.npz", {**key, "positions": 4})
    assert got is not None and got[0].shape == (4, 50) and got[2] == 4
    assert _load(tmp_path / "d.npz", {**key, "positions": 12}) is None
    assert _load(tmp_path / "d.npz", {**key, "positions": 4, "trials": 8}) is None


def test_constructed_positions_are_legal_and_lopsided() -> None:
    from gammon.training.lopsided import constructed_positions

    boards = constructed_positions(40, seed=3)
    for b in boards:
        me, opp = list(b[:25]), list(b[25:])
        Position(me, opp)  # legal (raises otherwise)
        assert sum(me) == 15 and sum(opp) == 15
        assert is_lopsided(b)


def test_late_hits_are_built_as_their_definition_says() -> None:
    """The side on roll is on the bar with checkers borne off and the rest at home; the
    opponent holds at least three home points, and the position is a legal one."""
    import random

    from gammon.training.lopsided import construct_late_hit

    rng = random.Random(5)
    for _ in range(200):
        pos = construct_late_hit(rng)
        me, opp = pos.board[:25], pos.board[25:]
        assert me[24] in (1, 2)
        assert 15 - sum(me) >= 2  # checkers borne off
        assert sum(me[6:24]) == 0  # everything else in the home board
        assert sum(opp) == 15 and sum(1 for i in range(6) if opp[i] >= 2) >= 3
        assert is_lopsided(pos.board) or sum(1 for i in range(6) if opp[i] >= 2) == 3


def test_late_hit_positions_are_contact_positions_from_either_side() -> None:
    from gammon.ai.encoding import is_contact
    from gammon.training.lopsided import late_hit_positions

    net = Engine("expert").network
    boards = late_hit_positions(net, 60, seed=4)
    assert boards.shape == (60, 50)
    assert np.array_equal(boards, late_hit_positions(net, 60, seed=4))  # seeded
    on_bar = [bool(b[24]) for b in boards]
    assert any(on_bar) and not all(on_bar)  # some seen from the hitter's side
    for b in boards:
        pos = Position(list(b[:25]), list(b[25:]))
        assert not pos.is_game_over and is_contact(b)


def test_the_cube_window_is_the_money_equity_of_the_player_on_roll() -> None:
    """In the window: a cubeless equity from a marginal double (0.30) to past the pass point
    (1.30); equity = 2 * wins - 1 + gammons won - gammons lost (+ backgammons alike)."""
    from gammon.training.lopsided import in_cube_window

    rows = np.array([
        [0.70, 0.20, 0.00, 0.05, 0.00],  # 0.40 + 0.20 - 0.05 = 0.55: in
        [0.50, 0.10, 0.00, 0.10, 0.00],  # 0.00: even, out
        [0.62, 0.00, 0.00, 0.00, 0.00],  # 0.24: too early, out
        [0.95, 0.60, 0.10, 0.00, 0.00],  # 0.90 + 0.60 + 0.10 = 1.60: far past, out
        [0.20, 0.00, 0.00, 0.60, 0.10],  # -1.30: the other side's window, out
    ])
    assert in_cube_window(rows).tolist() == [True, False, False, False, False]


def test_cube_window_positions_are_contact_self_play_positions_in_the_window() -> None:
    from gammon.ai.encoding import is_contact
    from gammon.training.lopsided import CUBE_WINDOW, cube_window_positions

    engine = Engine("expert")
    boards = cube_window_positions(engine.network, 40, seed=3)
    assert boards.shape == (40, 50)
    assert np.array_equal(boards, cube_window_positions(engine.network, 40, seed=3))  # seeded
    assert len({bytes(b) for b in boards}) > 30
    for b in boards:
        pos = Position(list(b[:25]), list(b[25:]))
        assert not pos.is_game_over and is_contact(b)
        e = engine.evaluate(pos, plies=0, cube=False).equity
        assert CUBE_WINDOW[0] - 1e-6 <= e <= CUBE_WINDOW[1] + 1e-6


def test_contact_siblings_are_seeded_contact_positions_and_a_larger_run_extends_a_smaller() -> None:
    from gammon.ai.encoding import is_contact
    from gammon.training.lopsided import contact_sibling_positions

    net = Engine("expert").network
    boards = contact_sibling_positions(net, 40, seed=6, batch=50)
    assert boards.shape == (40, 50)
    assert np.array_equal(boards[:25], contact_sibling_positions(net, 25, seed=6, batch=50))
    assert not np.array_equal(boards, contact_sibling_positions(net, 40, seed=7, batch=50))
    for b in boards:
        pos = Position(list(b[:25]), list(b[25:]))  # legal (raises otherwise)
        assert not pos.is_game_over and is_contact(b)


def test_race_siblings_are_races_the_race_net_values() -> None:
    """Every race sibling has no contact left and a side outside the bear-off tables (the
    tables value the rest exactly, so a net learns nothing there); seeded like the contact ones."""
    from gammon.ai.encoding import is_contact
    from gammon.ai.evaluator import valued_by_tables
    from gammon.ai.network import net_index
    from gammon.training.lopsided import race_sibling_positions

    engine = Engine("expert")
    net = engine.network
    model = engine.static_evaluator.kernel_model()
    boards = race_sibling_positions(net, 12, seed=6, batch=400)
    assert boards.shape == (12, 50)
    assert np.array_equal(boards[:5], race_sibling_positions(net, 5, seed=6, batch=400))
    for b in boards:
        pos = Position(list(b[:25]), list(b[25:]))  # legal (raises otherwise)
        assert not pos.is_game_over and not is_contact(b)
        assert not valued_by_tables(b, 15, model) and net_index(b, net.nets) == 1
        # a side still has a checker outside its home board (points 7 to 24)
        assert b[6:24].sum() + b[31:49].sum() > 0


def test_truncated_variance_reduced_targets_are_the_rollouts_own_numbers() -> None:
    from gammon.ai.rollout import RolloutSettings, rollout
    from gammon.training.lopsided import rollout_targets

    ev = Engine("expert").static_evaluator
    boards = np.frombuffer(CRUSHED.board + Position.initial().board, dtype=np.uint8).reshape(2, 50)
    got = rollout_targets(ev, boards.copy(), 8, seed=3, truncate=2, variance_reduction=True)
    for i, pos in enumerate((CRUSHED, Position.initial())):
        r = rollout(pos, ev, RolloutSettings(trials=8, seed=3 + i, truncate_at=2,
                                             variance_reduction=True))
        assert np.allclose(got[i], np.clip(r.probs, 0.0, 1.0), atol=1e-6)
        assert r.mean_plies <= 2
    assert got.min() >= 0.0 and got.max() <= 1.0


def test_a_truncated_run_keeps_its_own_dataset_and_resumes(tmp_path: Path) -> None:
    """The truncation and variance reduction are part of the dataset's key: a run without
    them does not take the truncated targets for its own, a run with them resumes."""
    import dataclasses
    import json

    base = tmp_path / "base.npz"
    Engine("expert").network.save(base)
    s = Settings(base=str(base), positions=6, trials=4, epochs=1, holdout=0.34,
                 source="constructed", truncate=2, variance_reduction=True)
    run(s, tmp_path / "run", [].append)
    with np.load(tmp_path / "run" / "dataset.npz") as z:
        key = json.loads(str(z["key"]))
    assert key["truncate"] == 2 and key["vr"] is True
    again: list[str] = []
    run(s, tmp_path / "run", again.append)
    assert "(6 rolled out)" in again[0]
    full: list[str] = []
    run(dataclasses.replace(s, truncate=None, variance_reduction=False), tmp_path / "run",
        full.append)
    assert full[0].startswith("positions: 6 (constructed)")  # made again, not reused


def test_a_truncation_below_one_ply_is_refused(tmp_path: Path) -> None:
    import pytest

    from gammon.core.errors import GammonError

    with pytest.raises(GammonError, match="truncate"):
        run(Settings(truncate=0), tmp_path / "run", [].append)
