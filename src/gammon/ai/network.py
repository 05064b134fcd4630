"""A small neural network evaluator in numpy, with a numba forward pass.

One hidden layer of sigmoid units, five sigmoid outputs as the field writes
them: (win, win gammon, win backgammon, lose gammon, lose backgammon), gammons
counting backgammons, all for the player ON ROLL of the position evaluated.
Cubeless money equity = 2*win - 1 + wg - lg + wbg - lbg.

A :class:`Network` holds ``K`` nets of the same shape stacked along the first
axis; net 0 values contact positions, net 1 (when present) pure races and net 2 (when
present) crashed contact positions (:func:`net_index`).

Weights (float32):

* ``w1``: ``(K, NUM_INPUTS, H)`` input -> hidden (transposed, so the sparse
  forward pass adds whole rows for the non-zero inputs)
* ``b1``: ``(K, H)``
* ``w2``: ``(K, H, 5)`` hidden -> outputs
* ``b2``: ``(K, 5)``

Files are ``.npz`` archives with these four arrays plus ``meta``: a JSON record
(settings, games trained, date, command).

The forward pass exists once per input shape, and why two:

* :func:`forward_one`: a dense input vector (``NUM_INPUTS`` floats), as
  training's self-play and this class's own methods encode them
  (:func:`forward_batch` is only its loop over rows);
* :func:`gammon.ai.evaluator.forward_sparse`: the non-zero inputs as index and
  value lists with the output weights transposed, the engine's hot path (three
  times faster).

They agree to float32 rounding, not bit for bit (they add the hidden sums in a
different order), and each is pinned by its own exact results (training's
self-play games in ``tests/ai/test_ai_playout_pins.py``; the engine's values in
``tests/ai/test_ai_exact.py``), so neither is written in terms of the other.
``gammon.training.fitting`` has a numpy batch pass of its own: the
differentiable one (exact sigmoid, hidden activations kept for
back-propagation), not a copy of these.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from gammon.ai.encoding import (
    BASE_INPUTS,
    NUM_INPUTS,
    OFF_EXTRAS,
    a_side_is_down,
    encode_into,
    is_contact,
    swap_into,
)
from gammon.ai.probabilities import Probabilities
from gammon.ai.ranked import RankedPlay
from gammon.core.errors import GammonError

if TYPE_CHECKING:
    from gammon.core.position import Position

NUM_OUTPUTS = 5
CONTACT = 0
RACE = 1
#: The third net's index: crashed contact positions (:func:`net_index`).
CRASHED = 2


@njit(cache=True, fastmath=True, inline="always")
def _sigmoid(z):  # type: ignore[no-untyped-def]
    """The logistic function in float32 as 0.5 + 0.5 tanh(z / 2), tanh by a rational
    approximation (Eigen's fast tanh; error below 2e-7), so loops over it vectorize."""
    x = np.float32(0.5) * z
    x = min(max(x, np.float32(-7.90531110763549805)), np.float32(7.90531110763549805))
    x2 = x * x
    p = np.float32(-2.76076847742355e-16)
    p = p * x2 + np.float32(2.00018790482477e-13)
    p = p * x2 + np.float32(-8.60467152213735e-11)
    p = p * x2 + np.float32(5.12229709037114e-08)
    p = p * x2 + np.float32(1.48572235717979e-05)
    p = p * x2 + np.float32(6.37261928875436e-04)
    p = p * x2 + np.float32(4.89352455891786e-03)
    q = np.float32(1.19825839466702e-06)
    q = q * x2 + np.float32(1.18534705686654e-04)
    q = q * x2 + np.float32(2.26843463243900e-03)
    q = q * x2 + np.float32(4.89352518554385e-03)
    return np.float32(0.5) + np.float32(0.5) * (p * x / q)


@njit(cache=True, fastmath=True)
def forward_one(x, w1, b1, w2, b2, k, h, y):  # type: ignore[no-untyped-def]
    """Outputs ``y`` (5) and hidden activations ``h`` of net ``k`` for inputs ``x``.

    Sparse in the inputs: only non-zero inputs cost anything (about 42 of the 214 are
    non-zero).  Their indices are gathered first, so that the hidden layer is a plain sum
    of weight rows that the compiler vectorizes (a third faster than testing each input
    inside the sum).
    """
    nh = b1.shape[1]
    nz = np.empty(x.shape[0], dtype=np.int32)
    m = 0
    for i in range(x.shape[0]):
        if x[i] != 0.0:
            nz[m] = i
            m += 1
    wk = w1[k]
    for j in range(nh):
        h[j] = b1[k, j]
    for t in range(m):
        i = nz[t]
        xi = x[i]
        row = wk[i]
        for j in range(nh):
            h[j] += row[j] * xi
    for j in range(nh):
        h[j] = _sigmoid(h[j])
    s0 = b2[k, 0]
    s1 = b2[k, 1]
    s2 = b2[k, 2]
    s3 = b2[k, 3]
    s4 = b2[k, 4]
    wk2 = w2[k]
    for j in range(nh):
        hj = h[j]
        w = wk2[j]
        s0 += hj * w[0]
        s1 += hj * w[1]
        s2 += hj * w[2]
        s3 += hj * w[3]
        s4 += hj * w[4]
    y[0] = _sigmoid(s0)
    y[1] = _sigmoid(s1)
    y[2] = _sigmoid(s2)
    y[3] = _sigmoid(s3)
    y[4] = _sigmoid(s4)


@njit(cache=True)
def forward_batch(x, nets, w1, b1, w2, b2):  # type: ignore[no-untyped-def]
    """Outputs ``(n, 5)`` for inputs ``x`` ``(n, NUM_INPUTS)``; row r uses net ``nets[r]``."""
    n = x.shape[0]
    out = np.empty((n, NUM_OUTPUTS), dtype=np.float32)
    h = np.empty(b1.shape[1], dtype=np.float32)
    for r in range(n):
        forward_one(x[r], w1, b1, w2, b2, nets[r], h, out[r])
    return out


@njit(cache=True, inline="always")
def equity_of(y):  # type: ignore[no-untyped-def]
    """Cubeless money equity of five probabilities."""
    return 2.0 * y[0] - 1.0 + y[1] - y[3] + y[2] - y[4]


@njit(cache=True)
def flip_into(y, out):  # type: ignore[no-untyped-def]
    """Probabilities of the other player: (1 - win, lg, lbg, wg, wbg)."""
    a0 = 1.0 - y[0]
    a1 = y[3]
    a2 = y[4]
    a3 = y[1]
    a4 = y[2]
    out[0] = a0
    out[1] = a1
    out[2] = a2
    out[3] = a3
    out[4] = a4


@njit(cache=True)
def terminal_into(b, checkers, out):  # type: ignore[no-untyped-def]
    """Result of a finished game for the player whose side (``b[:25]``) is empty.

    ``checkers`` is the variant's checkers per side (15, or 1-3 in Hypergammon):
    "A gammon: the loser has borne off no checker.  A backgammon: the loser has
    borne off none and still has a checker on the bar or in the winner's home
    board."  This is the one compiled copy of :attr:`gammon.core.Position.outcome`
    (a test compares them over finished positions of every variant).
    """
    total = 0
    back = 0
    for i in range(25):
        total += b[25 + i]
        if i >= 18:
            back += b[25 + i]
    out[0] = 1.0
    gammon = total >= checkers
    out[1] = 1.0 if gammon else 0.0
    out[2] = 1.0 if gammon and back > 0 else 0.0
    out[3] = 0.0
    out[4] = 0.0


@njit(cache=True)
def settle_into(b, checkers, out):  # type: ignore[no-untyped-def]
    """Make a net's five outputs obey what the board already decides (the rules of scoring).

    A side that has borne off a checker can no longer lose a gammon ("a
    gammon: the loser has borne off no checker"); a side with no checker left
    on the bar or in the other's home board can no longer be backgammoned
    (checkers only move forward); and a gammon is a win, a backgammon a gammon.
    """
    me = 0
    opp = 0
    back_me = 0
    back_opp = 0
    for i in range(25):
        a = b[i]
        c = b[25 + i]
        me += a
        opp += c
        if i >= 18:
            back_me += a
            back_opp += c
    if opp < checkers or back_opp == 0:
        out[2] = 0.0
        if opp < checkers:
            out[1] = 0.0
    if me < checkers or back_me == 0:
        out[4] = 0.0
        if me < checkers:
            out[3] = 0.0
    if out[1] > out[0]:
        out[1] = out[0]
    if out[2] > out[1]:
        out[2] = out[1]
    if out[3] > 1.0 - out[0]:
        out[3] = 1.0 - out[0]
    if out[4] > out[3]:
        out[4] = out[3]


@njit(cache=True)
def side_empty(b, o):  # type: ignore[no-untyped-def]
    for i in range(25):
        if b[o + i] != 0:
            return False
    return True


@njit(cache=True)
def net_index(b, knets):  # type: ignore[no-untyped-def]
    """Which net values board ``b``: 0 contact, 1 race (0 when there is one net), 2 crashed
    (:func:`~gammon.ai.encoding.is_crashed`; only with a third net, else the contact net)."""
    if knets > 1 and not is_contact(b):
        return RACE
    if knets > CRASHED and a_side_is_down(b):  # in contact, so crashed
        return CRASHED
    return CONTACT


@njit(cache=True)
def net_indices(boards, knets):  # type: ignore[no-untyped-def]
    """:func:`net_index` of every row of ``boards`` ``(n, 50)``."""
    out = np.empty(boards.shape[0], dtype=np.int64)
    for r in range(boards.shape[0]):
        out[r] = net_index(boards[r], knets)
    return out


def crashed_rows_mask(boards: np.ndarray) -> np.ndarray:
    """Which rows of ``boards`` ``(n, 50)`` are crashed positions, the third net's
    (:func:`~gammon.ai.encoding.is_crashed`)."""
    b = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, 50)
    out: np.ndarray = net_indices(b, CRASHED + 1) == CRASHED
    return out


