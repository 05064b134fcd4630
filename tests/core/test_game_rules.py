"""The game and match rules, one scenario per rule, with the dice given by hand.

Each test drives :class:`Game` or :class:`Match` through actions whose dice are
in the action, so no dice source is involved.  The last part checks that every
illegal action raises :class:`IllegalActionError` with a precise message and
changes nothing.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

import pytest

from boards import pos
from gammon import IllegalActionError, Position, Reason, ResultKind
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
from gammon.core.match import Match

# -- helpers -------------------------------------------------------------------


def opened(rules: Rules | None = None, dice: tuple[int, int] = (3, 1), **kw: object) -> Game:
    """A game after the opening throw ``dice`` (player 0's die first)."""
    game = Game(rules, **kw)  # type: ignore[arg-type]
    game.apply(Roll(0, dice))
    return game


def play_first(game: Game | Match) -> None:
    """The player on roll makes the first legal play."""
    g = game.game if isinstance(game, Match) else game
    game.apply(Move(g.turn, g.legal_plays()[0]))


def turn(game: Game, dice: tuple[int, int] = (2, 1)) -> None:
    """The player on roll rolls ``dice`` and makes the first legal play."""
    game.apply(Roll(game.turn, dice))
    if game.phase is Phase.MOVE:
        play_first(game)


def kinds(events: list) -> list[str]:  # type: ignore[type-arg]
    return [e.kind for e in events]


# -- the opening roll ------------------------------------------------------------------


def test_opening_ties_are_thrown_again() -> None:
    game = Game()
    events = game.apply(Roll(0, (4, 4)))
    assert kinds(events) == ["opening-tie"]
    assert game.phase is Phase.OPENING and game.rolled is None
    assert game.cube_value == 1  # automatic doubles are off by default
    game.apply(Roll(0, (2, 5)))
    assert game.phase is Phase.MOVE
    assert len(game.record) == 2


def test_the_higher_opening_die_starts_and_plays_both_numbers() -> None:
    game = Game()
    events = game.apply(Roll(0, (2, 5)))  # player 0 threw 2, player 1 threw 5
    assert kinds(events)[:2] == ["opening", "rolled"]
    assert game.turn == 1 and game.player_to_act == 1
    assert game.rolled == (5, 2)
    start = Position.initial()
    assert game.position == start  # seen from player 1, whose side looks the same
    assert set(game.legal_plays()) == set(start.legal_plays((5, 2)))
    play_first(game)
    assert game.turn == 0 and game.phase is Phase.ROLL

    game = Game()
    game.apply(Roll(0, (6, 1)))
    assert game.turn == 0 and game.rolled == (6, 1)
    game.apply(Move(0, "13/7 8/7"))
    assert game.position.swap().me[6] == 2  # player 0 made its 7 point


def test_automatic_doubles_on_equal_opening_throws_up_to_the_limit() -> None:
    game = Game(Rules(automatic_doubles=2))
    for expected in (2, 4, 4):
        events = game.apply(Roll(0, (3, 3)))
        assert game.cube_value == expected and game.cube_owner == CENTERED
    assert "auto-double" not in kinds(events)  # the third tie is past the limit of 2
    game.apply(Roll(0, (3, 1)))
    play_first(game)
    assert game.can_double(1)  # the cube stays centred

    game = Game(Rules(automatic_doubles=5, cube_limit=4))
    for _ in range(4):
        game.apply(Roll(0, (5, 5)))
    assert game.cube_value == 4  # never past the cube limit


def test_no_automatic_doubles_in_match_play() -> None:
    game = Game(Rules(match_length=5, automatic_doubles=3))
    game.apply(Roll(0, (2, 2)))
    assert game.cube_value == 1


# -- the cube ----------------------------------------------------------------------


def test_double_and_take_turn_the_cube_to_the_taker() -> None:
    game = opened()
    play_first(game)  # player 1 is on roll
    events = game.apply(Double(1))
    assert kinds(events) == ["doubled"] and events[0].data["cube"] == 2
    assert game.phase is Phase.DOUBLED and game.player_to_act == 0
    assert game.cube_value == 1  # not turned until taken
    game.apply(Take(0))
    assert (game.cube_value, game.cube_owner) == (2, 0)
    assert game.phase is Phase.ROLL and game.player_to_act == 1


def test_double_and_drop_ends_the_game_at_the_value_before_the_double() -> None:
    game = opened()
    play_first(game)
    game.apply(Double(1))
    game.apply(Drop(0))
    assert game.result is not None and (game.result.winner, game.result.points) == (1, 1)

    game = opened()
    play_first(game)
    game.apply(Double(1))
    game.apply(Take(0))
    turn(game)  # player 1 plays, player 0 owns the cube at 2
    game.apply(Double(0))
    events = game.apply(Drop(1))
    assert kinds(events) == ["dropped", "game-over"]
    assert game.is_over and game.result is not None
    assert (game.result.winner, game.result.points, game.result.kind) == (0, 2, ResultKind.SINGLE)
    assert game.result.dropped and game.result.cube == 2


def test_only_the_cube_owner_may_redouble() -> None:
    game = opened()
    play_first(game)
    game.apply(Double(1))
    game.apply(Take(0))
    assert not game.can_double(1)
    with pytest.raises(IllegalActionError, match="cannot double: the opponent owns the cube"):
        game.apply(Double(1))
    turn(game)
    assert game.can_double(0)
    game.apply(Double(0))
    game.apply(Take(1))
    assert (game.cube_value, game.cube_owner) == (4, 1)


@pytest.mark.parametrize("limit", [64, 8])
def test_the_cube_limit_refuses_further_doubles(limit: int) -> None:
    game = opened(Rules(cube_limit=limit))
    play_first(game)
    while game.cube_value < limit:
        game.apply(Double(game.turn))
        game.apply(Take(1 - game.turn))
        turn(game)
    assert game.cube_value == limit and not game.is_over
    assert not game.can_double()
    with pytest.raises(IllegalActionError, match=rf"the cube is at its limit \({limit}\)"):
        game.apply(Double(game.turn))


# "Beavers are one step.  After a beaver the original doubler answers it: take (the game
# goes on at four times the cube before the double, the beaverer owns the cube) or drop
# (loses twice the cube before the double).  No raccoons."


def _beavered() -> Game:
    game = opened(Rules(beavers=True))
    play_first(game)
    game.apply(Double(1))
    events = game.apply(Beaver(0))
    assert kinds(events) == ["beavered"]
    return game


def test_after_a_beaver_the_doubler_must_answer() -> None:
    game = _beavered()
    assert game.phase is Phase.BEAVERED and game.player_to_act == 1
    assert {type(a) for a in game.allowed_actions()} == {Take, Drop}  # no raccoon, no resignation
    assert all(a.player == 1 for a in game.allowed_actions())
    with pytest.raises(IllegalActionError) as info:
        game.apply(Roll(1, (3, 1)))
    assert info.value.reason is Reason.DOUBLE_PENDING


def test_a_taken_beaver_plays_on_at_four_times_the_cube_owned_by_the_beaverer() -> None:
    game = _beavered()
    game.apply(Take(1))
    assert (game.cube_value, game.cube_owner) == (4, 0)
    assert game.phase is Phase.ROLL and game.player_to_act == 1  # the doubler rolls
    assert not game.can_double(1)  # the beaverer owns the cube


def test_a_dropped_beaver_costs_the_doubler_twice_the_cube() -> None:
    game = _beavered()
    events = game.apply(Drop(1))
    assert kinds(events)[-1] == "game-over"
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.dropped) == (0, 2, True)


