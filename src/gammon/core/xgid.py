"""eXtreme Gammon's XGID: a position with its cube, turn, dice and score on one line.

``XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10``: after the ``XGID=``
prefix come the position and nine fields, separated by colons (eight in the
older form, which has no max cube):

0. the checkers, 26 characters drawn from the *bottom* player's side:
   character 0 is the top player's bar, characters 1..24 the bottom player's
   points 1..24, character 25 the bottom player's bar.  ``-`` is an empty
   point, ``A``..``O`` are 1..15 checkers of the bottom player and
   ``a``..``o`` 1..15 checkers of the top player;
1. the cube value as a power of two (0 = 1, 1 = 2, 2 = 4, ...);
2. the cube's place: 1 the bottom player owns it, -1 the top player, 0 centred;
3. the turn: 1 the bottom player is on roll, -1 the top player;
4. the dice: two digits once rolled, ``00`` before the roll, ``D`` when the
   player on roll has doubled and the opponent must take or drop, ``B`` when
   the opponent has beavered, ``R`` when the doubler has raccooned;
5. the bottom player's score; 6. the top player's score;
7. in a match, 1 for the Crawford game; in a money game the rules in
   force: 1 Jacoby, 2 beavers, 3 both;
8. the match length, 0 for a money game;
9. the largest cube allowed, as a power of two (older XGIDs omit it).

gammon sees everything from the player on roll, so :class:`XgidState` keeps
its position, score and cube owner that way and remembers in ``turn`` on
which side of the XGID board that player sits.  When a double is pending
(``D``, ``B``, ``R``) the player "on roll" is the doubler, as in eXtreme
Gammon.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gammon.core.cube import RelativeOwner
from gammon.core.errors import InvalidIdError, InvalidPositionError
from gammon.core.match_id import MAX_MATCH_LENGTH
from gammon.core.phase import Phase
from gammon.core.position import Position
from gammon.core.variants import STANDARD, Variant

if TYPE_CHECKING:
    from gammon.core.game import Game

#: The largest cube exponent accepted (2**12 = 4096, as GNU Backgammon's limit).
MAX_CUBE_LOG2 = 12
#: The maximum cube eXtreme Gammon writes by default (max cube field 10).
DEFAULT_MAX_CUBE = 1 << 10


@dataclass(frozen=True, slots=True)
class XgidState:
    """Everything an XGID carries, seen from the player on roll.

    * ``position``: the checkers, seen from the player on roll (the doubler
      while a double is pending).
    * ``cube_value``: 1, 2, 4, ...; ``cube_owner``: 0 centred, +1 the player on
      roll owns the cube, -1 the opponent owns it.
    * ``dice``: the roll in the order written, or None before the roll.
    * ``score``: (player on roll, opponent); ``match_length`` 0 = money game.
    * ``crawford``: this is the Crawford game (match play only).
    * ``jacoby``, ``beaver``: money-game rules in force.
    * ``max_cube``: the largest cube value allowed (a power of two).
    * ``double_offered``: the player on roll has doubled and the opponent is to
      answer; ``beavered``: the opponent beavered (the doubler is to answer);
      ``raccooned``: the doubler raccooned in turn.
    * ``turn``: where the player on roll sits on the XGID board: 1 bottom
      (upper-case letters), -1 top.  It only matters for writing the XGID.

    Impossible combinations raise :class:`InvalidIdError` at construction.
    """

    position: Position
    cube_value: int = 1
    cube_owner: int = 0
    dice: tuple[int, int] | None = None
    score: tuple[int, int] = (0, 0)
    match_length: int = 0
    crawford: bool = False
    jacoby: bool = False
    beaver: bool = False
    max_cube: int = DEFAULT_MAX_CUBE
    double_offered: bool = False
    beavered: bool = False
    raccooned: bool = False
    turn: int = 1

    def __post_init__(self) -> None:
        problem = _problem(self)
        if problem is not None:
            raise InvalidIdError(f"impossible XGID state: {problem}")

    @property
    def is_money(self) -> bool:
        """True for a money game (match length 0)."""
        return self.match_length == 0

    @property
    def relative_owner(self) -> RelativeOwner:
        """``cube_owner`` read as the player on roll sees it (the XGID's 0 is the centred cube)."""
        return {0: RelativeOwner.CENTERED, 1: RelativeOwner.ME, -1: RelativeOwner.OPPONENT}[self.cube_owner]


def _is_power_of_two(value: object, limit: int) -> bool:
    return isinstance(value, int) and 1 <= value <= limit and not value & (value - 1)


def _problem(s: XgidState) -> str | None:
    """What is impossible about ``s``, or None when it can exist."""
    if not isinstance(s.position, Position):
        return f"position must be a Position, not {type(s.position).__name__}"
    if not _is_power_of_two(s.cube_value, 1 << MAX_CUBE_LOG2):
        return f"the cube value must be a power of two up to {1 << MAX_CUBE_LOG2}"
    if not _is_power_of_two(s.max_cube, 1 << 15):
        return "the maximum cube must be a power of two up to 2**15"
    if s.cube_value > s.max_cube:
        return f"the cube ({s.cube_value}) is above the maximum cube ({s.max_cube})"
    if s.cube_owner not in (-1, 0, 1):
        return f"the cube owner must be 0 (centred), 1 or -1, not {s.cube_owner!r}"
    if s.turn not in (-1, 1):
        return f"turn must be 1 (bottom player) or -1 (top player), not {s.turn!r}"
    if s.dice is not None and (
        len(s.dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in s.dice)
    ):
        return f"dice must be two numbers from 1 to 6 (or None), not {s.dice!r}"
    if (s.double_offered or s.beavered or s.raccooned) and s.dice is not None:
        return "the dice are not rolled while a double is pending"
    if s.beavered and not s.double_offered:
        return "a beaver answers a double: double_offered must be set"
    if s.raccooned and not s.beavered:
        return "a raccoon answers a beaver: beavered must be set"
    if len(s.score) != 2 or not all(isinstance(x, int) and x >= 0 for x in s.score):
        return f"the score must be two numbers from 0 up, not {s.score!r}"
    if not isinstance(s.match_length, int) or not 0 <= s.match_length <= MAX_MATCH_LENGTH:
        return (f"the match length must be 0 (money) or 1 to {MAX_MATCH_LENGTH} points, "
                f"not {s.match_length!r}")
    if s.match_length:
        if s.jacoby or s.beaver:
            return "the Jacoby rule and beavers are money-game rules, not match rules"
        if s.beavered:
            return "there are no beavers in match play"
        if max(s.score) >= s.match_length:
            return (
                f"score {s.score[0]}-{s.score[1]} is not below the match length "
                f"{s.match_length}"
            )
    elif s.crawford:
        return "a money game has no Crawford game"
    return None


def _fail(text: str, why: str) -> InvalidIdError:
    return InvalidIdError(f"{text!r} is not a valid XGID: {why}")


def _int_field(text: str, fields: list[str], index: int, name: str) -> int:
    """Field ``index`` as eXtreme Gammon writes numbers: ASCII digits, ``-`` before a negative.

    Python's ``int`` alone would also take ``1_0`` (ten), ``+1`` and other scripts' digits.
    """
    raw = fields[index]
    digits = raw[1:] if raw[:1] == "-" else raw
    try:
        if not (digits.isascii() and digits.isdigit()):
            raise ValueError(raw)
        return int(raw)  # ValueError too past Python's limit on digits
    except ValueError:
        raise _fail(
            text, f"field {index} ({name}) must be a whole number, not {raw!r}"
        ) from None


def _checker_rows(text: str, board: str) -> tuple[list[int], list[int]]:
    """The (bottom, top) rows of 25 counts, each from its own side, of the 26 characters."""
    if len(board) != 26:
        raise _fail(text, f"the position has {len(board)} characters, 26 expected")
    bottom = [0] * 25
    top = [0] * 25
    for i, ch in enumerate(board):
        if ch == "-":
            continue
        if "A" <= ch <= "Z":
            if i == 0:
                raise _fail(text, "character 1 is the top player's bar: only a-o or - fit")
            bottom[24 if i == 25 else i - 1] = ord(ch) - ord("A") + 1
        elif "a" <= ch <= "z":
            if i == 25:
                raise _fail(text, "character 26 is the bottom player's bar: only A-O or - fit")
            top[24 if i == 0 else 24 - i] = ord(ch) - ord("a") + 1
        else:
            raise _fail(
                text, f"position character {i + 1} is {ch!r}; expected -, A-O or a-o"
            )
    return bottom, top


def _split_fields(text: str) -> list[str]:
    """The XGID's fields, the prefix ``XGID=`` and blanks around each taken off.

    :raises InvalidIdError: not text, or not 9 or 10 fields.
    """
    if not isinstance(text, str):
        raise InvalidIdError(f"an XGID is text, not {type(text).__name__}")
    body = text.strip()
    if body[:5].upper() == "XGID=":
        body = body[5:].strip()
    fields = body.split(":")
    if len(fields) not in (9, 10):
        raise _fail(
            text,
            f"expected the position and 9 fields separated by ':' (8 in the older form), "
            f"got {len(fields)} parts",
        )
    return [f.strip() for f in fields]


def _dice_and_cube_action(text: str, raw: str) -> tuple[tuple[int, int] | None, bool, bool, bool]:
    """Field 4: the dice rolled, or the cube action pending (``D`` a double, ``B`` a beaver,
    ``R`` a raccoon, ``00`` neither), as (dice, double offered, beavered, raccooned)."""
    field = raw.upper()
    if field == "D":
        return None, True, False, False
    if field == "B":
        return None, True, True, False
    if field == "R":
        return None, True, True, True
    if field == "00":
        return None, False, False, False
    if len(field) == 2 and all(c in "123456" for c in field):
        return (int(field[0]), int(field[1])), False, False, False
    raise _fail(text, f"dice field {raw!r}: expected two dice 1-6, 00, D, B or R")


def _rule_flags(text: str, rules: int, length: int) -> tuple[bool, bool, bool]:
    """Field 7 as (Crawford, Jacoby, beavers): Crawford in a match, the other two in money play."""
    if length:
        if rules not in (0, 1):
            raise _fail(text, f"field 7 is {rules} in a match: expected 0, or 1 for Crawford")
        return bool(rules), False, False
    if rules not in (0, 1, 2, 3):
        raise _fail(
            text, f"field 7 is {rules} in a money game: expected 0 to 3 (1 Jacoby + 2 beavers)"
        )
    return False, bool(rules & 1), bool(rules & 2)


def parse_xgid(text: str, variant: str | Variant = STANDARD) -> XgidState:
    """Read an XGID, with or without the ``XGID=`` prefix, with or without the max cube.

    The position is turned to the player on roll's view (see the module notes).
    Without the max-cube field, the maximum cube is eXtreme Gammon's default,
    1024.

    >>> s = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10")
    >>> s.position == Position.initial(), s.dice, s.jacoby, s.beaver
    (True, (5, 2), True, True)

    :raises InvalidIdError: a wrong number of fields, an unreadable field, a
        value out of range or an impossible position.
    """
    fields = _split_fields(text)
    bottom, top = _checker_rows(text, fields[0])
    cube_log = _int_field(text, fields, 1, "cube")
    cube_place = _int_field(text, fields, 2, "cube position")
    turn = _int_field(text, fields, 3, "turn")
    score_bottom = _int_field(text, fields, 5, "bottom player's score")
    score_top = _int_field(text, fields, 6, "top player's score")
    rules = _int_field(text, fields, 7, "Crawford/Jacoby")
    length = _int_field(text, fields, 8, "match length")
    max_log = _int_field(text, fields, 9, "max cube") if len(fields) == 10 else 10

    if not 0 <= cube_log <= MAX_CUBE_LOG2:
        raise _fail(text, f"cube field {cube_log}: expected 0 to {MAX_CUBE_LOG2} (cube 1 to 4096)")
    if not 0 <= max_log <= 15:
        raise _fail(text, f"max cube field {max_log}: expected 0 to 15")
    if cube_place not in (-1, 0, 1):
        raise _fail(text, f"cube position {cube_place}: expected 1, 0 or -1")
    if turn not in (-1, 1):
        raise _fail(text, f"turn {turn}: expected 1 (bottom player) or -1 (top player)")
    dice, offered, beavered, raccooned = _dice_and_cube_action(text, fields[4])
    if score_bottom < 0 or score_top < 0:
        raise _fail(text, "a score is negative")
    if length < 0:
        raise _fail(text, f"match length {length} is negative")
    crawford, jacoby, beaver = _rule_flags(text, rules, length)

    me, opp = (bottom, top) if turn == 1 else (top, bottom)
    try:
        position = Position(me, opp, variant)
    except InvalidPositionError as exc:
        raise _fail(text, f"impossible position: {exc}") from None
    score = (score_bottom, score_top) if turn == 1 else (score_top, score_bottom)
    try:
        return XgidState(
            position=position,
            cube_value=1 << cube_log,
            cube_owner=cube_place * turn,
            dice=dice,
            score=score,
            match_length=length,
            crawford=crawford,
            jacoby=jacoby,
            beaver=beaver,
            max_cube=1 << max_log,
            double_offered=offered,
            beavered=beavered,
            raccooned=raccooned,
            turn=turn,
        )
    except InvalidIdError as exc:
        raise _fail(text, str(exc).removeprefix("impossible XGID state: ")) from None


def _letter(count: int, upper: bool) -> str:
    if count == 0:
        return "-"
    return chr((ord("A") if upper else ord("a")) + count - 1)


def format_xgid(state: XgidState) -> str:
    """The XGID of ``state`` in the full form (with the max cube) and the ``XGID=`` prefix.

    >>> format_xgid(XgidState(Position.initial(), dice=(5, 2), jacoby=True, beaver=True))
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10'
    """
    me, opp = state.position.me, state.position.opp
    bottom, top = (me, opp) if state.turn == 1 else (opp, me)
    chars = [_letter(top[24], False)]
    for point in range(1, 25):
        b = bottom[point - 1]
        t = top[24 - point]
        chars.append(_letter(b, True) if b else _letter(t, False))
    chars.append(_letter(bottom[24], True))
    if state.raccooned:
        dice = "R"
    elif state.beavered:
        dice = "B"
    elif state.double_offered:
        dice = "D"
    elif state.dice is None:
        dice = "00"
    else:
        dice = f"{state.dice[0]}{state.dice[1]}"
    score_bottom, score_top = state.score if state.turn == 1 else state.score[::-1]
    if state.match_length:
        rules = int(state.crawford)
    else:
        rules = int(state.jacoby) | int(state.beaver) << 1
    fields = (
        "".join(chars),
        str(state.cube_value.bit_length() - 1),
        str(state.cube_owner * state.turn),
        str(state.turn),
        dice,
        str(score_bottom),
        str(score_top),
        str(rules),
        str(state.match_length),
        str(state.max_cube.bit_length() - 1),
    )
    return "XGID=" + ":".join(fields)


def game_xgid(game: Game) -> str:
    """The XGID of ``game`` now (what :meth:`Game.xgid <gammon.core.game.Game.xgid>` returns), player 0 at
    the bottom of the board: :meth:`Game.from_xgid <gammon.core.game.Game.from_xgid>` reads it back
    to the same state.

    :raises InvalidIdError: a state an XGID cannot carry: the opening roll, a pending resignation, an
        Acey-Deucey bonus under way, or a finished game.
    """
    g = game
    if g.phase in (Phase.OPENING, Phase.RESIGNED, Phase.OVER) or g.bonus is not None:
        stage = "an Acey-Deucey bonus" if g.bonus is not None else f"the {g.phase.value} phase"
        raise InvalidIdError(f"an XGID cannot carry a game in {stage}")
    cube, owner = g.cube_value, g.cube_owner.relative(g.turn)
    if g.phase is Phase.BEAVERED:
        # The XGID keeps the cube before the double (a beaver is the taker's redouble at twice it).
        cube, owner = cube // 2, owner.CENTERED
    r = g.rules
    return format_xgid(XgidState(
        g.position, cube_value=cube, cube_owner={owner.CENTERED: 0, owner.ME: 1, owner.OPPONENT: -1}[owner],
        dice=g.rolled, score=(g.score[g.turn], g.score[1 - g.turn]), match_length=r.match_length,
        crawford=g.crawford_game and not r.is_money, jacoby=r.jacoby and r.is_money,
        beaver=r.beavers and r.is_money, max_cube=r.cube_limit, double_offered=g.phase in (
            Phase.DOUBLED, Phase.BEAVERED), beavered=g.phase is Phase.BEAVERED, turn=1 if g.turn == 0 else -1,
    ))

