"""Refinement of the TD-trained nets on our own deeper targets (supervised).

The second stage after :mod:`gammon.training.train`: TD(lambda) self-play from
random weights gives the base nets; this module then

1. collects positions by self-play with the base net (:mod:`gammon.training.positions`:
   0-ply choices, a random play with probability ``epsilon`` so that the positions
   vary; each position before a roll is kept with probability ``keep``; finished
   games and bear-off database positions are skipped, contact and race kept);
2. values each at ``plies`` with our OWN search
   (:class:`gammon.ai.search.PlyEvaluator` over the base net and the
   bear-off database): five cumulative probabilities for the player on roll;
3. trains the nets (net 0 contact, net 1 race) on (inputs, targets)
   (:mod:`gammon.training.fitting`) by minibatch Adam on the cross-entropy of
   the sigmoid outputs, starting from the base weights, with a held-out share
   of the positions to report the loss before and after (the epoch with the
   lowest held-out loss is kept);
4. saves ``DIR/weights.npz`` (:meth:`gammon.ai.network.Network.save`) with a
   metadata record and ``DIR/meta.json``.

No other engine is involved: positions, targets and training are all ours.
The positions and targets go to ``DIR/dataset.npz`` as they are made, so an
interrupted run continues where it stopped (the same settings give the same
positions).  The dataset is made in shards of :data:`SHARD` positions, each
with its own seed derived from the run's seed and its number, so it does not
depend on how many workers (or Ray tasks) made it.

Run ``gammon train refine [--base W.npz]
--positions N --out DIR [--plies 1] [--epochs E] [--lr LR] [--seed S]``; add
``--ray`` (a local Ray) or ``--address HOST:PORT`` (a cluster) to make the
dataset's shards as Ray tasks (:mod:`gammon.ai.distributed`): the same dataset.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as _dt
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from gammon.ai.bearoff import load as load_bearoff
from gammon.ai.distributed import LocalRunner, Runner, make_runner, task_seed
from gammon.ai.evaluator import ClassifyingEvaluator, default_network
from gammon.ai.network import NUM_OUTPUTS, Network
from gammon.ai.search import PlyEvaluator
from gammon.core.errors import GammonError
from gammon.core.variants import STANDARD, Variant, find_variant
from gammon.training.fitting import Progress, dataset_loss, fit, net_indices, split_holdout
from gammon.training.positions import collect_positions, collect_siblings
from gammon.training.runs import run_command

#: Dataset file name inside the output directory.
DATASET_FILE = "dataset.npz"
#: Positions per shard of the dataset (``Settings.shard``).  Shard ``i`` plays its own self-play
#: games with the seed ``task_seed(seed, i)`` and values its positions: one task, run here or on
#: a Ray worker, so the dataset does not depend on how many workers made it.  Saved as whole
#: shards, at most every :data:`SAVE_EVERY_S` seconds and at the end.
SHARD = 500
#: Seconds between saves of the dataset while it is made (at least; a save costs more as the
#: dataset grows, so the gap is also at least ten times the last save's cost).
SAVE_EVERY_S = 60.0
#: The older name of :data:`SHARD`.
TARGET_CHUNK = SHARD


#: ``base`` meaning the standard net installed with gammon (the default, wherever the run starts).
SHIPPED = "shipped"


def load_base(base: str) -> Network:
    """The net a run starts from: the weights file ``base``, or the shipped net for :data:`SHIPPED`."""
    return default_network() if base == SHIPPED else Network.load(base)


@dataclass(frozen=True, slots=True)
class Settings:
    """What a refinement run does; stored in the weights' metadata."""

    base: str = SHIPPED
    positions: int = 20_000
    plies: int = 1
    epochs: int = 4
    lr: float = 3e-4
    batch: int = 128
    seed: int = 1
    epsilon: float = 0.1
    keep: float = 0.35
    holdout: float = 0.1
    shard: int = SHARD
    #: Plays per inner node of the target search valued after the pruning net (0: all).
    prune: int = 0
    #: 0: the dataset holds the self-play positions themselves.  ``k`` > 0: each
    #: self-play position is thrown a random roll and the dataset holds the results of
    #: the base net's ``k`` best plays of it (:func:`sibling_positions`), so that the
    #: net learns the plays it must rank against each other, not only the ones it chose.
    siblings: int = 0
    #: The variant whose self-play gives the positions.  Only variants that move by the
    #: standard rules once started (Nackgammon) can be valued: the search knows no other.
    variant: str = "standard"
    #: Keep only the crashed self-play positions (:func:`~gammon.ai.encoding.is_crashed`) and
    #: their siblings: data for the third net (needs ``siblings``).
    crashed_only: bool = False


