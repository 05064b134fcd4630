"""The analysis's HTML report is written for people: in the language ``gammon analyse --lang`` names,
numbers with that language's decimal comma, ``<html lang>`` saying which; in English it is as before."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from gammon.cli import app
from gammon.formats.mat import write_mat
from gammon.play.selfplay import run_selfplay


def _report(tmp_path: Path, language: str) -> str:
    record = tmp_path / "m.mat"
    if not record.exists():
        record.write_text(write_mat(run_selfplay(1, 5, match_length=3), ("Ann", "Bob")))
    out = tmp_path / f"{language}.html"
    args = ["analyse", str(record), "--plies", "0", "--lang", language, "--html", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


def test_the_report_in_norwegian_and_polish(tmp_path: Path) -> None:
    english = _report(tmp_path, "en")
    assert "<html lang='en'>" in english and "<h2>Move list</h2>" in english
    assert re.search(r"Result for Ann: [+-]\d+\.\d{3} ", english)
    norwegian = _report(tmp_path, "nb")
    assert "<html lang='nb'>" in norwegian and "<h2>Trekkliste</h2>" in norwegian
    assert re.search(r"Resultat for Ann: [+-]\d+,\d{3} ", norwegian)  # the decimal comma
    polish = _report(tmp_path, "pl")
    assert "<h2>Lista ruchów</h2>" in polish and "Ann – Bob: mecz do 3 pkt" in polish
    for report in (norwegian, polish):
        for english_words in ("Move list", "Unforced moves", "Result for", "Analysed by gammon", "Game 1"):
            assert english_words not in report
