"""Issue 35, D3 (checker play): a checker error is explained by a concrete reason, not a bare "is weaker".

Written from the positions: where the large differences of ``play_reasons``
(three shots more, a point given up, ...) are absent, a smaller one that is
there is named (a shot more, a blot more, a pip wasted), and with nothing at
all to name the sentence says what the play gives up in equity.  On today's
main both cases read "<play> is weaker".
"""

from __future__ import annotations

from gammon.analysis.explain import explain_play, play_reasons, small_reasons
from gammon.core.position import Position

SAME = (0.50, 0.13, 0.005, 0.13, 0.005)


def test_a_few_more_shots_are_named() -> None:
    start = Position.initial()
    played = start.parse_play("24/22 8/7", (2, 1)).position
    best = start.parse_play("24/22 6/5", (2, 1)).position
    assert play_reasons(start, played, best) == []
    assert small_reasons(start, played, best) == ["leaves 17 shots instead of 15"]
    text = explain_play(start, played, best, SAME, SAME, "24/22 8/7", "24/22 6/5", 0.021)
    assert text == "24/22 8/7 leaves 17 shots instead of 15; 24/22 6/5 is better."


def test_with_nothing_to_name_the_equity_given_up_is_said() -> None:
    start = Position.initial()
    play = start.parse_play("24/22 6/5", (2, 1)).position
    text = explain_play(start, play, play, SAME, SAME, "24/22 6/5", "13/11 6/5", 0.0352)
    assert text == "24/22 6/5 gives up 0.035 in equity; 13/11 6/5 is better."
    assert "is weaker" not in text
