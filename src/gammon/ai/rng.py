"""splitmix64: the small seeded generator the compiled game loops share.

Training and rollouts draw their dice inside numba from a one-element uint64
state array; every value follows from the seed, so runs reproduce exactly and
a checkpoint can save the state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True)
def next_u64(state):  # type: ignore[no-untyped-def]
    """The next 64-bit value of ``state`` (a uint64 array of one), advancing it."""
    state[0] += GOLDEN
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * M1
    z = (z ^ (z >> np.uint64(27))) * M2
    return z ^ (z >> np.uint64(31))
