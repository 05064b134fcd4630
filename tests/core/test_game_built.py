"""A game built at any state: the same game as one played there, refused when impossible.

``Game(rules, position=..., turn=..., phase=..., ...)`` builds a game in the
middle.  The rules checked here:

* a game built at a state is the game that reached that state by playing:
  the same snapshot (who doubled, whether a beaver is pending, ...), and it
  goes on by the same rules (a built beaver is answered by the doubler at
  four times the cube);
* a state that cannot exist is refused with a ``GammonError`` that names the
  reason ("impossible game state: <why>"), and every state at the edge of a
  rule (the cube at its limit, a beaver answered by player 1, the Acey-Deucey
  1-2 being played, a resignation from the choose-double phase) is built;
* ``repr(game)`` is a call that builds the same state again;
* ``snapshot()`` holds every piece of the state, each under its own name;
* ``Game.replay(rules, record, crawford_game=..., score=...)`` rebuilds the
  same state from the record.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from boards import pos
from gammon import CENTERED, GammonError, Position, ResultKind
from gammon.core.actions import Double, Drop, Move, Resign, Roll, Take
from gammon.core.game import Game, Phase
from gammon.core.phase import BONUS_CHOOSE, BONUS_DOUBLE, BONUS_ONE_TWO
from gammon.core.rules import Rules

ACEY = Rules(variant="acey-deucey")
#: An asymmetric position (player on roll played 8/5 6/5), so that a swap shows.
AFTER_31 = pos("x: 24:2 13:5 8:2 6:4 5:2; o: 24:2 13:5 8:3 6:5")
ENV = {"Game": Game, "Rules": Rules, "Position": Position, "Phase": Phase, "ResultKind": ResultKind}


def state(game: Game) -> dict[str, object]:
    """The snapshot without the history (a built game has played no actions)."""
    return {k: v for k, v in game.snapshot().items() if k not in ("record", "plays")}


def rebuilt(game: Game) -> Game:
    """The game ``repr(game)`` builds."""
    return eval(repr(game), dict(ENV))  # noqa: S307  # the repr is documented as a call that builds it


def played_to_roll(rules: Rules) -> Game:
    """Player 0 opened with 3-1 (8/5 6/5): player 1 is on roll."""
    game = Game(rules)
    game.apply(Roll(0, (3, 1)))
    game.play("8/5 6/5")
    assert game.phase is Phase.ROLL and game.turn == 1
    return game


# -- a built game is the game reached by playing ----------------------------------------------


def test_a_built_double_is_the_double_offered_in_play() -> None:
    played = played_to_roll(Rules())
    played.apply(Double(1))
    built = Game(Rules(), position=played.position, turn=1, phase=Phase.DOUBLED)
    assert built.doubled_by == 1 and built.beavered is False  # the doubler is the player on roll
    assert built.player_to_act == 0
    assert state(built) == state(played)


def test_a_built_beaver_is_the_beaver_made_in_play_and_goes_on_at_four_times_the_cube() -> None:
    rules = Rules(beavers=True)
    played = played_to_roll(rules)
    played.apply(Double(1))
    played.beaver()
    # "The beaverer has taken at twice the cube (and owns it) and redoubles at once."
    built = Game(rules, position=played.position, turn=1, phase=Phase.BEAVERED, cube_value=2, cube_owner=0)
    assert built.doubled_by == 1 and built.beavered is True
    assert state(built) == state(played)
    assert built.player_to_act == 1 and built.allowed_actions() == [Take(1), Drop(1)]
    built.take()
    assert (built.cube_value, built.cube_owner, built.phase) == (4, 0, Phase.ROLL)


def test_a_taken_beaver_leaves_no_beaver_pending() -> None:
    """Once the doubler takes the beaver the game is back to rolling at four times the cube,
    owned by the beaverer: the same state as a game built there (nothing pending, nobody
    doubling), and its repr builds it again."""
    rules = Rules(beavers=True)
    played = played_to_roll(rules)
    played.apply(Double(1))
    played.beaver()
    played.take()
    assert played.beavered is False and played.doubled_by is None
    built = Game(rules, position=played.position, turn=1, phase=Phase.ROLL, cube_value=4, cube_owner=0)
    assert state(built) == state(played)
    assert state(rebuilt(played)) == state(played)


def test_a_built_game_without_a_pending_double_has_no_doubler() -> None:
    for phase, rolled in ((Phase.ROLL, None), (Phase.MOVE, (6, 5)), (Phase.OPENING, None)):
        game = Game(Rules(), phase=phase, rolled=rolled)
        assert game.doubled_by is None and game.beavered is False, phase


def test_a_built_beaver_answered_by_player_1_is_built() -> None:
    # Player 1 doubled, player 0 beavered and owns the cube; player 1 answers.
    game = Game(Rules(beavers=True), turn=1, phase=Phase.BEAVERED, cube_value=2, cube_owner=0)
    assert game.player_to_act == 1 and game.beavered
    game.drop()
    # "A dropped beaver costs the doubler twice the cube before his double."
    assert game.result is not None and (game.result.winner, game.result.points) == (0, 2)


def test_a_built_resignation_is_the_one_offered_in_play_and_a_rejection_goes_back() -> None:
    for player_resigning in (0, 1):
        played = Game(Rules(), turn=player_resigning, phase=Phase.MOVE, rolled=(6, 5),
                      position=AFTER_31)
        played.apply(Resign(player_resigning, ResultKind.GAMMON))
        built = Game(Rules(), turn=player_resigning, phase=Phase.RESIGNED, rolled=(6, 5), position=AFTER_31,
                     resignation=(player_resigning, ResultKind.GAMMON), resigned_from=Phase.MOVE)
        assert state(built) == state(played)
        assert built.player_to_act == 1 - player_resigning
        built.reject_resignation()
        assert built.phase is Phase.MOVE and built.rolled == (6, 5) and built.turn == player_resigning


def test_a_built_game_in_the_move_phase_plays_on_by_the_rules() -> None:
    played = played_to_roll(Rules())
    played.apply(Roll(1, (6, 4)))
    built = Game(Rules(), position=played.position, turn=1, phase=Phase.MOVE, rolled=(6, 4))
    assert state(built) == state(played)
    built.apply(Move(1, "24/14"))
    played.apply(Move(1, "24/14"))
    assert state(built) == state(played)


# -- impossible states are refused, each with its reason ------------------------------------

MATCH = Rules(match_length=5)
NO_CUBE = Rules(cube=False)


@pytest.mark.parametrize(
    ("rules", "kwargs", "why"),
    [
        (Rules(), {"position": Position.initial("nackgammon")},
         "the position is Nackgammon, the rules Backgammon"),
        (Rules(), {"position": pos("x: ; o: 6:2")},
         "the position is already over; replay the game to reach its end"),
        (Rules(), {"position": pos("x: 6:2; o: "), "phase": Phase.ROLL},
         "the position is already over; replay the game to reach its end"),
        (Rules(), {"turn": 2}, "turn must be player 0 or 1, not 2"),
        (Rules(), {"turn": True}, "turn must be player 0 or 1, not True"),
        (Rules(), {"phase": Phase.OVER}, "a finished game is reached by playing it, not built"),
        (Rules(), {"phase": Phase.MOVE}, "dice are rolled exactly in the move phase"),
        (Rules(), {"phase": Phase.ROLL, "rolled": (3, 1)}, "dice are rolled exactly in the move phase"),
        (Rules(), {"cube_value": 3}, "the cube must be a power of two up to 64, not 3"),
        (Rules(), {"cube_value": 128}, "the cube must be a power of two up to 64, not 128"),
        (Rules(), {"cube_value": 0}, "the cube must be a power of two up to 64, not 0"),
        (Rules(), {"cube_owner": 2}, r"the cube owner must be -1 \(centred\), 0 or 1, not 2"),
        (NO_CUBE, {"cube_value": 2}, "the cube is not used in this game"),
        (NO_CUBE, {"cube_owner": 0}, "the cube is not used in this game"),
        (ACEY, {"cube_value": 2, "position": Position.initial("acey-deucey")},
         "the cube is not used in this game"),
        (MATCH, {"crawford_game": True, "cube_value": 2, "cube_owner": 0},
         "the Crawford game is played in a match without the cube"),
        (MATCH, {"crawford_game": True, "cube_owner": 1},
         "the Crawford game is played in a match without the cube"),
        (MATCH, {"crawford_game": True, "score": (4, 2), "phase": Phase.DOUBLED},
         "no double can be pending without the cube"),
        (NO_CUBE, {"phase": Phase.DOUBLED}, "no double can be pending without the cube"),
        (Rules(), {"phase": Phase.DOUBLED, "cube_value": 2, "cube_owner": 1},
         "the doubler does not own the cube"),
        (Rules(), {"phase": Phase.DOUBLED, "turn": 1, "cube_value": 2, "cube_owner": 0},
         "the doubler does not own the cube"),
        # A beaver: money play with beavers on, the beaverer (the doubler's opponent) owning the cube.
        (Rules(match_length=5, beavers=True), {"phase": Phase.BEAVERED, "cube_value": 2, "cube_owner": 1},
         "a beaver is pending only in money play with beavers, the beaverer owning the cube"),
        (MATCH, {"phase": Phase.BEAVERED, "cube_value": 2, "cube_owner": 1},
         "a beaver is pending only in money play with beavers, the beaverer owning the cube"),
        (Rules(), {"phase": Phase.BEAVERED, "cube_value": 2, "cube_owner": 1},
         "a beaver is pending only in money play with beavers, the beaverer owning the cube"),
        (Rules(beavers=True), {"phase": Phase.BEAVERED, "cube_value": 2},
         "a beaver is pending only in money play with beavers, the beaverer owning the cube"),
        (Rules(beavers=True), {"phase": Phase.BEAVERED, "cube_value": 2, "cube_owner": 0},
         "a beaver is pending only in money play with beavers, the beaverer owning the cube"),
        (Rules(beavers=True), {"phase": Phase.BEAVERED, "turn": 1, "cube_value": 2, "cube_owner": 1},
         "a beaver is pending only in money play with beavers, the beaverer owning the cube"),
        (Rules(), {"phase": Phase.RESIGNED}, "a resignation is pending exactly in the resigned phase"),
        (Rules(), {"phase": Phase.ROLL, "resignation": (0, ResultKind.SINGLE)},
         "a resignation is pending exactly in the resigned phase"),
        (Rules(), {"phase": Phase.RESIGNED, "resignation": (2, ResultKind.SINGLE), "resigned_from": Phase.ROLL},
         "the resigner must be player 0 or 1"),
        (Rules(), {"phase": Phase.RESIGNED, "resignation": (-1, ResultKind.SINGLE),
                   "resigned_from": Phase.ROLL},
         "the resigner must be player 0 or 1"),
        (Rules(), {"phase": Phase.RESIGNED, "resignation": (0, ResultKind.SINGLE)},
         r"a resignation needs the phase play goes back to \(resigned_from\)"),
        (Rules(), {"phase": Phase.RESIGNED, "resignation": (0, ResultKind.SINGLE),
                   "resigned_from": Phase.OPENING},
         r"a resignation needs the phase play goes back to \(resigned_from\)"),
        (ACEY, {"position": Position.initial("acey-deucey"), "bonus": "two-one"},
         "the Acey-Deucey bonus stage is one of"),
        (Rules(), {"phase": Phase.MOVE, "rolled": (2, 1), "bonus": BONUS_ONE_TWO},
         "only Acey-Deucey has the 1-2 bonus"),
        (ACEY, {"position": Position.initial("acey-deucey"), "phase": Phase.ROLL, "bonus": BONUS_CHOOSE},
         "the double is named exactly in the choose-double phase"),
        (ACEY, {"position": Position.initial("acey-deucey"), "phase": Phase.CHOOSE_DOUBLE},
         "the double is named exactly in the choose-double phase"),
        (ACEY, {"position": Position.initial("acey-deucey"), "phase": Phase.MOVE, "rolled": (3, 1),
                "bonus": BONUS_ONE_TWO},
         "the 1-2 bonus stage needs the roll 1-2"),
        (ACEY, {"position": Position.initial("acey-deucey"), "phase": Phase.MOVE, "rolled": (2, 2),
                "bonus": BONUS_ONE_TWO},
         "the 1-2 bonus stage needs the roll 1-2"),
        (Rules(automatic_doubles=2), {"auto_doubles": -1}, "automatic doubles are counted from 0"),
        (Rules(automatic_doubles=2), {"auto_doubles": 1.5}, "automatic doubles are counted from 0"),
    ],
)
def test_an_impossible_state_is_refused_with_its_reason(rules: Rules, kwargs: dict[str, Any], why: str) -> None:
    with pytest.raises(GammonError) as caught:
        Game(rules, **kwargs)
    message = str(caught.value)
    assert message.startswith("impossible game state: "), message
    reason = message.removeprefix("impossible game state: ")
    # The whole reason, as written (a check that fired for another reason says something else).
    assert re.fullmatch(why + (".*" if why.endswith("one of") else ""), reason), reason


@pytest.mark.parametrize(
    ("rules", "kwargs"),
    [
        # The cube may stand at its limit (a cube of 8 under a limit of 8).
        (Rules(cube_limit=8), {"phase": Phase.ROLL, "cube_value": 8, "cube_owner": 1}),
        (Rules(), {"phase": Phase.ROLL, "cube_value": 64, "cube_owner": 0}),
        (Rules(beavers=True), {"phase": Phase.BEAVERED, "cube_value": 2, "cube_owner": 1}),
        (Rules(beavers=True), {"phase": Phase.BEAVERED, "turn": 1, "cube_value": 2, "cube_owner": 0}),
        (Rules(), {"phase": Phase.DOUBLED, "turn": 1, "cube_value": 2, "cube_owner": 1}),
        (MATCH, {"phase": Phase.DOUBLED, "score": (4, 2)}),
        (MATCH, {"crawford_game": True, "score": (4, 2), "phase": Phase.ROLL}),
        (Rules(), {"phase": Phase.RESIGNED, "turn": 1, "resignation": (1, ResultKind.BACKGAMMON),
                   "resigned_from": Phase.ROLL}),
        (Rules(), {"phase": Phase.RESIGNED, "resignation": (0, ResultKind.SINGLE),
                   "resigned_from": Phase.DOUBLED}),
        (Rules(automatic_doubles=2), {"auto_doubles": 2, "cube_value": 4}),
    ],
)
def test_a_possible_state_at_the_edge_of_a_rule_is_built(rules: Rules, kwargs: dict[str, Any]) -> None:
    game = Game(rules, **kwargs)
    for name, value in kwargs.items():
        got = game.snapshot()["resigned_from"] if name == "resigned_from" else getattr(game, name)
        assert got == value, name


def test_a_cube_at_its_limit_is_built_and_cannot_be_doubled() -> None:
    game = Game(Rules(cube_limit=8), phase=Phase.ROLL, cube_value=8, cube_owner=0)
    assert not game.can_double()
    below = Game(Rules(cube_limit=8), phase=Phase.ROLL, cube_value=4, cube_owner=0)
    assert below.can_double()


def acey_game(**kwargs: Any) -> Game:
    return Game(ACEY, position=Position.initial("acey-deucey"), **kwargs)


def test_the_acey_deucey_one_two_being_played_is_built() -> None:
    # "If both the 1 and the 2 were legally played, the player's chosen double follows."
    for dice in ((1, 2), (2, 1)):
        game = acey_game(phase=Phase.MOVE, rolled=dice, bonus=BONUS_ONE_TWO)
        assert game.aceydeucey_pending and game.bonus == BONUS_ONE_TWO
        assert game.legal_plays()
        play = next(p for p in game.legal_plays() if p.dice_used == 2)
        game.play(play)
        assert game.phase is Phase.CHOOSE_DOUBLE and game.bonus == BONUS_CHOOSE and game.turn == 0


def test_the_acey_deucey_named_double_being_played_is_built() -> None:
    game = acey_game(phase=Phase.MOVE, rolled=(4, 4), bonus=BONUS_DOUBLE)
    assert game.bonus == BONUS_DOUBLE and game.legal_plays()


def test_a_resignation_offered_while_naming_the_double_is_built_and_rejected_back() -> None:
    game = acey_game(phase=Phase.RESIGNED, resignation=(0, ResultKind.SINGLE),
                     resigned_from=Phase.CHOOSE_DOUBLE, bonus=BONUS_CHOOSE)
    assert game.player_to_act == 1
    game.reject_resignation()
    assert game.phase is Phase.CHOOSE_DOUBLE
    game.choose_double(6)
    assert game.phase is Phase.MOVE and game.rolled == (6, 6)


def test_a_resignation_offered_while_playing_the_one_two_is_built() -> None:
    game = acey_game(phase=Phase.RESIGNED, rolled=(1, 2), resignation=(0, ResultKind.SINGLE),
                     resigned_from=Phase.MOVE, bonus=BONUS_ONE_TWO)
    game.reject_resignation()
    assert game.phase is Phase.MOVE and game.bonus == BONUS_ONE_TWO


# -- repr builds the game again ------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "kwargs"),
    [
        (Rules(), {}),
        # Player 0 on roll at a position that is not the start: the position must be written.
        (Rules(), {"position": AFTER_31, "phase": Phase.ROLL}),
        (Rules(), {"position": AFTER_31, "phase": Phase.MOVE, "rolled": (5, 5), "cube_value": 4,
                   "cube_owner": 1}),
        (Rules(), {"position": Position.initial(), "turn": 1, "phase": Phase.ROLL}),
        (Rules(), {"position": AFTER_31, "turn": 1, "phase": Phase.DOUBLED, "cube_value": 2, "cube_owner": 1}),
        (Rules(beavers=True), {"position": AFTER_31, "phase": Phase.BEAVERED, "cube_value": 4,
                               "cube_owner": 1}),
        (Rules(match_length=7), {"crawford_game": True, "score": (6, 3), "position": AFTER_31,
                                 "phase": Phase.ROLL}),
        (Rules(), {"position": AFTER_31, "phase": Phase.RESIGNED, "rolled": (2, 1),
                   "resignation": (0, ResultKind.GAMMON), "resigned_from": Phase.MOVE}),
        # Automatic doubles so far (one, and two), with the cube they doubled.
        (Rules(automatic_doubles=3), {"auto_doubles": 1, "cube_value": 2}),
        (Rules(automatic_doubles=3), {"auto_doubles": 2, "cube_value": 4}),
        # The Acey-Deucey bonus stages.
        (ACEY, {"position": Position.initial("acey-deucey"), "phase": Phase.MOVE, "rolled": (1, 2),
                "bonus": BONUS_ONE_TWO}),
        (ACEY, {"position": Position.initial("acey-deucey"), "phase": Phase.CHOOSE_DOUBLE,
                "bonus": BONUS_CHOOSE}),
        (ACEY, {"position": Position.initial("acey-deucey"), "phase": Phase.MOVE, "rolled": (3, 3),
                "bonus": BONUS_DOUBLE}),
    ],
)
def test_repr_builds_the_same_game_again(rules: Rules, kwargs: dict[str, Any]) -> None:
    game = Game(rules, **kwargs)
    again = rebuilt(game)
    assert again.snapshot() == game.snapshot()
    assert repr(again) == repr(game)


def test_repr_builds_the_game_again_along_an_acey_deucey_game() -> None:
    # Roll 1-2, play it, name a double, play it: the bonus stage is in every repr.
    game = Game(ACEY)
    game.apply(Roll(0, (5, 3)))
    while game.phase is not Phase.ROLL:
        game.play(game.legal_plays()[0])
    seen = set()
    for dice in ((2, 1), (4, 4)):
        if game.turn != 0:
            break
        game.roll(dice)
        while game.phase in (Phase.MOVE, Phase.CHOOSE_DOUBLE) and game.turn == 0:
            seen.add(game.bonus)
            assert rebuilt(game).snapshot() == {**game.snapshot(), "record": 0, "plays": 0}
            if game.phase is Phase.CHOOSE_DOUBLE:
                game.choose_double(4)
            else:
                game.play(max(game.legal_plays(), key=lambda p: p.dice_used))
    assert BONUS_ONE_TWO in seen


def test_repr_builds_the_game_again_after_automatic_doubles() -> None:
    # "Each equal opening throw doubles the cube (it stays centred)."
    game = Game(Rules(automatic_doubles=3))
    game.apply(Roll(0, (4, 4)))
    assert (game.auto_doubles, game.cube_value) == (1, 2)
    again = rebuilt(game)
    assert again.auto_doubles == 1 and again.snapshot() == {**game.snapshot(), "record": 0}
    # The count goes on from the rebuilt game: two more ties reach the limit of three.
    again.apply(Roll(0, (2, 2)))
    again.apply(Roll(0, (3, 3)))
    again.apply(Roll(0, (5, 5)))
    assert (again.auto_doubles, again.cube_value) == (3, 8)


def test_repr_of_a_finished_game_names_its_result() -> None:
    game = Game(Rules(), phase=Phase.DOUBLED)
    game.drop()
    assert repr(game) == f"<Game over: {game.result}>"


# -- snapshot: every piece of the state, by name --------------------------------------------


def test_the_snapshot_names_every_piece_of_the_state() -> None:
    rules = Rules(match_length=7)
    game = Game(rules, crawford_game=False, score=(3, 5), position=AFTER_31, turn=1, phase=Phase.RESIGNED,
                rolled=(6, 4), cube_value=2, cube_owner=1, resignation=(1, ResultKind.GAMMON),
                resigned_from=Phase.MOVE)
    assert game.snapshot() == {
        "rules": rules, "position": AFTER_31, "turn": 1, "phase": Phase.RESIGNED, "rolled": (6, 4),
        "cube": (2, 1), "doubled_by": None, "beavered": False, "resignation": (1, ResultKind.GAMMON),
        "resigned_from": Phase.MOVE, "result": None, "record": 0, "plays": 0, "auto": 0, "bonus": None,
        "crawford_game": False, "score": (3, 5),
    }
    beaver = Game(Rules(beavers=True), turn=1, phase=Phase.BEAVERED, cube_value=2, cube_owner=0)
    snap = beaver.snapshot()
    assert (snap["doubled_by"], snap["beavered"], snap["cube"]) == (1, True, (2, 0))
    acey = acey_game(phase=Phase.MOVE, rolled=(2, 1), bonus=BONUS_ONE_TWO, auto_doubles=0)
    assert acey.snapshot()["bonus"] == BONUS_ONE_TWO
    auto = Game(Rules(automatic_doubles=2), auto_doubles=1, cube_value=2, crawford_game=False)
    assert auto.snapshot()["auto"] == 1
    crawford = Game(Rules(match_length=3), crawford_game=True, score=(2, 0))
    assert crawford.snapshot()["crawford_game"] is True


def test_the_snapshot_tells_apart_games_that_differ_in_one_piece() -> None:
    base: dict[str, Any] = {"position": AFTER_31, "phase": Phase.ROLL, "score": (1, 2)}
    rules = Rules(match_length=5, beavers=True)
    variations: list[tuple[Rules, dict[str, Any]]] = [
        (Rules(match_length=7), {}),
        (rules, {"position": AFTER_31.swap()}),
        (rules, {"turn": 1}),
        (rules, {"phase": Phase.MOVE, "rolled": (3, 1)}),
        (rules, {"cube_value": 2, "cube_owner": 0}),
        (rules, {"cube_value": 2, "cube_owner": 1}),
        (rules, {"phase": Phase.DOUBLED}),
        (rules, {"phase": Phase.RESIGNED, "resignation": (0, ResultKind.SINGLE), "resigned_from": Phase.ROLL}),
        (rules, {"score": (2, 1)}),
        (rules, {"crawford_game": True, "score": (4, 2)}),
    ]
    first = Game(rules, **base).snapshot()
    seen = [first]
    for r, change in variations:
        snap = Game(r, **{**base, **change}).snapshot()
        assert snap != first, change
        assert snap not in seen, change
        seen.append(snap)
    # A finished game's result, and the history, are in the snapshot too.
    game = Game(Rules(), phase=Phase.DOUBLED)
    before = game.snapshot()
    game.drop()
    after = game.snapshot()
    assert after["result"] == game.result and after["result"] != before["result"]
    assert (after["record"], after["plays"]) == (1, 0)
    moved = Game(Rules(), phase=Phase.MOVE, rolled=(3, 1))
    moved.play("8/5 6/5")
    assert (moved.snapshot()["record"], moved.snapshot()["plays"]) == (1, 1)


# -- replay rebuilds the same state -----------------------------------------------------------


def test_replay_of_a_money_game_with_a_double_rebuilds_it() -> None:
    game = played_to_roll(Rules())
    game.apply(Double(1))
    game.take()
    game.roll((6, 4))
    # The defaults are a money game's: no Crawford game (the double is legal), score 0-0.
    again = Game.replay(Rules(), game.record)
    assert again.snapshot() == game.snapshot()
    assert again.crawford_game is False and again.score == (0, 0)


def test_replay_keeps_the_crawford_game_and_the_score() -> None:
    rules = Rules(match_length=5)
    game = Game(rules, crawford_game=True, score=(4, 1))
    game.apply(Roll(0, (3, 1)))
    game.play("8/5 6/5")
    game.roll((6, 5))
    again = Game.replay(rules, game.record, crawford_game=True, score=(4, 1))
    assert again.snapshot() == game.snapshot()
    assert again.crawford_game is True and again.score == (4, 1) and not again.can_double()
    # The same record outside the Crawford game is another game: the player on roll may double.
    plain = Game.replay(rules, game.record[:2], score=(3, 1))
    assert plain.crawford_game is False and plain.score == (3, 1) and plain.can_double()


def test_replay_of_a_crawford_game_refuses_a_double() -> None:
    game = played_to_roll(Rules(match_length=5))
    game.apply(Double(1))
    with pytest.raises(GammonError):
        Game.replay(Rules(match_length=5), game.record, crawford_game=True, score=(4, 0))


def test_replay_needs_no_dice_source() -> None:
    game = played_to_roll(Rules())
    again = Game.replay(Rules(), game.record)
    assert again.dice is None
    assert again.position == game.position and again.turn == 1 and CENTERED == again.cube_owner
