"""What happened: :class:`Event`, its :class:`EventKind` and one typed payload per kind.

An :class:`Event` is what :meth:`Game.apply <gammon.core.game.Game.apply>`,
:meth:`Match.apply <gammon.core.match.Match.apply>` and the match driver return:
``kind`` names it, ``player`` did it (None: nobody in particular), ``text``
says it in plain words and ``data`` holds its facts.  ``data`` is the form
that is stored with each action and sent to the page (its keys and values
are a wire format, unchanged); :attr:`Event.payload` gives the same facts as
a frozen dataclass of the kind's own type, and :meth:`Event.of` builds an
event from such a payload, so producers and readers name fields the type
checker knows.

:class:`EventKind` is a ``StrEnum``: its values are the words stored in
records and read by the page, and a kind still equals its word
(``EventKind.ROLLED == "rolled"``).  Two words look alike and are both kept:
``"choose-double"`` (:attr:`EventKind.CHOOSE_DOUBLE`) says that the game now
waits for an Acey-Deucey player to name a double (the same word as the phase
:attr:`Phase.CHOOSE_DOUBLE <gammon.core.game.Phase>` and the action's record
type), and ``"chose-double"`` (:attr:`EventKind.CHOSE_DOUBLE`) that the player
named one.  They are different events, and both words are in stored games
and in the page, so neither can be renamed without rewriting stored records.

>>> e = Event.of(1, "player 1 rolled 5-2", Rolled((5, 2)))
>>> e.kind, e.data, e.payload
(<EventKind.ROLLED: 'rolled'>, {'dice': (5, 2)}, Rolled(dice=(5, 2)))
>>> e == Event("rolled", 1, "player 1 rolled 5-2", {"dice": (5, 2)})
True
"""

from __future__ import annotations

from dataclasses import MISSING, Field, dataclass, field, fields
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, dataclass_transform

from gammon.core.errors import GammonError