def refinable_variant(name: str) -> Variant:
    """The variant ``name`` if its positions can be valued by our search, else a clear error.

    The 2-ply targets search with the standard rules of play, so a variant must differ
    from standard only in its start (Nackgammon); Hypergammon's three checkers, the
    Dutch no-hit rule and Acey-Deucey's pool and stakes are not searched.
    """
    v = find_variant(name)
    if (v.checkers, v.flags, v.pays_per_checker) != (STANDARD.checkers, STANDARD.flags,
                                                     STANDARD.pays_per_checker):
        raise GammonError(f"{v.name} plays by other rules than standard once started; the"
                          " refinement's search values standard positions only (nackgammon works)")
    return v


@dataclass(frozen=True, slots=True)
class Result:
    """What :func:`refine` made."""

    network: Network
    loss_before: float
    loss_after: float
    train_loss_before: float
    train_loss_after: float
    best_epoch: int
    timings: dict[str, float]


# -- 2. targets ------------------------------------------------------------------


def target_evaluator(net: Network, plies: int, prune: int = 0) -> PlyEvaluator:
    """Our own ``plies``-deep evaluator over ``net`` and the bear-off database.

    ``prune`` > 0 pre-filters the plays at the inner nodes with our pruning net
    (:mod:`gammon.ai.pruning`), as the strongest level does.
    """
    return PlyEvaluator(ClassifyingEvaluator(net, load_bearoff()), plies=plies, prune=prune)


def compute_targets(evaluator: PlyEvaluator, boards: np.ndarray) -> np.ndarray:
    """``(n, 5)`` float32 probabilities for the player on roll of each board."""
    b = np.array(boards, dtype=np.uint8, order="C").reshape(-1, 50)
    if len(b) == 0:
        return np.zeros((0, NUM_OUTPUTS), dtype=np.float32)
    out: np.ndarray = np.clip(evaluator.evaluate_batch(b).astype(np.float32), 0.0, 1.0)
    return out


# -- 1 and 2 as tasks -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _ShardJob:
    """What every shard shares: the base net and how positions are collected and valued."""

    net: Network
    plies: int
    epsilon: float
    keep: float
    prune: int = 0
    siblings: int = 0
    variant: str = "standard"
    crashed_only: bool = False


def dataset_shards(s: Settings) -> list[tuple[int, int, int]]:
    """The shards of a run: ``(index, positions, seed)``, the last one possibly smaller."""
    return [(i, min(s.shard, s.positions - lo), task_seed(s.seed, i))
            for i, lo in enumerate(range(0, s.positions, s.shard))]


def make_shard(job: _ShardJob, shard: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray, int]:
    """One shard: its positions ``(n, 50)``, their targets ``(n, 5)`` and the games played.

    A fresh evaluator per shard, so that no cache carries anything from one
    shard to another whichever worker runs them.
    """
    _, count, seed = shard
    if job.siblings:
        boards, games = collect_siblings(job.net, count, seed, job.siblings, job.epsilon, job.keep,
                                         variant=job.variant, crashed_only=job.crashed_only)
    else:
        boards, games = collect_positions(job.net, count, seed, job.epsilon, job.keep,
                                          job.variant)
    targets = compute_targets(target_evaluator(job.net, job.plies, job.prune), boards)
    return boards, targets, games


# -- the driver ------------------------------------------------------------------


def _dataset_key(s: Settings) -> dict[str, Any]:
    """Settings that decide the dataset's contents (a resumed run must match them)."""
    key: dict[str, Any] = {"base": str(s.base), "plies": s.plies, "seed": s.seed,
                           "epsilon": s.epsilon, "keep": s.keep, "shard": s.shard}
    if s.prune:
        key["prune"] = s.prune
    if s.siblings:
        key["siblings"] = s.siblings
    if s.variant != STANDARD.name:
        key["variant"] = s.variant
    if s.crashed_only:
        key["positions"] = "crashed"
    return key


