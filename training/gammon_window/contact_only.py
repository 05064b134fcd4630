#!/usr/bin/env python3
"""A fitted net's contact net (net 0) over the base's race and crashed nets (nets 1, 2), or the
fitted nets named after OUT over the base's others.

gammon_window's fit (``gammon train refine-fit``) trains all three nets, and it moves the race
and crashed nets' weights on the six extra inputs off zero, which would make every race
position compute them (the evaluator skips them for a net that does not read them): the
cube-window rollouts are contact positions, so only the contact net is kept.  The closeout
round (``training/closeout``) keeps the fitted contact and crashed nets as well (``0 2``): about
a third of its rollouts are crashed positions.

    python training/gammon_window/contact_only.py BASE.npz FITTED.npz OUT.npz [NET ...]
"""

from __future__ import annotations

import json
import sys

import numpy as np


def main(base_path: str, fitted_path: str, out_path: str, nets: tuple[int, ...] = (0,)) -> int:
    base, fitted = np.load(base_path), np.load(fitted_path)
    arrays = {k: base[k].copy() for k in ("w1", "b1", "w2", "b2")}
    for k in arrays:
        for n in nets:
            arrays[k][n] = fitted[k][n]
    meta = json.loads(str(fitted["meta"]))
    meta["kind"] = (f"contact net of {fitted_path} over the race and crashed nets of {base_path}"
                    if nets == (0,) else f"nets {list(nets)} of {fitted_path} over the others of {base_path}")
    np.savez(out_path, **arrays, meta=np.array(json.dumps(meta)))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4], nets=tuple(int(n) for n in sys.argv[4:]) or (0,)))
