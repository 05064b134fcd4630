"""The analysis's explanations in the reader's language (issue 38).

The analysis explains each mistake once, when it runs, and keeps the explanation as words
(:mod:`gammon.analysis.words`: a catalog message and its numbers) beside its English. The
English is what the analysis always wrote (the report's JSON holds it); ``gammon analyse
--lang`` words the same explanations, and the graph's labels, in Norwegian, Swedish, Danish
or Polish in the terminal summary and the HTML report.
"""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gammon.analysis import analyse_match
from gammon.analysis.analyse import MatchAnalysis
from gammon.analysis.words import english, render
from gammon.cli import app
from gammon.core.game import Rules
from gammon.formats.record_json import match_to_json
from gammon.i18n import LANGUAGES, use_language
from i18n38_words_helpers import ENGLISH, same_numbers
from matches import play_match

runner = CliRunner()
OTHERS = [lang for lang in LANGUAGES if lang != "en"]
@pytest.fixture(scope="module")
def match_and_analysis() -> tuple[object, MatchAnalysis]:
    """A 5-point match of random play (checker errors, cube errors, resignations), analysed at 0-ply."""
    m = play_match(3, Rules(match_length=5), double_rate=0.15, resign_rate=0.05)
    return m, analyse_match(m, ("Ann", "Bob"), plies=0, processes=1)


def _explained(a: MatchAnalysis) -> list[object]:
    return [d for d in a.decisions if d.explanation]


def test_every_explanation_is_kept_as_words_whose_english_it_is(
        match_and_analysis: tuple[object, MatchAnalysis]) -> None:
    _m, a = match_and_analysis
    explained = _explained(a)
    kinds = {d.kind for d in explained}
    assert {"move", "cube", "take", "resign"} <= kinds, kinds
    for d in explained:
        assert d.explanation_words is not None and english(d.explanation_words) == d.explanation
        assert "explanation_words" not in d.to_dict()  # the JSON holds the English only


@pytest.mark.parametrize("language", OTHERS)
def test_each_language_words_every_explanation(match_and_analysis: tuple[object, MatchAnalysis],
                                               language: str) -> None:
    _m, a = match_and_analysis
    for d in _explained(a):
        with use_language(language):
            text = render(d.explanation_words)
        assert text != d.explanation and not ENGLISH.search(text), (language, text)
        assert same_numbers(d.explanation, text), (d.explanation, text)


@pytest.mark.parametrize("language", ["pl", "nb"])
def test_gammon_analyse_lang_words_the_explanations(tmp_path: Path, language: str,
                                                     match_and_analysis: tuple[object, MatchAnalysis]) -> None:
    m, a = match_and_analysis
    record = tmp_path / "rec.json"
    record.write_text(match_to_json(m, ("Ann", "Bob")))  # type: ignore[arg-type]
    report = tmp_path / "report.html"
    result = runner.invoke(app, ["analyse", str(record), "--plies", "0", "--lang", language,
                                 "--html", str(report)])
    assert result.exit_code == 0, result.output
    page = report.read_text(encoding="utf-8")
    worst = [d for d in a.decisions if d.mark in ("error", "blunder") and d.explanation]
    for d in worst:
        with use_language(language):
            text = render(d.explanation_words)
        assert html.escape(text) in page, text
        assert html.escape(d.explanation) not in page, d.explanation
    # The terminal summary shows the worst ones' explanations in the language too.
    with use_language(language):
        shown = [render(d.explanation_words) for d in sorted(worst, key=lambda d: -d.equity_lost)[:3]]
    flat = " ".join(result.output.split())
    assert all(" ".join(text.split()) in flat for text in shown)


def test_english_reports_are_as_before(tmp_path: Path,
                                       match_and_analysis: tuple[object, MatchAnalysis]) -> None:
    m, a = match_and_analysis
    record = tmp_path / "rec.json"
    record.write_text(match_to_json(m, ("Ann", "Bob")))  # type: ignore[arg-type]
    report = tmp_path / "report.html"
    result = runner.invoke(app, ["analyse", str(record), "--plies", "0", "--lang", "en", "--html", str(report)])
    assert result.exit_code == 0, result.output
    page = report.read_text(encoding="utf-8")
    assert all(html.escape(d.explanation) in page for d in a.decisions if d.mark in ("error", "blunder")
               and d.explanation)
