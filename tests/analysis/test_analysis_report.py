"""Pictures and reports of an analysis: the equity graph, SVG boards, the HTML report in Chromium."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boards import pos
from gammon.analysis import MatchAnalysis, analyse_match
from gammon.analysis.board_svg import board_svg, changed_points
from gammon.analysis.graph import graph_image, graph_points, graph_svg, text_graph
from gammon.analysis.report import after_game_report, html_report
from gammon.core.position import Position
from gammon.play.selfplay import run_selfplay
from paths import SCREENSHOTS

SHOTS = SCREENSHOTS


@pytest.fixture(scope="module")
def analysis() -> MatchAnalysis:
    return analyse_match(run_selfplay(1, 11, match_length=3), ("Ann", "Bob"), plies=0, processes=1)


def test_board_svg_draws_every_checker() -> None:
    p = pos("x: 24:2 13:5 8:3 6:5; o: 24:2 13:5 8:3 6:5")
    svg = board_svg(p, title="start", dice=(3, 1))
    # Stacks of five or fewer are drawn checker by checker: 2+5+3+5 for each side.
    assert svg.count("<circle") == 30
    assert svg.startswith("<svg") and svg.endswith("</svg>") and "start" in svg
    tall = pos("x: 6:7 5:8; o: 24:15")
    drawn = board_svg(tall)
    assert ">7<" in drawn and ">8<" in drawn and ">15<" in drawn  # counts written on tall stacks


def test_changed_points() -> None:
    start = Position.initial()
    after = start.parse_play("8/5 6/5", (3, 1)).position
    assert changed_points(start, after) == {8, 6, 5}


def test_graph_points_follow_the_match(analysis: MatchAnalysis) -> None:
    pts = graph_points(analysis)
    moves = sum(1 for d in analysis.decisions if d.kind in ("move", "take"))
    assert len(pts) >= moves and all(0.0 <= p.y <= 100.0 for p in pts)
    assert [p.x for p in pts] == list(range(1, len(pts) + 1))
    # The match ends won or lost: the last point is at 0% or 100% for player 0.
    assert pts[-1].y in (pytest.approx(0.0), pytest.approx(100.0))
    marked = {p.x for p in pts if p.mark in ("error", "blunder")}
    assert len(marked) == sum(1 for d in analysis.decisions if d.mark in ("error", "blunder"))


def test_text_graph_draws_one_mark_per_decision(analysis: MatchAnalysis) -> None:
    pts = graph_points(analysis)
    wide = text_graph(analysis, width=len(pts), height=9)
    assert "match winning chance" in wide[0] and wide[-1].endswith(f"{len(pts)} decisions")
    rows = [line.split("|", 1)[1] for line in wide[1:-1]]
    assert len(rows) == 9 and all(len(r) == len(pts) for r in rows)
    # One column per decision: exactly one value character in each, a blunder drawn X, an error ?.
    for c, p in enumerate(pts):
        column = "".join(r[c] for r in rows).replace(" ", "").replace("-", "")
        want = "X" if p.mark == "blunder" else "?" if p.mark == "error" else "*"
        assert column == want or (column == "" and want == "-"), (c, column, p)
    # The top row is 100%, the middle 50%, the bottom 0% (match play): a value's row follows from it.
    for c, p in enumerate(pts):
        r = next(i for i, row in enumerate(rows) if row[c] in "X?*")
        assert abs((100 - p.y) / 100 * 8 - r) <= 0.5 + 1e-9
    narrow = text_graph(analysis, width=10, height=5)
    assert all(len(line.split("|", 1)[1]) == 10 for line in narrow[1:-2])
    assert text_graph(analysis, width=1) == []


def test_graph_files(analysis: MatchAnalysis) -> None:
    assert graph_image(analysis, "png").startswith(b"\x89PNG")
    svg = graph_svg(analysis)
    assert svg.startswith("<svg") and "</svg>" in svg


def test_html_report_shows_boards_of_each_mistake(analysis: MatchAnalysis) -> None:
    html = html_report(analysis)
    mistakes = [d for d in analysis.decisions if d.mark in ("error", "blunder")]
    assert html.count('class="mistake"') == len(mistakes)
    moves = sum(1 for d in mistakes if d.kind == "move")
    cubes = len(mistakes) - moves
    # A checker mistake shows three boards (before, played, better), a cube mistake one; plus the graph.
    boards = re.findall(r"<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 330", html)
    assert len(boards) == 3 * moves + cubes
    assert "Checker error rate" in html and "Ann" in html


def test_after_game_bundle(analysis: MatchAnalysis) -> None:
    out = after_game_report(analysis)
    assert out["analysis"]["players"][0]["name"] == "Ann"
    assert out["graph_svg"].startswith("<svg")


def test_report_in_chromium(tmp_path: Path, analysis: MatchAnalysis) -> None:
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("needs Chromium at /usr/bin/chromium (Debian: apt-get install chromium)")
    api = pytest.importorskip("playwright.sync_api")
    page_file = tmp_path / "report.html"
    page_file.write_text(html_report(analysis), encoding="utf-8")
    errors: list[str] = []
    args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run", "--disable-quic"]
    with api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=args)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(page_file.as_uri())
        graph = page.query_selector(".graph svg")
        assert graph is not None and graph.bounding_box()["width"] > 400
        first = page.query_selector(".mistake")
        if first is not None:
            boxes = [b.bounding_box() for b in first.query_selector_all(".boards svg")]
            assert boxes and all(b["width"] > 200 for b in boxes)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "analysis-report.png"), full_page=False)
        browser.close()
    assert not errors
