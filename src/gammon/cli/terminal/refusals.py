"""A typed play (or manual dice) the rules refuse, said in the current language.

Core's notation parser explains a refused play in English, in detail
(:func:`gammon.core.notation.parse_play`).  In English the terminal shows that
message as it is; in another language it says what the play's error class
means, the rule the play broke (:func:`~gammon.cli.terminal.commands.why_not`,
already translated) and the closest legal plays from core's message (plays are
notation, the same in every language).
"""

from __future__ import annotations

import re

from gammon.core.errors import (
    AmbiguousPlayError,
    GammonError,
    IllegalPlayError,
    InvalidDiceError,
    PlaySyntaxError,
)
from gammon.i18n import DEFAULT, _, current_language
from gammon.i18n.errors import error_text

_CLOSEST = "; closest legal plays: "
_FITS = re.compile(r"fits \d+ legal plays[^:]*: (?P<plays>.*?); write the play in full")


def play_refusal(exc: GammonError, text: str, reason: str | None, english: str) -> str:
    """The line shown for ``text`` refused with ``exc``: ``english`` (core's message with ``reason``
    worked in) in English, else the same facts in the current language."""
    if current_language() == DEFAULT:
        return english
    message = str(exc)
    if isinstance(exc, PlaySyntaxError):
        offset = getattr(exc, "offset", None)
        if offset is None:
            return _("cannot read the play {play}").format(play=repr(text))
        return _("cannot read the play {play}: look at character {at}").format(play=repr(text), at=offset + 1)
    if isinstance(exc, AmbiguousPlayError):
        found = _FITS.search(message)
        plays = found.group("plays") if found else ""
        return _("{play} fits more than one legal play ({plays}): write it in full, with '*' for hits").format(
            play=repr(text), plays=plays)
    if isinstance(exc, IllegalPlayError):
        line = _("{play} is not a legal play for this roll").format(play=repr(text))
        if reason:
            line += f": {reason}"
        if _CLOSEST in message:
            line += _("; closest legal plays: {plays}").format(plays=message.partition(_CLOSEST)[2])
        return line
    return error_text(exc)


def dice_refusal(exc: GammonError, text: str) -> str:
    """The line shown when the dice typed at a ``[dice]`` prompt (manual dice) are refused."""
    if current_language() == DEFAULT or not isinstance(exc, InvalidDiceError):
        return error_text(exc)
    return _("cannot read dice from {text}: write the two numbers thrown, from 1 to 6, like 31 or 3-1").format(
        text=repr(text))


__all__ = ["dice_refusal", "play_refusal"]
