"""Rollouts of the doubtful decisions: re-judge the close calls of an analysis by playing them out.

A careful player does not believe a mark from a 2-ply look before rolling the
position out (GNU Backgammon's and XG's rollouts).  ``gammon analyse
--rollout`` does the same: after the search has judged every decision, the
*doubtful* ones are rolled out with the engine's cubeful, variance-reduced
rollout (:func:`gammon.ai.rollout.rollout`) and their verdict (best action,
equity lost, mark, error kind) is taken from the rollout instead.

Which decisions are doubtful (all in normalised equity, EMG):

* a checker play with more than one legal play whose
  error is below a blunder (:data:`~gammon.analysis.marks.MARKS`), or that was
  the best play with the runner-up within ``margin`` (default 0.04);
* a cube decision whose no-double and double equities, or a take decision whose
  take and pass equities, are within ``cube_margin`` (default 0.16, the close
  margin of :data:`~gammon.analysis.marks.CLOSE_CUBE`).

With ``limit`` only that many are rolled out: the closest first (the smallest
gap between the action taken and the best other one), the calls a rollout is
most likely to overturn.

A checker decision rolls out the play made and the other candidates within
``margin`` of the best (at most :data:`MAX_PLAYS` plays); a cube decision rolls
out no double and double/take (:func:`gammon.ai.cube_rollout.rollout_cube`: no
double keeps the cube for the first turn; double/pass is exact).  Every rollout starts
from the decision's own cube and score, with the same dice (the same seed) for
every candidate, so the differences between them are measured with much less
noise than the values themselves.  The verdict then records
``{"trials", "se", "equities"}`` in :attr:`Decision.rollout`; a report marks
such verdicts with "R".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gammon.ai.cube import choose_action
from gammon.ai.cube_rollout import normalised_value, rollout_cube
from gammon.ai.met import default_met
from gammon.ai.rollout import RolloutResult, RolloutSettings, rollout_play
from gammon.analysis.decisions import Decision, cube_error_kind
from gammon.analysis.marks import CLOSE_CUBE, MARKS, mark_for
from gammon.analysis.valuation import Valuer
from gammon.analysis.walk import CubeTask, RollTask, TakeTask, Task
from gammon.core.cube import CubeAction
from gammon.core.errors import GammonError

if TYPE_CHECKING:
    from gammon.ai.cube import CubeInfo
    from gammon.ai.distributed import Runner

#: The most plays of one checker decision that are rolled out (the play made among them).
MAX_PLAYS = 3
#: A loss from this on is a blunder: clear enough that no rollout is spent on it.
BLUNDER = MARKS[0][0]

#: ``progress(done, total)`` after each decision rolled out.
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class RolloutOptions:
    """What ``--rollout`` rolls out and how (see the module text).

    ``trials``: games per candidate; ``truncate_at``: plies after which the
    0-ply evaluator values the position (None: to the end); ``margin`` /
    ``cube_margin``: what is doubtful; ``limit``: at most this many decisions
    (None: all the doubtful ones); ``processes``: worker processes of each
    rollout; ``seed``: the dice.

    :raises GammonError: a value that cannot work (one line).
    """

    trials: int = 72
    truncate_at: int | None = 10
    margin: float = 0.04
    cube_margin: float = CLOSE_CUBE
    limit: int | None = None
    processes: int = 1
    seed: int = 1

    def __post_init__(self) -> None:
        trials = self.trials
        if isinstance(trials, bool) or not isinstance(trials, int) or not 2 <= trials <= 1_000_000:
            raise GammonError(f"rollout trials must be a whole number from 2 to 1000000, not {self.trials!r}")
        if self.truncate_at is not None and not 1 <= self.truncate_at <= 10_000:
            raise GammonError(f"rollout truncation must be 1 to 10000 plies, not {self.truncate_at!r}")
        for name, x in (("margin", self.margin), ("cube margin", self.cube_margin)):
            if not 0.0 < x <= 1.0:  # NaN fails too
                raise GammonError(f"the rollout {name} must be above 0 and at most 1, not {x!r}")
        if self.limit is not None and self.limit < 1:
            raise GammonError(f"--rollout-errors must be 1 or more, not {self.limit!r}")
        if self.processes < 1:
            raise GammonError("rollout processes must be 1 or more")

    def settings(self) -> RolloutSettings:
        """The engine's rollout settings: cubeful, variance reduction and quasi-random dice on."""
        return RolloutSettings(trials=self.trials, seed=self.seed, truncate_at=self.truncate_at,
                               cubeful=True, processes=self.processes, min_trials=2)


