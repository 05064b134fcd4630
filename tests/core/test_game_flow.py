"""Running a game: what each action does to the state and the events it returns.

:class:`Game` is a state machine driven by actions; "every action returns the
events an interface shows".  An :class:`Event` is "kind names it, player did it,
text says it", and its data carries the numbers an interface shows.  These
tests drive every phase (the opening throw with its ties, automatic doubles and
the variant where the starter throws anew; rolls, plays and passes; the cube
with beavers; resignations; the Acey-Deucey 1-2 bonus; a loss on time) and
check the whole event list, the state afterwards, and the exact refusals of
:meth:`Game.apply`.  The convenience wrappers (``game.roll()``, ``game.take()``
...) must send the action of the player the rules wait for.
"""

from __future__ import annotations

import random

import pytest

from boards import pos
from gammon import IllegalActionError, Position, Reason, ResultKind
from gammon.core.actions import Timeout
from gammon.core.game import (
    CENTERED,
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    Double,
    Drop,
    Event,
    Game,
    Move,
    NewGame,
    Phase,
    RejectResignation,
    Resign,
    Roll,
    Rules,
    Take,
)
from gammon.core.phase import BONUS_CHOOSE, BONUS_DOUBLE, BONUS_ONE_TWO
from gammon.core.plays import Play

ACEY = Rules(variant="acey-deucey")

#: Player 0 (on roll) is on the bar against a closed board: no roll can be played.
DANCE = pos("x: bar:1 6:14; o: 1:2 2:2 3:2 4:2 5:2 6:2 13:3")

#: Player 0 bears off its last checker with any roll; player 1 has none off: a gammon.
LAST_CHECKER = pos("x: 1:1; o: 13:15")


def refused(game: Game, action: object) -> IllegalActionError:
    """Apply ``action``, which must be refused without changing anything; the error."""
    before = game.snapshot()
    record = list(game.record)
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)  # type: ignore[arg-type]
    assert game.snapshot() == before and game.record == record
    return info.value


def forged(action: Action, **fields: object) -> Action:
    """``action`` with ``fields`` changed behind its constructor's checks (as an unpickled
    or hand-built record could be): the game must check what it relies on itself."""
    for name, value in fields.items():
        object.__setattr__(action, name, value)
    return action


def game_over_event(winner: int, points: int, how: str, kind: str = "single") -> Event:
    text = f"player {winner} wins {points} point{'s' if points != 1 else ''} ({how})"
    return Event("game-over", winner, text, {"points": points, "kind": kind})


# -- the opening throw --------------------------------------------------------------------
# "Each player throws one die; equal throws are thrown again; the higher die starts and
# plays both numbers."


def test_an_equal_opening_throw_says_both_dice_and_is_thrown_again() -> None:
    game = Game()
    events = game.apply(Roll(0, (4, 4)))
    assert events == [Event("opening-tie", None, "both players threw 4: throw again", {"dice": (4, 4)})]
    assert game.phase is Phase.OPENING and game.record == [Roll(0, (4, 4))]


def test_the_opening_event_names_both_throws_and_the_starter_then_the_roll() -> None:
    game = Game()
    events = game.apply(Roll(0, (2, 5)))  # player 0 threw 2, player 1 threw 5
    assert events == [
        Event("opening", 1, "player 0 threw 2, player 1 threw 5: player 1 starts", {"dice": (2, 5)}),
        Event("rolled", 1, "player 1 rolled 5-2", {"dice": (5, 2)}),
    ]
    assert (game.turn, game.phase, game.rolled) == (1, Phase.MOVE, (5, 2))

    game = Game()
    events = game.apply(Roll(1, (6, 1)))  # either player may record the opening throw
    assert events[0] == Event("opening", 0, "player 0 threw 6, player 1 threw 1: player 0 starts",
                              {"dice": (6, 1)})
    assert events[1] == Event("rolled", 0, "player 0 rolled 6-1", {"dice": (6, 1)})
    assert game.turn == 0 and game.position == Position.initial()


