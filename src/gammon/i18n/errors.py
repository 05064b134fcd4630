"""Core's refusals said in the current language: the code stays, the sentence is translated.

Core raises :class:`~gammon.core.errors.IllegalActionError` with a stable
:class:`~gammon.core.errors.Reason` and an English message full of detail; an
interface that speaks another language says the reason's sentence instead
(:func:`error_text`).  In English the message is core's own, unchanged.
"""

from __future__ import annotations

from gammon.core.errors import GammonError, IllegalActionError, Reason
from gammon.i18n import DEFAULT, N_, _, current_language

#: One sentence per reason a game or match refuses an action (``BAD_VALUE``: none, core's detail
#: is all there is to say).
REASONS: dict[Reason, str] = {
    Reason.OUT_OF_TURN: N_("it is not this player's turn to act"),
    Reason.ALREADY_ROLLED: N_("the dice are rolled: play them first"),
    Reason.NOT_ROLLED: N_("the dice are not rolled yet"),
    Reason.CRAWFORD_NO_DOUBLE: N_("cannot double: no doubling in the Crawford game"),
    Reason.NOT_CUBE_OWNER: N_("cannot double: the opponent owns the cube"),
    Reason.CUBE_AT_MAX: N_("the cube is at its limit"),
    Reason.CUBE_DISABLED: N_("the cube is not used in this game"),
    Reason.NO_DOUBLE_PENDING: N_("no double is offered"),
    Reason.DOUBLE_PENDING: N_("answer the double first"),
    Reason.BEAVER_NOT_ALLOWED: N_("a beaver is not allowed here"),
    Reason.NO_RESIGN_PENDING: N_("no resignation is offered"),
    Reason.RESIGN_PENDING: N_("answer the offer to resign first"),
    Reason.ILLEGAL_PLAY: N_("that play is not legal for this roll"),
    Reason.GAME_OVER: N_("the game is over"),
    Reason.MATCH_OVER: N_("the match is over"),
    Reason.GAME_IN_PROGRESS: N_("the game is still being played"),
}


def error_text(exc: GammonError) -> str:
    """What to tell a person about ``exc``: core's message in English; in another language the
    sentence for its reason (core's message when it has none here)."""
    if current_language() != DEFAULT and isinstance(exc, IllegalActionError) and exc.reason in REASONS:
        return _(REASONS[exc.reason])
    return str(exc)


__all__ = ["REASONS", "error_text"]
