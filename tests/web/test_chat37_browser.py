"""The chat panel in a real browser (Chromium driven by Playwright; issue 37).

Two players in two browser contexts and a spectator in a third.  Ann sends HTML and script
payloads; Bob's page shows each as the same literal text, with no element made from it and no
script run (the page's CSP is bypassed here, so the test would see a script that an ``innerHTML``
let in).  Bob mutes Ann and no longer receives her; the spectator never sees the players' chat.

Needs Chromium at /usr/bin/chromium and the ``playwright`` package; skipped without them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import playwright.sync_api as playwright_api
import pytest

from chat37_helpers import HOSTILE, new_human_game
from gammon.web import Settings, create_app
from gammon.web.ratelimit import RateLimits
from gammon.web.testing import ThreadedServer

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run", "--disable-quic"]
TIMEOUT_MS = 15_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    db = tmp_path_factory.mktemp("chatweb") / "gammon.db"
    settings = Settings(database_url=str(db), allow_test_seeds=True, rate_limits=RateLimits(enabled=False))
    app = create_app(settings)
    with ThreadedServer(app) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("browser tests need Chromium at /usr/bin/chromium (Debian: apt-get install chromium)")
    with playwright_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield b
        b.close()


def open_page(browser: Any, url: str, errors: list[str]) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("dialog", lambda d: (errors.append(f"dialog: {d.message}"), d.dismiss()))
    page.goto(url)
    page.wait_for_selector("#chat-list", state="attached")
    page.wait_for_function("document.querySelector('.conn') && document.querySelector('.conn').dataset.state "
                           "=== 'live'")
    return page


def texts(page: Any) -> list[str]:
    return list(page.eval_on_selector_all("#chat-list .chat-text", "els => els.map(e => e.textContent)"))


def say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("#chat-send")
    page.wait_for_function("t => [...document.querySelectorAll('#chat-list .chat-text')]"
                           ".some(e => e.textContent === t)", arg=text)


def test_script_payloads_show_as_text_and_mute_works(server: ThreadedServer, browser: Any) -> None:
    gid, t0, t1 = new_human_game(server)
    errors: list[str] = []
    ann = open_page(browser, f"{server.url}/game/{gid}#token={t0}", errors)
    bob = open_page(browser, f"{server.url}/game/{gid}#token={t1}", errors)
    eve = open_page(browser, f"{server.url}/watch/{gid}", errors)
    for payload in HOSTILE:
        say(ann, payload)
    bob.wait_for_function("n => document.querySelectorAll('#chat-list .chat-text').length >= n",
                          arg=len(HOSTILE))
    for page in (ann, bob):
        assert texts(page) == HOSTILE
        assert page.evaluate("window.__pwned") is None, "no payload ran"
        # Each message is two spans of text, and nothing else: no <script>, <img>, <svg> or <a> made.
        assert page.eval_on_selector_all("#chat-list li *", "els => els.map(e => e.tagName)") == \
            ["SPAN", "SPAN"] * len(HOSTILE)
    assert "Ann: " in bob.inner_text("#chat-list")
    # Bob mutes Ann: what she says next is not delivered to him (his own later message proves the
    # socket delivered everything before it).
    bob.check("#chat-mute")
    bob.wait_for_function("() => document.querySelector('#chat-list').children.length === 0")
    say(ann, "you will not see this")
    say(bob, "quiet now")
    assert texts(bob) == ["quiet now"]
    assert texts(ann)[-2:] == ["you will not see this", "quiet now"]
    # The spectator saw none of it, and its own chat goes to its own channel.
    say(eve, "<b>hello players</b>")
    assert texts(eve) == ["<b>hello players</b>"]
    assert eve.query_selector("#chat-mute") is None
    assert "hello players" not in " ".join(texts(ann))
    assert errors == []
