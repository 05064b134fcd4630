"""Evaluators: what a position is worth to the player on roll, as five probabilities.

An evaluator (the :class:`Evaluator` protocol) answers ``evaluate(position)``
with :class:`~gammon.ai.probabilities.Probabilities`, the five chances of the
player ON ROLL as the field writes them: (win, win gammon, win backgammon,
lose gammon, lose backgammon), gammons counting backgammons; cubeless money
equity = 2*win - 1 + wg - lg + wbg - lbg.  ``evaluate_batch`` does many at
once (positions, or an ``(n, 50)`` array of move-generator boards, player on
roll first) into an ``(n, 5)`` float64 array, and is the main speed lever:
all candidate plays of a roll go through one call.

:class:`gammon.ai.engine.Engine` is not an evaluator: its ``evaluate``
answers an :class:`~gammon.ai.engine.Evaluation` (probabilities, equity,
depth, class and cube), and it hands out its evaluators
(``Engine.evaluator_for``) for code that needs one.

The layers, as GNU Backgammon and wildbg compose them:

* :class:`NetEvaluator`: the neural nets alone (contact net, race net); a
  finished game still gets its exact result.
* :class:`ClassifyingEvaluator`: classifies each position
  (:class:`PositionClass`) and routes it: a finished game to its exact
  result, a no-contact bear-off to the one-sided bear-off database
  (:mod:`gammon.ai.bearoff`), a race where each side is home or has at most
  four checkers left to the same database's tables, any other race to the
  race net, anything else to the contact net.  This is the static ("0-ply") evaluator.
* :class:`gammon.ai.search.PlyEvaluator`: n-ply lookahead over it.

The routing runs inside one numba function (:func:`static_eval`) so that the
search calls it without Python in between.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from enum import IntEnum
from importlib import resources
from typing import Protocol, runtime_checkable

import numpy as np
from numba import njit

from gammon.ai.bearoff import N_POSITIONS as BEAROFF_POSITIONS
from gammon.ai.bearoff import OFFSETS as BEAROFF_OFFSETS
from gammon.ai.bearoff import BearoffDatabase, index_of, race_probabilities, race_row
from gammon.ai.bearoff import load as load_bearoff
from gammon.ai.encoding import OFF_CONTACT, a_side_is_down, add_extras, encode_sparse, is_contact
from gammon.ai.encoding_delta import extra_differences, input_differences, side_counts
from gammon.ai.kernel_args import Model, as_model, model_flags, new_scratch, reads_extras
from gammon.ai.network import CONTACT as CONTACT_NET
from gammon.ai.network import CRASHED as CRASHED_NET
from gammon.ai.network import (
    NUM_OUTPUTS,
    Network,
    _sigmoid,
    equity_of,
    flip_into,
    settle_into,
    side_empty,
    terminal_into,
)
from gammon.ai.probabilities import Probabilities
from gammon.core.borrowed import borrowed
from gammon.core.errors import GammonError
from gammon.core.position import Position

#: File names of the default weights inside ``gammon/ai/data``.
WEIGHTS_FILE = "weights.npz"
WEIGHTS_META_FILE = "weights.json"


class PositionClass(IntEnum):
    """How a position is evaluated, exact classes first (GNU Backgammon's ``positionclass``)."""

    #: One side has borne off every checker: the result is known.
    OVER = 0
    #: No contact and both sides entirely in their home boards: the bear-off database.
    BEAROFF = 1
    #: No contact (every checker has passed every opposing one): the race net, or the
    #: bear-off database's tables when each side is home or down to four checkers.
    RACE = 2
    #: Anything else: the contact net.
    CONTACT = 3


@runtime_checkable
class Evaluator(Protocol):
    """Anything that values positions for the player on roll (see the module doc).

    Exactly these two methods with these types (mypy checks the types; the
    runtime ``isinstance`` can only see the names, and a test checks the types
    each implementation returns).
    """

    def evaluate(self, position: Position) -> Probabilities:
        """The five chances of the player on roll of ``position``."""
        ...

    def evaluate_batch(self, positions: Sequence[Position] | np.ndarray) -> np.ndarray:
        """``(n, 5)`` float64 probabilities, each row for the player on roll of that position."""
        ...


@runtime_checkable
class CompiledEvaluator(Evaluator, Protocol):
    """An evaluator the compiled kernels can run without Python: :func:`static_eval`'s arrays."""

    def kernel_model(self) -> Model:
        """What :func:`static_eval` needs besides the board: weights, database, switch."""
        ...


# -- the numba kernels -------------------------------------------------------------


@njit(cache=True)
def _side_total(b, o):  # type: ignore[no-untyped-def]
    t = 0
    for i in range(25):
        t += b[o + i]
    return t


@njit(cache=True, inline="always")
def classify_board(b):  # type: ignore[no-untyped-def]
    """:class:`PositionClass` value of a board (player on roll first): finished (a side has
    no checkers), bear-off (every checker home, at most 15 a side), contact
    (:func:`~gammon.ai.encoding.is_contact`) or race.  One pass and no call (both inlined):
    it runs for every result valued (46 -> 20 ns a board)."""
    me = 0
    opp = 0
    outside = 0
    for i in range(25):
        me += b[i]
        opp += b[25 + i]
    for i in range(6, 25):
        outside |= b[i] | b[25 + i]
    if me == 0 or opp == 0:
        return 0
    if outside == 0 and me <= 15 and opp <= 15:
        return 1
    return 3 if is_contact(b) else 2


@njit(cache=True)
def over_into(b, checkers, out):  # type: ignore[no-untyped-def]
    """The exact result of a finished game for the player on roll of ``b``.

    ``checkers`` is the variant's checkers per side; the rule itself is
    :func:`gammon.ai.network.terminal_into` (one compiled copy of
    :attr:`gammon.core.Position.outcome`), seen from whichever side won.
    """
    if _side_total(b, 0) == 0:
        terminal_into(b, checkers, out)  # the player on roll has won
    else:
        sw = np.empty(50, dtype=np.uint8)
        for i in range(25):
            sw[i] = b[25 + i]
            sw[25 + i] = b[i]
        terminal_into(sw, checkers, out)
        flip_into(out, out)


@njit(cache=True, fastmath=True, error_model="numpy", inline="always")
def _add_rows(w1, k, h, idx, val, m):  # type: ignore[no-untyped-def]
    """``h += sum(val[t] * w1[k, idx[t]] for t < m)``: four weight rows per pass over ``h``."""
    nh = h.shape[0]
    t = 0
    while t + 3 < m:
        x0 = val[t]
        x1 = val[t + 1]
        x2 = val[t + 2]
        x3 = val[t + 3]
        r0 = w1[k, idx[t]]
        r1 = w1[k, idx[t + 1]]
        r2 = w1[k, idx[t + 2]]
        r3 = w1[k, idx[t + 3]]
        for j in range(nh):
            h[j] += (r0[j] * x0 + r1[j] * x1) + (r2[j] * x2 + r3[j] * x3)
        t += 4
    while t < m:
        x0 = val[t]
        r0 = w1[k, idx[t]]
        for j in range(nh):
            h[j] += r0[j] * x0
        t += 1


@njit(cache=True, fastmath=True, error_model="numpy", inline="always")
def _hidden_sums(start, w1, k, h, idx, val, m):  # type: ignore[no-untyped-def]
    """``h = start + sum(val[t] * w1[k, idx[t]] for t < m)``: net ``k``'s hidden sums from
    its biases (or a near board's sums, ``start``) and the (differing) inputs."""
    for j in range(h.shape[0]):
        h[j] = start[j]
    _add_rows(w1, k, h, idx, val, m)


@njit(cache=True, fastmath=True, error_model="numpy", inline="always")
def _outputs(model, k, h, y):  # type: ignore[no-untyped-def]
    """Net ``k``'s five outputs ``y`` from its hidden sums ``h`` (made activations in place)."""
    w2t = model.w2t
    b2 = model.b2
    nh = h.shape[0]
    for j in range(nh):
        h[j] = _sigmoid(h[j])
    for o in range(5):
        wo = w2t[k, o]
        acc = np.float32(0.0)
        for j in range(nh):
            acc += h[j] * wo[j]
        y[o] = _sigmoid(acc + b2[k, o])


@njit(cache=True, fastmath=True, error_model="numpy")
def forward_sparse(model, k, idx, val, m, h, y):  # type: ignore[no-untyped-def]
    """Outputs ``y`` (5) of ``model``'s net ``k`` for the ``m`` non-zero inputs
    ``idx[:m]``/``val[:m]`` (in index order, as :func:`gammon.ai.encoding.encode_sparse`
    writes them); ``h`` (hidden units) is scratch.

    :func:`gammon.ai.network.forward_one`'s outputs, three times faster.  Measured
    on the opening position's plays: 1.24 -> 0.45 us per board, from (1)
    ``error_model="numpy"``, without which numba guards every division
    against zero and the sigmoid loop does not vectorize (7x on that loop);
    (2) adding four weight rows per pass over the non-zero inputs only;
    (3) the transposed output weights ``w2t`` ``(K, 5, H)``, so that each
    output is one contiguous dot product.
    """
    _hidden_sums(model.b1[k], model.w1, k, h, idx, val, m)
    _outputs(model, k, h, y)


@njit(cache=True, inline="always")
def _table_rows(b, checkers, model):  # type: ignore[no-untyped-def]
    """The class of ``b`` and its two sides' rows in the bear-off tables (the player on
    roll's, the opponent's), or -1 and -1 where the tables do not value it."""
    c = classify_board(b)
    if model.flags & 1:
        if c == 1:
            return c, index_of(b, 0, BEAROFF_OFFSETS), index_of(b, 25, BEAROFF_OFFSETS)
        if c == 2 and model.rolls.shape[0] > BEAROFF_POSITIONS:
            # A race where each side is home or down to a few checkers: the short-side table.
            i_me = race_row(b, 0, checkers)
            if i_me >= 0:
                i_opp = race_row(b, 25, checkers)
                if i_opp >= 0:
                    return c, i_me, i_opp
    return c, -1, -1


@njit(cache=True)
def valued_by_tables(b, checkers, model):  # type: ignore[no-untyped-def]
    """Whether the bear-off tables value ``b`` (a race with both sides in them): where
    a cubeless rollout's trial may stop (``RolloutSettings.stop_at_bearoff``)."""
    return _table_rows(borrowed(b), checkers, borrowed(model))[1] >= 0


@njit(cache=True, inline="always")
def _exact_or_net(b, checkers, model, out):  # type: ignore[no-untyped-def]
    """The class of ``b``, and whether ``out`` already holds its exact value (a finished
    game, the bear-off database, the short-side race tables); else a net values it."""
    c, i_me, i_opp = _table_rows(b, checkers, model)
    if c == 0:
        over_into(b, checkers, out)
        return c, True
    if i_me >= 0:
        race_probabilities(model.rolls, model.first, i_me, i_opp, _side_total(b, 0) == checkers,
                           _side_total(b, 25) == checkers, out)
        return c, True
    return c, False


@njit(cache=True, inline="always")
def _net_for(b, model, contact):  # type: ignore[no-untyped-def]
    """Which net values board ``b``: the contact net (0) in contact, else the race net
    (which a one-net model has not); a third net values crashed contact positions (as
    :func:`gammon.ai.network.net_index` chooses)."""
    k = 0 if model.w1.shape[0] < 2 or contact else 1
    if k == CONTACT_NET and model.w1.shape[0] > CRASHED_NET and a_side_is_down(b):  # in contact: crashed
        k = CRASHED_NET
    return k


@njit(cache=True, inline="always")
def _net_of(b, model, idx, m):  # type: ignore[no-untyped-def]
    """:func:`_net_for` of board ``b`` with non-zero inputs ``idx[:m]`` from
    :func:`~gammon.ai.encoding.encode_sparse` (the contact flag is the last of them)."""
    return _net_for(b, model, m > 0 and idx[m - 1] == OFF_CONTACT)


@njit(cache=True, inline="always")
def _encode_for(b, model, idx, val):  # type: ignore[no-untyped-def]
    """Board ``b``'s non-zero inputs into ``idx``/``val`` for the net that values it: the
    count and the net; the extra inputs only when that net reads them."""
    m = encode_sparse(b, idx, val)
    k = _net_of(b, model, idx, m)
    if reads_extras(model, k):
        m = add_extras(b, idx, val, m)
    return m, k


@njit(cache=True)
def static_eval(b, checkers, model, s, out):  # type: ignore[no-untyped-def]
    """Five probabilities for the player on roll of board ``b`` (``checkers`` per side),
    routed by class, into ``out`` (5); returns the class used.

    ``model``: the nets and tables (:class:`~gammon.ai.kernel_args.Model`); ``s``:
    scratch (:class:`~gammon.ai.kernel_args.Scratch`, ``x``, ``h`` and ``idx`` used).
    """
    # no reference counting of the caller's arrays (gammon.core.borrowed)
    b, model, s, out = borrowed((b, model, s, out))
    c, done = _exact_or_net(b, checkers, model, out)
    if done:
        return c
    idx = s.idx
    m, k = _encode_for(b, model, idx, s.x)
    forward_sparse(model, k, idx, s.x, m, s.h, out)
    settle_into(b, checkers, out)
    return c


@njit(cache=True, fastmath=True, error_model="numpy")
def set_base(before, checkers, model, s, base):  # type: ignore[no-untyped-def]
    """Make the board before a roll, ``before`` (the mover on roll, ``checkers`` per
    side), the ``base`` from which :func:`best_result` values the roll's results: that
    board seen by the other side (as the results are valued; swapped into ``s.tmp``),
    its non-zero inputs, its net and that net's hidden sums.  A board no net values
    (finished, or exact from the tables) leaves no base."""
    # no reference counting of the caller's arrays (gammon.core.borrowed)
    before, model, s, base = borrowed((before, model, s, base))
    b = s.tmp
    for i in range(25):
        b[i] = before[25 + i]
        b[25 + i] = before[i]
    base.meta[0] = -1
    for t in range(base.meta[1]):
        base.dense[base.idx[t]] = 0.0
    base.meta[1] = 0
    _, done = _exact_or_net(b, checkers, model, s.y)
    if done:
        return
    idx = base.idx
    val = base.val
    dense = base.dense
    m, k = _encode_for(b, model, idx, val)
    for t in range(m):
        dense[idx[t]] = val[t]
    for i in range(50):
        base.board[i] = b[i]
    side_counts(b, base.counts)
    _hidden_sums(model.b1[k], model.w1, k, base.pre, idx, val, m)
    base.meta[0] = k
    base.meta[1] = m


@njit(cache=True, fastmath=True, error_model="numpy")
def best_result(gb, n, checkers, model, s, ys, win_at_once, base=None):  # type: ignore[no-untyped-def]
    """Value the ``n`` move results ``gb[:n]`` (mover first) at 0-ply into ``ys[:n]``
    (each result's :func:`static_eval` with the opponent on roll, flipped: the mover's
    view); returns the index of the best by cubeless equity (the first of equals).

    With ``win_at_once`` a result that wins the game is chosen as soon as it is
    met (the results after it are not valued): a play-out's choice.  The one
    0-ply choice of a roll for the search's decisions and the rollouts.

    ``base``: None, or the board before the roll, set by :func:`set_base` (a
    :class:`~gammon.ai.kernel_args.NetBase`): each result valued
    by the base's net then adds only the inputs in which it differs from the base
    to the base's hidden sums, found from the points where the two boards differ
    (:func:`~gammon.ai.encoding_delta.input_differences`: the result is not encoded whole).
    A roll's results differ from the board before it in the moved checkers and the
    features they touch: 11 of 43 non-zero inputs on average over self-play
    positions, so the first layer costs a quarter; the values equal the whole sums'
    up to float32 rounding.

    The loop is one compiled body (no call per result, whose passing of the
    bundles of arrays cost about a fifth of a result's time).  Measured on 3,000
    self-play positions, every result of the 21 rolls: 1.75 us a result with a
    call per result, 1.44 in one body, 1.06 from the base with each result encoded
    whole (stop 51), 0.95 from the points that differ (stop 52; another 3,000).
    """
    # Every array the loop touches, borrowed: no reference counting per result (see
    # gammon.core.borrowed: it was 45% of a rollout's time).
    gb, ys, model, s = borrowed((gb, ys, model, s))
    near = borrowed(base)  # ``base`` itself stays as passed: numba drops its branch when it is None
    tmp = s.tmp
    idx = s.idx
    val = s.x
    h = s.h
    w1 = model.w1
    b1 = model.b1
    best = 0
    bestv = -1e30
    for r in range(n):
        b = gb[r]
        y = ys[r]
        for i in range(25):
            tmp[i] = b[25 + i]
            tmp[25 + i] = b[i]
        _, done = _exact_or_net(tmp, checkers, model, y)
        if not done:
            k = -1
            if base is not None and near.meta[0] >= 0:
                c, contact = input_differences(tmp, near.board, near.counts, near.dense,
                                               near.didx, near.dval)
                k = _net_for(tmp, model, contact)
                if k == near.meta[0] and reads_extras(model, k):
                    c = extra_differences(tmp, near.dense, near.didx, near.dval, c)
                if k == near.meta[0] and c < near.meta[1]:  # fewer rows to add than from nothing
                    _hidden_sums(near.pre, w1, k, h, near.didx, near.dval, c)
                else:
                    k = -1
            if k < 0:
                m, k = _encode_for(tmp, model, idx, val)
                _hidden_sums(b1[k], w1, k, h, idx, val, m)
            _outputs(model, k, h, y)
            settle_into(tmp, checkers, y)
        flip_into(y, y)
        if win_at_once and side_empty(b, 0):
            best = r
            break
        v = equity_of(y)
        if v > bestv:
            bestv = v
            best = r
    return best


@njit(cache=True)
def static_batch(boards, checkers, model, ys):  # type: ignore[no-untyped-def]
    """:func:`static_eval` of each row of ``boards`` (player on roll first) into ``ys``.

    ``model`` is a :class:`~gammon.ai.kernel_args.Model` as a plain tuple (called
    from Python, see :mod:`gammon.ai.kernel_args`).  The 0-ply evaluation of the
    search (``gammon.ai.search``) is the same call, so both give the same values.
    """
    m = as_model(model)
    s = new_scratch(m)
    for r in range(boards.shape[0]):
        static_eval(boards[r], checkers, m, s, ys[r])


# -- Python evaluators ---------------------------------------------------------------


def as_boards(positions: Sequence[Position] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Boards ``(n, 50)`` uint8 and checkers per side ``(n,)`` for positions or boards.

    A raw board array is taken as standard backgammon (15 checkers).

    :raises GammonError: an array of the wrong shape.
    """
    if isinstance(positions, np.ndarray):
        boards = np.array(positions, dtype=np.uint8, order="C")
        if boards.ndim == 1:
            boards = boards.reshape(1, -1)
        if boards.ndim != 2 or boards.shape[1] != 50:
            raise GammonError(f"boards must be an (n, 50) array, not {positions.shape}")
        return boards, np.full(boards.shape[0], 15, dtype=np.int64)
    n = len(positions)
    if n == 0:
        return np.zeros((0, 50), dtype=np.uint8), np.zeros(0, dtype=np.int64)
    # A writable array: read-only ones are another type to numba (another compilation).
    boards = np.frombuffer(bytearray(b"".join(p.board for p in positions)), dtype=np.uint8)
    boards = boards.reshape(n, 50)
    checkers = np.fromiter((p.variant.checkers for p in positions), dtype=np.int64, count=n)
    return boards, checkers


def classify(position: Position) -> PositionClass:
    """The class of ``position`` (which evaluator applies).

    >>> classify(Position.initial())
    <PositionClass.CONTACT: 3>
    """
    return PositionClass(int(classify_board(np.frombuffer(position.board, dtype=np.uint8))))


_EMPTY_DB = (np.zeros((1, 1), dtype=np.float32), np.zeros((1, 1), dtype=np.float32))


class NetEvaluator:
    """The neural nets alone: net 0 for contact, net 1 for races (exact for finished games)."""

    def __init__(self, network: Network) -> None:
        self.network = network
        self._model: Model | None = None

    @property
    def bearoff(self) -> BearoffDatabase | None:
        return None

    def kernel_model(self) -> Model:
        """What :func:`static_eval` needs besides the board: weights, database, switch."""
        model = self._model
        if model is None:
            n = self.network
            db = self.bearoff
            rolls, first = _EMPTY_DB if db is None else db.kernel_tables()
            w2t = np.ascontiguousarray(n.w2.transpose(0, 2, 1))
            model = self._model = Model(n.w1, n.b1, w2t, n.b2, rolls, first,
                                        model_flags(db is not None, n.reads_extras()))
        return model

    def evaluate_batch(self, positions: Sequence[Position] | np.ndarray) -> np.ndarray:
        boards, checkers = as_boards(positions)
        if not isinstance(positions, np.ndarray) and len({p.variant for p in positions}) > 1:
            raise GammonError("positions of different variants cannot be evaluated in one batch")
        ys = np.empty((boards.shape[0], NUM_OUTPUTS), dtype=np.float32)
        static_batch(boards, int(checkers[0]) if len(checkers) else 15, tuple(self.kernel_model()), ys)
        return ys.astype(np.float64)

    def evaluate(self, position: Position) -> Probabilities:
        return Probabilities.of_row(self.evaluate_batch([position])[0])

    def __repr__(self) -> str:
        return f"{type(self).__name__}(games={self.network.meta.get('games', '?')})"


class ClassifyingEvaluator(NetEvaluator):
    """The static evaluator: exact results, then the bear-off database, then the nets."""

    def __init__(self, network: Network, bearoff: BearoffDatabase | None) -> None:
        super().__init__(network)
        self._bearoff = bearoff

    @property
    def bearoff(self) -> BearoffDatabase | None:
        return self._bearoff


# -- defaults ----------------------------------------------------------------------

def default_network() -> Network:
    """The weights shipped in ``gammon/ai/data/weights.npz``, read now (a new copy each call).

    :raises GammonError: the package data is missing or damaged.
    """
    ref = resources.files("gammon.ai") / "data" / WEIGHTS_FILE
    try:
        with resources.as_file(ref) as path:
            net = Network.load(path)
    except (OSError, FileNotFoundError) as exc:
        raise GammonError(f"the default weights are missing: {exc}") from None
    meta_ref = resources.files("gammon.ai") / "data" / WEIGHTS_META_FILE
    if meta_ref.is_file():
        try:
            net.meta = {**net.meta, **json.loads(meta_ref.read_text())}
        except (OSError, ValueError):
            pass
    return net


def load_network(weights: str | Network | None) -> Network:
    """A network from a path, an existing :class:`Network`, or the default (``None``)."""
    if weights is None:
        return default_network()
    if isinstance(weights, Network):
        return weights
    return Network.load(weights)


def default_evaluator() -> ClassifyingEvaluator:
    """The static evaluator over the default weights and the bear-off database."""
    return ClassifyingEvaluator(default_network(), load_bearoff())
