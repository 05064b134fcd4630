"""gammon.core.borrowed: the same arrays, without an owner for numba to count references on."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from gammon.core.borrowed import borrowed


class _Bundle(NamedTuple):
    values: np.ndarray
    counts: np.ndarray
    scale: float
    on: bool


@njit
def _view(a):  # type: ignore[no-untyped-def]
    return a[1:]


@njit
def _borrowed_view(a):  # type: ignore[no-untyped-def]
    # Returning a borrowed view breaks the module's rule; the test keeps ``a`` alive
    # while it looks at the result, which shows what the view is made of.
    return borrowed(a)[1:]


@njit
def _use(bundle, nothing):  # type: ignore[no-untyped-def]
    bundle = borrowed(bundle)
    nothing = borrowed(nothing)
    total = 0.0
    for i in range(bundle.values.shape[0]):
        total += bundle.values[i] * bundle.scale
        bundle.counts[i] += 1
    return total, bundle.on, nothing is None


def test_a_borrowed_array_is_the_same_memory_without_an_owner() -> None:
    a = np.arange(5.0)
    owned, lent = _view(a), _borrowed_view(a)
    assert owned.base is not None  # numba's view keeps an owner, whose references it counts
    assert lent.base is None  # the borrowed one has none: nothing to count
    assert lent.tolist() == [1.0, 2.0, 3.0, 4.0]
    lent[0] = 42.0
    assert a[1] == 42.0  # the same memory, not a copy


def test_a_named_tuple_keeps_its_numbers_and_its_arrays_memory() -> None:
    bundle = _Bundle(np.array([1.0, 2.0, 3.0]), np.zeros(3, dtype=np.int64), 0.5, True)
    total, on, was_none = _use(bundle, None)
    assert total == 3.0 and on is True and was_none is True
    assert bundle.counts.tolist() == [1, 1, 1]  # written through the borrowed arrays


def test_what_it_cannot_borrow_is_refused_when_compiling() -> None:
    @njit
    def text(s):  # type: ignore[no-untyped-def]
        return borrowed(s)

    with pytest.raises(TypingError):
        text("a string")
