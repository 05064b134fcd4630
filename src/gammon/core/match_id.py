"""GNU Backgammon's Match ID: 12 base64 characters for the 66-bit match key.

The match key holds everything about a match except the checkers (those are
in the Position ID): cube, whose turn, dice, score, match length.  Fields are
packed from the lowest bit of the first byte up, each field's least
significant bit first (the same little-endian bit order as the Position ID),
at these bit offsets:

====== ===== =================================================================
offset width field
====== ===== =================================================================
0      4     log2 of the cube value
4      2     cube owner: 0 player 0, 1 player 1, 3 centred
6      1     player on roll, or the player who rolled ("dice owner")
7      1     Crawford game
8      3     game state: 0 none, 1 playing, 2 over, 3 resigned, 4 dropped
11     1     player to make the next decision ("turn")
12     1     a double is offered
13     2     resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
15     3     first die (0 = not rolled)
18     3     second die
21     15    match length (0 = money game)
36     15    score of player 0
51     15    score of player 1
66     1     Jacoby rule *off* (GNU Backgammon writes ``!fJacoby``)
====== ===== =================================================================

Bits 0..65 are those of the GNU Backgammon manual ("A technical description of
the Match ID").  Bit 66 is not in the manual: GNU Backgammon's ``matchid.c``
(``MatchID``/``MatchFromKey``) stores the negated Jacoby flag there, so IDs
from versions before it read as "Jacoby on" and newer IDs of games without the
Jacoby rule end in ``E`` rather than ``A``.  The 9-byte key is written as 12
base64 characters; the last 5 bits are padding and must be zero.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING

from gammon.core.errors import InvalidIdError
from gammon.core.phase import Phase

if TYPE_CHECKING:
    from gammon.core.game import Game

_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")

#: Largest cube value accepted: GNU Backgammon's MAX_CUBE (2**12).
MAX_CUBE = 4096
#: Largest number a 15-bit field (match length, score) can hold.
MAX_FIELD = (1 << 15) - 1
#: The longest match gammon plays or reads (0 is a money game).  The ID has room for
#: 32,767 points, but tables sized by the match length would then cost gigabytes.
MAX_MATCH_LENGTH = 64


class GameState(IntEnum):
    """The game state field of the Match ID (GNU Backgammon's ``gamestate``)."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


class Resignation(IntEnum):
    """What a pending resignation offers; the value is the multiple of the stake."""

    NONE = 0
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True, slots=True)
class MatchId:
    """Every field of a GNU Backgammon Match ID, by name.

    Players are GNU Backgammon's player 0 and player 1.  ``cube_owner`` is
    ``None`` for a centred cube.  ``player_on_roll`` is the player who is to
    roll or has rolled (the "dice owner"); ``turn`` is the player who makes the
    next decision (the opponent while a double or a resignation is pending).
    ``dice`` is ``None`` before the roll, kept in the order given (GNU
    Backgammon 1.07 writes the higher die first; older versions did not).
    ``score`` is (player 0, player 1); ``match_length`` 0 is a money game.
    Invalid combinations raise :class:`InvalidIdError` at construction.

    >>> decode_match_id("QYkqASAAIAAA").dice
    (5, 2)
    """

    cube_value: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int = 0
    double_offered: bool = False
    resignation: Resignation = Resignation.NONE
    dice: tuple[int, int] | None = None
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        _validate(self)

    @property
    def is_money(self) -> bool:
        """True for a money game (match length 0)."""
        return self.match_length == 0


