"""Mistakes explained in words: each reason checked on a position where it is known."""

from __future__ import annotations

import pytest

from boards import pos
from gammon.ai.cube import CubeInfo
from gammon.analysis.decisions import analyse_cube, analyse_take
from gammon.analysis.explain import explain_cube, explain_play, longest_prime, play_reasons, shots
from gammon.analysis.valuation import Valuer
from gammon.analysis.walk import CubeTask, TakeTask
from gammon.core.position import Position


@pytest.mark.parametrize("distance,expected", [(1, 11), (2, 12), (3, 14), (4, 15), (5, 15), (6, 17),
                                               (7, 6), (8, 6), (9, 5), (10, 3), (11, 2), (12, 3)])
def test_shots_at_every_distance_match_the_known_table(distance: int, expected: int) -> None:
    # A lone opponent checker on his 24-point (our 1-point), our blot `distance` pips in front of it,
    # nothing in between: the textbook shot counts.
    blot = 1 + distance
    p = pos(f"x: {blot}:1 22:2 23:2; o: 24:1")
    assert shots(p) == expected


def test_no_blot_no_shot() -> None:
    assert shots(pos("x: 6:2 8:2; o: 24:2")) == 0


def test_split_back_checkers_are_not_counted_as_shots() -> None:
    # Our blot on our 23-point (his 2-point) next to his checkers: hittable, but not a "shot".
    p = pos("x: 23:1 6:2; o: 6:3 4:2")
    assert shots(p) == 0 and shots(p, outside_only=False) > 0


def test_gives_up_a_point() -> None:
    before = pos("x: 24:2 13:5 8:3 6:3 5:2; o: 24:2 13:5 8:3 6:5")
    played = pos("x: 24:2 13:5 8:3 6:3 5:1 3:1; o: 24:2 13:5 8:3 6:5")
    best = pos("x: 24:2 13:4 11:1 8:3 6:3 5:2; o: 24:2 13:5 8:3 6:5")
    reasons = play_reasons(before, played, best)
    assert "gives up the 5-point" in reasons


def test_does_not_make_a_point_and_leaves_shots() -> None:
    # 3-1 at the start: 8/5 6/5 makes the 5-point; 24/21 24/23 splits.
    start = Position.initial()
    best = start.parse_play("8/5 6/5", (3, 1)).position
    played = start.parse_play("13/10 6/5", (3, 1)).position
    reasons = play_reasons(start, played, best)
    assert "does not make the 5-point" in reasons
    assert any(r.startswith("leaves ") and "shots instead of" in r for r in reasons)


def test_breaks_a_prime() -> None:
    before = pos("x: 9:2 8:2 7:2 6:3 5:2 4:2 13:2; o: 24:1 23:1 2:13")
    assert longest_prime(before) == (6, 9)
    played = pos("x: 9:1 8:2 7:2 6:3 5:2 4:2 13:2 3:1; o: 24:1 23:1 2:13")  # 9/3: breaks the 9-point
    best = pos("x: 9:2 8:2 7:2 6:3 5:2 4:2 13:1 3:1; o: 24:1 23:1 2:13")
    assert "breaks a 6-point prime" in play_reasons(before, played, best)


def test_race_bear_off_and_wasted_pips() -> None:
    before = pos("x: 6:2 5:2 2:2; o: 6:5 5:5")
    # 6-4: 6/off 2/off bears off two; 6/off 6/2 only one.
    best = pos("x: 6:1 5:2 2:1; o: 6:5 5:5")
    played = pos("x: 5:2 2:3; o: 6:5 5:5")
    assert "bears off 1 checker instead of 2" in play_reasons(before, played, best)
    # Same checkers off, two more pips left on the board: two pips wasted.
    race = pos("x: 6:1 5:2 2:1; o: 6:5 5:5")
    assert "wastes 2 pips" in play_reasons(race, pos("x: 5:2 1:1; o: 6:5 5:5"), pos("x: 4:2 1:1; o: 6:5 5:5"))


def test_sentence_names_both_plays_and_the_chances() -> None:
    start = Position.initial()
    best = start.parse_play("8/5 6/5", (3, 1)).position
    played = start.parse_play("13/10 6/5", (3, 1)).position
    text = explain_play(start, played, best, (0.48, 0.12, 0.0, 0.14, 0.0), (0.53, 0.15, 0.0, 0.12, 0.0),
                        "13/10 6/5", "8/5 6/5")
    assert text.startswith("13/10 6/5 ") and text.endswith("8/5 6/5 is better.")
    assert "wins 48% instead of 53%" in text and "gammon chances 12% instead of 15%" in text


def test_cube_explanations_quote_the_take_point() -> None:
    valuer = Valuer(plies=0)
    early_pass = analyse_take(valuer, TakeTask(0, 1, 1, Position.initial(), CubeInfo(), answer="pass"))
    text = explain_cube(early_pass)
    assert text is not None and text.startswith("taking leaves you ") and text.endswith(": take")
    tp = early_pass.cube["take_point"]  # type: ignore[index]
    assert f"{100 * tp:.0f}%" in text
    early = analyse_cube(valuer, CubeTask(0, 1, 0, Position.initial(), CubeInfo(), doubled=True))
    assert "too early" in (explain_cube(early) or "")