def _load_dataset(path: Path, s: Settings) -> tuple[np.ndarray, np.ndarray, int, int] | None:
    if not path.exists():
        return None
    with np.load(path, allow_pickle=False) as z:
        key = json.loads(str(z["key"]))
        if key != _dataset_key(s):
            return None
        games = int(z["games"]) if "games" in z.files else 0
        return np.array(z["boards"]), np.array(z["targets"]), int(z["done"]), games


def _save_dataset(path: Path, s: Settings, boards: np.ndarray, targets: np.ndarray,
                  done: int, games: int) -> None:
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, boards=boards, targets=targets, done=np.array(done),
             games=np.array(games), key=np.array(json.dumps(_dataset_key(s), sort_keys=True)))
    os.replace(tmp, path)


class _Reporter:
    """Progress reports of one run, each timed from the start of its stage."""

    def __init__(self, progress: Callable[[Progress], None] | None) -> None:
        self.progress = progress

    def __call__(self, stage: str, done: int, total: int, t0: float, info: str = "") -> None:
        if self.progress is not None:
            self.progress(Progress(stage, done, total, time.perf_counter() - t0, info))


def _check_settings(s: Settings) -> None:
    """Refuse settings no run can use, before anything is made."""
    if s.positions < 2:
        raise GammonError("refinement needs at least 2 positions")
    if not 0.0 < s.holdout < 1.0:
        raise GammonError("holdout must be in (0, 1)")
    if s.shard < 1:
        raise GammonError("a shard needs at least 1 position")
    refinable_variant(s.variant)
    if s.crashed_only and not s.siblings:
        raise GammonError("--crashed-only keeps the siblings of crashed positions: give --siblings K")


@dataclass(slots=True)
class _Dataset:
    """The dataset as it grows: whole shards of boards and targets in order, games played."""

    boards: list[np.ndarray]
    targets: list[np.ndarray]
    games: int = 0

    def rows(self) -> int:
        return sum(len(b) for b in self.boards)

    def save(self, path: Path, s: Settings) -> None:
        _save_dataset(path, s, np.concatenate(self.boards), np.concatenate(self.targets),
                      self.rows(), self.games)


