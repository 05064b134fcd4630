#!/usr/bin/env python3
"""Ship a variant run's checkpoint as the package's net for that variant.

Usage: python training/ship_variant_net.py training/<variant> [--result "RESULT line"]

Writes ``src/gammon/ai/data/weights-<net>.npz`` (the weights, without the
generator state) and ``weights-<net>.json`` (variant, games trained, input
size, settings, the run it came from, and the benchmark result when given).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from gammon.ai.network import Network
from gammon.ai.variant_nets import VARIANT_NETS

DATA = Path(__file__).resolve().parent.parent / "src" / "gammon" / "ai" / "data"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run")
    ap.add_argument("--result", default=None)
    a = ap.parse_args()
    run = Path(a.run)
    net = Network.load(run / "checkpoint.npz")
    variant = net.meta["variant"]
    name = VARIANT_NETS[variant]
    meta = {
        "variant": variant,
        "kind": net.meta.get("kind"),
        "games": net.meta.get("games"),
        "inputs": int(net.w1.shape[1]),
        "hidden": int(net.w1.shape[2]),
        "nets": int(net.w1.shape[0]),
        "settings": net.meta.get("settings"),
        "date": net.meta.get("date"),
        "source": f"training/{run.name}/checkpoint.npz",
        "init": "the shipped standard net (src/gammon/ai/data/weights.npz) at the run's start",
    }
    if a.result:
        meta["benchmark"] = a.result
    shipped = Network(net.w1, net.b1, net.w2, net.b2, meta)
    shipped.save(DATA / f"weights-{name}.npz")
    (DATA / f"weights-{name}.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    print(f"shipped {run} ({meta['games']} games) as weights-{name}.npz")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
