"""The incremental evaluation of a roll's results (``gammon.ai.evaluator.forward_changed``).

A roll's results are valued one after another, each net evaluation starting from the
previous result's hidden sums.  Whatever the order, each value must be the static
evaluator's value of that result on its own (the opponent on roll, flipped back), up to
float32 rounding, and the chosen play the static evaluator's best: the shortcut may
change the speed, never the verdict.
"""

from __future__ import annotations

import numpy as np

from gammon.ai.encoding import is_contact
from gammon.ai.evaluator import default_evaluator
from gammon.ai.network import equity, flip_probs
from gammon.ai.search import PlyEvaluator
from gammon.core.position import Position

STATIC = default_evaluator()
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
#: A middle game with blots and anchors: many results, every input kind changing.
MIDDLE = Position([0, 0, 0, 1, 2, 4, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0],
                  [0, 0, 1, 2, 3, 3, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0])
#: The last contact: the mover's checker on its 13-point, the opponent's on the mover's
#: 12-point.  Results that run past it are races (the race net), the others are not
#: (the contact net), so consecutive results switch nets.
LAST_CONTACT = Position([0, 2, 3, 3, 2, 2, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                        [0, 0, 0, 0, 2, 2, 3, 3, 2, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
#: The mover on the bar: entering results and dances.
ON_BAR = Position([0, 0, 0, 0, 3, 4, 0, 3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2],
                  [0, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0])


def _fresh_values(boards: np.ndarray) -> np.ndarray:
    """Each result's static value on its own, in the mover's view."""
    swapped = np.concatenate([boards[:, 25:], boards[:, :25]], axis=1)
    return np.array([flip_probs(v) for v in STATIC.evaluate_batch(swapped)])


def _check(position: Position) -> int:
    ev = PlyEvaluator(STATIC, 0)
    ws = ev.workspace
    results = 0
    for dice in ROLLS:
        n, best = ev.roll(position.board, dice)
        if n == 0:
            continue
        got = np.array(ws.ys[:n], dtype=np.float64)
        fresh = _fresh_values(np.array(ws.boards[0, :n]))
        np.testing.assert_allclose(got, fresh, atol=2e-5, err_msg=f"roll {dice}")
        eqs = [equity(v) for v in fresh]
        # The chosen play is the static evaluator's best (or within rounding of it).
        assert eqs[best] >= max(eqs) - 1e-5, dice
        results += n
    return results


def test_each_result_is_valued_as_on_its_own() -> None:
    assert _check(MIDDLE) > 300


def test_results_that_switch_between_the_contact_and_race_nets() -> None:
    ev = PlyEvaluator(STATIC, 0)
    ws = ev.workspace
    n, _ = ev.roll(LAST_CONTACT.board, (2, 1))
    contact = {bool(is_contact(b)) for b in np.array(ws.boards[0, :n])}
    assert contact == {True, False}  # the position is what it says
    _check(LAST_CONTACT)


def test_entering_from_the_bar() -> None:
    _check(ON_BAR)


def test_the_order_of_evaluation_does_not_change_a_value() -> None:
    # The same roll valued twice (the second time after other rolls' results) gives
    # the same numbers: each roll starts afresh.
    ev = PlyEvaluator(STATIC, 0)
    ws = ev.workspace
    n, best = ev.roll(MIDDLE.board, (6, 4))
    first = np.array(ws.ys[:n])
    for dice in ROLLS:
        ev.roll(MIDDLE.board, dice)
    n2, best2 = ev.roll(MIDDLE.board, (6, 4))
    assert (n2, best2) == (n, best)
    np.testing.assert_array_equal(np.array(ws.ys[:n]), first)
