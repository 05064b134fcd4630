"""The after-game page in Chromium shows ``gammon analyse``'s report (issue 13, item 6).

A seeded game against the computer is played by clicks to its end; the result
panel then shows the analysis progress (a progress bar while the server works),
and once made: each player's error rates and PR, the marks, the equity graph
(the SVG the server drew, as an image) and the errors and blunders with the
better play and the reason, all the same figures as the server's report.
Screenshots go to ``test-artifacts/screenshots/after-game-analysis*.png``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

import pytest

from gammon.web import Settings, create_app
from gammon.web.testing import ThreadedServer
from webpages import SHOTS, act_once, new_page, shot, start_game

ANALYSIS_TIMEOUT_MS = 180_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    db = tmp_path_factory.mktemp("web-analysis") / "gammon.db"
    # 1-ply keeps the test quick on a busy machine; the depth does not change what the page shows.
    settings = Settings(database_url=str(db), allow_test_seeds=True, computer_delay=0.0, analysis_plies=1)
    app = create_app(settings)
    with ThreadedServer(app) as srv:
        yield srv


def test_the_after_game_page_shows_the_analysis(server: ThreadedServer, browser: Any) -> None:  # noqa: F811
    errors: list[str] = []
    page = new_page(browser, errors, width=1280, height=1000)
    # The first two answers are held back as "running" (the server's real analysis may be done too
    # quickly to see): the page must show the progress, then keep asking.
    held = {"n": 0}

    def analysis_route(route: Any) -> None:
        if held["n"] < 2:
            held["n"] += 1
            game_id = route.request.url.split("/api/games/")[1].split("/")[0]
            route.fulfill(status=200, content_type="application/json", body=json.dumps({
                "game_id": game_id, "status": "running", "done": 7, "total": 40,
                "engine": "gammon.analysis 1-ply", "message": None, "report": None, "graph_svg": None,
                "plays": []}))
        else:
            route.continue_()

    page.route("**/api/games/*/analysis", analysis_route)
    start_game(page, server.url, variant="hypergammon")
    page.wait_for_url("**/game/**")
    turns = 0
    while act_once(page):
        turns += 1
        assert turns < 400, "the game does not end"
    progress = page.wait_for_selector("#analysis-progress")
    assert "7 of 40 decisions" in progress.inner_text()
    assert page.get_attribute("#analysis-bar", "value") == "7"
    shot(page, "after-game-analysis-progress.png", full_page=False)

    page.wait_for_selector("#analysis[data-status=done]", timeout=ANALYSIS_TIMEOUT_MS)
    game_id = page.url.split("/game/")[1].split("#")[0]
    got = page.request.get(f"{server.url}/api/games/{game_id}/analysis").json()
    assert got["status"] == "done"
    report = got["report"]
    # The players' figures are the report's.
    table = page.locator("#analysis-players")

    def one(x: float | None) -> str:
        return "–" if x is None else f"{x:.1f}"

    cells = table.locator("tbody tr").nth(0).locator("td").all_inner_texts()
    assert cells == [one(p["error_rate"]) for p in report["players"]]
    pr_row = table.locator("tbody tr", has_text="PR").locator("td").all_inner_texts()
    assert pr_row == [one(p["pr"]) for p in report["players"]]
    marks_row = table.locator("tbody tr", has_text="?!").locator("td").all_inner_texts()
    assert marks_row == [f"{p['marks']['doubtful']} / {p['marks']['error']} / {p['marks']['blunder']}"
                         for p in report["players"]]
    # The graph is the server's SVG, drawn.
    assert page.locator("#analysis-graph").evaluate("img => img.complete && img.naturalWidth > 100")
    # Every error and blunder is listed, with the better play and its reason.
    decisions = [d for g in report["games"] for d in g["decisions"]]
    mistakes = [d for d in decisions if d["mark"] in ("error", "blunder")]
    listed = page.locator("#analysis-mistakes li")
    assert listed.count() == len(mistakes)
    for i, d in enumerate(mistakes):
        text = listed.nth(i).inner_text()
        memg = math.floor(d["equity_lost_memg"] + 0.5)  # as JavaScript rounds
        assert d["played"] in text and f"{memg} mEMG" in text
        if d["best"] != d["played"]:
            assert d["best"] in text
        if d["explanation"]:
            assert d["explanation"] in text
    # The record's marks are the same analysis's.
    assert page.locator("#record li.marked").count() == sum(1 for p in got["plays"] if p["mark"])
    shot(page, "after-game-analysis.png")
    # A click shows the graph over the page, large enough to read; another puts it back.
    page.click("#analysis-graph")
    assert page.locator("#analysis-graph").evaluate("img => img.getBoundingClientRect().width > 900")
    shot(page, "after-game-analysis-graph.png", full_page=False)
    page.click("#analysis-graph")
    assert page.locator("#analysis-graph").evaluate("img => img.getBoundingClientRect().width < 400")
    # On a phone the panel fits the screen's width: nothing in it is wider than the panel.
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#analysis").scroll_into_view_if_needed()
    assert page.locator("#analysis").evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.locator("#analysis").screenshot(path=str(SHOTS / "after-game-analysis-phone.png"))
    assert not errors, errors

