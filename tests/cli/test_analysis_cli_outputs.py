"""``gammon analyse``'s files: never the record itself, an existing file only with ``--force``
(issue 35, D4), and ``--met`` (a published match equity table, named in the JSON)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gammon.cli import app
from gammon.core.match import Match
from gammon.formats.sgf import write_sgf
from gammon.play.selfplay import run_selfplay

runner = CliRunner()

#: A 5-point table of our own making (not a published one): each entry and its mirror add up to 1.
PRE = [
    [0.50, 0.68, 0.75, 0.81, 0.84],
    [0.32, 0.50, 0.60, 0.67, 0.74],
    [0.25, 0.40, 0.50, 0.57, 0.64],
    [0.19, 0.33, 0.43, 0.50, 0.57],
    [0.16, 0.26, 0.36, 0.43, 0.50],
]
POST = [0.50, 0.49, 0.32, 0.30, 0.19]


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    match: Match = run_selfplay(1, 5, match_length=3)
    path = tmp_path_factory.mktemp("rec") / "m.sgf"
    path.write_text(write_sgf(match, ("Ann", "Bob")))
    return path


def _met(path: Path) -> Path:
    rows = "".join("<row>" + "".join(f"<me>{v}</me>" for v in r) + "</row>" for r in PRE)
    post = "<row>" + "".join(f"<me>{v}</me>" for v in POST) + "</row>"
    path.write_text(f"<met><info><name>Club table</name><description>ours</description><length>5</length>"
                    f"</info><pre-crawford-table type=\"explicit\">{rows}</pre-crawford-table>"
                    f"<post-crawford-table type=\"explicit\" player=\"both\">{post}"
                    "</post-crawford-table></met>")
    return path


def test_the_record_is_never_written_over(record: Path) -> None:
    before = record.read_bytes()
    for flags in ([], ["--force"]):
        result = runner.invoke(app, ["analyse", str(record), "--plies", "0", "--annotated", str(record),
                                     *flags])
        assert result.exit_code != 0
        assert "is the record being analysed" in result.output
        assert record.read_bytes() == before


def test_an_existing_file_is_replaced_only_with_force(record: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    report.write_text("my notes")
    result = runner.invoke(app, ["analyse", str(record), "--plies", "0", "--html", str(report)])
    assert result.exit_code != 0 and "already exists" in result.output and "--force" in result.output
    assert report.read_text() == "my notes"
    result = runner.invoke(app, ["analyse", str(record), "--plies", "0", "--html", str(report), "--force"])
    assert result.exit_code == 0, result.output
    assert report.read_text().lstrip().lower().startswith("<!doctype html")


def test_all_three_files_are_written_when_free(record: Path, tmp_path: Path) -> None:
    out = tmp_path / "same.sgf"
    graph = tmp_path / "same.svg"
    result = runner.invoke(app, ["analyse", str(record), "--plies", "0", "--annotated", str(out),
                                 "--graph", str(graph), "--html", str(tmp_path / "r.html")])
    assert result.exit_code == 0, result.output
    assert out.exists() and graph.exists()


def test_a_published_table_is_used_and_named(record: Path, tmp_path: Path) -> None:
    ours = json.loads(runner.invoke(app, ["analyse", str(record), "--plies", "0", "--json"]).stdout)
    table = _met(tmp_path / "t.xml")
    result = runner.invoke(app, ["analyse", str(record), "--plies", "0", "--json", "--met", str(table)])
    assert result.exit_code == 0, result.output
    theirs = json.loads(result.stdout)
    assert ours["match_equity_table"] == "gammon (own rollouts)"
    assert theirs["match_equity_table"] == "Club table"
    # The result in MWC starts from the table's own 3-away/3-away (0.5 in both) but every
    # match-play figure after the first score comes from the table: the luck in MWC differs.
    assert ours["result"]["luck"] != theirs["result"]["luck"]


def test_a_bad_table_is_refused_in_one_line(record: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_text("<met><info><name>x</name><description/><length>2</length></info>"
                   "<pre-crawford-table type=\"zadeh\"/><post-crawford-table/></met>")
    result = runner.invoke(app, ["analyse", str(record), "--plies", "0", "--met", str(bad)])
    assert result.exit_code != 0
    assert "formula of another program" in result.output
    assert "Traceback" not in result.output
