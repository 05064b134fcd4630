"""Issue 37's done-when test in a real browser (Chromium driven by Playwright): two players sign up
in two browser contexts on the /rated page, find each other through the rated 1-point queue, play
the match to its end on the game page, and both see the new ratings (two newcomers in a 1-point
match: 1510 and 1490 by the FIBS formula), the match in their history and its review page with
the equity graph; a third context, logged in as another account, cannot act in the game.

Needs Chromium at /usr/bin/chromium and the ``playwright`` package; skipped without them.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from gammon.web import Settings, create_app
from gammon.web.ratelimit import RateLimits
from gammon.web.testing import ThreadedServer
from webpages import ACTION_BUTTONS, act_once, browser, new_page

__all__ = ["browser"]
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    db = tmp_path_factory.mktemp("queueweb") / "gammon.db"
    settings = Settings(database_url=str(db), rate_limits=RateLimits(enabled=False), analysis_plies=0)
    with ThreadedServer(create_app(settings)) as srv:
        yield srv


def sign_up_and_queue(browser: Any, base: str, name: str, errors: list[str]) -> Any:
    page = new_page(browser, errors)
    page.goto(f"{base}/rated")
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("#sign-up")
    page.wait_for_function("n => document.body.dataset.account === n", arg=name)
    page.select_option("#queue-length", "1")
    page.click("#queue-join")
    return page


def play_out(a: Any, b: Any) -> None:
    """Each page acts whenever the game waits on it, until both show the result."""
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        if a.locator("#result-line").count() and b.locator("#result-line").count():
            return
        for page in (a, b):
            if page.locator(ACTION_BUTTONS).count() and not page.locator("#result-line").count():
                act_once(page)
        time.sleep(0.05)
    raise AssertionError("the match did not end")


def test_two_players_meet_in_the_queue_play_and_are_rated(server: ThreadedServer, browser: Any) -> None:
    errors: list[str] = []
    base = server.url
    ann = sign_up_and_queue(browser, base, "Ann Browser", errors)
    ann.wait_for_function("document.getElementById('queue-status').textContent.startsWith('Waiting')")
    bob = sign_up_and_queue(browser, base, "Bob Browser", errors)
    for page in (ann, bob):  # matched: each page took its seat's token and opened the game
        page.wait_for_url("**/game/**")
        page.wait_for_selector(ACTION_BUTTONS)
    gid = ann.url.split("/game/")[1].split("#")[0]
    assert bob.url.split("/game/")[1].split("#")[0] == gid
    # A third player, logged in, holds no seat: no token for it, and no action goes through.
    eve = new_page(browser, errors)
    eve.goto(f"{base}/rated")
    eve.fill("#account-name", "Eve Browser")
    eve.fill("#account-password", PASSWORD)
    eve.click("#sign-up")
    eve.wait_for_function("document.body.dataset.account === 'Eve Browser'")
    errors.clear()  # the refusals below are expected
    r = eve.request.post(f"{base}/api/account/games/{gid}/token", headers={"Origin": base})
    assert r.status == 404
    r = eve.request.post(f"{base}/api/games/{gid}/actions", data={"type": "roll"}, headers={"Origin": base})
    assert r.status == 403
    errors.clear()
    play_out(ann, bob)
    assert not [e for e in errors if "pageerror" in e or "page error" in e], errors
    ratings = {}
    for page, name in ((ann, "Ann Browser"), (bob, "Bob Browser")):
        page.goto(f"{base}/players/{name}")
        text = page.inner_text("main")
        ratings[name] = text.split("Rating ")[1].split(",")[0]
        assert page.locator(f'a.review-link[href="/review/{gid}"]').count() == 1  # the match in the history
    assert sorted(ratings.values()) == ["1490.00", "1510.00"], ratings
    ann.click(f'a.review-link[href="/review/{gid}"]')
    ann.wait_for_selector(".equity-graph", timeout=120_000)  # the page reloads until the analysis is made
    assert ann.locator(".frame").count() >= 1
    ann.keyboard.press("End")
    assert ann.locator(".frame:not([hidden])").count() == 1
