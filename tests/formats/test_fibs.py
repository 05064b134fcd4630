"""FIBS board lines: the fields as the FIBS client protocol defines them, both conventions, errors."""

from __future__ import annotations

import doctest
import random

import pytest

from gammon.core.position import Position
from gammon.formats import fibs
from gammon.formats.fibs import Board, FibsBoard, FibsBoardError, fibs_board, parse_fibs_board

#: GNU Backgammon 1.07's line for the opening 63 of the external player (player O, moving 24 -> 1).
GNUBG_OPENING = (
    "board:gnubg:root:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:"
    "1:6:3:6:3:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1"
)
#: The FIBS protocol document's example: the player is X (negative numbers) moving 1 -> 24, home 25.
FIBS_EXAMPLE = (
    "board:mpgnu:buster:17:0:2:0:0:0:2:1:4:3:0:1:0:1:0:0:2:0:0:0:0:0:1:-2:-2:-1:-4:-4:0:"
    "-1:3:6:0:0:1:1:1:0:-1:1:25:0:2:0:0:0:2:2:0:0"
)


def fields_of(line: str) -> list[str]:
    return line.split(":")


def with_field(line: str, number: int, value: str) -> str:
    """``line`` with its field ``number`` (1-based, as the protocol counts) replaced."""
    parts = fields_of(line)
    parts[number - 1] = value
    return ":".join(parts)


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(fibs).failed == 0


def test_gnubg_opening_line_reads_as_the_starting_position_with_the_roll() -> None:
    b = parse_fibs_board(GNUBG_OPENING)
    assert (b.player, b.opponent, b.match_length) == ("gnubg", "root", 3)
    assert (b.player_score, b.opponent_score) == (0, 0)
    assert b.turn == 1 and b.colour == 1 and b.player_on_turn
    assert b.dice == (6, 3) and b.cube == 1
    assert (b.player_may_double, b.opponent_may_double, b.was_doubled) == (1, 1, 0)
    assert (b.direction, b.home, b.bar) == (-1, 0, 25)
    assert b.position() == Position.initial()
    assert not b.is_money and not b.crawford_game


def test_the_fibs_example_with_x_moving_up_to_25() -> None:
    b = parse_fibs_board(FIBS_EXAMPLE)
    assert b.colour == -1 and b.direction == 1 and b.home == 25 and b.bar == 0
    assert b.turn == -1 and b.player_on_turn  # X to play, and the player is X
    assert b.dice == (3, 6)
    assert b.player_on_home == 2
    p = b.position()
    # The player's checkers (negative) on positions 20..24 are its points 5..1.
    assert p.me[:5] == (4, 4, 1, 2, 2)
    assert p.pip_counts == (4 * 1 + 4 * 2 + 1 * 3 + 2 * 4 + 2 * 5, 111)
    assert p.checkers_off == (2, 0)
    assert b.position(from_player=False) == p.swap()


@pytest.mark.parametrize("line", [GNUBG_OPENING, FIBS_EXAMPLE])
def test_lines_are_written_back_exactly(line: str) -> None:
    assert str(parse_fibs_board(line)) == line
    assert fibs.format_fibs_board(parse_fibs_board(line)) == line


@pytest.mark.parametrize("line", [GNUBG_OPENING, FIBS_EXAMPLE])
@pytest.mark.parametrize(("colour", "direction"), [(1, -1), (1, 1), (-1, 1), (-1, -1)])
def test_every_convention_describes_the_same_game(line: str, colour: int, direction: int) -> None:
    b = parse_fibs_board(line)
    other = b.with_convention(colour, direction)
    assert other.position() == b.position()
    assert other.player_on_turn == b.player_on_turn
    assert other.home == (0 if direction < 0 else 25) and other.bar == 25 - other.home
    assert parse_fibs_board(str(other)) == other
    # Signs follow the colour: the player's checkers are positive exactly when it is O.
    mine = [v for v in other.board if v * colour > 0]
    assert sum(abs(v) for v in mine) == 15 - other.player_on_home


def random_position(rng: random.Random) -> Position:
    p = Position.initial()
    for _ in range(rng.randint(0, 60)):
        plays = p.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        if len(plays):
            p = plays[rng.randrange(len(plays))].position
        if p.is_game_over:
            return Position.initial()
        p = p.swap()
    return p


def test_writing_a_position_and_reading_it_back_in_both_conventions() -> None:
    rng = random.Random(15)
    for _ in range(200):
        p = random_position(rng)
        colour, direction = rng.choice((1, -1)), rng.choice((1, -1))
        b = fibs_board(p, dice=(rng.randint(1, 6), rng.randint(1, 6)), match_length=7, score=(2, 4),
                       cube=2, cube_owner=rng.choice((-1, 0, 1)), colour=colour, direction=direction)
        again = parse_fibs_board(str(b))
        assert again == b
        assert again.position() == p
        assert again.player_on_bar == p.me[24] and again.opponent_on_bar == p.opp[24]
        assert (again.player_on_home, again.opponent_on_home) == p.checkers_off


def test_the_cube_owner_shows_in_the_may_double_flags() -> None:
    p = Position.initial()
    for owner, flags in ((-1, (1, 1)), (0, (1, 0)), (1, (0, 1))):
        b = fibs_board(p, cube_owner=owner)
        assert (b.player_may_double, b.opponent_may_double) == flags