class EventKind(StrEnum):
    """The name of an event, as records store it."""

    OPENING_TIE = "opening-tie"
    AUTO_DOUBLE = "auto-double"
    OPENING = "opening"
    ROLLED = "rolled"
    NO_MOVE = "no-move"
    PLAYED = "played"
    CHOOSE_DOUBLE = "choose-double"  # the game waits for the player to name a double
    CHOSE_DOUBLE = "chose-double"  # the player named it
    ROLL_AGAIN = "roll-again"
    TURN = "turn"
    DOUBLED = "doubled"
    TOOK = "took"
    BEAVERED = "beavered"
    DROPPED = "dropped"
    RESIGNED = "resigned"
    RESIGNATION_ACCEPTED = "resignation-accepted"
    RESIGNATION_REJECTED = "resignation-rejected"
    TIMEOUT = "timeout"
    GAME_OVER = "game-over"
    NEW_GAME = "new-game"
    SCORE = "score"
    MATCH_OVER = "match-over"
    GAME_START = "game-start"


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class Payload:
    """The facts of one kind of event.  A field with a default is left out of ``data`` at its default.

    A payload names its kind in its class line, ``class Rolled(Payload, kind=EventKind.ROLLED)``,
    and is made a frozen dataclass there: the one definition every kind shares.
    """

    kind: ClassVar[EventKind]
    if TYPE_CHECKING:  # what dataclass() gives each kind: the type checker may call fields() on one
        __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def __init_subclass__(cls, *, kind: EventKind, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.kind = kind
        dataclass(frozen=True)(cls)


# -- the game's events ------------------------------------------------------------


class OpeningTie(Payload, kind=EventKind.OPENING_TIE):
    """Both players threw the same number at the opening: they throw again."""

    dice: tuple[int, int]


class AutoDouble(Payload, kind=EventKind.AUTO_DOUBLE):
    """An equal opening throw doubled the (centred) cube: its value now."""

    cube: int


class Opening(Payload, kind=EventKind.OPENING):
    """The opening throw (player 0's die, player 1's); ``reroll``: the starter throws both dice anew."""

    dice: tuple[int, int]
    reroll: bool = False


class Rolled(Payload, kind=EventKind.ROLLED):
    dice: tuple[int, int]


class NoMove(Payload, kind=EventKind.NO_MOVE):
    """The player on roll cannot play the dice."""


class Played(Payload, kind=EventKind.PLAYED):
    """The play in notation ("" for no play)."""

    play: str


class ChooseDoubleNow(Payload, kind=EventKind.CHOOSE_DOUBLE):
    """Acey-Deucey: the player played the 1-2 and now names a double."""


class ChoseDouble(Payload, kind=EventKind.CHOSE_DOUBLE):
    """Acey-Deucey: the double the player named."""

    number: int


class RollAgain(Payload, kind=EventKind.ROLL_AGAIN):
    """Acey-Deucey: the named double was played in full, so the player throws again."""


class Turn(Payload, kind=EventKind.TURN):
    """The turn passed: the event's player is now on roll."""


class Doubled(Payload, kind=EventKind.DOUBLED):
    """The cube's value if the double is taken."""

    cube: int


class Took(Payload, kind=EventKind.TOOK):
    """The cube's value now."""

    cube: int


class Beavered(Payload, kind=EventKind.BEAVERED):
    """The cube's value if the doubler takes the beaver."""

    cube: int


class Dropped(Payload, kind=EventKind.DROPPED):
    """The double (or the beaver) was dropped: the game is over."""


class Resigned(Payload, kind=EventKind.RESIGNED):
    """The resignation offered: "single", "gammon" or "backgammon"."""

    resign: str = field(metadata={"key": "kind"})


class ResignationAccepted(Payload, kind=EventKind.RESIGNATION_ACCEPTED):
    """The resignation was accepted: the game is over."""


class ResignationRejected(Payload, kind=EventKind.RESIGNATION_REJECTED):
    """The resignation was rejected: play goes on."""


class TimedOut(Payload, kind=EventKind.TIMEOUT):
    """The player's time ran out: the match is lost."""


class GameOver(Payload, kind=EventKind.GAME_OVER):
    """The points won and how ("single", "gammon", "backgammon"); ``timeout``: lost on time."""

    points: int
    result: str = field(metadata={"key": "kind"})
    timeout: bool = False


# -- the match's events -----------------------------------------------------------


class NewGameStarted(Payload, kind=EventKind.NEW_GAME):
    """The number of the game that starts (1 is the first) and whether it is the Crawford game."""

    game: int
    crawford: bool


class Score(Payload, kind=EventKind.SCORE):
    """The match score (player 0, player 1) after a game."""

    score: tuple[int, int]


class MatchOver(Payload, kind=EventKind.MATCH_OVER):
    """The match is over."""


class GameStart(Payload, kind=EventKind.GAME_START):
    """The match driver's announcement of a game: its number, the score before it, Crawford."""

    game: int
    score: tuple[int, int]
    crawford: bool


PAYLOADS: dict[EventKind, type[Payload]] = {cls.kind: cls for cls in (
    OpeningTie, AutoDouble, Opening, Rolled, NoMove, Played, ChooseDoubleNow, ChoseDouble, RollAgain,
    Turn, Doubled, Took, Beavered, Dropped, Resigned, ResignationAccepted, ResignationRejected,
    TimedOut, GameOver, NewGameStarted, Score, MatchOver, GameStart,
)}


def _key(f: Any) -> str:
    """The ``data`` key of a payload field: its name, or the wire name where the name would
    shadow the class's ``kind`` (a resignation's and a result's ``"kind"``)."""
    return str(f.metadata.get("key", f.name))


#: Per kind: the ``data`` keys its payload requires, and all those it allows.
_KEYS: dict[EventKind, tuple[frozenset[str], frozenset[str]]] = {
    kind: (frozenset(_key(f) for f in fields(cls) if f.default is MISSING),
           frozenset(_key(f) for f in fields(cls)))
    for kind, cls in PAYLOADS.items()
}


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened: ``kind`` names it, ``player`` did it, ``text`` says it, ``data`` has its facts.

    ``kind`` may be given as its word; it is kept as an :class:`EventKind`.

    :raises GammonError: an unknown kind, or ``data`` that is not the kind's payload.
    """

    kind: EventKind
    player: int | None
    text: str
    data: dict[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        try:
            kind = EventKind(self.kind)
        except ValueError:
            raise GammonError(f"unknown event kind {self.kind!r}") from None
        object.__setattr__(self, "kind", kind)
        required, allowed = _KEYS[kind]
        if not required <= self.data.keys() <= allowed:
            raise GammonError(f"a {kind.value!r} event's data has the keys {sorted(allowed)}, "
                              f"not {sorted(self.data)}")

    @classmethod
    def of(cls, player: int | None, text: str, payload: Payload) -> Event:
        """The event of ``payload``'s kind, with its facts as ``data``."""
        return cls(payload.kind, player, text, _data(payload))

    @property
    def payload(self) -> Payload:
        """The facts of ``data`` as the kind's payload dataclass (match on its type)."""
        cls = PAYLOADS[self.kind]
        return cls(**{f.name: self.data[_key(f)] for f in fields(cls) if _key(f) in self.data})


def _data(payload: Payload) -> dict[str, object]:
    return {_key(f): getattr(payload, f.name) for f in fields(payload)
            if f.default is MISSING or getattr(payload, f.name) != f.default}


__all__ = [
    "PAYLOADS", "AutoDouble", "Beavered", "ChooseDoubleNow", "ChoseDouble", "Doubled", "Dropped", "Event",
    "EventKind", "GameOver", "GameStart", "MatchOver", "NewGameStarted", "NoMove", "Opening", "OpeningTie",
    "Payload", "Played", "Resigned", "ResignationAccepted", "ResignationRejected", "RollAgain", "Rolled",
    "Score", "TimedOut", "Took", "Turn",
]
