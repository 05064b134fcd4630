"""The compiled evaluator gives the same numbers, bit for bit, as the engine did before
its speed work (``tests/data/engine_values.npz``, written by ``make_engine_values.py``
at commit d10a691 with a seeded random net).

Encodings, 0-ply probabilities, the values of every candidate of a roll and the
chosen play, and 1-ply values over boards of every variant: an optimisation of the
encoder or the forward pass that changed any of them by a rounding would fail here.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from gammon.ai.bearoff import load as load_bearoff
from gammon.ai.encoding import encode, encode_batch
from gammon.ai.evaluator import ClassifyingEvaluator, static_batch
from gammon.ai.search import MODE_POSITIONS, MODE_ROLL, PlyEvaluator

DATA = Path(__file__).with_name("data") / "engine_values.npz"


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
    return PlyEvaluator(ClassifyingEvaluator(_maker().network(), load_bearoff()), 0)


def test_encodings_are_unchanged(stored: dict[str, np.ndarray]) -> None:
    x = encode_batch(stored["boards"])
    assert x.dtype == np.float32
    diff = np.flatnonzero((x != stored["inputs"]).any(axis=1))
    assert len(diff) == 0, f"{len(diff)} boards encode differently, first {stored['boards'][diff[0]]}"
    for r in range(0, len(x), 997):  # the one-board path too
        assert np.array_equal(encode(stored["boards"][r]), stored["inputs"][r])


def test_static_probabilities_are_unchanged(stored: dict[str, np.ndarray],
                                            evaluator: PlyEvaluator) -> None:
    ck = stored["checkers"]
    for c in np.unique(ck):
        sel = np.flatnonzero(ck == c)
        ys = np.zeros((len(sel), 5), dtype=np.float32)
        static_batch(np.ascontiguousarray(stored["boards"][sel]), int(c),
                     *evaluator.inner.kernel_args(), ys)
        assert np.array_equal(ys, stored["probs"][sel])


def test_roll_candidates_and_choice_are_unchanged(stored: dict[str, np.ndarray],
                                                  evaluator: PlyEvaluator) -> None:
    start = stored["roll_start"]
    for k in range(len(stored["roll_src"])):
        src = np.ascontiguousarray(stored["roll_src"][k : k + 1])
        d = tuple(int(v) for v in stored["roll_dice"][k])
        n, best = evaluator.run(MODE_ROLL, src, 0, (d[0], d[1]), int(stored["roll_checkers"][k]),
                                int(stored["roll_flags"][k]))
        assert n == start[k + 1] - start[k]
        assert np.array_equal(evaluator.workspace.ys[:n], stored["roll_ys"][start[k] : start[k + 1]])
        assert best == stored["roll_best"][k]


def test_one_ply_values_are_unchanged(stored: dict[str, np.ndarray],
                                      evaluator: PlyEvaluator) -> None:
    for k in range(len(stored["ply1"])):
        src = np.ascontiguousarray(stored["ply1_src"][k : k + 1])
        ys = np.zeros((1, 5), dtype=np.float32)
        evaluator.run(MODE_POSITIONS, src, 1, (0, 0), int(stored["ply1_checkers"][k]),
                      int(stored["ply1_flags"][k]), ys)
        assert np.array_equal(ys[0], stored["ply1"][k])