def test_automatic_doubles_report_the_cube_after_each_equal_throw() -> None:
    # Money play: "each equal opening throw doubles the cube (it stays centred)", up to the limit.
    game = Game(Rules(automatic_doubles=2))
    tie = Event("opening-tie", None, "both players threw 3: throw again", {"dice": (3, 3)})
    assert game.apply(Roll(0, (3, 3))) == [
        tie, Event("auto-double", None, "automatic double: the cube is now 2", {"cube": 2})]
    assert game.apply(Roll(0, (3, 3))) == [
        tie, Event("auto-double", None, "automatic double: the cube is now 4", {"cube": 4})]
    assert game.apply(Roll(0, (3, 3))) == [tie]  # past the limit of two
    assert (game.cube_value, game.cube_owner, game.auto_doubles) == (4, CENTERED, 2)


@pytest.mark.parametrize("rules", [
    Rules(cube=False, automatic_doubles=3), Rules(match_length=3, automatic_doubles=3),
    Rules(automatic_doubles=3, cube_limit=1),
], ids=["no-cube", "match", "cube-limit-1"])
def test_no_automatic_double_without_a_money_cube_to_turn(rules: Rules) -> None:
    game = Game(rules)
    assert [e.kind for e in game.apply(Roll(0, (5, 5)))] == ["opening-tie"]
    assert (game.cube_value, game.auto_doubles) == (1, 0)


def test_acey_deucey_an_opening_throw_of_one_and_two_played_at_once_is_the_bonus() -> None:
    game = Game(Rules(variant="acey-deucey", opening="use-opening-dice"))
    events = game.apply(Roll(0, (1, 2)))
    assert [e.kind for e in events] == ["opening", "rolled"]
    assert (game.turn, game.rolled, game.bonus) == (1, (2, 1), BONUS_ONE_TWO)


def test_when_the_starter_throws_anew_the_opening_throw_is_not_played() -> None:
    # Norwegian rules' option: "the first player throws his dice anew for the first move".
    game = Game(Rules(opening="reroll"))
    events = game.apply(Roll(0, (2, 6)))
    assert events == [Event(
        "opening", 1, "player 0 threw 2, player 1 threw 6: player 1 starts and throws both dice",
        {"dice": (2, 6), "reroll": True})]
    assert (game.turn, game.phase, game.rolled) == (1, Phase.ROLL, None)
    assert game.legal_plays() == []
    events = game.apply(Roll(1, (4, 4)))  # a double may follow: the starter threw anew
    assert events == [Event("rolled", 1, "player 1 rolled 4-4", {"dice": (4, 4)})]


# -- rolling and playing ------------------------------------------------------------------


def test_a_play_is_reported_and_kept_and_passes_the_turn() -> None:
    game = Game()
    game.apply(Roll(0, (3, 1)))
    events = game.apply(Move(0, "8/5 6/5"))
    assert events == [
        Event("played", 0, "player 0 played 8/5 6/5", {"play": "8/5 6/5"}),
        Event("turn", 1, "player 1 is on roll", {}),
    ]
    assert [str(p) for p in game.plays] == ["8/5 6/5"]
    assert game.plays[0].position == game.position.swap()  # kept from the mover's side
    game.apply(Roll(1, (6, 4)))
    events = game.apply(Move(1, "24/14"))
    assert events[0] == Event("played", 1, "player 1 played 24/14", {"play": "24/14"})
    assert events[1] == Event("turn", 0, "player 0 is on roll", {})
    assert len(game.plays) == 2 and all(isinstance(p, Play) for p in game.plays)


def test_a_roll_that_cannot_be_played_passes_at_once() -> None:
    game = Game(position=DANCE, phase=Phase.ROLL)
    events = game.apply(Roll(0, (6, 5)))
    assert events == [
        Event("rolled", 0, "player 0 rolled 6-5", {"dice": (6, 5)}),
        Event("no-move", 0, "player 0 cannot move", {}),
        Event("turn", 1, "player 1 is on roll", {}),
    ]
    assert (game.turn, game.phase, game.rolled) == (1, Phase.ROLL, None)
    assert len(game.plays) == 1 and game.plays[0].dice_used == 0  # the pass is a play too
    assert game.record == [Roll(0, (6, 5))]  # nothing but the roll was played


