"""What a client asks of the game service: a new game (:class:`GameSetup`) and an action (:class:`Command`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gammon.core.rules import Rules
from gammon.web.computer import DEFAULT_LEVEL

_RULES = Rules()

#: The kinds of action a client may send.
COMMAND_TYPES: tuple[str, ...] = (
    "roll", "play", "double", "take", "drop", "beaver", "resign", "accept", "reject", "choose-double",
)


@dataclass(frozen=True, slots=True)
class GameSetup:
    """What a new game is: opponent, rules, the creator's seat and names."""

    opponent: str = "computer"  # "computer" or "human"
    variant: str = "standard"
    match_length: int = 0
    games: int | None = None  # money play: games in the session (default 1)
    # The settings' defaults are core's (Rules), not written again here.
    crawford: bool = _RULES.crawford
    jacoby: bool = _RULES.jacoby
    beavers: bool = _RULES.beavers
    automatic_doubles: int = _RULES.automatic_doubles
    cube_limit: int = _RULES.cube_limit
    gammons: bool = _RULES.gammons
    cube: bool = _RULES.cube
    opening: str | None = None  # "use-opening-dice" or "reroll"; None: the variant's usual
    computer_level: str = DEFAULT_LEVEL
    seat: int = 0
    name: str = "Player 1"
    opponent_name: str | None = None
    test_seed: bytes | None = None
    #: Between people: whether both may ask the engine for hints during play (against the computer,
    #: always).  Stored with the game and shown to both players from the start.
    hints: bool = False
    #: Between people: list the game in the lobby, where anyone may take the guest's seat.
    public: bool = False
    #: The finished game this one is the rematch of (set by :meth:`GameService.rematch`).
    rematch_of: str | None = None
    #: A clock: seconds free per move, and each player's reserve for the match (0: no clock).
    clock_delay: float = 0.0
    clock_reserve: float = 0.0
    #: How the committed seed gives the rolls: ``"dice"`` (thrown) or ``"cards"`` (core's DRAWS).
    dice: str = "dice"


@dataclass(frozen=True, slots=True)
class Command:
    """An action a seat asks for.  ``play`` is notation or a list of ``(from, to)`` checker moves."""

    type: str
    play: str | Sequence[Sequence[int]] | None = None
    kind: str = "single"
    number: int | None = None


__all__ = ["COMMAND_TYPES", "Command", "GameSetup"]
