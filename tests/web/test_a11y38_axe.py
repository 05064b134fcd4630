"""Every page of ``gammon serve`` passes axe-core's audit with no serious or critical violation.

axe-core (the engine of browsers' accessibility checkers, bundled in ``axe-playwright-python``)
runs in a real Chromium on: the start page with a game in the lobby, the join page of an
invitation, the host's page waiting for the opponent, the rated queue's page, the rules (the
index, a variant's, an option's), the leaderboard, a player's page, the review of a finished
match, a finished game's page with its analysis open (and its graph enlarged), a spectator's
page, and a game in progress (dice rolled, the typed-play field shown, then a typed play
refused).  Each page is audited in each theme of :data:`THEMES` (the names of
``static/js/theme.js``'s registry; the page reads the remembered one before it draws).  A
failure lists each rule broken, its impact and the elements that break it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from gammon.web.rules_options_text import OPTION_TOPICS
from gammon.web.testing import ThreadedServer, pick_action
from webclient import NO_LIMITS, bearer
from webpages import SEED, Page, new_page, serve

axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

#: The page themes audited: "default" is the page as it is drawn without a choice.
THEMES: tuple[str, ...] = ("classic", "dark", "contrast", "cards")
#: The impacts that fail the audit (axe also reports "moderate" and "minor").
FAILING = {"serious", "critical"}
PLAYER = "Axe Tester"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    yield from serve(tmp_path_factory, "a11y-axe", rate_limits=NO_LIMITS, analysis_plies=0)


@pytest.fixture(scope="module")
def games(server: ThreadedServer) -> dict[str, str]:
    """The games the pages show: one waiting in the lobby, one invitation, one finished match."""
    with httpx.Client(base_url=server.url, timeout=60) as c:
        lobby = c.post("/api/games", json={"opponent": "human", "name": "Lobby Host", "public": True}).json()
        invited = c.post("/api/games", json={"opponent": "human", "name": "Host"}).json()
        done = c.post("/api/games", json={"opponent": "computer", "variant": "hypergammon", "match_length": 1,
                                          "test_seed": SEED, "name": "Finisher"}).json()
        finish(c, done["game_id"], done["token"])
    return {"lobby": lobby["game_id"], "invited": invited["game_id"], "invite": invited["invite_token"],
            "host": invited["token"], "done": done["game_id"], "done_token": done["token"]}


def finish(c: httpx.Client, gid: str, token: str) -> None:
    """Play the match to its end through the API (the first legal play each time)."""
    for _ in range(3000):
        st = c.get(f"/api/games/{gid}", headers=bearer(token)).json()
        if st["match"]["over"]:
            return
        action = pick_action(st)
        if action is None:
            time.sleep(0.02)
            continue
        c.post(f"/api/games/{gid}/actions", json={**action, "expected_version": st["version"]},
               headers=bearer(token))
    raise AssertionError("the match does not end")


def apply_theme(page: Page, theme: str) -> None:
    """Draw every page ``page`` opens from now on in ``theme``: remembered as the picker remembers it
    (a page without a board keeps its one set of colours)."""
    page.add_init_script(f"try {{ localStorage.setItem('gammon:theme', {theme!r}); }} catch (e) {{}}")


def audit(page: Page, what: str, theme: str) -> list[str]:
    """axe-core's serious and critical violations on ``page``, one line per rule and element."""
    results = axe_playwright.Axe().run(page)
    found = []
    for v in results.response["violations"]:
        if v.get("impact") in FAILING:
            targets = "; ".join(", ".join(n["target"]) + " (" + (n.get("failureSummary") or "")
                                .replace("\n", " ")[:200] + ")" for n in v["nodes"][:6])
            found.append(f"{what} [{theme}]: {v['id']} ({v['impact']}): {v['help']} -> {targets}")
    return found


def visit_pages(page: Page, base: str, games: dict[str, str], player: str) -> Iterator[str]:
    """Open each page in turn, waiting until it is drawn; yields its name when it is ready to audit.
    ``player`` signs up on the rated page (a new name for each theme's pass)."""
    page.goto(f"{base}/")
    page.wait_for_selector(f"button[data-game='{games['lobby']}']")
    yield "start page with the lobby"
    page.goto(f"{base}/join/{games['invited']}#invite={games['invite']}")
    page.wait_for_selector("#join-button")
    yield "join page"
    page.goto(f"{base}/game/{games['invited']}#token={games['host']}")
    page.wait_for_selector("#invite:not([hidden])")
    yield "host waiting for the opponent"
    page.goto(f"{base}/rated")
    page.fill("#account-name", player)
    page.fill("#account-password", "a long enough password 38")
    page.click("#sign-up")
    page.wait_for_function("name => document.getElementById('account-status').textContent.includes(name)",
                           arg=player)
    yield "rated queue"
    page.goto(f"{base}/rules")
    page.wait_for_selector("h1")
    yield "rules"
    page.goto(f"{base}/rules/standard")
    page.wait_for_selector("h1")
    yield "a variant's rules"
    page.goto(f"{base}/rules/option/{next(iter(OPTION_TOPICS))}")
    page.wait_for_selector("h1")
    yield "an option's rules"
    page.goto(f"{base}/players?min_experience=0")
    page.wait_for_selector("h1")
    yield "leaderboard"
    page.goto(f"{base}/players/{player.replace(' ', '%20')}")
    page.wait_for_selector("h1")
    yield "player page"
    page.goto(f"{base}/review/{games['done']}")
    page.wait_for_selector(".equity-graph", timeout=120_000)
    yield "review"
    page.goto(f"{base}/game/{games['done']}#token={games['done_token']}")
    page.wait_for_selector("#analysis[data-status=done]", timeout=120_000)
    yield "finished game with its analysis"
    page.focus("#analysis-graph")
    page.keyboard.press("Enter")
    page.wait_for_selector("#analysis-graph.zoomed")
    yield "the analysis graph enlarged"
    page.goto(f"{base}/watch/{games['done']}")
    page.wait_for_selector("#result-line")
    yield "spectator"
    page.goto(f"{base}/")
    page.check("input[name=opponent][value=computer]", force=True)
    page.fill("#name", "Ann")
    page.click("#start")
    page.wait_for_selector("#roll")
    page.click("#roll")
    page.wait_for_selector("#keyplay:not([hidden]), #roll:not(:disabled)", timeout=120_000)
    yield "game in progress"
    if page.locator("#keyplay:not([hidden])").count():
        page.fill("#play-input", "24/30")
        page.press("#play-input", "Enter")
        page.wait_for_selector("#play-error:not([hidden])")
    yield "a typed play refused"


@pytest.mark.parametrize("theme", THEMES)
def test_every_page_has_no_serious_violation(server: ThreadedServer, browser: Any, games: dict[str, str],
                                             theme: str) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    apply_theme(page, theme)
    found: list[str] = []
    seen = []
    for what in visit_pages(page, server.url, games, f"{PLAYER} {theme}"):
        seen.append(what)
        found += audit(page, what, theme)
    assert len(seen) == 15
    assert not found, "\n".join(found)
    assert not [e for e in errors if "page error" in e], errors
