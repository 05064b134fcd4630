"""The Crawford rule for either player, and the Jacoby rule on a centred cube.

From the rules, not from the code:

* Crawford: "the first game after a player reaches one point from winning the match is
  played without the cube; later games (post-Crawford) use it again".  *A player*: player 0
  or player 1, whoever gets there first, by a single, a gammon or a backgammon, in the first
  game or a later one; only one Crawford game per match.
* Jacoby (money play only): "gammons and backgammons count single while the cube is
  centred".  Centred is about who owns the cube, not its value: an automatic double on an
  opening tie raises a centred cube to 2 (gammons still single), and a double that is taken
  gives the taker a cube of 2 (gammons count double again).
"""

from __future__ import annotations

import pytest

from gammon import IllegalActionError, ResultKind
from gammon.core.game import (
    CENTERED,
    AcceptResignation,
    Double,
    Drop,
    Game,
    Move,
    Phase,
    Resign,
    Roll,
    Rules,
    Take,
)
from gammon.core.match import Match

# -- helpers -----------------------------------------------------------------------------------


def opening(starter: int) -> tuple[int, int]:
    """Opening dice (player 0's die first) that make ``starter`` begin."""
    return (3, 1) if starter == 0 else (1, 3)


def play_first(g: Game, m: Match | Game) -> None:
    m.apply(Move(g.turn, g.legal_plays()[0]))


def end_game(match: Match, winner: int, kind: ResultKind = ResultKind.SINGLE,
             starter: int | None = None) -> None:
    """End the current game: the loser resigns ``kind`` and the winner accepts."""
    g = match.game
    if g.is_over:
        g = match.next_game()
    match.apply(Roll(0, opening(1 - winner if starter is None else starter)))
    if g.turn != 1 - winner:  # the winner started: let him play, then the loser is on roll
        play_first(g, match)
    match.apply(Resign(1 - winner, kind))
    match.apply(AcceptResignation(winner))


def assert_no_cube_for_either_player(match: Match) -> None:
    """Through a few turns of the current (fresh) game, neither player may double."""
    g = match.game if not match.game.is_over else match.next_game()
    assert g.phase is Phase.OPENING
    match.apply(Roll(0, (3, 1)))
    for _ in range(4):
        play_first(g, match)
        assert g.phase is Phase.ROLL
        assert not g.can_double(g.turn)
        with pytest.raises(IllegalActionError, match="Crawford"):
            match.apply(Double(g.turn))
        match.apply(Roll(g.turn, (2, 1)))


def assert_cube_in_play(match: Match, doubler: int) -> None:
    g = match.game if not match.game.is_over else match.next_game()
    assert g.phase is Phase.OPENING
    match.apply(Roll(0, opening(1 - doubler)))
    play_first(g, match)
    assert g.turn == doubler and g.can_double(doubler)
    match.apply(Double(doubler))
    assert g.phase is Phase.DOUBLED


# -- Crawford ------------------------------------------------------------------------------------


@pytest.mark.parametrize("leader", [0, 1])
def test_the_player_who_first_reaches_one_away_gets_a_crawford_game(leader: int) -> None:
    match = Match(Rules(match_length=5))
    end_game(match, leader, ResultKind.GAMMON)  # 2 points: 3-away
    assert not match.is_crawford_next()
    end_game(match, 1 - leader)
    end_game(match, leader, ResultKind.GAMMON)  # 4 points: 1-away
    expected = [0, 0]
    expected[leader], expected[1 - leader] = 4, 1
    assert match.score == expected
    assert match.is_crawford_next()
    crawford = match.next_game()
    assert crawford.crawford_game and not match.is_post_crawford
    assert_no_cube_for_either_player(match)
    # the trailer wins the Crawford game: post-Crawford, the cube is back (the trailer doubles)
    g = match.game
    if g.turn != leader:  # the trailer plays his roll, then the leader is on roll
        play_first(g, match)
    match.apply(Resign(leader, ResultKind.SINGLE))
    match.apply(AcceptResignation(1 - leader))
    assert match.score[1 - leader] == 2 and match.score[leader] == 4
    assert not match.is_crawford_next()
    post = match.next_game()
    assert not post.crawford_game and match.is_post_crawford
    assert_cube_in_play(match, 1 - leader)


@pytest.mark.parametrize("leader", [0, 1])
@pytest.mark.parametrize("kind", [ResultKind.SINGLE, ResultKind.GAMMON, ResultKind.BACKGAMMON])
def test_reaching_one_away_in_the_first_game_by_any_kind_of_win(leader: int, kind: ResultKind) -> None:
    length = int(kind) + 1
    match = Match(Rules(match_length=length))
    end_game(match, leader, kind)
    assert match.score[leader] == length - 1 and match.score[1 - leader] == 0
    assert match.is_crawford_next()
    assert match.next_game().crawford_game
    assert_no_cube_for_either_player(match)


@pytest.mark.parametrize("leader", [0, 1])
@pytest.mark.parametrize("starter", [0, 1])
def test_the_crawford_game_does_not_depend_on_who_starts_it(leader: int, starter: int) -> None:
    match = Match(Rules(match_length=3))
    end_game(match, leader, ResultKind.GAMMON, starter=starter)
    g = match.next_game()
    assert g.crawford_game
    match.apply(Roll(0, opening(starter)))
    play_first(g, match)
    assert not g.can_double(g.turn)


