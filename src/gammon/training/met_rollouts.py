"""Our own match equity table from our own cubeful rollouts: ``gammon train met``.

The model table (:mod:`gammon.ai.met`) comes from a handful of assumptions; this
stage measures the pre-Crawford entries instead, by playing matches' opening
positions out with our own nets and our own cube handling.  Nothing comes from
another program or a published table (those are only a yardstick, in
``benchmarks/met_compare.py``).

**What an entry is.**  ``(a, b)``: player 0 ``a``-away and player 1 ``b``-away,
both 2-away or more, pre-Crawford, cube centred at 1, before the opening throw;
the entry is player 0's match winning chance (MWC).  ``(a, a)`` is 1/2 and
``(b, a)`` is ``1 - (a, b)`` by symmetry, so only the pairs ``a < b`` are rolled out.

**The opening.**  The opening throw is never a double: each of the 15 non-double
rolls is equally likely and either player wins it with chance 1/2.  For each roll
and each starter the starter plays the roll by our 0-ply choice, and the position
after it (the other player on roll, cube centred) is rolled out cubefully at the
score (:func:`gammon.ai.rollout.rollout_play`, which gives the mover's MWC; a
rollout's MWC is the player on roll's).  The entry is the plain mean of the 30
cases (each 1/30), its standard error the root of the summed squared errors over 30.

**Bottom-up.**  A game at ``(a, b)`` only leads to scores with fewer points away
for one side, so the pairs are rolled out in increasing order of ``a + b``; the
rollouts' cube decisions and game ends read a table
(:class:`~gammon.ai.met.RolloutMatchEquityTable`) holding the entries rolled out
so far and the model elsewhere.  The model's entries actually read are only the
Crawford and post-Crawford ones (a side reaching 1-away): those stay the model's.

**Cost and noise** (measured on this machine, one core, loaded, per opening case):
a cubeful trial takes about 0.005-0.008 s without variance reduction and 0.07-0.1 s
with it.  The per-trial MWC standard deviation without it is 0.37 at 2-away/3-away,
0.18 at 5-away/7-away and 0.14 at 9-away/11-away; with it 0.17, 0.05 and 0.04.
Variance per second is 3 times better without at 2-away/3-away and about the same
at longer scores, so the default is without.  21,600 trials per score (720 per
opening case, 20 turns of the 36 first rolls) give a standard error of about
0.0025 at 2-away/3-away, 0.0012 at 5-away/7-away and 0.001 at 9-away/11-away; the
45 pairs to 11-away take 1.5 to 2 hours of one core.

**Checkpoint.**  ``--out`` (JSON, :mod:`gammon.formats.met_rollout_file`) is
rewritten through a temporary file after every score, with each entry's MWC, SE,
trials and seconds and the run's settings and provenance; ``--resume`` continues
with the first score not in it.  Each score's rollouts are seeded from ``--seed``
and the score alone, so an interrupted and resumed run gives the same numbers as
one that ran through.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gammon.ai.cube import CubeInfo
from gammon.ai.distributed import task_seed
from gammon.ai.met import MatchEquityTable, RolloutMatchEquityTable
from gammon.core.errors import GammonError
from gammon.core.position import Position
from gammon.formats.met_rollout_file import (
    MAX_AWAY,
    RolledEntry,
    RolloutMetFile,
    read_rollout_met,
)

__all__ = [
    "OPENING_ROLLS",
    "CaseRollout",
    "RunSettings",
    "build",
    "main",
    "roll_out_score",
    "score_order",
    "score_seed",
]

#: The 15 opening rolls (the opening throw is never a double), higher die first.
OPENING_ROLLS: tuple[tuple[int, int], ...] = tuple(
    (d1, d2) for d1 in range(6, 0, -1) for d2 in range(d1 - 1, 0, -1))
#: Opening cases per score: each roll, either player starting.
CASES = 2 * len(OPENING_ROLLS)
#: Trials per score by default: 720 per opening case, an SE of 0.001 to 0.0025 per entry.
DEFAULT_TRIALS = 21_600
#: The most trials per score (a sanity bound: about a day of one core per score).
MAX_TRIALS = 30_000_000

#: Rolls out the position a starter's opening play left (``after``, in the starter's view) at
#: the starter's ``info`` with ``table``, ``trials`` trials seeded ``seed``: (the starter's MWC, SE).
CaseRollout = Callable[[Position, CubeInfo, MatchEquityTable, int, int], tuple[float, float]]


@dataclass(frozen=True, slots=True)
class RunSettings:
    """What a run's numbers depend on: ``trials`` per score (a multiple of 30, shared
    equally by the opening cases), ``seed``, ``variance_reduction`` and the nets
    (``weights``: a path, None for the shipped ones).  ``max_away`` is the run's reach."""

    max_away: int = 11
    trials: int = DEFAULT_TRIALS
    seed: int = 1
    variance_reduction: bool = False
    weights: str | None = None

    def check(self) -> None:
        """:raises GammonError: a setting out of range, named as on the command line."""
        if not 3 <= self.max_away <= MAX_AWAY:
            raise GammonError(f"--max-away must be from 3 to {MAX_AWAY}, not {self.max_away}")
        if not CASES <= self.trials <= MAX_TRIALS or self.trials % CASES:
            raise GammonError(f"--trials must be a multiple of {CASES} (the opening cases share it "
                              f"equally) from {CASES} to {MAX_TRIALS:,}, not {self.trials}")
        if not 0 <= self.seed < 2**63:
            raise GammonError(f"--seed must be from 0 to 2**63 - 1, not {self.seed}")

    def command(self, out: Path) -> str:
        """The command that makes this run into ``out``, for the file's provenance: files named
        without their folders, so that a table made on one machine names no path of it."""
        words = ["gammon train met --out", out.name, "--max-away", str(self.max_away), "--trials",
                 str(self.trials), "--seed", str(self.seed)]
        if self.variance_reduction:
            words.append("--variance-reduction")
        if self.weights is not None:
            words += ["--weights", Path(self.weights).name]
        return " ".join(words)

    def same_numbers(self) -> dict[str, Any]:
        """The settings a resumed run must share with the file (all but the reach)."""
        return {"trials": self.trials, "seed": self.seed, "variance_reduction": self.variance_reduction,
                "weights": self.weights}