@njit(cache=True)
def evaluate_results(boards, checkers, w1, b1, w2, b2, xs, ys):  # type: ignore[no-untyped-def]
    """Probabilities, in the MOVER's view, of every row of ``boards`` (move results,
    mover first).

    Each result is swapped so the opponent is on roll, encoded into ``xs[r]``,
    evaluated and flipped; finished games get their exact result.  Writes
    ``ys[:n]`` and returns the index of the best result by cubeless equity.
    """
    n = boards.shape[0]
    h = np.empty(b1.shape[1], dtype=np.float32)
    tmp = np.empty(50, dtype=np.uint8)
    knets = w1.shape[0]
    best = 0
    bestv = -1e30
    for r in range(n):
        row = boards[r]
        if side_empty(row, 0):
            terminal_into(row, checkers, ys[r])
        else:
            swap_into(row, tmp)
            encode_into(tmp, xs[r])
            forward_one(xs[r], w1, b1, w2, b2, net_index(tmp, knets), h, ys[r])
            settle_into(tmp, checkers, ys[r])
            flip_into(ys[r], ys[r])
        v = equity_of(ys[r])
        if v > bestv:
            bestv = v
            best = r
    return best


def flip_probs(y: Sequence[float]) -> tuple[float, float, float, float, float]:
    """The five probabilities seen by the other player (:meth:`Probabilities.flipped`)."""
    return Probabilities.of(y).flipped().as_tuple()


