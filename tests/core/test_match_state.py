"""A match built at any state, and what it says about itself: from the rules of :class:`Match`.

The rules quoted (``gammon.core.match``):

- "``games_limit`` ends a money session after that many games (None: no limit)"; a limit
  is "a positive number".
- "To build a match in the middle, give ``score`` (players 0 and 1), ``crawford_game``
  (whether the current game is the Crawford game; None works it out from the score),
  ``post_crawford`` (the Crawford game has been played) and ``game`` (the current game,
  at any state).  :raises GammonError: a score or game that does not fit the match."
- "The first game after a player reaches one point from winning is played without the
  cube; later games (post-Crawford) use it again."  In a 1-point match nobody *reaches*
  one point from winning: there is no Crawford game.
- ``phase``: "``game`` while a game runs, ``between-games`` when the next waits, ``over``".
- ``is_over``: "a player has reached the match length (or the session's game limit), or has
  lost the match on time"; the winner is the player ahead, nobody in a drawn session.
- ``snapshot``: "every piece of the match's state, comparable".
- ``replay``: "rebuild a match from its record: ``actions`` (with ``NewGame``) or one list
  per game".
"""

from __future__ import annotations

import re

import pytest

from gammon import GammonError, IllegalActionError, ResultKind
from gammon.core.actions import Event, NewGame
from gammon.core.dice import ScriptedDice
from gammon.core.errors import InvalidIdError, Reason
from gammon.core.game import AcceptResignation, Game, Phase, Resign, Roll, Rules, Timeout
from gammon.core.match import Match
from gammon.core.match_id import MatchId, encode_match_id
from gammon.core.position import Position


def win_game(match: Match, winner: int, kind: ResultKind = ResultKind.SINGLE) -> None:
    """``winner`` wins the current game at the cube of 1: the other player resigns ``kind``."""
    if match.game.is_over:
        match.apply(NewGame())
    match.apply(Roll(0, (3, 1) if winner == 1 else (1, 3)))
    match.apply(Resign(1 - winner, kind))
    match.apply(AcceptResignation(winner))


# -- the game limit and the score, checked ----------------------------------------------------


@pytest.mark.parametrize("limit", [0, -1, True, False, "2", 1.0])
def test_a_game_limit_is_a_positive_whole_number(limit: object) -> None:
    text = f"a session's game limit is a positive number, not {limit!r}"
    with pytest.raises(GammonError, match=f"^{re.escape(text)}$"):
        Match(Rules(), games_limit=limit)  # type: ignore[arg-type]


def test_a_game_limit_of_one_is_one_game() -> None:
    match = Match(Rules(), games_limit=1)
    assert not match.is_over
    win_game(match, 1)
    assert match.is_over and match.winner == 1 and match.phase == "over"


@pytest.mark.parametrize("score", [(1, 2, 3), (1,), (-1, 0), (0, -2), (True, 0), (0, False), (1.0, 0)])
def test_a_score_is_two_whole_numbers_from_zero(score: tuple[object, ...]) -> None:
    text = f"the score is two whole numbers from 0 up, not {score!r}"
    with pytest.raises(GammonError, match=f"^{re.escape(text)}$"):
        Match(Rules(match_length=5), score=score)  # type: ignore[arg-type]


@pytest.mark.parametrize("score", [(5, 1), (1, 5), (7, 0)])
def test_a_score_that_has_reached_the_length_is_refused(score: tuple[int, int]) -> None:
    text = f"score {score[0]}-{score[1]} has already reached the match length 5"
    with pytest.raises(GammonError, match=f"^{text}$"):
        Match(Rules(match_length=5), score=score)


def test_a_score_one_short_of_the_length_is_a_match_still_on() -> None:
    match = Match(Rules(match_length=5), score=(3, 4), post_crawford=True)
    assert not match.is_over and match.winner is None and match.phase == "game"
    assert match.score == [3, 4] and match.game.score == (3, 4)


def test_a_money_session_has_no_length_to_reach() -> None:
    match = Match(Rules(), score=(40, 3))
    assert not match.is_over and match.score == [40, 3]


# -- the Crawford game from the score ---------------------------------------------------------


