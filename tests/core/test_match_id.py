"""GNU Backgammon Match ID: the manual's example, every field, round trips, bad input."""

from __future__ import annotations

import base64
import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon.core.errors import GammonError, InvalidIdError
from gammon.core.match_id import (
    GameState,
    MatchId,
    Resignation,
    decode_match_id,
    encode_match_id,
)

# (width, default) of each field in key order, as the GNU manual lists them,
# then bit 66 (written by gnubg's matchid.c as "Jacoby off").
FIELDS = {
    "cube": 4, "owner": 2, "on_roll": 1, "crawford": 1, "state": 3, "turn": 1,
    "doubled": 1, "resign": 2, "die1": 3, "die2": 3, "length": 15, "score0": 15,
    "score1": 15, "no_jacoby": 1,
}


def pack(**values: int) -> str:
    """A Match ID from raw field values, packed independently of the module under test."""
    bits = ""
    for name, width in FIELDS.items():
        value = values.get(name, 3 if name == "owner" else 1 if name == "state" else 0)
        bits += "".join(str(value >> i & 1) for i in range(width))  # low bit first
    bits = bits.ljust(72, "0")
    raw = bytes(int(bits[i : i + 8][::-1], 2) for i in range(0, 72, 8))
    return base64.b64encode(raw).decode()


def test_manual_example_decodes_field_by_field() -> None:
    # GNU Backgammon manual, "A technical description of the Match ID": score
    # 2-4 in a 9-point match, player 0 holds a 2-cube, player 1 has rolled 52.
    m = decode_match_id("QYkqASAAIAAA")
    assert m == MatchId(
        cube_value=2,
        cube_owner=0,
        player_on_roll=1,
        crawford=False,
        game_state=GameState.PLAYING,
        turn=1,
        double_offered=False,
        resignation=Resignation.NONE,
        dice=(5, 2),
        match_length=9,
        score=(2, 4),
        jacoby=True,  # bit 66 clear: gnubg reads that as Jacoby on (fJacoby = !bit)
    )
    assert encode_match_id(m) == "QYkqASAAIAAA"


def test_manual_example_bit_string() -> None:
    # The manual writes the key for the example above as (fields bit-reversed
    # for reading): 1000 00 1 0 100 1 0 00 101 010 1001000... 0100000... 0010000...
    assert pack(cube=1, owner=0, on_roll=1, state=1, turn=1, die1=5, die2=2,
                length=9, score0=2, score1=4) == "QYkqASAAIAAA"


def test_start_of_money_session_example() -> None:
    # The manual's pair "4HPwATDgc/ABMA:cAgAAAAAAAAA".
    m = decode_match_id("cAgAAAAAAAAA")
    assert m.cube_value == 1 and m.cube_owner is None
    assert m.player_on_roll == 1 and m.turn == 1
    assert m.game_state == GameState.NONE
    assert m.is_money and m.score == (0, 0) and m.dice is None
    assert encode_match_id(m) == "cAgAAAAAAAAA"


def test_default_state_and_jacoby_bit() -> None:
    assert encode_match_id(MatchId()) == "MAEAAAAAAAAE" == pack(no_jacoby=1)
    assert encode_match_id(MatchId(jacoby=True)) == "MAEAAAAAAAAA"
    assert decode_match_id("MAEAAAAAAAAE") == MatchId()


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"cube": 3}, {"cube_value": 8}),
        ({"cube": 12}, {"cube_value": 4096}),
        ({"owner": 1}, {"cube_owner": 1}),
        ({"owner": 0}, {"cube_owner": 0}),
        ({"on_roll": 1}, {"player_on_roll": 1}),
        ({"crawford": 1, "length": 5, "score0": 4}, {"crawford": True}),
        ({"state": 0}, {"game_state": GameState.NONE}),
        ({"state": 2}, {"game_state": GameState.OVER}),
        ({"state": 3}, {"game_state": GameState.RESIGNED}),
        ({"state": 4}, {"game_state": GameState.DROPPED}),
        ({"turn": 1, "doubled": 1}, {"turn": 1, "double_offered": True}),
        ({"resign": 2}, {"resignation": Resignation.GAMMON}),
        ({"resign": 3}, {"resignation": Resignation.BACKGAMMON}),
        ({"die1": 6, "die2": 6}, {"dice": (6, 6)}),
        ({"die1": 1, "die2": 3}, {"dice": (1, 3)}),
        ({"length": 25, "score0": 24, "score1": 7}, {"match_length": 25, "score": (24, 7)}),
        ({"no_jacoby": 1}, {"jacoby": False}),
    ],
)
def test_each_field(fields: dict[str, int], expected: dict[str, object]) -> None:
    text = pack(**fields)
    m = decode_match_id(text)
    for name, value in expected.items():
        assert getattr(m, name) == value, name
    assert encode_match_id(m) == text


