"""The browser tests' helpers, written once: Chromium, a page, a game started and played by clicks.

Used by the page tests of ``tests/web`` (and the analysis report's): the ``browser`` fixture
skips a test where Chromium is missing (``/usr/bin/chromium``; in CI that is a failure), and
the helpers below drive the page of ``gammon serve`` as a person would.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import playwright.sync_api as playwright_api
import pytest

from paths import SCREENSHOTS

CHROMIUM = Path("/usr/bin/chromium")

Page = Any  # playwright.sync_api.Page
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run", "--disable-quic"]
#: Where the screenshots go (not tracked).
SHOTS = SCREENSHOTS
SEED = "5e" * 32
#: How long a page may take to show what a step waits for (generous: a busy machine renders late;
#: a wait that is met returns at once).
TIMEOUT_MS = 60_000
#: How long the page may wait for the computer's turn (its search, on a loaded test machine).
COMPUTER_TURN_MS = 120_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():  # each browser test skips (and fails in CI, see conftest)
        pytest.skip("browser tests need Chromium at /usr/bin/chromium (Debian: apt-get install chromium)")
    with playwright_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield b
        b.close()


def new_page(browser: Any, errors: list[str], width: int = 1280, height: int = 900,
             reduced_motion: str = "no-preference", phone: bool = False) -> Page:
    # bypass_csp: Playwright evaluates its own waits as strings, which the page's CSP forbids.
    # phone: a touch screen that honours the page's viewport meta tag, as a phone's browser does.
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True,
                                  reduced_motion=reduced_motion, has_touch=phone, is_mobile=phone)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("response", lambda r: errors.append(f"{r.status} {r.request.method} {r.url}: {r.text()}")
            if r.status >= 400 else None)
    return page


def checkers(page: Page) -> list[str]:
    """Where the board shows checkers: 'x,y,mine|theirs' for each."""
    found: list[str] = page.eval_on_selector_all(
        "svg.board .checkers .checker",
        "els => els.map(g => { const c = g.querySelector('circle'); "
        "const side = g.classList.contains('mine') ? 'mine' : 'theirs'; "
        "return `${c.getAttribute('cx')},${c.getAttribute('cy')},${side}`; })")
    return found


def points_of(page: Page, selector: str) -> set[int]:
    return {int(x) for x in page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.point)")}


# The first element matching a selector, measured in one step in the page: the page may replace
# its board and controls at any moment (a reply arriving after the socket's newer state renders
# them anew), and an element found first and measured after could be gone by then.
SHOWN_BOX = """sel => { const e = document.querySelector(sel); if (!e) return null;
  const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
  return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' ? [r.x, r.y, r.width, r.height] : null; }"""


def box(page: Page, selector: str) -> tuple[float, float, float, float]:
    """``selector``'s box on the screen (x, y, width, height), waiting (5 s at most) until it is shown."""
    try:
        got = page.wait_for_function(SHOWN_BOX, arg=selector, timeout=5000).json_value()
    except playwright_api.TimeoutError:
        raise AssertionError(f"{selector} is not shown") from None
    x, y, w, h = got
    return x, y, w, h


def drag(page: Page, source: int, target: int) -> None:
    """Drag with the mouse from one point's column to another's."""
    ax, ay, aw, ah = box(page, f".hit[data-point='{source}']")
    bx, by, bw, bh = box(page, f".hit[data-point='{target}']")
    page.mouse.move(ax + aw / 2, ay + ah / 2)
    page.mouse.down()
    page.mouse.move(ax + aw / 2 + 20, ay + ah / 2 + 20, steps=3)
    page.mouse.move(bx + bw / 2, by + bh / 2, steps=5)
    page.mouse.up()


def shot(page: Page, name: str, full_page: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=full_page)


def version(page: Page) -> int:
    return int(page.get_attribute("#app", "data-version") or -1)


def wait_version_above(page: Page, v: int) -> None:
    page.wait_for_function(f"Number(document.getElementById('app').dataset.version) > {v}")


ACTION_BUTTONS = "#roll, #take, #accept, #confirm, #choose-6, #result-line"


def make_move_by_clicks(page: Page, tap: bool = False) -> list[int]:
    """Build the whole play with clicks (taps with ``tap``): each on a movable checker, which moves it
    by the higher die that fits; the points clicked, in order."""
    clicks = []
    for _ in range(8):
        if page.locator("#confirm").is_enabled():
            break
        source = page.locator(".hit.movable").first
        clicks.append(int(source.get_attribute("data-point")))
        if tap:
            source.tap()
        else:
            source.click()
    assert page.locator("#confirm").is_enabled(), "the play is not complete after all the clicks"
    return clicks


def act_once(page: Page) -> bool:
    """Do what the page offers (roll, take, accept, play); False when the game is over."""
    page.wait_for_selector(ACTION_BUTTONS, timeout=COMPUTER_TURN_MS)
    if page.locator("#result-line").count():
        return False
    v = version(page)
    if page.locator("#confirm").count():
        make_move_by_clicks(page)
        page.click("#confirm")
    else:
        for sel in ("#roll", "#take", "#accept", "#choose-6"):
            if page.locator(sel).count():
                page.click(sel)
                break
    wait_version_above(page, v)
    return True


def start_game(page: Page, base: str, *, variant: str, opponent: str = "computer", seed: str = SEED,
               length: str = "0", screenshot: str | None = None) -> None:
    # The page never sends a dice seed (nothing in its URL can fix the dice): the test adds one to the
    # request on its way, as a test client of a server started with test seeds allowed may.
    def seeded(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        route.continue_(post_data=json.dumps({**body, "test_seed": seed}))

    page.route(f"{base}/api/games", lambda route: seeded(route) if route.request.method == "POST"
               else route.continue_())
    page.goto(f"{base}/")
    page.wait_for_selector("#new-game")
    if screenshot:
        shot(page, screenshot)
    page.check(f"input[name=opponent][value={opponent}]", force=True)
    page.fill("#name", "Ann")
    page.select_option("#variant", variant)
    page.select_option("#length", length)
    page.click("#start")

def settled(a: Page, b: Page) -> None:
    """Wait until both pages show the same version of the game, then compare what they show."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if version(a) == version(b) and version(a) >= 0:
            break
        time.sleep(0.05)
    assert version(a) == version(b)
    for attr in ("data-position", "data-phase", "data-status"):
        assert a.get_attribute("#app", attr) == b.get_attribute("#app", attr), attr
    # The same pip counts and scores, each page from its own side.
    assert a.inner_text(".strip.me .pips") == b.inner_text(".strip.opp .pips")
    assert a.inner_text(".strip.me .score") == b.inner_text(".strip.opp .score")


def serve(tmp_path_factory: pytest.TempPathFactory, name: str, **settings: Any) -> Iterator[Any]:
    """A browser test's server, for a module fixture to ``yield from``: a fresh SQLite file,
    seeded games allowed, the computer answering at once, and ``settings`` on top."""
    from gammon.web.app import create_app
    from gammon.web.config import Settings
    from gammon.web.testing import ThreadedServer

    db = tmp_path_factory.mktemp(name) / "gammon.db"
    app = create_app(Settings(database_url=str(db), **{"allow_test_seeds": True, "computer_delay": 0.0,
                                                         **settings}))
    with ThreadedServer(app) as srv:
        yield srv
