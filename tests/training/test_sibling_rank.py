"""Sibling groups and the ranking term of the refinement fit (gammon.training.sibling_rank)."""

from __future__ import annotations

import numpy as np
import pytest

from gammon.ai.evaluator import default_network
from gammon.ai.network import Network
from gammon.core.errors import GammonError
from gammon.training.fitting import fit, split_holdout
from gammon.training.positions import collect_positions, sibling_positions
from gammon.training.refine_fit import main
from gammon.training.sibling_rank import (
    equities,
    group_residuals,
    ranking_figures,
    sibling_groups,
    split_by_groups,
)


@pytest.fixture(scope="module")
def siblings() -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Sibling rows of 30 self-play positions made as the datasets make them, one roll each,
    the rows' true group numbers, and the sizes of the groups."""
    net = default_network()
    base, _ = collect_positions(net, 30, seed=5)
    rng = np.random.default_rng(3)
    rows, truth, sizes = [], [], []
    for i, board in enumerate(base):
        part = sibling_positions(net, board[None, :], 5, 5, rng)
        rows.append(part)
        truth += [i] * len(part)
        sizes.append(len(part))
    return np.concatenate(rows), np.array(truth), sizes


def test_the_rows_of_one_roll_form_one_group(siblings: tuple[np.ndarray, np.ndarray, list[int]]) -> None:
    boards, truth, sizes = siblings
    groups = sibling_groups(boards)
    # each true group is one found group, and a found group never splits a true one
    for g in np.unique(truth):
        assert len(np.unique(groups[truth == g])) == 1
    found = [int(c) for c in np.bincount(groups) if c]
    assert sum(found) == len(boards) and len(found) >= len([s for s in sizes if s]) - 2


def test_siblings_that_hit_stay_in_their_group(siblings: tuple[np.ndarray, np.ndarray, list[int]]) -> None:
    boards, truth, _ = siblings
    groups = sibling_groups(boards)
    # the side on roll after the play has a checker on the bar in some siblings only
    hit_groups = [g for g in np.unique(truth) if len(set(boards[truth == g, 24].tolist())) > 1]
    assert hit_groups, "the sample should hold a roll with hitting and quiet plays"
    for g in hit_groups:
        assert len(np.unique(groups[truth == g])) == 1


def test_a_new_position_starts_a_new_group() -> None:
    a = np.zeros(50, dtype=np.uint8)
    a[[5, 12, 23]] = [5, 5, 5]
    a[[25 + 5, 25 + 12, 25 + 23]] = [5, 5, 5]
    b = a.copy()
    b[25 + 5], b[25 + 4] = 4, 1  # the mover's pips differ: another roll
    c = a.copy()
    c[5], c[4] = 4, 1  # the side on roll moved: another position
    d = a.copy()
    d[23], d[24] = 4, 1  # a checker of the side on roll from a point of five to the bar: not a hit blot
    assert sibling_groups(np.array([a, a])).tolist() == [0, 0]
    assert sibling_groups(np.array([a, b, c, d])).tolist() == [0, 1, 2, 3]
    hit = a.copy()
    hit[23], hit[24] = 5, 0
    hit[4] = 1  # a blot of the side on roll
    hit_blot = hit.copy()
    hit_blot[4], hit_blot[24] = 0, 1  # the same roll hitting it
    assert sibling_groups(np.array([hit, hit_blot])).tolist() == [0, 0]
    assert len(sibling_groups(np.zeros((0, 50), dtype=np.uint8))) == 0


def test_residuals_are_errors_measured_from_the_group_mean() -> None:
    e = np.array([0.1, 0.3, 0.0, 0.5])
    t = np.array([0.2, 0.2, 0.9, 0.1])
    r = group_residuals(e, t, np.array([7, 7, 8, 9]))
    # group 7: errors -0.1 and +0.1, mean 0; group 8 and 9 stand alone
    np.testing.assert_allclose(r, [-0.1, 0.1, 0.0, 0.0], atol=1e-12)
    # a shift of every equity in a group changes nothing: only the order and gaps count
    np.testing.assert_allclose(group_residuals(e + 0.4, t, np.array([7, 7, 8, 9])), r, atol=1e-12)


def test_the_ranking_figures_follow_the_movers_choice() -> None:
    def probs(eq: list[float]) -> np.ndarray:
        # win chances with no gammons: equity = 2 w - 1
        return np.array([[(v + 1) / 2, 0, 0, 0, 0] for v in eq])

    groups = np.array([0, 0, 0, 1, 1, 2])
    net = probs([0.1, -0.2, 0.0, 0.3, 0.2, 0.0])
    target = probs([0.1, -0.1, -0.3, 0.4, 0.5, 0.0])
    np.testing.assert_allclose(equities(target), [0.1, -0.1, -0.3, 0.4, 0.5, 0.0], atol=1e-12)
    n, agree, regret = ranking_figures(net, target, groups)
    # the mover leaves the lowest equity to the side on roll. Group 0: the net picks row 1
    # (-0.2), the target's best is row 2 (-0.3), and row 1 is worth -0.1: regret 0.2. Group 1:
    # the net picks row 4 (0.2, worth 0.5), the target's best is row 3 (0.4): regret 0.1.
    # Group 2 has one row and does not count.
    assert n == 2 and agree == 0.0
    assert regret == pytest.approx((0.2 + 0.1) / 2)
    n, agree, regret = ranking_figures(target, target, groups)
    assert (n, agree, regret) == (2, 1.0, 0.0)


