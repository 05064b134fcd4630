#!/usr/bin/env python3
"""``gammon train refine-fit --rank-weight W`` in PyTorch (on a GPU, or on the CPU), within a time budget.

The same fit as :func:`gammon.training.fitting.fit` (minibatch Adam on the mean binary
cross-entropy of the five sigmoid outputs, plus ``--rank-weight`` times the mean squared
equity error of each row measured from its sibling group's mean in the batch; whole groups
shuffled per epoch and whole groups held out; the epoch kept is the one best on the held-out
cross-entropy plus the same term), with two differences made for a lent GPU machine (and
useful on the CPU too):

* ``--budget`` seconds instead of a number of epochs: the step size falls geometrically from
  ``--lr`` to ``--lr-end`` over the budget (by the time spent, step by step), and the fit
  stops when the budget is spent, so a run of unknown speed still ends on the small steps;
* ``--train-nets``: only these nets learn (default: the contact net, 0); the others keep
  their weights (their rows still count in their groups' means).

The data are prepared with the package's own functions (:mod:`gammon.training.refine_fit`'s
datasets and groups, :func:`gammon.ai.encoding.encode_batch`, the net of each row), so only
the arithmetic of the fit runs in PyTorch; the result is an ordinary weights file
(:meth:`gammon.ai.network.Network.save`) with its settings and per-epoch log in its meta.
PyTorch is needed only here (it is no dependency of gammon): the device machine has it.

    python training/torch_fit.py --base src/gammon/ai/data/weights-standard-0ply.npz \
        --data A.npz B.npz --out OUT --hidden 512 --budget 300 --lr 1e-3 --lr-end 1e-5
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from gammon.ai.encoding import encode_batch  # noqa: E402
from gammon.ai.network import Network  # noqa: E402
from gammon.training.fitting import net_indices  # noqa: E402
from gammon.training.refine_fit import dataset_groups, load_datasets  # noqa: E402
from gammon.training.sibling_rank import EQUITY_WEIGHTS, ranking_figures, split_by_groups  # noqa: E402


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--base", required=True)
    p.add_argument("--data", nargs="+", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--hidden", type=int, default=None, help="widen the base nets to this many units first")
    p.add_argument("--budget", type=float, required=True, help="seconds of fitting")
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--lr-end", type=float, default=1e-5)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--rank-weight", type=float, default=10.0)
    p.add_argument("--holdout", type=float, default=0.02)
    p.add_argument("--seed", type=int, default=66)
    p.add_argument("--train-nets", default="0", help="comma-separated nets that learn")
    p.add_argument("--rows", type=int, default=0,
                   help="use only the first ROWS rows (0: all; for a smoke test)")
    p.add_argument("--device", default="cuda")
    p.add_argument("--wide", action="store_true",
                   help="append the four more candidate inputs of training/deep8/features.py's "
                        "features_wide (zero weights at the start); the result is measured here and saved "
                        "as weights_features.npz, which the engine cannot load")
    return p


def main(argv: list[str] | None = None) -> int:
    import torch

    a = _parser().parse_args(argv)
    t0 = time.perf_counter()
    dev = torch.device(a.device if a.device != "cuda" or torch.cuda.is_available() else "cpu")
    torch.manual_seed(a.seed)
    net = Network.load(a.base)
    base_hidden = net.hidden
    if a.hidden:
        net = net.widened(a.hidden, seed=a.seed)
    boards, targets, records = load_datasets(a.data)
    if a.rows:
        boards, targets = boards[:a.rows], targets[:a.rows]
        records = [{**records[0], "positions": len(boards)}]
    groups = dataset_groups(boards, records)
    tr, ho = split_by_groups(groups, a.holdout, a.seed)
    k = net_indices(boards, net.nets).astype(np.int64)
    # Every input of the encoder, the extra ones included: a base net made without them reads
    # them with zero weights, so the fit starts from the base's function (as deep8's F256 did).
    x = encode_batch(np.ascontiguousarray(boards))
    extra = 0
    if a.wide:
        sys.path.insert(0, str(ROOT / "training" / "deep8"))
        from features import NUM_FEATURES, features_wide  # candidates beyond the encoder's

        f = features_wide(np.ascontiguousarray(boards))[:, NUM_FEATURES:]
        extra = f.shape[1]
        x = np.hstack([x, f])
        print(f"features: {extra} more inputs, means {np.round(f.mean(axis=0), 4).tolist()}", flush=True)
    n_ho, agree0, regret0 = ranking_figures(net.evaluate_boards(boards[ho]), targets[ho], groups[ho])
    print(f"data: {len(boards)} rows ({[int((k == i).sum()) for i in range(net.nets)]} by net), "
          f"{len(tr)} train, {len(ho)} held out ({n_ho} groups; base picks the target's best in "
          f"{agree0:.4f}, regret {regret0:.5f}); device {dev}; {time.perf_counter() - t0:.1f}s", flush=True)

    train_nets = sorted({int(s) for s in a.train_nets.split(",")})
    f32 = {"dtype": torch.float32, "device": dev}
    w1_start = net.w1 if not extra else np.concatenate(
        [net.w1, np.zeros((net.nets, extra, net.hidden), dtype=net.w1.dtype)], axis=1)
    w1 = torch.tensor(w1_start, **f32)
    b1 = torch.tensor(net.b1, **f32)
    w2 = torch.tensor(net.w2, **f32)
    b2 = torch.tensor(net.b2, **f32)
    mask = torch.zeros(net.nets, **f32)
    mask[train_nets] = 1.0
    params = [w1, b1, w2, b2]
    for p in params:
        p.requires_grad_(True)
    opt = torch.optim.Adam(params, lr=a.lr, betas=(0.9, 0.999), eps=1e-8)
    ew = torch.tensor(EQUITY_WEIGHTS, **f32)
    X = torch.tensor(x, **f32)
    T = torch.tensor(targets, **f32)
    K = torch.tensor(k, device=dev)
    G = torch.tensor(groups, device=dev)

    def logits(idx: torch.Tensor) -> torch.Tensor:
        """The output logits of each row's own net.  On a GPU every net is computed for every
        row and each row's taken (no wait for the host); on the CPU each net's rows only."""
        xb = X[idx]
        if dev.type == "cuda":
            h = torch.sigmoid(torch.einsum("ni,kih->knh", xb, w1) + b1[:, None, :])
            z = torch.einsum("knh,kho->kno", h, w2) + b2[:, None, :]
            return z[K[idx], torch.arange(len(idx), device=dev)]
        kb = K[idx]
        out = torch.empty((len(idx), w2.shape[2]), **f32)
        for kk in range(w1.shape[0]):
            sel = (kb == kk).nonzero(as_tuple=True)[0]
            if len(sel):
                out = out.index_put((sel,), torch.sigmoid(xb[sel] @ w1[kk] + b1[kk]) @ w2[kk] + b2[kk])
        return out

    def residual_sq(e: torch.Tensor, te: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
        """Squared equity errors from each group's mean over the rows given (rows of a group
        are consecutive)."""
        seg = torch.cat([torch.zeros(1, dtype=torch.int64, device=dev), torch.cumsum(g[1:] != g[:-1], 0)])
        d = e - te
        s = torch.zeros(len(d), **f32).index_add_(0, seg, d)  # at most one segment a row: no sync
        c = torch.zeros(len(d), **f32).index_add_(0, seg, torch.ones_like(d)).clamp(min=1.0)
        r = d - (s / c)[seg]
        return r * r

    ho_t = torch.tensor(ho[np.argsort(groups[ho], kind="stable")], device=dev)

    def heldout_probs() -> torch.Tensor:
        """This fit's outputs for the held-out rows (in ``ho_t``'s order)."""
        with torch.no_grad():
            return torch.cat([torch.sigmoid(logits(ho_t[s:s + 65536])) for s in range(0, len(ho_t), 65536)])

    def held_out() -> tuple[float, float]:
        """(cross-entropy, cross-entropy + W mean r^2) on the held-out rows."""
        y = heldout_probs()
        t = T[ho_t]
        yc = y.clamp(1e-7, 1 - 1e-7)
        ce = float(-(t * torch.log(yc) + (1 - t) * torch.log(1 - yc)).mean())
        rs = float(residual_sq(y @ ew, t @ ew, G[ho_t]).mean())
        return ce, ce + a.rank_weight * rs

    def torch_figures() -> tuple[int, float, float]:
        """:func:`ranking_figures` of the held-out rows by this fit's own forward pass (the
        engine cannot value boards with the candidate inputs)."""
        rows = ho_t.cpu().numpy()
        return ranking_figures(heldout_probs().cpu().numpy().astype(np.float64), targets[rows], groups[rows])

    tf0 = torch_figures()
    print(f"held out by the fit's forward pass: {tf0[0]} groups, best chosen {tf0[1]:.4f}, regret {tf0[2]:.5f}",
          flush=True)
    ce0, best_loss = held_out()
    best = [p.detach().clone() for p in params]
    best_epoch, epoch, step = 0, 0, 0
    log = [{"epoch": 0, "heldout_ce": ce0, "heldout_loss": best_loss}]
    print(f"epoch 0: held-out cross-entropy {ce0:.5f}, with the ranking term {best_loss:.5f}", flush=True)
    rng = np.random.default_rng(a.seed)
    _, inv = np.unique(groups[tr], return_inverse=True)
    start = time.perf_counter()
    spent = 0.0
    while spent < a.budget:
        epoch += 1
        order = tr[np.argsort(rng.permutation(int(inv.max()) + 1)[inv], kind="stable")]
        order_t = torch.tensor(order, device=dev)
        for s in range(0, len(order_t), a.batch):
            frac = min(1.0, (time.perf_counter() - start) / a.budget)
            rate = a.lr * (a.lr_end / a.lr) ** frac
            for pg in opt.param_groups:
                pg["lr"] = rate
            idx = order_t[s:s + a.batch]
            z = logits(idx)
            t = T[idx]
            loss = torch.nn.functional.binary_cross_entropy_with_logits(z, t)
            if a.rank_weight > 0:
                loss = loss + a.rank_weight * residual_sq(torch.sigmoid(z) @ ew, t @ ew, G[idx]).mean()
            opt.zero_grad(set_to_none=True)
            loss.backward()
            for p in params:  # the frozen nets keep their weights
                assert p.grad is not None
                p.grad.mul_(mask.view(-1, *([1] * (p.dim() - 1))))
            opt.step()
            step += 1
        spent = time.perf_counter() - start
        ce, hl = held_out()
        log.append({"epoch": epoch, "seconds": round(spent, 1), "lr": rate, "heldout_ce": ce,
                    "heldout_loss": hl})
        mark = ""
        if hl < best_loss:
            best_loss, best_epoch, mark = hl, epoch, "  (best)"
            best = [p.detach().clone() for p in params]
        print(f"epoch {epoch}: {spent:.0f}s, lr {rate:.2e}, held-out cross-entropy {ce:.5f}, "
              f"with the ranking term {hl:.5f}{mark}", flush=True)

    for p, v in zip(params, best, strict=True):
        with torch.no_grad():
            p.copy_(v)
    tf1 = torch_figures()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    summary = (f"held out by the fit's forward pass: best chosen {tf0[1]:.4f} -> {tf1[1]:.4f}, "
               f"regret {tf0[2]:.5f} -> {tf1[2]:.5f}")
    if extra:
        w1n, b1n, w2n, b2n = (p.detach().cpu().numpy().astype(np.float32) for p in best)
        np.savez(out / "weights_features.npz", w1=w1n, b1=b1n, w2=w2n, b2=b2n,
                 meta=np.array(json.dumps({"settings": vars(a), "log": log, "best_epoch": best_epoch,
                                           "heldout_torch": [tf0, tf1]})))
        print(f"done: best epoch {best_epoch} of {epoch} ({step} steps); {summary}; "
              f"{out / 'weights_features.npz'}", flush=True)
        return 0
    # The frozen nets' gradients were zero throughout, so Adam never moved them; taken from the
    # base all the same, so that their weights stay bit for bit.
    w1n, b1n, w2n, b2n = (p.cpu().numpy().astype(np.float32) for p in best)
    for kk in range(net.nets):
        if kk not in train_nets:
            w1n[kk], b1n[kk], w2n[kk], b2n[kk] = net.w1[kk], net.b1[kk], net.w2[kk], net.b2[kk]
    out_net = Network(w1n, b1n, w2n, b2n, dict(net.meta))
    n_ho, agree1, regret1 = ranking_figures(out_net.evaluate_boards(boards[ho]), targets[ho], groups[ho])
    out_net.meta = {
        **net.meta,
        "kind": "supervised refinement on own search targets (GPU fit, training/torch_fit.py)",
        "base": {"path": a.base, "games": net.meta.get("games"), "kind": net.meta.get("kind")},
        "base_hidden": base_hidden, "hidden": out_net.hidden, "settings": vars(a),
        "datasets": records, "positions": len(boards), "best_epoch": best_epoch, "epochs": epoch,
        "steps": step, "log": log,
        "heldout_groups": n_ho, "heldout_agree": [agree0, agree1], "heldout_regret": [regret0, regret1],
        "heldout_torch": [tf0, tf1],
        "date": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()),
    }
    out_net.save(out / "weights.npz")
    (out / "meta.json").write_text(json.dumps(out_net.meta, indent=1, sort_keys=True) + "\n")
    print(f"done: best epoch {best_epoch} of {epoch} ({step} steps); held-out groups: picks the target's best "
          f"{agree0:.4f} -> {agree1:.4f}, regret {regret0:.5f} -> {regret1:.5f}; {summary}; "
          f"{out / 'weights.npz'}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
