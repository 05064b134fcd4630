"""Rules that the texts state and gammon once got wrong, each test quoting its rule.

The Acey-Deucey bonus (Polish rules), the opening option (Norwegian rules), the
explicit start of each game of a match, and value semantics of core objects
(pickling and deep copies keep equality).
"""

from __future__ import annotations

import copy
import pickle

import pytest

from boards import pos, rows
from gammon import (
    CENTERED,
    GammonError,
    IllegalActionError,
    Position,
    Reason,
    ResultKind,
)
from gammon.core.actions import (
    AcceptResignation,
    ChooseDouble,
    Double,
    Event,
    GameResult,
    Move,
    NewGame,
    Resign,
    Roll,
    Take,
)
from gammon.core.dice import RandomDice
from gammon.core.game import Game, Phase
from gammon.core.match import Match
from gammon.core.plays import CheckerMove
from gammon.core.rules import Rules
from gammon.core.variants import ACEY_DEUCEY, STANDARD, VARIANTS, Variant

ACEY = Rules(variant="acey-deucey")

# -- Acey-Deucey: "if both the 1 and the 2 were legally played, the player's chosen double
# follows; if all four of those moves were played too, the dice are thrown again".  What
# cannot be played ends the sequence.

#: x can play the 1 (24/23) but then no 2: 22, 21, 12 and 11 are held by o.
ONLY_THE_ONE = Position(*rows("x: 24:1 13:14; o: 3:2 4:2 13:2 14:2 6:7"), "acey-deucey")
#: With 6-6 x plays 24/18 and nothing more: 12 and 7 are held by o.
ONE_SIX_ONLY = Position(*rows("x: 24:1 13:14; o: 13:2 18:2 6:11"), "acey-deucey")
#: With 1-1 all four moves can be played (13/12 and on).
FOUR_ONES = Position(*rows("x: 24:1 13:14; o: 6:15"), "acey-deucey")


def test_a_one_two_played_only_in_part_gives_no_chosen_double() -> None:
    game = Game(ACEY, position=ONLY_THE_ONE, phase=Phase.ROLL)
    game.apply(Roll(0, (1, 2)))
    (play,) = game.legal_plays()
    assert str(play) == "24/23" and play.dice_used == 1
    events = game.apply(Move(0, play))
    assert [e.kind for e in events] == ["played", "turn"]
    assert game.turn == 1 and game.phase is Phase.ROLL and game.bonus is None


def test_a_one_two_played_in_full_gives_the_chosen_double() -> None:
    game = Game(ACEY, position=FOUR_ONES, phase=Phase.ROLL)
    game.apply(Roll(0, (2, 1)))
    events = game.apply(Move(0, game.legal_plays()[0]))
    assert events[-1].kind == "choose-double"
    assert game.phase is Phase.CHOOSE_DOUBLE and game.turn == 0


def test_a_chosen_double_played_in_part_ends_the_turn_without_a_new_roll() -> None:
    game = Game(ACEY, position=ONE_SIX_ONLY, phase=Phase.CHOOSE_DOUBLE, bonus="choose")
    game.apply(ChooseDouble(0, 6))
    (play,) = game.legal_plays()
    assert play.dice_used == 1
    events = game.apply(Move(0, play))
    assert "roll-again" not in [e.kind for e in events]
    assert game.turn == 1 and game.phase is Phase.ROLL


def test_a_chosen_double_played_in_full_gives_another_roll() -> None:
    game = Game(ACEY, position=FOUR_ONES, phase=Phase.CHOOSE_DOUBLE, bonus="choose")
    game.apply(ChooseDouble(0, 1))
    assert all(p.dice_used == 4 for p in game.legal_plays())
    events = game.apply(Move(0, game.legal_plays()[0]))
    assert events[-1].kind == "roll-again"
    assert game.turn == 0 and game.phase is Phase.ROLL and game.bonus is None


def test_a_chosen_double_with_no_move_at_all_passes_the_turn() -> None:
    blocked = Position(*rows("x: 24:1 13:14; o: 7:2 18:2 6:11"), "acey-deucey")
    game = Game(ACEY, position=blocked, phase=Phase.CHOOSE_DOUBLE, bonus="choose")
    events = game.apply(ChooseDouble(0, 6))
    assert "no-move" in [e.kind for e in events]
    assert game.turn == 1 and game.phase is Phase.ROLL


