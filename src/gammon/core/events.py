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

from dataclasses import MISSING, dataclass, field, fields
from enum import StrEnum
from typing import Any, ClassVar

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


@dataclass(frozen=True, slots=True)
class Payload:
    """The facts of one kind of event.  A field with a default is left out of ``data`` at its default."""

    kind: ClassVar[EventKind]


# -- the game's events ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpeningTie(Payload):
    """Both players threw the same number at the opening: they throw again."""

    kind: ClassVar[EventKind] = EventKind.OPENING_TIE
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class AutoDouble(Payload):
    """An equal opening throw doubled the (centred) cube: its value now."""

    kind: ClassVar[EventKind] = EventKind.AUTO_DOUBLE
    cube: int


@dataclass(frozen=True, slots=True)
class Opening(Payload):
    """The opening throw (player 0's die, player 1's); ``reroll``: the starter throws both dice anew."""

    kind: ClassVar[EventKind] = EventKind.OPENING
    dice: tuple[int, int]
    reroll: bool = False


@dataclass(frozen=True, slots=True)
class Rolled(Payload):
    kind: ClassVar[EventKind] = EventKind.ROLLED
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class NoMove(Payload):
    kind: ClassVar[EventKind] = EventKind.NO_MOVE


@dataclass(frozen=True, slots=True)
class Played(Payload):
    """The play in notation ("" for no play)."""

    kind: ClassVar[EventKind] = EventKind.PLAYED
    play: str


@dataclass(frozen=True, slots=True)
class ChooseDoubleNow(Payload):
    """Acey-Deucey: the player played the 1-2 and now names a double."""

    kind: ClassVar[EventKind] = EventKind.CHOOSE_DOUBLE


@dataclass(frozen=True, slots=True)
class ChoseDouble(Payload):
    """Acey-Deucey: the double the player named."""

    kind: ClassVar[EventKind] = EventKind.CHOSE_DOUBLE
    number: int


@dataclass(frozen=True, slots=True)
class RollAgain(Payload):
    kind: ClassVar[EventKind] = EventKind.ROLL_AGAIN


@dataclass(frozen=True, slots=True)
class Turn(Payload):
    kind: ClassVar[EventKind] = EventKind.TURN


@dataclass(frozen=True, slots=True)
class Doubled(Payload):
    """The cube's value if the double is taken."""

    kind: ClassVar[EventKind] = EventKind.DOUBLED
    cube: int


@dataclass(frozen=True, slots=True)
class Took(Payload):
    """The cube's value now."""

    kind: ClassVar[EventKind] = EventKind.TOOK
    cube: int


@dataclass(frozen=True, slots=True)
class Beavered(Payload):
    """The cube's value if the doubler takes the beaver."""

    kind: ClassVar[EventKind] = EventKind.BEAVERED
    cube: int


@dataclass(frozen=True, slots=True)
class Dropped(Payload):
    kind: ClassVar[EventKind] = EventKind.DROPPED


@dataclass(frozen=True, slots=True)
class Resigned(Payload):
    """The resignation offered: "single", "gammon" or "backgammon"."""

    kind: ClassVar[EventKind] = EventKind.RESIGNED
    resign: str = field(metadata={"key": "kind"})


@dataclass(frozen=True, slots=True)
class ResignationAccepted(Payload):
    kind: ClassVar[EventKind] = EventKind.RESIGNATION_ACCEPTED


@dataclass(frozen=True, slots=True)
class ResignationRejected(Payload):
    kind: ClassVar[EventKind] = EventKind.RESIGNATION_REJECTED


@dataclass(frozen=True, slots=True)
class TimedOut(Payload):
    kind: ClassVar[EventKind] = EventKind.TIMEOUT


@dataclass(frozen=True, slots=True)
class GameOver(Payload):
    """The points won and how ("single", "gammon", "backgammon"); ``timeout``: lost on time."""

    kind: ClassVar[EventKind] = EventKind.GAME_OVER
    points: int
    result: str = field(metadata={"key": "kind"})
    timeout: bool = False


# -- the match's events -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NewGameStarted(Payload):
    """The number of the game that starts (1 is the first) and whether it is the Crawford game."""

    kind: ClassVar[EventKind] = EventKind.NEW_GAME
    game: int
    crawford: bool


@dataclass(frozen=True, slots=True)
class Score(Payload):
    """The match score (player 0, player 1) after a game."""

    kind: ClassVar[EventKind] = EventKind.SCORE
    score: tuple[int, int]


@dataclass(frozen=True, slots=True)
class MatchOver(Payload):
    kind: ClassVar[EventKind] = EventKind.MATCH_OVER


@dataclass(frozen=True, slots=True)
class GameStart(Payload):
    """The match driver's announcement of a game: its number, the score before it, Crawford."""

    kind: ClassVar[EventKind] = EventKind.GAME_START
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