@pytest.mark.parametrize("leader", [0, 1])
def test_only_one_crawford_game_when_the_trailer_also_reaches_one_away(leader: int) -> None:
    match = Match(Rules(match_length=3))
    end_game(match, leader, ResultKind.GAMMON)  # leader 1-away
    end_game(match, 1 - leader)  # the Crawford game
    assert match.games[-1].crawford_game
    end_game(match, 1 - leader)  # both 1-away now
    assert not match.games[-1].crawford_game and not match.is_crawford_next()
    assert [g.crawford_game for g in match.games] == [False, True, False]


@pytest.mark.parametrize("leader", [0, 1])
def test_a_trailer_who_is_not_one_away_gives_no_crawford_game(leader: int) -> None:
    match = Match(Rules(match_length=7))
    end_game(match, leader, ResultKind.GAMMON)  # 5-away
    end_game(match, leader, ResultKind.GAMMON)  # 3-away
    assert not match.is_crawford_next()
    assert not match.next_game().crawford_game
    assert_cube_in_play(match, 1 - leader)


@pytest.mark.parametrize("leader", [0, 1])
def test_no_crawford_game_when_the_rule_is_off(leader: int) -> None:
    match = Match(Rules(match_length=3, crawford=False))
    end_game(match, leader, ResultKind.GAMMON)
    assert not match.is_crawford_next()
    assert not match.next_game().crawford_game
    assert_cube_in_play(match, 1 - leader)


@pytest.mark.parametrize("leader", [0, 1])
def test_the_crawford_flag_replays_from_the_record(leader: int) -> None:
    match = Match(Rules(match_length=3))
    end_game(match, leader, ResultKind.GAMMON)
    end_game(match, 1 - leader)
    end_game(match, 1 - leader)
    again = Match.replay(match.rules, match.record)
    assert [g.crawford_game for g in again.games] == [False, True, False]
    assert again.score == match.score


# -- Jacoby: centred, whatever the value ----------------------------------------------------------


def money_game(rules: Rules, ties: int = 0) -> Game:
    """A money game after ``ties`` equal opening throws (automatic doubles) and an opening 3-1."""
    g = Game(rules)
    for _ in range(ties):
        g.apply(Roll(0, (4, 4)))
    g.apply(Roll(0, (3, 1)))
    return g


def resign_gammon(g: Game, kind: ResultKind = ResultKind.GAMMON) -> int:
    """The player on roll resigns ``kind``; the points the other wins."""
    loser = g.turn
    g.apply(Resign(loser, kind))
    g.apply(AcceptResignation(1 - loser))
    assert g.result is not None and g.result.winner == 1 - loser
    return g.result.points


@pytest.mark.parametrize("kind", [ResultKind.GAMMON, ResultKind.BACKGAMMON])
def test_jacoby_counts_single_on_a_centred_cube_raised_by_an_automatic_double(kind: ResultKind) -> None:
    g = money_game(Rules(jacoby=True, automatic_doubles=1), ties=1)
    assert (g.cube_value, g.cube_owner) == (2, CENTERED)
    assert resign_gammon(g, kind) == 2  # single at cube 2


def test_without_jacoby_the_same_auto_doubled_gammon_counts_double() -> None:
    g = money_game(Rules(automatic_doubles=1), ties=1)
    assert (g.cube_value, g.cube_owner) == (2, CENTERED)
    assert resign_gammon(g) == 4


def test_jacoby_with_two_automatic_doubles() -> None:
    g = money_game(Rules(jacoby=True, automatic_doubles=2), ties=2)
    assert (g.cube_value, g.cube_owner) == (4, CENTERED)
    assert resign_gammon(g) == 4
    assert g.result is not None and g.result.kind is ResultKind.GAMMON


@pytest.mark.parametrize(("kind", "points"), [(ResultKind.GAMMON, 4), (ResultKind.BACKGAMMON, 6)])
def test_jacoby_counts_gammons_once_the_cube_is_owned(kind: ResultKind, points: int) -> None:
    g = money_game(Rules(jacoby=True))
    g.apply(Move(0, g.legal_plays()[0]))
    g.apply(Double(1))
    g.apply(Take(0))
    assert (g.cube_value, g.cube_owner) == (2, 0)
    # player 1 on roll resigns: player 0, who owns the cube, wins it all
    assert resign_gammon(g, kind) == points


def test_jacoby_counts_gammons_for_the_player_who_does_not_own_the_cube() -> None:
    g = money_game(Rules(jacoby=True))
    g.apply(Move(0, g.legal_plays()[0]))
    g.apply(Double(1))
    g.apply(Take(0))
    g.apply(Roll(1, (2, 1)))
    g.apply(Move(1, g.legal_plays()[0]))
    assert g.turn == 0 and g.cube_owner == 0
    assert resign_gammon(g) == 4  # player 1 wins a gammon against the cube owner: 2 x 2


def test_jacoby_on_a_centred_cube_of_one() -> None:
    g = money_game(Rules(jacoby=True))
    assert (g.cube_value, g.cube_owner) == (1, CENTERED)
    assert resign_gammon(g) == 1


def test_jacoby_does_not_apply_in_match_play() -> None:
    match = Match(Rules(match_length=7, jacoby=True))
    match.apply(Roll(0, (3, 1)))
    match.apply(Resign(0, ResultKind.GAMMON))
    match.apply(AcceptResignation(1))
    assert match.score == [0, 2]


def test_a_drop_is_a_single_game_at_the_cube_before_the_double() -> None:
    g = money_game(Rules(jacoby=True, automatic_doubles=1), ties=1)
    g.apply(Move(0, g.legal_plays()[0]))
    g.apply(Double(1))
    g.apply(Drop(0))
    assert g.result is not None and (g.result.winner, g.result.points) == (1, 2)