# -- which decisions ------------------------------------------------------------------------

def _cube_values(d: Decision) -> tuple[float, float, float] | None:
    """(no double, double/take, double/pass) of a cube or take decision, the doubler's view."""
    c = d.cube
    if c is None or "double_take" not in c:
        return None
    return float(c["no_double"]), float(c["double_take"]), float(c["double_pass"])


def gap(d: Decision) -> float | None:
    """How far the action taken is from the best other one (None: nothing to compare).

    Checker play: the error, or when the best play was made, its lead over the
    runner-up.  Cube: |no double - double|; take: |take - pass|.
    """
    if d.kind == "move":
        if d.forced or len(d.alternatives) < 2:
            return None
        if d.equity_lost > 0:
            return d.equity_lost
        return abs(d.alternatives[0].equity - d.alternatives[1].equity)
    vals = _cube_values(d)
    if vals is None:
        return None
    nd, dt, dp = vals
    if d.kind == "cube":
        return abs(nd - min(dt, dp))
    if d.kind == "take":
        return abs(dt - dp)
    return None


def is_doubtful(d: Decision, options: RolloutOptions) -> bool:
    """Whether ``d``'s verdict is close enough to be rolled out (see the module text)."""
    g = gap(d)
    if g is None:
        return False
    if d.kind == "move":
        return (0 < d.equity_lost < BLUNDER) or (d.equity_lost == 0 and g <= options.margin)
    return g <= options.cube_margin


def doubtful(tasks: Sequence[Task], decisions: Sequence[Decision], options: RolloutOptions
             ) -> list[int]:
    """The indices of the decisions to roll out, in record order (the closest ``limit`` of them)."""
    chosen = [i for i, (t, d) in enumerate(zip(tasks, decisions, strict=True))
              if isinstance(t, (RollTask, CubeTask, TakeTask)) and is_doubtful(d, options)]
    if options.limit is not None and len(chosen) > options.limit:
        chosen = sorted(sorted(chosen, key=lambda i: gap(decisions[i]) or 0.0)[:options.limit])
    return chosen


# -- rolling out ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Judge:
    """What every rollout of one analysis shares."""

    valuer: Valuer
    settings: RolloutSettings
    runner: Runner | None

    def evaluator(self, task: Task) -> Any:
        """The 0-ply evaluator that plays ``task``'s variant."""
        return self.valuer.engine.evaluator_for(task.position.variant)

    def run(self, task: Task, info: CubeInfo, after: Any) -> RolloutResult:
        """Roll out the play ``after`` made in ``task``'s position, cubeful at ``info``."""
        ev = self.evaluator(task)
        met = None if info.is_money else default_met(max(info.away))
        return rollout_play(task.position, after, ev, self.settings, cube_info=info, met=met,
                            runner=self.runner)


def _emg(res: RolloutResult, info: CubeInfo) -> tuple[float, float | None, float]:
    """(EMG normalised to ``info``'s cube, MWC or None, standard error in EMG) of a cubeful rollout
    whose cube was ``info``."""
    met = None if info.is_money else default_met(max(info.away))
    emg, se, mwc = normalised_value(res, info, info, met)
    return emg, mwc, se


def _record(d: Decision, trials: int, rows: dict[str, tuple[float, float | None, float]]) -> None:
    d.rollout = {"trials": trials,
                 "equities": {k: round(v[0], 4) for k, v in rows.items()},
                 "se": {k: round(v[2], 4) for k, v in rows.items()},
                 "search": {"best": d.best, "equity_lost": round(d.equity_lost, 4), "mark": d.mark}}