def test_money_play_is_written_as_fibs_unlimited_match() -> None:
    b = fibs_board(Position.initial(), match_length=0)
    assert b.match_length == fibs.UNLIMITED and b.is_money


def test_crawford_flags_as_gnubg_reads_them() -> None:
    p = Position.initial()
    crawford = fibs_board(p, match_length=7, score=(6, 3), crawford=True)
    assert crawford.crawford_game
    post = fibs_board(p, match_length=7, score=(6, 3), post_crawford=True)
    assert not post.crawford_game
    assert not fibs_board(p, match_length=7, score=(2, 3)).crawford_game
    # A 1-away score with both last fields 0 is the Crawford game; field 53 set says it is not.
    line = str(crawford)
    assert parse_fibs_board(line).crawford_game
    assert not parse_fibs_board(with_field(line, 53, "1")).crawford_game


def test_turn_and_dice_of_the_opponent() -> None:
    b = fibs_board(Position.initial(), player_on_roll=False, dice=(5, 2))
    assert not b.player_on_turn
    assert b.player_dice == (0, 0) and b.opponent_dice == (5, 2) and b.dice == (5, 2)


def test_white_space_and_gnubg_trailing_nul_are_ignored() -> None:
    assert parse_fibs_board("\x00" + GNUBG_OPENING + "\n\x00") == parse_fibs_board(GNUBG_OPENING)
    spaced = GNUBG_OPENING.replace(":", ": ")
    assert parse_fibs_board(spaced).position() == Position.initial()


def test_board_is_the_short_name() -> None:
    assert Board is FibsBoard


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("", "starts with 'board:'"),
        ("bored:" + GNUBG_OPENING[6:], "starts with 'board:'"),
        (GNUBG_OPENING + ":0", "53 colon-separated fields, this one has 54"),
        (GNUBG_OPENING.rsplit(":", 1)[0], "this one has 52"),
        (with_field(GNUBG_OPENING, 38, "x"), "field 38 (cube)"),
        (with_field(GNUBG_OPENING, 38, "3"), "field 38 (cube)"),
        (with_field(GNUBG_OPENING, 4, "-7"), "field 4 (match length)"),
        (with_field(GNUBG_OPENING, 5, "3"), "field 5 (player's score) 3 is not below the match length 3"),
        (with_field(GNUBG_OPENING, 6, "-1"), "field 6 (opponent's score)"),
        (with_field(GNUBG_OPENING, 33, "2"), "field 33 (turn)"),
        (with_field(GNUBG_OPENING, 34, "7"), "fields 34-35 (player's dice)"),
        (with_field(GNUBG_OPENING, 37, "0"), "fields 36-37 (opponent's dice)"),
        (with_field(GNUBG_OPENING, 39, "2"), "field 39 (player may double)"),
        (with_field(GNUBG_OPENING, 41, "5"), "field 41 (was doubled)"),
        (with_field(GNUBG_OPENING, 42, "0"), "field 42 (colour)"),
        (with_field(GNUBG_OPENING, 43, "0"), "field 43 (direction)"),
        (with_field(GNUBG_OPENING, 44, "25"), "field 44 (home) must be 0 with direction -1"),
        (with_field(GNUBG_OPENING, 45, "0"), "field 45 (bar) must be 25"),
        (with_field(GNUBG_OPENING, 46, "16"), "field 46 (player's checkers off)"),
        (with_field(GNUBG_OPENING, 50, "5"), "field 50 (can move)"),
        (with_field(GNUBG_OPENING, 8, "-3"), "the opponent has 16 checkers on the board"),
        (with_field(GNUBG_OPENING, 32, "-1"), "board position 25 is the player's bar"),
        (with_field(GNUBG_OPENING, 7, "1"), "board position 0 is the opponent's bar"),
        (with_field(GNUBG_OPENING, 19, "9"), "more than 15"),
        (with_field(GNUBG_OPENING, 46, "3"), "the player has 15 checkers on the board and 3 off"),
        ("board:" + "x" * 2000, "at most"),
    ],
)
def test_malformed_lines_are_refused_naming_the_field(line: str, words: str) -> None:
    with pytest.raises(FibsBoardError) as err:
        parse_fibs_board(line)
    assert words in str(err.value)


def test_a_number_that_is_not_one_names_its_field() -> None:
    with pytest.raises(FibsBoardError, match=r"field 12 \(board position 5\) must be a whole number"):
        parse_fibs_board(with_field(GNUBG_OPENING, 12, "five"))
    with pytest.raises(FibsBoardError, match="field 33"):
        parse_fibs_board(with_field(GNUBG_OPENING, 33, "1.0"))
    with pytest.raises(FibsBoardError, match="field 38"):
        parse_fibs_board(with_field(GNUBG_OPENING, 38, "99999999999"))


def test_only_text_is_read() -> None:
    with pytest.raises(FibsBoardError, match="must be text"):
        parse_fibs_board(b"board:")  # type: ignore[arg-type]


def test_names_cannot_hold_the_separator() -> None:
    with pytest.raises(FibsBoardError, match="player's name"):
        fibs_board(Position.initial(), player="a:b")
    with pytest.raises(FibsBoardError, match="cube owner"):
        fibs_board(Position.initial(), cube_owner=2)
    with pytest.raises(FibsBoardError, match="colour"):
        parse_fibs_board(GNUBG_OPENING).with_convention(0, 1)
