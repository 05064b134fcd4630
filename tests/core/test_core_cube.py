"""The cube's vocabulary in core: the owner (absolute and relative), the match's phase.

Each view of the owner had its own conversion (the game's -1/0/1, the
engine's owner seen from the player on roll, the Match ID's None, the XGID's
0/+-1): these tests pin the one conversion that replaced them.
"""

from __future__ import annotations

import pytest

from gammon.ai.cube import CubeInfo
from gammon.core.cube import CubeAction, CubeOwner, RelativeOwner
from gammon.core.errors import GammonError
from gammon.core.game import Double, Drop, Game, Phase, Roll, Rules, Take
from gammon.core.match import Match, MatchPhase
from gammon.core.position import Position
from gammon.core.xgid import XgidState, format_xgid
from gammon.play.session import next_action


@pytest.mark.parametrize(("owner", "viewer", "seen"), [
    (CubeOwner.CENTERED, 0, RelativeOwner.CENTERED), (CubeOwner.CENTERED, 1, RelativeOwner.CENTERED),
    (CubeOwner.PLAYER_0, 0, RelativeOwner.ME), (CubeOwner.PLAYER_0, 1, RelativeOwner.OPPONENT),
    (CubeOwner.PLAYER_1, 0, RelativeOwner.OPPONENT), (CubeOwner.PLAYER_1, 1, RelativeOwner.ME),
])
def test_relative_view_and_back(owner: CubeOwner, viewer: int, seen: RelativeOwner) -> None:
    assert owner.relative(viewer) is seen
    assert CubeOwner.from_relative(seen, viewer) is owner
    assert owner.relative(1 - viewer) is seen.swap()


def test_owner_keeps_the_numbers_it_always_had() -> None:
    # Stored and compared as -1 (centred), 0 and 1: the enum is those ints.
    assert [int(o) for o in CubeOwner] == [-1, 0, 1] == [int(o) for o in RelativeOwner]
    assert CubeOwner.CENTERED == -1 and CubeOwner.of(None) is CubeOwner.CENTERED
    assert CubeOwner.PLAYER_1.player == 1 and CubeOwner.CENTERED.player is None
    for bad in (2, -2, True, "0"):
        with pytest.raises(GammonError, match="cube owner"):
            CubeOwner.of(bad)  # type: ignore[arg-type]
        with pytest.raises(GammonError, match="cube owner"):
            RelativeOwner.of(bad)  # type: ignore[arg-type]


def test_game_owner_is_a_cube_owner_after_a_take() -> None:
    assert Game(Rules()).cube_owner is CubeOwner.CENTERED
    game = Game(Rules(), turn=0, phase=Phase.ROLL, cube_owner=0, cube_value=2)
    assert game.cube_owner is CubeOwner.PLAYER_0
    assert repr(game).count("cube_owner=0") == 1  # the repr still builds the game again
    game.apply(Double(0))
    game.apply(Take(1))
    assert game.cube_owner is CubeOwner.PLAYER_1


def test_cube_info_reads_every_owner_the_same_way() -> None:
    """The engine's view of an XGID's cube is the view of the game built from that XGID."""
    for xgid_owner in (0, 1, -1):
        state = XgidState(Position.initial(), cube_value=1 if xgid_owner == 0 else 2, cube_owner=xgid_owner)
        game = Game.from_xgid(format_xgid(state))
        info = CubeInfo.from_game(game)
        assert info.owner is state.relative_owner is game.cube_owner.relative(game.turn)
        assert CubeInfo.from_xgid(state).owner is info.owner
        assert info.swap().owner is info.owner.swap()
    with pytest.raises(GammonError, match="cube owner"):
        CubeInfo(owner=2)  # type: ignore[arg-type]


def test_match_phase_is_an_enum_with_the_old_words() -> None:
    match = Match(Rules(match_length=1))
    assert match.phase is MatchPhase.GAME and match.phase == "game"
    assert [p.value for p in MatchPhase] == ["game", "between-games", "over"]


def test_cube_action_values_and_words_are_the_old_strings() -> None:
    """Values: what the analysis, the engine and the reports print; words: the player protocols'."""
    assert [a.value for a in CubeAction] == [
        "no double", "double", "take", "pass", "beaver", "double/take", "double/pass", "too good to double"]
    assert [a.word for a in CubeAction] == [
        "no-double", "double", "take", "drop", "beaver", "double/take", "double/pass", "too-good-to-double"]
    assert CubeAction.PASS is CubeAction.DROP
    for a in CubeAction:
        assert CubeAction.parse(a.value) is a and CubeAction.parse(a.word) is a and CubeAction.parse(a) is a
    assert [a for a in CubeAction if a.doubles] == [
        CubeAction.DOUBLE, CubeAction.DOUBLE_TAKE, CubeAction.DOUBLE_PASS]
    for bad in ("maybe", "", None, 1):
        with pytest.raises(GammonError, match="not a cube action"):
            CubeAction.parse(bad)


class _Answers:
    """A player whose cube replies are scripted: the enum or the words players returned before it."""

    def __init__(self, cube: object, answer: object) -> None:
        self.cube, self.answer = cube, answer

    def cube_action(self, game: Game) -> object:
        return self.cube

    def answer_double(self, game: Game) -> object:
        return self.answer

    def resign(self, game: Game) -> None:
        return None

    choose_play = answer_resignation = choose_double_number = resign


@pytest.mark.parametrize(("cube", "answer", "want"), [
    (CubeAction.DOUBLE, CubeAction.DROP, Drop), ("double", "drop", Drop), ("double", "pass", Drop),
    (CubeAction.DOUBLE, CubeAction.TAKE, Take), ("double", "take", Take),
])
def test_the_session_reads_the_enum_and_the_old_words(cube: object, answer: object, want: type) -> None:
    game = Game(Rules(), turn=0, phase=Phase.ROLL)
    players = [_Answers(cube, answer), _Answers(cube, answer)]
    assert next_action(game, players) == Double(0)  # type: ignore[arg-type]
    game.apply(Double(0))
    assert next_action(game, players) == want(1)  # type: ignore[arg-type]
    for no in (CubeAction.NO_DOUBLE, "no-double", "no double"):
        assert next_action(Game(Rules(), turn=0, phase=Phase.ROLL), [_Answers(no, None)] * 2) == Roll(0)  # type: ignore[list-item]
    with pytest.raises(GammonError, match="a cube action is 'double' or 'no-double', not 'take'"):
        next_action(Game(Rules(), turn=0, phase=Phase.ROLL), [_Answers("take", None)] * 2)  # type: ignore[list-item]
    with pytest.raises(GammonError, match="a double is answered 'take' or 'drop' or 'beaver', not 'double'"):
        next_action(game, [_Answers(None, "double")] * 2)  # type: ignore[list-item]
