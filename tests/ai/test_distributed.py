"""Ray tasks give the same results as the single-process run: rollouts, training data, analysis.

A local Ray of two workers is started once for the module (no dashboard, a
small object store) and shut down after.  Each check runs the same seeded work
here, one task after the other, and as Ray tasks, and compares the results
exactly: every task is seeded by its own number, so the number of workers and
the order in which tasks finish cannot change anything.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from typer.testing import CliRunner

from gammon.ai.distributed import (
    LocalRunner,
    RayRunner,
    RayUnavailableError,
    check_ray_address,
    make_runner,
    run_ordered,
    task_seed,
)
from gammon.core.errors import GammonError

START = "4HPwATDgc/ABMA"
cli = CliRunner()


def _square_plus(shared: int, task: int) -> int:
    if task < 0:
        raise GammonError(f"task {task} refused")
    return task * task + shared


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[None]:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    os.environ.setdefault("RAY_worker_niceness", "0")  # workers as nice as pytest, not 15 more
    import ray
    from ray import cloudpickle

    # The workers cannot import this test module: its functions travel by value.
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    # The fixture starts Ray itself (as the issue asks); RayRunner finds it running and uses it.
    os.environ.setdefault("RAY_agent_register_timeout_ms", "120000")  # slow starts: see RayRunner
    for attempt in (1, 2):
        try:
            ray.init(num_cpus=2, include_dashboard=False, object_store_memory=100 * 1024 * 1024,
                     log_to_driver=False, configure_logging=False)
            break
        except Exception:  # a raylet that stopped during a slow start (ray-project/ray#62883)
            ray.shutdown()
            if attempt == 2:
                raise
    try:
        yield
    finally:
        ray.shutdown()
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


# -- without Ray ---------------------------------------------------------------------------


def test_task_seeds_depend_on_the_base_and_the_index_only() -> None:
    seeds = {task_seed(b, i) for b in range(20) for i in range(50)}
    assert len(seeds) == 1000  # no two (base, index) pairs share a seed here
    assert all(0 <= s < 2**63 for s in seeds)
    assert task_seed(7, 3) == task_seed(7, 3)
    with pytest.raises(GammonError):
        task_seed(-1, 0)


def test_the_local_runner_keeps_order_and_reports_progress() -> None:
    seen: list[tuple[int, int]] = []
    out = run_ordered(LocalRunner(), _square_plus, 1, [3, 1, 2], lambda d, t: seen.append((d, t)))
    assert out == [10, 2, 5]
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)]


@pytest.mark.parametrize("text,address", [
    (None, None), ("local", None), ("", None), ("auto", "auto"), ("10.0.0.5:6379", "10.0.0.5:6379"),
    ("ray://head.example:10001", "ray://head.example:10001"),
])
def test_ray_addresses(text: str | None, address: str | None) -> None:
    assert check_ray_address(text) == address


@pytest.mark.parametrize("text", ["m.mat", "head", "host:port", "rm -rf /", "http://x:1"])
def test_what_is_not_a_ray_address_is_refused(text: str) -> None:
    with pytest.raises(GammonError, match="not a Ray address"):
        check_ray_address(text)


def test_a_bad_address_is_one_error_line(tmp_path: Path) -> None:
    from gammon.cli import app

    f = tmp_path / "m.mat"
    f.write_text("")
    result = cli.invoke(app, ["rollout", START, "--trials", "36", "--address", str(f)])
    assert result.exit_code == 2 and result.output.count("error:") == 1
    assert "not a Ray address (that is a file)" in result.output


def test_ray_runner_outside_a_with_block_is_refused() -> None:
    with pytest.raises(GammonError, match="with block"):
        list(RayRunner().imap_unordered(_square_plus, 0, [1]))


def test_without_ray_installed_ray_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from gammon.cli import app

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails as on a plain install
    with pytest.raises(RayUnavailableError, match=r"pip install 'gammon\[ray\]'"):
        make_runner("local")
    assert isinstance(make_runner(None), LocalRunner)  # without --ray nothing needs Ray
    result = cli.invoke(app, ["rollout", START, "--trials", "36", "--truncate", "2", "--ray"])
    assert result.exit_code == 2 and result.output.count("error:") == 1
    assert "gammon[ray]" in result.output and "Traceback" not in result.output


def test_refine_command_without_ray(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    from gammon.training.refine import main

    monkeypatch.setitem(sys.modules, "ray", None)
    assert main(["--positions", "10", "--out", str(tmp_path / "o"), "--ray"]) == 2
    assert "gammon[ray]" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_a_resumed_dataset_equals_one_made_at_once(tmp_path: Path) -> None:
    from gammon.ai.evaluator import default_network
    from gammon.training.refine import DATASET_FILE, Progress, Settings, refine

    net = default_network()
    small = Settings(positions=40, shard=20, plies=0, epochs=1, batch=16, seed=3)
    big = Settings(positions=60, shard=20, plies=0, epochs=1, batch=16, seed=3)
    refine(small, tmp_path / "run", base=net)
    seen: list[Progress] = []
    refine(big, tmp_path / "run", seen.append, base=net)  # keeps the two shards made, adds the third
    assert any("2 of 3 shards" in p.info for p in seen)
    refine(big, tmp_path / "once", base=net)
    with np.load(tmp_path / "run" / DATASET_FILE) as a, np.load(tmp_path / "once" / DATASET_FILE) as b:
        assert np.array_equal(a["boards"], b["boards"]) and np.array_equal(a["targets"], b["targets"])
    with pytest.raises(GammonError, match="shard"):
        refine(Settings(positions=10, shard=0), None, base=net)


# -- with a local Ray of two workers -----------------------------------------------------------


def test_ray_tasks_keep_order_and_errors(ray_cluster: None) -> None:
    with RayRunner() as runner:
        assert runner.workers == 2
        assert run_ordered(runner, _square_plus, 5, list(range(7))) == [i * i + 5 for i in range(7)]
        with pytest.raises(GammonError, match="task -1 refused"):
            run_ordered(runner, _square_plus, 0, [1, -1, 2])


def test_rollout_on_ray_is_identical(ray_cluster: None) -> None:
    from gammon.ai.evaluator import default_evaluator
    from gammon.ai.rollout import RolloutSettings, rollout
    from gammon.core.position import Position

    pos = Position.from_position_id("4HPwATDgc/ABMA")
    ev = default_evaluator()
    for s in (RolloutSettings(trials=108, seed=3, truncate_at=8),
              RolloutSettings(trials=72, seed=4, truncate_at=6, cubeful=True, variance_reduction=False)):
        here = rollout(pos, ev, s)
        seen: list[int] = []
        with RayRunner() as runner:
            there = rollout(pos, ev, s, progress=lambda d, t, seen=seen: seen.append(d), runner=runner)
        assert there.trials == here.trials == s.trials
        assert there.probs == here.probs and there.se_probs == here.se_probs
        assert there.equity == here.equity and there.cubeful_equity == here.cubeful_equity
        assert seen[-1] == s.trials and seen == sorted(seen)


def test_rollout_command_on_ray_is_identical(ray_cluster: None) -> None:
    from gammon.cli import app

    def run(*extra: str) -> dict[str, object]:
        r = cli.invoke(app, ["rollout", START, "--trials", "72", "--seed", "9", "--truncate", "5", "--json",
                             "--processes", "1", *extra])
        assert r.exit_code == 0, r.output
        data = json.loads(r.stdout)
        assert isinstance(data, dict)
        data.pop("seconds")
        return data

    assert run("--ray") == run()


def test_training_data_on_ray_is_identical(ray_cluster: None, tmp_path: Path) -> None:
    from gammon.ai.evaluator import default_network
    from gammon.training.refine import DATASET_FILE, Settings, refine

    net = default_network()
    s = Settings(positions=60, shard=20, plies=1, epochs=1, lr=1e-3, batch=16, seed=11)
    here = refine(s, tmp_path / "here", base=net)
    with RayRunner() as runner:
        there = refine(s, tmp_path / "there", base=net, runner=runner)
    with np.load(tmp_path / "here" / DATASET_FILE) as a, np.load(tmp_path / "there" / DATASET_FILE) as b:
        assert a["boards"].shape == (60, 50)
        assert np.array_equal(a["boards"], b["boards"]) and np.array_equal(a["targets"], b["targets"])
        assert int(a["games"]) == int(b["games"]) > 0
        # Three shards of different seeds: not one position stream cut in three.
        assert not np.array_equal(a["boards"][:20], a["boards"][20:40])
    for name in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(here.network, name), getattr(there.network, name))


def _two_small_records(tmp_path: Path) -> list[Path]:
    from gammon.formats.mat import write_mat
    from gammon.play.selfplay import run_selfplay

    paths = []
    for seed, length in ((5, 3), (6, 1)):
        p = tmp_path / f"m{seed}.mat"
        p.write_text(write_mat(run_selfplay(1, seed, match_length=length), ("Ann", "Bob")))
        paths.append(p)
    return paths


def test_analysis_of_files_on_ray_is_identical(ray_cluster: None, tmp_path: Path) -> None:
    from gammon.analysis.analyse import analyse_files

    files = [str(p) for p in _two_small_records(tmp_path)]
    here = analyse_files(files, plies=0)
    with RayRunner() as runner:
        there = analyse_files(files, plies=0, runner=runner)
    assert [a.to_dict() for a in here] == [a.to_dict() for a in there]
    assert here[0].to_dict() != here[1].to_dict()


def test_analyse_command_on_ray(ray_cluster: None, tmp_path: Path) -> None:
    from gammon.cli import app

    files = [str(p) for p in _two_small_records(tmp_path)]
    local = cli.invoke(app, ["analyse", *files, "--plies", "0", "--json"])
    on_ray = cli.invoke(app, ["analyse", *files, "--plies", "0", "--json", "--ray"])
    assert local.exit_code == 0 and on_ray.exit_code == 0, local.output + on_ray.output
    a, b = json.loads(local.stdout), json.loads(on_ray.stdout)
    assert [x["file"] for x in a] == files and a == b
    text = cli.invoke(app, ["analyse", *files, "--plies", "0", "--ray"])
    assert text.exit_code == 0 and text.stdout.count("checker error rate") == 2
    both = cli.invoke(app, ["analyse", *files, "--plies", "0", "--html", str(tmp_path / "r.html")])
    assert both.exit_code == 2 and "error: --html is for one record" in both.output


def test_the_dataset_is_saved_at_most_every_interval_and_always_at_the_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gammon.ai.evaluator import default_network
    from gammon.training import refine as refine_module
    from gammon.training.refine import DATASET_FILE, Settings, refine

    net = default_network()
    saves: list[int] = []
    real = refine_module._save_dataset

    def counting(path, s, boards, targets, done, games):  # type: ignore[no-untyped-def]
        saves.append(done)
        real(path, s, boards, targets, done, games)

    monkeypatch.setattr(refine_module, "_save_dataset", counting)
    # The save interval is measured on refine's clock, and a save is also held back for ten times
    # the last save's cost: on a busy machine two shards arriving close together skipped a save
    # (issue 34).  A stopped clock makes every save cost nothing and no interval pass, so the
    # saves depend on the interval alone.
    monkeypatch.setattr(refine_module, "time", SimpleNamespace(perf_counter=lambda: 0.0))
    run = Settings(positions=60, shard=20, plies=0, epochs=1, batch=16, seed=3)
    monkeypatch.setattr(refine_module, "SAVE_EVERY_S", 1e9)
    refine(run, tmp_path / "rare", base=net)
    assert saves == [60]  # nothing in between, everything at the end
    with np.load(tmp_path / "rare" / DATASET_FILE) as z:
        assert int(z["done"]) == 60 and len(z["boards"]) == 60
    saves.clear()
    monkeypatch.setattr(refine_module, "SAVE_EVERY_S", 0.0)
    refine(run, tmp_path / "often", base=net)
    assert saves == [20, 40, 60]  # after every shard
