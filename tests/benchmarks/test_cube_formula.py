"""benchmarks/cube_formula.py: the whole-function mix it measures is Janowski's model, and it leaves
the engine's cube code as it found it."""

from __future__ import annotations

import pytest
from tests.benchmark_modules import load_benchmark

from gammon.ai import cube as cube_module
from gammon.ai.cube import CubeInfo, cube_decision
from gammon.ai.cube_model import CubeModel

cube_formula = load_benchmark("cube_formula")

N, EPS = 20000, 1e-5


def _linear(a: int, b: int) -> float:
    """A very long match whose equities are linear in points: money play in the limit."""
    return 1.0 if a <= 0 else 0.0 if b <= 0 else 0.5 + (b - a) * EPS


def _emg(m: CubeModel, value: float) -> float:
    c0, c1 = m.cash0(1), m.cash1(1)
    return 2 * (value - c1) / (c0 - c1) - 1


@pytest.mark.parametrize("x", [0.5, 0.68, 0.9])
@pytest.mark.parametrize("p", [0.55, 0.65, 0.75])
def test_whole_function_mix_is_janowskis_owned_cube_formula(x: float, p: float) -> None:
    # Janowski (1993), no gammons (W = L = 1): the cube owner's equity p(W + L + x/2) - L, the
    # opponent's cube x/2 less; the cash point of a live cube (L + 1) / (W + L + 1/2).
    m = cube_formula.WholeFunctionMix(_linear, N, N, (1.0, 0.0, 0.0), (1.0, 0.0, 0.0), x, 4096)
    own = p * (2 + x / 2) - 1
    assert _emg(m, m.own0(1, p)) == pytest.approx(min(own, 1.0), abs=2e-4)
    assert _emg(m, m.own1(1, p)) == pytest.approx(own - x / 2, abs=2e-4)
    assert m.cash_point0(1) == pytest.approx(2 / 2.5, abs=2e-4)


def test_our_model_mixes_its_doubling_points_and_departs_from_janowski() -> None:
    # Our model solves each level's points on the mixed values: a live cube's cash point moves
    # (to 0.789 at x = 0.68) and the owner's equity with it, the difference the script measures.
    m = CubeModel(_linear, N, N, (1.0, 0.0, 0.0), (1.0, 0.0, 0.0), 0.68, 4096)
    own = 0.7 * (2 + 0.34) - 1
    assert abs(_emg(m, m.own0(1, 0.7)) - own) > 0.01
    assert m.cash_point0(1) < 0.8 - 0.005


def test_model_switch_is_undone() -> None:
    info = CubeInfo(match_length=7, score=(2, 4))
    probs = (0.68, 0.2, 0.01, 0.08, 0.002)
    before = cube_decision(probs, info, 0.68)
    with cube_formula.model("whole"):
        assert cube_module.CubeModel is cube_formula.WholeFunctionMix
        inside = cube_decision(probs, info, 0.68)
    assert cube_module.CubeModel is CubeModel
    assert inside.no_double != before.no_double
    assert cube_decision(probs, info, 0.68) == before


def test_a_missing_file_is_a_clear_error(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert cube_formula.main(["--zero-ply", str(tmp_path / "none.json.gz")]) == 2
    assert "no such file" in capsys.readouterr().err
