"""FIBS board strings: the ``board:`` line of the FIBS client protocol, read and written exactly.

FIBS (the First Internet Backgammon Server) describes a game to its clients in
one line of 53 colon-separated fields ("boardstyle 3", the ``rawboard``
format); GNU Backgammon uses the same line to hand a decision to an external
player.  The fields, in order:

 1. ``board`` (the literal word);
 2. the player's name; 3. the opponent's name;
 4. the match length (``9999``: an unlimited match, money play);
 5. the player's score; 6. the opponent's score;
 7-32. the board: 26 numbers.  Positive numbers are O's checkers, negative
    numbers X's.  Positions 1..24 are the points; 0 and 25 are the bars:
    the player's bar is the position named by the ``bar`` field, the
    opponent's bar is the position named by ``home``;
33. whose turn: ``1`` O's, ``-1`` X's, ``0`` the game is over;
34-35. the player's dice (``0 0`` before the roll);
36-37. the opponent's dice;
38. the value of the doubling cube;
39. the player may double (1/0); 40. the opponent may double (1/0);
41. was doubled: ``1`` the opponent has just doubled (GNU Backgammon
    writes ``-1`` or ``1`` to say who doubled);
42. colour: ``1`` the player is O (positive numbers), ``-1`` X;
43. direction: ``-1`` the player moves from 24 down to 1, ``1`` from 1 up to 24;
44. home: 0 or 25, the player's home side (0 with direction -1);
45. bar: 25 or 0, the player's bar position (25 with direction -1);
46. checkers the player has borne off; 47. the same for the opponent;
48. checkers of the player on the bar; 49. the same for the opponent;
50. can move: how many checkers the player can move (0-4);
51. forced move; 52. did Crawford; 53. redoubles (FIBS: the most instant
    redoubles in an unlimited match).  GNU Backgammon 1.07 reuses the last
    two as match flags: field 52 is 1 after the Crawford game and field 53
    is 1 outside the Crawford game, so a match with a player 1-away and both
    fields 0 is in its Crawford game (:attr:`FibsBoard.crawford_game`).

So the line has two conventions for where the player's checkers are: the
colour says the sign of the player's numbers, the direction says which end is
the player's home.  :class:`FibsBoard` keeps every field as written, so
``str(parse_fibs_board(line)) == line`` for every well-formed line, and it
converts to and from gammon's view (rows of 25 counts from each side,
:meth:`FibsBoard.rows` and :func:`fibs_board`) in either convention.

>>> b = parse_fibs_board(
...     "board:You:gnubg:7:2:3:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:"
...     "1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0")
>>> b.match_length, b.player_score, b.opponent_score, b.dice
(7, 2, 3, (6, 2))
>>> b.position().position_id
'4HPwATDgc/ABMA'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace

from gammon.core.errors import GammonError, InvalidPositionError
from gammon.core.position import Position

#: The first field of every board line.
PREFIX = "board"
#: How many colon-separated fields a board line has, ``board`` included.
FIELD_COUNT = 53
#: The match length FIBS writes for an unlimited match (money play).
UNLIMITED = 9999
#: The longest line accepted: a board line is about 150 characters plus two names.
MAX_LINE = 1024
#: The most checkers a side may have (standard backgammon).
CHECKERS = 15


class FibsBoardError(GammonError):
    """A FIBS board line that is malformed or names an impossible state."""


@dataclass(frozen=True, slots=True)
class FibsBoard:
    """Every field of a FIBS ``board:`` line, as written (see the module docstring).

    Integer flags stay integers so a line is written back exactly.  ``board``
    holds the 26 numbers (positions 0..25).  Build one with
    :func:`parse_fibs_board` or :func:`fibs_board`; the constructor checks the
    fields and raises :class:`FibsBoardError` naming the first bad one.
    """

    player: str
    opponent: str
    match_length: int
    player_score: int
    opponent_score: int
    board: tuple[int, ...]
    turn: int
    player_dice: tuple[int, int]
    opponent_dice: tuple[int, int]
    cube: int
    player_may_double: int
    opponent_may_double: int
    was_doubled: int
    colour: int
    direction: int
    home: int
    bar: int
    player_on_home: int
    opponent_on_home: int
    player_on_bar: int
    opponent_on_bar: int
    can_move: int
    forced_move: int
    did_crawford: int
    redoubles: int

    def __post_init__(self) -> None:
        problem = _problem(self)
        if problem is not None:
            raise FibsBoardError(f"bad FIBS board: {problem}")

    def __str__(self) -> str:
        return format_fibs_board(self)

    # -- the game, in gammon's terms -------------------------------------------

    @property
    def is_money(self) -> bool:
        """True for an unlimited match (FIBS match length 9999; 0 is read the same way)."""
        return self.match_length in (0, UNLIMITED)

    @property
    def dice(self) -> tuple[int, int] | None:
        """The roll to play: the player's dice, else the opponent's, else None (not rolled)."""
        if self.player_dice != (0, 0):
            return self.player_dice
        if self.opponent_dice != (0, 0):
            return self.opponent_dice
        return None

    @property
    def player_on_turn(self) -> bool:
        """Whether the turn field names the player (``turn == colour``)."""
        return self.turn == self.colour

    @property
    def crawford_game(self) -> bool:
        """Whether this is the Crawford game, read as GNU Backgammon reads it.

        In a match with a player one point from winning, the game is the
        Crawford game unless field 52 (after the Crawford game) or field 53
        (not the Crawford game) is set.
        """
        if self.is_money:
            return False
        one_away = self.match_length - 1 in (self.player_score, self.opponent_score)
        return one_away and not self.did_crawford and not self.redoubles

    def rows(self) -> tuple[list[int], list[int]]:
        """The checkers as two rows of 25 counts: (player's, opponent's).

        Each row is seen from its owner's side, as gammon's
        :class:`~gammon.core.position.Position` holds them: index 0..23 are
        that side's points 1..24, index 24 its bar.
        """
        mine, theirs = [0] * 25, [0] * 25
        for index in range(1, 25):
            value = self.board[index] * self.colour
            point = index if self.direction < 0 else 25 - index  # the player's point number
            if value > 0:
                mine[point - 1] = value
            elif value < 0:
                theirs[24 - point] = -value
        mine[24] = abs(self.board[self.bar])
        theirs[24] = abs(self.board[self.home])
        return mine, theirs

    def position(self, *, from_player: bool = True) -> Position:
        """The checkers as a gammon :class:`Position`, seen from the player (or the opponent).

        :raises FibsBoardError: more checkers than a side has, or both sides on a point.
        """
        mine, theirs = self.rows()
        try:
            return Position(mine, theirs) if from_player else Position(theirs, mine)
        except InvalidPositionError as exc:
            raise FibsBoardError(f"bad FIBS board: {exc}") from None

    def with_convention(self, colour: int, direction: int) -> FibsBoard:
        """The same game written with the player as ``colour`` moving in ``direction``.

        :raises FibsBoardError: a colour or direction other than 1 or -1.
        """
        mine, theirs = self.rows()
        board = _encode(mine, theirs, colour, direction)
        home = 0 if direction < 0 else 25
        turn = self.turn
        if turn and colour != self.colour:
            turn = -turn
        return replace(self, board=board, colour=colour, direction=direction, home=home,
                       bar=25 - home, turn=turn)


#: Short name for :class:`FibsBoard`.
Board = FibsBoard


def _encode(mine: Sequence[int], theirs: Sequence[int], colour: int, direction: int) -> tuple[int, ...]:
    if colour not in (-1, 1):
        raise FibsBoardError(f"bad FIBS board: colour must be 1 (O) or -1 (X), not {colour!r}")
    if direction not in (-1, 1):
        raise FibsBoardError(f"bad FIBS board: direction must be 1 or -1, not {direction!r}")
    board = [0] * 26
    for point in range(1, 25):
        index = point if direction < 0 else 25 - point
        board[index] = colour * mine[point - 1] - colour * theirs[24 - point]
    home = 0 if direction < 0 else 25
    board[25 - home] = colour * mine[24]
    board[home] = -colour * theirs[24]
    return tuple(board)


def fibs_board(
    position: Position,
    *,
    player_on_roll: bool = True,
    dice: tuple[int, int] | None = None,
    player: str = "You",
    opponent: str = "opponent",
    match_length: int = 0,
    score: tuple[int, int] = (0, 0),
    cube: int = 1,
    cube_owner: int = -1,
    doubled: bool = False,
    crawford: bool = False,
    post_crawford: bool = False,
    colour: int = 1,
    direction: int = -1,
) -> FibsBoard:
    """A board line for ``position``, seen from the player ("You").

    ``position``'s player on roll is the FIBS player.  ``player_on_roll`` says
    whose turn it is (False: the opponent's; FIBS then shows the dice as the
    opponent's).  ``doubled``: the opponent has doubled and the player must
    answer.  ``cube_owner``: -1 centred, 0 the player, 1 the opponent.
    ``match_length`` 0 is written as FIBS's unlimited match (9999).  Crawford
    flags follow GNU Backgammon (see the module docstring).  ``colour`` and
    ``direction`` choose the convention.

    :raises FibsBoardError: impossible values.
    """
    mine, theirs = list(position.me), list(position.opp)
    board = _encode(mine, theirs, colour, direction)
    home = 0 if direction < 0 else 25
    rolled = dice if dice is not None else (0, 0)
    off = position.checkers_off
    turn = colour if player_on_roll else -colour
    if cube_owner not in (-1, 0, 1):
        raise FibsBoardError(f"bad FIBS board: cube owner must be -1, 0 or 1, not {cube_owner!r}")
    one_away = bool(match_length) and match_length - 1 in score
    return FibsBoard(
        player=player, opponent=opponent, match_length=match_length or UNLIMITED,
        player_score=score[0], opponent_score=score[1], board=board, turn=turn,
        player_dice=rolled if player_on_roll else (0, 0),
        opponent_dice=(0, 0) if player_on_roll else rolled,
        cube=cube,
        player_may_double=int(cube_owner != 1 and not (crawford and one_away)),
        opponent_may_double=int(cube_owner != 0 and not (crawford and one_away)),
        was_doubled=int(doubled), colour=colour, direction=direction, home=home, bar=25 - home,
        player_on_home=off[0], opponent_on_home=off[1],
        player_on_bar=position.me[24], opponent_on_bar=position.opp[24],
        can_move=0, forced_move=0,
        did_crawford=int(post_crawford), redoubles=int(not crawford) if one_away else 0,
    )


# -- reading and writing -------------------------------------------------------

#: The name of each field after the two names, in order, for error messages.
_INT_FIELDS: tuple[str, ...] = (
    "match length", "player's score", "opponent's score",
    *(f"board position {i}" for i in range(26)),
    "turn", "player's first die", "player's second die", "opponent's first die",
    "opponent's second die", "cube", "player may double", "opponent may double",
    "was doubled", "colour", "direction", "home", "bar", "player's checkers off",
    "opponent's checkers off", "player's checkers on the bar", "opponent's checkers on the bar",
    "can move", "forced move", "did crawford", "redoubles",
)


def _int(text: str, name: str, number: int) -> int:
    value = text.strip()
    body = value[1:] if value[:1] in "+-" else value
    if not body.isdigit() or not body.isascii() or len(body) > 6:
        raise FibsBoardError(f"bad FIBS board: field {number} ({name}) must be a whole number, not {text!r}")
    return int(value)


def parse_fibs_board(text: str) -> FibsBoard:
    """Read a FIBS ``board:`` line (surrounding white space and a trailing NUL are ignored).

    :raises FibsBoardError: a wrong prefix or field count, a field that is not
        a number, or a value that cannot be; the message names the field.
    """
    if not isinstance(text, str):
        raise FibsBoardError(f"a FIBS board must be text, not {type(text).__name__}")
    line = text.strip().strip("\x00").strip()
    if len(line) > MAX_LINE:
        raise FibsBoardError(f"bad FIBS board: the line is {len(line)} characters long; at most {MAX_LINE}")
    parts = line.split(":")
    if parts[0].strip().lower() != PREFIX:
        raise FibsBoardError(f"bad FIBS board: a board line starts with 'board:', not {line[:20]!r}")
    if len(parts) != FIELD_COUNT:
        raise FibsBoardError(
            f"bad FIBS board: a board line has {FIELD_COUNT} colon-separated fields, this one has {len(parts)}"
        )
    n = [_int(t, name, i + 4) for i, (t, name) in enumerate(zip(parts[3:], _INT_FIELDS, strict=True))]
    return FibsBoard(
        player=parts[1], opponent=parts[2], match_length=n[0], player_score=n[1], opponent_score=n[2],
        board=tuple(n[3:29]), turn=n[29], player_dice=(n[30], n[31]), opponent_dice=(n[32], n[33]),
        cube=n[34], player_may_double=n[35], opponent_may_double=n[36], was_doubled=n[37],
        colour=n[38], direction=n[39], home=n[40], bar=n[41], player_on_home=n[42],
        opponent_on_home=n[43], player_on_bar=n[44], opponent_on_bar=n[45], can_move=n[46],
        forced_move=n[47], did_crawford=n[48], redoubles=n[49],
    )


def format_fibs_board(board: FibsBoard) -> str:
    """The board line of ``board``, field by field as it holds them."""
    values: list[object] = []
    for f in fields(board):
        value = getattr(board, f.name)
        if isinstance(value, tuple):
            values.extend(value)
        else:
            values.append(value)
    return ":".join([PREFIX, *(str(v) for v in values)])


# -- checking ------------------------------------------------------------------


def _problem(b: FibsBoard) -> str | None:  # noqa: C901 - one check per field, in field order
    """What is wrong with ``b``, naming the field, or None."""
    for label, text in (("player's name", b.player), ("opponent's name", b.opponent)):
        if not isinstance(text, str) or ":" in text or any(c in text for c in "\r\n\x00"):
            return f"the {label} must be text without ':' or line breaks, not {text!r}"
    ints = [getattr(b, f.name) for f in fields(b) if f.name not in ("player", "opponent", "board")]
    ints = [v for x in ints for v in (x if isinstance(x, tuple) else (x,))] + list(b.board)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in ints):
        return "every field after the names must be a whole number"
    if len(b.board) != 26:
        return f"the board has 26 positions (0-25), not {len(b.board)}"
    if not (b.match_length == UNLIMITED or 0 <= b.match_length <= 99):
        return f"field 4 (match length) must be 1-99, 0 or 9999 (unlimited), not {b.match_length}"
    scores = ((5, "player's score", b.player_score), (6, "opponent's score", b.opponent_score))
    for number, name, score in scores:
        if score < 0:
            return f"field {number} ({name}) must not be negative, not {score}"
        if not b.is_money and score >= b.match_length:
            return f"field {number} ({name}) {score} is not below the match length {b.match_length}"
    if b.turn not in (-1, 0, 1):
        return f"field 33 (turn) must be 1 (O), -1 (X) or 0 (game over), not {b.turn}"
    for number, name, dice in ((34, "player's dice", b.player_dice), (36, "opponent's dice", b.opponent_dice)):
        if len(dice) != 2 or not all(0 <= d <= 6 for d in dice) or (0 in dice and dice != (0, 0)):
            return f"fields {number}-{number + 1} ({name}) must be two dice 1-6, or 0 0, not {dice}"
    if b.cube < 1 or b.cube & (b.cube - 1) or b.cube > 4096:
        return f"field 38 (cube) must be a power of two up to 4096, not {b.cube}"
    for number, name, flag in (
        (39, "player may double", b.player_may_double), (40, "opponent may double", b.opponent_may_double),
    ):
        if flag not in (0, 1):
            return f"field {number} ({name}) must be 0 or 1, not {flag}"
    if b.was_doubled not in (-1, 0, 1):
        return f"field 41 (was doubled) must be 0, 1 or -1, not {b.was_doubled}"
    if b.colour not in (-1, 1):
        return f"field 42 (colour) must be 1 (O) or -1 (X), not {b.colour}"
    if b.direction not in (-1, 1):
        return f"field 43 (direction) must be 1 or -1, not {b.direction}"
    want_home = 0 if b.direction < 0 else 25
    if b.home != want_home:
        return f"field 44 (home) must be {want_home} with direction {b.direction}, not {b.home}"
    if b.bar != 25 - want_home:
        return f"field 45 (bar) must be {25 - want_home} with direction {b.direction}, not {b.bar}"
    counts: tuple[tuple[int, str, int], ...] = (
        (46, "player's checkers off", b.player_on_home), (47, "opponent's checkers off", b.opponent_on_home),
        (48, "player's checkers on the bar", b.player_on_bar),
        (49, "opponent's checkers on the bar", b.opponent_on_bar),
    )
    for number, name, value in counts:
        if not 0 <= value <= CHECKERS:
            return f"field {number} ({name}) must be 0-{CHECKERS}, not {value}"
    if not 0 <= b.can_move <= 4:
        return f"field 50 (can move) must be 0-4, not {b.can_move}"
    if b.board[b.bar] * b.colour < 0:
        return f"board position {b.bar} is the player's bar and holds only the player's checkers"
    if b.board[b.home] * b.colour > 0:
        return f"board position {b.home} is the opponent's bar and holds only the opponent's checkers"
    mine = sum(v * b.colour for v in b.board if v * b.colour > 0)
    theirs = sum(-v * b.colour for v in b.board if v * b.colour < 0)
    for who, count, off in (("player", mine, b.player_on_home), ("opponent", theirs, b.opponent_on_home)):
        if count + off > CHECKERS:
            return f"the {who} has {count} checkers on the board and {off} off: more than {CHECKERS}"
    return None


__all__ = [
    "Board",
    "FIELD_COUNT",
    "MAX_LINE",
    "UNLIMITED",
    "FibsBoard",
    "FibsBoardError",
    "fibs_board",
    "format_fibs_board",
    "parse_fibs_board",
]
