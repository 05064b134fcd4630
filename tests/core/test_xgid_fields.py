"""XGID field by field, from the format's description (gammon.core.xgid's docstring):
each field's values at its bounds, the first value past them, what each value means,
and that writing reads back.  The position strings are the start position's."""

from __future__ import annotations

import pytest

from boards import XGID_START_BOARD, pos, xgid
from gammon.core.errors import InvalidIdError
from gammon.core.match_id import MAX_MATCH_LENGTH
from gammon.core.position import Position
from gammon.core.xgid import XgidState, format_xgid, parse_xgid

BOARD = XGID_START_BOARD
START = Position.initial()



def refused(text: str, words: str) -> None:
    with pytest.raises(InvalidIdError) as info:
        parse_xgid(text)
    assert words in str(info.value), str(info.value)
    assert repr(text) in str(info.value)  # the message quotes the text read


# -- 0: the checkers --------------------------------------------------------------


def test_letters_count_checkers_one_to_fifteen() -> None:
    # The bottom player (on roll) with 15 on the 6-point, the top player with 15 on his 1-point.
    board = "-" + "-----O" + "-" * 17 + "o" + "-"
    s = parse_xgid(xgid(board=board))
    assert s.position.me[5] == 15 and s.position.opp[0] == 15
    assert format_xgid(s) == xgid(board=board)
    # A is one checker; b-p, upper and lower case, count up from there.
    board = "-" + "A" + "B" + "C" + "-" * 18 + "c" + "b" + "a" + "-"
    s = parse_xgid(xgid(board=board))
    assert s.position.me[:3] == (1, 2, 3) and s.position.opp[:3] == (1, 2, 3)
    assert s.position.checkers_off == (9, 9)


def test_character_positions_are_the_bottom_players_points() -> None:
    """Character i (1..24) is the bottom player's point i, which is the top player's 25 - i."""
    for i in range(1, 25):
        bottom = "-" * i + "A" + "-" * (24 - i) + "-"
        s = parse_xgid(xgid(board=bottom))
        assert s.position.me[i - 1] == 1 and sum(s.position.me) == 1
        top = "-" * i + "a" + "-" * (24 - i) + "-"
        s = parse_xgid(xgid(board=top))
        assert s.position.opp[24 - i] == 1 and sum(s.position.opp) == 1
        t = parse_xgid(xgid(board=top, turn=-1))  # the top player on roll: his own point 25 - i
        assert t.position.me[24 - i] == 1 and sum(t.position.opp) == 0


def test_bars_from_either_side() -> None:
    board = "c" + BOARD[1:25] + "-"  # the top player has 3 more on the bar: 18 checkers
    refused(xgid(board=board), "impossible position")
    board = "b" + "-" * 24 + "C"
    s = parse_xgid(xgid(board=board))
    assert s.position.bar == (3, 2)
    t = parse_xgid(xgid(board=board, turn=-1))
    assert t.position.bar == (2, 3)
    assert format_xgid(s) == xgid(board=board) and format_xgid(t) == xgid(board=board, turn=-1)


@pytest.mark.parametrize("bad", ["1", "*", " ", "_", "é"])
def test_other_characters_are_refused(bad: str) -> None:
    board = BOARD[:3] + bad + BOARD[4:]
    refused(xgid(board=board), "position character 4")


def test_both_players_on_one_point_is_impossible() -> None:
    # A point is one character, so only the bars could hold both: they are apart.
    refused(xgid(board="A" + BOARD[1:]), "top player's bar")
    refused(xgid(board=BOARD[:25] + "a"), "bottom player's bar")


# -- 1: the cube, 9: the max cube ------------------------------------------------


@pytest.mark.parametrize("log", [0, 1, 2, 6, 10])
def test_cube_field_is_a_power_of_two(log: int) -> None:
    s = parse_xgid(xgid(cube=log))
    assert s.cube_value == 2**log
    assert format_xgid(s) == xgid(cube=log)


def test_cube_field_bounds() -> None:
    assert parse_xgid(xgid(cube=12, max_cube=12)).cube_value == 4096
    refused(xgid(cube=12), "above the maximum cube")  # max cube 1024
    refused(xgid(cube=13, max_cube=15), "cube field 13")
    refused(xgid(cube=-1), "cube field -1")


def test_max_cube_field_bounds() -> None:
    assert parse_xgid(xgid(max_cube=15)).max_cube == 2**15
    assert parse_xgid(xgid(max_cube=0)).max_cube == 1
    assert parse_xgid(xgid(cube=3, max_cube=3)).cube_value == 8
    refused(xgid(max_cube=16), "max cube field 16")
    refused(xgid(max_cube=-1), "max cube field -1")
    refused(xgid(cube=1, max_cube=0), "above the maximum cube")
    for log in (0, 7, 15):
        assert format_xgid(parse_xgid(xgid(max_cube=log))) == xgid(max_cube=log)