def score_order(max_away: int) -> list[tuple[int, int]]:
    """The pairs ``2 <= a < b <= max_away`` in the order they are rolled out: by ``a + b``,
    then ``a`` (every score a game can lead to comes earlier or is a Crawford score)."""
    pairs = [(a, b) for a in range(2, max_away + 1) for b in range(a + 1, max_away + 1)]
    return sorted(pairs, key=lambda p: (p[0] + p[1], p[0]))


def score_seed(seed: int, a: int, b: int) -> int:
    """The seed of the score ``(a, b)``'s rollouts: from the run's seed and the score alone."""
    return task_seed(seed, 1000 * a + b)


def roll_out_score(a: int, b: int, table: MatchEquityTable, openings: Sequence[Position],
                   case_rollout: CaseRollout, trials: int, seed: int,
                   crawford: bool = False) -> tuple[float, float]:
    """Player 0's MWC at ``a``-away/``b``-away and its standard error, from the 30 opening cases.

    ``openings``: the position after each opening roll's play, in the starter's view
    (the other player on roll next).  ``trials`` per score, ``trials // 30`` each case.  With a
    side 1-away the game is post-Crawford, or the Crawford game with ``crawford``
    (``benchmarks/met_crawford.py``).
    """
    length = max(a, b)
    per_case = trials // CASES
    total = var = 0.0
    for i, after in enumerate(openings):
        for starter in (0, 1):
            mine, theirs = (a, b) if starter == 0 else (b, a)
            info = CubeInfo(match_length=length, score=(length - mine, length - theirs), crawford=crawford)
            mwc, se = case_rollout(after, info, table, per_case, task_seed(seed, 2 * i + starter))
            total += mwc if starter == 0 else 1.0 - mwc
            var += se * se
    n = 2 * len(openings)
    return total / n, math.sqrt(var) / n


def build(run: RolloutMetFile, settings: RunSettings, openings: Sequence[Position],
          case_rollout: CaseRollout, save: Callable[[RolloutMetFile], None],
          say: Callable[[str], None] = print) -> RolloutMetFile:
    """Roll out every score of ``settings`` not yet in ``run``, bottom-up, calling ``save``
    after each (the checkpoint) and ``say`` with a progress line; returns the finished run."""
    todo = [p for p in score_order(settings.max_away) if p not in run.entries]
    t0 = time.perf_counter()
    for k, (a, b) in enumerate(todo):
        table = RolloutMatchEquityTable({s: e.mwc for s, e in run.entries.items()},
                                        max(run.max_away, settings.max_away))
        start = time.perf_counter()
        mwc, se = roll_out_score(a, b, table, openings, case_rollout, settings.trials,
                                 score_seed(settings.seed, a, b))
        seconds = time.perf_counter() - start
        run.entries[a, b] = RolledEntry(a, b, mwc, se, settings.trials, seconds)
        run.provenance["updated"] = _now()
        save(run)
        elapsed = time.perf_counter() - t0
        eta = elapsed / (k + 1) * (len(todo) - k - 1)
        say(f"{a}-away/{b}-away: MWC {mwc:.4f} SE {se:.4f} ({seconds:.0f} s); "
            f"{len(run.entries)}/{len(run.entries) + len(todo) - k - 1} scores, "
            f"elapsed {_hms(elapsed)}, ETA {_hms(eta)}")
    return run


