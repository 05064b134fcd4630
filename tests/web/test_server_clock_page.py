"""The clock of a game on offer is shown in the browser before anyone joins (issue 33, item 6): in the
lobby's listing and on the invitation's join page, as the server sends it (the page holds no rules).

Before, a stranger could join a public match with a 1 s reserve without being told of any clock.
Needs Chromium at /usr/bin/chromium and the ``playwright`` package; skipped without them (the
``browser`` fixture of ``tests/webpages.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from gammon.web import Settings, create_app
from gammon.web.testing import ThreadedServer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    app = create_app(Settings(database_url=str(tmp_path_factory.mktemp("clock-page") / "gammon.db")))
    with ThreadedServer(app) as srv:
        yield srv


def test_the_lobby_and_the_join_page_show_the_clock(server: ThreadedServer, browser: Any) -> None:
    clocked = httpx.post(f"{server.url}/api/games", json={"opponent": "human", "public": True, "name": "Clocky",
                                                          "clock_delay": 8, "clock_reserve": 180}).json()
    httpx.post(f"{server.url}/api/games", json={"opponent": "human", "public": True, "name": "Easy"})
    page = browser.new_context(bypass_csp=True).new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/")
    page.wait_for_selector(".lobby-list li")
    rows = {row.inner_text().split(" · ")[0]: row.inner_text()
            for row in page.query_selector_all(".lobby-list li")}
    assert "clock 8 s a turn + 3 minutes each" in rows["Clocky"], rows
    assert "no clock" in rows["Easy"], rows
    page.goto(f"{server.url}/join/{clocked['game_id']}#invite={clocked['invite_token']}")
    text = page.inner_text("#join-clock")
    assert "8 s a turn + 3 minutes each" in text and "loses the match" in text
    assert not errors, errors
