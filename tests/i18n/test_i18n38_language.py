"""Choosing the language (``--lang``, the locale variables, ``Accept-Language``) and writing
numbers and plurals in it (:mod:`gammon.i18n`)."""

from __future__ import annotations

import pytest

from gammon.i18n import (
    _,
    choose_language,
    current_language,
    from_accept_language,
    from_environment,
    ngettext,
    normalize,
    set_language,
    use_language,
)
from gammon.i18n.numbers import decimal, percent


@pytest.mark.parametrize(
    ("tag", "language"),
    [("pl_PL.UTF-8", "pl"), ("nb_NO.utf8", "nb"), ("no", "nb"), ("nn_NO", "nb"), ("sv-FI", "sv"),
     ("da", "da"), ("en_GB.UTF-8", "en"), ("de_DE.UTF-8", None), ("C", None), ("POSIX", None),
     ("C.UTF-8", None), ("", None), ("sr_RS@latin", None), ("pl_PL@euro", "pl")],
)
def test_normalize(tag: str, language: str | None) -> None:
    assert normalize(tag) == language


def test_the_locale_variables_in_their_order() -> None:
    assert from_environment({"LANG": "pl_PL.UTF-8"}) == "pl"
    assert from_environment({"LANG": "pl_PL.UTF-8", "LC_MESSAGES": "sv_SE.UTF-8"}) == "sv"
    assert from_environment({"LANG": "pl_PL.UTF-8", "LC_MESSAGES": "sv_SE", "LC_ALL": "da_DK"}) == "da"
    # The first one set decides, as for every program: C (or an unknown language) is English.
    assert from_environment({"LANG": "pl_PL.UTF-8", "LC_ALL": "C"}) == "en"
    assert from_environment({"LANG": "de_DE.UTF-8"}) == "en"
    assert from_environment({"LANG": "pl_PL.UTF-8", "LC_ALL": ""}) == "pl"  # set but empty: not set
    assert from_environment({}) == "en"


def test_lang_option_comes_first_and_an_unknown_one_is_english() -> None:
    assert choose_language("sv", {"LANG": "pl_PL.UTF-8"}) == "sv"
    assert choose_language(None, {"LANG": "pl_PL.UTF-8"}) == "pl"
    assert choose_language("klingon", {"LANG": "pl_PL.UTF-8"}) == "en"
    assert choose_language("x" * 10_000, {}) == "en"


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("pl-PL,pl;q=0.9,en-US;q=0.8,en;q=0.7", "pl"),
        ("de-DE,de;q=0.9,sv;q=0.8,en;q=0.7", "sv"),
        ("en;q=0.5, da;q=0.9", "da"),
        ("nb-NO, en", "nb"),
        ("no;q=0.8, de", "nb"),
        ("*", "en"),
        ("fr-FR,fr;q=0.9", "en"),
        ("", "en"),
        (None, "en"),
        ("pl;q=0, en;q=0.1", "en"),  # q=0: not acceptable
        ("pl;q=abc, sv", "sv"),  # a malformed quality: that entry is skipped
        (";;;,,,==", "en"),
        ("de," * 5000 + "pl", "en"),  # a huge header is read only so far: no time spent, no error
    ],
)
def test_accept_language(header: str | None, language: str) -> None:
    assert from_accept_language(header) == language


def test_use_language_is_scoped_and_english_is_the_default() -> None:
    assert current_language() == "en"
    with use_language("pl"):
        assert current_language() == "pl"
        assert _("Bye.") == "Do widzenia."
        with use_language("sv"):
            assert _("Bye.") == "Hej då."
        assert _("Bye.") == "Do widzenia."
    assert _("Bye.") == "Bye."
    with use_language("tlh"):
        assert _("Bye.") == "Bye."


def test_set_language() -> None:
    try:
        assert set_language("da_DK.UTF-8") == "da"
        assert _("Carry on.") == "Fortsæt."
        assert set_language("xx") == "en"
        assert _("Carry on.") == "Carry on."
    finally:
        set_language("en")


def test_plurals_per_language() -> None:
    def checkers(n: int) -> str:
        return ngettext("{n} checker", "{n} checkers", n).format(n=n)

    assert [checkers(n) for n in (1, 2)] == ["1 checker", "2 checkers"]
    with use_language("nb"):
        assert [checkers(n) for n in (1, 2)] == ["1 brikke", "2 brikker"]
    with use_language("pl"):
        assert [checkers(n) for n in (1, 3, 5, 14, 24)] == [
            "1 pionek", "3 pionki", "5 pionków", "14 pionków", "24 pionki"]


def test_numbers_per_language() -> None:
    assert (percent(0.4537), decimal(0.1234, sign=True)) == ("45.4%", "+0.123")
    assert decimal(-0.05, sign=True) == "-0.050"
    with use_language("pl"):
        assert (percent(0.4537), decimal(0.1234, sign=True)) == ("45,4%", "+0,123")
    with use_language("sv"):
        assert percent(0.4537) == "45,4\u00a0%"
        assert decimal(-0.05, sign=True) in ("-0,050", "\u22120,050")
    with use_language("da"):
        assert percent(1.0, 0) == "100\u00a0%"


def test_the_suite_runs_in_english_whatever_the_developers_locale() -> None:
    """conftest's fixture: a Polish developer's LANG does not reach gammon under test."""
    import os

    assert from_environment(os.environ) == "en"
