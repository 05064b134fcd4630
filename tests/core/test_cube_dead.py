"""The dead-cube rule, once in core, and the three places that ask it.

"In match play the cube is dead for a player who wins the match by winning
this game as a single game at the present cube."  The rule is checked here
against core's own scoring (a single game at the cube plus the score reaches
the match length), and the engine, the heuristic bot and the terminal are
checked to follow it at every score of short matches.
"""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from gammon.ai.cube import CubeInfo, refusal
from gammon.cli.terminal.loop import TerminalGame
from gammon.cli.terminal.settings import PlaySettings
from gammon.core.cube import CubeAction, cube_is_dead
from gammon.core.game import Game, Phase, Rules
from gammon.core.match import Match
from gammon.core.position import ResultKind
from gammon.play.players import HeuristicPlayer

CUBES = [1 << i for i in range(7)]


@given(st.integers(1, 64), st.data(), st.sampled_from(CUBES))
def test_dead_exactly_when_a_single_game_wins_the_match(length: int, data: st.DataObject, cube: int) -> None:
    score = data.draw(st.integers(0, length - 1))
    single = Rules(match_length=length).points_for(ResultKind.SINGLE, cube)
    assert cube_is_dead(length, score, cube) == (score + single >= length)
    # Once dead, a bigger cube stays dead; a gammon never matters to the rule.
    if cube_is_dead(length, score, cube):
        assert cube_is_dead(length, score, cube * 2)


@given(st.integers(0, 10_000), st.sampled_from(CUBES))
def test_money_play_has_no_dead_cube(score: int, cube: int) -> None:
    assert not cube_is_dead(0, score, cube)


def test_edges() -> None:
    assert cube_is_dead(1, 0, 1)  # a 1-point match: any win wins it
    assert not cube_is_dead(2, 0, 1) and cube_is_dead(2, 0, 2)
    assert cube_is_dead(5, 3, 2) and not cube_is_dead(5, 2, 2)  # 2-away at a 2-cube, 3-away at a 2-cube


def _terminal(length: int, score: tuple[int, int], cube: int) -> TerminalGame:
    """A terminal match standing before player 0's roll at ``score`` with the cube at ``cube`` (player 0's)."""
    rules = Rules(match_length=length)
    owner = -1 if cube == 1 else 0
    game = Game(rules, score=score, turn=0, phase=Phase.ROLL, cube_value=cube, cube_owner=owner)
    match = Match(rules, score=score, post_crawford=length - 1 in score, game=game)
    return TerminalGame(PlaySettings(seed=1, level="heuristic", match_length=length),
                        console=Console(file=io.StringIO()), match=match)


def test_every_caller_follows_the_rule() -> None:
    """At every score of 3- to 5-point matches and every cube up to the match length: the engine
    refuses to double a dead cube (saying why), the bot does not double it, and the terminal
    does not offer the cube for it; a live cube is offered."""
    checked = 0
    for length in range(3, 6):
        for mine in range(length):
            for theirs in range(length):
                for cube in (c for c in CUBES if c <= 2 * length):
                    term = _terminal(length, (mine, theirs), cube)
                    game = term.game
                    dead = cube_is_dead(length, mine, cube)
                    why = refusal(CubeInfo.from_game(game))
                    assert (why is not None and "dead" in why) == dead
                    if dead:
                        assert HeuristicPlayer(0).cube_action(game) is CubeAction.NO_DOUBLE
                    assert term.cube_is_useful(0) == (not dead)
                    checked += 1
    assert checked > 150