def test_a_winning_play_ends_the_game_with_nothing_pending() -> None:
    game = Game(position=LAST_CHECKER, phase=Phase.ROLL)
    game.apply(Roll(0, (6, 1)))
    events = game.apply(Move(0, game.legal_plays()[0]))
    assert events[-1] == game_over_event(0, 2, "gammon", "gammon")
    assert game.is_over and game.rolled is None
    assert game.bonus is None and not game.aceydeucey_pending
    assert len(game.plays) == 1


def test_no_legal_plays_while_a_resignation_waits_even_after_rolling() -> None:
    game = Game()
    game.apply(Roll(0, (3, 1)))
    game.apply(Resign(0))
    assert game.phase is Phase.RESIGNED and game.rolled == (3, 1)
    assert game.legal_plays() == []  # the dice are kept, but nobody may play them now
    game.apply(RejectResignation(1))
    assert game.legal_plays() and all(p.dice_used == 2 for p in game.legal_plays())


def test_no_dice_source_is_refused_with_its_exact_message() -> None:
    game = Game(position=DANCE, phase=Phase.ROLL)
    error = refused(game, Roll(0))
    assert str(error) == "no dice source: give the dice with the roll"
    assert error.reason is Reason.BAD_VALUE


def test_the_game_checks_the_dice_itself() -> None:
    # "An action that is not legal now raises IllegalActionError with a Reason and changes
    # nothing": dice outside 1..6 are refused even when the Roll escaped its own check.
    for game in (Game(), Game(position=DANCE, phase=Phase.ROLL)):
        error = refused(game, forged(Roll(0, (3, 1)), dice=(7, 1)))
        assert str(error) == "dice must be two numbers from 1 to 6, not 7 and 1"
        assert error.reason is Reason.BAD_VALUE


# -- Acey-Deucey: the 1-2 bonus ------------------------------------------------------------
# "If both the 1 and the 2 were legally played, the player's chosen double follows; if all
# four of those moves were played too, the dice are thrown again."


def test_acey_deucey_bonus_stages_and_events() -> None:
    game = Game(ACEY)
    game.apply(Roll(0, (3, 5)))  # player 1 wins the opening throw and throws anew
    assert not game.aceydeucey_pending
    assert game.apply(Roll(1, (2, 1))) == [Event("rolled", 1, "player 1 rolled 2-1", {"dice": (2, 1)})]
    assert game.bonus == BONUS_ONE_TWO and game.aceydeucey_pending
    play = game.legal_plays()[0]
    assert play.dice_used == 2
    events = game.apply(Move(1, play))
    assert events == [
        Event("played", 1, f"player 1 played {play}", {"play": str(play)}),
        Event("choose-double", 1, "acey-deucey: player 1 names a double", {}),
    ]
    assert (game.phase, game.turn, game.rolled) == (Phase.CHOOSE_DOUBLE, 1, None)
    assert game.bonus == BONUS_CHOOSE and game.aceydeucey_pending and game.player_to_act == 1
    assert game.legal_plays() == []

    events = game.apply(ChooseDouble(1, 4))
    assert events == [
        Event("chose-double", 1, "player 1 plays double 4s", {"number": 4}),
        Event("rolled", 1, "player 1 rolled 4-4", {"dice": (4, 4)}),
    ]
    assert game.bonus == BONUS_DOUBLE and game.aceydeucey_pending and game.rolled == (4, 4)
    play = game.legal_plays()[0]
    assert play.dice_used == 4
    events = game.apply(Move(1, play))
    assert events == [
        Event("played", 1, f"player 1 played {play}", {"play": str(play)}),
        Event("roll-again", 1, "player 1 rolls again", {}),
    ]
    assert (game.phase, game.turn, game.rolled) == (Phase.ROLL, 1, None)
    assert game.bonus is None and not game.aceydeucey_pending
    game.apply(Roll(1, (6, 5)))
    assert game.bonus is None  # an ordinary roll
    events = game.apply(Move(1, game.legal_plays()[0]))
    assert events[-1] == Event("turn", 0, "player 0 is on roll", {})