def test_labels_and_spaces_are_accepted() -> None:
    assert decode_match_id("  Match ID: QYkqASAAIAAA \n").dice == (5, 2)


def test_finished_match_may_reach_the_length() -> None:
    m = decode_match_id(pack(state=2, length=7, score0=9, score1=3))
    assert m.score == (9, 3) and m.game_state == GameState.OVER


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("QYkqASAAIAA", "12 characters"),
        ("QYkqASAAIAAAA", "12 characters"),
        ("", "12 characters"),
        ("QYkqASAA!AAA", "'!'"),
        ("QYkqASAA AAA", "' '"),
        ("QYkqASAAIAA=", "'='"),
        (pack(die1=7, die2=2), "dice 7"),
        (pack(die1=0, die2=3), "one die"),
        (pack(owner=2), "cube owner 2"),
        (pack(state=5), "game state 5"),
        (pack(state=7), "game state 7"),
        (pack(cube=13), "cube value"),
        (pack(cube=15), "cube value"),
        (pack(length=7, score0=7), "not below the match length"),
        (pack(length=7, score1=9), "not below the match length"),
        (pack(state=2, length=7, score0=7, score1=7), "both players"),
        (pack(crawford=1), "no Crawford game"),
        ("QYkqASAAIAAI", "padding"),
        ("QYkqASAAIAA/", "padding"),
    ],
)
def test_bad_match_ids(text: str, words: str) -> None:
    with pytest.raises(InvalidIdError) as info:
        decode_match_id(text)
    assert words in str(info.value)


def test_non_text_is_rejected() -> None:
    with pytest.raises(InvalidIdError, match="text"):
        decode_match_id(12345)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"cube_value": 3},
        {"cube_value": 0},
        {"cube_value": 8192},
        {"cube_owner": 2},
        {"cube_owner": -1},
        {"player_on_roll": 2},
        {"turn": -1},
        {"dice": (0, 3)},
        {"dice": (7, 1)},
        {"match_length": -1},
        {"match_length": 1 << 15},
        {"match_length": 5, "score": (5, 0)},
        {"match_length": 5, "score": (-1, 0)},
        {"crawford": True},
    ],
)
def test_impossible_states_cannot_be_built(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidIdError, match="impossible match state"):
        MatchId(**kwargs)  # type: ignore[arg-type]


match_states = st.builds(
    MatchId,
    cube_value=st.sampled_from([1 << i for i in range(13)]),
    cube_owner=st.sampled_from([None, 0, 1]),
    player_on_roll=st.integers(0, 1),
    crawford=st.just(False),
    game_state=st.sampled_from(list(GameState)),
    turn=st.integers(0, 1),
    double_offered=st.booleans(),
    resignation=st.sampled_from(list(Resignation)),
    dice=st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)),
    match_length=st.just(0),
    score=st.tuples(st.integers(0, 1000), st.integers(0, 1000)),
    jacoby=st.booleans(),
)