def _resume_dataset(s: Settings, ds_path: Path | None, shards: int, report: _Reporter,
                    t0: float) -> tuple[_Dataset, int]:
    """The whole shards already valued in ``ds_path`` (the same settings make the same
    shards) and the index of the first shard still to make."""
    data = _Dataset([], [])
    loaded = _load_dataset(ds_path, s) if ds_path is not None else None
    if loaded is None:
        return data, 0
    lb, lt, ldone, lgames = loaded
    first = min(ldone // s.shard, shards)
    n = s.positions if first == shards and ldone >= s.positions else first * s.shard
    data.boards.append(lb[:n])
    data.targets.append(lt[:n])
    data.games = lgames
    info = f"from {ds_path} ({n} valued)" if n == s.positions else (
        f"from {ds_path}: {first} of {shards} shards; making the rest")
    report("positions", n, s.positions, t0, info)
    return data, first


def _make_dataset(s: Settings, net: Network, ds_path: Path | None, runner: Runner | None,
                  report: _Reporter) -> tuple[np.ndarray, np.ndarray, int]:
    """Positions and their targets, shard by shard (each shard plays its own seeded games
    and values its positions), saved as the shards arrive in order; resumed from
    ``ds_path``.  Returns the boards, targets and self-play games."""
    t0 = time.perf_counter()
    shards = dataset_shards(s)
    data, first = _resume_dataset(s, ds_path, len(shards), report, t0)
    start_done = data.rows()
    todo = shards[first:] if start_done < s.positions else []
    shared = _ShardJob(net, s.plies, s.epsilon, s.keep, s.prune, s.siblings, s.variant, s.crashed_only)
    arrived: dict[int, tuple[np.ndarray, np.ndarray, int]] = {}
    nxt = 0
    last = -1e9
    made = start_done
    use = runner if runner is not None else LocalRunner()
    saved_at = time.perf_counter()
    save_cost = 0.0
    for i, part in use.imap_unordered(make_shard, shared, todo):
        arrived[i] = part
        made += len(part[0])
        while nxt in arrived:
            b, t, g = arrived.pop(nxt)
            data.boards.append(b)
            data.targets.append(t)
            data.games += g
            nxt += 1
        # Saved as the shards arrive in order, but not more often than every SAVE_EVERY_S
        # seconds (nor than ten times the last save's cost): rewriting a large compressed
        # file after every shard would cost more than the shard.  The last one always saves.
        now = time.perf_counter()
        if ds_path is not None and (nxt == len(todo) or (
                now - saved_at >= max(SAVE_EVERY_S, 10.0 * save_cost))):
            data.save(ds_path, s)
            saved_at = time.perf_counter()
            save_cost = saved_at - now
        el = time.perf_counter() - t0
        if el - last < 10.0 and nxt < len(todo):
            continue
        last = el
        rate = max(made - start_done, 1) / max(el, 1e-9)
        report(f"targets ({s.plies}-ply)", made, s.positions, t0,
               f"{1000.0 / max(rate, 1e-9):.2f} ms/position")
    boards = np.concatenate(data.boards) if data.boards else np.zeros((0, 50), dtype=np.uint8)
    targets = (np.concatenate(data.targets) if data.targets
               else np.zeros((0, NUM_OUTPUTS), dtype=np.float32))
    if ds_path is not None and not ds_path.exists():
        _save_dataset(ds_path, s, boards, targets, len(boards), data.games)
    if todo:
        race = int((net_indices(boards, 2) == 1).sum())
        report("positions", len(boards), s.positions, t0,
               f"{data.games} games, {len(boards) - race} contact, {race} race")
    return boards, targets, data.games


def _train(s: Settings, net: Network, boards: np.ndarray, targets: np.ndarray,
           progress: Callable[[Progress], None] | None, report: _Reporter,
           timings: dict[str, float]) -> Result:
    """Train from ``net`` on the dataset with a held-out share (step 3); ``timings`` gets
    ``train_s`` and goes into the result."""
    t0 = time.perf_counter()
    x, k, tr, hold = split_holdout(net, boards, targets, s.holdout, s.seed)
    nh = len(hold[0])
    loss_before = dataset_loss(net, *hold)
    train_before = dataset_loss(net, x[tr], targets[tr], k[tr])
    report("train", 0, s.epochs, t0,
           f"{len(tr)} train, {nh} held out; held-out loss {loss_before:.5f}"
           f"  train loss {train_before:.5f}")
    refined, best_epoch = fit(net, x[tr], targets[tr], k[tr], epochs=s.epochs, lr=s.lr,
                              batch=s.batch, seed=s.seed, holdout=hold, progress=progress)
    loss_after = dataset_loss(refined, *hold)
    train_after = dataset_loss(refined, x[tr], targets[tr], k[tr])
    timings["train_s"] = time.perf_counter() - t0
    report("train", s.epochs, s.epochs, t0,
           f"best epoch {best_epoch}; held-out loss {loss_before:.5f} -> {loss_after:.5f}")
    return Result(refined, loss_before, loss_after, train_before, train_after, best_epoch,
                  timings)


def _metadata(s: Settings, base_meta: dict[str, Any], res: Result, positions: int,
              games: int) -> dict[str, Any]:
    """The refined weights' metadata record (step 4)."""
    return {
        "kind": "supervised refinement on own search targets",
        "variant": s.variant,
        "games": base_meta.get("games"),
        "base": {"path": str(s.base), "games": base_meta.get("games"),
                 "kind": base_meta.get("kind", "td-lambda self-play"),
                 "date": base_meta.get("date")},
        "positions": positions,
        "self_play_games": games,
        "target_plies": s.plies,
        "epochs": s.epochs,
        "best_epoch": res.best_epoch,
        "lr": s.lr,
        "settings": dataclasses.asdict(s),
        "heldout_loss_before": res.loss_before,
        "heldout_loss_after": res.loss_after,
        "timings_s": {n: round(v, 2) for n, v in res.timings.items()},
        "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "command": run_command("refine"),
    }


def refine(settings: Settings, out_dir: str | os.PathLike[str] | None,
           progress: Callable[[Progress], None] | None = None,
           base: Network | None = None, runner: Runner | None = None) -> Result:
    """Collect, value, train and save (see the module doc); returns the refined net.

    ``base`` overrides loading ``settings.base``; ``out_dir`` ``None`` keeps
    everything in memory (no dataset, no weights file).  ``runner``: a
    :mod:`gammon.ai.distributed` runner (Ray) for the shards of the dataset
    (default: one after the other here); the dataset is the same either way.
    """
    s = settings
    _check_settings(s)
    net = base if base is not None else load_base(s.base)
    out = Path(out_dir) if out_dir is not None else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    report = _Reporter(progress)
    t0 = time.perf_counter()
    boards, targets, games = _make_dataset(s, net, out / DATASET_FILE if out is not None else None,
                                           runner, report)
    timings = {"data_s": time.perf_counter() - t0}
    res = _train(s, net, boards, targets, progress, report, timings)
    res.network.meta = _metadata(s, net.meta, res, len(boards), games)
    if out is not None:
        res.network.save(out / "weights.npz")
        tmp = out / "meta.json.tmp"
        tmp.write_text(json.dumps(res.network.meta, indent=1, sort_keys=True) + "\n")
        os.replace(tmp, out / "meta.json")
    return res


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="gammon train refine",
                                description=__doc__.split("\n")[0])
    d = Settings()
    p.add_argument("--base", default=d.base,
                   help=f"weights to start from (a .npz file, or {SHIPPED!r}: the net gammon ships)")
    p.add_argument("--positions", type=int, default=d.positions)
    p.add_argument("--out", required=True, help="directory for weights.npz, meta.json, dataset")
    p.add_argument("--plies", type=int, default=d.plies, help="depth of the target search")
    p.add_argument("--epochs", type=int, default=d.epochs)
    p.add_argument("--lr", type=float, default=d.lr, help="Adam step size")
    p.add_argument("--batch", type=int, default=d.batch)
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--epsilon", type=float, default=d.epsilon,
                   help="chance of a random play while collecting positions")
    p.add_argument("--keep", type=float, default=d.keep,
                   help="chance of keeping each self-play position")
    p.add_argument("--holdout", type=float, default=d.holdout)
    p.add_argument("--shard", type=int, default=d.shard,
                   help="positions per task of the dataset (a different size makes a different dataset)")
    p.add_argument("--prune", type=int, default=d.prune,
                   help="plays per inner node of the target search after the pruning net (0: all)")
    p.add_argument("--siblings", type=int, default=d.siblings,
                   help="value the results of the base net's K best plays of a random roll from"
                        " each self-play position instead of the position (0: the positions)")
    p.add_argument("--variant", default=d.variant,
                   help="collect the positions from this variant's self-play (standard, nackgammon)")
    p.add_argument("--crashed-only", action="store_true",
                   help="keep only crashed self-play positions (and their siblings): data for a third net")
    p.add_argument("--ray", action="store_true",
                   help="make the dataset's shards as Ray tasks (a local Ray unless --address)")
    p.add_argument("--address", default=None,
                   help="the Ray cluster to use (auto, HOST:PORT, ray://HOST:PORT); implies --ray")
    p.add_argument("--workers", type=int, default=None,
                   help="workers of a local Ray (default: this machine's cores)")
    a = p.parse_args(argv)
    s = Settings(base=a.base, positions=a.positions, plies=a.plies, epochs=a.epochs, lr=a.lr,
                 batch=a.batch, seed=a.seed, epsilon=a.epsilon, keep=a.keep, holdout=a.holdout,
                 shard=a.shard, prune=a.prune, siblings=a.siblings, variant=a.variant,
                 crashed_only=a.crashed_only)
    print(f"settings: {json.dumps(dataclasses.asdict(s))}", flush=True)

    def show(r: Progress) -> None:
        print(r.line(), flush=True)

    try:
        runner = make_runner(a.address or "local", a.workers) if a.ray or a.address else LocalRunner()
        with runner:
            res = refine(s, a.out, show, runner=runner)
    except GammonError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"done: held-out loss {res.loss_before:.5f} -> {res.loss_after:.5f}"
          f" (best epoch {res.best_epoch}); weights in {Path(a.out) / 'weights.npz'}",
          flush=True)
    return 0

