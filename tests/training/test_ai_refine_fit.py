"""Training on refinement datasets made before (several at once, partial ones included)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from gammon.ai.evaluator import default_network
from gammon.ai.network import Network, net_indices
from gammon.core.errors import GammonError
from gammon.training.refine import DATASET_FILE, Settings, refine
from gammon.training.refine_fit import load_datasets, main


@pytest.fixture(scope="module")
def datasets(tmp_path_factory) -> list[str]:  # type: ignore[no-untyped-def]
    root = tmp_path_factory.mktemp("sets")
    net = default_network()
    paths = []
    for seed in (1, 2):
        refine(Settings(positions=40, plies=1, epochs=1, batch=8, seed=seed, shard=20),
               root / str(seed), base=net)
        paths.append(str(root / str(seed) / DATASET_FILE))
    return paths


def test_datasets_are_joined_with_their_records(datasets: list[str]) -> None:
    boards, targets, records = load_datasets(datasets)
    assert boards.shape == (80, 50) and targets.shape == (80, 5)
    assert [r["positions"] for r in records] == [40, 40]
    assert [r["key"]["seed"] for r in records] == [1, 2]
    with np.load(datasets[1]) as z:
        assert np.array_equal(boards[40:], z["boards"])


def test_only_the_valued_rows_of_a_partial_dataset_count(datasets: list[str], tmp_path) -> None:  # type: ignore[no-untyped-def]
    with np.load(datasets[0]) as z:
        parts = {n: z[n] for n in z.files}
    parts["done"] = np.array(20)
    np.savez_compressed(tmp_path / "part.npz", **parts)
    boards, _, records = load_datasets([str(tmp_path / "part.npz")])
    assert len(boards) == 20 and records[0]["positions"] == 20


def test_command_line_trains_and_saves(datasets: list[str], tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    base = tmp_path / "base.npz"
    default_network().save(base)
    out = tmp_path / "fit"
    assert main(["--base", str(base), "--data", *datasets, "--out", str(out), "--epochs", "2",
                 "--lr", "1e-3", "--batch", "16", "--holdout", "0.25"]) == 0
    text = capsys.readouterr().out
    assert "80 positions" in text and "held-out loss" in text
    meta = json.loads((out / "meta.json").read_text())
    assert meta["positions"] == 80 and meta["target_plies"] == [1] and meta["epochs"] == 2
    assert meta["heldout_loss_after"] <= meta["heldout_loss_before"]
    trained = Network.load(out / "weights.npz")
    assert trained.meta["datasets"][0]["key"]["seed"] == 1
    assert trained.w1.shape == default_network().w1.shape


def test_bad_input_gives_one_error_line(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    base = tmp_path / "base.npz"
    default_network().save(base)
    np.savez(tmp_path / "other.npz", x=np.zeros(3))
    for data in (str(tmp_path / "missing.npz"), str(tmp_path / "other.npz")):
        assert main(["--base", str(base), "--data", data, "--out", str(tmp_path / "o")]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and err.count("\n") == 1
    with pytest.raises(GammonError):
        load_datasets([])


def test_a_corrupt_file_is_a_clear_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(GammonError, match="not a refinement dataset"):
        load_datasets([str(bad)])


def test_a_widened_net_is_trained_from_the_same_outputs(datasets: list[str], tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    base = tmp_path / "base.npz"
    default_network().save(base)
    out = tmp_path / "wide"
    wide = default_network().hidden + 32
    assert main(["--base", str(base), "--data", *datasets, "--out", str(out), "--epochs", "3",
                 "--lr", "1e-3", "--lr-end", "1e-4", "--batch", "16", "--holdout", "0.25",
                 "--hidden", str(wide)]) == 0
    lines = capsys.readouterr().out.splitlines()
    # The widened net starts from the base net's held-out loss (same function) ...
    meta = json.loads((out / "meta.json").read_text())
    assert meta["hidden"] == wide and meta["base_hidden"] == default_network().hidden
    assert f"held-out loss {meta['heldout_loss_before']:.5f}" in lines[1]
    # ... and the step size falls from --lr to --lr-end over the epochs.
    rates = [float(line.split("lr ")[1].split()[0]) for line in lines if line.startswith("epoch")]
    assert rates == pytest.approx([1e-3, 3.162e-4, 1e-4], rel=1e-3)
    assert Network.load(out / "weights.npz").hidden == wide


def test_rollout_datasets_train_beside_search_datasets(datasets: list[str], tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """A lopsided-position dataset (rollout targets, no search depth) joins a search dataset;
    the metadata records each kind of target."""
    from gammon.training.lopsided import Settings as LopsidedSettings
    from gammon.training.lopsided import run

    base = tmp_path / "base.npz"
    default_network().save(base)
    run(LopsidedSettings(base=str(base), positions=12, trials=4, epochs=0, source="late-hit"),
        tmp_path / "lh", lambda _line: None)
    out = tmp_path / "fit"
    assert main(["--base", str(base), "--data", datasets[0], str(tmp_path / "lh" / "dataset.npz"),
                 "--out", str(out), "--epochs", "1", "--batch", "16", "--holdout", "0.25"]) == 0
    meta = json.loads((out / "meta.json").read_text())
    assert meta["positions"] == 52 and meta["target_plies"] == [1] and meta["rollout_trials"] == [4]
    assert meta["variant"] == "standard"
    assert meta["kind"] == "supervised refinement on own search targets and rollouts"


def test_a_crashed_net_is_trained_on_the_crashed_rows_alone(datasets: list[str], tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    net = default_network()
    # 1-ply targets: the copy of the contact net does not already give them (it gives 0-ply ones)
    refine(Settings(positions=60, plies=1, epochs=1, batch=8, seed=6, shard=30, siblings=3, keep=1.0,
                    crashed_only=True), tmp_path / "crashed", base=net)
    crashed = str(tmp_path / "crashed" / DATASET_FILE)
    boards, _, _ = load_datasets([crashed, *datasets])
    n_crashed = int((net_indices(boards, 3) == 2).sum())
    assert 0 < n_crashed < len(boards)
    base = tmp_path / "base.npz"
    net.save(base)
    out = tmp_path / "fit"
    assert main(["--base", str(base), "--add-crashed-net", "--only-crashed", "--data", crashed, *datasets,
                 "--out", str(out), "--epochs", "3", "--lr", "1e-3", "--batch", "8", "--holdout", "0.2"]) == 0
    assert f"{n_crashed} positions (0 contact, 0 race, {n_crashed} crashed)" in capsys.readouterr().out
    trained = Network.load(out / "weights.npz")
    # three nets: the contact and race nets untouched (no row of theirs), the third moved from
    # its start, a copy of the contact net
    assert trained.nets == 3
    assert np.array_equal(trained.w1[:2], net.w1) and np.array_equal(trained.w2[:2], net.w2)
    assert not np.array_equal(trained.w1[2], net.w1[0])
    assert json.loads((out / "meta.json").read_text())["positions"] == n_crashed
    # no crashed row at all, or a third net on a net that has one: one clear error line
    with np.load(datasets[0]) as z:
        parts = {n: z[n] for n in z.files}
    plain = net_indices(parts["boards"], 3) != 2
    parts.update(boards=parts["boards"][plain], targets=parts["targets"][plain], done=np.array(plain.sum()))
    np.savez_compressed(tmp_path / "plain.npz", **parts)
    assert main(["--base", str(base), "--only-crashed", "--data", str(tmp_path / "plain.npz"),
                 "--out", str(tmp_path / "x")]) == 2
    assert "no crashed positions" in capsys.readouterr().err
    assert main(["--base", str(out / "weights.npz"), "--add-crashed-net", "--data", crashed,
                 "--out", str(tmp_path / "y")]) == 2
    assert "not to 3 nets" in capsys.readouterr().err
