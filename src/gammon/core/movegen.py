"""The move generator: every distinct legal result of a roll, compiled with numba.

This is the one implementation of the movement rules; ``Position.legal_plays``,
the AI, rollouts and training all call it.  It works on a board of 50 unsigned
bytes: indices 0..24 are the mover's counts (points 1..24, then the bar at 24),
25..49 the opponent's counts seen from the opponent's side.  The mover's point
index ``i`` is the opponent's index ``23 - i``.

Speed comes from doing no allocation per call: the caller passes preallocated
output and a workspace (:class:`Workspace`), results are deduplicated by exact
packed keys in a hash table that is never cleared (a stamp per slot marks the
slots of the current call), and a result's board is recorded once, when it is
first found, by one ``memcpy``.  The legal sources of a die are found together
as a bit mask (the opponent's held points fixed for the whole search), so no
checker is tried that cannot move.

A move is stored as (from, to, hit) in point numbers from the mover's side:
from 1..25 (25 = bar), to 0..24 (0 = borne off), hit 0 or 1.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.cpython.unsafe.numbers import leading_zeros
from numba.extending import intrinsic

from gammon.core.borrowed import borrowed

#: Most distinct results one roll can have, with room to spare: GNU Backgammon
#: bounds the plays of one roll by 3,060 (its MAX_MOVES).
MAX_RESULTS = 4096
#: The hash table has twice as many slots, so probes stay short.  It is kept
#: small on purpose (192 KiB): a table that stays in the L2 cache made the
#: generator 25% faster than one four times larger.
_TABLE_BITS = 13
_TABLE_SIZE = 1 << _TABLE_BITS
_MASK = _TABLE_SIZE - 1
#: Columns of a stored result: 4 moves of (from, to, hit), dice used, higher-die flag.
MOVE_COLS = 14
_USED = 12
_HIGH = 13
#: Rows of the workspace table: hash slots, the stamp counter, the search stack.
TABLE_ROWS = _TABLE_SIZE + 5
_STACK = _TABLE_SIZE + 1

#: Rule switches (see ``Variant.flags``).
FLAG_ENTER_FIRST = 1
FLAG_HIT_NEEDS_HOME = 2
#: The mover's never-entered checkers (Acey-Deucey's pool) ride in the flags from this
#: bit up: of the checkers at index 24, that many may wait; the rest were hit.
POOL_SHIFT = 8

_NONE = -2  # no legal move
_OFF = -1  # destination index of a checker borne off


class Workspace:
    """Preallocated arrays for the generator: results, moves and the hash table.

    One per thread; reuse it for every call.  ``boards[:n]`` and ``moves[:n]``
    hold the results of the last call that returned ``n``; rows past them are the
    generator's scratch (the board it mutates, the moves of the path it follows).
    """

    __slots__ = ("boards", "moves", "table")

    def __init__(self, capacity: int = MAX_RESULTS) -> None:
        # One spare board row at the end: the scratch board the search mutates.
        self.boards = np.zeros((capacity + 1, 50), dtype=np.uint8)
        self.moves = np.zeros((capacity, MOVE_COLS), dtype=np.int8)
        # key0, key1, stamp << 16 | result index; then one row for the stamp
        # counter and four rows of search stack (source, destination, hit, sources left).
        self.table = np.zeros((TABLE_ROWS, 4), dtype=np.int64)


@intrinsic
def _copy_bytes(typingctx, dst, src, count):  # type: ignore[no-untyped-def]
    """Copy the first ``count`` bytes of array ``src`` to the start of array ``dst``
    (both C-contiguous), as one ``memcpy`` that LLVM turns into a few word moves when
    ``count`` is a constant: a loop of byte copies between two arrays that may alias
    cannot be vectorized, and recording results that way cost a third of the search."""
    for a in (dst, src):
        if not isinstance(a, types.Array) or a.layout != "C":
            raise TypeError("_copy_bytes needs C-contiguous arrays")
    sig = types.void(dst, src, count)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        d = context.make_array(signature.args[0])(context, builder, args[0])
        s = context.make_array(signature.args[1])(context, builder, args[1])
        n = context.cast(builder, args[2], signature.args[2], types.intp)
        byte_ptr = ir.IntType(8).as_pointer()
        cgutils.raw_memcpy(builder, builder.bitcast(d.data, byte_ptr), builder.bitcast(s.data, byte_ptr), n, 1)  # type: ignore[no-untyped-call]
        return context.get_dummy_value()

    return sig, codegen


@njit(cache=True, inline="always")
def _dest(b, s, d, outside, flags, checkers):  # type: ignore[no-untyped-def]
    """Destination index of moving one checker from index ``s`` by ``d``, or _NONE."""
    if b[s] == 0:
        return _NONE
    if s != 24 and b[24] > (flags >> POOL_SHIFT) and (flags & FLAG_ENTER_FIRST):
        # "A player with a checker on the bar must enter it before moving any other."
        # Acey-Deucey: "checkers still in the pool may wait while others move"; an
        # entry takes a hit checker first, so hit ones remain while index 24 > pool.
        return _NONE
    t = s - d
    if t >= 0:
        opp = b[48 - t]  # opponent index 23 - t, offset 25
        if opp >= 2:
            # "A checker may land only on an open point: not held by two or more opponents."
            return _NONE
        if opp == 1 and (flags & FLAG_HIT_NEEDS_HOME) and outside >= checkers:
            # Dutch: "no hitting until one of your checkers has reached your home board".
            return _NONE
        return t
    # "Bearing off is allowed only once all fifteen checkers are in the home board."
    if outside != 0:
        return _NONE
    if t == -1:
        return _OFF
    # "A higher number than needed may bear off only from the highest occupied point."
    for i in range(s + 1, 6):
        if b[i] != 0:
            return _NONE
    return _OFF


@njit(cache=True)
def single_steps(board, d, flags, checkers, out):  # type: ignore[no-untyped-def]
    """Every single step one checker may make with die ``d`` on ``board``, by the rules of
    one step (:func:`_dest`, the generator's own): rows ``(from index, to index)`` into
    ``out`` (25 x 2), highest source first; to index -1 is borne off.  Returns the count.

    The rules of the whole roll (use as many dice as possible, the higher die) are not
    applied here: ``gammon.core.steps`` keeps only steps that lead on to a legal play.
    """
    outside = 0
    for i in range(6, 25):
        outside += board[i]
    n = 0
    for s in range(24, -1, -1):
        t = _dest(board, s, d, outside, flags, checkers)
        if t != _NONE:
            out[n, 0] = s
            out[n, 1] = t
            n += 1
    return n


@njit(cache=True, inline="always")
def _record(table, moves, boards, b, n, stamp, key, use):  # type: ignore[no-untyped-def]
    """Insert a result (its ``key`` (k0, k1), the moves played and the board ``b`` now)
    unless present; return the count.  ``use`` is (dice used, whether the higher die
    alone): kept as the most dice any sequence reaching the result used, and whether
    one used the higher die alone.

    The moves played are kept in row ``n`` of ``moves`` (the next free row, zero past
    the moves of the current path): a new result keeps that row and the path goes on
    in the next one.  Recording the board at insert time spares decoding it later.
    """
    k0, k1 = key
    used, high = use
    h = ((k0 * -7046029254386353131) ^ (k1 * -4417276706812531889)) >> 20
    h &= _MASK
    while (table[h, 2] >> 16) == stamp:
        if table[h, 0] == k0 and table[h, 1] == k1:
            r = table[h, 2] & 0xFFFF
            if used > moves[r, _USED]:
                _copy_bytes(moves[r], moves[n], 12)  # type: ignore[call-arg]
                moves[r, _USED] = used
            if high:
                moves[r, _HIGH] = 1
            return n
        h = (h + 1) & _MASK
    if n + 1 >= moves.shape[0]:
        raise ValueError("more results than the workspace holds")
    table[h, 0] = k0
    table[h, 1] = k1
    table[h, 2] = (stamp << 16) | n
    _copy_bytes(boards[n], b, 50)  # type: ignore[call-arg]
    moves[n, _USED] = used
    moves[n, _HIGH] = 1 if high else 0
    _copy_bytes(moves[n + 1], moves[n], 12)
    return n + 1


@njit(cache=True, inline="always")
def _sources(b, occ, blocked, blots, outside, d, flags, checkers):  # type: ignore[no-untyped-def]
    """Bit mask of the indices one checker may move from with die ``d``: the rules of
    :func:`_dest` for every source at once (bit ``s`` set: index ``s`` may move).

    ``blocked`` has bit ``t`` set where the opponent holds index ``t`` with two or more
    checkers, ``blots`` where he has one; ``occ`` where the mover has checkers.
    """
    if b[24] > (flags >> POOL_SHIFT) and (flags & FLAG_ENTER_FIRST):
        # "A player with a checker on the bar must enter it before moving any other."
        src = np.int64(1) << 24
    else:
        src = occ
    land = blocked
    if (flags & FLAG_HIT_NEEDS_HOME) and outside >= checkers:
        # Dutch: "no hitting until one of your checkers has reached your home board".
        land |= blots
    # A move s -> s - d lands on an open point; sources below d bear off (below).
    m = src & ~(land << d) & ~((np.int64(1) << d) - 1)
    if outside == 0 and occ != 0:
        # "Bearing off is allowed only once all fifteen checkers are in the home board";
        # "a higher number than needed may bear off only from the highest occupied point."
        m |= occ & (np.int64(1) << (d - 1))
        hi = 63 - leading_zeros(occ)  # type: ignore[call-arg]
        if hi < d - 1:
            m |= np.int64(1) << hi
    return m


@njit(cache=True, inline="always")
def _start(b):  # type: ignore[no-untyped-def]
    """The running state of a search from board ``b``: (k0, k1, outside, onboard, occ,
    blocked, blots).

    The exact key of the mover's side, 4 bits per index (k0: indices 0..15, k1: 16..24;
    k1 also holds the mask of opponent blots hit, bits 36..59, which fixes the
    opponent's side); the mover's checkers outside his home board and on the board;
    ``occ`` with bit ``i`` set where the mover has a checker; the opponent's points as
    mover indices, ``blocked`` (two or more: never change during the search) and
    ``blots`` (change as they are hit).
    """
    k0 = np.int64(0)
    k1 = np.int64(0)
    outside = 0
    onboard = 0
    occ = np.int64(0)
    for i in range(25):
        c = np.int64(b[i])
        if i < 16:
            k0 += c << (4 * i)
        else:
            k1 += c << (4 * (i - 16))
        onboard += b[i]
        if i >= 6:
            outside += b[i]
        if c:
            occ |= np.int64(1) << i
    blocked = np.int64(0)
    blots = np.int64(0)
    for t in range(24):
        o = b[48 - t]
        if o >= 2:
            blocked |= np.int64(1) << t
        elif o == 1:
            blots |= np.int64(1) << t
    return k0, k1, outside, onboard, occ, blocked, blots


@njit(cache=True)
def _search(b, d1, d2, flags, checkers, boards, moves, table):  # type: ignore[no-untyped-def]
    """Enumerate every terminal move sequence; store distinct results; return their count.

    ``b`` (the scratch board) is mutated and restored; each distinct result's
    board is copied to ``boards`` when first found.  Results are stored with
    the most dice any sequence reaching them used, and whether one used the higher
    die alone; filtering by the maximal-use rules happens in ``_finish``.

    Non-doubles are searched in both orders of the dice (:func:`_walk` once each).  In
    the second order, a second move from a source that could already play the first
    die in the original position reaches a result the first order found (each single
    move stays legal when the two are swapped), so the second order only tries sources
    the first move opened up; this halves the work.
    """
    if table.shape[0] < TABLE_ROWS:
        raise ValueError("workspace table too small: use movegen.Workspace")
    # no reference counting of the caller's arrays (gammon.core.borrowed)
    b, boards, moves, table = borrowed((b, boards, moves, table))
    stamp = table[_TABLE_SIZE, 0] + 1
    table[_TABLE_SIZE, 0] = stamp
    for j in range(12):  # the moves of the current path (see _record)
        moves[0, j] = 0
    state = _start(b)
    k0, k1, outside, onboard, occ, blocked, blots = state
    doubles = d1 == d2
    # Doubles: playing sources in non-increasing order finds every distinct result
    # (an earlier move never blocks a later one), except under the Dutch hitting
    # rule, where a checker reaching home can allow a hit by a higher checker.
    ordered = doubles and not (flags & FLAG_HIT_NEEDS_HOME)
    first_legal = _sources(b, occ, blocked, blots, outside, d1, flags, checkers)
    rules = (flags, checkers, stamp, ordered, first_legal)
    n = _walk(b, (d1, d2, 4 if doubles else 2, 0), state, rules, boards, moves, table, 0)
    if not doubles:
        n = _walk(b, (d2, d1, 2, 1), state, rules, boards, moves, table, n)
    return n


@njit(cache=True, inline="always")
def _step(b, s, t, run):  # type: ignore[no-untyped-def]
    """Move one checker from index ``s`` to ``t`` (``_OFF``: borne off) on ``b``, hitting
    an opponent's blot there; return the running state after it and whether it hit.

    ``run`` is (k0, k1, outside, onboard, occ, blots) as :func:`_start` defines them;
    index ``i``'s 4-bit key field is field ``i & 15`` of k0 (``i < 16``) or of k1.
    """
    k0, k1, outside, onboard, occ, blots = run
    b[s] -= 1
    occ ^= np.int64(b[s] == 0) << s
    k0 -= np.int64(s < 16) << (4 * (s & 15))
    k1 -= np.int64(s >= 16) << (4 * (s & 15))
    outside -= np.int64(s >= 6 and t < 6)
    if t < 0:
        return (k0, k1, outside, onboard - 1, occ, blots), 0
    b[t] += 1
    occ |= np.int64(1) << t
    k0 += np.int64(t < 16) << (4 * (t & 15))
    k1 += np.int64(t >= 16) << (4 * (t & 15))
    if b[48 - t] != 1:
        return (k0, k1, outside, onboard, occ, blots), 0
    b[48 - t] = 0
    b[49] += 1
    return (k0, k1 ^ (np.int64(1) << (36 + t)), outside, onboard, occ, blots ^ (np.int64(1) << t)), 1


@njit(cache=True, inline="always")
def _unstep(b, s, t, hit, run):  # type: ignore[no-untyped-def]
    """Undo :func:`_step`'s move from ``s`` to ``t`` (``hit``: it hit a blot there);
    return the running state before it."""
    k0, k1, outside, onboard, occ, blots = run
    b[s] += 1
    occ |= np.int64(1) << s
    k0 += np.int64(s < 16) << (4 * (s & 15))
    k1 += np.int64(s >= 16) << (4 * (s & 15))
    outside += np.int64(s >= 6 and t < 6)
    if t < 0:
        return k0, k1, outside, onboard + 1, occ, blots
    b[t] -= 1
    occ ^= np.int64(b[t] == 0) << t
    k0 -= np.int64(t < 16) << (4 * (t & 15))
    k1 -= np.int64(t >= 16) << (4 * (t & 15))
    if not hit:
        return k0, k1, outside, onboard, occ, blots
    b[48 - t] = 1
    b[49] -= 1
    return k0, k1 ^ (np.int64(1) << (36 + t)), outside, onboard, occ, blots | (np.int64(1) << t)


@njit(cache=True, inline="always")
def _walk(b, dice, state, rules, boards, moves, table, n):  # type: ignore[no-untyped-def]
    """One order of the dice of :func:`_search`: depth 0 plays ``da``, every later depth
    ``db``; returns the count of results after recording this order's (``n`` before).

    ``dice`` is (da, db, dice to play, order), ``state`` the running state of
    :func:`_start`, ``rules`` (flags, checkers, stamp, ordered, first_legal).  The search
    stack lives in the workspace (no allocation per call): per depth, the source played,
    its destination, whether it hit, and the sources left to try, found at once as a
    bit mask when the search reaches the depth and taken highest first (the board
    below is the same each time the search comes back, so the mask stays valid).
    Inlined into :func:`_search`, as are :func:`_step` and :func:`_unstep`.
    """
    da, db, ndice, order = dice
    k0, k1, outside, onboard, occ, blocked, blots = state
    run = (k0, k1, outside, onboard, occ, blots)
    flags, checkers, stamp, ordered, first_legal = rules
    high = ndice == 2 and da > db  # a single move of this order plays the higher die
    st = table[_STACK:]
    st[0, 3] = first_legal if order == 0 else _sources(b, occ, blocked, blots, outside, da, flags, checkers)
    depth = 0
    pop = False  # undo the move of the level above (its path ended or was tried)
    while True:
        if pop or st[depth, 3] == 0:
            # A result recorded, a dead end, or every move at this depth tried: pop
            # one level and undo its move (``pop`` first: the deepest level has no row).
            pop = False
            depth -= 1
            if depth < 0:
                return n
            moves[n, 3 * depth] = moves[n, 3 * depth + 1] = moves[n, 3 * depth + 2] = 0
            run = _unstep(b, st[depth, 0], st[depth, 1], st[depth, 2], run)
            continue
        m = st[depth, 3]
        s = 63 - leading_zeros(m)  # type: ignore[call-arg]  # the highest source left
        st[depth, 3] = m ^ (np.int64(1) << s)
        t = max(s - (da if depth == 0 else db), _OFF)
        run, h = _step(b, s, t, run)
        st[depth, 0], st[depth, 1], st[depth, 2] = s, t, h
        moves[n, 3 * depth], moves[n, 3 * depth + 1], moves[n, 3 * depth + 2] = s + 1, t + 1, h
        depth += 1
        k0, k1, outside, onboard, occ, blots = run
        # The next depth's sources, unless all dice are played or the last checker is
        # off: below this one for ordered doubles; in the second order, only those the
        # first move opened up.  None at all: this path is a result; none left after
        # the masks: its result is another path's (one that plays the moves skipped).
        done = depth == ndice or onboard == 0
        m = 0 if done else _sources(b, occ, blocked, blots, outside, db, flags, checkers)
        terminal = m == 0
        if ordered:
            m &= (np.int64(2) << s) - 1
        if order == 1 and depth == 1:
            m &= ~first_legal
        if m != 0:
            st[depth, 3] = m
            continue
        if terminal:
            n = _record(table, moves, boards, b, n, stamp, (k0, k1), (depth, depth == 1 and high))
        pop = True  # undo this move and go on at the same depth: the pop above does it


@njit(cache=True)
def _finish(n, boards, moves):  # type: ignore[no-untyped-def]
    """Keep the results that obey the maximal-use rules, compacted (boards and moves).

    "Play both numbers if you can; if only one can be played, play the higher one
    when either could be; with doubles play as many of the four as possible."
    """
    best = 0
    any_high = False
    for r in range(n):
        if moves[r, _USED] > best:
            best = moves[r, _USED]
    if best == 1:
        for r in range(n):
            if moves[r, _HIGH]:
                any_high = True
    k = 0
    for r in range(n):
        if moves[r, _USED] != best or (any_high and not moves[r, _HIGH]):
            continue
        if k != r:
            for j in range(MOVE_COLS):
                moves[k, j] = moves[r, j]
            for i in range(50):
                boards[k, i] = boards[r, i]
        k += 1
    return k


@njit(cache=True)
def generate(board, d1, d2, flags, checkers, boards, moves, table):  # type: ignore[no-untyped-def]
    """All distinct legal results of rolling ``d1``-``d2`` on ``board``.

    Writes the resulting boards (mover's view, before the turn passes) to
    ``boards[:n]`` and one move list per result to ``moves[:n]``; returns ``n``,
    0 when nothing can be played.  ``boards`` needs one spare row (the scratch).
    """
    # no reference counting of the caller's arrays (gammon.core.borrowed)
    board, boards, moves, table = borrowed((board, boards, moves, table))
    work = boards[boards.shape[0] - 1]
    for i in range(50):
        work[i] = board[i]
    n = _search(work, d1, d2, flags, checkers, boards, moves, table)
    return _finish(n, boards, moves)


@njit(cache=True)
def generate_batch(positions, dice, flags, checkers, boards, moves, counts, table):  # type: ignore[no-untyped-def]
    """:func:`generate` for many positions in one call.

    Results go consecutively into ``boards``/``moves``; ``counts[i]`` gets the
    number for position ``i``.  Stops early when the output might overflow;
    returns how many positions were done (call again with the rest).
    """
    cap = boards.shape[0] - 1
    work = boards[cap]
    total = 0
    for p in range(positions.shape[0]):
        if total + MAX_RESULTS > cap and p > 0:
            return p
        for i in range(50):
            work[i] = positions[p, i]
        n = _search(work, dice[p, 0], dice[p, 1], flags, checkers, boards[total:], moves[total:], table)
        k = _finish(n, boards[total:], moves[total:])
        counts[p] = k
        total += k
    return positions.shape[0]
