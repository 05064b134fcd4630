"""What a game waits for (:class:`Phase`), the Acey-Deucey bonus stages, and why an action the
phase does not expect is refused."""

from __future__ import annotations

from enum import Enum

from gammon.core.errors import Reason


class Phase(Enum):
    """What the game waits for."""

    OPENING = "opening"  # the opening roll: each player throws one die
    ROLL = "roll"  # the player on roll may double, then rolls
    DOUBLED = "doubled"  # the opponent must take, drop (or beaver)
    BEAVERED = "beavered"  # the doubler must take or drop the beaver
    MOVE = "move"  # the player on roll plays the dice
    CHOOSE_DOUBLE = "choose-double"  # Acey-Deucey: name a double after playing 1-2
    RESIGNED = "resigned"  # the other player must accept or reject a resignation
    OVER = "over"


#: Acey-Deucey bonus stages (``Game.bonus``): the 1-2 was rolled and is being played,
#: the player must name a double, the named double is being played.
BONUS_ONE_TWO = "one-two"
BONUS_CHOOSE = "choose"
BONUS_DOUBLE = "double"
BONUSES = (None, BONUS_ONE_TWO, BONUS_CHOOSE, BONUS_DOUBLE)

#: Why an action that the current phase does not expect is refused.
PHASE_REASON = {
    Phase.OPENING: Reason.NOT_ROLLED,
    Phase.ROLL: Reason.NOT_ROLLED,
    Phase.MOVE: Reason.ALREADY_ROLLED,
    Phase.CHOOSE_DOUBLE: Reason.ALREADY_ROLLED,
    Phase.DOUBLED: Reason.DOUBLE_PENDING,
    Phase.BEAVERED: Reason.DOUBLE_PENDING,
    Phase.RESIGNED: Reason.RESIGN_PENDING,
    Phase.OVER: Reason.GAME_OVER,
}
