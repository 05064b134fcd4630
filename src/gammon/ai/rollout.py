"""Rollouts: play a position out many times and average the results.

Each trial plays the game to the end (or ``truncate_at`` plies, where the
evaluator's probabilities stand in for the rest) with both sides choosing the
best play of every roll by the evaluator at 0-ply.  The trials give the mean
of the five probabilities (win, win gammon, win backgammon, lose gammon, lose
backgammon) for the player on roll, the cubeless equity, and, in a cubeful
rollout, the equity with the cube handled by :func:`gammon.ai.cube.cube_decision`
at every turn.

* **Reproducible.**  Trial ``i`` draws its dice from a splitmix64 generator
  seeded by ``(seed, i)`` alone, so a rollout gives the same numbers however
  many processes share the trials.
* **Quasi-random dice.**  The first roll of trial ``i`` is the ``i mod 36``-th
  of the 36 rolls (in an order shuffled by the seed), and the second runs
  through the 36 rolls against each first roll, so every 1,296 trials see every
  pair of first two rolls exactly once.
* **Variance reduction.**  At every roll the luck of the dice is measured as the
  evaluator's value after the best play of the roll thrown minus the average
  over the 21 distinct rolls (1/36 each, 2/36 for non-doubles), and the sum of
  these over the game is subtracted from its result.  Each luck term has mean
  zero whatever happened before, so the estimate stays unbiased while most of
  the noise of the dice goes.  In cubeful rollouts the same terms are scaled by
  the cube value (in match play, by the match winning chances a point is worth
  at that cube) at the roll.
* **Fast path.**  With a :class:`~gammon.ai.network.Network` or an evaluator
  with ``kernel_model()`` (:class:`~gammon.ai.evaluator.NetEvaluator`, which the
  classifying evaluator with the bear-off database extends) whole trials run
  inside one numba function over the move generator's boards.  Any other
  evaluator (``evaluate_batch``) is driven from Python, much slower.
* **Cube handling.**  Checker play is cubeless; a cubeful rollout records the
  0-ply probabilities before each roll and replays the trial's cube actions
  over them: the player on roll doubles when :func:`cube_decision` says so and
  the opponent takes, passes or beavers as it says.

Standard errors are the spread of the per-trial results over the square root
of the trials; with ``target_se`` the rollout stops at the first multiple of 36
trials (at least ``min_trials``) where the error of the equity is below it.
"""

from __future__ import annotations

import math
import multiprocessing
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from gammon.ai.cube import (
    BEAVER,
    PASS,
    CubeInfo,
    board_efficiency,
    cube_decision,
)
from gammon.ai.distributed import Runner
from gammon.ai.evaluator import best_result, static_eval
from gammon.ai.kernel_args import Model, as_model, new_scratch
from gammon.ai.met import MatchEquityTable, default_met
from gammon.ai.network import NUM_OUTPUTS, Network, side_empty
from gammon.ai.probabilities import equities, equity, flip_rows
from gammon.ai.rng import GOLDEN, M1, M2, next_u64
from gammon.core import movegen
from gammon.core.cube import RelativeOwner
from gammon.core.errors import GammonError
from gammon.core.plays import Play
from gammon.core.position import Position

__all__ = [
    "RolloutResult",
    "RolloutSettings",
    "rollout",
    "rollout_play",
]

#: Trials are run, checked and reported in blocks of this many (one turn of the 36 first rolls).
BATCH = 36
#: Most plies a trial may last; a longer game stops there and is valued by the evaluator.
MAX_TRIAL_PLIES = 2000

_MASK = (1 << 64) - 1

ProgressCallback = Callable[[int, int], None]
Chooser = Callable[[Position, tuple[int, int]], "Position | Play | None"]


@dataclass(frozen=True, slots=True)
class RolloutSettings:
    """How a rollout runs.

    ``trials``: how many games (at most, with ``target_se``); ``seed``: the dice;
    ``truncate_at``: plies after which the evaluator values the position (None:
    play to the end); ``variance_reduction``, ``quasi_random``: see the module
    doc; ``cubeful``: also play the cube; ``processes``: worker processes (1:
    none); ``target_se``: stop once the standard error of the equity (the
    cubeful one in a cubeful rollout) is below this, after at least
    ``min_trials``.
    """

    trials: int = 1296
    seed: int = 1
    truncate_at: int | None = None
    variance_reduction: bool = True
    quasi_random: bool = True
    cubeful: bool = False
    processes: int = 1
    target_se: float | None = None
    min_trials: int = 144

    def __post_init__(self) -> None:
        if self.trials < 1:
            raise GammonError("a rollout needs at least one trial")
        if self.seed < 0:
            raise GammonError("the rollout seed must be 0 or more")
        if self.truncate_at is not None and self.truncate_at < 0:
            raise GammonError("truncate_at must be 0 or more (or None to play to the end)")
        if self.processes < 1:
            raise GammonError("processes must be 1 or more")
        if self.target_se is not None and not self.target_se > 0:
            raise GammonError("target_se must be positive")
        if self.min_trials < 2:
            raise GammonError("min_trials must be 2 or more")