@pytest.mark.parametrize("score", [(4, 2), (2, 4), (4, 0), (0, 4)])
def test_the_game_after_either_player_reaches_one_away_is_the_crawford_game(score: tuple[int, int]) -> None:
    match = Match(Rules(match_length=5), score=score)
    assert match.game.crawford_game and match.crawford_played
    assert not match.is_post_crawford


@pytest.mark.parametrize("score", [(3, 2), (0, 0), (3, 3)])
def test_no_crawford_game_before_anyone_is_one_away(score: tuple[int, int]) -> None:
    match = Match(Rules(match_length=5), score=score)
    assert not match.game.crawford_game and not match.crawford_played


def test_after_the_crawford_game_the_cube_is_back() -> None:
    match = Match(Rules(match_length=5), score=(4, 2), post_crawford=True)
    assert not match.game.crawford_game
    assert match.crawford_played and match.is_post_crawford


def test_without_the_crawford_rule_there_is_no_crawford_game() -> None:
    match = Match(Rules(match_length=5, crawford=False), score=(4, 2))
    assert not match.game.crawford_game and not match.crawford_played
    with pytest.raises(GammonError, match="one point from winning"):
        Match(Rules(match_length=5, crawford=False), score=(4, 2), crawford_game=True)


def test_a_one_point_match_has_no_crawford_game() -> None:
    match = Match(Rules(match_length=1))
    assert not match.game.crawford_game and not match.crawford_played


def test_a_two_point_match_has_one_after_the_first_point() -> None:
    match = Match(Rules(match_length=2), score=(1, 0))
    assert match.game.crawford_game


def test_the_crawford_game_is_the_game_after_one_away_only() -> None:
    text = "the Crawford game is the game after a player reaches one point from winning"
    with pytest.raises(GammonError, match=f"^{text}$"):
        Match(Rules(match_length=5), score=(3, 2), crawford_game=True)
    with pytest.raises(GammonError, match=f"^{text}$"):
        Match(Rules(), score=(3, 2), crawford_game=True)  # money: no Crawford game at all


def test_a_game_cannot_be_the_crawford_game_and_after_it() -> None:
    with pytest.raises(GammonError, match="^a game cannot be the Crawford game and after it$"):
        Match(Rules(match_length=5), score=(4, 2), crawford_game=True, post_crawford=True)


def test_the_score_says_crawford_but_the_caller_says_not() -> None:
    # crawford_game=False overrides the score: the game after one-away is then post-Crawford
    match = Match(Rules(match_length=5), score=(4, 2), crawford_game=False, post_crawford=True)
    assert not match.game.crawford_game and match.is_post_crawford


# -- a match around a game -------------------------------------------------------------------


def test_a_match_around_a_game_takes_the_game_as_its_current_one() -> None:
    rules = Rules(match_length=5)
    dice = ScriptedDice([(6, 1)])
    game = Game(rules, crawford_game=True, score=(4, 1))
    match = Match(rules, dice, score=(4, 1), game=game)
    assert match.game is game and match.games == [game]
    assert game.dice is dice  # a game without dice rolls the match's
    assert match.crawford_played and not match.is_post_crawford  # crawford_game from the game


def test_a_game_keeps_its_own_dice() -> None:
    rules = Rules(match_length=5)
    own = ScriptedDice([(6, 1)])
    game = Game(rules, own)
    match = Match(rules, ScriptedDice([(2, 1)]), game=game)
    assert match.game.dice is own


@pytest.mark.parametrize(
    ("game", "kwargs"),
    [
        (Game(Rules(match_length=7)), {}),  # other rules
        (Game(Rules(match_length=5), score=(1, 0)), {}),  # other score
        (Game(Rules(match_length=5), score=(4, 1)), {"score": (4, 1), "crawford_game": True}),  # Crawford flag
        (Game(Rules(match_length=5), crawford_game=True, score=(4, 1)),
         {"score": (4, 1), "crawford_game": False, "post_crawford": True}),
    ],
)
def test_a_game_that_does_not_fit_the_match_is_refused(game: Game, kwargs: dict[str, object]) -> None:
    with pytest.raises(GammonError, match="^the game's rules, score or Crawford flag differ from the match's$"):
        Match(Rules(match_length=5), game=game, **kwargs)  # type: ignore[arg-type]


