"""The compiled evaluator gives the same numbers, bit for bit, as the engine did before
its speed work (``tests/data/engine_values.npz``, written by ``make_engine_values.py``
at commit d10a691 with a seeded random net).

Encodings, 0-ply probabilities, the values of every candidate of a roll and the
chosen play, and 1-ply values over boards of every variant.  The encodings must be
identical.  The values are float32 sums compiled by numba for the host CPU, whose
vector width and fused multiply-adds change the last bit or two from one processor to
another (seen: AVX-512 against the AVX2 machine the data was made on), so they must agree
to ``ROUNDING`` (a few units in the last place of values below 1); a wrong input, weight or
formula moves them by orders of magnitude more.  The chosen play must be the stored one,
unless the two are tied to within that rounding.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from gammon.ai.bearoff import load as load_bearoff
from gammon.ai.encoding import BASE_INPUTS, encode, encode_batch
from gammon.ai.evaluator import ClassifyingEvaluator, static_batch
from gammon.ai.probabilities import equities
from gammon.ai.search import MODE_POSITIONS, MODE_ROLL, PlyEvaluator
from paths import DATA

DATA = DATA / "engine_values.npz"
#: How far a compiled float32 value may differ from the stored one: 4 units in the last
#: place of a value in [0.5, 1) (about 2.4e-7), a CPU's rounding, never a change of formula.
ROUNDING = 4 * float(np.spacing(np.float32(0.5)))


def _same_values(got: np.ndarray, want: np.ndarray) -> None:
    """``got`` equals ``want`` up to the host CPU's rounding (see the module docstring)."""
    np.testing.assert_allclose(got, want, rtol=0.0, atol=ROUNDING)


def _maker():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("make_engine_values", DATA.with_name(
        "make_engine_values.py"))
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def stored() -> dict[str, np.ndarray]:
    with np.load(DATA, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


@pytest.fixture(scope="module")
def evaluator() -> PlyEvaluator:
    # The stored values predate the short-side table (races down to four checkers);
    # that table's own values are checked in test_ai_bearoff.py.
    return PlyEvaluator(ClassifyingEvaluator(_maker().network(), load_bearoff().home_only()), 0)


def test_encodings_are_unchanged(stored: dict[str, np.ndarray]) -> None:
    # The inputs before the extra ones (which came after the file; test_ai_encoding.py).
    x = encode_batch(stored["boards"])[:, :BASE_INPUTS]
    assert x.dtype == np.float32 and stored["inputs"].shape[1] == BASE_INPUTS
    diff = np.flatnonzero((x != stored["inputs"]).any(axis=1))
    assert len(diff) == 0, f"{len(diff)} boards encode differently, first {stored['boards'][diff[0]]}"
    for r in range(0, len(x), 997):  # the one-board path too
        assert np.array_equal(encode(stored["boards"][r])[:BASE_INPUTS], stored["inputs"][r])


def test_static_probabilities_are_unchanged(stored: dict[str, np.ndarray],
                                            evaluator: PlyEvaluator) -> None:
    ck = stored["checkers"]
    for c in np.unique(ck):
        sel = np.flatnonzero(ck == c)
        ys = np.zeros((len(sel), 5), dtype=np.float32)
        static_batch(np.ascontiguousarray(stored["boards"][sel]), int(c),
                     tuple(evaluator.inner.kernel_model()), ys)
        _same_values(ys, stored["probs"][sel])


def test_roll_candidates_and_choice_are_unchanged(stored: dict[str, np.ndarray],
                                                  evaluator: PlyEvaluator) -> None:
    start = stored["roll_start"]
    for k in range(len(stored["roll_src"])):
        src = np.ascontiguousarray(stored["roll_src"][k : k + 1])
        d = tuple(int(v) for v in stored["roll_dice"][k])
        n, best = evaluator.run(MODE_ROLL, src, 0, (d[0], d[1]), int(stored["roll_checkers"][k]),
                                int(stored["roll_flags"][k]))
        assert n == start[k + 1] - start[k]
        want = stored["roll_ys"][start[k] : start[k + 1]]
        _same_values(evaluator.workspace.ys[:n], want)
        if best != stored["roll_best"][k]:  # only a tie within rounding may pick another play
            eq = equities(want.astype(np.float64))
            assert abs(eq[best] - eq[stored["roll_best"][k]]) <= 8 * ROUNDING, (k, best)


def test_one_ply_values_are_unchanged(stored: dict[str, np.ndarray],
                                      evaluator: PlyEvaluator) -> None:
    for k in range(len(stored["ply1"])):
        src = np.ascontiguousarray(stored["ply1_src"][k : k + 1])
        ys = np.zeros((1, 5), dtype=np.float32)
        evaluator.run(MODE_POSITIONS, src, 1, (0, 0), int(stored["ply1_checkers"][k]),
                      int(stored["ply1_flags"][k]), ys)
        _same_values(ys[0], stored["ply1"][k])
