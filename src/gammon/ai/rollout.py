"""Rollouts: play a position out many times and average the results.

Each trial plays the game to the end (or ``truncate_at`` plies, where the
evaluator's probabilities stand in for the rest) with both sides choosing the
best play of every roll by the evaluator at 0-ply.  A cubeless trial stops where
the race reaches the bear-off tables (``stop_at_bearoff``, as GNU Backgammon's
rollouts stop at its bear-off databases): from there the tables give the
chances the trial would otherwise play out (the evaluator plays those races by
the same tables), without the dice's noise and in about a fifth less time.
A rollout of a position the tables value plays its trials out, and so do
cubeful trials (a race's cube turns are played) and trials driven from Python.  The trials give the mean
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
  the opponent takes, passes or beavers as it says (the player on roll of the
  position itself only with ``first_cube_action``: without it the rollout is of
  *no double*, as a cube decision needs it beside double/take).  In money play the compiled
  trials follow the cube as they go (the same rule, :mod:`gammon.ai.cube_money`)
  and stop where a double is passed, as GNU Backgammon's do: the cubeful result
  is the one playing on would give, and the about 30% of plies that would follow
  from the opening position are not played.  Such a trial's cubeless result is
  then the evaluator's value where it stopped, as in a truncated rollout (a
  cubeless rollout plays every game out).

Standard errors are the spread of the per-trial results over the square root
of the trials; with ``target_se`` the rollout stops at the first multiple of 36
trials (at least ``min_trials``) where the error of the equity is below it.
"""

from __future__ import annotations

import math
import multiprocessing
import time
from collections.abc import Callable, Generator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from gammon.ai.cube import BEAVER, OWNER_CODES, PASS, CubeInfo, cube_decision
from gammon.ai.distributed import Runner
from gammon.ai.kernel_args import Model
from gammon.ai.met import MatchEquityTable, default_met
from gammon.ai.network import NUM_OUTPUTS, Network
from gammon.ai.probabilities import equities, equity
from gammon.ai.rollout_trials import Chooser, RolloutJob, Trials, run_block
from gammon.ai.trial_cube import MoneyCube, cube_turn
from gammon.core.cube import RelativeOwner
from gammon.core.errors import GammonError
from gammon.core.plays import Play
from gammon.core.position import Position
from gammon.core.variants import Variant

__all__ = [
    "RolloutResult",
    "RolloutSettings",
    "can_roll_out",
    "rollout",
    "rollout_play",
]

#: Trials are run, checked and reported in blocks of this many (one turn of the 36 first rolls).
BATCH = 36


ProgressCallback = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class RolloutSettings:
    """How a rollout runs.

    ``trials``: how many games (at most, with ``target_se``); ``seed``: the dice;
    ``truncate_at``: plies after which the evaluator values the position (None:
    play to the end); ``stop_at_bearoff``: a cubeless trial stops where the bear-off
    tables value the position (see the module doc); ``variance_reduction``, ``quasi_random``: see the module
    doc; ``cubeful``: also play the cube; ``processes``: worker processes (1:
    none); ``target_se``: stop once the standard error of the equity (the
    cubeful one in a cubeful rollout) is below this, after at least
    ``min_trials``; ``first_cube_action``: in a cubeful rollout the player on
    roll may double before his first roll (False: he may not, the rollout of
    *no double* that a cube decision compares with double/take; with True a
    position he should double is valued as doubled, and its "no double" would
    come out as its double/take).
    """

    trials: int = 1296
    seed: int = 1
    truncate_at: int | None = None
    stop_at_bearoff: bool = True
    variance_reduction: bool = True
    quasi_random: bool = True
    cubeful: bool = False
    processes: int = 1
    target_se: float | None = None
    min_trials: int = 144
    first_cube_action: bool = True

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


# -- the values of the trials ----------------------------------------------------------------