def _judge_move(judge: _Judge, task: RollTask, d: Decision, margin: float) -> None:
    """Roll out the play made and the best candidates within ``margin``; re-judge ``d``."""
    ranked = judge.valuer.engine.rank_plays(task.position, task.dice, task.info, plies=0)
    plays = {r.play.position.position_id: r.play for r in ranked}
    best = d.alternatives[0].equity
    ids = [a.position_id for a in d.alternatives if best - a.equity <= margin][:MAX_PLAYS]
    if d.played_position_id is not None and d.played_position_id not in ids:
        ids = ids[:MAX_PLAYS - 1] + [d.played_position_id]
    if len(ids) < 2:  # only the play made is close to the best: the runner-up decides
        ids = [a.position_id for a in d.alternatives[:2]]
    rows: dict[str, tuple[float, float | None, float]] = {}
    names: dict[str, str] = {a.position_id: a.play for a in d.alternatives}
    trials = 0
    for pid in dict.fromkeys(ids):
        res = judge.run(task, task.info, plays[pid])
        trials = max(trials, res.trials)
        rows[names[pid]] = _emg(res, task.info)
    top = max(rows, key=lambda k: rows[k][0])
    mine = names.get(d.played_position_id or "", d.played)
    _record(d, trials, rows)
    d.best = top
    d.best_position_id = next(p for p, n in names.items() if n == top)
    d.equity_lost = max(0.0, rows[top][0] - rows[mine][0])
    tm, mm = rows[top][1], rows[mine][1]
    d.mwc_lost = None if tm is None or mm is None else max(0.0, tm - mm)
    d.mark = mark_for(d.equity_lost)


def _judge_cube(judge: _Judge, task: CubeTask | TakeTask, d: Decision) -> None:
    """Roll out no double and double/take of the doubler's position; re-judge ``d``."""
    info = task.info
    rolled = rollout_cube(task.position, judge.evaluator(task), judge.settings, info, runner=judge.runner)
    c = rolled.decision
    m = c.mwc if c.mwc is not None else (None, None, None)
    nd = (c.no_double, m[0], rolled.se[0])
    dt = (c.double_take, m[1], rolled.se[1])
    dp = (c.double_pass, m[2], 0.0)
    rows = {"no double": nd, "double/take": dt, "double/pass": dp}
    _record(d, rolled.trials, rows)
    proper = choose_action(nd[0], dt[0], dp[0])
    if d.cube is not None:
        d.cube = {**d.cube, "proper": proper}
    if isinstance(task, CubeTask):
        doubled_v = min(dt[0], dp[0])
        best = max(nd[0], doubled_v)
        d.best = CubeAction.DOUBLE if doubled_v > nd[0] else CubeAction.NO_DOUBLE
        mine = doubled_v if task.doubled else nd[0]
        d.equity_lost = max(0.0, best - mine)
        d.error_kind = cube_error_kind(proper, task.doubled) if d.equity_lost > 0 else None
        if nd[1] is not None and dt[1] is not None and dp[1] is not None:
            dm = min(dt[1], dp[1])
            d.mwc_lost = max(0.0, max(nd[1], dm) - (dm if task.doubled else nd[1]))
    else:
        take, drop = -dt[0], -dp[0]
        took = task.answer in (CubeAction.TAKE, CubeAction.BEAVER)
        mine = (2.0 * take if task.answer == CubeAction.BEAVER else take) if took else drop
        best = max(take, drop, mine)
        d.best = CubeAction.TAKE if take >= drop else CubeAction.DROP
        d.equity_lost = max(0.0, best - mine)
        d.error_kind = None
        if d.equity_lost > 0:
            d.error_kind = (("wrong beaver" if task.answer == CubeAction.BEAVER else "wrong take") if took
                            else "wrong pass")
        if dt[1] is not None and dp[1] is not None:
            t, p = 1.0 - dt[1], 1.0 - dp[1]
            d.mwc_lost = max(0.0, max(t, p) - (t if took else p))
    d.mark = mark_for(d.equity_lost)


def rollout_doubtful(tasks: Sequence[Task], decisions: Sequence[Decision], valuer: Valuer,
                     options: RolloutOptions, progress: Progress | None = None,
                     runner: Runner | None = None) -> list[int]:
    """Roll out the doubtful decisions (:func:`doubtful`) and re-judge them in place.

    ``runner``: a :mod:`gammon.ai.distributed` runner (Ray) for the blocks of
    trials instead of ``options.processes`` (the same numbers bit for bit).
    Returns the indices rolled out.  The explanations of re-judged decisions
    are the caller's to redo.
    """
    chosen = doubtful(tasks, decisions, options)
    judge = _Judge(valuer, options.settings(), runner)
    if progress is not None:
        progress(0, len(chosen))
    for n, i in enumerate(chosen):
        task, d = tasks[i], decisions[i]
        if isinstance(task, RollTask):
            _judge_move(judge, task, d, options.margin)
        elif isinstance(task, (CubeTask, TakeTask)):
            _judge_cube(judge, task, d)
        if progress is not None:
            progress(n + 1, len(chosen))
    return chosen


__all__ = ["BLUNDER", "MAX_PLAYS", "RolloutOptions", "doubtful", "gap", "is_doubtful", "rollout_doubtful"]
