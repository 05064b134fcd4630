"""A game built from an XGID or from a GNU Backgammon Position ID and Match ID.

The game has exactly the state the ID names: the player on roll, the phase
(before the roll, dice rolled, a double or a beaver pending, a resignation
offered), the cube's value and owner, the score, the Crawford game and the
rules the ID carries (match length, Jacoby, beavers, the largest cube).  Each
case is compared with the game built from keywords at that state; an ID that
names a state no game reaches is refused with an ``InvalidIdError`` that says
why.

The formats (see ``gammon.core.xgid`` and ``gammon.core.match_id``):

* XGID: the board is drawn from the bottom player's side; the turn field is 1
  when the bottom player is on roll, -1 for the top one; the cube's place is 1
  (bottom owns it), -1 (top) or 0 (centred); the dice field is two dice, 00,
  ``D`` (doubled), ``B`` (beavered) or ``R`` (raccooned); then the bottom and
  top scores, Crawford (match) or 1 Jacoby + 2 beavers (money), the match
  length and the largest cube.  The bottom player is gammon's player 0.
* Match ID: the Position ID is read from the player on roll's side (the dice
  owner); ``turn`` is the player who decides next (the one doubled, or the one
  answering a resignation).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from boards import pos
from gammon import CENTERED, InvalidIdError, Position, ResultKind
from gammon.core.dice import ScriptedDice
from gammon.core.game import Game, Phase
from gammon.core.match_id import GameState, MatchId, Resignation, decode_match_id, encode_match_id
from gammon.core.rules import Rules

#: Player on roll has played 8/5 6/5 from the start: an asymmetric position, so a swap shows.
AFTER_31 = pos("x: 24:2 13:5 8:2 6:4 5:2; o: 24:2 13:5 8:3 6:5")
#: AFTER_31 drawn with the bottom player on roll, and with the top player on roll.
BOTTOM_ON_ROLL = "-b---BD-B---eE---c-e----B-"
TOP_ON_ROLL = "-b----E-C---eE---b-db---B-"
START = "-b----E-C---eE---c-e----B-"


def state(game: Game) -> dict[str, object]:
    return {k: v for k, v in game.snapshot().items() if k not in ("record", "plays")}


def xgid(board: str, *fields: object) -> str:
    return "XGID=" + ":".join([board, *map(str, fields)])


# -- XGID ---------------------------------------------------------------------------------------


def test_an_xgid_with_the_bottom_player_on_roll_is_player_0s_turn() -> None:
    # Cube 2 owned by the bottom player, before the roll, bottom 3 - top 1 in a 7-point match.
    game = Game.from_xgid(xgid(BOTTOM_ON_ROLL, 1, 1, 1, "00", 3, 1, 0, 7, 10))
    expected = Game(Rules(match_length=7, cube_limit=1024), score=(3, 1), position=AFTER_31, turn=0,
                    phase=Phase.ROLL, cube_value=2, cube_owner=0)
    assert state(game) == state(expected)


def test_an_xgid_with_the_top_player_on_roll_is_player_1s_turn() -> None:
    # The top player on roll has rolled 6-4 and owns the cube at 4; bottom 2 - top 4.
    game = Game.from_xgid(xgid(TOP_ON_ROLL, 2, -1, -1, "64", 2, 4, 0, 7, 10))
    expected = Game(Rules(match_length=7, cube_limit=1024), score=(2, 4), position=AFTER_31, turn=1,
                    phase=Phase.MOVE, rolled=(6, 4), cube_value=4, cube_owner=1)
    assert state(game) == state(expected)
    assert game.player_to_act == 1 and game.legal_plays()


@pytest.mark.parametrize(
    ("board", "place", "turn", "owner"),
    [
        (BOTTOM_ON_ROLL, 1, 1, 0),  # the bottom player, on roll, owns the cube
        (BOTTOM_ON_ROLL, -1, 1, 1),  # the top player, not on roll
        (TOP_ON_ROLL, -1, -1, 1),  # the top player, on roll
        (TOP_ON_ROLL, 1, -1, 0),  # the bottom player, not on roll
        (TOP_ON_ROLL, 0, -1, CENTERED),
        (BOTTOM_ON_ROLL, 0, 1, CENTERED),
    ],
)
def test_the_xgid_cube_owner_is_the_bottom_or_top_player(board: str, place: int, turn: int, owner: int) -> None:
    game = Game.from_xgid(xgid(board, 0 if owner == CENTERED else 1, place, turn, "00", 0, 0, 0, 0, 10))
    assert game.cube_owner == owner and game.turn == (0 if turn == 1 else 1)
    assert game.position == AFTER_31
    # Only the owner (or anyone, centred) may double: player on roll doubles iff he may.
    assert game.can_double() == (owner in (CENTERED, game.turn))


def test_an_xgid_double_is_pending_for_the_opponent_of_the_player_on_roll() -> None:
    game = Game.from_xgid(xgid(TOP_ON_ROLL, 1, -1, -1, "D", 0, 0, 0, 0, 10))
    expected = Game(Rules(cube_limit=1024), position=AFTER_31, turn=1, phase=Phase.DOUBLED,
                    cube_value=2, cube_owner=1)
    assert state(game) == state(expected)
    assert game.doubled_by == 1 and game.player_to_act == 0
    game.take()
    assert (game.cube_value, game.cube_owner) == (4, 0)


def test_an_xgid_beaver_is_answered_by_the_doubler_at_four_times_the_cube() -> None:
    # The top player doubled from 2; the bottom player beavered: he has taken at 4, owns the
    # cube and redoubled; the top player takes at 8 or drops for 4.
    game = Game.from_xgid(xgid(TOP_ON_ROLL, 1, 0, -1, "B", 0, 0, 2, 0, 10))
    expected = Game(Rules(beavers=True, cube_limit=1024), position=AFTER_31, turn=1, phase=Phase.BEAVERED,
                    cube_value=4, cube_owner=0)
    assert state(game) == state(expected)
    assert game.player_to_act == 1 and game.beavered and game.doubled_by == 1
    game.drop()
    assert game.result is not None and (game.result.winner, game.result.points) == (0, 4)
    bottom = Game.from_xgid(xgid(BOTTOM_ON_ROLL, 0, 0, 1, "B", 0, 0, 2, 0, 10))
    assert (bottom.turn, bottom.cube_value, bottom.cube_owner) == (0, 2, 1)
    bottom.take()
    assert (bottom.cube_value, bottom.cube_owner) == (4, 1)


def test_an_xgid_beaver_at_the_largest_cube_is_built_with_the_cube_it_reached() -> None:
    # Cube 4 is the largest cube; the beaver has taken it at 8: the game's limit covers it.
    game = Game.from_xgid(xgid(START, 2, 0, 1, "B", 0, 0, 2, 0, 2))
    assert game.phase is Phase.BEAVERED and (game.cube_value, game.cube_owner) == (8, 1)
    assert game.rules.cube_limit >= game.cube_value


def test_the_xgid_money_rules_field_gives_jacoby_and_beavers() -> None:
    # "In a money game the rules in force: 1 Jacoby, 2 beavers, 3 both" -- and neither at 0,
    # whatever the rules given say.
    given = Rules(jacoby=True, beavers=True)
    for field, jacoby, beavers in ((0, False, False), (1, True, False), (2, False, True), (3, True, True)):
        game = Game.from_xgid(xgid(START, 0, 0, 1, "D", 0, 0, field, 0, 10), given)
        assert (game.rules.jacoby, game.rules.beavers) == (jacoby, beavers), field
        # Jacoby: "gammons count single while the cube is centred".
        assert game.points_for(ResultKind.GAMMON) == (1 if jacoby else 2), field
        assert game.can_beaver() == beavers, field


def test_an_xgid_match_has_no_money_rules() -> None:
    game = Game.from_xgid(xgid(START, 0, 0, 1, "D", 0, 0, 0, 5, 10), Rules(jacoby=True, beavers=True))
    assert game.rules.match_length == 5 and not game.rules.jacoby and not game.can_beaver()
    assert game.points_for(ResultKind.GAMMON) == 2


@pytest.mark.parametrize(
    ("max_field", "cube_field", "limit", "can_double"),
    [
        (2, 2, 4, False),  # the cube is at the largest cube: no double
        (2, 1, 4, True),  # doubling from 2 reaches the largest cube 4
        (3, 2, 8, True),
        (0, 0, 1, False),  # the largest cube is 1: no cube at all
        (12, 0, 4096, True),
        (15, 0, 4096, True),  # gammon's cube stops at 4096
    ],
)
def test_the_xgid_largest_cube_is_the_game_cube_limit(max_field: int, cube_field: int, limit: int,
                                                      can_double: bool) -> None:
    game = Game.from_xgid(xgid(START, cube_field, 0 if cube_field == 0 else 1, 1, "00", 0, 0, 0, 0, max_field))
    assert game.rules.cube_limit == limit
    assert game.can_double() == can_double


def test_an_xgid_keeps_the_settings_it_does_not_carry() -> None:
    given = Rules(variant="nackgammon", crawford=False, gammons=False)
    board = Position.initial("nackgammon").xgid.removeprefix("XGID=").split(":")[0]
    game = Game.from_xgid(xgid(board, 0, 0, 1, "00", 2, 3, 0, 7, 10), given)
    assert game.rules == Rules(variant="nackgammon", crawford=False, gammons=False, match_length=7,
                               cube_limit=1024)
    assert game.position == Position.initial("nackgammon")
    named = Game.from_xgid(xgid(board, 0, 0, 1, "00", 0, 0, 0, 0, 10), variant="nackgammon")
    assert named.rules.variant.name == "nackgammon" and named.position == Position.initial("nackgammon")
    plain = Game.from_xgid(xgid(START, 0, 0, 1, "00", 0, 0, 0, 0, 10))
    assert plain.rules.variant.name == "standard"


def test_an_xgid_crawford_game_has_no_double() -> None:
    game = Game.from_xgid(xgid(TOP_ON_ROLL, 0, 0, -1, "00", 4, 2, 1, 5, 10))
    assert game.crawford_game and game.score == (4, 2) and not game.can_double()


def test_a_game_from_an_xgid_rolls_its_dice_source() -> None:
    game = Game.from_xgid(xgid(START, 0, 0, 1, "00", 0, 0, 0, 0, 10), dice=ScriptedDice([(6, 5)]))
    assert game.dice is not None
    game.roll()
    assert game.rolled == (6, 5)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (xgid(START, 1, 0, 1, "R", 0, 0, 2, 0, 10),
         "the XGID has a raccoon; gammon plays beavers without raccoons"),
        (xgid(START, 1, 1, 1, "00", 4, 2, 1, 5, 10),
         "the XGID names an impossible game: impossible game state: "
         "the Crawford game is played in a match without the cube"),
        (xgid(START, 0, 0, 1, "D", 4, 2, 1, 5, 10),
         "the XGID names an impossible game: impossible game state: no double can be pending without the cube"),
        (xgid(START, 1, -1, 1, "D", 0, 0, 0, 0, 10),
         "the XGID names an impossible game: impossible game state: the doubler does not own the cube"),
    ],
)
def test_an_xgid_of_an_impossible_game_is_refused_with_the_reason(text: str, why: str) -> None:
    with pytest.raises(InvalidIdError) as caught:
        Game.from_xgid(text)
    assert str(caught.value) == why


# -- Position ID and Match ID ------------------------------------------------------------------


def from_ids(position: Position, rules: Rules | None = None, source: Any = None, **fields: Any) -> Game:
    """The game of ``position`` (seen from the player on roll) and a Match ID of ``fields``."""
    return Game.from_ids(position.position_id, encode_match_id(MatchId(**fields)), rules, source)


@pytest.mark.parametrize("on_roll", [0, 1])
def test_ids_before_the_roll_give_turn_cube_and_score(on_roll: int) -> None:
    game = from_ids(AFTER_31, cube_value=4, cube_owner=on_roll, player_on_roll=on_roll, turn=on_roll,
                    match_length=7, score=(2, 5))
    expected = Game(Rules(match_length=7), score=(2, 5), position=AFTER_31, turn=on_roll, phase=Phase.ROLL,
                    cube_value=4, cube_owner=on_roll)
    assert state(game) == state(expected)


@pytest.mark.parametrize(("owner", "expected"), [(None, CENTERED), (0, 0), (1, 1)])
def test_the_match_id_cube_owner_is_the_game_cube_owner(owner: int | None, expected: int) -> None:
    game = from_ids(AFTER_31, cube_value=1 if owner is None else 2, cube_owner=owner, player_on_roll=1, turn=1)
    assert game.cube_owner == expected and game.can_double() == (expected in (CENTERED, 1))


def test_ids_with_the_dice_rolled_are_the_move_phase() -> None:
    game = from_ids(AFTER_31, player_on_roll=1, turn=1, dice=(5, 2))
    expected = Game(Rules(), position=AFTER_31, turn=1, phase=Phase.MOVE, rolled=(5, 2))
    assert state(game) == state(expected)
    assert game.legal_plays()


@pytest.mark.parametrize("doubler", [0, 1])
def test_ids_with_a_double_offered_wait_for_the_doubled_player(doubler: int) -> None:
    # The player on roll (the dice owner) doubled; the opponent decides ("turn").
    game = from_ids(AFTER_31, cube_value=2, cube_owner=doubler, player_on_roll=doubler, turn=1 - doubler,
                    double_offered=True, match_length=9, score=(1, 3))
    expected = Game(Rules(match_length=9), score=(1, 3), position=AFTER_31, turn=doubler, phase=Phase.DOUBLED,
                    cube_value=2, cube_owner=doubler)
    assert state(game) == state(expected)
    assert game.doubled_by == doubler and game.player_to_act == 1 - doubler


@pytest.mark.parametrize("resigner", [0, 1])
@pytest.mark.parametrize("kind", [Resignation.SINGLE, Resignation.GAMMON, Resignation.BACKGAMMON])
def test_ids_with_a_resignation_offered_before_the_roll(resigner: int, kind: Resignation) -> None:
    # The player on roll offers to resign; his opponent decides ("turn") and may reject.
    game = from_ids(AFTER_31, player_on_roll=resigner, turn=1 - resigner, resignation=kind)
    expected = Game(Rules(), position=AFTER_31, turn=resigner, phase=Phase.RESIGNED,
                    resignation=(resigner, ResultKind(int(kind))), resigned_from=Phase.ROLL)
    assert state(game) == state(expected)
    assert game.resignation == (resigner, ResultKind(int(kind))) and game.player_to_act == 1 - resigner
    game.reject_resignation()
    assert game.phase is Phase.ROLL and game.turn == resigner and game.rolled is None


def test_ids_with_a_resignation_offered_after_the_roll_go_back_to_the_move() -> None:
    game = from_ids(AFTER_31, player_on_roll=1, turn=0, resignation=Resignation.GAMMON, dice=(6, 1))
    expected = Game(Rules(), position=AFTER_31, turn=1, phase=Phase.RESIGNED, rolled=(6, 1),
                    resignation=(1, ResultKind.GAMMON), resigned_from=Phase.MOVE)
    assert state(game) == state(expected)
    game.accept_resignation()
    assert game.result is not None and (game.result.winner, game.result.points) == (0, 2)
    again = from_ids(AFTER_31, player_on_roll=1, turn=0, resignation=Resignation.GAMMON, dice=(6, 1))
    again.reject_resignation()
    assert again.phase is Phase.MOVE and again.rolled == (6, 1) and again.legal_plays()


@pytest.mark.parametrize("on_roll", [0, 1])
def test_ids_of_a_game_not_started_are_the_opening_seen_from_player_0(on_roll: int) -> None:
    # The Position ID is read from the dice owner's side; the opening game sees from player 0.
    game = from_ids(AFTER_31, game_state=GameState.NONE, player_on_roll=on_roll, turn=on_roll,
                    match_length=5, score=(1, 0))
    seen_by_0 = AFTER_31 if on_roll == 0 else AFTER_31.swap()
    expected = Game(Rules(match_length=5), score=(1, 0), position=seen_by_0)
    assert state(game) == state(expected)
    assert game.phase is Phase.OPENING and game.turn == 0 and game.position == seen_by_0


@pytest.mark.parametrize("finished", [GameState.OVER, GameState.RESIGNED, GameState.DROPPED])
def test_ids_of_a_finished_game_are_refused(finished: GameState) -> None:
    with pytest.raises(InvalidIdError) as caught:
        from_ids(AFTER_31, game_state=finished)
    assert str(caught.value) == "the Match ID names a finished game: replay it to reach its end"


def test_the_match_id_jacoby_rule_applies_in_money_play_only() -> None:
    on = from_ids(AFTER_31, jacoby=True)
    assert on.rules.jacoby is True and on.points_for(ResultKind.GAMMON) == 1
    off = from_ids(AFTER_31, Rules(jacoby=True), jacoby=False)
    assert off.rules.jacoby is False and off.points_for(ResultKind.GAMMON) == 2
    match = from_ids(AFTER_31, Rules(jacoby=True), jacoby=True, match_length=5)
    assert match.rules.jacoby is False and match.points_for(ResultKind.GAMMON) == 2


def test_ids_keep_the_settings_the_match_id_does_not_carry() -> None:
    given = Rules(variant="nackgammon", crawford=False, beavers=True, cube_limit=16)
    game = from_ids(Position.initial("nackgammon"), given, match_length=3, score=(2, 1))
    assert game.rules == Rules(variant="nackgammon", crawford=False, beavers=True, cube_limit=16,
                               match_length=3)
    assert game.position == Position.initial("nackgammon")


def test_ids_of_the_crawford_game_forbid_doubling() -> None:
    game = from_ids(AFTER_31, match_length=5, score=(4, 2), crawford=True)
    assert game.crawford_game and not game.can_double()


def test_a_game_from_ids_rolls_its_dice_source() -> None:
    game = from_ids(AFTER_31, None, ScriptedDice([(4, 3)]))
    assert game.dice is not None
    game.roll()
    assert game.rolled == (4, 3)


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"match_length": 5, "score": (4, 2), "crawford": True, "cube_value": 2, "cube_owner": 0},
         "the Crawford game is played in a match without the cube"),
        ({"match_length": 5, "score": (4, 2), "crawford": True, "double_offered": True, "turn": 1},
         "no double can be pending without the cube"),
        ({"cube_value": 2, "cube_owner": 1, "double_offered": True, "turn": 1},
         "the doubler does not own the cube"),
        ({"cube_value": 128, "cube_owner": 1}, "the cube must be a power of two up to 64, not 128"),
    ],
)
def test_ids_of_an_impossible_game_are_refused_with_the_reason(fields: dict[str, Any], why: str) -> None:
    with pytest.raises(InvalidIdError) as caught:
        from_ids(AFTER_31, **fields)
    assert re.fullmatch("the IDs name an impossible game: impossible game state: " + re.escape(why),
                        str(caught.value)), str(caught.value)


# -- a game's own IDs: Game.xgid() and Game.match_id() -------------------------------------------


def _walk(rules: Rules, seed: int) -> Iterator[Game]:
    """Every state of a seeded game in which the players roll, play, double, take and beaver at
    random, and never drop or resign (so the game runs to its end)."""
    from gammon.core.actions import Drop, Resign
    from gammon.core.dice import RandomDice

    rng = random.Random(seed)
    game = Game(rules, RandomDice(seed))
    while not game.is_over:
        yield game
        choices = [a for a in game.allowed_actions()
                   if not isinstance(a, (Resign, Drop))]
        game.apply(rng.choice(choices))
    yield game


@pytest.mark.parametrize("rules", [Rules(beavers=True, jacoby=True), Rules(match_length=5, crawford=True)],
                         ids=["money", "match"])
@pytest.mark.parametrize("seed", range(6))
def test_a_games_ids_read_back_to_the_same_game(rules: Rules, seed: int) -> None:
    seen = 0
    for game in _walk(rules, seed):
        if game.phase in (Phase.OPENING, Phase.OVER):
            with pytest.raises(InvalidIdError, match="an XGID cannot carry a game in the"):
                game.xgid()
            continue
        seen += 1
        assert state(Game.from_xgid(game.xgid(), rules)) == state(game), game.xgid()
        if game.phase is not Phase.BEAVERED:  # a Match ID has no beaver
            again = Game.from_ids(game.position.position_id, game.match_id(), rules)
            assert state(again) == state(game), game.match_id()
    assert seen > 10


def test_a_games_ids_are_the_ones_gnu_backgammon_and_extreme_gammon_write() -> None:
    game = Game.from_xgid(xgid(TOP_ON_ROLL, 1, 1, -1, 52, 2, 3, 0, 7, 10))
    assert game.xgid() == xgid(TOP_ON_ROLL, 1, 1, -1, 52, 2, 3, 0, 7, 10)
    money = encode_match_id(MatchId(cube_value=2, cube_owner=0, player_on_roll=1, turn=1, dice=(5, 2),
                                    score=(3, 1), jacoby=True))
    assert Game.from_ids("4HPwATDgc/ABMA", money).match_id() == money
    # In match play the Jacoby rule is off, and the Match ID says so.
    assert Game.from_ids("4HPwATDgc/ABMA", "QYkqASAAIAAA").match_id() == "QYkqASAAIAAE"
    finished = Game(Rules(), position=AFTER_31, phase=Phase.ROLL)
    finished.double()
    finished.drop()
    assert decode_match_id(finished.match_id()).game_state is GameState.DROPPED
    with pytest.raises(InvalidIdError, match="an XGID cannot carry a game in the over phase"):
        finished.xgid()
