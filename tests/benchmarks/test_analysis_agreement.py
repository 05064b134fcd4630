"""``benchmarks/analysis_agreement.py`` reads GNU Backgammon's analysis right and computes its figures
by their definitions (issue 35): cube errors from the text export's alerts, each decision keyed by
game, moves before it and kind; PR from the statistics; marks by GNU Backgammon's thresholds."""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import ModuleType

import pytest

from benchmark_modules import load_benchmark

# The shape of GNU Backgammon 1.07's text export (boards and candidate lists left out).
GAME_1 = """\
Move number 1:  Ann to play 31

* Ann moves 8/5 6/5

Move number 2:  Bob to play 64

* Bob moves 24/14

Cube analysis
Cubeful equities:
1. No double           +0.140
Proper cube action: No double, take (23.1%)

Move number 3:  Ann to play 52

* Ann moves 13/8 13/11
Alert: missed double (-0.151)!
 [very bad]
Cube analysis

Move number 4:  Bob on roll, cube decision?

* Bob doubles

Alert: wrong double (-0.030)!

Cube analysis

Move number 5:  Bob doubles to 2

* Ann accepts

Alert: wrong take (-0.265)!

Cube analysis

Move number 6:  Bob to play 66
"""
GAME_2 = """\
Move number 1:  Bob on roll, cube decision?

* Bob doubles

Cube analysis

Move number 2:  Bob doubles to 2

* Ann rejects

Alert: wrong pass (-0.120)!
"""


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_benchmark("analysis_agreement", "gammon_bench_analysis_agreement")


def test_cube_errors_are_read_per_decision(bench: ModuleType, tmp_path: Path) -> None:
    (tmp_path / "07.analysis.txt").write_text(GAME_1)
    (tmp_path / "07.analysis_002.txt").write_text(GAME_2)
    got = bench.gnubg_cube(tmp_path / "07", 2)
    assert got[(1, 1, "cube")] == ("Bob", None, 0.0)            # analysed, no error
    assert got[(1, 2, "cube")] == ("Ann", "missed double", 0.151)  # the alert of a move's cube decision
    assert got[(1, 3, "cube")] == ("Bob", "wrong double", 0.030)   # before the 4th move of the game
    assert got[(1, 3, "take")] == ("Ann", "wrong take", 0.265)     # the taker named by his action
    assert got[(2, 0, "cube")] == ("Bob", None, 0.0)
    assert got[(2, 0, "take")] == ("Ann", "wrong pass", 0.120)
    assert (1, 0, "cube") not in got  # no cube analysis: the cube was not available


def test_gammon_decisions_get_the_same_keys(bench: ModuleType) -> None:
    def d(kind: str) -> dict[str, object]:
        return {"kind": kind}

    aj = {"games": [{"game": 1, "decisions": [d("move"), d("cube"), d("move"), d("move"), d("cube"),
                                              d("take"), d("move")]}]}
    moves, cubes = bench.gammon_decisions(aj)
    assert sorted(moves) == [(1, 0), (1, 1), (1, 2), (1, 3)]
    assert sorted(cubes) == [(1, 1, "cube"), (1, 3, "cube"), (1, 3, "take")]


def test_marks_use_gnu_backgammons_thresholds(bench: ModuleType) -> None:
    cases = {0.0: "none", 0.0299: "none", 0.030: "doubtful", 0.0599: "doubtful", 0.060: "bad",
             0.1199: "bad", 0.120: "very bad", 1.5: "very bad"}
    for loss, name in cases.items():
        assert bench.mark_class(loss) == name, loss


def test_pr_is_500_times_the_error_per_unforced_or_close_decision(bench: ModuleType) -> None:
    side = {"moves": {"unforced-moves": 40, "error-skill": 0.3},
            # the cube's "error-skill" is not a total in gnubg.match(): the kinds' totals are added
            "cube": {"close-cube": 10, "error-skill": 0.99, "err-wrong-take-skill": 0.1,
                     "err-missed-double-below-cp-skill": 0.1, "err-wrong-take-cost": 5.0}}
    gj = {"match-info": {"X": {"name": "Ann"}, "O": {"name": "Bob"}},
          "stats": {"X": side, "O": {"moves": {"unforced-moves": 0, "error-skill": 0.0},
                                     "cube": {"close-cube": 0}}}}
    got = bench.gnubg_players(gj)
    assert math.isclose(got["Ann"]["pr"], 500 * 0.5 / 50)
    assert got["Bob"]["pr"] == 0.0


