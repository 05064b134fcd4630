"""Player names as the server keeps them: one normal form and one length limit everywhere.

A name is shown to the other player, to spectators and in exported records
(``.mat``, SGF, JSON), so it is cleaned before it is stored:

* Unicode NFC, so that one name is one string;
* control characters (C0/C1, line breaks, tabs: the latter two become spaces),
  format characters (Unicode category Cf: the bidirectional overrides and
  isolates U+202A-U+202E and U+2066-U+2069 that can make a name display as
  something else, zero-width characters, soft hyphens), surrogates, private-use
  and unassigned code points are removed;
* runs of white space become one space, and the ends are trimmed;
* at most :data:`NAME_MAX_LENGTH` characters (the API refuses longer ones; the
  browser's fields hold no more).  The ``.mat`` writer puts the first name in a
  31-column field followed by `` : <score>``: 24 characters leave room for a
  three-digit score and a space, which GNU Backgammon's and gammon's readers
  need (a test round-trips the longest name through both).
"""

from __future__ import annotations

import unicodedata

#: The most characters a player name may have, everywhere (API, pages, records).
NAME_MAX_LENGTH = 24

_DROP = frozenset(("Cc", "Cf", "Cs", "Co", "Cn"))


def normalize_name(raw: object, default: str) -> str:
    """``raw`` as a stored name: cleaned, at most :data:`NAME_MAX_LENGTH` characters; ``default`` when
    nothing is left.

    >>> normalize_name("  Ann\\u202e\\u2066 \\t Lee ", "Player")
    'Ann Lee'
    >>> normalize_name("\\u200b", "Guest")
    'Guest'
    """
    cleaned = " ".join(visible_text(str(raw or "")).split())[:NAME_MAX_LENGTH].strip()
    return cleaned or default


def visible_text(text: str) -> str:
    """``text`` in NFC with white space as plain spaces and the hidden characters of the module's
    docstring (control, format/bidi, surrogate, private-use, unassigned) removed; nothing trimmed.
    Names and chat messages (:mod:`gammon.web.chat_text`) are cleaned by this one rule.

    >>> visible_text("a\\u202eb\\tc\\u200b")
    'ab c'
    """
    return "".join(" " if ch.isspace() else ch for ch in unicodedata.normalize("NFC", text)
                   if ch.isspace() or unicodedata.category(ch) not in _DROP)


__all__ = ["NAME_MAX_LENGTH", "normalize_name", "visible_text"]
