"""The position: where the checkers stand, always seen from the player on roll.

A :class:`Position` is an immutable, hashable value.  It holds two rows of 25
checker counts, GNU Backgammon's layout: ``me`` for the player on roll and
``opp`` for the opponent, each seen from its own side (index 0..23 = that
side's points 1..24, index 24 = its checkers waiting to enter).  Checkers not on
the board are borne off.  In Dutch backgammon the checkers start on the bar; in
Acey-Deucey they start in a *pool* of never-entered checkers, which index 24
counts together with the hit checkers on the bar (``pool`` says how many of
them never entered; those may wait while others move, a hit checker may not).
The history of a game is not part of a position; it lives in the game record.
"""

from __future__ import annotations

import operator
from collections import _tuplegetter  # type: ignore[attr-defined]  # named tuples' field getter
from collections.abc import Iterable, Iterator, Sequence
from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from gammon.core import movegen
from gammon.core.errors import IllegalPlayError, InvalidDiceError, InvalidIdError, InvalidPositionError

# LegalPlays is what legal_plays() returns, exported here too (gammon.ai imports it from here).
from gammon.core.legal_plays import BUFFERS, buffers
from gammon.core.legal_plays import LegalPlays as LegalPlays
from gammon.core.pips import pips
from gammon.core.plays import BAR_POINT, CheckerMove, Play
from gammon.core.position_id import decode_position_id, encode_position_id
from gammon.core.variants import STANDARD, Variant, find_variant

if TYPE_CHECKING:
    from gammon.core.steps import StepTree
    from gammon.core.xgid import XgidState

Dice = tuple[int, int]

_new_tuple = tuple.__new__
_generate = movegen.generate
_POOL_SHIFT = movegen.POOL_SHIFT


class ResultKind(IntEnum):
    """How a game was won; the value is the multiple of the stake."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


class Outcome(NamedTuple):
    """The end of a game as a position shows it: who won (from the viewer) and how."""

    winner_is_me: bool
    kind: ResultKind


#: :meth:`Position.step_problem`'s words for the two rules newcomers miss most (callers compare
#: with these constants, not with free text).
BAR_FIRST = "a checker on the bar must enter before any other checker moves"
BEAR_OFF_HOME = "bearing off needs every checker in the home board"



class StepReason(StrEnum):
    """Why a step is refused, as a code callers branch on (the message says it to a person).

    The first group is the single-step rule (:meth:`Position.step_fault`); the
    rest are the rules of the whole roll, told by
    :meth:`gammon.core.steps.StepTree.refusal`.
    """

    BAD_POINT = "bad_point"  # not points of a step at all
    WRONG_WAY = "wrong_way"  # checkers move only toward home
    NO_CHECKER = "no_checker"  # no checker of the mover there
    BAR_FIRST = "bar_first"  # a hit checker waits on the bar
    BLOCKED = "blocked"  # two or more opposing checkers on the landing point
    NO_HIT_YET = "no_hit_yet"  # Dutch: no hitting before a checker reached the home board
    BEAR_OFF_NOT_HOME = "bear_off_not_home"  # bearing off with checkers outside the home board
    POOL_NOT_ENTERED = "pool_not_entered"  # Acey-Deucey: bearing off with checkers still in the pool
    BEAR_OFF_HIGHER = "bear_off_higher"  # a higher die bears off only from the highest point
    NO_DIE = "no_die"  # no die (or sum of dice) left covers the distance
    HIGHER_DIE = "higher_die"  # only one die can be played: it must be the higher
    MORE_DICE = "more_dice"  # a play must use as many dice as it can
    ROLL_PLAYED = "roll_played"  # the steps so far already make the whole play


class StepFault(NamedTuple):
    """A step the single-step rule refuses: the reason's code and the rule in words."""

    reason: StepReason
    message: str


#: Every roll as a tuple, so that a tuple of two ints 1..6 is checked by one lookup.
_DICE: dict[tuple[int, int], Dice] = {(a, b): (a, b) for a in range(1, 7) for b in range(1, 7)}


def check_dice(dice: Iterable[int]) -> Dice:
    """Two dice as a tuple, each 1..6.

    :raises InvalidDiceError: anything else.
    """
    try:
        d1, d2 = (operator.index(d) for d in dice)
    except (TypeError, ValueError):
        raise InvalidDiceError(f"dice must be two numbers from 1 to 6, not {dice!r}") from None
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise InvalidDiceError(f"dice must be two numbers from 1 to 6, not {d1} and {d2}")
    return d1, d2