# -- the opening: "some players prefer that the first player throws his dice anew for the
# first move" (Norwegian rules).


def test_opening_defaults_by_variant() -> None:
    for name in ("standard", "nackgammon", "hypergammon"):
        assert Rules(variant=name).opening == "use-opening-dice"
    for name in ("dutch", "acey-deucey"):
        assert Rules(variant=name).opening == "reroll"


def test_with_reroll_the_winner_of_the_opening_throw_throws_both_dice_anew() -> None:
    game = Game(Rules(opening="reroll"))
    events = game.apply(Roll(1, (2, 5)))  # player 1 throws the higher die
    assert events[-1].kind == "opening" and events[-1].data["reroll"] is True
    assert game.phase is Phase.ROLL and game.turn == 1 and game.rolled is None
    assert game.position == Position.initial()
    game.apply(Roll(1, (6, 6)))  # the first move may now be a double
    assert game.phase is Phase.MOVE and game.rolled == (6, 6)
    with pytest.raises(IllegalActionError) as info:
        game.apply(Roll(0, (3, 1)))
    assert info.value.reason is Reason.ALREADY_ROLLED


def test_with_the_opening_dice_the_winner_plays_them() -> None:
    game = Game(Rules(variant="dutch", opening="use-opening-dice"))
    game.apply(Roll(0, (5, 2)))
    assert game.phase is Phase.MOVE and game.rolled == (5, 2) and game.turn == 0


def test_an_unknown_opening_is_refused() -> None:
    with pytest.raises(GammonError, match="opening must be one of use-opening-dice, reroll"):
        Rules(opening="first-roll-wins")


# -- the next game of a match is its own, explicit action.


def finished_first_game(length: int = 5) -> Match:
    match = Match(Rules(match_length=length))
    match.apply(Roll(0, (3, 1)))
    match.apply(Resign(0, ResultKind.SINGLE))
    match.apply(AcceptResignation(1))
    assert match.game.is_over and match.score == [0, 1]
    return match


@pytest.mark.parametrize("action", [Roll(0, (3, 1)), Roll(1, (6, 2)), Double(0), Resign(1), Take(0)])
def test_nothing_but_new_game_is_accepted_after_a_game_ends(action: object) -> None:
    match = finished_first_game()
    before = match.snapshot()
    with pytest.raises(IllegalActionError) as info:
        match.apply(action)  # type: ignore[arg-type]
    assert info.value.reason is Reason.GAME_OVER
    assert match.snapshot() == before and len(match.games) == 1
    assert match.allowed_actions() == [NewGame()]


def test_new_game_starts_the_next_game_and_is_recorded() -> None:
    match = finished_first_game()
    events = match.apply(NewGame())
    assert [e.kind for e in events] == ["new-game"]
    assert len(match.games) == 2 and match.game.phase is Phase.OPENING
    assert match.actions.count(NewGame()) == 1
    replayed = Match.replay(match.rules, match.actions)
    assert replayed.snapshot() == match.snapshot()


def test_new_game_is_refused_while_a_game_runs_and_after_the_match() -> None:
    match = Match(Rules(match_length=1))
    with pytest.raises(IllegalActionError) as info:
        match.apply(NewGame())
    assert info.value.reason is Reason.GAME_IN_PROGRESS
    match.apply(Roll(0, (3, 1)))
    match.apply(Resign(0, ResultKind.SINGLE))
    match.apply(AcceptResignation(1))
    assert match.is_over
    before = match.snapshot()
    with pytest.raises(IllegalActionError) as info:
        match.apply(NewGame())
    assert info.value.reason is Reason.MATCH_OVER
    assert match.snapshot() == before and match.allowed_actions() == []


# -- one scoring rule: Rules.points_for


@pytest.mark.parametrize(
    ("rules", "kind", "cube", "owner", "points"),
    [
        (Rules(), ResultKind.BACKGAMMON, 2, 0, 6),
        (Rules(gammons=False), ResultKind.BACKGAMMON, 2, 0, 2),
        # Jacoby: "gammons and backgammons count single while the cube is centred" ...
        (Rules(jacoby=True), ResultKind.GAMMON, 1, CENTERED, 1),
        # ... even at 2 after an automatic double (the cube was never turned) ...
        (Rules(jacoby=True, automatic_doubles=1), ResultKind.GAMMON, 2, CENTERED, 2),
        # ... and in full once a player owns it.
        (Rules(jacoby=True), ResultKind.GAMMON, 2, 1, 4),
        # Jacoby is a money rule: a match counts gammons always.
        (Rules(match_length=5, jacoby=True), ResultKind.GAMMON, 1, CENTERED, 2),
    ],
)
def test_points_for(rules: Rules, kind: ResultKind, cube: int, owner: int, points: int) -> None:
    assert rules.points_for(kind, cube, cube_owner=owner) == points


