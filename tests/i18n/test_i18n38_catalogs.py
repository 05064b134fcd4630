"""The translation catalogs: complete, faithful to the English placeholders, and compiled.

Every message the source marks (``_``, ``N_``, ``ngettext`` in modules that import
:mod:`gammon.i18n`) must be translated in every language, with exactly the English
named fields (``{name}``, ``{cube}``) and as many plural forms as the language has;
and the committed ``.mo`` files must be what the ``.po`` files compile to today.
Each of these tests fails on a catalog spoilt the way a hurried edit spoils it (the
last tests spoil a copy on purpose and check that the checks see it).
"""

from __future__ import annotations

import gettext
import io
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from gammon.cli.terminal.commands import HELP
from gammon.i18n import LANGUAGES, translations
from gammon.i18n.catalogs import (
    TRANSLATED,
    compiled,
    extract,
    fields,
    is_stale,
    missing,
    mo_path,
    placeholder_problems,
    read_catalog,
    source_files,
)


@pytest.fixture(scope="module")
def template() -> Catalog:
    return extract()


def test_the_five_languages() -> None:
    assert LANGUAGES == ("en", "nb", "sv", "da", "pl")
    assert TRANSLATED == ("nb", "sv", "da", "pl")


def test_the_terminal_game_is_read_for_messages(template: Catalog) -> None:
    names = {p.as_posix().split("src/gammon/")[-1] for p in source_files()}
    for module in ("cli/board.py", "cli/terminal/prompts.py", "cli/terminal/narration.py",
                   "cli/terminal/commands.py", "cli/terminal/saving.py", "cli/terminal/hints.py"):
        assert module in names
    assert template.get(HELP) is not None
    assert template.get("[{name}] roll or double > ") is not None
    assert len(template) > 150


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_message_is_missing(template: Catalog, language: str) -> None:
    assert missing(read_catalog(language), template) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_placeholders_are_the_english_ones(language: str) -> None:
    assert placeholder_problems(read_catalog(language)) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalog_is_the_po_compiled_today(language: str) -> None:
    """The committed .mo gives the messages and plural rules the .po compiles to today."""
    assert not is_stale(language), f"{mo_path(language)} is stale: run `make catalogs`"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalog_gives_every_translation(language: str) -> None:
    """What gammon loads at run time answers each message with the .po's translation."""
    loaded = translations(language)
    for message in read_catalog(language):
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            for n in (1, 2, 5, 22):  # the plural rules come from the .mo's header
                assert loaded.ngettext(message.id[0], message.id[1], n) in message.string
        else:
            assert loaded.gettext(message.id) == message.string


def test_polish_has_three_plural_forms() -> None:
    loaded = translations("pl")
    words = [loaded.ngettext("{n} checker", "{n} checkers", n).format(n=n) for n in (1, 2, 5, 12, 22, 25)]
    assert words == ["1 pionek", "2 pionki", "5 pionków", "12 pionków", "22 pionki", "25 pionków"]


def test_help_keeps_within_80_columns() -> None:
    for language in TRANSLATED:
        for line in translations(language).gettext(HELP).splitlines():
            assert len(line) < 80, (language, line)


def test_board_words_fit_their_three_columns() -> None:
    for language in TRANSLATED:
        for word in ("BAR", "OFF"):
            assert 1 <= len(translations(language).gettext(word)) <= 3


# -- the checks themselves catch what they are for --------------------------------------------------


def _spoilt(language: str, msgid: str, text: str) -> Catalog:
    catalog = read_catalog(language)
    catalog[msgid].string = text
    return catalog


def test_a_renamed_placeholder_is_caught() -> None:
    spoilt = _spoilt("pl", "Took back {play}.", "Cofnięto {ruch}.")
    assert any("Took back" in p for p in placeholder_problems(spoilt))


def test_a_dropped_placeholder_is_caught() -> None:
    spoilt = _spoilt("sv", "{name} cannot move.", "Kan inte flytta.")
    assert any("cannot move" in p for p in placeholder_problems(spoilt))


def test_a_missing_translation_is_caught(template: Catalog) -> None:
    spoilt = _spoilt("da", "Bye.", "")
    assert missing(spoilt, template) == ["Bye."]
    spoilt = read_catalog("nb")
    del spoilt["Bye."]
    assert missing(spoilt, template) == ["Bye."]


def test_a_stale_compiled_catalog_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A .po edited without compiling: the .mo left behind is seen to be stale."""
    import gammon.i18n.catalogs as catalogs

    folder = tmp_path / "nb" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "gammon.mo").write_bytes(mo_path("nb").read_bytes())
    spoilt = _spoilt("nb", "Bye.", "Hadet.")
    buffer = io.BytesIO()
    write_po(buffer, spoilt)
    (folder / "gammon.po").write_bytes(buffer.getvalue())
    monkeypatch.setattr(catalogs, "LOCALE", tmp_path)
    assert is_stale("nb")
    (folder / "gammon.mo").write_bytes(compiled(read_catalog("nb")))
    assert not is_stale("nb")
    assert gettext.GNUTranslations(io.BytesIO(compiled(spoilt))).gettext("Bye.") == "Hadet."


def test_fields_reads_named_fields_only() -> None:
    assert fields("{name} rolls {first}-{second}{cards}.") == {"name", "first", "second", "cards"}
    assert fields("no fields {{here}}") == set()