def test_no_raccoons() -> None:
    game = _beavered()
    before = game.snapshot()
    with pytest.raises(IllegalActionError) as info:
        game.apply(Beaver(1))
    assert info.value.reason is Reason.BEAVER_NOT_ALLOWED
    assert game.snapshot() == before


def test_the_beaverer_cannot_answer_his_own_beaver() -> None:
    game = _beavered()
    with pytest.raises(IllegalActionError) as info:
        game.apply(Take(0))
    assert info.value.reason is Reason.OUT_OF_TURN


@pytest.mark.parametrize("rules", [Rules(), Rules(match_length=7, beavers=True)])
def test_beaver_is_refused_without_beavers_or_in_match_play(rules: Rules) -> None:
    game = opened(rules)
    play_first(game)
    game.apply(Double(1))
    before = game.snapshot()
    with pytest.raises(IllegalActionError, match="beavers are only allowed in money play with beavers on") as e:
        game.apply(Beaver(0))
    assert e.value.reason is Reason.BEAVER_NOT_ALLOWED
    assert game.snapshot() == before


# -- scoring customs -------------------------------------------------------------------

#: Player 0 bears off its last checker with any roll; player 1 has 15 checkers
#: on its 13 point (none off, none in player 0's home board): a plain gammon.
GAMMON_NEXT = pos("x: 1:1; o: 13:15")


def gammon_game(rules: Rules, *, turn_cube: bool) -> Game:
    """Player 0 wins a gammon at once, or after player 1 doubled and player 0 took."""
    game = Game(rules, position=GAMMON_NEXT)
    if not turn_cube:
        game.apply(Roll(0, (6, 1)))
        play_first(game)
        return game
    game.apply(Roll(0, (1, 2)))  # player 1 starts
    play_first(game)
    game.apply(Double(0))
    game.apply(Take(1))
    turn(game, (6, 1))
    return game


