"""A match from game to game: the score and its events, the dice, the end, the replay.

From the rules of :class:`gammon.core.match.Match`: each game starts with the match's
rules, dice and score; a finished game adds its points and says so in a ``score`` event
(and a ``match-over`` event at the end); a money session ends after its game limit; the
record replays to the same match.
"""

from __future__ import annotations

import pytest

from gammon import IllegalActionError, ResultKind
from gammon.core.dice import ScriptedDice
from gammon.core.game import AcceptResignation, Event, Move, Resign, Roll, Rules
from gammon.core.match import Match


def end_game(match: Match, winner: int, kind: ResultKind = ResultKind.SINGLE) -> list[Event]:
    """Player ``1 - winner`` starts and resigns ``kind``; the events of the last action."""
    if match.game.is_over:
        match.next_game()
    match.apply(Roll(0, (3, 1) if winner == 1 else (1, 3)))
    match.apply(Resign(1 - winner, kind))
    return match.apply(AcceptResignation(winner))


def test_score_and_match_over_events() -> None:
    match = Match(Rules(match_length=3))
    events = end_game(match, 1, ResultKind.GAMMON)
    score = [e for e in events if e.kind == "score"]
    assert score == [Event("score", 1, "score 0-2 in a 3-point match", {"score": (0, 2)})]
    assert not any(e.kind == "match-over" for e in events)
    events = end_game(match, 0)  # the Crawford game
    assert [e for e in events if e.kind == "score"] == [
        Event("score", 0, "score 1-2 in a 3-point match", {"score": (1, 2)})]
    events = end_game(match, 1)
    assert events[-2:] == [
        Event("score", 1, "score 1-3 in a 3-point match", {"score": (1, 3)}),
        Event("match-over", 1, "player 1 wins the match score 1-3 in a 3-point match", {}),
    ]
    assert match.is_over and match.winner == 1


def test_money_session_events_and_a_drawn_session() -> None:
    match = Match(Rules(), games_limit=2)
    events = end_game(match, 0)
    assert [e for e in events if e.kind == "score"] == [Event("score", 0, "score 1-0", {"score": (1, 0)})]
    events = end_game(match, 1)
    assert match.is_over and match.winner is None and match.score == [1, 1]
    assert events[-1] == Event("match-over", None, "the session ends score 1-1", {})


def test_each_game_gets_the_match_rules_dice_and_score() -> None:
    rules = Rules(match_length=5, cube_limit=16)
    dice = ScriptedDice([(3, 1), (6, 5), (4, 2), (5, 5)])
    match = Match(rules, dice)
    assert match.dice is dice
    match.apply(Roll(0))  # from the match's dice: 3-1, player 0 starts
    assert match.game.rolled == (3, 1)
    match.apply(Resign(0, ResultKind.GAMMON))
    match.apply(AcceptResignation(1))
    game = match.next_game()
    assert game.rules is rules and game.dice is dice and game.score == (0, 2)
    match.apply(Roll(0))  # the next roll of the same dice: 6-5
    assert game.rolled == (6, 5)
    end = match.game
    end.apply(Move(0, end.legal_plays()[0]))
    assert match.game.score == (0, 2)


def test_the_crawford_state_at_the_start_and_the_end() -> None:
    match = Match(Rules(match_length=3))
    assert match.crawford_played is False and match.is_post_crawford is False
    end_game(match, 0, ResultKind.GAMMON)
    end_game(match, 1)  # the Crawford game
    assert match.crawford_played is True
    end_game(match, 1, ResultKind.GAMMON)  # player 1 wins the match 2-3
    assert match.is_over and match.score == [2, 3]
    assert match.is_crawford_next() is False  # a finished match has no next game


def test_refusals_say_why() -> None:
    match = Match(Rules(match_length=1))
    match.apply(Roll(0, (3, 1)))
    with pytest.raises(IllegalActionError, match="^cannot start a new game: the current game is not over yet$"):
        match.next_game()
    match.apply(Resign(0))
    match.apply(AcceptResignation(1))
    with pytest.raises(IllegalActionError, match="^the match is over$"):
        match.next_game()
    with pytest.raises(IllegalActionError, match="^the match is over$"):
        match.apply(Roll(0, (3, 1)))


def test_replay_rebuilds_games_score_and_limit() -> None:
    match = Match(Rules(), games_limit=3)
    end_game(match, 0, ResultKind.GAMMON)
    end_game(match, 1)
    end_game(match, 1, ResultKind.BACKGAMMON)
    assert match.is_over
    again = Match.replay(match.rules, match.record, games_limit=3)
    assert again.games_limit == 3 and again.is_over
    assert again.score == match.score == [2, 4]
    assert len(again.games) == 3 and again.record == match.record
    assert again.dice is None
    # without the limit the session would go on
    open_ended = Match.replay(match.rules, match.record)
    assert not open_ended.is_over
