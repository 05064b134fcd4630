"""The browser page's words: taken from the same catalogs as the terminal's, written out as JSON.

The page's JavaScript marks what a person reads with ``t('...')`` (a constant shown later with
``N_('...')``, a sentence with a number as ``tn('singular', 'plural', n)``) in modules that
import ``./i18n.js``; :func:`page_messages` finds those messages with Babel's JavaScript
extractor, they go into the one template with the Python messages (so every ``.po`` must
translate them), and :func:`write_page_catalogs` writes
``web/static/i18n/<lang>.json`` for each translated language: the page's messages and
their translations, nothing hand-copied.  ``scripts/i18n_catalogs.py`` writes them with
the ``.mo`` files; :func:`stale_page_catalogs` is what ``--check`` and the tests ask.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file

from gammon.i18n.catalogs import SOURCE, TRANSLATED, read_catalog

#: The page's modules and where its generated catalogs go.
SCRIPTS = SOURCE / "web" / "static" / "js"
PAGE_CATALOGS = SOURCE / "web" / "static" / "i18n"
_KEYWORDS: dict[str, tuple[int, ...] | None] = {"t": None, "N_": None, "tn": (1, 2)}
#: A page message: its text, or its singular and plural.
PageMessage = str | tuple[str, str]


def page_files() -> Iterator[Path]:
    """The page's modules whose messages are read: those that import ``./i18n.js``."""
    for path in sorted(SCRIPTS.glob("*.js")):
        if "from './i18n.js'" in path.read_text(encoding="utf-8"):
            yield path


def page_messages() -> Iterator[tuple[PageMessage, str, int]]:
    """Each ``t('...')`` (or ``tn('...', '...', n)``) message of the page: (message, file relative
    to ``src``, line)."""
    for path in page_files():
        relative = f"gammon/web/static/js/{path.name}"
        found = extract_from_file("javascript", str(path), keywords=_KEYWORDS)
        for lineno, message, _comments, _context in found:
            if isinstance(message, str) and message:
                yield message, relative, lineno
            elif isinstance(message, tuple) and len(message) == 2 and all(message):
                yield (str(message[0]), str(message[1])), relative, lineno


def add_page_messages(template: Catalog) -> None:
    """Put the page's messages into ``template`` (the catalogs' one template)."""
    for message, relative, lineno in page_messages():
        template.add(message, None, [(relative, lineno)])


def page_catalog(language: str, catalog: Catalog | None = None) -> bytes:
    """``language``'s JSON for the page: each page message and its translation, a plural message
    under its singular with the language's forms in gettext's order (missing or fuzzy ones left
    out: the page then shows the English, and the catalog test reports the gap)."""
    catalog = catalog if catalog is not None else read_catalog(language)
    messages: dict[str, str | list[str]] = {}
    for message, _relative, _lineno in page_messages():
        found = catalog.get(message)
        if found is None or found.fuzzy:
            continue
        if isinstance(message, tuple):
            forms = list(found.string) if isinstance(found.string, tuple | list) else []
            if forms and all(forms):
                messages[message[0]] = forms
        elif isinstance(found.string, str) and found.string:
            messages[message] = found.string
    data = {"language": language, "messages": dict(sorted(messages.items()))}
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def page_catalog_path(language: str) -> Path:
    return PAGE_CATALOGS / f"{language}.json"


def write_page_catalogs() -> list[Path]:
    """Write every translated language's page JSON; the paths written."""
    PAGE_CATALOGS.mkdir(parents=True, exist_ok=True)
    written = []
    for language in TRANSLATED:
        path = page_catalog_path(language)
        path.write_bytes(page_catalog(language))
        written.append(path)
    return written


def stale_page_catalogs() -> list[str]:
    """The languages whose committed page JSON is not what the catalogs give today."""
    stale = []
    for language in TRANSLATED:
        path = page_catalog_path(language)
        if not path.exists() or path.read_bytes() != page_catalog(language):
            stale.append(language)
    return stale


__all__ = ["PAGE_CATALOGS", "PageMessage", "add_page_messages", "page_catalog", "page_catalog_path",
           "page_files", "page_messages", "stale_page_catalogs", "write_page_catalogs"]