def test_spearman(bench: ModuleType) -> None:
    assert bench.spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert bench.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert bench.spearman([1, 2, 3], [1, 3, 2]) == pytest.approx(0.5)
    assert bench.spearman([1, 1, 2], [1, 2, 3]) == pytest.approx(math.sqrt(3) / 2)  # a tie: average ranks


def test_slimming_twice_keeps_the_number_of_candidates(tmp_path: Path) -> None:
    # A packed run is unpacked, given a variant's files and packed again: the second slim must not
    # turn "how many candidates there were" into the two it kept (unforced moves would vanish).
    mod = load_benchmark("analysis_agreement")
    moves = [{"score": -0.01 * i, "probs": [0.5] * 5} for i in range(7)]
    record = {"analysis": {"moves": moves, "imove": 3, "probs": [0.5] * 5}}
    path = tmp_path / "00.gnubg.json"
    path.write_text(json.dumps({"games": [{"game": [record]}]}))
    mod.slim(tmp_path)
    once = path.read_text()
    mod.slim(tmp_path)
    assert path.read_text() == once
    an = json.loads(once)["games"][0]["game"][0]["analysis"]
    assert an["candidates"] == 7 and an["imove"] == 1 and len(an["moves"]) == 2


def _gnubg_json(losses: list[float], dice: list[list[int]], error_skill: float) -> dict[str, object]:
    """A ``gnubg.match()`` of one game: Ann's moves with these losses (best first, the played one second)."""
    records = [{"action": "move", "player": "X", "dice": d,
                "analysis": {"moves": [{"score": 0.2}, {"score": 0.2 - loss}], "imove": 1}}
               for loss, d in zip(losses, dice, strict=True)]
    side = {"moves": {"unforced-moves": len(losses), "error-skill": error_skill},
            "cube": {"close-cube": 0}}
    return {"match-info": {"X": {"name": "Ann"}, "O": {"name": "Bob"}},
            "stats": {"X": side,
                      "O": {"moves": {"unforced-moves": 0, "error-skill": 0.0}, "cube": {"close-cube": 0}}},
            "games": [{"game": records}]}


def test_gnubg_at_another_depth_is_compared_in_gammons_place(bench: ModuleType, tmp_path: Path) -> None:
    # The reference (2-ply) and the other depth analyse one match: each move is put in GNU
    # Backgammon's mark classes by each analysis's own loss, each cube decision by its own alert.
    ref = _gnubg_json([0.05, 0.13, 0.0], [[3, 1], [6, 4], [5, 2]], 0.18)
    other = _gnubg_json([0.0, 0.07, 0.0], [[3, 1], [6, 4], [2, 2]], 0.07)
    (tmp_path / "07.analysis.txt").write_text(GAME_1)
    (tmp_path / "07.gnubg1.analysis.txt").write_text(GAME_1.replace("Alert: missed double (-0.151)!", ""))
    row = {"match": 7, "gnubg_self_play": None, "gnubg": ref, "other": other,
           "base": tmp_path / "07", "other_base": tmp_path / "07.gnubg1"}
    c = bench.compare([row])
    assert c["marks"] == {("none", "doubtful"): 1, ("bad", "very bad"): 1}
    assert c["dice_mismatch"] == 1  # the third move's dice differ: left out
    ann = next(p for p in c["players"] if p["name"] == "Ann")
    assert math.isclose(ann["ours"], 500 * 0.07 / 3) and math.isclose(ann["gnubg"], 500 * 0.18 / 3)
    # the missed double only the reference saw; the wrong double and wrong take both saw
    assert c["cube"][(None, "missed double", False, True)] == 1
    assert c["cube"][("wrong double", "wrong double", True, True)] == 1
    assert c["cube"][("wrong take", "wrong take", True, True)] == 1
