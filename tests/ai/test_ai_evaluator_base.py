"""Valuing a roll's results from a near board's hidden sums (``best_result`` with a base).

The first layer of a net is a sum of weight rows, one per non-zero input, so a board's
hidden sums equal another board's plus the rows of the inputs in which the two differ
(new value less old).  ``best_result`` with a base set by ``set_base`` values results that
way; the values must be the whole sums' up to float32 rounding and the chosen play the
same, whatever the base, for contact, crashed and race positions alike.  The differing
inputs are found from the points where the boards differ (``input_differences``); they must
be exactly the whole encodings' differences.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from gammon.ai.bearoff import load as load_bearoff
from gammon.ai.encoding import NUM_INPUTS, encode, is_contact, is_crashed
from gammon.ai.encoding_delta import extra_differences, input_differences, side_counts
from gammon.ai.evaluator import ClassifyingEvaluator, best_result, set_base
from gammon.ai.kernel_args import as_model, new_base, new_scratch
from gammon.ai.network import Network
from gammon.ai.probabilities import equities
from gammon.ai.variant_nets import standard_network
from gammon.core import movegen
from gammon.core.position import Position
from gammon.training.positions import collect_positions

#: float32 sums of about 40 weight rows in another order: a few units in the 6th decimal.
ROUNDING = 2e-6


@njit(cache=False)
def _values(boards, base_boards, model, use_base, ys_out, best_out, n_out):  # type: ignore[no-untyped-def]
    """Every 3-1 and 6-6 result of each board valued by ``best_result``: from the base board
    ``base_boards[i]`` (a board before a roll) when ``use_base``, else whole."""
    m = as_model(model)
    s = new_scratch(m)
    base = new_base(m)
    cap = movegen.MAX_RESULTS
    gb = np.zeros((cap + 1, 50), dtype=np.uint8)
    mv = np.zeros((cap, movegen.MOVE_COLS), dtype=np.int8)
    tb = np.zeros((movegen.TABLE_ROWS, 4), dtype=np.int64)
    q = 0
    for i in range(boards.shape[0]):
        set_base(base_boards[i], 15, m, s, base)
        for d in range(2):
            d1 = 3 if d == 0 else 6
            d2 = 1 if d == 0 else 6
            n = movegen.generate(boards[i], d1, d2, 0, 15, gb, mv, tb)
            if n == 0:
                continue
            ys = ys_out[q]
            if use_base:
                best_out[q] = best_result(gb, n, 15, m, s, ys, False, base)
            else:
                best_out[q] = best_result(gb, n, 15, m, s, ys, False)
            n_out[q] = n
            q += 1
    return q


@pytest.fixture(scope="module")
def network() -> Network:
    net = standard_network()
    assert net.w1.shape[0] == 3, "the shipped checker-play net has contact, race and crashed nets"
    # Its contact net reads the extra inputs, the others not: both kinds valued from a base.
    assert net.reads_extras().tolist() == [True, False, False]
    return net


@pytest.fixture(scope="module")
def boards(network: Network) -> np.ndarray:
    b, _ = collect_positions(network, 400, seed=11, epsilon=0.1, keep=0.35)
    return np.ascontiguousarray(b)


def _run(boards: np.ndarray, base_boards: np.ndarray, network: Network,
         use_base: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    model = tuple(ClassifyingEvaluator(network, load_bearoff()).kernel_model())
    cap = movegen.MAX_RESULTS
    ys = np.zeros((2 * len(boards), cap, 5), dtype=np.float32)
    best = np.zeros(2 * len(boards), dtype=np.int64)
    n = np.zeros(2 * len(boards), dtype=np.int64)
    q = _values(boards, base_boards, model, use_base, ys, best, n)
    return ys[:q], best[:q], n[:q]


def _same(boards: np.ndarray, base_boards: np.ndarray, network: Network) -> None:
    ys0, best0, n0 = _run(boards, boards, network, False)
    ys1, best1, n1 = _run(boards, base_boards, network, True)
    assert np.array_equal(n0, n1)
    for k in range(len(n0)):
        np.testing.assert_allclose(ys1[k, : n0[k]], ys0[k, : n0[k]], rtol=0.0, atol=ROUNDING)
        if best1[k] != best0[k]:  # only a tie within rounding may pick another play
            eq = equities(ys0[k, : n0[k]].astype(np.float64))
            assert abs(eq[best1[k]] - eq[best0[k]]) <= 4 * ROUNDING


def test_the_positions_cover_every_net(boards: np.ndarray) -> None:
    contact = [is_contact(b) for b in boards]
    assert sum(contact) > 100
    assert len(boards) - sum(contact) > 10  # races
    assert sum(bool(is_crashed(b)) for b in boards) > 5


def test_results_valued_from_the_board_before_the_roll_equal_the_whole_sums(
        boards: np.ndarray, network: Network) -> None:
    _same(boards, boards, network)


def test_any_base_gives_the_same_values(boards: np.ndarray, network: Network) -> None:
    # An unrelated board of the same net as base: more inputs differ, the sums still agree.
    _same(boards, np.roll(boards, 7, axis=0), network)
    start = np.frombuffer(Position.initial().board, dtype=np.uint8)
    _same(boards, np.repeat(start[None, :], len(boards), axis=0), network)


def test_a_board_no_net_values_sets_no_base(network: Network) -> None:
    model = as_model(tuple(ClassifyingEvaluator(network, load_bearoff()).kernel_model()))
    s = new_scratch(model)
    base = new_base(model)
    set_base(np.frombuffer(Position.initial().board, dtype=np.uint8).copy(), 15, model, s, base)
    assert base.meta[0] == 0 and base.meta[1] > 0  # the contact net
    bearoff = Position.from_position_id("AwAAAAAAAAAAAA").board  # both sides home: the database
    set_base(np.frombuffer(bearoff, dtype=np.uint8).copy(), 15, model, s, base)
    assert base.meta[0] == -1 and base.meta[1] == 0
    assert not base.dense.any()  # the previous base's inputs are cleared


def _differences_of(board: bytes, before: bytes) -> tuple[np.ndarray, bool]:
    """``input_differences`` and ``extra_differences`` of ``board`` from ``before`` scattered
    into a dense vector."""
    b = np.frombuffer(board, dtype=np.uint8)
    a = np.frombuffer(before, dtype=np.uint8)
    counts = np.zeros((2, 5), dtype=np.int64)
    side_counts(a, counts)
    didx = np.zeros(2 * NUM_INPUTS, dtype=np.int64)
    dval = np.zeros(2 * NUM_INPUTS, dtype=np.float32)
    dense = encode(before)
    c, contact = input_differences(b, a, counts, dense, didx, dval)
    c = extra_differences(b, dense, didx, dval, c)
    assert len(set(didx[:c].tolist())) == c, "an input written twice"
    assert (dval[:c] != 0).all()
    out = np.zeros(NUM_INPUTS, dtype=np.float32)
    out[didx[:c]] = dval[:c]
    return out, bool(contact)


def test_the_differing_inputs_are_the_encodings_differences(boards: np.ndarray) -> None:
    # Every result of four rolls from 150 self-play positions (hits, bar entries, bear-offs and
    # races among them), seen as they are valued (the other side on roll), against the board
    # before the roll: input by input, the new encoding less the old one, to the last bit.
    checked = 0
    for raw in boards[:150]:
        pos = Position._make(raw.tobytes(), Position.initial().variant)
        before = pos.swap().board
        for dice in ((3, 1), (6, 6), (5, 2), (4, 4)):
            for result in pos.legal_plays(dice).positions():
                if result.outcome is not None:
                    continue
                after = result.swap().board
                got, contact = _differences_of(after, before)
                want = encode(after) - encode(before)
                assert np.array_equal(got, want), (pos.position_id, dice, np.nonzero(got != want))
                assert contact == bool(is_contact(np.frombuffer(after, dtype=np.uint8)))
                checked += 1
    assert checked > 5000
    # From an unrelated board, most inputs differ, and still exactly.
    start = Position.initial().board
    for raw in boards[150:200]:
        got, _ = _differences_of(raw.tobytes(), start)
        assert np.array_equal(got, encode(raw.tobytes()) - encode(start))
