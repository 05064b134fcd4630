"""Average several nets into one: ``gammon train ensemble --out W A.npz B.npz ...``.

The result (:meth:`gammon.ai.network.Network.ensemble`) outputs the mean of the
members' logits; it is an ordinary net with all their hidden units.  It serves as a
teacher: :mod:`gammon.training.refine` at ``--plies 0`` values positions with it, and
:mod:`gammon.training.refine_fit` trains a smaller net on those values (distillation).
The members' files and settings are recorded in the result's metadata.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import sys

from gammon.ai.network import Network
from gammon.core.errors import GammonError


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="gammon train ensemble", description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True, help="the weights file to write")
    p.add_argument("members", nargs="+", help="weights files of the members")
    a = p.parse_args(argv)
    try:
        nets = [Network.load(m) for m in a.members]
        meta = {
            "kind": "ensemble (mean of the members' logits)",
            "variant": "standard",
            "members": [{"path": m, "hidden": n.hidden, "games": n.meta.get("games"),
                         "kind": n.meta.get("kind")} for m, n in zip(a.members, nets, strict=True)],
            "games": nets[0].meta.get("games"),
            "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        }
        out = Network.ensemble(nets, meta)
        out.save(a.out)
    except GammonError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{a.out}: {len(nets)} members, {out.hidden} hidden units")
    return 0