def _hms(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _git_commit() -> str | None:
    """The commit of the code that runs (None outside a git checkout)."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent, capture_output=True,
                             text=True, timeout=10, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def engine_case_rollout(evaluator: Any, variance_reduction: bool) -> CaseRollout:
    """The real :data:`CaseRollout`: our cubeful rollout, one process, 0-ply checker play."""
    from gammon.ai.rollout import RolloutSettings, rollout_play

    initial = Position.initial()

    def case(after: Position, info: CubeInfo, table: MatchEquityTable, trials: int,
             seed: int) -> tuple[float, float]:
        s = RolloutSettings(trials=trials, seed=seed, cubeful=True, variance_reduction=variance_reduction)
        r = rollout_play(initial, after, evaluator, s, cube_info=info, met=table)
        assert r.cubeful_mwc is not None and r.se_mwc is not None
        se = r.se_mwc if math.isfinite(r.se_mwc) else 0.5  # one trial: no spread to measure
        return r.cubeful_mwc, se

    return case


def opening_positions(engine: Any) -> list[Position]:
    """The position after our 0-ply play of each opening roll, in the starter's view."""
    start = Position.initial()
    return [engine.best_play(start, roll).position for roll in OPENING_ROLLS]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="gammon train met",
        description="Roll out our own match equity table's pre-Crawford entries, bottom-up, checkpointed "
                    "per score.",
    )
    p.add_argument("--out", required=True, type=Path, help="the table file (JSON; also the checkpoint)")
    p.add_argument("--resume", action="store_true", help="continue the run in --out")
    p.add_argument("--force", action="store_true", help="replace --out if it exists")
    p.add_argument("--max-away", type=int, default=11, help="roll out every score to this many away")
    p.add_argument("--trials", type=int, default=DEFAULT_TRIALS,
                   help=f"trials per score, a multiple of {CASES} (one share per opening case)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--variance-reduction", action="store_true",
                   help="variance reduction in the rollouts (about 12x slower per trial, 3.5x less spread)")
    p.add_argument("--weights", type=Path, help="the nets (default: the shipped ones)")
    return p


def _start(a: argparse.Namespace, settings: RunSettings, net_games: object, command: str) -> RolloutMetFile:
    """The run to continue (``--resume``) or a new one, after checking ``--out``.

    :raises GammonError: both or neither of ``--resume``/``--force`` with a file there, nothing
        to resume, or a file made with other settings.
    """
    from gammon.formats.record_files import check_target

    if a.resume and a.force:
        raise GammonError("--resume continues the run in --out; --force replaces it: choose one")
    if a.resume:
        if not a.out.exists():
            raise GammonError(f"nothing to resume: {a.out} does not exist")
        run = read_rollout_met(a.out)
        theirs = {k: run.settings.get(k) for k in settings.same_numbers()}
        if theirs != settings.same_numbers():
            raise GammonError(f"{a.out} was made with {theirs}; this run asks for "
                              f"{settings.same_numbers()}: resume with the same settings")
        run.settings["max_away"] = settings.max_away
        # Each resumption is recorded: a table extended to a longer reach names how.
        run.provenance.setdefault("resumed", []).append(
            {"command": f"{command} --resume", "at": _now(), "git_commit": _git_commit()})
        return RolloutMetFile(max(run.max_away, settings.max_away), run.settings, run.provenance,
                              run.entries)
    if a.out.exists() and not a.force:
        raise GammonError(f"{a.out} already exists: --resume to continue it, --force to start afresh")
    check_target(a.out, replace=a.force)
    provenance = {"command": command, "started": _now(), "git_commit": _git_commit(),
                  "net_games": net_games, "method": "cubeful rollouts of the 30 opening cases, bottom-up",
                  "model_elsewhere": "Crawford and post-Crawford entries are the model's (gammon.ai.met)"}
    return RolloutMetFile(settings.max_away, {"max_away": settings.max_away, **settings.same_numbers()},
                          provenance)


def _save(path: Path) -> Callable[[RolloutMetFile], None]:
    from gammon.formats.record_files import write_text

    def save(run: RolloutMetFile) -> None:
        import json

        write_text(path, json.dumps(run.as_json(), indent=1) + "\n")  # temp file + os.replace

    return save


def main(argv: list[str] | None = None) -> int:
    """Roll out the table's pre-Crawford entries to ``--max-away``, checkpointing each score."""
    from gammon.ai.engine import Engine

    a = _parser().parse_args(argv)
    settings = RunSettings(a.max_away, a.trials, a.seed, a.variance_reduction,
                           None if a.weights is None else str(a.weights))
    try:
        settings.check()
        if a.weights is not None and not a.weights.is_file():
            raise GammonError(f"--weights {a.weights}: no such file")
        engine = Engine(plies=0, weights=settings.weights)
        run = _start(a, settings, engine.network.meta.get("games"), settings.command(a.out))
        save = _save(a.out)
        save(run)
        print(f"{len(run.entries)} of {len(score_order(settings.max_away))} scores done; "
              f"{settings.trials:,} trials per score, pid {os.getpid()}", flush=True)
        case = engine_case_rollout(engine.evaluator, settings.variance_reduction)
        build(run, settings, opening_positions(engine), case, save,
              lambda line: print(line, flush=True))
    except GammonError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {a.out}")
    return 0
