#!/usr/bin/env python3
"""Ship a run's net as the package's net for its variant (the standard one too).

Usage: python training/ship_net.py RUN_DIR [--result "RESULT line"]
       [--kind "what the net is"] [--round "how one round made it"]...

The run is a TD self-play directory (``checkpoint.npz``) or a supervised refinement's
(``weights.npz`` of ``gammon.training.refine_fit``); the variant is the one its metadata names.

* a variant's net: writes ``src/gammon/ai/data/weights-<net>.npz`` (the weights, without
  the generator state) and ``weights-<net>.json`` (variant, games trained, input size,
  settings, the run it came from, and the benchmark result when given);
* the standard net: writes ``src/gammon/ai/data/weights.npz`` as it is (metadata
  included) and ``weights.json``: ``--kind`` (default: the run's own), the rounds that
  made it (``--round``, in order), games, size, the fit's settings and held-out losses,
  the command and where the run lies;
* the standard game's checker-play net (``--zero-ply``, named when it played at 0 plies alone;
  ``gammon.ai.variant_nets.ZERO_PLY_NET``): the same, as ``weights-standard-0ply.npz`` and
  ``.json``; it plays at every depth since stop 59, and ``weights.npz`` (the rollouts' net) stays;
* the standard net that decides the cube (``--cube``; ``gammon.ai.variant_nets.CUBE_NET``):
  the same, as ``weights-standard-cube.npz`` and ``.json``; the nets that play stay.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

from gammon.ai.network import Network
from gammon.ai.variant_nets import CUBE_NET, VARIANT_NETS, ZERO_PLY_NET

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "gammon" / "ai" / "data"


def repo_path(path: Path) -> str:
    """``path`` from the repository's root when it lies inside it (a run may be nested,
    e.g. ``training/nackgammon5/W10``), else as given."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def readme_of(source: Path) -> str:
    """The README that says how the run at ``source`` was made: the nearest one in the run's
    directory or above it (a round's own, else ``training/README.md``)."""
    for folder in source.resolve().parents:
        if (folder / "README.md").is_file():
            return repo_path(folder / "README.md")
        if folder == ROOT:
            break
    return "training/README.md"


def ship_standard(net: Network, source: Path, a: argparse.Namespace) -> int:
    """The standard net: weights.npz byte for byte and weights.json from its metadata (with
    ``--zero-ply`` or ``--cube``, the 0-ply net's or the cube net's files instead)."""
    m = net.meta
    stem = f"weights-{ZERO_PLY_NET}" if a.zero_ply else f"weights-{CUBE_NET}" if a.cube else "weights"
    meta = {
        "kind": a.kind or m.get("kind"),
        "games": m.get("games"),
        "hidden": int(net.w1.shape[2]),
        "path": f"{repo_path(source)} ({readme_of(source)}: how it was made)",
        "rounds": a.round,
        "date": m.get("date"),
        "variant": "standard",
        "refined": "heldout_loss_after" in m,
        "settings": m.get("settings"),
        "command": m.get("command"),
        "heldout_loss": {"before": m.get("heldout_loss_before"), "after": m.get("heldout_loss_after"),
                         "target_entropy": m.get("heldout_target_entropy")},
    }
    if a.result:
        meta["benchmark"] = a.result
    if a.zero_ply:
        meta["plays"] = ("standard backgammon's checkers at every depth (0 plies and the searches; "
                         "the rollouts keep weights.npz)")
    if a.cube:
        meta["plays"] = ("the standard game's cube decisions at every level and in the analysis "
                         "(checker play keeps weights-standard-0ply.npz, the rollouts weights.npz)")
    shutil.copyfile(source, a.to / f"{stem}.npz")
    (a.to / f"{stem}.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"shipped {source} ({meta['games']} games, {meta['hidden']} hidden units) as {stem}.npz")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run")
    ap.add_argument("--result", default=None)
    ap.add_argument("--kind", default=None, help="what the net is (the standard net's weights.json)")
    ap.add_argument("--round", action="append", default=[], help="one round that made it, in order")
    ap.add_argument("--zero-ply", action="store_true",
                    help="a standard net: ship it as the net that plays checkers at every depth, not as "
                         "weights.npz")
    ap.add_argument("--cube", action="store_true",
                    help="a standard net: ship it as the net that decides the cube, not as weights.npz")
    ap.add_argument("--to", type=Path, default=DATA, help="where the package's nets lie (default: %(default)s)")
    a = ap.parse_args(argv)
    if a.zero_ply and a.cube:
        raise SystemExit("error: --zero-ply and --cube name two different nets: give one")
    run = Path(a.run)
    source = run / "checkpoint.npz"
    if not source.exists():
        source = run / "weights.npz"
    if not source.exists():
        raise SystemExit(f"error: {run} holds no checkpoint.npz or weights.npz")
    net = Network.load(source)
    variant = net.meta.get("variant")
    if variant == "standard":
        return ship_standard(net, source, a)
    if a.zero_ply or a.cube:
        flag = "--zero-ply" if a.zero_ply else "--cube"
        raise SystemExit(f"error: {flag} ships a standard net; {source} is {variant!r}'s")
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
        "source": repo_path(source),
        "init": init,
    }
    if a.result:
        meta["benchmark"] = a.result
    shipped = Network(net.w1, net.b1, net.w2, net.b2, meta)
    shipped.save(a.to / f"weights-{name}.npz")
    (a.to / f"weights-{name}.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    print(f"shipped {run} ({meta['games']} games) as weights-{name}.npz")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