@pytest.mark.parametrize(
    ("rules", "turn_cube", "points"),
    [
        (Rules(), False, 2),
        (Rules(jacoby=True), False, 1),  # Jacoby: a gammon counts single while the cube is centred
        (Rules(jacoby=True), True, 4),  # ... and double once the cube was turned (cube 2)
        (Rules(jacoby=True, match_length=5), False, 2),  # no Jacoby rule in match play
        (Rules(gammons=False), False, 1),  # gammons off: a gammon is a single game
        (Rules(gammons=False), True, 2),
    ],
)
def test_gammon_scoring(rules: Rules, turn_cube: bool, points: int) -> None:
    game = gammon_game(rules, turn_cube=turn_cube)
    assert game.is_over and game.result is not None
    assert (game.result.winner, game.result.kind) == (0, ResultKind.GAMMON)
    assert game.result.points == points


def test_backgammon_scores_three() -> None:
    game = Game(position=pos("x: 1:1; o: 13:14 19:1"))  # a loser checker in the winner's home
    game.apply(Roll(0, (6, 1)))
    play_first(game)
    assert game.result is not None and game.result.kind is ResultKind.BACKGAMMON
    assert game.result.points == 3


@pytest.mark.parametrize(
    ("kind", "points"),
    [(ResultKind.SINGLE, 2), (ResultKind.GAMMON, 4), (ResultKind.BACKGAMMON, 6)],
)
def test_resignation_scores_the_kind_times_the_cube(kind: ResultKind, points: int) -> None:
    game = opened()
    play_first(game)
    game.apply(Double(1))
    game.apply(Take(0))  # cube 2, player 1 on roll
    events = game.apply(Resign(1, kind))
    assert kinds(events) == ["resigned"] and game.phase is Phase.RESIGNED
    assert game.player_to_act == 0
    events = game.apply(AcceptResignation(0))
    assert kinds(events) == ["resignation-accepted", "game-over"]
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.resigned) == (0, points, True)


def test_resignation_in_money_play_with_jacoby_and_a_centred_cube_counts_single() -> None:
    game = opened(Rules(jacoby=True))
    game.apply(Resign(0, ResultKind.GAMMON))
    game.apply(AcceptResignation(1))
    assert game.result is not None and game.result.points == 1


@pytest.mark.parametrize("phase", [Phase.ROLL, Phase.MOVE, Phase.DOUBLED])
def test_a_rejected_resignation_returns_to_the_same_phase(phase: Phase) -> None:
    game = opened()
    if phase is not Phase.MOVE:
        play_first(game)
    if phase is Phase.DOUBLED:
        game.apply(Double(1))
    before = game.snapshot()
    resigner = game.player_to_act
    game.apply(Resign(resigner, ResultKind.SINGLE))
    events = game.apply(RejectResignation(1 - resigner))
    assert kinds(events) == ["resignation-rejected"]
    after = game.snapshot()
    assert after["record"] == before["record"] + 2  # type: ignore[operator]
    assert {k: v for k, v in after.items() if k != "record"} == {
        k: v for k, v in before.items() if k != "record"
    }
    assert game.phase is phase and game.player_to_act == resigner


# -- match play -----------------------------------------------------------------------


def end_game(match: Match, winner: int, kind: ResultKind = ResultKind.SINGLE) -> None:
    """End the current game by an accepted resignation: ``winner`` scores ``kind``.

    A finished game is followed by the explicit ``NewGame`` that starts the next.
    """
    if match.game.is_over:
        match.apply(NewGame())
    match.apply(Roll(0, (3, 1)))  # player 0 starts
    if winner == 0:
        play_first(match)
    match.apply(Resign(1 - winner, kind))
    match.apply(AcceptResignation(winner))