#: Acey-Deucey, player 0 on roll with two checkers on its 24 point; player 1 blocks player 0's
#: 18 to 15 points, so after a 1-2 no 6 can be played and only two 3s.
BLOCKED_AHEAD = pos("x: 24:2; o: 7:2 8:2 9:2 10:2 13:7", "acey-deucey")


def test_acey_deucey_a_one_two_that_cannot_be_played_in_full_earns_no_double() -> None:
    # "What cannot be played ends the sequence": only the 1 of this 1-2 can be played.
    game = Game(ACEY, position=pos("x: 24:1; o: 3:2 4:2 13:11", "acey-deucey"), phase=Phase.ROLL)
    game.apply(Roll(0, (1, 2)))
    assert game.bonus == BONUS_ONE_TWO and [str(p) for p in game.legal_plays()] == ["24/23"]
    events = game.apply(Move(0, "24/23"))
    assert events == [Event("played", 0, "player 0 played 24/23", {"play": "24/23"}),
                      Event("turn", 1, "player 1 is on roll", {})]
    assert (game.turn, game.phase, game.bonus) == (1, Phase.ROLL, None)


@pytest.mark.parametrize(("number", "played"), [(6, 0), (3, 2)])
def test_acey_deucey_a_chosen_double_not_played_four_times_passes_the_turn(number: int, played: int) -> None:
    game = Game(ACEY, position=BLOCKED_AHEAD, phase=Phase.ROLL)
    game.apply(Roll(0, (2, 1)))
    game.apply(Move(0, "24/23 24/22"))
    events = game.apply(ChooseDouble(0, number))
    assert events[:2] == [
        Event("chose-double", 0, f"player 0 plays double {number}s", {"number": number}),
        Event("rolled", 0, f"player 0 rolled {number}-{number}", {"dice": (number, number)}),
    ]
    if played:
        assert {p.dice_used for p in game.legal_plays()} == {played}
        events = game.apply(Move(0, game.legal_plays()[0]))[1:]
    else:
        events = events[2:]
        assert events[0] == Event("no-move", 0, "player 0 cannot move", {})
        events = events[1:]
    assert events == [Event("turn", 1, "player 1 is on roll", {})]  # no roll again
    assert (game.turn, game.phase, game.bonus) == (1, Phase.ROLL, None)


def test_acey_deucey_a_one_two_after_rolling_again_is_a_new_bonus() -> None:
    game = Game(ACEY, position=BLOCKED_AHEAD, phase=Phase.ROLL)
    game.apply(Roll(0, (2, 1)))
    game.apply(Move(0, "24/23 24/22"))
    game.apply(ChooseDouble(0, 1))
    events = game.apply(Move(0, game.legal_plays()[0]))
    assert events[-1].kind == "roll-again" and game.bonus is None
    game.apply(Roll(0, (1, 2)))
    assert game.bonus == BONUS_ONE_TWO and game.aceydeucey_pending


def test_a_one_two_is_an_ordinary_roll_outside_acey_deucey() -> None:
    for rules in (Rules(), Rules(variant="dutch")):
        game = Game(rules, phase=Phase.ROLL)
        game.apply(Roll(0, (1, 2)))
        assert game.bonus is None and not game.aceydeucey_pending
        events = game.apply(Move(0, game.legal_plays()[0]))
        assert events[-1] == Event("turn", 1, "player 1 is on roll", {})


