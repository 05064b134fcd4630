#!/usr/bin/env python3
"""A fitted net's chosen nets (0: contact, 1: race, 2: crashed) over the base's others.

``gammon train refine-fit`` trains all three nets; the closeout round keeps the fitted contact
net alone (C1, as ``training/gammon_window/contact_only.py`` does) or its contact and crashed nets
(C1x: about a third of the closeout rollouts are crashed positions), never its race net (races
are valued by their own net and tables; the fit's race rows are only the anchor's).

    python training/closeout/keep_nets.py BASE.npz FITTED.npz OUT.npz 0 2
"""

from __future__ import annotations

import json
import sys

import numpy as np


def main(base_path: str, fitted_path: str, out_path: str, nets: list[int]) -> int:
    base, fitted = np.load(base_path), np.load(fitted_path)
    arrays = {k: base[k].copy() for k in ("w1", "b1", "w2", "b2")}
    for k in arrays:
        for n in nets:
            arrays[k][n] = fitted[k][n]
    meta = json.loads(str(fitted["meta"]))
    meta["kind"] = f"nets {nets} of {fitted_path} over the others of {base_path}"
    np.savez(out_path, **arrays, meta=np.array(json.dumps(meta)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1], sys.argv[2], sys.argv[3], [int(n) for n in sys.argv[4:]]))
