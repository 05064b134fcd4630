#!/usr/bin/env python3
"""deep8's held-out comparison: each net's choices in the 6,126 sibling groups that every deep8
fit held out (deep7's rows, whole groups, 2%, seed 66), and the paired differences of regret.

A net's value of a row is its own forward pass (W256's ten candidate inputs are not the
engine's), each row through its net (contact, race, crashed); the choice in a group is the
row worst for the side on roll, the regret the 2-ply target equity given away by it
(:func:`gammon.training.sibling_rank.choice_regrets`).  Run from the repository root with
the two deep7 datasets in ``.gpu/`` and the weights restored from git's history (X2, shipped
until stop 54, in ``training/crashed1/X2/``):

    python training/deep8/heldout_regret.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from features import NUM_FEATURES, features_wide  # noqa: E402

from gammon.ai.encoding import BASE_INPUTS, encode_batch  # noqa: E402
from gammon.training.fitting import _forward, net_indices  # noqa: E402
from gammon.training.refine_fit import dataset_groups, load_datasets  # noqa: E402
from gammon.training.sibling_rank import choice_regrets, split_by_groups  # noqa: E402

DEEP8 = ROOT / "training" / "deep8"
#: name -> (weights, how many candidate inputs it reads: 0, the six or the ten)
NETS = {
    "X2 (shipped)": (ROOT / "training/crashed1/X2/weights.npz", 0),
    "C256": (DEEP8 / "C256/weights.npz", 0),
    "A512": (DEEP8 / "A512/weights.npz", 0),
    "F256": (DEEP8 / "F256/weights_features.npz", NUM_FEATURES),
    "W256": (DEEP8 / "W256/weights_features.npz", 10),
    "F256L": (DEEP8 / "F256L/weights_features.npz", NUM_FEATURES),
}
PAIRS = (("X2 (shipped)", "C256"), ("C256", "A512"), ("C256", "F256"), ("X2 (shipped)", "F256"),
         ("F256", "W256"), ("F256", "F256L"))


def main() -> int:
    boards, targets, records = load_datasets([str(ROOT / ".gpu/s71.npz"), str(ROOT / ".gpu/s72.npz")])
    groups = dataset_groups(boards, records)
    _, ho = split_by_groups(groups, 0.02, 66)
    b = np.ascontiguousarray(boards[ho])
    k = net_indices(b, 3)
    # The inputs before the six (the candidates, the encoder's extra inputs since stop 54), then
    # the ten candidates: the files' own layout (214, 220 or 224 inputs).
    x = encode_batch(b)[:, :BASE_INPUTS].astype(np.float64)
    xf = np.hstack([x, features_wide(b)])
    regrets = {}
    for name, (path, extra) in NETS.items():
        z = np.load(path)
        p = {n: np.asarray(z[n], dtype=np.float64) for n in ("w1", "b1", "w2", "b2")}
        xx = xf[:, :x.shape[1] + extra]
        y = np.zeros((len(b), 5))
        for kk in range(p["w1"].shape[0]):
            sel = k == kk
            y[sel] = _forward(p, kk, xx[sel])[1]
        agree, regret = choice_regrets(y, targets[ho], groups[ho])
        regrets[name] = regret
        print(f"{name}: {len(regret)} groups, best chosen {agree.mean():.4f}, mean regret {regret.mean():.5f}")
    for a, c in PAIRS:
        d = regrets[c] - regrets[a]
        se = d.std(ddof=1) / np.sqrt(len(d))
        print(f"{c} - {a}: regret {d.mean():+.5f} +- {se:.5f} (paired over groups)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
