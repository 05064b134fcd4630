"""Does the race net lack inputs?  Its refit with three race inputs per side, beside the same refit without.

Stop 62 refitted the 0-ply net's race net on 140,000 of its own race rollouts (``r91``, ``r92``)
and it stopped at about 0.031 equity RMS from 1,000 held-out variance-reduced rollouts (``r9``),
where GNU Backgammon's race evaluation is at 0.0085; twice the rows or more epochs did not move
it, so the inputs were suspected.  In a race the six extra inputs (:mod:`gammon.ai.encoding`:
blots' pip loss, double shots, containment) mean nothing and the shipped race net reads none of
them, so this puts in their slots, for each side, what decides a race's gammons: whether it has
borne off a checker (a gammon against it is then impossible), the pips its checkers still need
to come home (to its point 6), and its crossovers (quadrants to cross, summed over checkers).

Both refits start from the same weights (the new inputs' weights at zero), see the same rows in
the same order and keep their best epoch on the same 2,000 held-out training rows; then both are
scored on ``r9``: cubeless equity against the rollouts (mean absolute, RMS) and each
probability's RMS.  Numpy only: nothing in the engine changes.

    python training/rollout1/race_inputs.py [EPOCHS] [LR]   (default 4 3e-4; about 30 s a fit)

``targets`` instead checks the held-out targets themselves: the first 300 rows of ``r9`` rolled
out again by the 0-ply net, 1,296 trials plain and 1,296 with variance reduction, each against
the stored 72-trial variance-reduced targets (about 3 minutes): a bias there, not the inputs,
would explain a net that stops short of them.

    python training/rollout1/race_inputs.py targets
"""

from __future__ import annotations

import copy
import sys
import time

import numpy as np

from gammon.ai.encoding import OFF_EXTRAS, encode_batch
from gammon.ai.network import RACE, Network
from gammon.ai.probabilities import equities
from gammon.training.fitting import _outputs, fit, net_indices
from gammon.training.refine_fit import load_datasets

DATA = "training/rollout1-data"
G1C = "src/gammon/ai/data/weights-standard-0ply.npz"


def race_inputs(boards: np.ndarray) -> np.ndarray:
    """``(n, 6)``: per side (on roll first) any checker off (0/1), pips to come home / 50,
    crossovers / 20."""
    b = np.asarray(boards, dtype=np.int64)
    out = np.zeros((len(b), 6), dtype=np.float32)
    point = np.arange(24)  # index i is the side's point i + 1
    for s in range(2):
        side = b[:, 25 * s: 25 * s + 25]
        out[:, 3 * s] = side.sum(1) < 15
        out[:, 3 * s + 1] = (side[:, :24] * np.maximum(point - 5, 0)).sum(1) / 50.0
        out[:, 3 * s + 2] = (side[:, :24] * (point // 6)).sum(1) / 20.0
    return out


def inputs(boards: np.ndarray, new: bool) -> np.ndarray:
    x = encode_batch(np.ascontiguousarray(boards))
    if new:
        x[:, OFF_EXTRAS:OFF_EXTRAS + 6] = race_inputs(boards)
    return x


def scored(name: str, net: Network, x: np.ndarray, t: np.ndarray, k: np.ndarray) -> str:
    y = _outputs(net, x, k).astype(np.float64)
    e = equities(y) - equities(t.astype(np.float64))
    per = np.sqrt(((y - t) ** 2).mean(0))
    return (f"{name}: equity mean abs {np.abs(e).mean():.4f} RMS {np.sqrt((e * e).mean()):.4f}; "
            f"RMS by probability (win wg wbg lg lbg) {' '.join(f'{v:.4f}' for v in per)}")


def targets_check() -> int:
    from gammon.ai.bearoff import load as load_bearoff
    from gammon.ai.evaluator import ClassifyingEvaluator
    from gammon.training.lopsided import rollout_targets

    b, t, _ = load_datasets([f"{DATA}/r9/dataset.npz"])
    b, t = b[:300], t[:300].astype(np.float64)
    ev = ClassifyingEvaluator(Network.load(G1C), load_bearoff())
    t0 = time.perf_counter()
    plain = rollout_targets(ev, b, 1296, seed=777).astype(np.float64)
    vr = rollout_targets(ev, b, 1296, seed=999, variance_reduction=True).astype(np.float64)
    print(f"300 positions of r9, 1,296 trials each way, {time.perf_counter() - t0:.0f} s")
    for name, a, ref in (("plain 1,296 - r9", plain, t), ("variance-reduced 1,296 - r9", vr, t),
                         ("plain - variance-reduced", plain, vr)):
        e = equities(a) - equities(ref)
        d = a - ref
        means = " ".join(f"{v:+.4f}" for v in d.mean(0))
        spreads = " ".join(f"{v:.4f}" for v in np.sqrt((d * d).mean(0)))
        print(f"{name}: equity mean {e.mean():+.4f} RMS {np.sqrt((e * e).mean()):.4f}; by probability mean "
              f"{means} RMS {spreads}")
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["targets"]:
        return targets_check()
    epochs = int(argv[0]) if argv else 4
    lr = float(argv[1]) if len(argv) > 1 else 3e-4
    btr, ttr, _ = load_datasets([f"{DATA}/r91/dataset.npz", f"{DATA}/r92/dataset.npz"])
    bho, tho, _ = load_datasets([f"{DATA}/r9/dataset.npz"])
    base = Network.load(G1C)
    if np.abs(base.w1[RACE, OFF_EXTRAS:OFF_EXTRAS + 6]).max() != 0:
        print("error: the base race net reads the extra inputs", file=sys.stderr)
        return 2
    ktr, kho = net_indices(btr, base.nets), net_indices(bho, base.nets)
    print(f"rows: {len(btr)} training ({np.mean(ktr == RACE):.3f} race), {len(bho)} held out "
          f"({np.mean(kho == RACE):.3f} race); {epochs} epochs from {lr:g} to 1e-05")
    perm = np.random.default_rng(5).permutation(len(btr))
    hold, train = perm[:2000], perm[2000:]
    for new in (False, True):
        label = "with race inputs" if new else "as shipped"
        xtr, xho = inputs(btr, new), inputs(bho, new)
        if not new:
            print(scored("base (G1c)", base, xho, tho, kho))
        t0 = time.perf_counter()
        net, best = fit(copy.deepcopy(base), xtr[train], ttr[train], ktr[train], epochs=epochs, lr=lr,
                        lr_end=1e-5, batch=256, seed=62, holdout=(xtr[hold], ttr[hold], ktr[hold]))
        took = time.perf_counter() - t0
        print(scored(f"refit {label} (best epoch {best}, {took:.0f} s)", net, xho, tho, kho))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
