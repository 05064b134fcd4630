"""The trials of a rollout (:mod:`gammon.ai.rollout`): play a position out to the end.

Each trial plays the game to the end (or a truncation) with both sides choosing
the best play of every roll by the evaluator at 0-ply, and measures the luck of
each roll (variance reduction, see the rollout module doc).  Whole trials run
inside one numba function (:func:`run_trials`) over the move generator's
boards; an evaluator without compiled tables, or another checker-play policy,
is driven from Python (:class:`PythonPlayer`), much slower.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numba import njit

from gammon.ai.cube import CubeInfo, board_efficiency, outcome_probabilities
from gammon.ai.evaluator import best_result, set_base, static_eval, valued_by_tables
from gammon.ai.kernel_args import Model, as_model, new_base, new_scratch
from gammon.ai.met import MatchEquityTable
from gammon.ai.network import NUM_OUTPUTS, side_empty
from gammon.ai.probabilities import equities, flip_rows
from gammon.ai.rng import GOLDEN, M1, M2, next_u64
from gammon.ai.trial_cube import MoneyCube, cube_turn
from gammon.core import movegen
from gammon.core.borrowed import borrowed
from gammon.core.plays import Play
from gammon.core.position import Position

if TYPE_CHECKING:
    from gammon.ai.rollout import RolloutSettings

#: Most plies a trial may last; a longer game stops there and is valued by the evaluator.
MAX_TRIAL_PLIES = 2000

_MASK = (1 << 64) - 1

#: Another checker-play policy for the trials: ``choose(position, dice)`` gives a
#: :class:`Play`, the resulting position in the mover's view, or None to pass.
Chooser = Callable[[Position, tuple[int, int]], "Position | Play | None"]


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
    """Which trials :func:`run_trials` plays and how (see :class:`RolloutSettings`).

    Trials ``first_trial`` to ``first_trial + n_trials - 1`` of a rollout with dice
    ``seed``; ``perm1``/``perm2``: the seed's orders of the 36 rolls (``quasi``:
    use them for the first two rolls); ``truncate``: plies after which the
    evaluator values the position (-1: none); ``tables``: stop where the bear-off tables
    value the position (unless the position itself is one); ``vr``: variance reduction;
    ``record``: keep each ply's probabilities, luck and cube efficiency; ``cube``: a
    trial ends where the cube ends the game (money play, :class:`MoneyCube`).
    """

    first_trial: int
    n_trials: int
    seed: int
    perm1: np.ndarray
    perm2: np.ndarray
    quasi: bool
    truncate: int
    tables: bool
    vr: bool
    record: bool
    cube: MoneyCube


class Trials(NamedTuple):
    """Per-trial results of one block: root-view results, luck, plies and the records
    (:func:`run_trials` writes them)."""

    res: np.ndarray
    luck: np.ndarray
    nplies: np.ndarray
    cut: np.ndarray
    rec_probs: np.ndarray
    rec_luck: np.ndarray
    rec_eff: np.ndarray

    @classmethod
    def create(cls, count: int, record: int) -> Trials:
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


class FirstPlies(NamedTuple):
    """The first two plies of a rollout, which its trials share: ply 0 from the position
    itself (slot 0), ply 1 after each of the 21 first rolls (slot 1 + the roll's number).

    A variance-reduced trial needs a ply's whole roll table (:func:`_roll_table`), made
    once per process when a trial first needs it (``filled[slot]``); a plain trial the best
    result of its own roll, kept per roll (``played[slot, roll]``).  From the opening
    position they are about 2 of a trial's 55 plies, and among the costliest (the most
    results to value)."""

    boards: np.ndarray
    ys: np.ndarray
    mean: np.ndarray
    filled: np.ndarray
    played: np.ndarray

    @classmethod
    def create(cls) -> FirstPlies:
        """Empty tables (none filled)."""
        return cls(np.zeros((22, 21, 50), dtype=np.uint8), np.zeros((22, 21, NUM_OUTPUTS)),
                   np.zeros((22, NUM_OUTPUTS)), np.zeros((22, 1), dtype=np.bool_),
                   np.zeros((22, 21), dtype=np.bool_))


class _Buffers(NamedTuple):
    """A trial's working arrays: the move generator's output and the 0-ply values of a
    roll's results (``boards``, ``moves``, ``table``, ``ys``); the board on roll, the
    chosen result (``nxt``, ``ya``: its values, mover's view), the probabilities
    before the roll (``cur``) and the mean over the 21 rolls (``mean``); the board on
    roll's inputs and hidden sums (``base``), from which the results of its rolls are
    valued (:func:`~gammon.ai.evaluator.best_result`)."""

    boards: np.ndarray
    moves: np.ndarray
    table: np.ndarray
    ys: np.ndarray
    board: np.ndarray
    nxt: np.ndarray
    cur: np.ndarray
    ya: np.ndarray
    mean: np.ndarray
    base: Any


@njit(cache=True)
def _best(board, d1, d2, flags, checkers, model, s, out):  # type: ignore[no-untyped-def]
    """The best result of a roll by 0-ply cubeless equity (mover's view), its index in
    ``out.boards``/``out.ys`` (a :class:`_Buffers`); ``model``, ``s``: the evaluator's
    tables and scratch.

    A roll that cannot be played leaves the board as it is (row 0).  A result
    that wins the game is taken at once.
    """
    # no reference counting of the caller's arrays (gammon.core.borrowed)
    board, model, s, out = borrowed((board, model, s, out))
    gb = out.boards
    n = movegen.generate(board, d1, d2, flags, checkers, gb, out.moves, out.table)
    if n == 0:
        for i in range(50):
            gb[0, i] = board[i]
        n = 1
    return best_result(gb, n, checkers, model, s, out.ys, True, out.base)


@njit(cache=True)
def run_trials(board0, checkers, flags, plan, model, out, memo):  # type: ignore[no-untyped-def]
    """Play ``plan.n_trials`` trials (:class:`TrialPlan`) from ``board0`` (player on roll
    first) into ``out`` (:class:`Trials`); root-view results.

    ``res[t]``: the final (or truncated) probabilities; ``luck[t]``: the summed
    luck (zero without ``vr``); ``nplies[t]``: plies played; ``cut[t]``: 1 when
    the trial stopped before the game's end (truncation).  With ``record``,
    per ply (up to ``rec_probs.shape[1]``): the roller's probabilities before
    the roll, the root's equity luck of the roll and the roller's cube efficiency
    (:func:`~gammon.ai.cube.board_efficiency`).  Called from Python once per
    block: ``plan``, ``model`` and ``out`` come as plain tuples
    (:mod:`gammon.ai.kernel_args`).  ``memo``: the rollout's :class:`FirstPlies`,
    filled as the trials need them.
    """
    p = TrialPlan(*plan)
    m = as_model(model)
    o = Trials(*out)
    s = new_scratch(m)
    cap = movegen.MAX_RESULTS
    buf = _Buffers(np.zeros((cap + 1, 50), dtype=np.uint8),
                   np.zeros((cap, movegen.MOVE_COLS), dtype=np.int8),
                   np.zeros((movegen.TABLE_ROWS, 4), dtype=np.int64),
                   np.zeros((cap, NUM_OUTPUTS), dtype=np.float32),
                   np.zeros(50, dtype=np.uint8), np.zeros(50, dtype=np.uint8),
                   np.zeros(NUM_OUTPUTS, dtype=np.float64), np.zeros(NUM_OUTPUTS, dtype=np.float64),
                   np.zeros(NUM_OUTPUTS, dtype=np.float64), new_base(m))
    # The roll table of a ply past the first two (made afresh each time), the cube's
    # state, the root's values and the dice's state: made here, so that _play_trials
    # borrows them with the rest.
    local = ((np.zeros((21, 50), dtype=np.uint8), np.zeros((21, NUM_OUTPUTS)),
              np.zeros(NUM_OUTPUTS), np.zeros(1, dtype=np.bool_)),
             np.zeros(2, dtype=np.int64), np.zeros(NUM_OUTPUTS, dtype=np.float32), np.zeros(1, dtype=np.uint64))
    _play_trials(board0, checkers, flags, p, m, s, buf, o, memo, local)


@njit(cache=True, inline="always")
def _roll_number(d1, d2):  # type: ignore[no-untyped-def]
    """The roll d1-d2 (d1 >= d2) as 0..20, in the order 1-1, 2-1, 2-2, 3-1, ..., 6-6."""
    return d1 * (d1 - 1) // 2 + d2 - 1


@njit(cache=True)
def _roll_table(flags, checkers, model, s, buf, boards, ys, mean):  # type: ignore[no-untyped-def]
    """Every roll of ``buf.board`` (``buf.base`` set from it): the best result of roll
    ``r`` (:func:`_roll_number`) into ``boards[r]`` and its values into ``ys[r]``, the
    mean over the 36 rolls of those values into ``mean``."""
    board = buf.board
    gb = buf.boards
    bys = buf.ys
    for o in range(NUM_OUTPUTS):
        mean[o] = 0.0
    for a in range(1, 7):
        for b in range(1, a + 1):
            bi = _best(board, a, b, flags, checkers, model, s, buf)
            r = _roll_number(a, b)
            wgt = (1.0 if a == b else 2.0) / 36.0
            for o in range(NUM_OUTPUTS):
                ys[r, o] = bys[bi, o]
                mean[o] += wgt * ys[r, o]
            for i in range(50):
                boards[r, i] = gb[bi, i]


@njit(cache=True, inline="always")
def _play_roll(dice, vr, flags, checkers, model, s, buf, table, memo):  # type: ignore[no-untyped-def]
    """Play ``dice`` (d1 >= d2) on ``buf.board``: the best result into ``buf.nxt`` and its
    values into ``buf.ya``; with ``vr`` also the mean over the 21 rolls of their best
    results' values into ``buf.mean`` (the luck of the roll is ``ya - mean``), from the
    roll table ``table`` (:func:`_roll_table`: boards, values, mean; ``filled[0]``
    False: made here first).  Without ``vr``, ``memo`` (boards, values, ``played``:
    :class:`FirstPlies`' of this ply) keeps each roll's best result, or is None."""
    d1, d2 = dice
    ya = buf.ya
    nxt = buf.nxt
    if vr:
        boards, ys, mean, filled = table
        if not filled[0]:
            set_base(buf.board, checkers, model, s, buf.base)
            _roll_table(flags, checkers, model, s, buf, boards, ys, mean)
            filled[0] = True
        r = _roll_number(d1, d2)
        for o in range(NUM_OUTPUTS):
            ya[o] = ys[r, o]
            buf.mean[o] = mean[o]
        for i in range(50):
            nxt[i] = boards[r, i]
    elif memo is not None:  # one of the first two plies: the best result of each roll kept
        boards, ys, played = memo
        r = _roll_number(d1, d2)
        if not played[r]:
            set_base(buf.board, checkers, model, s, buf.base)
            bi = _best(buf.board, d1, d2, flags, checkers, model, s, buf)
            for o in range(NUM_OUTPUTS):
                ys[r, o] = buf.ys[bi, o]
            for i in range(50):
                boards[r, i] = buf.boards[bi, i]
            played[r] = True
        for o in range(NUM_OUTPUTS):
            ya[o] = ys[r, o]
        for i in range(50):
            nxt[i] = boards[r, i]
    else:
        set_base(buf.board, checkers, model, s, buf.base)
        bi = _best(buf.board, d1, d2, flags, checkers, model, s, buf)
        for o in range(NUM_OUTPUTS):
            ya[o] = buf.ys[bi, o]
        for i in range(50):
            nxt[i] = buf.boards[bi, i]


@njit(cache=True)
def _play_trials(board0, checkers, flags, plan, model, s, buf, out, memo, local):  # type: ignore[no-untyped-def]
    """:func:`run_trials` with its bundles named; ``s``, ``buf``, ``local``: scratch."""
    # no reference counting of the caller's arrays (gammon.core.borrowed)
    board0, plan, model, s, buf, out, memo = borrowed((board0, plan, model, s, buf, out, memo))
    own, cube_state, y0, state = borrowed(local)
    first_trial, count, seed, perm1, perm2, quasi, truncate, tables, vr, record, cube = plan
    # A rollout of a position the tables value plays its trials out.
    tables = tables and not valued_by_tables(board0, checkers, model)
    res, luck, nplies, cut, rec_probs, rec_luck, rec_eff = out
    memo_boards, memo_ys, memo_mean, memo_filled, memo_played = memo
    first = 0
    board = buf.board
    nxt = buf.nxt
    cur = buf.cur
    ya = buf.ya
    mean = buf.mean
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
        cube_state[0] = cube.value
        cube_state[1] = cube.owner
        while True:
            root = ply % 2 == 0
            eff = board_efficiency(board, 0) if record else 0.0  # record: cubeful (cube.on too)
            if record and ply < reclen:
                for o in range(NUM_OUTPUTS):
                    rec_probs[t, ply, o] = cur[o]
                rec_eff[t, ply] = eff
                rec_luck[t, ply] = 0.0
            if ((truncate >= 0 and ply >= truncate) or ply >= MAX_TRIAL_PLIES
                    or (tables and valued_by_tables(board, checkers, model))
                    or (cube.on and (ply > 0 or cube.first) and cube_turn(cube, cube_state, cur, eff, root))):
                # Truncated, at the tables, or the cube ended the game: the evaluator
                # values what is left.
                _to_root(cur, root, res[t])
                cut[t] = 1
                break
            k = _roll_index(state, trial, ply, quasi, perm1, perm2)
            da = k // 6 + 1
            db = k % 6 + 1
            d1 = max(da, db)
            d2 = min(da, db)
            if ply < 2:  # the first two plies repeat: ply 0 always, ply 1 per first roll
                slot = 0 if ply == 0 else 1 + first
                table = (memo_boards[slot], memo_ys[slot], memo_mean[slot], memo_filled[slot])
                _play_roll((d1, d2), vr, flags, checkers, model, s, buf, table,
                           (memo_boards[slot], memo_ys[slot], memo_played[slot]))
            else:
                own[3][0] = False
                _play_roll((d1, d2), vr, flags, checkers, model, s, buf, own, None)
            if ply == 0:
                first = _roll_number(d1, d2)
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


# -- the Python driver and slow path ---------------------------------------------------------


@dataclass
class RolloutJob:
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
    first_plies: FirstPlies = field(default_factory=FirstPlies.create)


def _flip5(v: np.ndarray) -> np.ndarray:
    out: np.ndarray = flip_rows(v)[0]
    return out


def _splitmix(state: list[int]) -> int:
    state[0] = (state[0] + int(GOLDEN)) & _MASK
    z = state[0]
    z = ((z ^ (z >> 30)) * int(M1)) & _MASK
    z = ((z ^ (z >> 27)) * int(M2)) & _MASK
    return z ^ (z >> 31)


class PythonPlayer:
    """The slow path: trials driven from Python through ``evaluate_batch``."""

    def __init__(self, job: RolloutJob) -> None:
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
            if r.outcome is None:
                live.append(i)
            else:
                out[i] = outcome_probabilities(r)
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
        eqs = equities(vals)
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

    def run(self, first_trial: int, count: int, out: Trials) -> None:
        job = self.job
        s = job.settings
        start = Position._make(job.board.tobytes(), job.variant)
        y0 = np.asarray(self.ev.evaluate(start), dtype=np.float64)
        trunc = -1 if s.truncate_at is None else s.truncate_at
        reclen = out.rec_probs.shape[1]
        record = s.cubeful
        cube = MoneyCube.of(s, job.cube_info)
        cube_state = np.zeros(2, dtype=np.int64)
        for t in range(count):
            trial = first_trial + t
            state = [(s.seed * int(M1) + (trial + 1) * int(GOLDEN)) & _MASK]
            pos = start
            cur = y0.copy()
            ply = 0
            cube_state[:] = (cube.value, cube.owner)
            while True:
                root = ply % 2 == 0
                eff = board_efficiency(np.frombuffer(pos.board, dtype=np.uint8), 0) if record else 0.0
                if record and ply < reclen:
                    out.rec_probs[t, ply] = cur
                    out.rec_eff[t, ply] = eff
                if ((trunc >= 0 and ply >= trunc) or ply >= MAX_TRIAL_PLIES
                        or (cube.on and (ply > 0 or cube.first)
                            and cube_turn(cube, cube_state, cur, float(eff), root))):
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


def run_block(job: RolloutJob, first_trial: int, count: int) -> Trials:
    """Trials ``first_trial`` to ``first_trial + count - 1`` of ``job``: compiled
    (:func:`run_trials`) when it can be, else by :class:`PythonPlayer`."""
    s = job.settings
    record = min(MAX_TRIAL_PLIES + 1, 4096) if s.cubeful else 0
    out = Trials.create(count, record)
    if job.kernel is not None and job.choose is None:
        plan = TrialPlan(first_trial, count, s.seed, job.perm1, job.perm2, s.quasi_random,
                         -1 if s.truncate_at is None else s.truncate_at,
                         s.stop_at_bearoff and not s.cubeful, s.variance_reduction,
                         s.cubeful, MoneyCube.of(s, job.cube_info))
        run_trials(job.board, job.checkers, job.flags, tuple(plan),
                    tuple(job.kernel), tuple(out), tuple(job.first_plies))
    else:
        PythonPlayer(job).run(first_trial, count, out)
    return out
