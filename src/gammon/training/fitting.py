"""Supervised training of a net on valued positions: Adam on the cross-entropy (numpy).

The training step of every refinement stage (:mod:`gammon.training.refine`,
:mod:`gammon.training.refine_fit`, :mod:`gammon.training.lopsided`): the
positions are encoded (:func:`split_holdout`, :func:`net_indices`), each
goes to its net (0 contact, 1 race), and :func:`fit` moves the weights by
minibatch Adam on the binary cross-entropy of the five sigmoid outputs
against the targets, keeping the epoch with the lowest held-out loss.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from gammon.ai.encoding import encode_batch
from gammon.ai.network import NUM_OUTPUTS, Network
from gammon.ai.network import net_indices as kernel_net_indices
from gammon.core.errors import GammonError
from gammon.training.sibling_rank import EQUITY_WEIGHTS, group_residuals


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


def net_indices(boards: np.ndarray, nets: int) -> np.ndarray:
    """Which net values each board: 0 contact, 1 race (0 with a single net), 2 crashed (with a
    third net): :func:`gammon.ai.network.net_index`."""
    out: np.ndarray = kernel_net_indices(np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, 50), nets)
    return out


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


def _outputs(net: Network, x: np.ndarray, k: np.ndarray) -> np.ndarray:
    """``net``'s outputs ``(n, 5)`` for inputs ``x``, each row through its net ``k``."""
    p = {"w1": net.w1, "b1": net.b1, "w2": net.w2, "b2": net.b2}
    y = np.zeros((len(x), NUM_OUTPUTS), dtype=np.float32)
    for kk in range(net.nets):
        sel = k == kk
        if sel.any():
            y[sel] = _forward(p, kk, x[sel])[1]
    return y


def dataset_loss(net: Network, x: np.ndarray, t: np.ndarray, k: np.ndarray) -> float:
    """Mean cross-entropy of ``net`` on inputs ``x`` with targets ``t``, net per row ``k``."""
    return cross_entropy(_outputs(net, x, k), t)


def ranked_loss(net: Network, x: np.ndarray, t: np.ndarray, k: np.ndarray, groups: np.ndarray,
                rank_weight: float) -> float:
    """:func:`dataset_loss` plus ``rank_weight`` times the mean squared equity error measured
    from each group's mean (:func:`~gammon.training.sibling_rank.group_residuals`)."""
    if len(x) == 0:
        return 0.0
    y = _outputs(net, x, k)
    r = group_residuals(y @ EQUITY_WEIGHTS, t @ EQUITY_WEIGHTS, groups)
    return cross_entropy(y, t) + rank_weight * float(np.mean(r * r))


def _batches(rng: np.random.Generator, n: int, batch: int, groups: np.ndarray | None) -> list[np.ndarray]:
    """One epoch's minibatches of row indices: rows shuffled, or with ``groups`` whole groups
    shuffled and their rows kept together (a group may still straddle two batches)."""
    if groups is None:
        order = rng.permutation(n)
    else:
        _, inv = np.unique(groups, return_inverse=True)
        order = np.argsort(rng.permutation(int(inv.max()) + 1)[inv], kind="stable")
    return [order[s:s + batch] for s in range(0, n, batch)]