def test_acey_deucey_a_game_won_during_the_bonus_ends_it() -> None:
    game = Game(ACEY, position=pos("x: 1:1; o: 13:4 bar:6", "acey-deucey"), phase=Phase.ROLL)
    game.apply(Roll(0, (2, 1)))
    assert game.aceydeucey_pending
    game.apply(Move(0, game.legal_plays()[0]))  # bears off the last checker with one die
    assert game.is_over and game.result is not None and game.result.winner == 0
    assert game.bonus is None and not game.aceydeucey_pending


def test_acey_deucey_a_position_without_its_pool_names_the_play_of_the_same_variant_only() -> None:
    # A position read from a Position ID carries no pool: in Acey-Deucey its board names the
    # play.  A position of another variant is no play of this game, whatever its board.
    game = Game(ACEY, phase=Phase.ROLL)
    game.apply(Roll(0, (2, 1)))
    play = game.legal_plays()[0]
    after = play.position
    assert after.pool != (0, 0)
    other = Position(after.me, after.opp, "dutch")
    error = refused(game, Move(0, other))
    assert error.reason is Reason.ILLEGAL_PLAY and str(error) == "that play is not legal for 2-1"
    no_pool = Position(after.me, after.opp, "acey-deucey")
    game.apply(Move(0, no_pool))
    assert game.plays == [play] and game.record[-1] == Move(0, play)


# -- the cube: beavers -----------------------------------------------------------------------
# "After a beaver the original doubler answers it: the beaverer has taken at twice the cube
# (and owns it) and redoubles at once."


def redoubled() -> Game:
    """Money play with beavers: player 0 owns the cube at 2, is on roll, and redoubles to 4."""
    game = Game(Rules(beavers=True), phase=Phase.ROLL, cube_value=2, cube_owner=0)
    assert game.apply(Double(0)) == [Event("doubled", 0, "player 0 doubles to 4", {"cube": 4})]
    return game


def test_a_beaver_of_a_redouble_takes_at_twice_the_cube_and_redoubles() -> None:
    game = redoubled()
    events = game.apply(Beaver(1))
    assert events == [Event("beavered", 1, "player 1 beavers: player 0 takes at 8 or drops for 4",
                            {"cube": 8})]
    assert (game.cube_value, game.cube_owner) == (4, 1)  # taken at 4 by the beaverer
    assert game.phase is Phase.BEAVERED and game.beavered is True
    assert game.player_to_act == 0 and game.turn == 0  # the doubler answers
    events = game.apply(Take(0))
    assert events == [Event("took", 0, "player 0 takes the beaver; the cube is 8, owned by player 1",
                            {"cube": 8})]
    assert (game.cube_value, game.cube_owner, game.phase) == (8, 1, Phase.ROLL)


def test_a_dropped_beaver_of_a_redouble_costs_the_cube_the_beaverer_took() -> None:
    game = redoubled()
    game.apply(Beaver(1))
    events = game.apply(Drop(0))
    assert events == [Event("dropped", 0, "player 0 drops", {}), game_over_event(1, 4, "drop")]
    assert game.result is not None and (game.result.points, game.result.cube) == (4, 4)


def test_a_plain_double_is_not_beavered() -> None:
    game = redoubled()
    assert game.beavered is False
    game.apply(Take(1))
    assert game.beavered is False and (game.cube_value, game.cube_owner) == (4, 1)


# -- resignations -----------------------------------------------------------------------------
# A resignation offers a single, gammon or backgammon; accepted, it ends the game with that
# many points times the cube; rejected, play resumes where it was.


def resigned(by: int = 1, kind: ResultKind = ResultKind.SINGLE) -> Game:
    """Player ``by`` on roll (the cube at 2, owned by player 0) offers to resign ``kind``."""
    game = Game(turn=by, phase=Phase.ROLL, cube_value=2, cube_owner=0)
    game.apply(Resign(by, kind))
    return game


@pytest.mark.parametrize(("kind", "points"), [
    (ResultKind.SINGLE, 2), (ResultKind.GAMMON, 4), (ResultKind.BACKGAMMON, 6)])