def test_whole_groups_are_held_out_the_same_way_for_a_seed() -> None:
    groups = np.repeat(np.arange(50), 4)
    tr, ho = split_by_groups(groups, 0.2, seed=3)
    assert len(ho) == 40 and len(tr) == 160 and not set(groups[tr]) & set(groups[ho])
    assert np.array_equal(split_by_groups(groups, 0.2, seed=3)[1], ho)
    with pytest.raises(GammonError):
        split_by_groups(groups, 1.0, seed=3)


def _data(siblings: tuple[np.ndarray, np.ndarray, list[int]]) -> tuple[Network, np.ndarray, np.ndarray,
                                                                       np.ndarray, np.ndarray]:
    boards, _, _ = siblings
    teacher = default_network()
    targets = teacher.evaluate_boards(boards).astype(np.float32)
    student = Network.random(hidden=8, nets=2, seed=4)
    x, k, _, _ = split_holdout(student, boards, targets, 0.1, seed=1)
    return student, x, targets, k, sibling_groups(boards)


def _rank_error(net: Network, boards: np.ndarray, targets: np.ndarray, groups: np.ndarray) -> float:
    r = group_residuals(equities(net.evaluate_boards(boards)), equities(targets), groups)
    return float(np.mean(r * r))


Siblings = tuple[np.ndarray, np.ndarray, list[int]]


def test_the_ranking_term_fits_the_differences_better(siblings: Siblings) -> None:
    boards = siblings[0]
    student, x, t, k, groups = _data(siblings)
    kw = {"epochs": 30, "lr": 3e-3, "batch": 20, "seed": 2}
    plain, _ = fit(student, x, t, k, **kw)
    ranked, _ = fit(student, x, t, k, groups=groups, rank_weight=20.0, **kw)
    assert _rank_error(ranked, boards, t, groups) < 0.8 * _rank_error(plain, boards, t, groups)


def test_a_zero_weight_fits_exactly_as_before(siblings: tuple[np.ndarray, np.ndarray, list[int]]) -> None:
    student, x, t, k, groups = _data(siblings)
    kw = {"epochs": 2, "lr": 1e-3, "batch": 16, "seed": 2}
    a, _ = fit(student, x, t, k, **kw)
    b, _ = fit(student, x, t, k, groups=groups, rank_weight=0.0, **kw)
    assert np.array_equal(a.w1, b.w1) and np.array_equal(a.w2, b.w2)
    with pytest.raises(GammonError):
        fit(student, x, t, k, groups=None, rank_weight=1.0, **kw)
    with pytest.raises(GammonError):
        fit(student, x, t, k, groups=groups[:-1], rank_weight=1.0, **kw)


def test_the_command_line_reports_the_held_out_ranking(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    net = default_network()
    base = tmp_path / "base.npz"
    net.save(base)
    boards = sibling_positions(net, collect_positions(net, 20, seed=8)[0], 5, 100,
                               np.random.default_rng(1))
    targets = net.evaluate_boards(boards).astype(np.float32)
    data = tmp_path / "d.npz"
    np.savez_compressed(data, boards=boards, targets=targets, done=np.array(len(boards)),
                        key=np.array('{"plies": 2, "siblings": 5}'))
    out = tmp_path / "fit"
    assert main(["--base", str(base), "--data", str(data), "--out", str(out), "--epochs", "1",
                 "--batch", "16", "--holdout", "0.3", "--rank-weight", "5"]) == 0
    text = capsys.readouterr().out
    # targets are the base net's own values: it already picks every group's best
    assert "the base net picks the target's best in 1.000, mean regret 0.00000" in text
    assert "the refined net picks the target's best in" in text
    assert main(["--base", str(base), "--data", str(data), "--out", str(out), "--rank-weight", "-1"]) == 2
    assert capsys.readouterr().err.startswith("error: --rank-weight")


def test_a_ranked_fit_keeps_the_epoch_best_by_both_terms(siblings: Siblings) -> None:
    from gammon.training.fitting import dataset_loss, ranked_loss

    boards = siblings[0]
    student, x, t, k, groups = _data(siblings)
    n = len(x) // 2
    hold = (x[n:], t[n:], k[n:])
    # the cross-entropy alone is the ranked loss with no weight
    assert ranked_loss(student, *hold, groups[n:], 0.0) == pytest.approx(dataset_loss(student, *hold))
    kw = {"epochs": 6, "lr": 3e-3, "batch": 20, "seed": 2, "holdout": hold}
    ranked, best = fit(student, x[:n], t[:n], k[:n], groups=groups[:n], rank_weight=20.0,
                       holdout_groups=groups[n:], **kw)
    assert best > 0  # the epochs improve the ranked held-out loss, so one of them is kept
    assert ranked_loss(ranked, *hold, groups[n:], 20.0) < ranked_loss(student, *hold, groups[n:], 20.0)
    assert len(boards) == len(x)
