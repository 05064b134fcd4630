"""What a chat message may say: plain text, cleaned by the name rules, within one length limit.

A message is stored and sent as plain text and never as markup: the page inserts it with
``textContent``, so ``<script>`` or ``<img onerror=...>`` in a message shows as those characters and
runs nothing.  Before it is stored a message is cleaned as names are
(:func:`gammon.web.names.visible_text`: NFC, line breaks and tabs become spaces, control,
format and bidirectional characters removed, so a message cannot reorder the text shown around
it), then trimmed; what is left must hold 1 to :data:`CHAT_MAX_LENGTH` characters, or it is
refused (never cut silently: the sender sees why).
"""

from __future__ import annotations

from gammon.web.names import visible_text
from gammon.web.service.errors import InvalidError

#: The most characters a message may hold, after cleaning.
CHAT_MAX_LENGTH = 500
#: The most characters a client may send for one message, before cleaning (a cheap first check).
CHAT_MAX_RAW = 4 * CHAT_MAX_LENGTH


def clean_message(raw: object) -> str:
    """``raw`` as a message to store.

    :raises InvalidError: not a string (``invalid_request``), nothing visible (``chat_empty``), or
        over :data:`CHAT_MAX_LENGTH` characters (``chat_too_long``).

    >>> clean_message("  hi \\u202e<b>there</b>\\n")
    'hi <b>there</b>'
    """
    if not isinstance(raw, str):
        raise InvalidError("a chat message is {'type': 'chat', 'text': '<your message>'}")
    if len(raw) > CHAT_MAX_RAW:
        raise InvalidError(f"a chat message holds at most {CHAT_MAX_LENGTH} characters", "chat_too_long")
    text = visible_text(raw).strip()
    if not text:
        raise InvalidError("the message is empty", "chat_empty")
    if len(text) > CHAT_MAX_LENGTH:
        raise InvalidError(f"a chat message holds at most {CHAT_MAX_LENGTH} characters (this one has "
                           f"{len(text)})", "chat_too_long")
    return text


__all__ = ["CHAT_MAX_LENGTH", "CHAT_MAX_RAW", "clean_message"]
