#!/usr/bin/env python3
"""Where the cube's doubling points come from: our match cube model against Janowski's whole-function mix.

Our match cube model (:class:`gammon.ai.cube_model.CubeModel`) mixes the live-cube and the
dead-cube values by the cube efficiency ``x`` at every cube level, and solves each level's
take and cash points on those mixed values.  Janowski's own construction mixes two whole
functions instead: the value of a perfectly live cube (all its doubling points from the live
model) and the dead cube's.  In the money limit (a very long match, equities linear in points)
the second gives exactly Janowski's owned-cube formulas ``p(W + L + x/2) - L`` (and ``- x/2``
for the opponent's cube); ours does not (``--money`` prints both).

This script measures, on recorded cube decisions that GNU Backgammon analysed, which of the two
agrees better with GNU Backgammon, and whether that moves the errors its 2-ply analysis finds:

1. **The formula alone**: GNU Backgammon's 0-ply cubeful equities of our expert matches (its
   own formula on its own 0-ply probabilities), against each model fed the same probabilities
   and the same table (``--met``): mean absolute difference of no double and double/take, and
   the decisions that differ, costed by GNU Backgammon's equities.
2. **In play**: every decision of a GNU Backgammon 2-ply analysis re-decided by each model with
   our own nets, at the depths our levels use (``root0``: the formula on the 0-ply
   probabilities, the levels below expert; ``ahead1``: one roll ahead, the analysis;
   ``ahead2``: two rolls ahead, expert and up), costed by GNU Backgammon's 2-ply equities.

GNU Backgammon only measures here; the engine uses none of its numbers.

    python benchmarks/cube_formula.py --money
    R=benchmarks/results
    python benchmarks/cube_formula.py --zero-ply $R/cube_decisions_expert_rollmet_gnubg0.json.gz \\
        --met /usr/share/gnubg/met/Kazaross-XG2.xml
    python benchmarks/cube_formula.py --graded $R/cube_decisions_expert_q7_blended.json.gz \\
        --policies root0,ahead1 ; ... --policies ahead2 --limit 800 ; ... --bias

3. **What no model repairs** (``--bias``): our 0-ply probabilities beside GNU Backgammon's 2-ply
   ones on the same decisions, by its gammon-win chance.

The 0-ply file is ``cube_errors.py benchmarks/results/match_pr_expert_cube2_rollmet --plies 0
--cache FILE`` (GNU Backgammon's 0-ply analysis of the 45 stored matches, 6 seconds).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cube_errors  # noqa: E402
from gammon.ai import cube as cube_module  # noqa: E402
from gammon.ai.cube_model import CubeModel  # noqa: E402


class WholeFunctionMix(CubeModel):
    """Janowski's interpolation of two whole functions: the doubling points of a perfectly live
    cube (the same model with ``x`` = 1), the values mixed with the dead cube's by ``x`` as before."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self._live: CubeModel | None = None

    def _live_model(self) -> CubeModel:
        if self._live is None:
            self._live = CubeModel(self.after, self.a, self.b, self.mix0, self.mix1, 1.0, self.cube_limit)
        return self._live

    def cash_point0(self, k: int) -> float:
        return self._live_model().cash_point0(k)

    def take_point0(self, k: int) -> float:
        return self._live_model().take_point0(k)


MODELS = {"ours": CubeModel, "whole": WholeFunctionMix}


@contextlib.contextmanager
def model(name: str):  # type: ignore[no-untyped-def]
    """Our cube code with ``name``'s model for the duration."""
    saved = cube_module.CubeModel
    cube_module.CubeModel = MODELS[name]  # type: ignore[misc]
    try:
        yield
    finally:
        cube_module.CubeModel = saved  # type: ignore[misc]


def money_limit() -> None:
    """Each model in a 20,000-point match (equities linear in points) beside Janowski's money formulas."""
    n, eps, x = 20000, 1e-5, 0.68

    def after(a: int, b: int) -> float:
        return 1.0 if a <= 0 else 0.0 if b <= 0 else 0.5 + (b - a) * eps

    print(f"money limit, no gammons, x = {x}: each model's EMG, Janowski's formula in brackets")
    print("| model | p | own cube | opponent's cube | centred |")
    print("|---|---|---|---|---|")
    for name, cls in MODELS.items():
        for p in (0.6, 0.7, 0.8):
            m = cls(after, n, n, (1.0, 0.0, 0.0), (1.0, 0.0, 0.0), x, 4096)
            c0, c1 = m.cash0(1), m.cash1(1)

            def emg(v: float, c0: float = c0, c1: float = c1) -> float:
                return 2 * (v - c1) / (c0 - c1) - 1

            own, opp = p * (2 + x / 2) - 1, p * (2 + x / 2) - 1 - x / 2
            cen = 4 / (4 - x) * (p * (2 + x / 2) - 1 - x / 4)
            print(f"| {name} | {p} | {emg(m.own0(1, p)):+.4f} ({min(own, 1.0):+.4f}) | "
                  f"{emg(m.own1(1, p)):+.4f} ({opp:+.4f}) | {emg(m.centered(1, p)):+.4f} ({cen:+.4f}) |")


