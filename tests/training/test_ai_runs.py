"""The command recorded with a training run: ``python -m gammon.ai.<module>``, paths
relative to the repository wherever the run was started."""

from __future__ import annotations

from pathlib import Path

from gammon.training.runs import REPOSITORY, run_command
from paths import ROOT


def test_the_package_knows_its_repository() -> None:
    assert REPOSITORY == ROOT


def test_absolute_paths_inside_the_repository_become_relative() -> None:
    cmd = run_command("refine", ["--base", str(ROOT / "training/td1/checkpoint.npz"),
                                 "--out", str(ROOT / "training/refine3"), "--lr", "3e-4"],
                      cwd=Path("/somewhere/else"))
    assert cmd == ("gammon train refine --base training/td1/checkpoint.npz "
                   "--out training/refine3 --lr 3e-4")


def test_relative_paths_from_another_directory_and_option_values() -> None:
    cmd = run_command("td", ["--out=../training/td2", "--games", "10", "--init",
                                "../src/gammon/ai/data/weights.npz"], cwd=ROOT / "benchmarks")
    assert cmd == ("gammon train td --out=training/td2 --games 10 "
                   "--init src/gammon/ai/data/weights.npz")


def test_paths_outside_the_repository_and_plain_words_are_kept() -> None:
    cmd = run_command("lopsided", ["--mix", "/data/set.npz", "--source", "constructed", ""],
                      cwd=ROOT)
    assert cmd == "gammon train lopsided --mix /data/set.npz --source constructed ''"


def test_a_worktree_path_never_reaches_the_record() -> None:
    # The whole point: no absolute path of the checkout the run was made in.
    cmd = run_command("td", [str(ROOT / "x" / "y.npz")], cwd=ROOT)
    assert str(ROOT) not in cmd and cmd.endswith(" x/y.npz")


def test_the_recorded_command_drops_the_words_that_chose_the_stage(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # `gammon train refine --seed 3` records just that, not `... train refine train refine`.
    import sys

    monkeypatch.setattr(sys, "argv", ["gammon", "train", "refine", "--seed", "3"])
    assert run_command("refine", cwd=ROOT) == "gammon train refine --seed 3"
    monkeypatch.setattr(sys, "argv", ["gammon", "train", "--games", "10"])  # td, the default stage
    assert run_command("td", cwd=ROOT) == "gammon train td --games 10"