@dataclass(frozen=True, slots=True)
class RolloutResult:
    """What a rollout found, from the view of the player on roll of the position.

    ``probs`` and ``se_probs``: the five probabilities and their standard
    errors; ``equity``, ``se_equity``: cubeless money equity.  Cubeful rollouts
    add ``cubeful_equity`` (normalised to the starting cube; EMG in match play)
    and in match play ``cubeful_mwc``, each with its standard error.
    """

    probs: tuple[float, float, float, float, float]
    equity: float
    se_probs: tuple[float, float, float, float, float]
    se_equity: float
    trials: int
    stopped_early: bool
    cubeful_equity: float | None = None
    se_cubeful: float | None = None
    cubeful_mwc: float | None = None
    se_mwc: float | None = None
    mean_plies: float = 0.0
    seconds: float = 0.0
    settings: RolloutSettings = field(default_factory=RolloutSettings)

    def flipped(self) -> RolloutResult:
        """The same result seen by the other player."""
        p = self.probs
        s = self.se_probs
        return replace(
            self,
            probs=(1.0 - p[0], p[3], p[4], p[1], p[2]),
            se_probs=(s[0], s[3], s[4], s[1], s[2]),
            equity=-self.equity,
            cubeful_equity=None if self.cubeful_equity is None else -self.cubeful_equity,
            cubeful_mwc=None if self.cubeful_mwc is None else 1.0 - self.cubeful_mwc,
        )


# -- the compiled trials ------------------------------------------------------------------


