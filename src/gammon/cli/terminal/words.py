"""The terminal game's words that change with a number or a person, in the current language.

Counts go through the catalogs' plural forms (Polish has three: ``1 pionek``,
``2 pionki``, ``5 pionków``); "you" is the default name of the person's seat in the
language in use (``You``, ``Du``, ``Ty``), recognised in English spelling too; the
dice's own description (core's, in English) is said in the current language.
"""

from __future__ import annotations

import re

from gammon.core.dice import DiceSource
from gammon.core.position import ResultKind
from gammon.i18n import N_, _, ngettext


def checkers(n: int) -> str:
    """``1 checker``, ``2 checkers``."""
    return ngettext("{n} checker", "{n} checkers", n).format(n=n)


def points(n: int) -> str:
    """``1 point``, ``2 points``."""
    return ngettext("{n} point", "{n} points", n).format(n=n)


def games(n: int) -> str:
    """``1 game``, ``2 games``."""
    return ngettext("{n} game", "{n} games", n).format(n=n)


def automatic_doubles(n: int) -> str:
    """``1 automatic double``, ``2 automatic doubles``."""
    return ngettext("{n} automatic double", "{n} automatic doubles", n).format(n=n)


def default_names(against_computer: bool) -> tuple[str, str]:
    """The seats' names when none are given: (You, Computer) or (Player 1, Player 2)."""
    if against_computer:
        return _("You"), _("Computer")
    return _("Player 1"), _("Player 2")


def is_you(name: str) -> bool:
    """Whether ``name`` is the person's default name, "you" (in English or the language in use)."""
    return name.lower() in ("you", _("You").lower())


_KINDS: dict[ResultKind, str] = {
    ResultKind.SINGLE: N_("a single game"),
    ResultKind.GAMMON: N_("a gammon"),
    ResultKind.BACKGAMMON: N_("a backgammon"),
}


def kind_words(kind: ResultKind) -> str:
    """``a single game``, ``a gammon``, ``a backgammon``."""
    return _(_KINDS[kind])


#: Core's descriptions of its dice (English), and the message each is said with.
_DICE: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"random dice \(seed (?P<seed>\d+)\)"), N_("random dice (seed {seed})")),
    (re.compile(r"two piles of cards \(seed (?P<seed>\d+)\)"), N_("two piles of cards (seed {seed})")),
    (re.compile(r"manual dice"), N_("manual dice")),
    (re.compile(r"crypto dice \(commitment (?P<commitment>[0-9a-f]+)\.\.\.\)"),
     N_("crypto dice (commitment {commitment}...)")),
    (re.compile(r"scripted dice \((?P<left>\d+) left\)"), N_("scripted dice ({left} left)")),
)


def dice_words(dice: DiceSource) -> str:
    """What ``dice`` are, in the current language (as core says it when it is a kind not known here)."""
    text = dice.describe()
    for pattern, message in _DICE:
        found = pattern.fullmatch(text)
        if found:
            return _(message).format(**found.groupdict())
    return text



def plays(n: int) -> str:
    """``1 play``, ``2 plays``."""
    return ngettext("{n} play", "{n} plays", n).format(n=n)


def whose(name: str) -> str:
    """Whose roll or die it is, as a prompt says it: ``your``, ``Ann's``."""
    return _("your") if is_you(name) else _("{name}'s").format(name=name)


#: The answers read as yes and as no in English, at every prompt whatever the language.
_YES = ("y", "yes")
_NO = ("n", "no")


def answer_word(word: str) -> str | None:
    """``accept`` for a yes (``y``, ``yes``, or the language's ``t``/``tak``, ``j``/``ja``), ``reject``
    for a no, None for any other word."""
    word = word.lower()
    if word in _YES or word in (_("y"), _("yes")):
        return "accept"
    if word in _NO or word in (_("n"), _("no")):
        return "reject"
    return None


__all__ = ["answer_word", "automatic_doubles", "checkers", "default_names", "dice_words", "games", "is_you",
           "kind_words", "plays", "points", "whose"]
