"""Building the catalogs (Babel): the template from the source, the ``.po`` files kept up to
date with it, and the ``.mo`` files compiled from them; and the checks the tests make.

Only modules that import :mod:`gammon.i18n` are read for messages (``_``, ``N_``, ``Nn_``,
``ngettext``), so a ``_`` that means "unused" elsewhere is never taken for one.  A
message is a ``str.format`` template with named fields (``{name}``); a translation
must use exactly the English fields (:func:`placeholder_problems`).
"""

from __future__ import annotations

import io
import string
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from gammon.i18n import DOMAIN, LANGUAGES

#: The package's source folder (``src/gammon``) and the catalogs' folder.
SOURCE = Path(__file__).resolve().parent.parent
LOCALE = Path(__file__).resolve().parent / "locale"
#: The translated languages (English is the source text).
TRANSLATED: tuple[str, ...] = tuple(lang for lang in LANGUAGES if lang != "en")
_KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "Nn_": (1, 2)}


def source_files() -> Iterator[Path]:
    """The modules whose messages go into the catalogs: those that import gammon.i18n."""
    for path in sorted(SOURCE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "from gammon.i18n import" in text:
            yield path


def extract() -> Catalog:
    """The template catalog: every message of :func:`source_files` and of the page's scripts
    (:mod:`gammon.i18n.page`), with where it is used."""
    template = Catalog(project="gammon", charset="utf-8", fuzzy=False)
    for path in source_files():
        relative = path.relative_to(SOURCE.parent).as_posix()
        for lineno, message, comments, context in extract_from_file(
            "python", str(path), keywords=_KEYWORDS, comment_tags=("TRANSLATORS:",)
        ):
            template.add(message, None, [(relative, lineno)], auto_comments=comments, context=context)
    from gammon.i18n.page import add_page_messages  # the page's t('...') messages (it imports this module)

    add_page_messages(template)
    return template


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.mo"


def read_catalog(language: str) -> Catalog:
    with po_path(language).open("rb") as fp:
        return read_po(fp, locale=language, domain=DOMAIN)


def compiled(catalog: Catalog) -> bytes:
    """The ``.mo`` bytes of ``catalog`` (fuzzy entries left out, as gettext does)."""
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def _po_bytes(catalog: Catalog) -> bytes:
    """``catalog`` as a ``.po``/``.pot`` file: files named without line numbers, so moving code
    about changes no catalog."""
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=False, include_lineno=False)
    return out.getvalue()


def _dates_left_out(data: bytes) -> list[bytes]:
    dated = (b'"POT-Creation-Date', b'"PO-Revision-Date')
    return [line for line in data.splitlines() if not line.startswith(dated)]


def _write_if_changed(path: Path, data: bytes) -> None:
    """Write ``data`` unless the file says the same but for its dates (no churn from a rerun)."""
    if path.exists() and _dates_left_out(path.read_bytes()) == _dates_left_out(data):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _set_header(catalog: Catalog) -> None:
    catalog.project = "gammon"
    catalog.version = "0.1"
    catalog.msgid_bugs_address = ""
    catalog.last_translator = "gammon project"
    catalog.language_team = "gammon project"
    catalog.fuzzy = False


def _mo_contents(data: bytes) -> tuple[dict[object, str], str | None]:
    """What a ``.mo`` gives gettext: its messages (the header left out: it names the Babel version
    that wrote it) and its plural rules."""
    import gettext

    loaded = gettext.GNUTranslations(io.BytesIO(data))
    messages = {key: text for key, text in loaded._catalog.items() if key != ""}  # type: ignore[attr-defined]
    return messages, loaded.info().get("plural-forms")


def is_stale(language: str) -> bool:
    """Whether ``language``'s committed ``.mo`` gives other messages or plural rules than its ``.po``."""
    path = mo_path(language)
    if not path.exists():
        return True
    return _mo_contents(path.read_bytes()) != _mo_contents(compiled(read_catalog(language)))


def write_template(template: Catalog) -> Path:
    path = LOCALE / f"{DOMAIN}.pot"
    _set_header(template)
    _write_if_changed(path, _po_bytes(template))
    return path


def update(language: str, template: Catalog) -> Catalog:
    """``language``'s catalog brought up to the template (new messages empty, gone ones obsolete)."""
    path = po_path(language)
    if path.exists():
        catalog = read_catalog(language)
    else:
        catalog = Catalog(locale=language, domain=DOMAIN, project="gammon", charset="utf-8")
    catalog.update(template, no_fuzzy_matching=True)
    _set_header(catalog)
    _write_if_changed(path, _po_bytes(catalog))
    return catalog


def fields(text: str) -> set[str]:
    """The named fields of a ``str.format`` template (``{name}``, ``{cube}``)."""
    found = set()
    for _literal, field, _spec, _conversion in string.Formatter().parse(text):
        if field is not None:
            found.add(field)
    return found


def _ids(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, tuple | list) else (message.id,)


def _strings(message: Message) -> tuple[str, ...]:
    return tuple(message.string) if isinstance(message.string, tuple | list) else (message.string or "",)


def missing(catalog: Catalog, template: Catalog) -> list[str]:
    """The template's messages that ``catalog`` lacks, leaves empty, or marks fuzzy."""
    problems = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id, context=message.context)
        if found is None or found.fuzzy or not all(_strings(found)):
            problems.append(_ids(message)[0])
        elif isinstance(message.id, tuple | list) and len(_strings(found)) != catalog.num_plurals:
            count = len(_strings(found))
            problems.append(f"{_ids(message)[0]} (plural forms: {count}, not {catalog.num_plurals})")
    return problems


def placeholder_problems(catalog: Catalog) -> list[str]:
    """Translations whose named fields differ from the English message's (or that are no template)."""
    problems = []
    for message in catalog:
        if not message.id or not all(_strings(message)):
            continue
        english = set().union(*(fields(text) for text in _ids(message)))
        for text in _strings(message):
            try:
                theirs = fields(text)
            except ValueError as exc:
                problems.append(f"{_ids(message)[0]!r}: {text!r} is no template ({exc})")
                continue
            # A singular may leave out {n} ("one checker"), never bring in a field of its own.
            if theirs - english or (english - theirs) - {"n"}:
                problems.append(f"{_ids(message)[0]!r}: {text!r} has {sorted(theirs)}, "
                                f"English {sorted(english)}")
    return problems


__all__ = [
    "LOCALE", "SOURCE", "TRANSLATED", "compiled", "extract", "fields", "is_stale", "missing", "mo_path",
    "placeholder_problems", "po_path", "read_catalog", "source_files", "update", "write_template",
]