def _block_values(job: RolloutJob, block: Trials) -> np.ndarray:
    """Per-trial values: 5 adjusted probabilities, then cubeful equity and MWC (NaN if none)."""
    n = block.res.shape[0]
    vals = np.full((n, NUM_OUTPUTS + 3), np.nan)
    vals[:, :NUM_OUTPUTS] = block.res - block.luck
    vals[:, NUM_OUTPUTS + 2] = block.nplies
    if job.settings.cubeful:
        info = job.cube_info or CubeInfo()
        met = job.met
        cube = MoneyCube.of(job.settings, info)
        for t in range(n):
            vals[t, NUM_OUTPUTS : NUM_OUTPUTS + 2] = _cubeful_trial(block, t, info, met, cube)
    return vals


#: The cube's owner seen by the root player, as the compiled money rule numbers it, and back.
_OWNER_OF_CODE = {code: owner for owner, code in OWNER_CODES.items()}


def _cubeful_trial(block: Trials, t: int, info0: CubeInfo, met: MatchEquityTable | None,
                   cube: MoneyCube) -> tuple[float, float]:
    """Replay the cube over trial ``t``: (root's cubeful equity normalised to the start cube, MWC).

    In money play each turn's cube action is the compiled rule's (:func:`cube_turn`, the
    trials' own), in match play :func:`cube_decision`'s.
    """
    state = np.array([info0.value, OWNER_CODES[info0.owner]], dtype=np.int64)
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
        at_end = ply == nplies
        truncated = at_end and cut
        if at_end and not truncated:
            break
        if truncated or not money:
            info = replace(
                info0, value=value, owner=rel_owner,
                score=info0.score if root else (info0.score[1], info0.score[0]),
            )
        if truncated:
            d = cube_decision(probs, info, x, met)
            held = ply == 0 and not cube.first  # no double at the root's first turn
            if money:
                mine = (d.no_double if held else d.equity) * value / v0
                final = mine if root else -mine
            else:
                pm = d.mwc[0] if held and d.mwc is not None else d.proper_mwc
                assert pm is not None
                final = pm if root else 1.0 - pm
            ended = True
            break
        if ply == 0 and not cube.first:  # no double at the root's first turn (a "no double" rollout)
            pass
        elif money:
            if cube_turn(cube, state, probs, x, root):  # a double passed
                final = (1 if root else -1) * value / v0
                ended = True
                break
            value = int(state[0])
            owner = _OWNER_OF_CODE[int(state[1])]
        elif rel_owner is not RelativeOwner.OPPONENT and not info.crawford and value * 2 <= info.cube_limit:
            d = cube_decision(probs, info, x, met)
            if d.doubles:
                if d.taker_action == PASS:
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

_worker_job: RolloutJob | None = None


def _init_worker(job: RolloutJob) -> None:
    global _worker_job
    _worker_job = job


def _work(first_trial: int, count: int) -> np.ndarray:
    assert _worker_job is not None
    return _block_values(_worker_job, run_block(_worker_job, first_trial, count))


def _job_block(job: RolloutJob, block: tuple[int, int]) -> np.ndarray:
    """One block of trials ``(first_trial, count)`` as a task of a :mod:`gammon.ai.distributed` runner."""
    return _block_values(job, run_block(job, *block))


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
              choose: Chooser | None, met: MatchEquityTable | None) -> RolloutJob:
    """The :class:`RolloutJob` of a rollout of ``position`` (see :func:`rollout`)."""
    kernel, evaluator = _kernel_of(evaluator_or_network)
    match = s.cubeful and not info.is_money
    if match and met is None:
        met = default_met(max(info.away))
    rng = np.random.default_rng(s.seed)
    v = position.variant
    return RolloutJob(
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


def _finished_blocks(job: RolloutJob, blocks: list[tuple[int, int]],
                     runner: Runner | None) -> Generator[list[tuple[int, np.ndarray]], None, None]:
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
            yield [(i, _block_values(job, run_block(job, first_trial, count)))]
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


def can_roll_out(variant: Variant) -> bool:
    """Whether :func:`rollout` plays ``variant`` out: not Acey-Deucey's bonus rolls, nor a
    variant that pays per checker."""
    return not (variant.acey_deucey_bonus or variant.pays_per_checker)


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
    if not can_roll_out(v):
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

