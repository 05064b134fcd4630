"""XGID errors say exactly what is wrong: the message of each refusal, the letters past O,
the first problem of an impossible state, and that a reader's message never leaks the
``XgidState`` wording.  (test_xgid.py and test_xgid_fields.py check which inputs are
refused; here the words of the refusal are the subject: an XGID is external input and a
person must be told which part of it is wrong.)"""

from __future__ import annotations

import pytest

from boards import XGID_START_BOARD, xgid
from gammon.core.errors import InvalidIdError
from gammon.core.match_id import MAX_MATCH_LENGTH
from gammon.core.position import Position
from gammon.core.xgid import XgidState, parse_xgid

BOARD = XGID_START_BOARD
START = Position.initial()



def message(text: object) -> str:
    with pytest.raises(InvalidIdError) as info:
        parse_xgid(text)  # type: ignore[arg-type]
    return str(info.value)


def state_message(**kwargs: object) -> str:
    with pytest.raises(InvalidIdError) as info:
        XgidState(**{"position": START, **kwargs})  # type: ignore[arg-type]
    return str(info.value)


# -- parse_xgid: "<the text> is not a valid XGID: <why>", nothing else -----------------


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (xgid(board=BOARD[:-1]), "the position has 25 characters, 26 expected"),
        (xgid(board=BOARD + "-"), "the position has 27 characters, 26 expected"),
        (xgid(board="A" + BOARD[1:]), "character 1 is the top player's bar: only a-o or - fit"),
        (xgid(board=BOARD[:25] + "a"), "character 26 is the bottom player's bar: only A-O or - fit"),
        (xgid(top=-1), "a score is negative"),
        (xgid(bottom=-2), "a score is negative"),
        # These reach XgidState's own check: its "impossible XGID state: " prefix is dropped.
        (xgid(cube=4, max_cube=3), "the cube (16) is above the maximum cube (8)"),
        (xgid(cube=1, place=1, dice="B", length=5), "there are no beavers in match play"),
        (xgid(bottom=7, length=7), "score 7-0 is not below the match length 7"),
        (xgid(top=7, length=7, turn=-1), "score 7-0 is not below the match length 7"),
        (xgid(length=MAX_MATCH_LENGTH + 1),
         f"the match length must be 0 (money) or 1 to {MAX_MATCH_LENGTH} points, "
         f"not {MAX_MATCH_LENGTH + 1}"),
    ],
)
def test_refusal_quotes_the_text_and_says_why(text: str, why: str) -> None:
    assert message(text) == f"{text!r} is not a valid XGID: {why}"


def test_refusal_of_a_whole_state_does_not_repeat_the_state_wording() -> None:
    for text in (xgid(cube=1, max_cube=0), xgid(cube=1, place=1, dice="R", length=3)):
        words = message(text)
        assert "impossible XGID state" not in words
        assert "impossible xgid state" not in words.lower()
        assert words.count("is not a valid XGID") == 1


def test_non_text_names_its_type() -> None:
    assert message(None) == "an XGID is text, not NoneType"
    assert message(b"XGID=" + BOARD.encode()) == "an XGID is text, not bytes"
    assert message(42) == "an XGID is text, not int"


# -- the checker letters: A-O and a-o only, past O is too many checkers --------------


@pytest.mark.parametrize("letter", ["P", "T", "X", "Y", "Z"])
def test_upper_case_letters_past_o_count_too_many_checkers(letter: str) -> None:
    """P is 16 checkers, Z 26: a count no player has, refused as an impossible position."""
    count = ord(letter) - ord("A") + 1
    board = "-" * 6 + letter + "-" * 19  # the bottom player's 6-point, nothing else
    words = message(xgid(board=board))
    assert "impossible position" in words
    assert f"{count} checkers" in words


@pytest.mark.parametrize("letter", ["p", "x", "y", "z"])
def test_lower_case_letters_past_o_count_too_many_checkers(letter: str) -> None:
    count = ord(letter) - ord("a") + 1
    board = "-" * 19 + letter + "-" * 6
    words = message(xgid(board=board))
    assert "impossible position" in words
    assert f"{count} checkers" in words


@pytest.mark.parametrize("bad", ["[", "@", "`", "{", "0"])
def test_characters_beside_the_letter_ranges_are_not_checkers(bad: str) -> None:
    """The neighbours of A-Z and a-z in ASCII are no letters: 'not a checker' words."""
    board = BOARD[:3] + bad + BOARD[4:]
    assert f"position character 4 is {bad!r}; expected -, A-O or a-o" in message(xgid(board=board))


# -- the dice field --------------------------------------------------------------------


@pytest.mark.parametrize("dice", ["XX", "x5", "5X", "X1", "1x"])
def test_dice_field_with_letters_is_refused_with_words(dice: str) -> None:
    text = xgid(dice=dice)
    assert message(text) == (
        f"{text!r} is not a valid XGID: dice field {dice!r}: expected two dice 1-6, 00, D, B or R"
    )


# -- XgidState: the first problem found, in full --------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "why"),
    [
        ({"position": "start"}, "position must be a Position, not str"),
        ({"position": None}, "position must be a Position, not NoneType"),
        ({"position": (1, 2)}, "position must be a Position, not tuple"),
        ({"cube_value": 3}, "the cube value must be a power of two up to 4096"),
        ({"cube_value": 8192, "max_cube": 2**15}, "the cube value must be a power of two up to 4096"),
        ({"max_cube": 3}, "the maximum cube must be a power of two up to 2**15"),
        ({"cube_value": 4, "max_cube": 2}, "the cube (4) is above the maximum cube (2)"),
        ({"dice": (3, 1), "double_offered": True}, "the dice are not rolled while a double is pending"),
        # A pending beaver or raccoon with dice is reported as dice during a double too,
        # before the missing double is.
        ({"dice": (3, 1), "beavered": True}, "the dice are not rolled while a double is pending"),
        ({"dice": (3, 1), "raccooned": True}, "the dice are not rolled while a double is pending"),
        ({"beavered": True}, "a beaver answers a double: double_offered must be set"),
        ({"double_offered": True, "raccooned": True}, "a raccoon answers a beaver: beavered must be set"),
        ({"match_length": 5, "jacoby": True},
         "the Jacoby rule and beavers are money-game rules, not match rules"),
        ({"match_length": 5, "beaver": True},
         "the Jacoby rule and beavers are money-game rules, not match rules"),
        ({"match_length": 5, "double_offered": True, "beavered": True}, "there are no beavers in match play"),
        ({"match_length": 5, "score": (0, 5)}, "score 0-5 is not below the match length 5"),
        ({"match_length": 5, "score": (6, 2)}, "score 6-2 is not below the match length 5"),
        ({"crawford": True}, "a money game has no Crawford game"),
    ],
)
def test_impossible_state_says_what_is_wrong(kwargs: dict[str, object], why: str) -> None:
    assert state_message(**kwargs) == f"impossible XGID state: {why}"
