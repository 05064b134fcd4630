"""TD(lambda) self-play: it learns, it is reproducible, and resuming changes nothing."""

from __future__ import annotations

import json

import numpy as np

from gammon.ai.network import Network
from gammon.training.train import Settings, Trainer, strength, train

SMALL = Settings(games=20, seed=3, hidden=16, checkpoint_every=10, log_every=10,
                 eval_every=0)


def _same(a: Network, b: Network) -> bool:
    return all(np.array_equal(getattr(a, n), getattr(b, n)) for n in ("w1", "b1", "w2", "b2"))


def test_training_changes_weights_deterministically() -> None:
    before = Trainer(SMALL, None).net
    a = train(SMALL, None)
    b = train(SMALL, None)
    assert not _same(a, before)
    assert _same(a, b)
    c = train(Settings(**{**_fields(SMALL), "seed": 4}), None)
    assert not _same(a, c)


def test_it_learns_it_beats_its_untrained_self() -> None:
    """A few hundred games of TD(lambda) self-play make a net that beats the net it started as.

    Changed weights alone prove nothing: the trained net must play better.  The match is
    played in pairs with the same dice and the sides exchanged, so luck largely cancels.
    """
    settings = Settings(games=400, seed=5, hidden=16, checkpoint_every=1000, log_every=1000, eval_every=0)
    untrained = Trainer(settings, None).net
    trained = train(settings, None)
    result = strength(trained, games=400, seed=77, opponent=untrained)
    assert result["win"] > 0.6 and result["ppg"] > 0.3, result


def _fields(s: Settings) -> dict[str, object]:
    return {k: getattr(s, k) for k in s.__dataclass_fields__}


def test_resume_equals_uninterrupted(tmp_path) -> None:  # type: ignore[no-untyped-def]
    whole = train(SMALL, tmp_path / "whole")
    half = Settings(**{**_fields(SMALL), "games": 10})
    train(half, tmp_path / "split")
    resumed = train(SMALL, tmp_path / "split", resume=True)
    assert _same(whole, resumed)
    meta = json.loads((tmp_path / "split" / "meta.json").read_text())
    assert meta["games"] == 20
    assert meta["settings"]["hidden"] == 16
    assert "date" in meta and "command" in meta
    assert Network.load(tmp_path / "split" / "checkpoint.npz").meta["games"] == 20


def test_progress_reports(tmp_path) -> None:  # type: ignore[no-untyped-def]
    seen = []
    s = Settings(**{**_fields(SMALL), "eval_every": 20, "eval_games": 4})
    train(s, tmp_path, progress=seen.append)
    assert [r.games for r in seen] == [10, 20]
    assert seen[-1].strength is not None and set(seen[-1].strength) == {"win", "ppg"}
    assert "games/s" in seen[-1].line()


def test_snapshots_and_their_yardstick(tmp_path) -> None:  # type: ignore[no-untyped-def]
    seen = []
    s = Settings(**{**_fields(SMALL), "eval_every": 10, "eval_games": 2, "snapshot_every": 10})
    train(s, tmp_path, progress=seen.append)
    assert sorted(p.name for p in (tmp_path / "snapshots").iterdir()) == [
        "games-000000010.npz", "games-000000020.npz"]
    assert seen[0].strength is not None and "vs_snap_ppg" not in seen[0].strength
    assert seen[1].strength is not None and "vs_snap_ppg" in seen[1].strength
    more = Settings(**{**_fields(s), "games": 30})
    seen.clear()
    train(more, tmp_path, resume=True, progress=seen.append)
    assert "vs_snap_ppg" in seen[0].strength


def test_strength_is_reproducible() -> None:
    net = Network.random(hidden=8, seed=1)
    a = strength(net, games=4, seed=9)
    assert a == strength(net, games=4, seed=9)
    assert 0.0 <= a["win"] <= 1.0 and -3.0 <= a["ppg"] <= 3.0
    # Against itself with shared dice and exchanged sides the score is even.
    assert strength(net, games=4, seed=9, opponent=net)["ppg"] == 0.0


def test_command_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # `gammon train td` (plain `gammon train` is the same) takes the run's schedule options too.
    from typer.testing import CliRunner

    from gammon.cli import app

    out = tmp_path / "run"
    first = CliRunner().invoke(app, ["train", "td", "--games", "4", "--out", str(out), "--hidden", "8",
                                     "--log-every", "2", "--eval-every", "0"])
    assert first.exit_code == 0, first.output
    assert (out / "checkpoint.npz").exists() and (out / "meta.json").exists()
    again = CliRunner().invoke(app, ["train", "--games", "6", "--out", str(out), "--resume", "--log-every", "2",
                                     "--eval-every", "0"])
    assert again.exit_code == 0, again.output
    assert "trained to 6 games" in again.output
    meta = Network.load(out / "checkpoint.npz").meta
    assert meta["games"] == 6 and meta["settings"]["log_every"] == 2 and meta["settings"]["eval_every"] == 0
    assert meta["command"].startswith("gammon train ")


def test_the_compiled_training_loops_take_few_arguments() -> None:
    """Issue 34: no compiled function of the training takes more than 8 arguments (the
    TD loop took 23); the weights, rules, policy and scratch travel as named tuples."""
    import importlib
    import inspect
    import pkgutil

    import gammon.training

    counts: dict[str, int] = {}
    for info in pkgutil.iter_modules(gammon.training.__path__):
        module = importlib.import_module(f"gammon.training.{info.name}")
        for name, obj in vars(module).items():
            if hasattr(obj, "py_func") and obj.py_func.__module__ == module.__name__:
                counts[f"{info.name}.{name}"] = len(inspect.signature(obj.py_func).parameters)
    assert "train._train_games" in counts  # the scan sees the kernels
    assert {k: n for k, n in counts.items() if n > 8} == {}
