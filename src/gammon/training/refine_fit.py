"""Train a net on one or more refinement datasets already made (supervised, our own targets).

:mod:`gammon.training.refine` makes a dataset (self-play positions and our own
search's values of them) and trains on it in one run.  This module is the
training step alone, over several datasets at once: datasets made by
separate processes (each with its own seed, one per core) or stopped part
way (a dataset holds whole shards; only the ``done`` rows count).  It trains
from ``--base`` exactly as :func:`gammon.training.fitting.fit` does (Adam on the
cross-entropy, the epoch with the lowest held-out loss kept) and saves
``DIR/weights.npz`` and ``DIR/meta.json`` with the datasets' settings.

Run ``gammon train refine-fit --base W --data A/dataset.npz B/dataset.npz
--out DIR [--epochs E] [--lr LR] [--seed S] [--holdout H]``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from gammon.ai.network import CRASHED, NUM_OUTPUTS, RACE, Network, crashed_rows_mask
from gammon.core.errors import GammonError
from gammon.training.fitting import Progress, dataset_loss, fit, split_holdout, target_entropy
from gammon.training.runs import run_command
from gammon.training.sibling_rank import ranking_figures, sibling_groups, split_by_groups


def load_datasets(paths: list[str]) -> tuple[np.ndarray, np.ndarray, list[dict[str, Any]]]:
    """The valued boards ``(n, 50)`` and targets ``(n, 5)`` of the datasets, and each one's record."""
    boards: list[np.ndarray] = []
    targets: list[np.ndarray] = []
    records: list[dict[str, Any]] = []
    for p in paths:
        if not Path(p).is_file():
            raise GammonError(f"no dataset at {p}")
        try:
            z = np.load(p, allow_pickle=False)
        except (OSError, ValueError, zipfile.BadZipFile) as exc:
            raise GammonError(f"{p} is not a refinement dataset ({exc})") from exc
        with z:
            missing = {"boards", "targets", "done", "key"} - set(z.files)
            if missing:
                raise GammonError(f"{p} is not a refinement dataset (missing {sorted(missing)})")
            done = int(z["done"])
            b = np.array(z["boards"][:done], dtype=np.uint8)
            t = np.array(z["targets"][:done], dtype=np.float32)
            if b.shape[1:] != (50,) or t.shape[1:] != (NUM_OUTPUTS,) or len(b) != len(t):
                raise GammonError(f"{p}: boards and targets do not match")
            records.append({"path": str(p), "positions": done,
                            "games": int(z["games"]) if "games" in z.files else None,
                            "key": json.loads(str(z["key"]))})
        boards.append(b)
        targets.append(t)
    if not boards:
        raise GammonError("no datasets given")
    return np.concatenate(boards), np.concatenate(targets), records


def dataset_groups(boards: np.ndarray, records: list[dict[str, Any]]) -> np.ndarray:
    """Sibling groups of the concatenated datasets' rows, never one group across two datasets."""
    out, start, offset = [], 0, 0
    for r in records:
        g = sibling_groups(boards[start:start + r["positions"]]) + offset
        out.append(g)
        start += r["positions"]
        offset = int(g.max()) + 1 if len(g) else offset
    return np.concatenate(out) if out else np.zeros(0, dtype=np.int64)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gammon train refine-fit",
                                description=__doc__.split("\n")[0])
    p.add_argument("--base", required=True, help="weights to start from")
    p.add_argument("--data", nargs="+", required=True, help="dataset.npz files of gammon.training.refine")
    p.add_argument("--out", required=True, help="directory for weights.npz and meta.json")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--lr-end", type=float, default=None,
                   help="step size of the last epoch (geometric decay from --lr); default: --lr")
    p.add_argument("--hidden", type=int, default=None,
                   help="widen the base net to this many hidden units first (same outputs)")
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--holdout", type=float, default=0.05)
    p.add_argument("--add-crashed-net", action="store_true",
                   help="give the base (a contact and a race net) a third net for crashed positions, "
                        "a copy of its contact net, before training")
    p.add_argument("--only-crashed", action="store_true",
                   help="train on the datasets' crashed rows alone (gammon.ai.encoding.is_crashed): "
                        "with three nets only the third one learns")
    p.add_argument("--rank-weight", type=float, default=0.0,
                   help="add this weight times the squared error of each sibling's equity from its "
                        "group's mean (gammon.training.sibling_rank); whole groups are held out")
    return p


def _start(a: argparse.Namespace) -> tuple[Network, int, np.ndarray, np.ndarray, list[dict[str, Any]]]:
    """The net to train (widened with ``--hidden``), the base's hidden units, and the datasets.

    :raises GammonError: settings out of range, weights or datasets that cannot be read.
    """
    if not 0.0 < a.holdout < 1.0:
        raise GammonError("holdout must be in (0, 1)")
    if a.epochs < 1:
        raise GammonError("epochs must be at least 1")
    if not 0.0 <= a.rank_weight <= 1000.0:
        raise GammonError("--rank-weight must be from 0 to 1000")
    net = Network.load(a.base)
    base_hidden = net.hidden
    if a.hidden is not None:
        net = net.widened(a.hidden, seed=a.seed)
    if a.add_crashed_net:
        net = net.with_crashed_net()
    boards, targets, records = load_datasets(a.data)
    if a.only_crashed:
        boards, targets, records = crashed_rows(boards, targets, records)
    return net, base_hidden, boards, targets, records


