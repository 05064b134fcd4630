"""The languages gammon speaks: English (the source), Norwegian bokmål, Swedish, Danish and Polish.

One set of gettext catalogs serves every place a person reads (the terminal now;
the reports and the page can take the same): ``locale/<lang>/LC_MESSAGES/gammon.po``,
written by people and managed with Babel (``scripts/i18n_catalogs.py``), and the
``gammon.mo`` compiled from each, committed beside it so that a fresh clone and
``pip install -e .`` need no build step (``tests/test_i18n38_catalogs.py`` fails when a
``.mo`` no longer matches its ``.po``, when a message is missing, or when a
translation's placeholders differ from the English).

The language in use is a context variable (:func:`set_language`, :func:`use_language`),
English by default, so a test or a library caller sees English unless it asks; the
terminal sets it once from ``--lang`` or the locale (:func:`choose_language`), a web
request from its ``Accept-Language`` (:func:`from_accept_language`).  Messages are
looked up with :func:`_` and :func:`ngettext` (plural forms per language) and use
named ``{fields}``; :func:`N_` marks a constant for extraction without translating it.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import resources

#: The languages with catalogs, English (the source language) first.
LANGUAGES: tuple[str, ...] = ("en", "nb", "sv", "da", "pl")
#: The language used when nothing else is asked for, or what is asked for is not known.
DEFAULT = "en"
#: Each language's name in itself, for a picker.
NAMES: dict[str, str] = {"en": "English", "nb": "Norsk bokmål", "sv": "Svenska", "da": "Dansk", "pl": "Polski"}
#: The gettext domain: the catalogs' file name.
DOMAIN = "gammon"

#: Tags read as one of :data:`LANGUAGES` although spelt otherwise (Norwegian without a
#: written standard, and nynorsk, whose readers read bokmål, are given bokmål).
_ALIASES: dict[str, str] = {"no": "nb", "nn": "nb", "nob": "nb", "swe": "sv", "dan": "da", "pol": "pl",
                            "eng": "en"}
#: Longest Accept-Language header read, and most entries taken from it (hostile input).
_MAX_HEADER = 4096
_MAX_ENTRIES = 32

_current: ContextVar[str] = ContextVar("gammon_language", default=DEFAULT)


def normalize(tag: str | None) -> str | None:
    """The language of ``tag`` (``pl_PL.UTF-8``, ``nb-NO``, ``sv``), or None when it is none of ours.

    >>> normalize("pl_PL.UTF-8"), normalize("nb-NO"), normalize("C"), normalize("de_DE")
    ('pl', 'nb', None, None)
    """
    if not tag:
        return None
    base = tag.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    base = _ALIASES.get(base, base)
    return base if base in LANGUAGES else None


def from_environment(environ: Mapping[str, str]) -> str:
    """The language the POSIX locale variables name: the first of ``LC_ALL``, ``LC_MESSAGES``
    and ``LANG`` that is set decides (as for every program); English when it is ``C``, unknown
    or none is set."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable, "")
        if value:
            return normalize(value) or DEFAULT
    return DEFAULT


def choose_language(option: str | None, environ: Mapping[str, str]) -> str:
    """The terminal's language: ``option`` (``--lang``) when given, else the locale's.

    An unknown language is English, with no error: the game is still playable."""
    if option:
        return normalize(option) or DEFAULT
    return from_environment(environ)


def from_accept_language(header: str | None) -> str:
    """The best of :data:`LANGUAGES` for an HTTP ``Accept-Language`` header (English when none fits).

    Entries are taken in order of their quality (``q=``), the order written breaking ties;
    a malformed entry is skipped, and a header longer than 4 KiB is read only so far.

    >>> from_accept_language("de-DE,de;q=0.9,pl;q=0.8,en;q=0.7")
    'pl'
    """
    if not header:
        return DEFAULT
    ranked: list[tuple[float, int, str]] = []
    for i, entry in enumerate(header[:_MAX_HEADER].split(",")[:_MAX_ENTRIES]):
        tag, _sep, params = entry.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = -1.0
        if not 0 < quality <= 1:
            continue
        language = normalize(tag)
        if language is not None:
            ranked.append((-quality, i, language))
    return min(ranked)[2] if ranked else DEFAULT


@cache
def translations(language: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``language`` (English, and any language without one: the source text)."""
    if language == DEFAULT or language not in LANGUAGES:
        return _gettext.NullTranslations()
    path = resources.files(__package__).joinpath("locale", language, "LC_MESSAGES", f"{DOMAIN}.mo")
    with path.open("rb") as fp:
        return _gettext.GNUTranslations(fp)


def current_language() -> str:
    """The language messages are given in now."""
    return _current.get()


def set_language(language: str | None) -> str:
    """Give messages in ``language`` from now on (in this context); unknown: English. Returns it."""
    chosen = normalize(language) or DEFAULT
    _current.set(chosen)
    return chosen


@contextmanager
def use_language(language: str | None) -> Iterator[str]:
    """Messages in ``language`` inside the ``with`` block, as before after it."""
    token = _current.set(normalize(language) or DEFAULT)
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def _(message: str) -> str:
    """``message`` in the current language (the English itself when no translation is known)."""
    return translations(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for the number ``n`` in the current language's plural rules."""
    return translations(_current.get()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it (it is translated where it is shown)."""
    return message


__all__ = [
    "DEFAULT", "DOMAIN", "LANGUAGES", "NAMES", "N_", "_", "choose_language", "current_language",
    "from_accept_language", "from_environment", "ngettext", "normalize", "set_language", "translations",
    "use_language",
]
