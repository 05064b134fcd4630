"""One Probabilities type: the equity and flipped-view formulas, and the compiled copies agree with it."""

from __future__ import annotations

import numpy as np
import pytest

from gammon.ai.evaluator import ClassifyingEvaluator, CompiledEvaluator, Evaluator, NetEvaluator
from gammon.ai.network import equity_of, flip_into
from gammon.ai.probabilities import Probabilities, equities, equity, flip_rows
from gammon.core.errors import GammonError


def test_equity_from_the_definition() -> None:
    # Money: a single win +1, gammon +2, backgammon +3; losses likewise negative.
    p = Probabilities(0.6, 0.2, 0.05, 0.1, 0.01)
    singles = (0.6 - 0.2) * 1 + (0.2 - 0.05) * 2 + 0.05 * 3
    losses = (0.4 - 0.1) * 1 + (0.1 - 0.01) * 2 + 0.01 * 3
    assert p.equity == pytest.approx(singles - losses)
    assert equity(p) == pytest.approx(p.equity)
    assert p.flipped().equity == pytest.approx(-p.equity)
    assert p.flipped().flipped() == p
    assert p.lose == pytest.approx(0.4)
    assert p.single_wins_only().equity == pytest.approx(0.2)


def test_arrays_and_compiled_copies_agree() -> None:
    rng = np.random.default_rng(1)
    rows = rng.random((50, 5))
    e = equities(rows)
    f = flip_rows(rows)
    out = np.empty(5)
    for r in range(50):
        p = Probabilities.of(rows[r])
        assert e[r] == pytest.approx(p.equity)
        assert equity_of(rows[r]) == pytest.approx(p.equity)
        assert tuple(f[r]) == pytest.approx(p.flipped().as_tuple())
        flip_into(rows[r], out)
        assert tuple(out) == pytest.approx(p.flipped().as_tuple())


@pytest.mark.parametrize("bad", [(0.5, 0.1), ("a", 0, 0, 0, 0), (float("nan"), 0, 0, 0, 0)])
def test_bad_probabilities_are_refused(bad: tuple[object, ...]) -> None:
    with pytest.raises(GammonError):
        Probabilities.of(bad)  # type: ignore[arg-type]


def test_evaluators_satisfy_the_protocols_and_engines_own_their_nets() -> None:
    from gammon.ai.engine import Engine

    a, b = Engine("expert"), Engine("expert")
    assert a.network is not b.network
    assert a.static_evaluator.bearoff is not b.static_evaluator.bearoff
    for ev in (a.static_evaluator, a.evaluator, NetEvaluator(a.network)):
        assert isinstance(ev, Evaluator)
    assert isinstance(a.static_evaluator, CompiledEvaluator)
    assert isinstance(a.static_evaluator, ClassifyingEvaluator)