def equity(y: Sequence[float]) -> float:
    """Cubeless money equity of (win, wg, wbg, lg, lbg) (:attr:`Probabilities.equity`)."""
    return Probabilities.of(y).equity


class Network:
    """Stacked MLP weights (net 0 contact, net 1 race, net 2 crashed) and their metadata."""

    def __init__(
        self,
        w1: np.ndarray,
        b1: np.ndarray,
        w2: np.ndarray,
        b2: np.ndarray,
        meta: dict[str, Any] | None = None,
    ) -> None:
        w1 = np.asarray(w1, dtype=np.float32)
        if w1.ndim == 3 and w1.shape[1] == BASE_INPUTS:
            # A net made before the extra inputs: it reads them with zero weights.
            w1 = np.concatenate([w1, np.zeros((w1.shape[0], NUM_INPUTS - BASE_INPUTS, w1.shape[2]),
                                              dtype=np.float32)], axis=1)
        self.w1 = np.ascontiguousarray(w1)
        self.b1 = np.ascontiguousarray(b1, dtype=np.float32)
        self.w2 = np.ascontiguousarray(w2, dtype=np.float32)
        self.b2 = np.ascontiguousarray(b2, dtype=np.float32)
        if self.w1.ndim != 3:
            raise GammonError("network weight shapes do not fit together")
        k, nin, nh = self.w1.shape
        if nin != NUM_INPUTS:
            raise GammonError(f"network has {nin} inputs; this encoder makes {NUM_INPUTS} "
                              f"(or {BASE_INPUTS} without the extra inputs)")
        if self.b1.shape != (k, nh) or self.w2.shape != (k, nh, NUM_OUTPUTS) or (
            self.b2.shape != (k, NUM_OUTPUTS)
        ):
            raise GammonError("network weight shapes do not fit together")
        self.meta: dict[str, Any] = dict(meta or {})

    @classmethod
    def random(cls, hidden: int = 128, nets: int = 2, seed: int = 0, scale: float = 0.1,
               inputs: int = NUM_INPUTS) -> Network:
        """Small random weights (normal, standard deviation ``scale``) on the first ``inputs``
        inputs: all of them, or ``BASE_INPUTS`` for a net without the extra inputs (zero
        weights there: the net a seed gave before they came)."""
        if inputs not in (BASE_INPUTS, NUM_INPUTS):
            raise GammonError(f"a net reads {BASE_INPUTS} or {NUM_INPUTS} inputs, not {inputs}")
        rng = np.random.default_rng(seed)
        return cls(
            rng.normal(0.0, scale, (nets, inputs, hidden)),
            np.zeros((nets, hidden)),
            rng.normal(0.0, scale, (nets, hidden, NUM_OUTPUTS)),
            np.zeros((nets, NUM_OUTPUTS)),
        )

    def widened(self, hidden: int, seed: int = 0, scale: float = 0.1) -> Network:
        """The same function with ``hidden`` units per net (at least the present number).

        The new units get small random input weights (normal, standard deviation
        ``scale``) and zero output weights, so the outputs are exactly those of this
        net until training moves them; training can then use the extra capacity.
        """
        nh = self.hidden
        if hidden < nh:
            raise GammonError(f"cannot widen a net of {nh} hidden units to {hidden}")
        extra = hidden - nh
        rng = np.random.default_rng(seed)
        k = self.nets
        w1 = np.concatenate([self.w1, rng.normal(0.0, scale, (k, NUM_INPUTS, extra))], axis=2)
        b1 = np.concatenate([self.b1, np.zeros((k, extra))], axis=1)
        w2 = np.concatenate([self.w2, np.zeros((k, extra, NUM_OUTPUTS))], axis=1)
        return Network(w1, b1, w2, self.b2.copy(), dict(self.meta))

    def with_crashed_net(self) -> Network:
        """These nets and a third for crashed positions (:func:`net_index`), a copy of the contact
        net: the same function until training moves the third on the crashed positions alone.

        :raises GammonError: a net that is not a contact and a race net.
        """
        if self.nets != 2:
            raise GammonError(f"a crashed net is added to a contact and a race net, not to {self.nets} nets")
        return Network(np.concatenate([self.w1, self.w1[:1]]), np.concatenate([self.b1, self.b1[:1]]),
                       np.concatenate([self.w2, self.w2[:1]]), np.concatenate([self.b2, self.b2[:1]]),
                       dict(self.meta))

    @classmethod
    def ensemble(cls, nets: Sequence[Network], meta: dict[str, Any] | None = None) -> Network:
        """One net whose output logits are the mean of ``nets``' logits (same inputs and nets).

        The hidden units of all members side by side, their output weights divided by
        the number of members, the output biases averaged: exactly the average of the
        members before the final sigmoid.  Averaging nets trained apart cancels part of
        their independent errors; the result is an ordinary wider net, usable everywhere.
        """
        if not nets:
            raise GammonError("an ensemble needs at least one net")
        k = nets[0].nets
        if any(n.nets != k for n in nets):
            raise GammonError("the members of an ensemble must have the same number of nets")
        m = float(len(nets))
        return cls(
            np.concatenate([n.w1 for n in nets], axis=2),
            np.concatenate([n.b1 for n in nets], axis=1),
            np.concatenate([n.w2 / m for n in nets], axis=1),
            np.mean([n.b2 for n in nets], axis=0),
            meta,
        )

    def reads_extras(self) -> np.ndarray:
        """Per net, whether it has a non-zero weight on an extra input
        (:func:`gammon.ai.encoding.add_extras`): only then are they computed for it."""
        return np.asarray(np.any(self.w1[:, OFF_EXTRAS:, :] != 0.0, axis=(1, 2)), dtype=np.bool_)

    @property
    def hidden(self) -> int:
        return int(self.w1.shape[2])

    @property
    def nets(self) -> int:
        return int(self.w1.shape[0])

    def copy(self) -> Network:
        return Network(
            self.w1.copy(), self.b1.copy(), self.w2.copy(), self.b2.copy(), dict(self.meta)
        )

    # -- files -------------------------------------------------------------

    def save(self, path: str | os.PathLike[str], **extra: np.ndarray) -> None:
        """Write an ``.npz`` (atomically: a temporary file, then a rename)."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp.npz")
        arrays: dict[str, np.ndarray] = {
            "w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2,
            "meta": np.array(json.dumps(self.meta, sort_keys=True)), **extra,
        }
        np.savez(tmp, **arrays)  # type: ignore[arg-type]
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Network:
        """Read a file written by :meth:`save`."""
        try:
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"])) if "meta" in z else {}
                return cls(z["w1"], z["b1"], z["w2"], z["b2"], meta)
        except (OSError, KeyError, ValueError) as exc:
            raise GammonError(f"cannot read network weights from {path}: {exc}") from None

    # -- evaluation --------------------------------------------------------

    def evaluate_boards(self, boards: np.ndarray, checkers: int = 15) -> np.ndarray:
        """Probabilities ``(n, 5)`` for boards ``(n, 50)``, each seen from the player on roll.

        ``checkers``: the variant's checkers per side (it decides what a finished game is worth).
        """
        boards = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, 50)
        out: np.ndarray = _evaluate_on_roll(boards, checkers, self.w1, self.b1, self.w2, self.b2)
        return out

    def evaluate(self, board: bytes | np.ndarray) -> Probabilities:
        """Probabilities of one board (50 counts, player on roll first)."""
        b = np.frombuffer(board, dtype=np.uint8) if isinstance(board, bytes) else board
        return Probabilities.of_row(self.evaluate_boards(np.asarray(b))[0])

    def evaluate_results(self, boards: np.ndarray, checkers: int = 15) -> tuple[np.ndarray, int]:
        """Mover's-view probabilities of move results ``(n, 50)`` and the best index.

        This is the one-batch evaluation of every candidate play of a roll;
        ``checkers`` as for :meth:`evaluate_boards`.
        """
        boards = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, 50)
        n = boards.shape[0]
        xs = np.zeros((max(n, 1), NUM_INPUTS), dtype=np.float32)
        ys = np.zeros((max(n, 1), NUM_OUTPUTS), dtype=np.float32)
        best = evaluate_results(boards, checkers, self.w1, self.b1, self.w2, self.b2, xs, ys)
        return ys[:n], int(best)

    def rank_plays(self, position: Position, dice: Iterable[int]) -> list[RankedPlay]:
        """Every legal play of ``dice``, best first, valued in one batch (mover's view).

        Empty when nothing can be played.
        """
        plays = position.legal_plays(dice)
        if len(plays) == 0:
            return []
        boards = np.frombuffer(
            b"".join(p.board for p in plays.positions()), dtype=np.uint8
        ).reshape(-1, 50)
        ys, _ = self.evaluate_results(boards, position.variant.checkers)
        values = [(plays[i], Probabilities.of_row(ys[i]), equity(ys[i])) for i in range(len(plays))]
        values.sort(key=lambda v: -v[2])
        best = values[0][2]
        return [RankedPlay(play, probs, e, e - best, 0) for play, probs, e in values]


@njit(cache=True)
def _evaluate_on_roll(boards, checkers, w1, b1, w2, b2):  # type: ignore[no-untyped-def]
    n = boards.shape[0]
    out = np.empty((n, NUM_OUTPUTS), dtype=np.float32)
    x = np.zeros(NUM_INPUTS, dtype=np.float32)
    h = np.empty(b1.shape[1], dtype=np.float32)
    knets = w1.shape[0]
    for r in range(n):
        if side_empty(boards[r], 25):
            # The opponent has borne off everything: the player on roll lost.
            swap = np.empty(50, dtype=np.uint8)
            swap_into(boards[r], swap)
            terminal_into(swap, checkers, out[r])
            flip_into(out[r], out[r])
            continue
        encode_into(boards[r], x)
        forward_one(x, w1, b1, w2, b2, net_index(boards[r], knets), h, out[r])
        settle_into(boards[r], checkers, out[r])
    return out