def test_the_older_form_has_the_default_max_cube() -> None:
    s = parse_xgid(xgid().rsplit(":", 1)[0])
    assert s.max_cube == 1024 == parse_xgid(xgid(max_cube=10)).max_cube
    refused(xgid().rsplit(":", 1)[0].replace(":0:0:1:", ":11:0:1:"), "above the maximum cube")


# -- 2: the cube's place, 3: the turn --------------------------------------------


@pytest.mark.parametrize(
    ("place", "turn", "owner"),
    [(0, 1, 0), (1, 1, 1), (-1, 1, -1), (0, -1, 0), (1, -1, -1), (-1, -1, 1)],
)
def test_cube_place_is_seen_from_the_player_on_roll(place: int, turn: int, owner: int) -> None:
    """1: the bottom player owns it, -1 the top player; owner +1 = the player on roll."""
    s = parse_xgid(xgid(cube=1, place=place, turn=turn))
    assert s.cube_owner == owner and s.turn == turn
    assert format_xgid(s) == xgid(cube=1, place=place, turn=turn)


@pytest.mark.parametrize(("field", "value", "words"), [
    ("place", 2, "cube position 2"), ("place", -2, "cube position -2"),
    ("turn", 0, "turn 0"), ("turn", 2, "turn 2"), ("turn", -2, "turn -2"),
])
def test_place_and_turn_out_of_range(field: str, value: int, words: str) -> None:
    refused(xgid(**{field: value}), words)


def test_turn_swaps_the_sides() -> None:
    bottom = parse_xgid(xgid(bottom=3, top=1, length=5))
    top = parse_xgid(xgid(bottom=3, top=1, length=5, turn=-1))
    assert bottom.score == (3, 1) and top.score == (1, 3)
    assert top.position == START  # the start is the same from both sides
    p = pos("x: 6:2 bar:1; o: 1:3 13:1")
    for turn in (1, -1):
        s = XgidState(position=p, turn=turn, score=(2, 0), match_length=3)
        assert parse_xgid(format_xgid(s)) == s
    # The player on roll writes upper case on the bottom, lower case on the top.
    # x (on roll): 2 on his 6-point, 1 on the bar; o: 3 on his 1-point (x's 24), 1 on his 13 (x's 12).
    assert format_xgid(XgidState(position=p)).split(":")[0] == "XGID=-" + "-----B" + "-----a" + "-" * 11 + "cA"
    flipped = format_xgid(XgidState(position=p, turn=-1)).split(":")[0]
    assert flipped == "XGID=a" + "C" + "-" * 11 + "A" + "-" * 5 + "b" + "-" * 5 + "-"


# -- 4: the dice --------------------------------------------------------------------


@pytest.mark.parametrize("dice", ["11", "16", "61", "66", "25", "52", "34"])
def test_dice_are_kept_in_the_order_written(dice: str) -> None:
    s = parse_xgid(xgid(dice=dice))
    assert s.dice == (int(dice[0]), int(dice[1]))
    assert not s.double_offered and not s.beavered and not s.raccooned
    assert format_xgid(s) == xgid(dice=dice)


@pytest.mark.parametrize("dice", ["07", "70", "10", "01", "0", "000", "1", "123", "-1", "5a", "DD", "X", ""])
def test_dice_field_out_of_range(dice: str) -> None:
    refused(xgid(dice=dice), "dice field")


@pytest.mark.parametrize(
    ("field", "offered", "beavered", "raccooned"),
    [("D", True, False, False), ("B", True, True, False), ("R", True, True, True),
     ("d", True, False, False), ("b", True, True, False), ("r", True, True, True),
     ("00", False, False, False)],
)
def test_dice_field_before_the_roll_and_cube_offers(
    field: str, offered: bool, beavered: bool, raccooned: bool
) -> None:
    s = parse_xgid(xgid(cube=1, place=1, dice=field))
    assert s.dice is None
    assert (s.double_offered, s.beavered, s.raccooned) == (offered, beavered, raccooned)
    assert format_xgid(s) == xgid(cube=1, place=1, dice=field.upper())


# -- 5, 6: the scores; 8: the match length ----------------------------------------


def test_money_scores_have_no_limit() -> None:
    s = parse_xgid(xgid(bottom=250, top=0))
    assert s.score == (250, 0) and s.is_money
    refused(xgid(top=-1), "negative")
    refused(xgid(bottom="x"), "field 5 (bottom player's score)")
    refused(xgid(top="1.5"), "field 6 (top player's score)")


@pytest.mark.parametrize("length", [1, 2, 7, 25, MAX_MATCH_LENGTH])
def test_match_length_bounds(length: int) -> None:
    s = parse_xgid(xgid(length=length, bottom=length - 1, top=length - 1))
    assert s.match_length == length and not s.is_money
    assert s.score == (length - 1, length - 1)
    assert format_xgid(s) == xgid(length=length, bottom=length - 1, top=length - 1)
    refused(xgid(length=length, bottom=length), "not below the match length")
    refused(xgid(length=length, top=length), "not below the match length")