def test_an_accepted_resignation_ends_the_game_at_its_kind_times_the_cube(
    kind: ResultKind, points: int
) -> None:
    game = resigned(1, kind)
    assert game.player_to_act == 0
    events = game.apply(AcceptResignation(0))
    name = kind.name.lower()
    assert events == [Event("resignation-accepted", 0, "player 0 accepts", {}),
                      game_over_event(0, points, name, name)]
    assert game.result is not None and game.result.resigned and game.result.winner == 0
    assert game.bonus is None and not game.aceydeucey_pending
    # Nobody answers anything any more: player_to_act is no longer the resigner's opponent.
    assert game.player_to_act == game.turn == 1


def test_a_rejected_resignation_resumes_play() -> None:
    game = resigned(1)
    events = game.apply(RejectResignation(0))
    assert events == [Event("resignation-rejected", 0, "player 0 rejects; play on", {})]
    assert (game.phase, game.resignation, game.player_to_act) == (Phase.ROLL, None, 1)
    assert game.snapshot()["resigned_from"] is None
    game.apply(Roll(1, (3, 1)))  # the resigner plays on


@pytest.mark.parametrize("answer", [AcceptResignation, RejectResignation])
def test_only_the_resigners_opponent_answers(answer: type) -> None:
    for resigner in (0, 1):
        game = resigned(resigner)
        error = refused(game, answer(resigner))
        verb = "accept" if answer is AcceptResignation else "reject"
        assert str(error) == f"cannot {verb}: only player {1 - resigner} may answer the resignation"
        assert error.reason is Reason.OUT_OF_TURN


@pytest.mark.parametrize("answer", [AcceptResignation, RejectResignation])
def test_no_resignation_to_answer(answer: type) -> None:
    verb = "accept" if answer is AcceptResignation else "reject"
    for game in (Game(phase=Phase.ROLL), Game(phase=Phase.ROLL, turn=1), Game()):
        for player in (0, 1):
            error = refused(game, answer(player))
            assert str(error) == f"cannot {verb}: no resignation is offered"
            assert error.reason is Reason.NO_RESIGN_PENDING


# -- a loss on time -------------------------------------------------------------------------
# "A player whose time runs out loses the match": in match play the opponent scores what is
# still missing to win it; whatever was pending is over.


def test_running_out_of_time_while_answering_a_resignation_ends_everything() -> None:
    game = Game(Rules(match_length=7), score=(2, 4), phase=Phase.ROLL, turn=1)
    game.apply(Resign(1))
    events = game.apply(Timeout(0))  # player 0 had to answer
    assert events == [
        Event("timeout", 0, "player 0 ran out of time and loses the match", {}),
        Event("game-over", 1, "player 1 wins 3 points (on time)",
              {"points": 3, "kind": "single", "timeout": True}),
    ]
    assert game.is_over and game.result is not None and game.result.timeout
    assert game.resignation is None and game.snapshot()["resigned_from"] is None
    assert game.bonus is None and not game.aceydeucey_pending


def test_running_out_of_time_during_the_acey_deucey_bonus_ends_it() -> None:
    game = Game(ACEY, phase=Phase.ROLL, turn=1)
    game.apply(Roll(1, (1, 2)))
    assert game.aceydeucey_pending
    events = game.apply(Timeout(1))
    assert events[0] == Event("timeout", 1, "player 1 ran out of time and loses the match", {})
    assert game.bonus is None and not game.aceydeucey_pending
    assert game.result is not None and (game.result.winner, game.result.points) == (0, 1)


def test_nobodys_time_runs_in_the_opening() -> None:
    error = refused(Game(), Timeout(0))
    assert str(error) == "nobody's time runs during the opening roll"
    assert error.reason is Reason.NOT_ROLLED


# -- what apply refuses before any handler ---------------------------------------------------


