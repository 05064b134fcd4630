"""A built game never takes the cube past its limit (a bug found by mutation testing, issue 16).

In play a double is refused when it would pass the cube limit, and a beaver
when the beaverer's redouble would ("cannot beaver: the cube would pass its
limit"), so the cube never exceeds ``Rules.cube_limit``.  A game built with a
double or a beaver pending must keep that rule: once the pending double is
taken the cube is still within the limit, so ``repr`` of the game after the
take builds it again.  Before the fix ``Game(Rules(cube_limit=8),
phase=Phase.DOUBLED, cube_value=8)`` was built and its take made the cube 16,
and an XGID beaver at the largest cube was built with a limit that its take
passed.
"""

from __future__ import annotations

import pytest

from gammon import GammonError, Position, ResultKind
from gammon.core.game import Game, Phase
from gammon.core.rules import Rules

ENV = {"Game": Game, "Rules": Rules, "Position": Position, "Phase": Phase, "ResultKind": ResultKind}
START = "-b----E-C---eE---c-e----B-"


def same_state(a: Game, b: Game) -> bool:
    """The same state but the history (the record, and ``beavered``, which stays True after a
    beaver is taken while a built game starts it from the phase)."""
    history = ("record", "plays", "beavered")
    return {k: v for k, v in a.snapshot().items() if k not in history} == {
        k: v for k, v in b.snapshot().items() if k not in history}


@pytest.mark.parametrize(
    ("rules", "kwargs"),
    [
        (Rules(cube_limit=8), {"phase": Phase.DOUBLED, "cube_value": 8}),
        (Rules(cube_limit=8), {"phase": Phase.DOUBLED, "cube_value": 8, "cube_owner": 0}),
        # After a beaver the cube is the beaverer's (twice the cube doubled); its redouble is pending.
        (Rules(beavers=True, cube_limit=8), {"phase": Phase.BEAVERED, "cube_value": 8, "cube_owner": 1}),
    ],
)
def test_a_pending_double_that_would_pass_the_cube_limit_is_refused(rules: Rules,
                                                                     kwargs: dict[str, object]) -> None:
    with pytest.raises(GammonError, match=r"^impossible game state: the pending double would take the cube "
                                          r"past its limit \(8\)$"):
        Game(rules, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rules", "kwargs"),
    [
        (Rules(cube_limit=8), {"phase": Phase.DOUBLED, "cube_value": 4, "cube_owner": 0}),
        (Rules(beavers=True, cube_limit=8), {"phase": Phase.BEAVERED, "cube_value": 4, "cube_owner": 1}),
    ],
)
def test_a_pending_double_up_to_the_limit_is_taken_at_the_limit(rules: Rules,
                                                                  kwargs: dict[str, object]) -> None:
    game = Game(rules, **kwargs)  # type: ignore[arg-type]
    game.take()
    assert game.cube_value == 8 == rules.cube_limit
    assert same_state(eval(repr(game), dict(ENV)), game)  # noqa: S307  # repr builds the game again


@pytest.mark.parametrize(
    ("dice_field", "cube_field", "max_field", "taken"),
    [
        ("D", 2, 2, 8),  # doubled at the largest cube 4: the take makes 8
        ("B", 2, 2, 16),  # beavered at 4: the beaverer took at 8 and redoubled to 16
        ("B", 1, 2, 8),  # beavered at 2 under a largest cube of 4
        ("D", 1, 2, 4),  # within the largest cube: the limit stays 4
    ],
)
def test_an_xgid_double_or_beaver_pending_is_taken_within_the_game_cube_limit(
        dice_field: str, cube_field: int, max_field: int, taken: int) -> None:
    text = f"XGID={START}:{cube_field}:0:1:{dice_field}:0:0:2:0:{max_field}"
    game = Game.from_xgid(text)
    game.take()
    assert game.cube_value == taken
    assert game.rules.cube_limit == max(taken, 1 << max_field)
    assert same_state(eval(repr(game), dict(ENV)), game)  # noqa: S307  # repr builds the game again
