"""The after-game analysis in the reader's language (issue 38): explanations and graph translated.

The server makes each finished game's analysis once and keeps it; the mistakes'
explanations are kept as words (a catalog message and its numbers), so a reader whose
page is in Norwegian, Swedish, Danish or Polish reads them, and the equity graph's
labels, in that language.  The report's figures and its schema (``docs/analysis.schema.json``)
are the same in every language, and the English answer is what it always was.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from test_server_analysis import PLIES, finished_game, until_made

from gammon.i18n import LANGUAGES
from i18n38_words_helpers import ENGLISH, same_numbers
from paths import ROOT
from webclient import TEST_SERVER, TestClient, client_fixture

client = client_fixture("analysiswords", **TEST_SERVER, analysis_plies=PLIES)

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
SCHEMA = json.loads((ROOT / "docs" / "analysis.schema.json").read_text(encoding="utf-8"))


def _decisions(answer: dict[str, Any]) -> list[dict[str, Any]]:
    return [d for g in answer["report"]["games"] for d in g["decisions"]]


@pytest.fixture(scope="module")
def answers(client: TestClient) -> dict[str, dict[str, Any]]:
    """One finished game's analysis as each language's reader gets it (the page's cookie)."""
    gid = finished_game(client)
    english = until_made(client, gid)
    got = {"en": english}
    for language in OTHERS:
        client.cookies.set("gammon_lang", language)
        got[language] = client.get(f"/api/games/{gid}/analysis").json()
    client.cookies.delete("gammon_lang")
    got["again"] = client.get(f"/api/games/{gid}/analysis").json()
    return got


def test_english_is_unchanged(answers: dict[str, dict[str, Any]]) -> None:
    # Asked again in English after the other languages: the same answer, byte for byte.
    assert answers["again"] == answers["en"]
    assert any(d["explanation"] for d in _decisions(answers["en"])), "random play makes mistakes to explain"


@pytest.mark.parametrize("language", OTHERS)
def test_explanations_are_in_the_readers_language(answers: dict[str, dict[str, Any]], language: str) -> None:
    english, theirs = answers["en"], answers[language]
    jsonschema.Draft202012Validator(SCHEMA).validate(theirs["report"])
    assert theirs["plays"] == english["plays"] and theirs["report"]["players"] == english["report"]["players"]
    for mine, yours in zip(_decisions(english), _decisions(theirs), strict=True):
        # Every figure is the same; only the explanation is worded otherwise.
        assert {k: v for k, v in mine.items() if k != "explanation"} == \
               {k: v for k, v in yours.items() if k != "explanation"}
        if mine["explanation"] is None:
            assert yours["explanation"] is None
            continue
        text = yours["explanation"]
        assert text != mine["explanation"] and not ENGLISH.search(text), (language, text)
        assert same_numbers(mine["explanation"], text), (mine["explanation"], text)


@pytest.mark.parametrize("language", OTHERS)
def test_the_graph_is_drawn_in_the_readers_language(answers: dict[str, dict[str, Any]], language: str) -> None:
    graph = answers[language]["graph_svg"]
    assert graph.startswith("<svg") and graph.rstrip().endswith("</svg>")
    assert graph != answers["en"]["graph_svg"]  # its labels are other words
