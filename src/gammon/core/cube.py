"""The cube's vocabulary: who owns it, and the words for what is done with it.

:class:`CubeOwner` is the owner by player (``Game.cube_owner``): nobody (a
centred cube, -1), player 0 or player 1.  :class:`RelativeOwner` is the same
fact seen by one player (the analysis and the engine think from the player on
roll): nobody, that player (``ME``) or the ``OPPONENT``.  Both are int-valued,
so the numbers they always were (-1, 0, 1) still compare, index and print as
before.  :meth:`CubeOwner.relative` and :meth:`CubeOwner.from_relative` are the
one conversion between them; the Match ID's ``None`` and the XGID's ``0``/``+-1``
stay format encodings, converted where those formats are read and written.

:class:`CubeAction` names every cube decision: the player's (double or not;
take, drop or beaver) and the proper action an analysis finds (double/take,
double/pass, too good to double).  Its values are the words the analysis, the
engine and the reports have always printed ("no double", "pass"); :attr:`CubeAction.word`
is the one-token spelling of player protocols and commands ("no-double",
"drop", "too-good-to-double").  :meth:`CubeAction.parse` reads either.

>>> CubeOwner.PLAYER_1.relative(0)
<RelativeOwner.OPPONENT: 1>
>>> CubeOwner.from_relative(RelativeOwner.ME, 1)
<CubeOwner.PLAYER_1: 1>
>>> CubeAction.DROP, CubeAction.DROP.word, CubeAction.parse("no-double")
(<CubeAction.DROP: 'pass'>, 'drop', <CubeAction.NO_DOUBLE: 'no double'>)
"""

from __future__ import annotations

from enum import IntEnum, StrEnum

from gammon.core.errors import GammonError


class RelativeOwner(IntEnum):
    """The cube's owner as one player sees it: nobody, that player, or the opponent."""

    CENTERED = -1
    ME = 0
    OPPONENT = 1

    @classmethod
    def of(cls, value: int) -> RelativeOwner:
        """``value`` (-1, 0 or 1) as a :class:`RelativeOwner`.

        :raises GammonError: any other value.
        """
        if isinstance(value, bool) or value not in (-1, 0, 1):
            raise GammonError(f"the cube owner must be -1 (centred), 0 or 1, not {value!r}")
        return cls(value)

    def swap(self) -> RelativeOwner:
        """The same owner seen by the other player."""
        return self if self is RelativeOwner.CENTERED else RelativeOwner(1 - self)


class CubeOwner(IntEnum):
    """Who owns the cube, by player: nobody (centred), player 0 or player 1."""

    CENTERED = -1
    PLAYER_0 = 0
    PLAYER_1 = 1

    @classmethod
    def of(cls, value: int | None) -> CubeOwner:
        """``value`` as a :class:`CubeOwner`: -1 or None (a centred cube), 0 or 1.

        :raises GammonError: any other value.
        """
        if value is None:
            return cls.CENTERED
        if isinstance(value, bool) or value not in (-1, 0, 1):
            raise GammonError(f"the cube owner must be -1 (centred), 0 or 1, not {value!r}")
        return cls(value)

    @property
    def player(self) -> int | None:
        """The owning player, None for a centred cube (the Match ID's and the web's encoding)."""
        return None if self is CubeOwner.CENTERED else int(self)

    def relative(self, viewer: int) -> RelativeOwner:
        """The owner as player ``viewer`` sees it."""
        if self is CubeOwner.CENTERED:
            return RelativeOwner.CENTERED
        return RelativeOwner.ME if self == viewer else RelativeOwner.OPPONENT

    @classmethod
    def from_relative(cls, owner: int, viewer: int) -> CubeOwner:
        """The owner that player ``viewer`` sees as ``owner`` (a :class:`RelativeOwner` value)."""
        rel = RelativeOwner.of(owner)
        if rel is RelativeOwner.CENTERED:
            return cls.CENTERED
        return cls(viewer if rel is RelativeOwner.ME else 1 - viewer)


class CubeAction(StrEnum):
    """A cube decision: a player's action, or the proper action an analysis names.

    The first five are what a player does (before the roll: ``DOUBLE`` or
    ``NO_DOUBLE``; facing a double: ``TAKE``, ``DROP`` or ``BEAVER``); the
    last three are the proper actions of the player on roll that the engine
    finds (a double the opponent should take or pass, or a position too good
    to double).  ``PASS`` is another name for ``DROP``.
    """

    NO_DOUBLE = "no double"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "pass"
    PASS = "pass"
    BEAVER = "beaver"
    DOUBLE_TAKE = "double/take"
    DOUBLE_PASS = "double/pass"
    TOO_GOOD = "too good to double"

    @property
    def word(self) -> str:
        """The one-token spelling of player protocols and commands: "no-double", "drop", ..."""
        return "drop" if self is CubeAction.DROP else self.value.replace(" ", "-")

    @property
    def doubles(self) -> bool:
        """Whether the player on roll turns the cube (a double, or a proper double/take or double/pass)."""
        return self in (CubeAction.DOUBLE, CubeAction.DOUBLE_TAKE, CubeAction.DOUBLE_PASS)

    @classmethod
    def parse(cls, text: object) -> CubeAction:
        """The action ``text`` names, by its value or its word ("no double" or "no-double", "pass" or "drop").

        :raises GammonError: a word that names no cube action.
        """
        if isinstance(text, CubeAction):
            return text
        if isinstance(text, str):
            found = _BY_WORD.get(text.strip().lower())
            if found is not None:
                return found
        raise GammonError(f"not a cube action: {text!r}")


_BY_WORD: dict[str, CubeAction] = {
    **{a.value: a for a in CubeAction}, **{a.word: a for a in CubeAction},
}

#: The answers to a double (and, for the doubler, to a beaver).
ANSWERS = (CubeAction.TAKE, CubeAction.DROP, CubeAction.BEAVER)


def cube_is_dead(match_length: int, score: int, cube_value: int) -> bool:
    """Whether the cube is dead for a player with ``score`` points in a ``match_length`` match.

    "In match play the cube is dead for a player who wins the match by
    winning this game as a single game at the present cube: the points still
    needed are no more than the cube's value, so a double can gain that player
    nothing."  Money play (``match_length`` 0) has no match to win: the cube
    is never dead there.  The engine's cube decisions, the heuristic bot and
    the terminal's prompt all ask this one function.

    >>> cube_is_dead(7, 5, 2), cube_is_dead(7, 5, 1), cube_is_dead(0, 0, 64)
    (True, False, False)
    """
    return match_length > 0 and match_length - score <= cube_value


__all__ = ["ANSWERS", "CubeAction", "CubeOwner", "RelativeOwner", "cube_is_dead"]