class Position(tuple[bytes, Variant, int]):
    """Checkers on the board, seen from the player on roll; immutable and hashable.

    >>> p = Position.initial()
    >>> p.position_id
    '4HPwATDgc/ABMA'
    >>> p.pip_counts
    (167, 167)

    Underneath it is a tuple (board, variant, pool), as a named tuple is: move
    generation builds a position per legal play, and a tuple subclass is built
    in one C call (three times cheaper than an object with slots).  It is not a
    sequence: ``len``, indexing, iteration and concatenation are refused.
    """

    __slots__ = ()
    if TYPE_CHECKING:
        _board: bytes
        _variant: Variant
        #: Never-entered checkers of (me, opponent) packed as ``me | opp << 4`` (Acey-Deucey).
        _pool: int
    else:
        _board = _tuplegetter(0, "the 50 counts: me then opp")
        _variant = _tuplegetter(1, "the variant")
        _pool = _tuplegetter(2, "never-entered checkers of (me, opponent) packed as me | opp << 4")

    def __new__(
        cls,
        me: Sequence[int],
        opp: Sequence[int],
        variant: str | Variant = STANDARD,
        pool: Sequence[int] = (0, 0),
    ) -> Position:
        """Build a position from two rows of 25 counts, checking that it can exist.

        ``pool`` (Acey-Deucey only) says how many of each side's checkers at
        index 24 have never entered; the rest of index 24 were hit.

        :raises InvalidPositionError: wrong row length, negative counts, more
            checkers than the variant has, both sides on one point, or a pool
            larger than the checkers waiting to enter.
        """
        v = find_variant(variant)
        rows = (list(me), list(opp))
        for who, row in zip(("player on roll", "opponent"), rows, strict=True):
            if len(row) != 25:
                raise InvalidPositionError(
                    f"{who}: a side needs 25 counts (points 1-24 and the bar), got {len(row)}"
                )
            for i, c in enumerate(row):
                if not isinstance(c, int | np.integer) or c < 0:
                    raise InvalidPositionError(f"{who}: bad checker count {c!r} at index {i}")
            total = sum(row)
            if total > v.checkers:
                raise InvalidPositionError(
                    f"{who} has {total} checkers on the board; {v.title} has {v.checkers}"
                )
        if not any(rows[0]) and not any(rows[1]):
            raise InvalidPositionError("both sides have borne off every checker; a game ends before that")
        for i in range(24):
            if rows[0][i] and rows[1][23 - i]:
                raise InvalidPositionError(
                    f"both sides have checkers on point {i + 1} "
                    f"(the opponent's {24 - i}); a point holds one colour"
                )
        try:
            pool_me, pool_opp = (operator.index(c) for c in pool)
        except (TypeError, ValueError):
            raise InvalidPositionError(f"the pool must be two counts, not {pool!r}") from None
        if (pool_me or pool_opp) and not v.starts_in_pool:
            raise InvalidPositionError(f"{v.title} has no pool of never-entered checkers")
        for who, n, row in (("player on roll", pool_me, rows[0]), ("opponent", pool_opp, rows[1])):
            if not 0 <= n <= row[24]:
                raise InvalidPositionError(
                    f"{who}: a pool of {n} never-entered checkers, but {row[24]} wait to enter"
                )
        return _new_tuple(cls, (bytes(rows[0] + rows[1]), v, pool_me | pool_opp << 4))

    @classmethod
    def _make(cls, board: bytes, variant: Variant, pool: int = 0) -> Position:
        """A position from 50 trusted bytes (the move generator's output): no checks."""
        return _new_tuple(cls, (board, variant, pool))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable")

    # -- construction -------------------------------------------------------

    @classmethod
    def initial(cls, variant: str | Variant = STANDARD) -> Position:
        """The starting position of ``variant`` (standard backgammon by default)."""
        v = find_variant(variant)
        pool = v.start[24] * 17 if v.starts_in_pool else 0
        return cls._make(bytes(v.start + v.start), v, pool)

    @classmethod
    def from_position_id(
        cls, text: str, variant: str | Variant = STANDARD, pool: Sequence[int] = (0, 0)
    ) -> Position:
        """The position a GNU Backgammon Position ID names (the player on roll second).

        The ID counts pool checkers (Acey-Deucey) on the bar; ``pool`` says how many.

        :raises InvalidIdError: a malformed ID or an impossible position.
        """
        me, opp = decode_position_id(text)
        return cls._checked(me, opp, variant, pool)

    @classmethod
    def from_xgid(cls, text: str) -> Position:
        """The position of an eXtreme Gammon XGID, seen from the player on roll.

        The cube, score and dice it carries come from ``gammon.core.xgid.parse_xgid``.

        :raises InvalidIdError: a malformed XGID.
        """
        return cls.xgid_state(text).position

    @staticmethod
    def xgid_state(text: str) -> XgidState:
        """Everything an XGID carries: position, cube, turn, dice, score, match length."""
        from gammon.core.xgid import parse_xgid

        return parse_xgid(text)

    @classmethod
    def _checked(
        cls, me: Sequence[int], opp: Sequence[int], variant: str | Variant,
        pool: Sequence[int] = (0, 0),
    ) -> Position:
        """Like the constructor, but report problems as a bad ID."""
        try:
            return cls(me, opp, variant, pool)
        except InvalidPositionError as exc:
            raise InvalidIdError(f"the ID names an impossible position: {exc}") from None

    # -- views --------------------------------------------------------------

    @property
    def variant(self) -> Variant:
        """The variant whose rules apply to this position."""
        return self._variant

    @property
    def pool(self) -> tuple[int, int]:
        """Never-entered checkers of (player on roll, opponent): Acey-Deucey's pool, else 0."""
        return self._pool & 15, self._pool >> 4

    @property
    def me(self) -> tuple[int, ...]:
        """The player on roll: points 1..24 (indices 0..23) and those waiting to enter (24)."""
        return tuple(self._board[:25])

    @property
    def opp(self) -> tuple[int, ...]:
        """The opponent, from the opponent's own side: points 1..24 and the bar."""
        return tuple(self._board[25:])

    @property
    def board(self) -> bytes:
        """The 50 counts (``me`` then ``opp``) as the move generator reads them."""
        return self._board

    @property
    def position_id(self) -> str:
        """The GNU Backgammon Position ID (14 characters)."""
        return encode_position_id(self.me, self.opp)

    @property
    def xgid(self) -> str:
        """An XGID of this position with the player on roll to move, cube 1, money."""
        from gammon.core.xgid import XgidState, format_xgid

        return format_xgid(XgidState(position=self))

    @property
    def pip_counts(self) -> tuple[int, int]:
        """Pips to bear off for (player on roll, opponent); the bar counts 25."""
        b = self._board
        return pips(b, 0), pips(b, 25)

    @property
    def checkers_off(self) -> tuple[int, int]:
        """Checkers borne off by (player on roll, opponent)."""
        n = self._variant.checkers
        return n - sum(self._board[:25]), n - sum(self._board[25:])

    @property
    def bar(self) -> tuple[int, int]:
        """Hit checkers on the bar of (player on roll, opponent); the pool is not the bar."""
        pool = self._pool
        return self._board[24] - (pool & 15), self._board[49] - (pool >> 4)

    def swap(self) -> Position:
        """The same position seen by the other player (the turn passes)."""
        b = self._board
        pool = self._pool
        return Position._make(b[25:] + b[:25], self._variant, (pool >> 4) | (pool & 15) << 4)

    # -- the game's end -----------------------------------------------------

    @property
    def is_game_over(self) -> bool:
        """True when one side has borne off every checker."""
        b = self._board
        return not any(b[:25]) or not any(b[25:])

    @property
    def outcome(self) -> Outcome | None:
        """Who won and how, or None while both sides still have checkers on the board.

        "A gammon: the loser has borne off no checker.  A backgammon: the loser
        has borne off none and still has a checker on the bar or in the winner's
        home board."
        """
        b = self._board
        if any(b[:25]) and any(b[25:]):
            return None
        winner_is_me = not any(b[:25])
        loser = b[25:] if winner_is_me else b[:25]
        if sum(loser) < self._variant.checkers:
            kind = ResultKind.SINGLE
        elif any(loser[18:25]):  # loser's 19..24 = winner's home board, or the bar
            kind = ResultKind.BACKGAMMON
        else:
            kind = ResultKind.GAMMON
        return Outcome(winner_is_me, kind)

    # -- plays --------------------------------------------------------------

    @property
    def generator_flags(self) -> int:
        """The move generator's rule flags for this position: the variant's, plus the
        count of the mover's never-entered (pool) checkers in Acey-Deucey, which may
        wait while others move.  Every caller of the kernel uses these."""
        return int(self._variant.flags | (self._pool & 15) << movegen.POOL_SHIFT)

    def legal_plays(self, dice: Iterable[int]) -> LegalPlays:
        """Every distinct legal play for ``dice``; empty when nothing can be played.

        Plays reaching the same position are one play.  Each play's position
        is seen from the mover, before the turn passes.

        :raises InvalidDiceError: dice that are not two numbers 1..6.
        """
        try:  # the common case, a tuple of two ints 1..6, in one lookup
            d = _DICE[dice]  # type: ignore[index]
            if dice[0].__class__ is not int or dice[1].__class__ is not int:  # type: ignore[index]
                raise TypeError
        except (KeyError, TypeError):
            d = check_dice(dice)
        try:
            buf = BUFFERS.buffers
        except AttributeError:
            buf = buffers()
        buf.board_in[:] = self._board
        v = self._variant
        n = _generate(
            buf.board, d[0], d[1], v.flags | (self._pool & 15) << _POOL_SHIFT, v.checkers,
            buf.boards, buf.moves, buf.table,
        )
        return LegalPlays(self, buf.board_rows[:n].tolist(), buf.move_rows[:n].tolist(), n)

    def step_tree(self, dice: Iterable[int]) -> StepTree:
        """The legal single steps of ``dice``, one checker at a time, down to complete plays.

        See :mod:`gammon.core.steps`: the page and the terminal walk this tree to
        build a play step by step.

        :raises InvalidDiceError: dice that are not two numbers 1..6.
        """
        from gammon.core.steps import step_tree

        return step_tree(self, dice)

    def step_problem(self, from_point: int, to_point: int) -> str | None:
        """Why one checker cannot move from ``from_point`` to ``to_point`` now, or None.

        The rules of a single step: a checker must stand there; a hit checker on
        the bar enters before any other moves (Acey-Deucey's pool may wait); the
        landing point is not held by two or more opponents; Dutch: "no hitting
        until one of your checkers has reached your home board"; bearing off
        only with every checker home.  Which die a step uses, and the rules of
        the whole roll, are :meth:`legal_plays`'s business.  The reason as a
        code: :meth:`step_fault`.
        """
        fault = self.step_fault(from_point, to_point)
        return None if fault is None else fault.message

    def step_fault(self, from_point: int, to_point: int) -> StepFault | None:
        """:meth:`step_problem` with the reason as a :class:`StepReason` code, or None."""
        b = self._board
        v = self._variant
        if not (isinstance(from_point, int) and isinstance(to_point, int)
                and 1 <= from_point <= BAR_POINT and 0 <= to_point < from_point and to_point <= 24):
            wrong_way = (isinstance(from_point, int) and isinstance(to_point, int)
                         and 1 <= from_point <= BAR_POINT and 0 <= to_point <= 24)
            return StepFault(
                StepReason.WRONG_WAY if wrong_way else StepReason.BAD_POINT,
                f"a step goes from 1-25 (25 = bar) down to 0-24 (0 = off), not {from_point}/{to_point}")
        s = from_point - 1
        if s != 24 and v.must_enter_first and b[24] > (self._pool & 15):
            # whatever stands on the point: nothing moves before the entry
            return StepFault(StepReason.BAR_FIRST, BAR_FIRST)
        if b[s] == 0:
            where = "the bar" if s == 24 else f"the {from_point}-point"
            return StepFault(StepReason.NO_CHECKER, f"no checker of the player on roll on {where}")
        if to_point == 0:
            if any(b[6:24]):
                return StepFault(StepReason.BEAR_OFF_NOT_HOME, BEAR_OFF_HOME)
            if b[24]:  # only checkers waiting to enter are outside
                pooled = b[24] == (self._pool & 15)
                return StepFault(StepReason.POOL_NOT_ENTERED if pooled else StepReason.BEAR_OFF_NOT_HOME,
                                 BEAR_OFF_HOME)
            return None
        there = b[25 + 24 - to_point]
        if there >= 2:
            return StepFault(StepReason.BLOCKED, f"the {to_point}-point is held by the opponent ({there})")
        if there == 1 and v.hit_needs_home and not (any(b[0:6]) or sum(b[0:25]) < v.checkers):
            return StepFault(StepReason.NO_HIT_YET,
                             "no hitting until one of your checkers has reached your home board")
        return None

    def apply_step(self, from_point: int, to_point: int) -> Position:
        """The position after one checker moves ``from_point`` -> ``to_point`` (hitting a blot there).

        Seen from the mover; the turn does not pass.  An entry takes a hit
        checker from the bar before a pool checker (Acey-Deucey).

        :raises IllegalPlayError: the step breaks a rule (see :meth:`step_problem`).
        """
        problem = self.step_problem(from_point, to_point)
        if problem is not None:
            raise IllegalPlayError(f"cannot move {from_point}/{to_point}: {problem}")
        b = bytearray(self._board)
        pool = self._pool
        s = from_point - 1
        if s == 24 and b[24] == (pool & 15) and pool & 15:
            pool -= 1  # no hit checker waits: this one comes from the pool
        b[s] -= 1
        if to_point:
            t = to_point - 1
            b[t] += 1
            if b[48 - t] == 1:
                b[48 - t] = 0
                b[49] += 1
        return Position._make(bytes(b), self._variant, pool)

    def apply_steps(self, steps: Iterable[CheckerMove | Sequence[int]]) -> Position:
        """The position after ``steps`` (checker moves, or ``(from, to)`` pairs) in order.

        Each step is checked by the single-step rules (:meth:`step_problem`);
        a :class:`CheckerMove` that says it hits must land on a blot, and one
        that does not must not.  Seen from the mover; the turn does not pass.
        This is the python-chess ``push`` of gammon: for the rules of a whole
        roll use :meth:`legal_plays` or :meth:`after`.

        >>> Position.initial().apply_steps([(8, 5), (6, 5)]).position_id
        '4HPwATCwZ/ABMA'

        :raises IllegalPlayError: a step breaks a rule.
        """
        p = self
        for step in steps:
            if isinstance(step, CheckerMove):
                start, end, hit = step.from_point, step.to_point, step.hit
                if end and (p._board[25 + 24 - end] == 1) != hit:
                    raise IllegalPlayError(
                        f"cannot move {step}: the {end}-point {'has no blot' if hit else 'has a blot'} to hit"
                    )
            else:
                try:
                    start, end = (operator.index(x) for x in step)
                except (TypeError, ValueError):
                    raise IllegalPlayError(f"a step is (from, to), not {step!r}") from None
            p = p.apply_step(start, end)
        return p

    def after(self, play: Play | str, dice: Iterable[int] | None = None) -> Position:
        """The position after a whole legal ``play``, seen from the mover (before the turn passes).

        ``play`` is a :class:`Play` of this position or notation; with ``dice``
        it must be one of the legal plays of that roll.

        >>> Position.initial().after("8/5 6/5", (3, 1)).position_id
        '4HPwATCwZ/ABMA'

        :raises IllegalPlayError: the play is not legal here (for ``dice``).
        """
        if isinstance(play, str):
            return self.parse_play(play, dice).position
        if dice is not None:
            legal = self.legal_plays(dice)
            if play not in legal:
                raise IllegalPlayError(f"{play} is not a legal play of {self.position_id} for {tuple(dice)}")
            return play.position
        result = self.apply_steps(play.moves)
        if result != play.position:
            raise IllegalPlayError(f"{play} does not lead from {self.position_id} to its position")
        return result

    def parse_play(self, text: str, dice: Iterable[int] | None = None) -> Play:
        """The legal play that ``text`` (``24/18 13/11``, ``bar/22*``, ...) names.

        Without ``dice`` they are read from the notation.

        :raises PlaySyntaxError: unreadable notation.
        :raises IllegalPlayError: no legal play fits (the message lists the closest).
        :raises AmbiguousPlayError: more than one legal play fits.
        """
        from gammon.core.notation import parse_play

        return parse_play(self, text, dice)

    # -- value protocol -----------------------------------------------------

    def __eq__(self, other: object) -> bool:
        # Variants compare by value, so a pickled or deep-copied position stays equal.
        return (
            isinstance(other, Position)
            and self._board == other._board
            and self._pool == other._pool
            and (self._variant is other._variant or self._variant == other._variant)
        )

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self._board) ^ self._pool

    def __repr__(self) -> str:
        extra = ""
        if self._variant != STANDARD:
            extra += f", variant={self._variant.name!r}"
        if self._pool:
            extra += f", pool={self.pool!r}"
        return f"Position.from_position_id({self.position_id!r}{extra})"

    # A position is a value, not a sequence: the tuple underneath stays hidden.
    def __bool__(self) -> bool:
        return True

    def __len__(self) -> int:
        raise TypeError("a Position is not a sequence (use .me, .opp or .board)")

    def __iter__(self) -> Iterator[object]:  # type: ignore[override]
        raise TypeError("a Position is not a sequence (use .me, .opp or .board)")

    def __getitem__(self, index: object) -> object:  # type: ignore[override]
        raise TypeError("a Position is not a sequence (use .me, .opp or .board)")

    def __contains__(self, item: object) -> bool:
        raise TypeError("a Position is not a sequence (use .me, .opp or .board)")

    def __add__(self, other: object) -> object:  # type: ignore[override]
        return NotImplemented

    def __mul__(self, other: object) -> object:  # type: ignore[override]
        return NotImplemented

    __rmul__ = __mul__  # type: ignore[assignment]

    def __lt__(self, other: object) -> bool:
        return NotImplemented

    __le__ = __gt__ = __ge__ = __lt__

    def __reduce__(self) -> tuple[object, ...]:
        return (Position._make, (self._board, self._variant, self._pool))