def zero_ply(decisions: list[cube_errors.Decision]) -> None:
    """Each model on GNU Backgammon's 0-ply probabilities against its 0-ply cubeful equities."""
    print(f"{len(decisions)} decisions: GNU Backgammon's 0-ply probabilities through each model, against its "
          "0-ply cubeful equities")
    print("| model | mean abs diff, no double | double/take | decisions that differ | their cost (EMG) "
          "| kinds |")
    print("|---|---|---|---|---|---|")
    for name in MODELS:
        with model(name):
            n = 0
            nd = dt = total = 0.0
            kinds: Counter[str] = Counter()
            for d in decisions:
                c, ours = cube_errors.model_cost(d)
                total += c
                if c > 1e-9:
                    kinds[cube_errors._kind(d, ours)] += 1
                if ours.can_double:  # type: ignore[attr-defined]
                    n += 1
                    nd += abs(ours.no_double - d.nd)  # type: ignore[attr-defined]
                    dt += abs(ours.double_take - d.dt)  # type: ignore[attr-defined]
        print(f"| {name} | {nd / max(n, 1):.4f} | {dt / max(n, 1):.4f} | {sum(kinds.values())} | {total:.3f} | "
              + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) + " |")


def probability_bias(decisions: list[cube_errors.Decision]) -> None:
    """Our 0-ply net's probabilities against GNU Backgammon's 2-ply ones on the same decisions, by
    GNU Backgammon's gammon-win chance (what no cube model can repair)."""
    import numpy as np

    from gammon.ai.engine import Engine

    ev = Engine(plies=0).evaluator
    ours = np.array([ev.evaluate(cube_errors.cube_info(d)[1], 0) for d in decisions])
    theirs = np.array([d.probs for d in decisions])
    diff = ours - theirs
    print(f"{len(decisions)} decisions: our 0-ply probabilities - GNU Backgammon's 2-ply (doubler's view)")
    print("| its gammon-win chance | decisions | win | win gammon | lose gammon |")
    print("|---|---|---|---|---|")
    for lo, hi in ((0.0, 0.1), (0.1, 0.2), (0.2, 0.3), (0.3, 1.01), (0.0, 1.01)):
        m = (theirs[:, 1] >= lo) & (theirs[:, 1] < hi)
        name = "all" if (lo, hi) == (0.0, 1.01) else f"{lo:.1f}-{min(hi, 1.0):.1f}"
        print(f"| {name} | {int(m.sum())} | {diff[m, 0].mean():+.4f} | {diff[m, 1].mean():+.4f} | "
              f"{diff[m, 3].mean():+.4f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--money", action="store_true", help="the money limit beside Janowski's formulas")
    parser.add_argument("--zero-ply", type=Path, help="GNU Backgammon's 0-ply analyses (cube_errors --cache)")
    parser.add_argument("--graded", type=Path, help="GNU Backgammon's 2-ply analyses (cube_errors --cache)")
    parser.add_argument("--policies", default="root0,ahead1", help="with --graded: cube_errors' policies")
    parser.add_argument("--bias", action="store_true",
                        help="with --graded: our 0-ply probabilities against GNU Backgammon's, no policies")
    parser.add_argument("--limit", type=int, default=0, help="with --graded: the first N decisions only")
    parser.add_argument("--met", default=None, metavar="FILE|model", help="as cube_errors.py's --met")
    args = parser.parse_args(argv)
    for path in (args.zero_ply, args.graded):
        if path is not None and not path.is_file():
            print(f"error: no such file: {path}", file=sys.stderr)
            return 2
    from gammon.ai.met import default_met, met_in_use

    try:
        table = cube_errors._table(args.met)
    except Exception as exc:  # GammonError: the file's own one-line reason
        print(f"error: {exc}", file=sys.stderr)
        return 2
    with met_in_use(table):
        print(f"match equity table: {default_met().name}")
        if args.money:
            money_limit()
        if args.zero_ply is not None:
            zero_ply(cube_errors.load([], 0, "", args.zero_ply))
        if args.graded is not None:
            decisions = cube_errors.load([], 2, "", args.graded)[: args.limit or None]
            if args.bias:
                probability_bias(decisions)
                return 0
            names = [p.strip() for p in args.policies.split(",") if p.strip()]
            unknown = [p for p in names if p not in cube_errors.POLICIES]
            if unknown:
                print(f"error: unknown policies {unknown}", file=sys.stderr)
                return 2
            for name in MODELS:
                print(f"\nmodel: {name}")
                with model(name):
                    cube_errors.policy_table(decisions, names)
    return 0


if __name__ == "__main__":
    sys.exit(main())
