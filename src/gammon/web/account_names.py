"""Account names: the name rules of :mod:`gammon.web.names`, checked strictly, and the keys that
keep look-alike names apart.

A guest's name is cleaned silently (:func:`gammon.web.names.normalize_name`); an
account's name is *refused* when cleaning would change it, because it is the
player's identity: what they typed is what everybody sees.  So an account name
is NFC, holds no control, format (bidi overrides, zero-width), private-use or
unassigned characters, no ``/`` (it is a path segment of ``/api/players/{name}``),
no runs of spaces or spaces at its ends, and 2 to :data:`NAME_MAX_LENGTH` characters,
at least one of them a letter or a digit.

Two keys decide whether a name is free (both are unique in the database):

* :func:`name_key`: the Unicode TR39 *skeleton* of the case-folded name, so
  "Ann", "ANN" and "Αnn" (Greek capital Alpha) share one key;
* :func:`name_skeleton`: the skeleton of the name as typed, case-folded after,
  so "Ian" and "lan" (TR39 maps capital I to l) share one too.

The skeletons are ICU's (``SpoofChecker.getSkeleton`` from PyICU): ICU ships and
updates Unicode's confusables data, which gammon does not keep a copy of.
"""

from __future__ import annotations

import unicodedata

import icu

from gammon.web.names import NAME_MAX_LENGTH, normalize_name
from gammon.web.service.errors import InvalidError

#: The fewest characters an account name may have.
NAME_MIN_LENGTH = 2

#: Names nobody may take: what deleted players, the computer and guests are called.
RESERVED_NAMES = ("deleted player", "computer", "guest", "player")

_checker = icu.SpoofChecker()


def _skeleton(text: str) -> str:
    return str(_checker.getSkeleton(0, text))


def name_key(name: str) -> str:
    """The key under which ``name`` is unique: the TR39 skeleton of its case-folded NFC form."""
    folded = unicodedata.normalize("NFC", name).casefold()
    return unicodedata.normalize("NFC", _skeleton(folded))


def name_skeleton(name: str) -> str:
    """The second unique key: the skeleton of ``name`` as typed, case-folded after."""
    return unicodedata.normalize("NFC", _skeleton(unicodedata.normalize("NFC", name)).casefold())


def name_keys(name: str) -> tuple[str, str]:
    return name_key(name), name_skeleton(name)


_RESERVED = frozenset(k for n in RESERVED_NAMES for k in name_keys(n))


def check_account_name(raw: object) -> str:
    """``raw`` as an account name, or :class:`InvalidError` saying which rule it breaks.

    >>> check_account_name("Ann Lee")
    'Ann Lee'
    """
    if not isinstance(raw, str):
        raise InvalidError("the name must be text")
    text = unicodedata.normalize("NFC", raw)
    if len(text) > NAME_MAX_LENGTH:
        raise InvalidError(f"a name has at most {NAME_MAX_LENGTH} characters")
    cleaned = normalize_name(text, "")
    if cleaned != text:
        raise InvalidError("a name may not hold control or invisible characters, tabs, line breaks, "
                           "runs of spaces or spaces at its ends")
    if len(cleaned) < NAME_MIN_LENGTH or not any(ch.isalnum() for ch in cleaned):
        raise InvalidError(f"a name has at least {NAME_MIN_LENGTH} characters, one of them a letter or digit")
    if "/" in cleaned:
        raise InvalidError("a name may not hold '/'")
    if set(name_keys(cleaned)) & _RESERVED:
        raise InvalidError("that name is reserved")
    return cleaned


__all__ = ["NAME_MIN_LENGTH", "RESERVED_NAMES", "check_account_name", "name_key", "name_keys", "name_skeleton"]