@njit(cache=True)
def _roll_index(state, trial, ply, quasi, perm1, perm2):  # type: ignore[no-untyped-def]
    """The roll (0..35: 6*(d1-1) + d2-1) of ``ply`` in ``trial``."""
    if quasi and ply == 0:
        return perm1[trial % 36]
    if quasi and ply == 1:
        return perm2[(11 * (trial % 36) + (trial // 36)) % 36]
    return np.int64(next_u64(state) % np.uint64(36))


class TrialPlan(NamedTuple):
    """Which trials :func:`_run_trials` plays and how (see :class:`RolloutSettings`).

    Trials ``first_trial`` to ``first_trial + count - 1`` of a rollout with dice
    ``seed``; ``perm1``/``perm2``: the seed's orders of the 36 rolls (``quasi``:
    use them for the first two rolls); ``truncate``: plies after which the
    evaluator values the position (-1: none); ``vr``: variance reduction;
    ``record``: keep each ply's probabilities, luck and cube efficiency.
    """

    first_trial: int
    count: int
    seed: int
    perm1: np.ndarray
    perm2: np.ndarray
    quasi: bool
    truncate: int
    vr: bool
    record: bool


class _Trials(NamedTuple):
    """Per-trial results of one block: root-view results, luck, plies and the records
    (:func:`_run_trials` writes them)."""

    res: np.ndarray
    luck: np.ndarray
    nplies: np.ndarray
    cut: np.ndarray
    rec_probs: np.ndarray
    rec_luck: np.ndarray
    rec_eff: np.ndarray

    @classmethod
    def create(cls, count: int, record: int) -> _Trials:
        """Zeroed results for ``count`` trials, records of ``record`` plies."""
        return cls(
            res=np.zeros((count, NUM_OUTPUTS)),
            luck=np.zeros((count, NUM_OUTPUTS)),
            nplies=np.zeros(count, dtype=np.int64),
            cut=np.zeros(count, dtype=np.int64),
            rec_probs=np.zeros((count, max(record, 1), NUM_OUTPUTS)),
            rec_luck=np.zeros((count, max(record, 1))),
            rec_eff=np.zeros((count, max(record, 1)), dtype=np.float64),
        )


class _Buffers(NamedTuple):
    """A trial's working arrays: the move generator's output and the 0-ply values of a
    roll's results (``boards``, ``moves``, ``table``, ``ys``); the board on roll, the
    chosen result (``nxt``, ``ya``: its values, mover's view), the probabilities
    before the roll (``cur``) and the mean over the 21 rolls (``mean``)."""

    boards: np.ndarray
    moves: np.ndarray
    table: np.ndarray
    ys: np.ndarray
    board: np.ndarray
    nxt: np.ndarray
    cur: np.ndarray
    ya: np.ndarray
    mean: np.ndarray


@njit(cache=True)
def _best(board, d1, d2, flags, checkers, model, s, out):  # type: ignore[no-untyped-def]
    """The best result of a roll by 0-ply cubeless equity (mover's view), its index in
    ``out.boards``/``out.ys`` (a :class:`_Buffers`); ``model``, ``s``: the evaluator's
    tables and scratch.

    A roll that cannot be played leaves the board as it is (row 0).  A result
    that wins the game is taken at once.
    """
    gb = out.boards
    n = movegen.generate(board, d1, d2, flags, checkers, gb, out.moves, out.table)
    if n == 0:
        for i in range(50):
            gb[0, i] = board[i]
        n = 1
    return best_result(gb, n, checkers, model, s, out.ys, True)


@njit(cache=True)
def _run_trials(board0, checkers, flags, plan, model, out):  # type: ignore[no-untyped-def]
    """Play ``plan.count`` trials (:class:`TrialPlan`) from ``board0`` (player on roll
    first) into ``out`` (:class:`_Trials`); root-view results.

    ``res[t]``: the final (or truncated) probabilities; ``luck[t]``: the summed
    luck (zero without ``vr``); ``nplies[t]``: plies played; ``cut[t]``: 1 when
    the trial stopped before the game's end (truncation).  With ``record``,
    per ply (up to ``rec_probs.shape[1]``): the roller's probabilities before
    the roll, the root's equity luck of the roll and the roller's cube efficiency
    (:func:`~gammon.ai.cube.board_efficiency`).  Called from Python once per
    block: ``plan``, ``model`` and ``out`` come as plain tuples
    (:mod:`gammon.ai.kernel_args`).
    """
    p = TrialPlan(*plan)
    m = as_model(model)
    o = _Trials(*out)
    s = new_scratch(m)
    cap = movegen.MAX_RESULTS
    buf = _Buffers(np.zeros((cap + 1, 50), dtype=np.uint8),
                   np.zeros((cap, movegen.MOVE_COLS), dtype=np.int8),
                   np.zeros((movegen.TABLE_ROWS, 4), dtype=np.int64),
                   np.zeros((cap, NUM_OUTPUTS), dtype=np.float32),
                   np.zeros(50, dtype=np.uint8), np.zeros(50, dtype=np.uint8),
                   np.zeros(NUM_OUTPUTS, dtype=np.float64), np.zeros(NUM_OUTPUTS, dtype=np.float64),
                   np.zeros(NUM_OUTPUTS, dtype=np.float64))
    _play_trials(board0, checkers, flags, p, m, s, buf, o)


@njit(cache=True, inline="always")
def _play_roll(dice, vr, flags, checkers, model, s, buf):  # type: ignore[no-untyped-def]
    """Play ``dice`` (d1 >= d2) on ``buf.board``: the best result into ``buf.nxt`` and its
    values into ``buf.ya``; with ``vr`` also the mean over the 21 rolls of their best
    results' values into ``buf.mean`` (the luck of the roll is ``ya - mean``)."""
    d1, d2 = dice
    board = buf.board
    gb = buf.boards
    ys = buf.ys
    ya = buf.ya
    nxt = buf.nxt
    mean = buf.mean
    if vr:
        for o in range(NUM_OUTPUTS):
            mean[o] = 0.0
        for a in range(1, 7):
            for b in range(1, a + 1):
                bi = _best(board, a, b, flags, checkers, model, s, buf)
                wgt = (1.0 if a == b else 2.0) / 36.0
                for o in range(NUM_OUTPUTS):
                    mean[o] += wgt * ys[bi, o]
                if a == d1 and b == d2:
                    for o in range(NUM_OUTPUTS):
                        ya[o] = ys[bi, o]
                    for i in range(50):
                        nxt[i] = gb[bi, i]
    else:
        bi = _best(board, d1, d2, flags, checkers, model, s, buf)
        for o in range(NUM_OUTPUTS):
            ya[o] = ys[bi, o]
        for i in range(50):
            nxt[i] = gb[bi, i]


@njit(cache=True)
def _play_trials(board0, checkers, flags, plan, model, s, buf, out):  # type: ignore[no-untyped-def]
    """:func:`_run_trials` with its bundles named; ``s``, ``buf``: scratch."""
    first_trial, count, seed, perm1, perm2, quasi, truncate, vr, record = plan
    res, luck, nplies, cut, rec_probs, rec_luck, rec_eff = out
    board = buf.board
    nxt = buf.nxt
    cur = buf.cur
    ya = buf.ya
    mean = buf.mean
    y0 = np.zeros(NUM_OUTPUTS, dtype=np.float32)
    state = np.zeros(1, dtype=np.uint64)
    reclen = rec_probs.shape[1]
    static_eval(board0, checkers, model, s, y0)
    for t in range(count):
        trial = first_trial + t
        state[0] = np.uint64(seed) * M1 + np.uint64(trial + 1) * GOLDEN
        for i in range(50):
            board[i] = board0[i]
        for o in range(NUM_OUTPUTS):
            cur[o] = y0[o]
            luck[t, o] = 0.0
        ply = 0
        cut[t] = 0
        while True:
            root = ply % 2 == 0
            if record and ply < reclen:
                for o in range(NUM_OUTPUTS):
                    rec_probs[t, ply, o] = cur[o]
                rec_eff[t, ply] = board_efficiency(board, 0)
                rec_luck[t, ply] = 0.0
            if (truncate >= 0 and ply >= truncate) or ply >= MAX_TRIAL_PLIES:
                _to_root(cur, root, res[t])
                cut[t] = 1
                break
            k = _roll_index(state, trial, ply, quasi, perm1, perm2)
            da = k // 6 + 1
            db = k % 6 + 1
            d1 = max(da, db)
            d2 = min(da, db)
            _play_roll((d1, d2), vr, flags, checkers, model, s, buf)
            if vr:
                l0 = ya[0] - mean[0]
                l1 = ya[1] - mean[1]
                l2 = ya[2] - mean[2]
                l3 = ya[3] - mean[3]
                l4 = ya[4] - mean[4]
                if not root:
                    l0, l1, l2, l3, l4 = -l0, l3, l4, l1, l2
                luck[t, 0] += l0
                luck[t, 1] += l1
                luck[t, 2] += l2
                luck[t, 3] += l3
                luck[t, 4] += l4
                if record and ply < reclen:
                    rec_luck[t, ply] = 2.0 * l0 + l1 - l3 + l2 - l4
            ply += 1
            if side_empty(nxt, 0):
                _to_root(ya, root, res[t])
                break
            for i in range(25):
                board[i] = nxt[25 + i]
                board[25 + i] = nxt[i]
            cur[0] = 1.0 - ya[0]
            cur[1] = ya[3]
            cur[2] = ya[4]
            cur[3] = ya[1]
            cur[4] = ya[2]
        nplies[t] = ply


@njit(cache=True)
def _to_root(v, root, out):  # type: ignore[no-untyped-def]
    """``v`` (the view of the player on roll at a ply) in the root player's view."""
    if root:
        for o in range(5):
            out[o] = v[o]
    else:
        out[0] = 1.0 - v[0]
        out[1] = v[3]
        out[2] = v[4]
        out[3] = v[1]
        out[4] = v[2]


# -- the Python driver ----------------------------------------------------------------------


@dataclass
class _Job:
    """Everything a worker needs for a rollout (sent once per worker)."""

    board: np.ndarray
    checkers: int
    flags: int
    settings: RolloutSettings
    perm1: np.ndarray
    perm2: np.ndarray
    kernel: Model | None
    evaluator: Any
    choose: Chooser | None
    variant: Any
    cube_info: CubeInfo | None
    met: MatchEquityTable | None


def _flip5(v: np.ndarray) -> np.ndarray:
    out: np.ndarray = flip_rows(v)[0]
    return out


def _splitmix(state: list[int]) -> int:
    state[0] = (state[0] + int(GOLDEN)) & _MASK
    z = state[0]
    z = ((z ^ (z >> 30)) * int(M1)) & _MASK
    z = ((z ^ (z >> 27)) * int(M2)) & _MASK
    return z ^ (z >> 31)


class _PyPlayer:
    """The slow path: trials driven from Python through ``evaluate_batch``."""

    def __init__(self, job: _Job) -> None:
        self.job = job
        self.ev = job.evaluator

    def _results(self, position: Position, dice: tuple[int, int]) -> list[Position]:
        plays = position.legal_plays(dice)
        return plays.positions() if len(plays) else [position]

    def _values(self, results: list[Position]) -> np.ndarray:
        """Mover's-view probabilities of move results."""
        out = np.zeros((len(results), NUM_OUTPUTS))
        live: list[int] = []
        for i, r in enumerate(results):
            o = r.outcome
            if o is None:
                live.append(i)
            else:
                g = 1.0 if o.kind >= 2 else 0.0
                bg = 1.0 if o.kind >= 3 else 0.0
                out[i] = (1.0, g, bg, 0.0, 0.0) if o.winner_is_me else (0.0, 0.0, 0.0, g, bg)
        if live:
            vals = np.asarray(self.ev.evaluate_batch([results[i].swap() for i in live]), dtype=np.float64)
            for j, i in enumerate(live):
                out[i] = _flip5(vals[j])
        return out

    def _best(self, position: Position, dice: tuple[int, int]) -> tuple[Position, np.ndarray]:
        results = self._results(position, dice)
        vals = self._values(results)
        for i, r in enumerate(results):
            if r.outcome is not None:
                return r, vals[i]
        eqs = 2.0 * vals[:, 0] - 1.0 + vals[:, 1] - vals[:, 3] + vals[:, 2] - vals[:, 4]
        i = int(np.argmax(eqs))
        return results[i], vals[i]

    def _chosen(self, position: Position, dice: tuple[int, int]) -> tuple[Position, np.ndarray]:
        choose = self.job.choose
        if choose is None:
            return self._best(position, dice)
        pick = choose(position, dice)
        if isinstance(pick, Play):
            result = pick.position
        elif isinstance(pick, Position):
            result = pick
        else:
            result = position
        return result, self._values([result])[0]

    def run(self, first_trial: int, count: int, out: _Trials) -> None:
        job = self.job
        s = job.settings
        start = Position._make(job.board.tobytes(), job.variant)
        y0 = np.asarray(self.ev.evaluate(start), dtype=np.float64)
        trunc = -1 if s.truncate_at is None else s.truncate_at
        reclen = out.rec_probs.shape[1]
        record = s.cubeful
        for t in range(count):
            trial = first_trial + t
            state = [(s.seed * int(M1) + (trial + 1) * int(GOLDEN)) & _MASK]
            pos = start
            cur = y0.copy()
            ply = 0
            while True:
                root = ply % 2 == 0
                if record and ply < reclen:
                    out.rec_probs[t, ply] = cur
                    out.rec_eff[t, ply] = board_efficiency(np.frombuffer(pos.board, dtype=np.uint8), 0)
                if (trunc >= 0 and ply >= trunc) or ply >= MAX_TRIAL_PLIES:
                    out.res[t] = cur if root else _flip5(cur)
                    out.cut[t] = 1
                    break
                if s.quasi_random and ply == 0:
                    k = int(job.perm1[trial % 36])
                elif s.quasi_random and ply == 1:
                    k = int(job.perm2[(11 * (trial % 36) + trial // 36) % 36])
                else:
                    k = _splitmix(state) % 36
                d1, d2 = max(k // 6, k % 6) + 1, min(k // 6, k % 6) + 1
                if s.variance_reduction:
                    mean = np.zeros(NUM_OUTPUTS)
                    yb = mean
                    for a in range(1, 7):
                        for b2 in range(1, a + 1):
                            r, v = self._best(pos, (a, b2))
                            mean += (1.0 if a == b2 else 2.0) / 36.0 * v
                            if (a, b2) == (d1, d2):
                                nxt, ya = r, v
                                yb = v
                    if job.choose is not None:
                        nxt, ya = self._chosen(pos, (d1, d2))
                    lk = yb - mean
                    lk_root = lk if root else np.array([-lk[0], lk[3], lk[4], lk[1], lk[2]])
                    out.luck[t] += lk_root
                    if record and ply < reclen:
                        out.rec_luck[t, ply] = 2.0 * lk_root[0] + lk_root[1] - lk_root[3] + (
                            lk_root[2] - lk_root[4])
                else:
                    nxt, ya = self._chosen(pos, (d1, d2))
                ply += 1
                if nxt.outcome is not None:
                    out.res[t] = ya if root else _flip5(ya)
                    break
                pos = nxt.swap()
                cur = _flip5(ya)
            out.nplies[t] = ply


def _run_block(job: _Job, first_trial: int, count: int) -> _Trials:
    s = job.settings
    record = min(MAX_TRIAL_PLIES + 1, 4096) if s.cubeful else 0
    out = _Trials.create(count, record)
    if job.kernel is not None and job.choose is None:
        plan = TrialPlan(first_trial, count, s.seed, job.perm1, job.perm2, s.quasi_random,
                         -1 if s.truncate_at is None else s.truncate_at, s.variance_reduction,
                         s.cubeful)
        _run_trials(job.board, job.checkers, job.flags, tuple(plan),  # type: ignore[call-arg]
                    tuple(job.kernel), tuple(out))
    else:
        _PyPlayer(job).run(first_trial, count, out)
    return out


def _block_values(job: _Job, block: _Trials) -> np.ndarray:
    """Per-trial values: 5 adjusted probabilities, then cubeful equity and MWC (NaN if none)."""
    n = block.res.shape[0]
    vals = np.full((n, NUM_OUTPUTS + 3), np.nan)
    vals[:, :NUM_OUTPUTS] = block.res - block.luck
    vals[:, NUM_OUTPUTS + 2] = block.nplies
    if job.settings.cubeful:
        info = job.cube_info or CubeInfo()
        met = job.met
        for t in range(n):
            vals[t, NUM_OUTPUTS : NUM_OUTPUTS + 2] = _cubeful_trial(block, t, info, met, job.settings)
    return vals


def _cubeful_trial(block: _Trials, t: int, info0: CubeInfo, met: MatchEquityTable | None,
                   s: RolloutSettings) -> tuple[float, float]:
    """Replay the cube over trial ``t``: (root's cubeful equity normalised to the start cube, MWC)."""
    value = info0.value
    owner = info0.owner  # relative to the root player: CENTERED, 0 root, 1 opponent
    v0 = info0.value
    money = info0.is_money
    a0, b0 = info0.away
    post = info0.crawford or info0.post_crawford
    after = None
    if not money:
        assert met is not None
        after = met.after_post if post else met.after_pre
    nplies = int(block.nplies[t])
    reclen = block.rec_probs.shape[1]
    cut = bool(block.cut[t])
    vr_adjust = 0.0
    final: float | None = None  # root's money points or MWC
    ended = False
    for ply in range(min(nplies + 1, reclen)):
        root = ply % 2 == 0
        probs = block.rec_probs[t, ply]
        x = float(block.rec_eff[t, ply])
        rel_owner = owner if root else owner.swap()
        info = replace(
            info0, value=value, owner=rel_owner,
            score=info0.score if root else (info0.score[1], info0.score[0]),
        )
        at_end = ply == nplies
        truncated = at_end and cut
        if at_end and not truncated:
            break
        if truncated:
            d = cube_decision(probs, info, x, met)
            if money:
                mine = d.equity * value / v0
                final = mine if root else -mine
            else:
                pm = d.proper_mwc
                assert pm is not None
                final = pm if root else 1.0 - pm
            ended = True
            break
        if rel_owner is not RelativeOwner.OPPONENT and not info.crawford and value * 2 <= info.cube_limit:
            d = cube_decision(probs, info, x, met)
            if d.doubles:
                if d.taker_action == PASS:
                    sign = 1 if root else -1
                    if money:
                        final = sign * value / v0
                    else:
                        assert after is not None
                        final = after(a0 - value, b0) if root else after(a0, b0 - value)
                    ended = True
                    break
                if d.taker_action == BEAVER:
                    # The taker redoubles at once and keeps the cube.
                    value = min(value * 4, info.cube_limit)
                    owner = RelativeOwner.OPPONENT if root else RelativeOwner.ME
                else:
                    value *= 2
                    owner = RelativeOwner.OPPONENT if root else RelativeOwner.ME
        lk = float(block.rec_luck[t, ply])
        if lk:
            if money:
                vr_adjust += lk * value / v0
            else:
                assert after is not None
                vr_adjust += lk * 0.5 * (after(a0 - value, b0) - after(a0, b0 - value))
    if not ended:
        final = _game_end(block.res[t], info0, value, owner, after)
    assert final is not None
    if money:
        return final - vr_adjust, math.nan
    assert met is not None
    mwc = final - vr_adjust
    emg = met.mwc_to_emg(mwc, a0, b0, v0, post_crawford=post)
    return emg, mwc


def _game_end(res: np.ndarray, info0: CubeInfo, value: int, owner: RelativeOwner,
              after: Callable[[int, int], float] | None) -> float:
    """What a trial that played to the end (root-view result ``res``) is worth to the root
    with the cube at ``value`` owned by ``owner``: money points over the starting cube,
    or the match winning chances (``after``: the match equity after a game)."""
    win = res[0] > 0.5
    if win:
        kind = 1 + int(res[1] > 0.5) + int(res[2] > 0.5)
    else:
        kind = 1 + int(res[3] > 0.5) + int(res[4] > 0.5)
    pts = info0.points_for(kind, value, owner)  # core's scoring: gammons, Jacoby, the cube
    if info0.is_money:
        return (pts if win else -pts) / info0.value
    assert after is not None
    a0, b0 = info0.away
    return after(a0 - pts, b0) if win else after(a0, b0 - pts)


# -- worker processes ---------------------------------------------------------------------

_worker_job: _Job | None = None


def _init_worker(job: _Job) -> None:
    global _worker_job
    _worker_job = job


def _work(first_trial: int, count: int) -> np.ndarray:
    assert _worker_job is not None
    return _block_values(_worker_job, _run_block(_worker_job, first_trial, count))


def _job_block(job: _Job, block: tuple[int, int]) -> np.ndarray:
    """One block of trials ``(first_trial, count)`` as a task of a :mod:`gammon.ai.distributed` runner."""
    return _block_values(job, _run_block(job, *block))


# -- public API ---------------------------------------------------------------------------


def _kernel_of(evaluator: Any) -> tuple[Model | None, Any]:
    """The compiled-path arguments (weights, bear-off tables, switch) and a Python evaluator."""
    from gammon.ai.evaluator import CompiledEvaluator, Evaluator, NetEvaluator
    from gammon.ai.search import PlyEvaluator

    if isinstance(evaluator, Network):
        evaluator = NetEvaluator(evaluator)
    if isinstance(evaluator, PlyEvaluator) and evaluator.plies == 0:
        evaluator = evaluator.inner
    if isinstance(evaluator, CompiledEvaluator):
        return evaluator.kernel_model(), evaluator
    if not isinstance(evaluator, Evaluator):
        raise GammonError("a rollout needs a Network or an evaluator with evaluate_batch")
    return None, evaluator


def _summarise(vals: np.ndarray, settings: RolloutSettings, stopped: bool,
               seconds: float, cubeful: bool, match: bool) -> RolloutResult:
    n = vals.shape[0]
    nplies = float(vals[:, NUM_OUTPUTS + 2].mean())
    probs = vals[:, :NUM_OUTPUTS]
    eqs = equities(probs)

    def se(col: np.ndarray) -> float:
        return float(np.std(col, ddof=1) / math.sqrt(n)) if n > 1 else math.inf

    mean = probs.mean(axis=0)
    ce = cse = cm = cmse = None
    if cubeful:
        ce = float(vals[:, NUM_OUTPUTS].mean())
        cse = se(vals[:, NUM_OUTPUTS])
        if match:
            cm = float(vals[:, NUM_OUTPUTS + 1].mean())
            cmse = se(vals[:, NUM_OUTPUTS + 1])
    return RolloutResult(
        probs=tuple(float(v) for v in mean),  # type: ignore[arg-type]
        equity=float(eqs.mean()),
        se_probs=tuple(se(probs[:, o]) for o in range(NUM_OUTPUTS)),  # type: ignore[arg-type]
        se_equity=se(eqs),
        trials=n,
        stopped_early=stopped,
        cubeful_equity=ce,
        se_cubeful=cse,
        cubeful_mwc=cm,
        se_mwc=cmse,
        mean_plies=nplies,
        seconds=seconds,
        settings=settings,
    )


def _make_job(position: Position, evaluator_or_network: Any, s: RolloutSettings, info: CubeInfo,
              choose: Chooser | None, met: MatchEquityTable | None) -> _Job:
    """The :class:`_Job` of a rollout of ``position`` (see :func:`rollout`)."""
    kernel, evaluator = _kernel_of(evaluator_or_network)
    match = s.cubeful and not info.is_money
    if match and met is None:
        met = default_met(max(info.away))
    rng = np.random.default_rng(s.seed)
    v = position.variant
    return _Job(
        board=np.frombuffer(position.board, dtype=np.uint8).copy(),
        checkers=v.checkers,
        flags=v.flags,
        settings=s,
        perm1=rng.permutation(36).astype(np.int64),
        perm2=rng.permutation(36).astype(np.int64),
        kernel=kernel,
        evaluator=None if kernel is not None and choose is None else evaluator,
        choose=choose,
        variant=v,
        cube_info=info,
        met=met if match else None,
    )


def _finished_blocks(job: _Job, blocks: list[tuple[int, int]],
                     runner: Runner | None) -> Iterator[list[tuple[int, np.ndarray]]]:
    """Run the ``blocks`` of trials ``(first_trial, count)`` of ``job``: in this process, in
    ``job.settings.processes`` worker processes or on ``runner``; yields the blocks as they
    finish, ``(index, values)`` in batches (the caller reports progress after each batch).
    Closing the generator cancels the blocks still running."""
    processes = job.settings.processes
    if runner is not None:
        finished_blocks = runner.imap_unordered(_job_block, job, blocks)
        try:
            for i, vals in finished_blocks:
                yield [(i, vals)]
        finally:
            close = getattr(finished_blocks, "close", None)
            if close is not None:
                close()
    elif processes == 1:
        for i, (first_trial, count) in enumerate(blocks):
            yield [(i, _block_values(job, _run_block(job, first_trial, count)))]
    else:
        # fork where the platform has it: workers start at once with the compiled
        # code loaded, and scripts need no ``if __name__ == "__main__"`` guard.
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        ctx = multiprocessing.get_context(method)
        with ProcessPoolExecutor(processes, mp_context=ctx, initializer=_init_worker,
                                 initargs=(job,)) as pool:
            pending: dict[Future[np.ndarray], int] = {}
            nxt = 0
            try:
                while nxt < len(blocks) or pending:
                    while nxt < len(blocks) and len(pending) < 2 * processes:
                        pending[pool.submit(_work, *blocks[nxt])] = nxt
                        nxt += 1
                    finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                    yield [(pending.pop(fut), fut.result()) for fut in finished]
            finally:
                for fut in pending:
                    fut.cancel()


def rollout(
    position: Position,
    evaluator_or_network: Any,
    settings: RolloutSettings | None = None,
    progress: ProgressCallback | None = None,
    cube_info: CubeInfo | None = None,
    choose: Chooser | None = None,
    met: MatchEquityTable | None = None,
    runner: Runner | None = None,
) -> RolloutResult:
    """Roll out ``position`` (the player on roll rolls first).

    ``evaluator_or_network``: a :class:`~gammon.ai.network.Network` or an
    evaluator (``evaluate``/``evaluate_batch``; one with ``kernel_model()`` runs
    compiled).  ``progress(done, total)`` is called after each block of trials.
    ``cube_info``: the cube and score for a cubeful rollout (default: money,
    centred cube).  ``choose(position, dice)``: another checker-play policy
    (a :class:`Play`, the resulting position in the mover's view, or None to
    pass); it runs in Python.  ``runner``: a :mod:`gammon.ai.distributed`
    runner (Ray) for the blocks of trials instead of ``settings.processes``;
    the result is the same bit for bit.

    :raises GammonError: a finished game, a variant with bonus rolls, bad settings.
    """
    s = settings or RolloutSettings()
    if position.outcome is not None:
        raise GammonError("the game is over: there is nothing to roll out")
    v = position.variant
    if v.acey_deucey_bonus or v.pays_per_checker:
        raise GammonError(f"rollouts do not handle {v.title}'s bonus rolls and scoring")
    info = cube_info or CubeInfo()
    match = s.cubeful and not info.is_money
    job = _make_job(position, evaluator_or_network, s, info, choose, met)
    t0 = time.perf_counter()
    blocks = [(i, min(BATCH, s.trials - i)) for i in range(0, s.trials, BATCH)]
    done: dict[int, np.ndarray] = {}
    prefix: list[np.ndarray] = []
    stopped = False
    target = s.target_se

    def advance() -> bool:
        """Extend the finished prefix; True when the target error is reached."""
        while len(prefix) < len(blocks) and len(prefix) in done:
            prefix.append(done.pop(len(prefix)))
            if target is not None:
                vals = np.concatenate(prefix)
                n = vals.shape[0]
                if n >= s.min_trials and n < s.trials:
                    col = vals[:, NUM_OUTPUTS] if s.cubeful else equities(vals[:, :NUM_OUTPUTS])
                    if float(np.std(col, ddof=1)) / math.sqrt(n) < target:
                        return True
        return False

    count_done = 0
    finished = _finished_blocks(job, blocks, runner)
    try:
        for batch in finished:
            for i, vals in batch:
                done[i] = vals
                count_done += blocks[i][1]
            if progress is not None:
                progress(count_done, s.trials)
            if advance():
                stopped = True
                break
    finally:
        finished.close()  # cancels the blocks still running
    vals = np.concatenate(prefix)
    return _summarise(vals, s, stopped, time.perf_counter() - t0, s.cubeful, match)


def rollout_play(
    position: Position,
    play: Play | Position,
    evaluator_or_network: Any,
    settings: RolloutSettings | None = None,
    progress: ProgressCallback | None = None,
    cube_info: CubeInfo | None = None,
    choose: Chooser | None = None,
    met: MatchEquityTable | None = None,
    runner: Runner | None = None,
) -> RolloutResult:
    """Roll out the position after ``play`` (made by the player on roll of ``position``).

    ``play`` is a :class:`Play` or the resulting position in the mover's view;
    ``cube_info`` is the mover's.  The result is from the mover's view; a play
    that wins the game gives its exact result.

    :raises GammonError: a finished ``position``.
    """
    s = settings or RolloutSettings()
    result = play.position if isinstance(play, Play) else play
    if position.outcome is not None:
        raise GammonError("the game is over: there is nothing to roll out")
    o = result.outcome
    if o is not None:
        g = 1.0 if o.kind >= 2 else 0.0
        bg = 1.0 if o.kind >= 3 else 0.0
        probs = (1.0, g, bg, 0.0, 0.0) if o.winner_is_me else (0.0, 0.0, 0.0, g, bg)
        eq = equity(probs)
        info = cube_info or CubeInfo()
        ce = cm = None
        if s.cubeful:
            k = info.points_for(o.kind)  # core's scoring: gammons, Jacoby, the cube
            if info.is_money:
                ce = float(k // info.value if o.winner_is_me else -(k // info.value))
            else:
                m = met or default_met(max(info.away))
                a, b = info.away
                post = info.crawford or info.post_crawford
                cm = m.after_game(a - k, b, post) if o.winner_is_me else m.after_game(a, b - k, post)
                ce = m.mwc_to_emg(cm, a, b, info.value, post)
        return RolloutResult(
            probs=probs, equity=eq, se_probs=(0.0, 0.0, 0.0, 0.0, 0.0), se_equity=0.0, trials=0,
            stopped_early=False, cubeful_equity=ce, se_cubeful=0.0 if ce is not None else None,
            cubeful_mwc=cm, se_mwc=0.0 if cm is not None else None, settings=s,
        )
    inner = (cube_info or CubeInfo()).swap()
    res = rollout(result.swap(), evaluator_or_network, s, progress, inner, choose, met, runner)
    return res.flipped()