# -- phase, the end, the winner ------------------------------------------------------------------


def test_phase_from_game_to_between_games_to_over() -> None:
    match = Match(Rules(match_length=2))
    assert match.phase == "game"
    win_game(match, 0)
    assert match.phase == "between-games" and not match.is_over and match.winner is None
    match.apply(NewGame())
    assert match.phase == "game" and match.game.crawford_game
    win_game(match, 1)
    assert match.phase == "between-games"
    win_game(match, 1)
    assert match.phase == "over" and match.is_over and match.winner == 1
    assert match.allowed_actions() == []


def test_a_money_session_without_a_limit_never_ends_by_itself() -> None:
    match = Match(Rules())
    for winner in (0, 1, 0):
        win_game(match, winner)
        assert not match.is_over and match.phase == "between-games"
    assert match.score == [2, 1]


def test_a_session_ends_when_its_last_game_is_over_not_when_it_starts() -> None:
    match = Match(Rules(), games_limit=2)
    win_game(match, 0)
    match.apply(NewGame())
    assert len(match.games) == 2 and not match.is_over  # the last game is running
    win_game(match, 0)
    assert match.is_over and match.winner == 0


def test_the_player_ahead_wins_a_session() -> None:
    match = Match(Rules(), games_limit=2)
    win_game(match, 1, ResultKind.GAMMON)
    win_game(match, 0)
    assert match.score == [1, 2] and match.winner == 1


@pytest.mark.parametrize(("length", "score", "loser"), [(5, (0, 0), 0), (5, (3, 4), 1), (0, (0, 0), 1)])
def test_running_out_of_time_loses_the_match(length: int, score: tuple[int, int], loser: int) -> None:
    match = Match(Rules(match_length=length), score=score, post_crawford=length > 0 and 4 in score)
    assert match.timed_out is None
    match.apply(Roll(0, (3, 1) if loser == 0 else (1, 3)))
    events = match.apply(Timeout(loser))
    assert match.timed_out == loser
    assert match.is_over and match.phase == "over" and match.winner == 1 - loser
    # the last event says who won the match, that it was on time, and the final score
    text = f"score {match.score[0]}-{match.score[1]}" + (f" in a {length}-point match" if length else "")
    assert events[-1] == Event("match-over", 1 - loser, f"player {1 - loser} wins the match on time {text}", {})


def test_a_session_lost_on_time_is_lost_whatever_the_score() -> None:
    match = Match(Rules(), games_limit=5)
    win_game(match, 1, ResultKind.BACKGAMMON)
    match.apply(NewGame())
    match.apply(Roll(0, (1, 3)))  # player 1, ahead 3-0, is on roll and runs out of time
    match.apply(Timeout(1))
    assert match.score[1] > match.score[0] and match.winner == 0


# -- the snapshot and the replay ----------------------------------------------------------------


def test_the_snapshot_tells_apart_every_piece_of_state() -> None:
    base = Match(Rules(match_length=5), score=(1, 2))
    assert base.snapshot() == Match(Rules(match_length=5), score=(1, 2)).snapshot()
    others = [
        Match(Rules(match_length=7), score=(1, 2)),  # the rules
        Match(Rules(match_length=5), score=(2, 1)),  # the score
        Match(Rules(match_length=5), score=(4, 2), post_crawford=True),  # the Crawford game played
    ]
    for other in others:
        assert other.snapshot() != base.snapshot()
    session = Match(Rules(), games_limit=3)
    assert session.snapshot() != Match(Rules(), games_limit=4).snapshot()  # the limit
    played = Match(Rules(match_length=5), score=(1, 2))
    played.apply(Roll(0, (3, 1)))  # the game (and the actions)
    assert played.snapshot() != base.snapshot()
    a, b = Match(Rules()), Match(Rules())
    win_game(a, 0)
    win_game(b, 0)
    b.apply(NewGame())  # the number of games and the actions (NewGame), the game at its start
    assert a.snapshot() != b.snapshot()