def test_acey_deucey_pays_per_checker_left() -> None:
    # "The loser pays the stake times the checkers still on the board."
    assert ACEY.points_for(ResultKind.GAMMON, 1, checkers_left=9) == 9
    assert ACEY.points_for(ResultKind.SINGLE, 1, checkers_left=0) == 1


def test_points_for_refuses_nonsense() -> None:
    with pytest.raises(GammonError):
        Rules().points_for(4, 1)  # type: ignore[arg-type]
    with pytest.raises(GammonError):
        Rules().points_for(ResultKind.SINGLE, 3)


# -- values: pickling and deep copies keep equality


def _mid_game() -> Game:
    game = Game(Rules(beavers=True), RandomDice(7))
    game.apply(Roll(0, (3, 1)))
    game.apply(Move(0, "8/5 6/5"))
    game.apply(Double(1))
    return game


@pytest.mark.parametrize(
    "value",
    [
        Position.initial(),
        Position.initial("acey-deucey"),
        pos("x: bar:1 13:2; o: 24:1", "nackgammon"),
        *VARIANTS.values(),
        Rules(variant="dutch", match_length=5),
        Roll(0, (3, 1)), Move(1, "24/18"), Resign(0, ResultKind.GAMMON), NewGame(), ChooseDouble(0, 4),
        CheckerMove(25, 22, True, True),
        Position.initial().legal_plays((3, 1))[0],
        Event("rolled", 0, "x", {"dice": (3, 1)}),
        GameResult(0, ResultKind.GAMMON, 2, 4),
        Phase.BEAVERED, Reason.CUBE_AT_MAX,
    ],
    ids=repr,
)
def test_values_survive_pickling_and_deep_copies(value: object) -> None:
    for again in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value), copy.copy(value)):
        assert again == value
        if not isinstance(value, Event):  # an event carries a dict: equal, not hashable
            assert hash(again) == hash(value)


def test_games_and_matches_survive_pickling() -> None:
    game = _mid_game()
    match = Match(Rules(match_length=3), RandomDice(3))
    match.apply(Roll(0, (4, 2)))
    for value in (game, match):
        again = pickle.loads(pickle.dumps(value))
        assert again.snapshot() == value.snapshot()
        assert copy.deepcopy(value).snapshot() == value.snapshot()
    err = IllegalActionError("no", Reason.OUT_OF_TURN)
    again_err = pickle.loads(pickle.dumps(err))
    assert again_err.reason is Reason.OUT_OF_TURN and str(again_err) == "no"


def test_variants_compare_by_value() -> None:
    twin = Variant(*[getattr(STANDARD, f) for f in STANDARD.__dataclass_fields__])
    assert twin == STANDARD and twin is not STANDARD and hash(twin) == hash(STANDARD)
    p = Position(Position.initial().me, Position.initial().opp, twin)
    assert p == Position.initial() and hash(p) == hash(Position.initial())
    assert pickle.loads(pickle.dumps(ACEY_DEUCEY)) is ACEY_DEUCEY  # registered: the same object


def test_a_rerolled_opening_is_refused_by_mat_and_sgf_but_kept_by_json() -> None:
    # .mat and SGF write the opening roll as the first move; a rerolled opening has none.
    from gammon.formats.mat import MatFormatError, write_mat
    from gammon.formats.record_json import match_from_json, match_to_json
    from gammon.formats.sgf import SgfFormatError, write_sgf

    match = Match(Rules(match_length=3, opening="reroll"))
    match.apply(Roll(0, (5, 3)))
    match.apply(Roll(0, (6, 6)))
    with pytest.raises(MatFormatError, match="reroll"):
        write_mat(match, ("A", "B"))
    with pytest.raises(SgfFormatError, match="reroll"):
        write_sgf(match, ("A", "B"))
    again = match_from_json(match_to_json(match, ("A", "B")))
    assert again.game.snapshot() == match.game.snapshot()