def _problem(state: MatchId) -> str | None:
    """What is impossible about ``state``, or None when it can exist."""
    cv = state.cube_value
    if not isinstance(cv, int) or cv < 1 or cv & (cv - 1) or cv > MAX_CUBE:
        return f"the cube value must be a power of two from 1 to {MAX_CUBE}, not {cv!r}"
    if state.cube_owner not in (None, 0, 1):
        return f"the cube owner must be player 0, player 1 or None (centred), not {state.cube_owner!r}"
    if state.player_on_roll not in (0, 1):
        return f"the player on roll must be 0 or 1, not {state.player_on_roll!r}"
    if state.turn not in (0, 1):
        return f"the player to decide must be 0 or 1, not {state.turn!r}"
    if state.game_state not in tuple(GameState):
        return f"unknown game state {state.game_state!r} (0 to 4)"
    if state.resignation not in tuple(Resignation):
        return f"unknown resignation {state.resignation!r} (0 to 3)"
    if state.dice is not None:
        if (
            len(state.dice) != 2
            or not all(isinstance(d, int) and 1 <= d <= 6 for d in state.dice)
        ):
            return f"dice must be two numbers from 1 to 6 (or None), not {state.dice!r}"
    ml = state.match_length
    if not isinstance(ml, int) or not 0 <= ml <= MAX_MATCH_LENGTH:
        return f"the match length must be 0 (money) or 1 to {MAX_MATCH_LENGTH} points, not {ml!r}"
    if len(state.score) != 2 or not all(
        isinstance(s, int) and 0 <= s <= MAX_FIELD for s in state.score
    ):
        return f"the score must be two numbers from 0 to {MAX_FIELD}, not {state.score!r}"
    if ml == 0:
        if state.crawford:
            return "a money game has no Crawford game"
    elif state.game_state in (GameState.NONE, GameState.PLAYING):
        if max(state.score) >= ml:
            return (
                f"score {state.score[0]}-{state.score[1]} is not below the match "
                f"length {ml}, yet the match goes on"
            )
    elif min(state.score) >= ml:
        return f"both players have reached the match length {ml}"
    return None


def _validate(state: MatchId) -> None:
    problem = _problem(state)
    if problem is not None:
        raise InvalidIdError(f"impossible match state: {problem}")


def _log2(value: int) -> int:
    return value.bit_length() - 1


def encode_match_id(state: MatchId) -> str:
    """The 12-character Match ID of ``state``, bit for bit as GNU Backgammon writes it.

    >>> encode_match_id(MatchId(cube_value=2, cube_owner=0, player_on_roll=1, turn=1,
    ...     dice=(5, 2), match_length=9, score=(2, 4), jacoby=True))
    'QYkqASAAIAAA'
    """
    d1, d2 = state.dice if state.dice is not None else (0, 0)
    fields = (
        (_log2(state.cube_value), 4),
        (3 if state.cube_owner is None else state.cube_owner, 2),
        (state.player_on_roll, 1),
        (int(state.crawford), 1),
        (int(state.game_state), 3),
        (state.turn, 1),
        (int(state.double_offered), 1),
        (int(state.resignation), 2),
        (d1, 3),
        (d2, 3),
        (state.match_length, 15),
        (state.score[0], 15),
        (state.score[1], 15),
        (int(not state.jacoby), 1),
    )
    key = 0
    shift = 0
    for value, width in fields:
        key |= value << shift
        shift += width
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


#: The widths in bits of the Match ID's fields, lowest bits first: cube (log 2), cube owner,
#: player on roll, Crawford, game state, turn, double offered, resignation, two dice, match
#: length, the two scores and "Jacoby off".
_FIELD_WIDTHS = (4, 2, 1, 1, 3, 1, 1, 2, 3, 3, 15, 15, 15, 1)


def _key_of(text: str) -> int:
    """The 67-bit key that a Match ID's 12 base64 characters spell (a ``Match ID:`` label and
    blanks around it taken off).

    :raises InvalidIdError: not text, not 12 characters of the alphabet, or padding bits set.
    """
    if not isinstance(text, str):
        raise InvalidIdError(f"a Match ID is text, not {type(text).__name__}")
    s = text.strip()
    if s.lower().startswith("match id:"):
        s = s[len("match id:") :].strip()
    if len(s) != 12:
        raise InvalidIdError(
            f"{text!r} is not a Match ID: expected 12 characters of A-Z a-z 0-9 + /, "
            f"got {len(s)}"
        )
    bad = next((i for i, c in enumerate(s) if c not in _ALPHABET), None)
    if bad is not None:
        raise InvalidIdError(
            f"{text!r} is not a Match ID: {s[bad]!r} (character {bad + 1}) is not "
            "one of A-Z a-z 0-9 + /"
        )
    try:
        raw = base64.b64decode(s, validate=True)
    except binascii.Error:  # pragma: no cover - the alphabet check above catches it
        raise InvalidIdError(f"{text!r} is not valid base64") from None
    key = int.from_bytes(raw, "little")
    if key >> 67:
        raise InvalidIdError(f"{text!r} is not a Match ID: its last 5 padding bits must be 0")
    return key


