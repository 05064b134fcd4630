"""The board's themes in a real browser (Chromium driven by Playwright; issue 38).

Each theme applies from the picker and stays after a reload; every theme's text stands at 4.5:1 or
more against its background; the card table is laid out as the rule texts lay out backgammon with
a deck of cards (twelve face-down cards in a row, one crosswise in the middle, the checkers as red
and black cards, card dice as two piles with the drawn cards face up); and the two sides' checkers
differ by a mark that is not colour.

Needs Chromium at /usr/bin/chromium and the ``playwright`` package; skipped without them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from gammon.web import Settings, create_app
from gammon.web.ratelimit import RateLimits
from gammon.web.testing import ThreadedServer, staged_game
from webpages import Page, browser, new_page

__all__ = ["browser"]  # the fixture, imported for pytest

THEMES = ("classic", "dark", "contrast", "cards")
SEED = bytes.fromhex("38" * 32)
CHECKERS = 15  # each side's, in standard backgammon


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    db = tmp_path_factory.mktemp("themes") / "gammon.db"
    settings = Settings(database_url=str(db), allow_test_seeds=True, rate_limits=RateLimits(enabled=False))
    with ThreadedServer(create_app(settings)) as srv:
        yield srv


@pytest.fixture(scope="module")
def card_game(server: ThreadedServer) -> tuple[str, str]:
    """A card-dice game a few turns in, with seat 0 to move: (game id, seat 0's token)."""
    return staged_game(server.url, SEED, dice="cards")


def _game_page(browser: Any, server: ThreadedServer, game: tuple[str, str], errors: list[str],
               theme: str | None = None, **size: Any) -> Page:
    page = new_page(browser, errors, reduced_motion="reduce", **size)
    if theme:
        page.add_init_script(f"localStorage.setItem('gammon:theme', '{theme}')")
    page.goto(f"{server.url}/game/{game[0]}#token={game[1]}")
    page.wait_for_selector("svg.board .checker")
    return page


def _theme_on(page: Page) -> list[str]:
    classes: str = page.evaluate("document.documentElement.className")
    return [c[len("theme-"):] for c in classes.split() if c.startswith("theme-")]


def test_each_theme_applies_from_the_picker_and_stays_after_a_reload(browser: Any,
                                                                     server: ThreadedServer) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(f"{server.url}/")
    page.wait_for_selector("#new-game")
    assert _theme_on(page) == ["classic"]  # nothing chosen yet
    backgrounds = set()
    for theme in THEMES:
        page.select_option("#theme", theme)
        assert _theme_on(page) == [theme]
        page.reload()
        page.wait_for_selector("#new-game")
        assert _theme_on(page) == [theme], f"{theme} did not stay after a reload"
        assert page.input_value("#theme") == theme
        backgrounds.add(page.evaluate("getComputedStyle(document.body).backgroundColor"))
    assert len(backgrounds) == len(THEMES), backgrounds  # each theme colours the page its own way
    assert not errors, errors


_COLOURS = """() => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const bg = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.9)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const out = [];
  const seen = new Set();
  for (const el of document.querySelectorAll('body *')) {
    if (['SCRIPT', 'STYLE', 'svg', 'OPTION'].includes(el.tagName) || el.closest('svg')) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const box = el.getBoundingClientRect();
    if (!own || !box.width || !box.height || el.disabled || el.closest('[disabled]')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || Number(style.opacity) < 1) continue;
    const key = `${style.color}|${bg(el)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ text: el.textContent.trim().slice(0, 40), fg: rgb(style.color).slice(0, 3), bg: bg(el) });
  }
  return out;
}"""


def _luminance(rgb: list[float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: list[float], b: list[float]) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("theme", THEMES)
def test_every_text_of_a_theme_has_contrast(browser: Any, server: ThreadedServer, card_game: tuple[str, str],
                                            theme: str) -> None:
    """WCAG's 4.5:1 for every distinct pair of text and background colours on the start page and
    the game page (disabled controls aside, as WCAG sets them aside)."""
    errors: list[str] = []
    page = _game_page(browser, server, card_game, errors, theme)
    pairs = page.evaluate(_COLOURS)
    page.goto(f"{server.url}/")
    page.wait_for_selector("#new-game")
    pairs += page.evaluate(_COLOURS)
    assert len(pairs) > 5
    low = [(p["text"], p["fg"], p["bg"], round(_contrast(p["fg"], p["bg"]), 2)) for p in pairs
           if _contrast(p["fg"], p["bg"]) < 4.5]
    assert not low, low
    assert not errors, errors


def _expected(state: dict[str, Any]) -> dict[str, dict[int, int]]:
    """The checkers of each side by the viewer's (seat 0's) point number: 1..24, 25 the bar."""
    mine, theirs = state["board"]["points"]
    return {
        "mine": {p: mine[p - 1] for p in range(1, 25) if mine[p - 1]} | ({25: mine[24]} if mine[24] else {}),
        "theirs": {p: theirs[24 - p] for p in range(1, 25) if theirs[24 - p]}
        | ({25: theirs[24]} if theirs[24] else {}),
    }


_CARDS = """() => [...document.querySelectorAll('svg.board .checkers .checker-card')].map((g) => ({
  side: g.dataset.side, at: Number(g.dataset.at), mark: g.dataset.mark,
  count: g.querySelector('.count') ? Number(g.querySelector('.count').textContent) : null }))"""


@pytest.mark.parametrize("size", [{"width": 1280, "height": 720}, {"width": 390, "height": 844, "phone": True}])
def test_the_card_table_is_laid_out_as_the_rule_texts_say(browser: Any, server: ThreadedServer,
                                                          card_game: tuple[str, str],
                                                          size: dict[str, Any]) -> None:
    errors: list[str] = []
    page = _game_page(browser, server, card_game, errors, "cards", **size)
    page.wait_for_selector("svg.board.card-table")
    # Twelve face-down cards in a row, each marking a point on either side (24 in all), and one
    # card crosswise in the middle: the bar.
    marked = page.eval_on_selector_all("svg.board .card-row .point-card",
                                       "els => els.map(e => e.dataset.points)")
    assert len(marked) == 12
    points = sorted(int(p) for pair in marked for p in pair.split())
    assert points == list(range(1, 25))
    # One look at both (the board may be drawn again between two calls): the crosswise card's long
    # side runs the other way from the row's cards.
    boxes = page.evaluate("""() => ['.bar-card[data-crosswise=true] .back', '.point-card .back'].map((sel) => {
      const all = document.querySelectorAll(`svg.board .card-row ${sel}`);
      const r = all[0].getBoundingClientRect();
      return { n: all.length, wide: r.width > r.height };
    })""")
    assert boxes[0]["n"] == 1 and boxes[1]["n"] == 12
    assert boxes[0]["wide"] != boxes[1]["wide"]
    # The checkers are cards: per point as many as the state has (a stack over five shows the number
    # on its last card), fifteen a side with those borne off.
    state = httpx.get(f"{server.url}/api/games/{card_game[0]}",
                      headers={"Authorization": f"Bearer {card_game[1]}"}).json()
    cards = page.evaluate(_CARDS)
    expected = _expected(state)
    for side in ("mine", "theirs"):
        shown: dict[int, int] = {}
        for c in (c for c in cards if c["side"] == side):
            shown[c["at"]] = max(shown.get(c["at"], 0) + 1, c["count"] or 0)
        assert shown == expected[side], side
        off = state["board"]["off"][0 if side == "mine" else 1]
        assert sum(shown.values()) + off == CHECKERS
        assert page.locator(f"svg.board .off .off-card.{side}").count() == off
    # Card dice: two piles, each with the drawn card face up, ace to six, as the server drew them.
    drawn = page.eval_on_selector_all("svg.board .card-dice .card-die", "els => els.map(e => e.dataset.card)")
    assert drawn == state["fair_dice"]["cards"]
    assert [re.fullmatch(r"[A2-6][\u2660\u2665]", c) is not None for c in drawn] == [True, True]
    assert page.locator("svg.board .card-dice .card-die .pile-back").count() >= 2
    assert not errors, errors


def test_the_sides_differ_by_a_mark_that_is_not_colour(browser: Any, server: ThreadedServer,
                                                       card_game: tuple[str, str]) -> None:
    errors: list[str] = []
    page = _game_page(browser, server, card_game, errors, "classic")
    shapes = page.eval_on_selector_all(
        "svg.board .checkers .checker",
        "els => els.map(g => [g.dataset.side, g.dataset.mark, g.querySelector('.mark').tagName])")
    mine = {(m, tag) for side, m, tag in shapes if side == "mine"}
    theirs = {(m, tag) for side, m, tag in shapes if side == "theirs"}
    assert mine == {("ring", "circle")} and theirs == {("diamond", "polygon")}
    # Grey scale does not hide them: the marks are shapes, so a page without colour still tells them apart.
    page.select_option("#theme", "cards")
    page.wait_for_selector("svg.board.card-table")
    suits = page.eval_on_selector_all(
        "svg.board .checkers .checker-card",
        "els => els.map(g => [g.dataset.side, g.querySelector('.pip-suit, .count') && g.dataset.mark])")
    mine_suits = {m for side, m in suits if side == "mine"}
    theirs_suits = {m for side, m in suits if side == "theirs"}
    assert mine_suits <= {"\u2665", "\u2666"} and theirs_suits <= {"\u2660", "\u2663"}
    assert mine_suits and theirs_suits
    # Back to a wooden board on the same page: the card table's drawing goes with its theme.
    page.select_option("#theme", "dark")
    page.wait_for_function("!document.querySelector('svg.board').classList.contains('card-table')")
    assert page.locator("svg.board .checkers .checker .mark").count() > 0
    assert not errors, errors