def test_a_new_game_is_refused_by_a_game() -> None:
    game = Game(position=DANCE, phase=Phase.ROLL)
    error = refused(game, NewGame())
    assert str(error) == "cannot start a new game: this one is still being played"
    assert error.reason is Reason.GAME_IN_PROGRESS
    game.apply(Double(0))
    game.apply(Drop(1))
    error = refused(game, NewGame())
    assert str(error) == "the next game is started by the match"
    assert error.reason is Reason.GAME_OVER


def test_a_finished_game_refuses_every_action() -> None:
    game = Game(position=DANCE, phase=Phase.ROLL)
    game.apply(Double(0))
    game.apply(Drop(1))
    for action in (Roll(1, (3, 1)), Double(1), Take(0), Resign(1), Timeout(1)):
        error = refused(game, action)
        assert str(error) == "the game is over" and error.reason is Reason.GAME_OVER


@pytest.mark.parametrize("thing", ["roll", None, 42, (3, 1)])
def test_what_is_not_an_action_is_refused(thing: object) -> None:
    error = refused(Game(), thing)
    assert str(error) == f"unknown action {thing!r}"
    assert error.reason is Reason.BAD_VALUE


@pytest.mark.parametrize("player", [2, -1, True, None])
def test_the_game_checks_the_player_itself(player: object) -> None:
    # Players are 0 and 1: an action whose player escaped its own check is still refused.
    for action in (Roll(0, (3, 1)), Double(0), Resign(0)):
        game = Game() if isinstance(action, Roll) else Game(phase=Phase.ROLL)
        error = refused(game, forged(action, player=player))
        assert str(error) == f"player must be 0 or 1, not {player!r}"
        assert error.reason is Reason.BAD_VALUE


# -- the convenience wrappers -----------------------------------------------------------------
# Each sends the action of the player the rules wait for (and records it as apply does).


def test_roll_and_play_act_for_the_player_on_roll() -> None:
    game = Game()
    events = game.roll((3, 5))
    assert game.record == [Roll(0, (3, 5))] and events[0].kind == "opening"
    assert (game.turn, game.rolled) == (1, (5, 3))
    events = game.play("8/3 6/3")
    assert game.record[-1].player == 1 and str(game.plays[-1]) == "8/3 6/3"
    assert events[-1] == Event("turn", 0, "player 0 is on roll", {})
    game.roll((2, 1))
    assert game.record[-1] == Roll(0, (2, 1)) and game.rolled == (2, 1)
    play = game.legal_plays()[0]
    game.play(play)
    assert game.record[-1] == Move(0, play)
    game.roll((6, 4))
    assert game.record[-1] == Roll(1, (6, 4))
    game.play(game.legal_plays()[0].position)  # a resulting position names the play
    assert game.record[-1].player == 1 and game.turn == 0


def test_double_take_and_drop_act_for_the_right_players() -> None:
    game = Game(phase=Phase.ROLL, turn=1)
    assert game.double() == [Event("doubled", 1, "player 1 doubles to 2", {"cube": 2})]
    assert game.take() == [Event("took", 0, "player 0 takes; the cube is 2", {"cube": 2})]
    assert game.record == [Double(1), Take(0)]
    assert (game.cube_value, game.cube_owner, game.phase) == (2, 0, Phase.ROLL)

    game = Game(phase=Phase.ROLL, turn=1)
    game.double()
    game.drop()
    assert game.record == [Double(1), Drop(0)]
    assert game.result is not None and (game.result.winner, game.result.dropped) == (1, True)


@pytest.mark.parametrize("doubler", [0, 1])
def test_beaver_then_take_or_drop_act_for_the_right_players(doubler: int) -> None:
    game = Game(Rules(beavers=True), phase=Phase.ROLL, turn=doubler)
    game.double()
    assert game.beaver()[0].kind == "beavered"
    assert game.record == [Double(doubler), Beaver(1 - doubler)]
    game.take()  # after a beaver the doubler answers
    assert game.record[-1] == Take(doubler) and (game.cube_value, game.cube_owner) == (4, 1 - doubler)

    game = Game(Rules(beavers=True), phase=Phase.ROLL, turn=doubler)
    game.double()
    game.beaver()
    game.drop()
    assert game.record[-1] == Drop(doubler)
    assert game.result is not None and (game.result.winner, game.result.points) == (1 - doubler, 2)