def test_crawford_game_post_crawford_and_the_end_of_the_match() -> None:
    match = Match(Rules(match_length=5))
    assert not match.game.crawford_game
    end_game(match, 1, ResultKind.GAMMON)
    end_game(match, 0, ResultKind.SINGLE)
    end_game(match, 0, ResultKind.GAMMON)
    assert match.score == [3, 2]
    assert not match.is_crawford_next()
    end_game(match, 0)
    assert match.score == [4, 2] and match.is_crawford_next()

    # The Crawford game: no doubling for either player.  (Actions go through the
    # match, which keeps the score.)
    crawford = match.next_game()
    assert crawford.crawford_game and not match.is_post_crawford
    match.apply(Roll(0, (3, 1)))
    play_first(match)
    assert not crawford.can_double()
    with pytest.raises(IllegalActionError, match="cannot double: no doubling in the Crawford game"):
        match.apply(Double(1))
    turn(crawford)
    assert not crawford.can_double()
    match.apply(Resign(0, ResultKind.SINGLE))
    match.apply(AcceptResignation(1))
    assert match.score == [4, 3]

    # Post-Crawford: the cube is back, and there is only one Crawford game.
    assert not match.is_crawford_next()
    game = match.next_game()
    assert not game.crawford_game and match.is_post_crawford
    game.apply(Roll(0, (3, 1)))
    play_first(game)
    assert game.can_double(1)
    match.apply(Double(1))
    match.apply(Take(0))
    match.apply(Resign(1, ResultKind.SINGLE))
    match.apply(AcceptResignation(0))
    assert match.score == [6, 3] and match.is_over and match.winner == 0
    with pytest.raises(IllegalActionError, match="the match is over"):
        match.apply(Roll(0, (3, 1)))


def test_no_second_crawford_game_after_the_trailer_catches_up() -> None:
    match = Match(Rules(match_length=3))
    end_game(match, 0, ResultKind.GAMMON)  # 2-0: the next game is the Crawford game
    end_game(match, 1)
    assert match.games[-1].crawford_game and match.score == [2, 1]
    end_game(match, 1)  # 2-2: both one point from winning, post-Crawford
    assert not match.games[-1].crawford_game
    end_game(match, 1)
    assert match.score == [2, 3] and match.winner == 1
    assert sum(g.crawford_game for g in match.games) == 1


def test_the_first_game_of_a_one_point_match_is_not_a_crawford_game() -> None:
    match = Match(Rules(match_length=1))
    assert not match.game.crawford_game
    end_game(match, 1)
    assert match.is_over and match.winner == 1


def test_no_crawford_rule_when_it_is_off() -> None:
    match = Match(Rules(match_length=3, crawford=False))
    end_game(match, 0, ResultKind.GAMMON)
    end_game(match, 1)
    assert not any(g.crawford_game for g in match.games)


def test_money_session_ends_after_its_game_limit() -> None:
    match = Match(Rules(), games_limit=2)
    end_game(match, 0, ResultKind.GAMMON)
    assert not match.is_over
    end_game(match, 1)
    assert match.is_over and match.score == [2, 1] and match.winner == 0


# -- variants ---------------------------------------------------------------------


def test_acey_deucey_one_two_names_a_double_then_rolls_again() -> None:
    game = Game(Rules(variant="acey-deucey"))
    game.apply(Roll(0, (5, 3)))  # player 0 wins the opening throw and throws anew
    assert game.turn == 0 and game.phase is Phase.ROLL
    game.apply(Roll(0, (2, 1)))  # acey-deucey
    assert game.turn == 0 and game.phase is Phase.MOVE
    events = game.apply(Move(0, game.legal_plays()[0]))
    assert "choose-double" in kinds(events)
    assert game.phase is Phase.CHOOSE_DOUBLE and game.player_to_act == 0
    game.apply(ChooseDouble(0, 4))
    assert game.phase is Phase.MOVE and game.rolled == (4, 4)
    plays = game.legal_plays()
    assert plays and all(p.dice_used == 4 for p in plays)
    events = game.apply(Move(0, plays[0]))
    assert "roll-again" in kinds(events)
    assert game.phase is Phase.ROLL and game.turn == 0  # the same player rolls again
    game.apply(Roll(0, (6, 5)))
    play_first(game)
    assert game.turn == 1  # an ordinary roll passes the turn


def test_acey_deucey_has_no_cube() -> None:
    game = opened(Rules(variant="acey-deucey", opening="use-opening-dice"), (5, 3))
    play_first(game)
    assert not game.can_double()
    with pytest.raises(IllegalActionError, match="cannot double: the cube is not used in this game"):
        game.apply(Double(1))


def test_acey_deucey_loser_pays_per_checker_left() -> None:
    position = pos("x: 1:1; o: 13:4 bar:6", "acey-deucey")
    game = Game(Rules(variant="acey-deucey", opening="use-opening-dice"), position=position)
    game.apply(Roll(0, (6, 1)))
    play_first(game)
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.checkers_left) == (0, 10, 10)


