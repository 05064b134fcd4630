"""The structured arguments of the AI's compiled kernels.

The kernels of the evaluator, the search and the rollouts all need the same
things: the nets' weights and the bear-off tables (:class:`Model`) and a few
scratch arrays (:class:`Scratch`).  Each travels as ONE named tuple, which
numba passes by value with no cost inside compiled code (a tuple of arrays is
a struct of array descriptors; ``model.w1`` is resolved when compiling), so a
kernel takes a handful of arguments instead of twenty or thirty.

**Calling from Python.**  numba's dispatcher types a plain ``tuple`` of arrays
in C, but a named tuple through Python code: measured 1.5 us more per call for
seven fields, 3% of a 0-ply move choice.  So the kernels that Python calls at
each decision take the bundles as plain tuples (``tuple(model)``) and name
them on entry with :func:`as_model` (free once compiled); the kernels they
call take the named tuples.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from gammon.ai.encoding import NUM_INPUTS
from gammon.ai.encoding_delta import SIDE_COUNTS

__all__ = ["Model", "NetBase", "Scratch", "as_model", "model_flags", "new_base", "new_scratch", "reads_extras"]


class Model(NamedTuple):
    """What the static evaluator (:func:`gammon.ai.evaluator.static_eval`) needs besides
    the board: the nets and the one-sided bear-off database's tables.

    ``w1`` ``(K, NUM_INPUTS, H)``, ``b1`` ``(K, H)``, ``b2`` ``(K, 5)`` float32:
    net ``k`` (0 contact, 1 race when ``K`` is 2); ``w2t`` ``(K, 5, H)`` its output
    weights transposed (each output one contiguous dot product); ``rolls``/``first``
    the database's kernel tables (:meth:`gammon.ai.bearoff.BearoffDatabase.kernel_tables`,
    1 x 1 zeros when there is none); ``flags``: bit 0 whether to consult them, bit ``1 + k``
    whether net ``k`` reads the extra inputs (:meth:`gammon.ai.network.Network.reads_extras`),
    computed only for such a net (:func:`model_flags`).  One integer rather than more arrays:
    one or two more arrays in this tuple cost the rollouts 5-7% (stop 54, measured), though
    nothing read them.
    """

    w1: np.ndarray
    b1: np.ndarray
    w2t: np.ndarray
    b2: np.ndarray
    rolls: np.ndarray
    first: np.ndarray
    flags: np.int64


class Scratch(NamedTuple):
    """The static evaluator's scratch arrays (contents meaningless between calls).

    ``x`` (NUM_INPUTS float32) and ``idx`` (NUM_INPUTS int64): the non-zero inputs
    and their numbers; ``h`` (H float32): hidden units; ``tmp`` (50 uint8): a swapped
    board; ``y`` (5 float32): one evaluation.
    """

    x: np.ndarray
    h: np.ndarray
    idx: np.ndarray
    tmp: np.ndarray
    y: np.ndarray


def model_flags(use_db: bool, extras: np.ndarray) -> np.int64:
    """:class:`Model`'s ``flags`` of the database switch and the nets that read the extra inputs."""
    bits = int(bool(use_db))
    for k, reads in enumerate(extras):
        if reads:
            bits |= 2 << k
    return np.int64(bits)


@njit(cache=True, inline="always")
def reads_extras(model, k):  # type: ignore[no-untyped-def]
    """Whether ``model``'s net ``k`` reads the extra inputs (:func:`model_flags`)."""
    return (model.flags >> (k + 1)) & 1 != 0


@njit(cache=True, inline="always")
def as_model(t):  # type: ignore[no-untyped-def]
    """The :class:`Model` of a plain tuple of its fields (see the module doc)."""
    return Model(*t)


@njit(cache=True)
def new_scratch(model):  # type: ignore[no-untyped-def]
    """Fresh :class:`Scratch` for ``model``'s hidden layer."""
    return Scratch(
        np.zeros(NUM_INPUTS, dtype=np.float32),
        np.zeros(model.w1.shape[2], dtype=np.float32),
        np.zeros(NUM_INPUTS, dtype=np.int64),
        np.zeros(50, dtype=np.uint8),
        np.zeros(5, dtype=np.float32),
    )


class NetBase(NamedTuple):
    """One board's inputs and hidden sums, from which near boards are valued by their
    differences alone (:func:`gammon.ai.evaluator.best_result`).

    ``idx``/``val``: its non-zero inputs (NUM_INPUTS each) and ``dense`` all its inputs;
    ``pre`` (H float32): its net's hidden sums before the sigmoid; ``meta`` (2 int64):
    the net (-1: no base) and the count of non-zero inputs; ``board`` (50 uint8) the board
    and ``counts`` its :func:`~gammon.ai.encoding_delta.side_counts`; ``didx``/``dval``
    (2 * NUM_INPUTS): scratch for the differing inputs
    (:func:`~gammon.ai.encoding_delta.input_differences`).
    """

    idx: np.ndarray
    val: np.ndarray
    dense: np.ndarray
    pre: np.ndarray
    meta: np.ndarray
    board: np.ndarray
    counts: np.ndarray
    didx: np.ndarray
    dval: np.ndarray


@njit(cache=True)
def new_base(model):  # type: ignore[no-untyped-def]
    """An empty :class:`NetBase` for ``model``'s hidden layer (no base set)."""
    meta = np.zeros(2, dtype=np.int64)
    meta[0] = -1
    return NetBase(
        np.zeros(NUM_INPUTS, dtype=np.int64),
        np.zeros(NUM_INPUTS, dtype=np.float32),
        np.zeros(NUM_INPUTS, dtype=np.float32),
        np.zeros(model.w1.shape[2], dtype=np.float32),
        meta,
        np.zeros(50, dtype=np.uint8),
        np.zeros((2, SIDE_COUNTS), dtype=np.int64),
        np.zeros(2 * NUM_INPUTS, dtype=np.int64),
        np.zeros(2 * NUM_INPUTS, dtype=np.float32),
    )