def test_a_flat_record_and_a_record_per_game_replay_the_same_match() -> None:
    rules = Rules(match_length=3)
    match = Match(rules)
    win_game(match, 1, ResultKind.GAMMON)
    win_game(match, 0)
    from_actions = Match.replay(rules, match.actions)
    from_games = Match.replay(rules, match.record)
    for again in (from_actions, from_games):
        assert again.score == match.score == [1, 2]
        assert len(again.games) == 2 and again.game.crawford_game
        assert again.actions == match.actions
        assert again.dice is None


# -- the events and the record of the games ---------------------------------------------------


def test_a_new_game_says_its_number_and_whether_it_is_the_crawford_game() -> None:
    match = Match(Rules(match_length=3))
    win_game(match, 0, ResultKind.GAMMON)  # 2-0: player 0 is one away
    events = match.apply(NewGame())
    assert events == [
        Event("new-game", None, "game 2 starts (the Crawford game)", {"game": 2, "crawford": True})]
    win_game(match, 1)
    events = match.apply(NewGame())
    assert events == [Event("new-game", None, "game 3 starts", {"game": 3, "crawford": False})]


def test_between_games_only_a_new_game_is_accepted() -> None:
    match = Match(Rules(match_length=3))
    win_game(match, 0)
    assert match.allowed_actions() == [NewGame()]
    with pytest.raises(IllegalActionError, match="^the game is over: start the next one with NewGame$") as info:
        match.apply(Roll(0, (3, 1)))
    assert info.value.reason is Reason.GAME_OVER


def test_the_actions_are_every_game_action_and_each_new_game_in_order() -> None:
    match = Match(Rules(match_length=3))
    win_game(match, 1)
    win_game(match, 0)
    first, second = match.record
    assert match.actions == [*first, NewGame(), *second]
    assert [type(a) for a in first] == [Roll, Resign, AcceptResignation]
    assert first[0] == Roll(0, (3, 1))  # as win_game rolled it for a win of player 1


# -- a match from GNU Backgammon's IDs and from an XGID --------------------------------------------
# "A game that is not the Crawford game with a player one point from winning is post-Crawford."

START_ID = "4HPwATDgc/ABMA"


@pytest.mark.parametrize(
    ("score", "crawford", "post"),
    [((4, 2), True, False), ((4, 2), False, True), ((2, 4), False, True), ((3, 2), False, False)],
)
def test_a_match_from_ids_knows_the_crawford_game_and_after(
        score: tuple[int, int], crawford: bool, post: bool) -> None:
    match = Match.from_ids(START_ID, encode_match_id(MatchId(match_length=5, score=score, crawford=crawford)))
    assert match.score == list(score)
    assert match.game.crawford_game == crawford
    assert match.is_post_crawford == post and match.crawford_played == (crawford or post)


def test_a_one_point_match_from_ids_is_never_post_crawford() -> None:
    match = Match.from_ids(START_ID, encode_match_id(MatchId(match_length=1)))
    assert not match.is_post_crawford and not match.crawford_played


def test_a_two_point_match_from_ids_after_one_point_without_crawford_is_post_crawford() -> None:
    match = Match.from_ids(START_ID, encode_match_id(MatchId(match_length=2, score=(0, 1))))
    assert match.is_post_crawford


def test_ids_and_an_xgid_pass_the_dice_and_the_game_limit_on() -> None:
    dice = ScriptedDice([(1, 2)])
    match = Match.from_ids(START_ID, encode_match_id(MatchId()), dice=dice, games_limit=3)
    assert match.games_limit == 3 and match.dice is dice and match.game.dice is dice
    match = Match.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", dice=dice, games_limit=2)
    assert match.games_limit == 2 and match.dice is dice and match.game.dice is dice


def test_an_impossible_match_from_ids_is_a_bad_id() -> None:
    text = "the IDs name an impossible match: a session's game limit is a positive number, not 0"
    with pytest.raises(InvalidIdError, match=f"^{text}$"):
        Match.from_ids(START_ID, encode_match_id(MatchId()), games_limit=0)
    with pytest.raises(InvalidIdError, match=f"^{text}$"):
        Match.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", games_limit=0)