def _unpack(key: int) -> list[int]:
    """The fields of ``key``, in the order of :data:`_FIELD_WIDTHS`."""
    values = []
    for width in _FIELD_WIDTHS:
        values.append(key & ((1 << width) - 1))
        key >>= width
    return values


def decode_match_id(text: str) -> MatchId:
    """The match state a Match ID names.

    Leading and trailing spaces are ignored, and a ``Match ID:`` label too.

    :raises InvalidIdError: not 12 base64 characters, padding bits set, or a
        field out of range (dice above 6, cube owner 2, a cube above 4096,
        game state above 4, a score at or past the length of a match in play,
        Crawford in a money game).
    """
    key = _key_of(text)
    (log_cube, owner, on_roll, crawford, game_state, turn, doubled, resigned, d1, d2,
     length, score0, score1, jacoby_off) = _unpack(key)

    def fail(why: str) -> InvalidIdError:
        return InvalidIdError(f"{text!r} is not a valid Match ID: {why}")

    if (1 << log_cube) > MAX_CUBE:
        raise fail(f"cube value 2**{log_cube} is above the largest cube, {MAX_CUBE}")
    if owner == 2:
        raise fail("cube owner 2 (only 0, 1 and 3 = centred exist)")
    if game_state > 4:
        raise fail(f"game state {game_state} (0 to 4 exist)")
    if d1 > 6 or d2 > 6:
        raise fail(f"dice {d1} and {d2} (each die is 1 to 6, or 0 before the roll)")
    if (d1 == 0) != (d2 == 0):
        raise fail(f"one die rolled and not the other ({d1} and {d2})")
    try:
        return MatchId(
            cube_value=1 << log_cube,
            cube_owner=None if owner == 3 else owner,
            player_on_roll=on_roll,
            crawford=bool(crawford),
            game_state=GameState(game_state),
            turn=turn,
            double_offered=bool(doubled),
            resignation=Resignation(resigned),
            dice=(d1, d2) if d1 else None,
            match_length=length,
            score=(score0, score1),
            jacoby=not jacoby_off,
        )
    except InvalidIdError as exc:
        raise fail(str(exc).removeprefix("impossible match state: ")) from None


def game_match_id(game: Game) -> str:
    """The Match ID of ``game`` now (what :meth:`Game.match_id <gammon.core.game.Game.match_id>` returns).

    Player 0 is GNU Backgammon's player 0.  A finished game says how it ended
    (over, resigned or dropped); a pending resignation says its kind.

    :raises InvalidIdError: a state the Match ID cannot carry (a cube above
        :data:`MAX_CUBE`, a match longer than :data:`MAX_MATCH_LENGTH`, ...).
    """
    g = game
    if g.is_over and g.result is not None:
        state = (GameState.DROPPED if g.result.dropped else GameState.RESIGNED if g.result.resigned
                 else GameState.OVER)
    else:
        state = GameState.PLAYING
    resign = Resignation.NONE
    if g.phase is Phase.RESIGNED and g.resignation is not None:
        resign = Resignation(int(g.resignation[1]))
    return encode_match_id(MatchId(
        cube_value=g.cube_value, cube_owner=g.cube_owner.player, player_on_roll=g.turn,
        crawford=g.crawford_game and bool(g.rules.match_length), game_state=state, turn=g.player_to_act,
        double_offered=g.phase is Phase.DOUBLED, resignation=resign, dice=g.rolled,
        match_length=g.rules.match_length, score=(g.score[0], g.score[1]), jacoby=g.rules.jacoby,
    ))