def test_dutch_scoring_is_normal() -> None:
    game = Game(Rules(variant="dutch", opening="use-opening-dice"), position=pos("x: 1:1; o: 13:15", "dutch"))
    game.apply(Roll(0, (6, 1)))
    play_first(game)
    assert game.result is not None
    assert (game.result.kind, game.result.points) == (ResultKind.GAMMON, 2)
    game = Game(Rules(variant="dutch", opening="use-opening-dice"), position=pos("x: 1:1; o: 13:14", "dutch"))
    game.apply(Roll(0, (6, 1)))
    play_first(game)
    assert game.result is not None and game.result.points == 1


# -- illegal actions: a precise error and no change ----------------------------------------


def _over() -> Game:
    game = opened()
    play_first(game)
    game.apply(Double(1))
    game.apply(Drop(0))
    return game


def _resigned() -> Game:
    game = opened()
    game.apply(Resign(0))
    return game


def _crawford() -> Game:
    game = opened(crawford_game=True)
    play_first(game)
    return game


def _ready() -> Game:
    game = opened()
    play_first(game)
    return game


ILLEGAL: list[tuple[str, Callable[[], Game], Action, str, Reason]] = [
    ("move out of turn", opened, Move(1, "24/21 24/23"),
     "cannot move: it is player 0's turn to act, not player 1's", Reason.OUT_OF_TURN),
    ("roll out of turn", _ready, Roll(0, (3, 1)),
     "cannot roll: it is player 1's turn to act, not player 0's", Reason.OUT_OF_TURN),
    ("double out of turn", _ready, Double(0), "cannot double: only player 1, who is on roll, may double",
     Reason.OUT_OF_TURN),
    ("play before rolling", _ready, Move(1, "24/21 24/23"),
     "cannot move now: the game is in the roll phase", Reason.NOT_ROLLED),
    ("double after rolling", opened, Double(0),
     "cannot double: a double is offered before rolling, not in the move phase", Reason.ALREADY_ROLLED),
    ("double in the Crawford game", _crawford, Double(1), "cannot double: no doubling in the Crawford game",
     Reason.CRAWFORD_NO_DOUBLE),
    ("take with no double", _ready, Take(0), "cannot take now: the game is in the roll phase",
     Reason.NO_DOUBLE_PENDING),
    ("drop with no double", _ready, Drop(0), "cannot drop now: the game is in the roll phase",
     Reason.NO_DOUBLE_PENDING),
    ("illegal play", opened, Move(0, Position.initial()), "that play is not legal for 3-1",
     Reason.ILLEGAL_PLAY),
    ("illegal play notation", opened, Move(0, "24/18"), "24/18", Reason.ILLEGAL_PLAY),
    ("roll twice", opened, Roll(0, (5, 5)), "cannot roll now: the game is in the move phase",
     Reason.ALREADY_ROLLED),
    ("no dice source", _ready, Roll(1), "no dice source: give the dice with the roll", Reason.BAD_VALUE),
    ("accept by the resigner", _resigned, AcceptResignation(0),
     "cannot accept: only player 1 may answer the resignation", Reason.OUT_OF_TURN),
    ("reject by the resigner", _resigned, RejectResignation(0),
     "cannot reject: only player 1 may answer the resignation", Reason.OUT_OF_TURN),
    ("accept with no resignation", opened, AcceptResignation(1), "cannot accept: no resignation is offered",
     Reason.NO_RESIGN_PENDING),
    ("resign twice", _resigned, Resign(1), "cannot resign in the resigned phase", Reason.RESIGN_PENDING),
    ("roll while a resignation is pending", _resigned, Roll(0, (3, 1)), "resigned phase",
     Reason.RESIGN_PENDING),
    ("resign out of turn", opened, Resign(1), "cannot resign: it is player 0's turn to act",
     Reason.OUT_OF_TURN),
    ("resign before the opening roll", Game, Resign(0), "cannot resign in the opening phase",
     Reason.NOT_ROLLED),
    ("choose a double without acey-deucey", opened, ChooseDouble(0, 3),
     "cannot choose a double now: the game is in the move phase", Reason.ALREADY_ROLLED),
    ("roll after the game is over", _over, Roll(1, (3, 1)), "the game is over", Reason.GAME_OVER),
    ("double after the game is over", _over, Double(0), "the game is over", Reason.GAME_OVER),
    ("take after the game is over", _over, Take(0), "the game is over", Reason.GAME_OVER),
    ("new game inside a game", _ready, NewGame(), "still being played", Reason.GAME_IN_PROGRESS),
]


