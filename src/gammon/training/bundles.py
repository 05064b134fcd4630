"""The compiled training loops' arguments, bundled: weights, rules, policy, learning, scratch.

The self-play kernels (:mod:`gammon.training.selfplay`, :mod:`gammon.training.train`,
:mod:`gammon.training.positions`) take a few of these named tuples instead of a
dozen or more loose arrays and numbers: numba compiles a ``typing.NamedTuple`` of
arrays and scalars as one argument (and caches it, the types being module-level),
and a kernel reads ``net.w1`` or ``rules.flags`` where it read a positional
``w1`` or ``rules[0]``.  The values are the same arrays, so nothing is copied
and the results are bit for bit those of the loose arguments.

Each is built once on the Python side by the constructor functions below and
handed down unchanged; the kernels write only into the arrays (weights during
learning, scratch everywhere), never replace a field.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from gammon.ai.encoding import NUM_INPUTS
from gammon.ai.network import NUM_OUTPUTS, Network
from gammon.core import movegen
from gammon.core.variants import Variant

#: Most turns one self-play game (training, refinement) may take; a longer game is abandoned
#: (never seen in practice).
MAX_SELFPLAY_PLIES = 4000


class Weights(NamedTuple):
    """A net's weights (:class:`gammon.ai.network.Network`'s arrays, not copies):
    ``w1`` (nets, inputs, hidden), ``b1`` (nets, hidden), ``w2`` (nets, hidden, 5),
    ``b2`` (nets, 5), all float32."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray


def weights_of(net: Network) -> Weights:
    """``net``'s own arrays as :class:`Weights` (training writes through them into ``net``)."""
    return Weights(net.w1, net.b1, net.w2, net.b2)


class Rules(NamedTuple):
    """The compiled loops' view of a variant.

    ``start``: the starting board (50 uint8, player on roll first); ``flags`` and
    ``checkers``: the move generator's switches and checkers a side; ``reroll``: 1 when
    an opening throw of a double is thrown again; ``bonus``: 1 for Acey-Deucey's 1-2
    bonus; ``pool``: never-entered checkers each side starts with (Acey-Deucey);
    ``per_checker``: a game pays per checker left (Acey-Deucey).
    """

    start: np.ndarray
    flags: int
    checkers: int
    reroll: int
    bonus: int
    pool: int
    per_checker: bool


def variant_rules(variant: Variant) -> Rules:
    """The :class:`Rules` of ``variant``."""
    return Rules(
        start=np.array(variant.start + variant.start, dtype=np.uint8),
        flags=int(variant.flags),
        checkers=int(variant.checkers),
        reroll=int(variant.opening == "reroll"),
        bonus=int(variant.acey_deucey_bonus),
        pool=int(variant.start[24]) if variant.starts_in_pool else 0,
        per_checker=bool(variant.pays_per_checker),
    )


#: :attr:`Policy.kind` of the net's greedy 0-ply choice (by cubeless equity).
NET = 0
#: :attr:`Policy.kind` of the fixed heuristic (:func:`gammon.ai.heuristic.yardstick_score`).
HEURISTIC = 1


class Policy(NamedTuple):
    """Who chooses the plays: ``kind`` (:data:`NET` or :data:`HEURISTIC`), the net's
    ``weights`` (read by :data:`NET` only, but always given so that every policy has
    one type) and ``eps``, the chance that the net's choice is replaced by a random
    play (exploration; 0 for the heuristic)."""

    kind: int
    weights: Weights
    eps: float


def policy(kind: int, net: Network, eps: float = 0.0) -> Policy:
    """A :class:`Policy` of ``kind`` over ``net``'s weights."""
    return Policy(int(kind), weights_of(net), float(eps))


class Learning(NamedTuple):
    """TD(lambda)'s step size ``alpha`` and trace decay ``lam`` (both float32)."""

    alpha: np.float32
    lam: np.float32


def learning(alpha: float, lam: float) -> Learning:
    """:class:`Learning` with the float32 values the learning loop computes with."""
    return Learning(np.float32(alpha), np.float32(lam))


class Scratch(NamedTuple):
    """Preallocated arrays of one self-play loop: the move generator's workspace
    (``gb`` boards, ``gm`` moves, ``table``), each result's net inputs ``cx`` and
    outputs ``cy``, and a board ``tmp`` (a result seen by the other side)."""

    gb: np.ndarray
    gm: np.ndarray
    table: np.ndarray
    cx: np.ndarray
    cy: np.ndarray
    tmp: np.ndarray


def scratch() -> Scratch:
    """Fresh :class:`Scratch` for every result the generator may give."""
    ws = movegen.Workspace()
    cap = movegen.MAX_RESULTS
    return Scratch(ws.boards, ws.moves, ws.table,
                   np.zeros((cap, NUM_INPUTS), dtype=np.float32),
                   np.zeros((cap, NUM_OUTPUTS), dtype=np.float32),
                   np.empty(50, dtype=np.uint8))


class Trace(NamedTuple):
    """What TD(lambda) keeps of one game and its gradient buffers: each turn's inputs
    ``xs``, net index ``ks`` and values ``vs``; the hidden activations ``h`` and their
    gradients ``dh`` of one step."""

    xs: np.ndarray
    ks: np.ndarray
    vs: np.ndarray
    h: np.ndarray
    dh: np.ndarray


def trace(hidden: int) -> Trace:
    """A :class:`Trace` for the longest game and a net of ``hidden`` units."""
    return Trace(np.zeros((MAX_SELFPLAY_PLIES, NUM_INPUTS), dtype=np.float32),
                 np.zeros(MAX_SELFPLAY_PLIES, dtype=np.int64),
                 np.zeros((MAX_SELFPLAY_PLIES, NUM_OUTPUTS), dtype=np.float32),
                 np.zeros(hidden, dtype=np.float32),
                 np.zeros(hidden, dtype=np.float32))
