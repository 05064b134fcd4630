"""Refinement of the TD-trained nets on our own deeper targets (supervised).

The second stage after :mod:`gammon.training.train`: TD(lambda) self-play from
random weights gives the base nets; this module then

1. collects positions by self-play with the base net (0-ply choices, a random
   play with probability ``epsilon`` so that the positions vary; each
   position before a roll is kept with probability ``keep``; finished games
   and bear-off database positions are skipped, contact and race kept);
2. values each at ``plies`` with our OWN search
   (:class:`gammon.ai.search.PlyEvaluator` over the base net and the
   bear-off database): five cumulative probabilities for the player on roll;
3. trains the nets (net 0 contact, net 1 race) on (inputs, targets) by
   minibatch Adam on the cross-entropy of the sigmoid outputs, starting from
   the base weights, with a held-out share of the positions to report the loss
   before and after (the epoch with the lowest held-out loss is kept);
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
from numba import njit

from gammon.ai.bearoff import load as load_bearoff
from gammon.ai.distributed import LocalRunner, Runner, make_runner, task_seed
from gammon.ai.encoding import encode_batch
from gammon.ai.evaluator import ClassifyingEvaluator, classify_board, default_network
from gammon.ai.network import NUM_OUTPUTS, Network
from gammon.ai.search import PlyEvaluator
from gammon.core.errors import GammonError
from gammon.core.position import Position
from gammon.core.variants import STANDARD, Variant, find_variant
from gammon.training.runs import run_command
from gammon.training.train import (
    MAX_SELFPLAY_PLIES,
    _pass_turn,
    _play_turn,
    _Scratch,
    _uniform,
    seed_state,
    variant_rules,
)

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
class Progress:
    """One progress report: a stage, its counts and time."""

    stage: str
    done: int
    total: int
    elapsed_s: float
    info: str = ""

    def line(self) -> str:
        s = f"{self.stage}: {self.done}/{self.total}  {self.elapsed_s:.1f}s"
        return s + (f"  {self.info}" if self.info else "")


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


# -- 1. positions ----------------------------------------------------------------


@njit(cache=True)
def _collect(want, start, rules, pool0, w1, b1, w2, b2, eps, keep, rng, gb, gm, table, cx, cy, out):  # type: ignore[no-untyped-def]
    """Self-play games until ``want`` positions are in ``out`` (player on roll first).

    The games are the training's own (:func:`gammon.training.train._play_turn`: the
    variant's ``rules`` and pool ``pool0``, the net's 0-ply choice, a random play
    with probability ``eps``).  A position is kept (with probability ``keep``)
    before its roll when it is a race or contact position (not finished, not a
    bear-off database one).  Returns (positions, games).
    """
    tmp = np.empty(50, dtype=np.uint8)
    board = np.empty(50, dtype=np.uint8)
    after = np.empty(50, dtype=np.uint8)
    pools = np.empty(2, dtype=np.int64)
    m = 0
    games = 0
    while m < want:
        for i in range(50):
            board[i] = start[i]
        pools[0] = pool0
        pools[1] = pool0
        games += 1
        for t in range(MAX_SELFPLAY_PLIES):
            if m < want and classify_board(board) >= 2 and _uniform(rng) < keep:
                for i in range(50):
                    out[m, i] = board[i]
                m += 1
            # The opening roll follows the variant's rule; later ones are ordinary.
            if _play_turn(0, board, pools, t == 0, rules, w1, b1, w2, b2, eps, rng, gb, gm,
                          table, cx, cy, tmp, after):
                break
            _pass_turn(after, pools, board)
    return m, games


def collect_positions(net: Network, count: int, seed: int = 1, epsilon: float = 0.1,
                      keep: float = 0.35, variant: str | Variant = STANDARD) -> tuple[np.ndarray, int]:
    """``count`` self-play positions ``(count, 50)`` uint8 (player on roll) of ``variant``
    and the games played."""
    if count < 0:
        raise GammonError("the number of positions must be at least 0")
    if not 0.0 < keep <= 1.0:
        raise GammonError("keep must be in (0, 1]")
    sc = _Scratch(net.hidden)
    out = np.zeros((max(count, 1), 50), dtype=np.uint8)
    start, rules, pool, _ = variant_rules(find_variant(variant))
    rng = seed_state(seed)
    m, games = _collect(count, start, rules, pool, net.w1, net.b1, net.w2, net.b2, float(epsilon),
                        float(keep), rng, sc.gb, sc.gm, sc.table, sc.cx, sc.cy, out)
    return out[:m], int(games)


def sibling_positions(net: Network, boards: np.ndarray, k: int, count: int,
                      rng: np.random.Generator, variant: Variant = STANDARD) -> np.ndarray:
    """Up to ``count`` positions ``(n, 50)``: the results of the ``k`` best plays (by
    ``net``) of a random roll from each of ``boards``, in turn, seen by the next player
    on roll.

    A 0-ply net chooses among the results of one roll, so what its choices depend on
    is how it ranks those; self-play alone shows it mostly the results of the plays it
    liked.  Finished games and bear-off database positions are left out (their values
    are exact), as are rolls that cannot be played.
    """
    if k < 1:
        raise GammonError("siblings must be at least 1")
    out: list[bytes] = []
    for row in boards:
        if len(out) >= count:
            break
        pos = Position._make(bytes(row), variant)
        d1, d2 = (int(v) for v in rng.integers(1, 7, size=2))
        for r in net.rank_plays(pos, (d1, d2))[:k]:
            nxt = r.play.position.swap().board
            if classify_board(np.frombuffer(nxt, dtype=np.uint8)) >= 2:
                out.append(nxt)
    out = out[:count]
    if not out:
        return np.zeros((0, 50), dtype=np.uint8)
    return np.frombuffer(b"".join(out), dtype=np.uint8).reshape(-1, 50).copy()


def collect_siblings(net: Network, count: int, seed: int, k: int, epsilon: float = 0.1,
                     keep: float = 0.35, batch: int | None = None,
                     progress: Callable[[int, int], None] | None = None,
                     variant: str | Variant = STANDARD) -> tuple[np.ndarray, int]:
    """``count`` sibling positions (:func:`sibling_positions`) of ``net``'s self-play and the
    games played.

    Self-play positions are collected ``batch`` at a time (default: enough for ``count``
    if each gave ``k``), batch ``i`` seeded ``task_seed(seed, i)``, until ``count``
    results are in; one generator seeded ``seed`` throws the rolls.  ``progress`` is
    told the positions made and the batches played after each batch.  ``variant``: whose
    self-play (its start and rules) gives the positions.
    """
    v = find_variant(variant)
    rng = np.random.default_rng(seed)
    want = batch if batch is not None else count // k + 1
    parts: list[np.ndarray] = []
    made = games = i = 0
    while made < count:
        base, g = collect_positions(net, want, task_seed(seed, i), epsilon, keep, v)
        games += g
        part = sibling_positions(net, base, k, count - made, rng, v)
        parts.append(part)
        made += len(part)
        i += 1
        if progress is not None:
            progress(made, i)
    boards = np.concatenate(parts) if parts else np.zeros((0, 50), dtype=np.uint8)
    return boards, games


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


def net_indices(boards: np.ndarray, nets: int) -> np.ndarray:
    """Which net values each board: 0 contact, 1 race (0 with a single net)."""
    x: np.ndarray = encode_batch(np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, 50))
    if nets < 2:
        return np.zeros(len(x), dtype=np.int64)
    # Input 213 is the contact flag.
    out: np.ndarray = np.where(x[:, -1] > 0.5, 0, 1).astype(np.int64)
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
                                         variant=job.variant)
    else:
        boards, games = collect_positions(job.net, count, seed, job.epsilon, job.keep,
                                          job.variant)
    targets = compute_targets(target_evaluator(job.net, job.plies, job.prune), boards)
    return boards, targets, games


# -- 3. training -----------------------------------------------------------------


def _sig(z: np.ndarray) -> np.ndarray:
    out: np.ndarray = 0.5 + 0.5 * np.tanh(0.5 * z)
    return out


def _forward(p: dict[str, np.ndarray], k: int, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    h = _sig(x @ p["w1"][k] + p["b1"][k])
    y = _sig(h @ p["w2"][k] + p["b2"][k])
    return h, y


def cross_entropy(y: np.ndarray, t: np.ndarray) -> float:
    """Mean binary cross-entropy of outputs ``y`` against targets ``t`` (both (n, 5))."""
    if len(y) == 0:
        return 0.0
    y = np.clip(y.astype(np.float64), 1e-7, 1 - 1e-7)
    t = t.astype(np.float64)
    return float(-np.mean(t * np.log(y) + (1 - t) * np.log(1 - y)))


def target_entropy(t: np.ndarray) -> float:
    """Mean binary entropy of targets ``t``: the least cross-entropy any net can reach on them.

    The loss minus this is the part training can still remove (the mean KL divergence),
    which makes losses on datasets of different positions comparable.
    """
    return cross_entropy(t, t)


def dataset_loss(net: Network, x: np.ndarray, t: np.ndarray, k: np.ndarray) -> float:
    """Mean cross-entropy of ``net`` on inputs ``x`` with targets ``t``, net per row ``k``."""
    p = {"w1": net.w1, "b1": net.b1, "w2": net.w2, "b2": net.b2}
    total = 0.0
    for kk in range(net.nets):
        sel = k == kk
        if sel.any():
            _, y = _forward(p, kk, x[sel])
            total += cross_entropy(y, t[sel]) * int(sel.sum())
    return total / max(1, len(x))


def fit(net: Network, x: np.ndarray, t: np.ndarray, k: np.ndarray, *, epochs: int, lr: float,
        batch: int, seed: int, holdout: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
        progress: Callable[[Progress], None] | None = None,
        lr_end: float | None = None) -> tuple[Network, int]:
    """Adam on the cross-entropy, from ``net``'s weights; returns (net, best epoch).

    With a ``holdout`` (x, t, k) the weights of the epoch with the lowest
    held-out loss are returned (epoch 0: the starting weights).  With ``lr_end``
    the step size falls geometrically from ``lr`` (first epoch) to ``lr_end``
    (last epoch); without it every epoch uses ``lr``.
    """
    if lr_end is not None and (lr_end <= 0 or lr <= 0):
        raise GammonError("step sizes must be above 0")
    p = {n: np.array(getattr(net, n), dtype=np.float32) for n in ("w1", "b1", "w2", "b2")}
    m = {n: np.zeros_like(v) for n, v in p.items()}
    v2 = {n: np.zeros_like(v) for n, v in p.items()}
    b1m, b2m, eps = 0.9, 0.999, 1e-8
    rng = np.random.default_rng(seed)
    step = 0
    best = net.copy()
    best_epoch = 0
    best_loss = dataset_loss(net, *holdout) if holdout is not None else float("inf")
    t0 = time.perf_counter()
    for ep in range(1, epochs + 1):
        rate = lr if lr_end is None or epochs < 2 else lr * (lr_end / lr) ** ((ep - 1) / (epochs - 1))
        order = rng.permutation(len(x))
        for s in range(0, len(order), batch):
            idx = order[s:s + batch]
            step += 1
            grads = {n: np.zeros_like(v) for n, v in p.items()}
            touched = []
            for kk in range(net.nets):
                sel = idx[k[idx] == kk]
                if len(sel) == 0:
                    continue
                touched.append(kk)
                xb, tb = x[sel], t[sel]
                h, y = _forward(p, kk, xb)
                # d(mean BCE)/d(logit) = (y - t) / (outputs * rows), rows of the whole batch.
                dz2 = (y - tb) / (NUM_OUTPUTS * len(idx))
                grads["w2"][kk] = h.T @ dz2
                grads["b2"][kk] = dz2.sum(axis=0)
                dz1 = (dz2 @ p["w2"][kk].T) * h * (1.0 - h)
                grads["w1"][kk] = xb.T @ dz1
                grads["b1"][kk] = dz1.sum(axis=0)
            c1 = 1.0 - b1m ** step
            c2 = 1.0 - b2m ** step
            for n in p:
                for kk in touched:
                    g = grads[n][kk]
                    m[n][kk] = b1m * m[n][kk] + (1 - b1m) * g
                    v2[n][kk] = b2m * v2[n][kk] + (1 - b2m) * g * g
                    p[n][kk] -= (rate * (m[n][kk] / c1) / (np.sqrt(v2[n][kk] / c2) + eps)).astype(
                        np.float32)
        cur = Network(p["w1"], p["b1"], p["w2"], p["b2"], dict(net.meta))
        info = f"lr {rate:.2e}  train loss {dataset_loss(cur, x, t, k):.5f}"
        if holdout is not None:
            hl = dataset_loss(cur, *holdout)
            info += f"  held-out loss {hl:.5f}"
            if hl < best_loss:
                best_loss, best, best_epoch = hl, cur.copy(), ep
        else:
            best, best_epoch = cur.copy(), ep
        if progress is not None:
            progress(Progress("epoch", ep, epochs, time.perf_counter() - t0, info))
    return best, best_epoch


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


def split_holdout(
    net: Network, boards: np.ndarray, targets: np.ndarray, holdout: float, seed: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Encode ``boards`` for ``net`` and set a seeded share ``holdout`` of them aside.

    Returns the inputs, each position's net index, the indices of the training positions and
    the held-out ``(inputs, targets, net indices)``: the same split for the same seed.
    """
    x = encode_batch(np.ascontiguousarray(boards))
    k = net_indices(boards, net.nets)
    perm = np.random.default_rng(seed + 7919).permutation(len(boards))
    nh = max(1, int(round(holdout * len(boards))))
    ho, tr = perm[:nh], perm[nh:]
    return x, k, tr, (x[ho], targets[ho], k[ho])


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
    if s.positions < 2:
        raise GammonError("refinement needs at least 2 positions")
    if not 0.0 < s.holdout < 1.0:
        raise GammonError("holdout must be in (0, 1)")
    if s.shard < 1:
        raise GammonError("a shard needs at least 1 position")
    refinable_variant(s.variant)
    net = base if base is not None else load_base(s.base)
    out = Path(out_dir) if out_dir is not None else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    ds_path = out / DATASET_FILE if out is not None else None
    timings: dict[str, float] = {}

    def report(stage: str, done: int, total: int, t0: float, info: str = "") -> None:
        if progress is not None:
            progress(Progress(stage, done, total, time.perf_counter() - t0, info))

    # 1-2. positions and their targets, shard by shard (each shard plays its own seeded games
    # and values its positions), saved as the shards arrive in order.
    t0 = time.perf_counter()
    shards = dataset_shards(s)
    loaded = _load_dataset(ds_path, s) if ds_path is not None else None
    parts_b: list[np.ndarray] = []
    parts_t: list[np.ndarray] = []
    games = 0
    first = 0
    if loaded is not None:
        lb, lt, ldone, lgames = loaded
        # Whole shards already valued; the same settings make the same shards.
        first = min(ldone // s.shard, len(shards))
        if first == len(shards) and ldone >= s.positions:
            n = s.positions
        else:
            n = first * s.shard
        parts_b.append(lb[:n])
        parts_t.append(lt[:n])
        games = lgames
        info = f"from {ds_path} ({n} valued)" if n == s.positions else (
            f"from {ds_path}: {first} of {len(shards)} shards; making the rest")
        report("positions", n, s.positions, t0, info)
    start_done = sum(len(b) for b in parts_b)
    todo = shards[first:] if start_done < s.positions else []
    shared = _ShardJob(net, s.plies, s.epsilon, s.keep, s.prune, s.siblings, s.variant)
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
            parts_b.append(b)
            parts_t.append(t)
            games += g
            nxt += 1
        # Saved as the shards arrive in order, but not more often than every SAVE_EVERY_S
        # seconds (nor than ten times the last save's cost): rewriting a large compressed
        # file after every shard would cost more than the shard.  The last one always saves.
        now = time.perf_counter()
        if ds_path is not None and (nxt == len(todo) or (
                now - saved_at >= max(SAVE_EVERY_S, 10.0 * save_cost))):
            _save_dataset(ds_path, s, np.concatenate(parts_b), np.concatenate(parts_t),
                          sum(len(x) for x in parts_b), games)
            saved_at = time.perf_counter()
            save_cost = saved_at - now
        el = time.perf_counter() - t0
        if el - last < 10.0 and nxt < len(todo):
            continue
        last = el
        rate = max(made - start_done, 1) / max(el, 1e-9)
        report(f"targets ({s.plies}-ply)", made, s.positions, t0,
               f"{1000.0 / max(rate, 1e-9):.2f} ms/position")
    boards = np.concatenate(parts_b) if parts_b else np.zeros((0, 50), dtype=np.uint8)
    targets = np.concatenate(parts_t) if parts_t else np.zeros((0, NUM_OUTPUTS), dtype=np.float32)
    if ds_path is not None and not ds_path.exists():
        _save_dataset(ds_path, s, boards, targets, len(boards), games)
    if todo:
        race = int((net_indices(boards, 2) == 1).sum())
        report("positions", len(boards), s.positions, t0,
               f"{games} games, {len(boards) - race} contact, {race} race")
    timings["data_s"] = time.perf_counter() - t0

    # 3. training.
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

    # 4. metadata and files.
    base_meta = net.meta
    refined.meta = {
        "kind": "supervised refinement on own search targets",
        "variant": s.variant,
        "games": base_meta.get("games"),
        "base": {"path": str(s.base), "games": base_meta.get("games"),
                 "kind": base_meta.get("kind", "td-lambda self-play"),
                 "date": base_meta.get("date")},
        "positions": len(boards),
        "self_play_games": games,
        "target_plies": s.plies,
        "epochs": s.epochs,
        "best_epoch": best_epoch,
        "lr": s.lr,
        "settings": dataclasses.asdict(s),
        "heldout_loss_before": loss_before,
        "heldout_loss_after": loss_after,
        "timings_s": {n: round(v, 2) for n, v in timings.items()},
        "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "command": run_command("refine"),
    }
    if out is not None:
        refined.save(out / "weights.npz")
        tmp = out / "meta.json.tmp"
        tmp.write_text(json.dumps(refined.meta, indent=1, sort_keys=True) + "\n")
        os.replace(tmp, out / "meta.json")
    return Result(refined, loss_before, loss_after, train_before, train_after, best_epoch,
                  timings)


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
    p.add_argument("--ray", action="store_true",
                   help="make the dataset's shards as Ray tasks (a local Ray unless --address)")
    p.add_argument("--address", default=None,
                   help="the Ray cluster to use (auto, HOST:PORT, ray://HOST:PORT); implies --ray")
    p.add_argument("--workers", type=int, default=None,
                   help="workers of a local Ray (default: this machine's cores)")
    a = p.parse_args(argv)
    s = Settings(base=a.base, positions=a.positions, plies=a.plies, epochs=a.epochs, lr=a.lr,
                 batch=a.batch, seed=a.seed, epsilon=a.epsilon, keep=a.keep, holdout=a.holdout,
                 shard=a.shard, prune=a.prune, siblings=a.siblings, variant=a.variant)
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