def test_once_the_match_is_over_no_game_is_next() -> None:
    # a match built at 4-2 without the Crawford game marked: player 1 then wins it outright
    match = Match(Rules(match_length=5), score=(4, 2), crawford_game=False)
    win_game(match, 1, ResultKind.BACKGAMMON)
    assert match.is_over and match.score == [4, 5]
    assert not match.is_crawford_next()


def test_an_xgid_match_takes_the_rules_and_variant_it_is_given() -> None:
    # "rules (optional) supplies settings the XGID does not carry": here no Crawford rule
    text = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:4:2:0:5:10"
    plain = Match.from_xgid(text, Rules(crawford=False))
    assert not plain.rules.crawford and not plain.is_post_crawford and plain.rules.match_length == 5
    assert Match.from_xgid(text, variant="nackgammon").rules.variant.name == "nackgammon"


# -- repr: "a call that builds this state again (history not included)" -------------------------

ENV = {"Match": Match, "Game": Game, "Rules": Rules, "Position": Position, "Phase": Phase,
       "ResultKind": ResultKind}


def rebuilt(match: Match) -> Match:
    again = eval(repr(match), ENV)  # noqa: S307  # the repr is a call to build the match
    assert isinstance(again, Match)
    return again


def test_repr_builds_a_match_in_the_middle_of_a_game_again() -> None:
    match = Match(Rules(match_length=5), score=(4, 2), post_crawford=True)
    match.apply(Roll(0, (3, 1)))
    again = rebuilt(match)
    assert again.score == [4, 2] and again.is_post_crawford and again.crawford_played
    assert again.game.phase is Phase.MOVE and again.game.rolled == (3, 1)
    assert again.game.position == match.game.position


@pytest.mark.parametrize("score", [(1, 0), (0, 1), (0, 0)])
def test_repr_keeps_the_score(score: tuple[int, int]) -> None:
    assert rebuilt(Match(Rules(match_length=5), score=score)).score == list(score)


def test_repr_of_the_crawford_game_and_of_a_session() -> None:
    crawford = rebuilt(Match(Rules(match_length=5), score=(2, 4)))
    assert crawford.game.crawford_game and not crawford.is_post_crawford
    assert rebuilt(Match(Rules(), games_limit=3)).games_limit == 3
    assert rebuilt(Match(Rules())).games_limit is None


def test_repr_between_games_builds_the_next_games_start() -> None:
    match = Match(Rules(match_length=3))
    win_game(match, 0, ResultKind.GAMMON)  # 2-0: the Crawford game is next
    again = rebuilt(match)
    assert again.score == [2, 0] and again.game.crawford_game and again.game.phase is Phase.OPENING
    match.apply(NewGame())
    win_game(match, 1)  # 2-1 after the Crawford game
    again = rebuilt(match)
    assert again.score == [2, 1] and not again.game.crawford_game and again.is_post_crawford
    assert again.game.phase is Phase.OPENING


def test_repr_of_a_match_over_names_the_final_score() -> None:
    match = Match(Rules(match_length=1))
    win_game(match, 1)
    assert repr(match) == "<Match over: score 0-1>"
    match = Match(Rules(match_length=2), score=(1, 0), post_crawford=True)
    win_game(match, 0)
    assert repr(match) == "<Match over: score 2-0>"


def test_a_match_from_ids_takes_the_rules_it_is_given() -> None:
    # "rules (optional) supplies settings the IDs do not carry": here no Crawford rule
    match_id = encode_match_id(MatchId(match_length=5, score=(4, 2)))
    match = Match.from_ids(START_ID, match_id, Rules(crawford=False))
    assert not match.rules.crawford and not match.is_post_crawford and match.rules.match_length == 5


def test_a_match_around_a_game_takes_the_games_crawford_flag() -> None:
    # "game (the current game, at any state)": its Crawford flag is the match's, not the score's
    rules = Rules(match_length=5)
    match = Match(rules, score=(4, 1), game=Game(rules, score=(4, 1)))
    assert not match.game.crawford_game and not match.crawford_played