@pytest.mark.parametrize(
    ("make", "action", "message", "reason"), [case[1:] for case in ILLEGAL], ids=[case[0] for case in ILLEGAL]
)
def test_illegal_actions_raise_and_change_nothing(
    make: Callable[[], Game], action: Action, message: str, reason: Reason
) -> None:
    game = make()
    before = game.snapshot()
    record = list(game.record)
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    assert message in str(info.value)
    assert info.value.reason is reason
    assert game.snapshot() == before
    assert game.record == record


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Roll(1, (7, 1)), "dice must be two numbers from 1 to 6"),
        (lambda: Roll(2, (3, 1)), "player must be 0 or 1, not 2"),
        (lambda: Resign(0, 7), "a resignation is single (1), gammon (2) or backgammon (3)"),
        (lambda: ChooseDouble(0, 7), "the double must be a number from 1 to 6"),
        (lambda: Move(0, 42), "a move is a Play, a Position or notation"),
        (lambda: Take(True), "player must be 0 or 1"),
    ],
)
def test_actions_are_checked_when_built(build: Callable[[], Action], message: str) -> None:
    # "Actions are validated when built (a bad resignation kind fails at construction)."
    with pytest.raises(IllegalActionError) as info:
        build()
    assert message in str(info.value)
    assert info.value.reason is Reason.BAD_VALUE


def test_illegal_action_in_a_match_changes_nothing() -> None:
    match = Match(Rules(match_length=3))
    match.apply(Roll(0, (3, 1)))
    before = (match.game.snapshot(), list(match.score), len(match.games))
    with pytest.raises(IllegalActionError, match="cannot take now"):
        match.apply(Take(1))
    assert (match.game.snapshot(), list(match.score), len(match.games)) == before
    with pytest.raises(IllegalActionError, match="the current game is not over yet") as info:
        match.next_game()
    assert info.value.reason is Reason.GAME_IN_PROGRESS


def test_beaver_refusals_name_their_reason() -> None:
    game = _beavered()
    with pytest.raises(IllegalActionError) as info:
        game.apply(Beaver(1))
    assert str(info.value) == "cannot beaver a beaver: gammon plays no raccoons"
    fresh = opened(Rules(beavers=True))
    play_first(fresh)
    with pytest.raises(IllegalActionError) as info:
        fresh.apply(Beaver(0))  # nothing to beaver: no double is offered
    assert str(info.value) == "cannot beaver now: the game is in the roll phase"
    assert info.value.reason is Reason.NO_DOUBLE_PENDING


def test_who_may_beaver() -> None:
    """Only the player doubled, only while the double waits, only in money play with beavers on,
    and only while four times the cube stays within its limit."""
    game = opened(Rules(beavers=True))
    play_first(game)
    assert not game.can_beaver() and not game.can_beaver(0)  # no double yet
    game.apply(Double(1))
    assert game.can_beaver() and game.can_beaver(0)  # the default is the player doubled
    assert not game.can_beaver(1)  # not the doubler
    game.apply(Beaver(0))
    assert not game.can_beaver() and not game.can_beaver(0) and not game.can_beaver(1)
    plain = opened(Rules())
    play_first(plain)
    plain.apply(Double(1))
    assert not plain.can_beaver() and not plain.can_beaver(0)
    low = opened(Rules(beavers=True, cube_limit=2))
    play_first(low)
    low.apply(Double(1))
    assert not low.can_beaver(0)
    with pytest.raises(IllegalActionError) as info:
        low.apply(Beaver(0))
    assert str(info.value) == "cannot beaver: the cube would pass its limit (2)"
    assert info.value.reason is Reason.CUBE_AT_MAX


# "allowed_actions: every action that apply accepts now (a Move per legal play)."


def _candidates(game: Game, rng: random.Random) -> list[Action]:
    """Actions of every kind for both players, legal or not."""
    out: list[Action] = []
    for p in (0, 1):
        out += [Roll(p, (rng.randint(1, 6), rng.randint(1, 6))), Double(p), Take(p), Drop(p),
                Beaver(p), AcceptResignation(p), RejectResignation(p)]
        out += [Resign(p, kind) for kind in ResultKind]
        out += [ChooseDouble(p, n) for n in range(1, 7)]
        if game.rolled is not None:
            out += [Move(p, play) for play in game.position.legal_plays(game.rolled)]
    return out


def _accepted(game: Game, action: Action) -> bool:
    trial = copy.deepcopy(game)
    try:
        trial.apply(action)
    except IllegalActionError:
        return False
    return True


def _same_kind(a: Action, b: Action) -> bool:
    """Equal, a roll's dice aside (allowed_actions lists a roll without its dice: any dice)."""
    if isinstance(a, Roll) and isinstance(b, Roll):
        return a.player == b.player
    return a == b