def fit(net: Network, x: np.ndarray, t: np.ndarray, k: np.ndarray, *, epochs: int, lr: float,
        batch: int, seed: int, holdout: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
        progress: Callable[[Progress], None] | None = None,
        lr_end: float | None = None, groups: np.ndarray | None = None,
        rank_weight: float = 0.0, holdout_groups: np.ndarray | None = None) -> tuple[Network, int]:
    """Adam on the cross-entropy, from ``net``'s weights; returns (net, best epoch).

    With a ``holdout`` (x, t, k) the weights of the epoch with the lowest
    held-out loss are returned (epoch 0: the starting weights).  With ``lr_end``
    the step size falls geometrically from ``lr`` (first epoch) to ``lr_end``
    (last epoch); without it every epoch uses ``lr``.

    With ``groups`` (a sibling group per row, :func:`gammon.training.sibling_rank.sibling_groups`)
    and ``rank_weight`` > 0 the loss adds ``rank_weight`` times the mean squared error of each
    row's equity measured from its group's mean in the batch
    (:func:`~gammon.training.sibling_rank.group_residuals`): the differences a 0-ply net
    chooses its plays by.  With ``holdout_groups`` too (the held-out rows' groups) the epoch
    kept is the one with the lowest held-out cross-entropy plus the same ranking term
    (:func:`ranked_loss`); otherwise the held-out loss stays the cross-entropy.
    """
    if lr_end is not None and (lr_end <= 0 or lr <= 0):
        raise GammonError("step sizes must be above 0")
    if rank_weight < 0 or (rank_weight > 0 and (groups is None or len(groups) != len(x))):
        raise GammonError("a ranking term needs a weight of 0 or more and a group for every row")
    ranked = rank_weight > 0
    p = {n: np.array(getattr(net, n), dtype=np.float32) for n in ("w1", "b1", "w2", "b2")}
    m = {n: np.zeros_like(v) for n, v in p.items()}
    v2 = {n: np.zeros_like(v) for n, v in p.items()}
    b1m, b2m, eps = 0.9, 0.999, 1e-8
    rng = np.random.default_rng(seed)
    step = 0
    best = net.copy()
    best_epoch = 0
    def held_out(cur: Network) -> float:
        assert holdout is not None
        if ranked and holdout_groups is not None:
            return ranked_loss(cur, *holdout, holdout_groups, rank_weight)
        return dataset_loss(cur, *holdout)

    best_loss = held_out(net) if holdout is not None else float("inf")
    t0 = time.perf_counter()
    for ep in range(1, epochs + 1):
        rate = lr if lr_end is None or epochs < 2 else lr * (lr_end / lr) ** ((ep - 1) / (epochs - 1))
        for idx in _batches(rng, len(x), batch, groups if ranked else None):
            step += 1
            grads = {n: np.zeros_like(v) for n, v in p.items()}
            touched = []
            passes = []
            for kk in range(net.nets):
                sel = idx[k[idx] == kk]
                if len(sel) == 0:
                    continue
                touched.append(kk)
                h, y = _forward(p, kk, x[sel])
                passes.append((kk, sel, h, y))
            if ranked:
                assert groups is not None
                rows = np.concatenate([sel for _, sel, _, _ in passes])
                ys = np.concatenate([y for _, _, _, y in passes])
                res = group_residuals(ys @ EQUITY_WEIGHTS, t[rows] @ EQUITY_WEIGHTS, groups[rows])
                # d(rank_weight * mean r^2)/d(equity) = 2 rank_weight r / rows of the batch.
                grad_e = (2.0 * rank_weight / len(idx)) * res
            start = 0
            for kk, sel, h, y in passes:
                xb, tb = x[sel], t[sel]
                # d(mean BCE)/d(logit) = (y - t) / (outputs * rows), rows of the whole batch.
                dz2 = (y - tb) / (NUM_OUTPUTS * len(idx))
                if ranked:
                    ge = grad_e[start:start + len(sel)]  # the passes' rows, in order
                    dz2 = dz2 + (ge[:, None] * EQUITY_WEIGHTS[None, :] * y * (1.0 - y)).astype(np.float32)
                start += len(sel)
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
            hl = held_out(cur)
            info += f"  held-out loss {hl:.5f}"
            if ranked and holdout_groups is not None:
                info += f" (cross-entropy {dataset_loss(cur, *holdout):.5f})"
            if hl < best_loss:
                best_loss, best, best_epoch = hl, cur.copy(), ep
        else:
            best, best_epoch = cur.copy(), ep
        if progress is not None:
            progress(Progress("epoch", ep, epochs, time.perf_counter() - t0, info))
    return best, best_epoch


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
