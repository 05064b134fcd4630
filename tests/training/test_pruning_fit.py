"""``gammon train pruning``: the pruning net is fitted on the training's own self-play loop.

Issue 34: the fitting code left the runtime package (``gammon.ai.pruning`` keeps only what
the search reads), its decisions come from the one compiled self-play loop, and its command
has no default path inside the repository and replaces no file without ``--force``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gammon.ai.evaluator import default_evaluator
from gammon.ai.probabilities import equities
from gammon.ai.pruning import PRUNE_INPUTS, load_pruning
from gammon.core.position import Position
from gammon.core.variants import STANDARD
from gammon.training import pruning_fit
from gammon.training.pruning_fit import main, sample_results


def test_the_runtime_module_keeps_no_fitting_code() -> None:
    import gammon.ai.pruning as runtime

    for name in ("sample_results", "fit", "top_recall", "main"):
        assert not hasattr(runtime, name), name


def test_each_decision_is_every_legal_result_of_one_roll_valued_for_its_mover() -> None:
    ev = default_evaluator()
    boards, values, groups = sample_results(ev, 12, seed=5, batch=40)
    assert sorted(set(groups.tolist())) == list(range(12))
    for gid in (0, 7, 11):
        rows = np.flatnonzero(groups == gid)
        assert len(rows) >= 2  # a roll with one result asks nothing of the net
        results = {bytes(boards[r]) for r in rows}
        assert len(results) == len(rows)  # distinct results
        # The mover's equity of a result is minus the equity of the opponent on roll there.
        swapped = [Position._make(bytes(boards[r]), STANDARD).swap() for r in rows]
        want = -equities(ev.evaluate_batch(swapped))
        np.testing.assert_allclose(values[rows], want, rtol=0, atol=1e-6)
        # All of them come from one position and one roll: each has the mover's 15 checkers.
        for r in rows:
            assert int(boards[r][:25].sum()) <= 15 and int(boards[r][25:].sum()) <= 15


def test_the_same_seed_samples_the_same_decisions() -> None:
    ev = default_evaluator()
    a = sample_results(ev, 5, seed=9, batch=30)
    b = sample_results(ev, 5, seed=9, batch=30)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


def test_a_small_run_writes_a_net_the_search_can_load(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "pruning.npz"
    assert main(["--out", str(out), "--decisions", "40", "--held-out", "20", "--epochs", "2",
                 "--hidden", "4"]) == 0
    pw = load_pruning(out)
    assert pw.shape == (PRUNE_INPUTS + 3, 4)
    with np.load(out) as data:
        meta = json.loads(str(data["meta"]))
    assert meta["command"] == "gammon train pruning"
    recall = meta["held_out_recall"]
    assert 0.0 <= recall["1"] <= recall["3"] <= recall["5"] <= recall["8"] <= 1.0
    assert "sampled 40 decisions" in capsys.readouterr().out  # no silent wait


@pytest.mark.parametrize(("args", "said"), [
    (["--decisions", "0"], "--decisions must be from 2"),
    (["--hidden", "0"], "--hidden must be from 1"),
])
def test_bad_settings_are_refused_before_any_work(tmp_path: Path, args: list[str], said: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "p.npz"
    assert main(["--out", str(out), *args]) == 2
    assert said in capsys.readouterr().err
    assert not out.exists()


def test_an_existing_file_is_replaced_only_with_force(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "match.npz"
    out.write_bytes(b"someone's file")
    assert main(["--out", str(out), "--decisions", "4", "--held-out", "2", "--epochs", "1"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert out.read_bytes() == b"someone's file"
    assert main(["--out", str(out), "--decisions", "4", "--held-out", "2", "--epochs", "1", "--force",
                 "--hidden", "2"]) == 0
    assert load_pruning(out).shape == (PRUNE_INPUTS + 3, 2)


def test_out_must_name_an_npz_file_in_a_folder_that_exists(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--out", str(tmp_path / "p.txt")]) == 2
    assert "written as .npz" in capsys.readouterr().err
    assert main(["--out", str(tmp_path / "missing" / "p.npz")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["--out", str(tmp_path)]) == 2  # a folder


def test_out_has_no_default() -> None:
    with pytest.raises(SystemExit):
        main([])
    assert pruning_fit._parser().get_default("out") is None