@pytest.mark.parametrize("rules", [
    Rules(beavers=True), Rules(match_length=5), Rules(variant="acey-deucey"), Rules(jacoby=True, cube_limit=4),
], ids=["money-beavers", "match", "acey-deucey", "jacoby-limit"])
def test_allowed_actions_are_exactly_what_apply_accepts(rules: Rules) -> None:
    rng = random.Random(7)
    seen: set[Phase] = set()
    for _ in range(4):
        game = Game(rules)
        for _ in range(60):
            if game.phase is Phase.OVER:
                break
            seen.add(game.phase)
            allowed = game.allowed_actions()
            assert len(allowed) == len({repr(a) for a in allowed}), allowed  # no duplicates
            for action in _candidates(game, rng):
                listed = any(_same_kind(action, a) for a in allowed)
                assert _accepted(game, action) == listed, (game.phase, action, allowed)
            # play on with an allowed action (a roll with dice thrown here; resigning seldom,
            # doubling often, so that every phase is reached)
            calm = [a for a in allowed if not isinstance(a, Resign)] or allowed
            doubles = [a for a in allowed if isinstance(a, Double)]
            r = rng.random()
            action = rng.choice(allowed if r < 0.15 else doubles if doubles and r < 0.45 else calm)
            if isinstance(action, Roll):
                action = Roll(action.player, (rng.randint(1, 6), rng.randint(1, 6)))
            game.apply(action)
    # the walk reached the phases where the lists differ
    assert {Phase.OPENING, Phase.ROLL, Phase.MOVE, Phase.RESIGNED} <= seen
    assert (Phase.DOUBLED if rules.uses_cube else Phase.CHOOSE_DOUBLE) in seen


def test_the_game_over_event_names_winner_points_and_kind() -> None:
    game = opened(Rules())
    play_first(game)
    game.apply(Double(1))
    events = game.apply(Drop(0))
    end = events[-1]
    assert (end.kind, end.player) == ("game-over", 1)
    assert end.text == "player 1 wins 1 point (drop)"
    assert end.data == {"points": 1, "kind": "single"}
    assert game.rolled is None and game.doubled_by is None
    beavered = _beavered()
    end = beavered.apply(Drop(1))[-1]
    assert (end.player, end.text) == (0, "player 0 wins 2 points (drop)")
    assert end.data == {"points": 2, "kind": "single"}


# -- the cube's refusals: the exact message, the reason, and nothing changed ---------------
# "Every refusal raises IllegalActionError with a Reason and changes nothing"; the cube's
# rules: a double is offered before rolling, only by the player on roll, never without a
# cube or in the Crawford game, only from the centre or by the cube's owner, and never past
# the cube limit; a beaver only by the player doubled, in money play with beavers on, and
# only while four times the cube stays within the limit.


def _taken() -> Game:
    """Player 1 doubled, player 0 took: player 1 is on roll, player 0 owns the cube at 2."""
    game = _ready()
    game.apply(Double(1))
    game.apply(Take(0))
    return game


def _owner_on_roll_at_limit() -> Game:
    """Cube limit 2, the cube at 2 owned by player 0, who is on roll."""
    game = opened(Rules(cube_limit=2))
    play_first(game)
    game.apply(Double(1))
    game.apply(Take(0))
    turn(game)
    return game


def _no_cube() -> Game:
    game = opened(Rules(cube=False))
    play_first(game)
    return game


def _doubled_with_beavers(limit: int = 64) -> Game:
    game = opened(Rules(beavers=True, cube_limit=limit))
    play_first(game)
    game.apply(Double(1))
    return game


def _doubled_without_beavers() -> Game:
    game = _ready()
    game.apply(Double(1))
    return game


CUBE_REFUSALS: list[tuple[str, Callable[[], Game], Action, str, Reason]] = [
    ("double without a cube", _no_cube, Double(1),
     "cannot double: the cube is not used in this game", Reason.CUBE_DISABLED),
    ("double in the Crawford game", _crawford, Double(1),
     "cannot double: no doubling in the Crawford game", Reason.CRAWFORD_NO_DOUBLE),
    ("redouble by the player who does not own the cube", _taken, Double(1),
     "cannot double: the opponent owns the cube", Reason.NOT_CUBE_OWNER),
    ("double past the cube limit", _owner_on_roll_at_limit, Double(0),
     "cannot double: the cube is at its limit (2)", Reason.CUBE_AT_MAX),
    ("double by the player not on roll", _ready, Double(0),
     "cannot double: only player 1, who is on roll, may double", Reason.OUT_OF_TURN),
    ("beaver by the doubler", _doubled_with_beavers, Beaver(1),
     "cannot beaver: only player 0 answers the double", Reason.OUT_OF_TURN),
    ("beaver without beavers", _doubled_without_beavers, Beaver(0),
     "cannot beaver: beavers are only allowed in money play with beavers on", Reason.BEAVER_NOT_ALLOWED),
    ("beaver past the cube limit", lambda: _doubled_with_beavers(2), Beaver(0),
     "cannot beaver: the cube would pass its limit (2)", Reason.CUBE_AT_MAX),
    ("a raccoon", _beavered, Beaver(1),
     "cannot beaver a beaver: gammon plays no raccoons", Reason.BEAVER_NOT_ALLOWED),
]


