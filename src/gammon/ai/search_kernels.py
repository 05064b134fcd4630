"""The search's compiled kernels: n-ply values over the evaluator, and its workspace.

:mod:`gammon.ai.search` drives them (the search itself is described there).
Values found at 1 ply or more are kept in a direct-mapped cache keyed by the
exact board (4 bits per count) and the depth, in the spirit of GNU
Backgammon's evaluation cache: transpositions between candidates and repeated
queries cost nothing.  The cache lives in a :class:`SearchWorkspace` with the
move generator buffers; a workspace serves one thread at a time.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from gammon.ai.evaluator import best_result, classify_board, set_base, static_eval
from gammon.ai.kernel_args import as_model, new_base, new_scratch
from gammon.ai.network import NUM_OUTPUTS, equity_of, flip_into
from gammon.ai.pruning import PRUNE_INPUTS, prune_score
from gammon.core import movegen
from gammon.core.borrowed import borrowed

#: Deepest n-ply search supported (3-ply costs about 20 times 2-ply); also the deepest analysis.
MAX_SEARCH_PLIES = 3
#: Cache slots (a power of two): 2**17 entries take about 7 MB.
CACHE_BITS = 17

#: Search flags: the generator's rule flags (low byte), the pool of the player on
#: roll from ``movegen.POOL_SHIFT`` and the other side's pool from ``OPP_POOL_SHIFT``.
RULES_MASK = (1 << movegen.POOL_SHIFT) - 1
OPP_POOL_SHIFT = movegen.POOL_SHIFT + 4
GEN_MASK = (1 << OPP_POOL_SHIFT) - 1


@njit(cache=True, inline="always")
def _key_part(b, q):  # type: ignore[no-untyped-def]
    k = np.int64(0)
    for i in range(16):
        j = 16 * q + i
        if j < 50:
            k |= np.int64(b[j]) << (4 * i)
    return k


@njit(cache=True)
def _slot(b, tag, mask):  # type: ignore[no-untyped-def]
    """Cache slot of board ``b`` under ``tag`` (depth and rules, see :func:`eval_ply`)."""
    h = np.int64(tag) * np.int64(-7046029254386353131)
    for q in range(4):
        h = (h ^ _key_part(b, q)) * np.int64(-4417276706812531889)
        h ^= h >> 29
    return h & mask


@njit(cache=True)
def _cache_get(b, tag, ckeys, cvals, stats, out):  # type: ignore[no-untyped-def]
    """Copy the cached value of (``b``, ``tag``) into ``out``; False when absent."""
    s = _slot(b, tag, ckeys.shape[0] - 1)
    if ckeys[s, 4] != tag + 1:
        stats[1] += 1
        return False
    for q in range(4):
        if ckeys[s, q] != _key_part(b, q):
            stats[1] += 1
            return False
    for k in range(5):
        out[k] = cvals[s, k]
    stats[0] += 1
    return True


@njit(cache=True)
def _cache_put(b, tag, ckeys, cvals, val):  # type: ignore[no-untyped-def]
    """Store ``val`` for (``b``, ``tag``), replacing whatever held the slot."""
    s = _slot(b, tag, ckeys.shape[0] - 1)
    for q in range(4):
        ckeys[s, q] = _key_part(b, q)
    ckeys[s, 4] = tag + 1
    for k in range(5):
        cvals[s, k] = val[k]


@njit(cache=True)
def _replies(b, level, flags, checkers, model, s, ws, prune, netbase, rys):  # type: ignore[no-untyped-def]
    """For each of the 21 rolls of the player on roll of ``b``: the best play by 0-ply.

    ``model``, ``s``: the evaluator's tables and scratch (:mod:`gammon.ai.kernel_args`);
    ``ws``: the :class:`SearchWorkspace`, whose ``rb[level, k]`` gets the position
    after it with the turn passed (the board unchanged but swapped when nothing can
    be played), ``rv[level, k]`` its 0-ply value in the mover's view (for a pass:
    the static value of the swapped board, flipped) and ``rf[level, k]`` its search
    flags (:func:`~gammon.ai.search.search_flags`: the pools of the side now on roll and of the other).

    With ``prune`` > 0 and more plays than that, every play is first scored by
    the pruning net ``ws.pw`` (:mod:`gammon.ai.pruning`) and only its ``prune``
    best are valued by the evaluator (``ws.ph``, ``ws.ps``: scratch).  Otherwise every
    play of a roll is valued in one loop from ``b`` (:func:`~gammon.ai.evaluator.best_result`
    with ``netbase``, a :class:`~gammon.ai.kernel_args.NetBase` set from ``b`` once; ``rys``:
    the values), as the rollouts and the 0-ply choice value them.
    """
    # no reference counting of the caller's arrays (gammon.core.borrowed)
    b, model, s, ws, netbase, rys = borrowed((b, model, s, ws, netbase, rys))
    rb = ws.rb
    rv = ws.rv
    rf = ws.rf
    ps = ws.ps
    gb = ws.boards[level]
    base = flags & RULES_MASK
    pool_me = (flags >> movegen.POOL_SHIFT) & 15
    pool_opp = (flags >> OPP_POOL_SHIFT) & 15
    gen_flags = base | pool_me << movegen.POOL_SHIFT
    based = False
    k = 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            n = movegen.generate(b, d1, d2, gen_flags, checkers, gb, ws.moves[level], ws.table)
            nb = rb[level, k]
            yk = rv[level, k]
            if n == 0:
                rf[level, k] = base | pool_opp << movegen.POOL_SHIFT | pool_me << OPP_POOL_SHIFT
                for i in range(25):
                    nb[i] = b[25 + i]
                    nb[25 + i] = b[i]
                static_eval(nb, checkers, model, s, yk)
                flip_into(yk, yk)
            else:
                count = n
                if prune > 0 and n > prune:
                    for r in range(n):
                        ps[r] = prune_score(gb[r], ws.pw, ws.ph)
                    for _ in range(prune):  # mark the pruning net's best (the first of equals)
                        m = 0
                        mv = ps[0]
                        for r in range(1, n):
                            if ps[r] > mv:
                                mv = ps[r]
                                m = r
                        ps[m] = -np.inf
                    count = 0
                    for r in range(n):  # the marked plays to the front, in their order
                        if ps[r] == -np.inf:
                            if r != count:
                                for i in range(50):
                                    gb[count, i] = gb[r, i]
                            count += 1
                if not based:
                    set_base(b, checkers, model, s, netbase)
                    based = True
                # Ties go to the lower index, pruned or not.
                best = best_result(gb, count, checkers, model, s, rys, False, netbase)
                for q in range(5):
                    yk[q] = rys[best, q]
                for i in range(25):
                    nb[i] = gb[best, 25 + i]
                    nb[25 + i] = gb[best, i]
                # An entry takes a hit checker first: the pool shrinks once none is left.
                after = min(pool_me, np.int64(gb[best, 24]))
                rf[level, k] = base | pool_opp << movegen.POOL_SHIFT | after << OPP_POOL_SHIFT
            k += 1


@njit(cache=True, inline="always")
def _roll_weight(k):  # type: ignore[no-untyped-def]
    """Weight (of 36) of the k-th roll in the order 1-1, 1-2, ..., 1-6, 2-2, ..., 6-6."""
    return 1.0 if k in (0, 6, 11, 15, 18, 20) else 2.0


@njit(cache=True)
def eval_ply(b, plies, flags, checkers, model, s, ws, out, netbase, rys):  # type: ignore[no-untyped-def]
    """Probabilities for the player on roll of board ``b`` at ``plies`` (see :mod:`gammon.ai.search`)
    into ``out``; ``model``, ``s``: the evaluator's tables and scratch; ``ws``: the
    :class:`SearchWorkspace` (its ``prune``: the inner nodes' pre-filter); ``netbase``,
    ``rys``: scratch of the replies' valuation (:func:`_replies`).

    ``flags`` are the search flags of ``b`` (:func:`~gammon.ai.search.search_flags`): the rules
    and both sides' pools, so every ply generates with its own mover's pool.
    Depth-first with an explicit stack of frames, one per depth (numba cannot
    cache recursive functions safely: numba issue #6061).  Frame ``L`` holds
    its board ``fb[L]`` and ``ff[L]`` = (plies, next roll, accumulated 5,
    result 5, search flags); ``boards[L]``/``moves[L]`` are its generator
    buffers and ``rb[L]``/``rv[L]``/``rf[L]`` its 21 replies (:func:`_replies`).
    """
    # no reference counting of the caller's arrays (gammon.core.borrowed)
    b, model, s, ws, out, netbase, rys = borrowed((b, model, s, ws, out, netbase, rys))
    if plies <= 0 or classify_board(b) == 0:
        static_eval(b, checkers, model, s, out)
        return
    fb = ws.fb
    ff = ws.ff
    for i in range(50):
        fb[0, i] = b[i]
    ff[0, 0] = plies
    ff[0, 12] = flags
    lv = 0
    done = _open_frame(0, checkers, model, s, ws, netbase, rys)
    while True:
        if done:
            # Frame lv is valued: pop it into its parent.
            if lv == 0:
                break
            lv -= 1
            _absorb(ff[lv], ff[lv + 1, 7:12])
        fr = ff[lv]
        k = int(fr[1])
        if k < 21:
            # Push the reply of roll k, one ply shallower.
            for i in range(50):
                fb[lv + 1, i] = ws.rb[lv, k, i]
            ff[lv + 1, 0] = fr[0] - 1.0
            ff[lv + 1, 12] = ws.rf[lv, k]
            lv += 1
            done = _open_frame(lv, checkers, model, s, ws, netbase, rys)
            continue
        res = fr[7:12]
        for q in range(5):
            res[q] = fr[2 + q] / 36.0
        _cache_put(fb[lv], int(fr[0]) + _tag(checkers, int(fr[12]), ws.prune), ws.ckeys, ws.cvals,
                   res)
        done = True
    for q in range(5):
        out[q] = ff[0, 7 + q]


@njit(cache=True, inline="always")
def _open_frame(lv, checkers, model, s, ws, netbase, rys):  # type: ignore[no-untyped-def]
    """Value frame ``lv`` of :func:`eval_ply`, just pushed, where no deeper frame is
    needed: a finished game (exactly), a cached value, or a 1-ply frame (the mean of
    its replies' 0-ply values, then cached); True then.  Otherwise its replies are
    found (:func:`_replies`) and its sums cleared for the search below: False.
    """
    fb = ws.fb
    fr = ws.ff[lv]
    p = int(fr[0])
    res = fr[7:12]
    # Pruning: only the replies of 1-ply frames below the root (the leaves' parents,
    # 441 of the 462 nodes under a 2-ply candidate); a 1-ply search stays exact.
    pr = 0 if p == 1 and lv == 0 else ws.prune
    # Cache entries are keyed by the board, the depth (< 8), the rules, the pools
    # and the pruning that made them.
    vtag = _tag(checkers, int(fr[12]), pr)
    if classify_board(fb[lv]) == 0:
        static_eval(fb[lv], checkers, model, s, res)
        return True
    if _cache_get(fb[lv], p + vtag, ws.ckeys, ws.cvals, ws.stats, res):
        return True
    _replies(fb[lv], lv, int(fr[12]), checkers, model, s, ws, pr if p == 1 else 0, netbase, rys)
    if p != 1:
        fr[1] = 0.0
        for q in range(5):
            fr[2 + q] = 0.0
        return False
    rv = ws.rv
    for q in range(5):
        res[q] = 0.0
    for k in range(21):
        w = _roll_weight(k)
        for q in range(5):
            res[q] += w * rv[lv, k, q]
    for q in range(5):
        res[q] /= 36.0
    _cache_put(fb[lv], 1 + vtag, ws.ckeys, ws.cvals, res)
    return True


@njit(cache=True, inline="always")
def _tag(checkers, flags, prune):  # type: ignore[no-untyped-def]
    """Cache tag (less the depth, which is below 8) of a frame: its checkers, search flags
    (below 2**16) and pruning."""
    return 8 * (checkers + 64 * (flags + 65536 * prune))


@njit(cache=True, inline="always")
def _absorb(fr, child):  # type: ignore[no-untyped-def]
    """Add a finished child (the reply of roll ``fr[1]``, its value for the player on
    roll after the reply, i.e. the opponent) to frame ``fr`` and move to the next roll."""
    k = int(fr[1])
    w = _roll_weight(k)
    # The child's player on roll is the other side: flip (1 - win, lg, lbg, wg, wbg).
    fr[2] += w * (1.0 - child[0])
    fr[3] += w * child[3]
    fr[4] += w * child[4]
    fr[5] += w * child[1]
    fr[6] += w * child[2]
    fr[1] = k + 1


@njit(cache=True)
def roll_results(src, d1, d2, flags, checkers, model, ws, ys):  # type: ignore[no-untyped-def]
    """The 0-ply decision: every legal result of rolling ``d1``-``d2`` on ``src[0]``
    into ``boards[0, :n]``/``moves[0, :n]`` of the workspace ``ws``, each valued at
    0-ply in the mover's view into ``ys[:n]``; returns ``(n, best)``, best by cubeless
    equity (the first of equals).

    Called from Python at each decision (the engine's plain 0-ply play), so
    ``model`` and ``ws`` come as plain tuples (:mod:`gammon.ai.kernel_args`).
    """
    m = as_model(model)
    w = as_workspace(ws)
    gb = w.boards[0]
    b = src[0]
    n = movegen.generate(b, d1, d2, flags & GEN_MASK, checkers, gb, w.moves[0], w.table)
    s = new_scratch(m)
    base = new_base(m)
    set_base(b, checkers, m, s, base)  # the results' nearest board (see best_result)
    return n, best_result(gb, n, checkers, m, s, ys, False, base)


#: Modes of :func:`run` (``MODE_ROLL``: :func:`roll_results`).
MODE_ROLL = 0
MODE_POSITIONS = 1
MODE_RESULTS = 2


@njit(cache=True)
def run(mode, src, plies, flags, checkers, model, ws, ys):  # type: ignore[no-untyped-def]
    """The compiled entry point of the search (one compilation serves every use).

    * ``MODE_POSITIONS``: value each row of ``src`` (player on roll) at ``plies``;
    * ``MODE_RESULTS``: value each row of ``src`` (a move result, mover first)
      at ``plies`` with the opponent on roll, flipped back to the mover.

    ``flags`` are search flags (:func:`~gammon.ai.search.search_flags`) of the position on roll
    (``MODE_POSITIONS``) or of the mover before the play (``MODE_RESULTS``: each
    row's own pools follow from it).  ``model`` (the evaluator's tables) and ``ws``
    (the :class:`SearchWorkspace`, with the pruning of the inner nodes) come as
    plain tuples (:mod:`gammon.ai.kernel_args`).  Writes ``ys``.

    Returns ``(n, best)``: rows written and the index of the best by equity.
    """
    m = as_model(model)
    w = as_workspace(ws)
    s = new_scratch(m)
    netbase = new_base(m)
    rys = np.zeros((movegen.MAX_RESULTS, NUM_OUTPUTS), dtype=np.float32)
    sw = np.empty(50, dtype=np.uint8)
    best = 0
    bestv = -1e30
    n = src.shape[0]
    for r in range(n):
        if mode == MODE_RESULTS:
            for i in range(25):
                sw[i] = src[r, 25 + i]
                sw[25 + i] = src[r, i]
            # The opponent is on roll; the mover's pool shrank if this play entered from it.
            after = min((flags >> movegen.POOL_SHIFT) & 15, np.int64(src[r, 24]))
            rflags = ((flags & RULES_MASK) | ((flags >> OPP_POOL_SHIFT) & 15) << movegen.POOL_SHIFT
                      | after << OPP_POOL_SHIFT)
            eval_ply(sw, plies, rflags, checkers, m, s, w, ys[r], netbase, rys)
            flip_into(ys[r], ys[r])
        else:
            for i in range(50):
                sw[i] = src[r, i]
            eval_ply(sw, plies, flags, checkers, m, s, w, ys[r], netbase, rys)
        v = equity_of(ys[r])
        if v > bestv:
            bestv = v
            best = r
    return n, best


class SearchWorkspace(NamedTuple):
    """Buffers of one searching thread: generator output per depth, cache, scratch,
    and the pruning of the inner nodes (:func:`_replies`).

    One named tuple, so the kernels take it as one argument; make one with
    :meth:`create`.
    """

    #: Generator output per depth (``boards[0]``/``moves[0]``: the root's roll).
    boards: np.ndarray
    moves: np.ndarray
    table: np.ndarray
    #: Values of the root's results (at least MAX_RESULTS rows).
    ys: np.ndarray
    #: The cache: keys and values, and its hits and misses.
    ckeys: np.ndarray
    cvals: np.ndarray
    stats: np.ndarray
    #: Per depth, the 21 replies: boards, values, search flags (:func:`_replies`).
    rb: np.ndarray
    rv: np.ndarray
    rf: np.ndarray
    #: The frames of :func:`eval_ply`.
    fb: np.ndarray
    ff: np.ndarray
    #: The board of :meth:`PlyEvaluator.roll`.
    src: np.ndarray
    #: Plays per inner node valued after the pruning net ``pw``'s pre-filter (0: all);
    #: ``ph``, ``ps``: its scratch (hidden units, a score per play).
    prune: int
    pw: np.ndarray
    ph: np.ndarray
    ps: np.ndarray

    @classmethod
    def create(cls, cache_bits: int = CACHE_BITS, prune: int = 0,
               pw: np.ndarray | None = None) -> SearchWorkspace:
        """Zeroed buffers, a cache of ``2**cache_bits`` slots; ``pw``: the pruning net."""
        depth = MAX_SEARCH_PLIES + 1
        cap = movegen.MAX_RESULTS
        if pw is None:
            pw = np.zeros((PRUNE_INPUTS + 3, 1), dtype=np.float32)
        return cls(
            boards=np.zeros((depth, cap + 1, 50), dtype=np.uint8),
            moves=np.zeros((depth, cap, movegen.MOVE_COLS), dtype=np.int8),
            table=np.zeros((movegen.TABLE_ROWS, 4), dtype=np.int64),
            ys=np.zeros((cap, NUM_OUTPUTS), dtype=np.float32),
            ckeys=np.zeros((1 << cache_bits, 5), dtype=np.int64),
            cvals=np.zeros((1 << cache_bits, 5), dtype=np.float32),
            stats=np.zeros(2, dtype=np.int64),
            rb=np.zeros((depth, 21, 50), dtype=np.uint8),
            rv=np.zeros((depth, 21, NUM_OUTPUTS), dtype=np.float32),
            rf=np.zeros((depth, 21), dtype=np.int64),
            fb=np.zeros((depth + 1, 50), dtype=np.uint8),
            ff=np.zeros((depth + 1, 13), dtype=np.float64),
            src=np.zeros((1, 50), dtype=np.uint8),
            prune=prune,
            pw=pw,
            ph=np.zeros(pw.shape[1], dtype=np.float32),
            ps=np.zeros(cap, dtype=np.float32),
        )

    def clear_cache(self) -> None:
        self.ckeys[:, 4] = 0
        self.stats[:] = 0


@njit(cache=True, inline="always")
def as_workspace(t):  # type: ignore[no-untyped-def]
    """The :class:`SearchWorkspace` of a plain tuple of its fields (:mod:`gammon.ai.kernel_args`)."""
    return SearchWorkspace(*t)