@st.composite
def match_play_states(draw: st.DrawFn) -> MatchId:
    length = draw(st.integers(1, 64))
    score = (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
    base = draw(match_states)
    return MatchId(
        cube_value=base.cube_value,
        cube_owner=base.cube_owner,
        player_on_roll=base.player_on_roll,
        crawford=draw(st.booleans()),
        game_state=draw(st.sampled_from([GameState.NONE, GameState.PLAYING])),
        turn=base.turn,
        double_offered=base.double_offered,
        resignation=base.resignation,
        dice=base.dice,
        match_length=length,
        score=score,
        jacoby=base.jacoby,
    )


@given(match_states | match_play_states())
def test_state_round_trip(state: MatchId) -> None:
    text = encode_match_id(state)
    assert len(text) == 12
    assert decode_match_id(text) == state
    assert encode_match_id(decode_match_id(text)) == text


@given(st.binary(min_size=9, max_size=9))
def test_any_key_decodes_exactly_or_fails_cleanly(raw: bytes) -> None:
    text = base64.b64encode(raw).decode()
    try:
        state = decode_match_id(text)
    except GammonError as exc:
        assert isinstance(exc, InvalidIdError) and "Match ID" in str(exc)
    else:
        assert encode_match_id(state) == text


@given(st.text(max_size=20))
def test_any_text_decodes_or_raises_a_gammon_error(text: str) -> None:
    try:
        state = decode_match_id(text)
    except InvalidIdError as exc:
        assert "Match ID" in str(exc)
    else:
        # whatever decodes is a valid state that encodes and decodes back to itself
        again = encode_match_id(state)
        assert decode_match_id(again) == state and len(again) == 12


def test_docstring_examples() -> None:
    from gammon.core import match_id

    result = doctest.testmod(match_id)
    assert result.attempted > 0 and result.failed == 0


def test_field_limits_are_inclusive() -> None:
    """The longest match gnubg's Match ID carries here is 64 points, and a 15-bit score field
    holds up to 32767 (a money session's running score)."""
    top = MatchId(match_length=64, score=(63, 2))
    assert decode_match_id(encode_match_id(top)) == top
    rich = MatchId(match_length=0, score=(32767, 32767))
    assert decode_match_id(encode_match_id(rich)).score == (32767, 32767)
    with pytest.raises(InvalidIdError) as info:
        MatchId(match_length=65)
    assert str(info.value) == ("impossible match state: the match length must be 0 (money) or 1 to 64 "
                               "points, not 65")
    with pytest.raises(InvalidIdError) as info:
        MatchId(score=(32768, 0))
    assert str(info.value) == ("impossible match state: the score must be two numbers from 0 to 32767, "
                               "not (32768, 0)")


def test_impossible_states_are_named_exactly() -> None:
    with pytest.raises(InvalidIdError) as info:
        MatchId(match_length=0, crawford=True)
    assert str(info.value) == "impossible match state: a money game has no Crawford game"
    with pytest.raises(InvalidIdError) as info:
        MatchId(match_length=5, score=(5, 2))
    assert str(info.value) == ("impossible match state: score 5-2 is not below the match length 5, "
                               "yet the match goes on")
    with pytest.raises(InvalidIdError) as info:
        decode_match_id(12345)  # type: ignore[arg-type]
    assert str(info.value) == "a Match ID is text, not int"
    # the first character outside base64's alphabet is named with its place, counted from 1
    with pytest.raises(InvalidIdError) as info:
        decode_match_id("cAkAAAAAAA!A")
    assert str(info.value) == ("'cAkAAAAAAA!A' is not a Match ID: '!' (character 11) is not "
                               "one of A-Z a-z 0-9 + /")


@pytest.mark.parametrize(("fields", "why"), [
    ({"cube": 13}, "cube value 2**13 is above the largest cube, 4096"),
    ({"cube": 15}, "cube value 2**15 is above the largest cube, 4096"),
    ({"owner": 2}, "cube owner 2 (only 0, 1 and 3 = centred exist)"),
    ({"die1": 7, "die2": 1}, "dice 7 and 1 (each die is 1 to 6, or 0 before the roll)"),
    ({"die1": 1, "die2": 7}, "dice 1 and 7 (each die is 1 to 6, or 0 before the roll)"),
    ({"crawford": 1}, "a money game has no Crawford game"),
])
def test_impossible_fields_are_refused_with_their_reason(fields: dict[str, int], why: str) -> None:
    """Decoding names the field that cannot be, once (no doubled prefix)."""
    text = pack(**fields)
    with pytest.raises(InvalidIdError) as info:
        decode_match_id(text)
    assert str(info.value) == f"{text!r} is not a valid Match ID: {why}"


def test_the_largest_cube_decodes() -> None:
    assert decode_match_id(pack(cube=12)).cube_value == 4096