def test_match_length_out_of_range() -> None:
    refused(xgid(length=MAX_MATCH_LENGTH + 1), f"1 to {MAX_MATCH_LENGTH} points")
    refused(xgid(length=-1), "negative")
    refused(xgid(length="seven"), "field 8 (match length)")


# -- 7: Crawford in a match, Jacoby and beavers in money ---------------------------


@pytest.mark.parametrize(
    ("rules", "jacoby", "beaver"), [(0, False, False), (1, True, False), (2, False, True), (3, True, True)]
)
def test_money_rules_field(rules: int, jacoby: bool, beaver: bool) -> None:
    s = parse_xgid(xgid(rules=rules))
    assert (s.jacoby, s.beaver, s.crawford) == (jacoby, beaver, False)
    assert format_xgid(s) == xgid(rules=rules)


def test_match_rules_field() -> None:
    s = parse_xgid(xgid(rules=1, length=5, bottom=4))
    assert s.crawford and not s.jacoby and not s.beaver
    assert format_xgid(s) == xgid(rules=1, length=5, bottom=4)
    assert not parse_xgid(xgid(rules=0, length=5)).crawford
    for rules in (2, 3, -1):
        refused(xgid(rules=rules, length=5), "in a match")
    for rules in (4, -1):
        refused(xgid(rules=rules), "in a money game")
    refused(xgid(rules="J"), "field 7 (Crawford/Jacoby)")


def test_beavers_answer_a_double_in_money_only() -> None:
    assert parse_xgid(xgid(cube=1, place=1, dice="B", rules=2)).beavered
    refused(xgid(cube=1, place=1, dice="B", length=5), "no beavers in match play")
    refused(xgid(cube=1, place=1, dice="R", length=5), "no beavers in match play")
    assert parse_xgid(xgid(cube=1, place=1, dice="D", length=5)).double_offered


# -- the frame: prefix, separators, number of fields --------------------------------


def test_prefix_and_spaces() -> None:
    expected = parse_xgid(xgid())
    body = xgid()[5:]
    for text in (body, "xgid=" + body, "Xgid= " + body, "  XGID=" + body + "  ", body.replace(":", " : ")):
        assert parse_xgid(text) == expected, text


@pytest.mark.parametrize("parts", [1, 2, 8, 11, 12])
def test_wrong_number_of_fields(parts: int) -> None:
    fields = xgid()[5:].split(":")
    text = ":".join((fields * 2)[:parts])
    refused(text, f"got {parts} parts")


@pytest.mark.parametrize(("index", "name"), [
    (1, "cube"), (2, "cube position"), (3, "turn"), (5, "bottom player's score"),
    (6, "top player's score"), (7, "Crawford/Jacoby"), (8, "match length"), (9, "max cube"),
])
def test_every_number_field_names_itself_when_unreadable(index: int, name: str) -> None:
    fields = xgid()[5:].split(":")
    fields[index] = "?"
    refused(":".join(fields), f"field {index} ({name}) must be a whole number, not '?'")


# -- XgidState: the same bounds when built directly -------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"position": "start"},
        {"cube_value": 0},
        {"cube_value": 8192, "max_cube": 2**15},
        {"cube_value": 2.0},
        {"max_cube": 2**16},
        {"max_cube": 0},
        {"cube_owner": -2},
        {"turn": 2},
        {"dice": (1, 7)},
        {"dice": (3,)},
        {"dice": (1, 2, 3)},
        {"dice": (1.0, 2)},
        {"double_offered": True, "beavered": False, "raccooned": True},
        {"double_offered": True, "beavered": True, "match_length": 5},
        {"score": (1, 2, 3)},
        {"score": (1.0, 2)},
        {"match_length": -1},
        {"match_length": MAX_MATCH_LENGTH + 1},
        {"match_length": 5.0},
        {"match_length": 5, "beaver": True},
        {"match_length": 5, "score": (5, 0)},
        {"jacoby": False, "crawford": True},
    ],
)
def test_impossible_states(kwargs: dict[str, object]) -> None:
    args: dict[str, object] = {"position": START, **kwargs}
    if args["position"] == "start":
        args["position"] = BOARD
    with pytest.raises(InvalidIdError, match="impossible XGID state"):
        XgidState(**args)  # type: ignore[arg-type]


def test_possible_states_at_the_bounds() -> None:
    for kwargs in (
        {"cube_value": 4096, "max_cube": 4096},
        {"cube_value": 1, "max_cube": 1},
        {"max_cube": 2**15},
        {"match_length": MAX_MATCH_LENGTH, "score": (MAX_MATCH_LENGTH - 1, 0), "crawford": True},
        {"double_offered": True, "beavered": True, "raccooned": True, "cube_owner": 0},
        {"dice": (6, 6), "cube_owner": -1, "turn": -1},
    ):
        s = XgidState(position=START, **kwargs)  # type: ignore[arg-type]
        assert parse_xgid(format_xgid(s)) == s
