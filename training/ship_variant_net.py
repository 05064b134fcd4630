#!/usr/bin/env python3
"""Ship a variant run's checkpoint as the package's net for that variant.

Usage: python training/ship_variant_net.py training/<variant> [--result "RESULT line"]

The run is a TD self-play directory (``checkpoint.npz``) or a supervised refinement's
(``weights.npz`` of ``gammon.ai.refine_fit`` on one variant's datasets); the variant is
the one its metadata names.

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
    source = run / "checkpoint.npz"
    if not source.exists():
        source = run / "weights.npz"
    net = Network.load(source)
    variant = net.meta.get("variant")
    if variant not in VARIANT_NETS:
        raise SystemExit(f"error: {source} is not a variant's net (its variant: {variant!r})")
    name = VARIANT_NETS[variant]
    base = net.meta.get("base")
    base_path = base.get("path") if isinstance(base, dict) else base
    init = ("the shipped standard net (src/gammon/ai/data/weights.npz) at the run's start"
            if source.name == "checkpoint.npz" else f"refined from {base_path}")
    meta = {
        "variant": variant,
        "kind": net.meta.get("kind"),
        "games": net.meta.get("games"),
        "inputs": int(net.w1.shape[1]),
        "hidden": int(net.w1.shape[2]),
        "nets": int(net.w1.shape[0]),
        "settings": net.meta.get("settings"),
        "date": net.meta.get("date"),
        "source": f"training/{run.name}/{source.name}",
        "init": init,
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