def test_resign_acts_for_the_player_to_act_with_its_kind() -> None:
    game = Game(phase=Phase.ROLL)  # player 0 on roll
    game.resign()
    assert game.record == [Resign(0, ResultKind.SINGLE)]
    game.reject_resignation()
    assert game.record[-1] == RejectResignation(1)

    game.resign(ResultKind.GAMMON)
    assert game.record[-1] == Resign(0, ResultKind.GAMMON) and game.resignation == (0, ResultKind.GAMMON)
    game.accept_resignation()
    assert game.record[-1] == AcceptResignation(1)
    assert game.result is not None and (game.result.winner, game.result.points) == (1, 2)

    game = Game(phase=Phase.ROLL, turn=1)
    game.double()
    game.resign(ResultKind.BACKGAMMON)  # the player doubled may resign instead of answering
    assert game.record[-1] == Resign(0, ResultKind.BACKGAMMON)
    game.accept_resignation()
    assert game.record[-1] == AcceptResignation(1)


def test_resign_for_a_named_player_who_is_not_to_act_is_refused() -> None:
    game = Game(phase=Phase.ROLL)  # player 0 on roll
    before = game.snapshot()
    with pytest.raises(IllegalActionError) as info:
        game.resign(player=1)
    assert str(info.value) == "cannot resign: it is player 0's turn to act"
    assert info.value.reason is Reason.OUT_OF_TURN and game.snapshot() == before
    game.resign(ResultKind.GAMMON, player=0)
    assert game.record == [Resign(0, ResultKind.GAMMON)]


def test_choose_double_acts_for_the_player_on_roll() -> None:
    game = Game(ACEY, phase=Phase.ROLL, turn=1)
    game.roll((1, 2))
    game.play(game.legal_plays()[0])
    assert game.phase is Phase.CHOOSE_DOUBLE
    events = game.choose_double(6)
    assert game.record[-1] == ChooseDouble(1, 6)
    assert events[0] == Event("chose-double", 1, "player 1 plays double 6s", {"number": 6})
    assert game.rolled == (6, 6) or game.phase is Phase.ROLL  # 6-6 played, or nothing to play


# -- every event is well formed ---------------------------------------------------------------


@pytest.mark.parametrize("rules", [
    Rules(beavers=True, automatic_doubles=2), Rules(match_length=5), ACEY, Rules(opening="reroll"),
], ids=["money", "match", "acey-deucey", "reroll"])
def test_every_event_of_a_random_game_is_well_formed(rules: Rules) -> None:
    """Random games: each event has a kind, a player 0, 1 or None, a text and a data dict;
    the wrappers always find the player to act; the game ends with one game-over event."""
    rng = random.Random(16)
    for _ in range(3):
        game = Game(rules)
        events: list[Event] = []
        for _ in range(3000):
            if game.is_over:
                break
            phase = game.phase
            if phase in (Phase.OPENING, Phase.ROLL):
                if phase is Phase.ROLL and game.can_double() and rng.random() < 0.1:
                    events += game.double()
                else:
                    events += game.roll((rng.randint(1, 6), rng.randint(1, 6)))
            elif phase is Phase.MOVE:
                events += game.play(rng.choice(game.legal_plays()))
            elif phase is Phase.CHOOSE_DOUBLE:
                events += game.choose_double(rng.randint(1, 6))
            elif phase is Phase.DOUBLED:
                events += game.beaver() if game.can_beaver() else game.take()
            elif phase is Phase.BEAVERED:
                events += game.take()
        assert game.is_over
        for e in events:
            assert isinstance(e.kind, str) and e.kind and e.player in (0, 1, None), e
            assert isinstance(e.text, str) and e.text and isinstance(e.data, dict), e
        assert [e.kind for e in events].count("game-over") == 1 and events[-1].kind == "game-over"