@pytest.mark.parametrize(
    ("make", "action", "message", "reason"),
    [case[1:] for case in CUBE_REFUSALS], ids=[case[0] for case in CUBE_REFUSALS],
)
def test_cube_refusals_say_exactly_why_and_change_nothing(
    make: Callable[[], Game], action: Action, message: str, reason: Reason
) -> None:
    game = make()
    before = game.snapshot()
    record = list(game.record)
    may = game.can_double if isinstance(action, Double) else game.can_beaver
    assert not may(action.player)
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    assert str(info.value) == message
    assert info.value.reason is reason
    assert game.snapshot() == before and game.record == record


def test_only_the_player_on_roll_may_double() -> None:
    game = _ready()  # player 1 on roll, the cube centred
    assert game.can_double(1) and game.can_double()
    assert not game.can_double(0)


def test_a_beaver_is_allowed_while_four_times_the_cube_stays_within_the_limit() -> None:
    game = _doubled_with_beavers(4)  # 4 x 1 = 4: exactly the limit
    assert game.can_beaver(0)
    game.apply(Beaver(0))
    game.apply(Take(1))
    assert (game.cube_value, game.cube_owner) == (4, 0)


# -- what the cube actions and resignations report ---------------------------------------
# An Event: "kind names it, player did it, text says it", and data carries the numbers the
# interfaces show (the cube after a double or a take, the kind of a resignation).


def test_a_double_names_the_doubler_and_the_cube_offered() -> None:
    game = _ready()
    events = game.apply(Double(1))
    assert events == [Event("doubled", 1, "player 1 doubles to 2", {"cube": 2})]
    assert game.doubled_by == 1 and game.cube_value == 1


def test_a_take_turns_the_cube_and_says_so() -> None:
    game = _ready()
    game.apply(Double(1))
    events = game.apply(Take(0))
    assert events == [Event("took", 0, "player 0 takes; the cube is 2", {"cube": 2})]
    assert (game.cube_value, game.cube_owner, game.doubled_by) == (2, 0, None)
    assert game.phase is Phase.ROLL and game.turn == 1  # the doubler rolls


def test_a_taken_beaver_says_the_cube_and_its_owner() -> None:
    game = _beavered()
    events = game.apply(Take(1))
    text = "player 1 takes the beaver; the cube is 4, owned by player 0"
    assert events == [Event("took", 1, text, {"cube": 4})]
    assert game.doubled_by is None


def test_a_drop_names_the_dropper_and_ends_the_game() -> None:
    game = _ready()
    game.apply(Double(1))
    events = game.apply(Drop(0))
    assert events[0] == Event("dropped", 0, "player 0 drops", {})
    assert [e.kind for e in events[1:]] == ["game-over"]


@pytest.mark.parametrize("kind", list(ResultKind))
def test_a_resignation_offer_names_the_resigner_and_the_kind(kind: ResultKind) -> None:
    game = _ready()  # player 1 on roll
    events = game.apply(Resign(1, kind))
    name = kind.name.lower()
    assert events == [Event("resigned", 1, f"player 1 offers to resign a {name}", {"kind": name})]
    assert game.resignation == (1, kind)


def test_a_game_won_by_play_is_neither_resigned_nor_dropped() -> None:
    game = Game(position=GAMMON_NEXT)
    game.apply(Roll(0, (6, 1)))
    events = game.apply(Move(0, game.legal_plays()[0]))
    assert game.result is not None
    assert (game.result.resigned, game.result.dropped) == (False, False)
    end = Event("game-over", 0, "player 0 wins 2 points (gammon)", {"points": 2, "kind": "gammon"})
    assert events[-1] == end


def test_a_resignation_by_the_player_on_roll_counts_the_resigners_checkers() -> None:
    # The loser's checkers left are the resigner's, whoever is on roll (Acey-Deucey scores them).
    game = Game(position=pos("x: 1:3; o: 13:15"))
    game.apply(Roll(0, (6, 1)))  # player 0 (3 checkers left) is on roll and resigns
    game.apply(Resign(0, ResultKind.SINGLE))
    game.apply(AcceptResignation(1))
    assert game.result is not None
    assert (game.result.winner, game.result.checkers_left, game.result.resigned) == (1, 3, True)
