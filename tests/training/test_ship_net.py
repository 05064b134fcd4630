"""``training/ship_net.py`` ships the standard net's weights as they are and describes them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from benchmark_modules import load_benchmark
from gammon.ai.evaluator import default_network
from paths import ROOT

TRAINING = ROOT / "training"


@pytest.fixture(scope="module")
def ship():  # type: ignore[no-untyped-def]
    return load_benchmark("ship_net", folder=TRAINING)


def test_the_standard_net_ships_byte_for_byte_with_its_description(ship, tmp_path) -> None:  # type: ignore[no-untyped-def]
    run = tmp_path / "runs" / "R1"
    run.mkdir(parents=True)
    net = default_network()
    net.meta = {"variant": "standard", "kind": "a refinement", "games": 123, "date": "2026-12-03",
                "settings": {"epochs": 4}, "command": "python -m gammon.training.refine_fit ...",
                "heldout_loss_before": 0.3, "heldout_loss_after": 0.2, "heldout_target_entropy": 0.1}
    net.save(run / "weights.npz")
    out = tmp_path / "data"
    out.mkdir()
    assert ship.main([str(run), "--to", str(out), "--round", "R1: the one round"]) == 0
    assert (out / "weights.npz").read_bytes() == (run / "weights.npz").read_bytes()
    meta = json.loads((out / "weights.json").read_text())
    assert meta["kind"] == "a refinement" and meta["variant"] == "standard" and meta["refined"]
    assert meta["hidden"] == net.w1.shape[2] and meta["games"] == 123
    assert meta["rounds"] == ["R1: the one round"]
    assert meta["heldout_loss"] == {"before": 0.3, "after": 0.2, "target_entropy": 0.1}
    assert not (out / "weights-nackgammon.npz").exists()  # the variants' nets are left alone
    from gammon.ai.network import Network

    shipped = Network.load(out / "weights.npz")
    assert np.array_equal(shipped.w1, net.w1)


def _ship_second_net(ship, tmp_path, flag: str, stem: str, kind: str):  # type: ignore[no-untyped-def]
    """Ship a standard net with ``flag``: it must land as ``stem``.npz byte for byte, alone in the
    data folder, and a variant's net must be refused with that flag.  The description is returned."""
    run = tmp_path / "runs" / "R"
    run.mkdir(parents=True)
    net = default_network()
    net.meta = {"variant": "standard", "kind": kind, "games": 5}
    net.save(run / "weights.npz")
    out = tmp_path / "data"
    out.mkdir()
    assert ship.main([str(run), "--to", str(out), flag]) == 0
    assert (out / f"{stem}.npz").read_bytes() == (run / "weights.npz").read_bytes()
    # The standard net (weights.npz) and every other net are left alone.
    assert sorted(f.name for f in out.iterdir()) == [f"{stem}.json", f"{stem}.npz"]
    meta = json.loads((out / f"{stem}.json").read_text())
    assert meta["kind"] == kind
    # Only a standard net can be the standard game's second or third net; one flag a call.
    other = "--cube" if flag == "--zero-ply" else "--zero-ply"
    with pytest.raises(SystemExit, match="two different nets"):
        ship.main([str(run), "--to", str(out), flag, other])
    net.meta = {"variant": "nackgammon", "games": 5}
    net.save(run / "weights.npz")
    with pytest.raises(SystemExit, match=f"{flag} ships a standard net"):
        ship.main([str(run), "--to", str(out), flag])
    return meta


def test_the_zero_ply_net_ships_beside_the_standard_net_and_leaves_it(ship, tmp_path) -> None:  # type: ignore[no-untyped-def]
    meta = _ship_second_net(ship, tmp_path, "--zero-ply", "weights-standard-0ply", "refined on 2-ply values")
    assert "every depth" in meta["plays"] and "rollouts keep weights.npz" in meta["plays"]


def test_the_cube_net_ships_beside_the_nets_that_play_and_leaves_them(ship, tmp_path) -> None:  # type: ignore[no-untyped-def]
    meta = _ship_second_net(ship, tmp_path, "--cube", "weights-standard-cube", "refined on closeouts")
    assert "cube" in meta["plays"] and "checker play keeps" in meta["plays"]


def test_a_variants_net_names_the_run_it_came_from(ship, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # A nested run (a fit inside a round's folder) is named by its whole path, not by its
    # last folder under training/.
    run = tmp_path / "rounds" / "nack5" / "W10"
    run.mkdir(parents=True)
    net = default_network()
    net.meta = {"variant": "nackgammon", "kind": "a refinement", "games": 7, "date": "2026-12-05",
                "base": "src/gammon/ai/data/weights.npz", "settings": {"epochs": 16}}
    net.save(run / "weights.npz")
    out = tmp_path / "data"
    out.mkdir()
    assert ship.main([str(run), "--to", str(out), "--result", "RESULT: +0.02"]) == 0
    meta = json.loads((out / "weights-nackgammon.json").read_text())
    assert meta["source"] == str(run / "weights.npz")
    assert meta["variant"] == "nackgammon" and meta["benchmark"] == "RESULT: +0.02"
    assert meta["init"] == "refined from src/gammon/ai/data/weights.npz"
    assert not (out / "weights.npz").exists()  # the standard net is left alone


def test_a_run_without_a_net_is_refused(ship, tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit, match="holds no checkpoint.npz or weights.npz"):
        ship.main([str(tmp_path), "--to", str(tmp_path)])


def test_the_description_points_to_the_readme_that_says_how_the_net_was_made(ship, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # A fit nested in a round's folder: the round's README, not a README that is not there.
    (tmp_path / "round").mkdir()
    (tmp_path / "round" / "README.md").write_text("how\n")
    run = tmp_path / "round" / "F1"
    run.mkdir()
    net = default_network()
    net.meta = {"variant": "standard", "kind": "k", "games": 1}
    net.save(run / "weights.npz")
    out = tmp_path / "data"
    out.mkdir()
    assert ship.main([str(run), "--to", str(out)]) == 0
    path = json.loads((out / "weights.json").read_text())["path"]
    assert path == f"{run / 'weights.npz'} ({tmp_path / 'round' / 'README.md'}: how it was made)"


def test_the_shipped_nets_description_names_a_readme_in_the_repository() -> None:
    meta = json.loads((ROOT / "src" / "gammon" / "ai" / "data" / "weights.json").read_text())
    readme = meta["path"].split("(", 1)[1].split(":", 1)[0].split(",", 1)[0]
    assert (ROOT / readme).is_file(), readme
