"""``--replay`` pages fit an 80 x 24 terminal: a real record, analysed, every page measured.

A page is a decision's title line, its board and its analysis, with the prompt
on the 24th row.  The pages used to run past 24 rows (the board and up to nine
lines of analysis) and past 80 columns (the alternatives' lines).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from gammon.analysis.analyse import MatchAnalysis, analyse_record
from gammon.cli import app
from gammon.cli.replay import PAGE_COLUMNS, PAGE_ROWS, page, shown_decisions
from gammon.formats.record_files import load_record, render_record
from gammon.play.selfplay import run_selfplay

#: Names as long as the terminal game allows (40 characters), which the board and the titles must hold.
NAMES = ("Alexandra Konstantinopoulou-Smithersons", "Bartholomew Fitzgerald-Montgomery III")


@pytest.fixture(scope="module", params=[3, 0], ids=["3-point match", "money session"])
def record(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    length = request.param
    match = run_selfplay(2, 5, match_length=length)
    path = tmp_path_factory.mktemp("replay") / "m.json"
    path.write_text(render_record(match, ".json", NAMES))
    return path


def _analysed(path: Path) -> MatchAnalysis:
    rec = load_record(path)
    return analyse_record(rec.rules, rec.games, rec.names, plies=0, processes=1, games_limit=rec.games_limit)


def test_every_page_fits_80_columns_and_24_rows_with_the_prompt(record: Path) -> None:
    analysis = _analysed(record)
    shown = shown_decisions(analysis)
    assert len(shown) > 20
    tallest = 0
    for i, d in enumerate(shown, start=1):
        lines = page(analysis, d, i, len(shown))
        tallest = max(tallest, len(lines))
        assert len(lines) <= PAGE_ROWS - 1, (d.kind, [t.plain for t in lines])
        for line in lines:
            assert cell_len(line.plain) <= PAGE_COLUMNS, (d.kind, line.plain)
        text = "\n".join(t.plain for t in lines)
        assert "Position ID:" in text
        if d.kind in ("move", "choice") and len(d.alternatives) > 1 and not d.forced:
            assert "*" in text  # the play made is always among the alternatives shown
    assert tallest == PAGE_ROWS - 1  # the room is used: the best plays fill the rows left


def test_the_replay_command_prints_pages_that_fit_whatever_the_terminal_width(record: Path) -> None:
    """Through ``gammon play --replay`` in a wide window: nothing is wrapped, the lines are the page's own."""
    result = CliRunner().invoke(app, ["play", "--replay", str(record), "--level", "heuristic"],
                                env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    summary = next(i for i, line in enumerate(lines) if line.startswith(f"{NAMES[0]} vs {NAMES[1]}:"))
    titles = [i for i, line in enumerate(lines[:summary]) if line.startswith("── ")]
    assert titles and titles[0] == 0
    for start, end in zip(titles, [*titles[1:], summary], strict=True):
        assert end - start <= PAGE_ROWS - 1, "\n".join(lines[start:end])
        for line in lines[start:end]:
            assert cell_len(line) <= PAGE_COLUMNS, line