def crashed_rows(boards: np.ndarray, targets: np.ndarray, records: list[dict[str, Any]],
                 ) -> tuple[np.ndarray, np.ndarray, list[dict[str, Any]]]:
    """The crashed rows of the datasets (:func:`~gammon.ai.network.crashed_rows_mask`),
    in order; each record's ``positions`` becomes its kept rows, so that sibling groups stay
    within one dataset.

    :raises GammonError: no crashed row at all.
    """
    keep = crashed_rows_mask(boards)
    if not keep.any():
        raise GammonError("the datasets hold no crashed positions")
    out, start = [], 0
    for r in records:
        n = int(keep[start:start + r["positions"]].sum())
        out.append({**r, "positions": n, "filter": "crashed rows"})
        start += r["positions"]
    return boards[keep], targets[keep], out


def _metadata(a: argparse.Namespace, base_meta: dict[str, Any], records: list[dict[str, Any]],
              positions: int) -> dict[str, Any]:
    """What the refined weights record of their making (the losses and timing are added by
    :func:`main`)."""
    variants = {str(r["key"].get("variant", "standard")) for r in records}
    variant = variants.pop() if len(variants) == 1 else "mixed: " + ", ".join(sorted(variants))
    plies = sorted({int(r["key"]["plies"]) for r in records if "plies" in r["key"]})
    trials = sorted({int(r["key"]["trials"]) for r in records if "trials" in r["key"]})
    kinds = (["search targets"] if plies else []) + (["rollouts"] if trials else [])
    return {
        "kind": "supervised refinement on own " + (" and ".join(kinds) or "targets"),
        "variant": variant,
        "games": base_meta.get("games"),
        "base": {"path": str(a.base), "games": base_meta.get("games"),
                 "kind": base_meta.get("kind"), "date": base_meta.get("date")},
        "datasets": records,
        "positions": positions,
        # Search targets carry their depth, rollout targets (gammon.training.lopsided) their trials.
        "target_plies": plies,
        "rollout_trials": trials,
        "epochs": a.epochs,
    }


def main(argv: list[str] | None = None) -> int:
    a = _parser().parse_args(argv)
    settings = dict(vars(a))
    print(f"settings: {json.dumps(settings)}", flush=True)
    t0 = time.perf_counter()
    try:
        net, base_hidden, boards, targets, records = _start(a)
    except GammonError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    x, k, tr, hold = split_holdout(net, boards, targets, a.holdout, a.seed)
    groups = None
    if a.rank_weight > 0:
        groups = dataset_groups(boards, records)
        tr, ho = split_by_groups(groups, a.holdout, a.seed)
        hold = (x[ho], targets[ho], k[ho])
        n, agree, regret = ranking_figures(net.evaluate_boards(boards[ho]), targets[ho], groups[ho])
        print(f"held out: {n} sibling groups; the base net picks the target's best in {agree:.3f},"
              f" mean regret {regret:.5f}", flush=True)
    nh = len(hold[0])
    before = dataset_loss(net, *hold)
    floor = target_entropy(hold[1])
    race, crashed = int((k == RACE).sum()), int((k == CRASHED).sum())
    print(f"data: {len(boards)} positions ({len(boards) - race - crashed} contact, {race} race"
          + (f", {crashed} crashed" if net.nets > 2 else "") + ") from"
          f" {len(records)} datasets; {len(tr)} train, {nh} held out; held-out loss {before:.5f}"
          f" (targets' own entropy {floor:.5f}: excess {before - floor:.5f})"
          f"  {time.perf_counter() - t0:.1f}s", flush=True)

    def show(r: Progress) -> None:
        print(r.line(), flush=True)

    refined, best_epoch = fit(net, x[tr], targets[tr], k[tr], epochs=a.epochs, lr=a.lr,
                              batch=a.batch, seed=a.seed, holdout=hold, progress=show,
                              lr_end=a.lr_end, groups=None if groups is None else groups[tr],
                              rank_weight=a.rank_weight,
                              holdout_groups=None if groups is None else groups[ho])
    after = dataset_loss(refined, *hold)
    if groups is not None:
        n, agree, regret = ranking_figures(refined.evaluate_boards(boards[ho]), targets[ho], groups[ho])
        print(f"held out: {n} sibling groups; the refined net picks the target's best in {agree:.3f},"
              f" mean regret {regret:.5f}", flush=True)
    refined.meta = {
        **_metadata(a, net.meta, records, len(boards)),
        "best_epoch": best_epoch,
        "lr": a.lr,
        "lr_end": a.lr_end,
        "hidden": refined.hidden,
        "base_hidden": base_hidden,
        "settings": settings,
        "heldout_loss_before": before,
        "heldout_loss_after": after,
        "heldout_target_entropy": floor,
        "train_s": round(time.perf_counter() - t0, 2),
        "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "command": run_command("refine-fit", argv),
    }
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    refined.save(out / "weights.npz")
    tmp = out / "meta.json.tmp"
    tmp.write_text(json.dumps(refined.meta, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, out / "meta.json")
    print(f"done: held-out loss {before:.5f} -> {after:.5f}, excess over the targets' entropy"
          f" {before - floor:.5f} -> {after - floor:.5f} (best epoch {best_epoch});"
          f" weights in {out / 'weights.npz'}", flush=True)
    return 0
