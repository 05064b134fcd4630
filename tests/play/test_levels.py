"""One registry of computer levels (:mod:`gammon.play.levels`), built on the engine's.

The engine's levels (:data:`gammon.ai.search.LEVELS`: depth, noise,
description) used to be listed again, with other words, in
``gammon.play.levels`` and a third time in the browser page.
"""

from __future__ import annotations

import pytest

from gammon.ai import search
from gammon.core.errors import GammonError
from gammon.play.levels import COMPUTER_LEVELS, LEVELS, computer_level, find_level


def test_the_levels_are_the_engines_plus_the_heuristic_bot() -> None:
    assert LEVELS == (*search.LEVELS, "heuristic")
    for name, level in COMPUTER_LEVELS.items():
        assert level.name == name and level.title and level.description
        if name != "heuristic":
            assert level.engine is search.LEVELS[name]
            assert level.description == search.LEVELS[name].description
    assert COMPUTER_LEVELS["heuristic"].engine is None


@pytest.mark.parametrize(("given", "name", "plies"), [
    ("Strong", "strongest", 2), ("world class", "world-class", 2), ("EXPERT", "expert", 0),
    ("beginner", "beginner", 0), ("heuristic", "heuristic", 0),
])
def test_a_level_is_found_by_its_name_in_any_spelling(given: str, name: str, plies: int) -> None:
    assert find_level(given) == name
    assert computer_level(given).name == name and computer_level(given).plies == plies


def test_an_unknown_level_lists_the_known_ones() -> None:
    with pytest.raises(GammonError, match="choose one of beginner, casual.*heuristic"):
        computer_level("grandmaster")
