"""The rules pages (issue 38): one per variant of core's registry and one per option, in the reader's language.

What is checked, from the requirement:

* every variant of :data:`gammon.core.variants.VARIANTS` has a page in every language, which names
  that language in ``<html lang>``, carries the board page's security headers, and states the facts
  core holds for the variant (how many checkers, where they start, the bar or the pool, the cube),
  read here from core, not written again;
* the language is the picker's cookie, else ``Accept-Language``;
* an unknown name is a 404 page in the reader's language, with the name escaped; an alias leads to
  the variant's one address;
* the game's settings in the query list the options core applies (the Jacoby rule and beavers only
  in money play, the opening reroll where the variant uses it by default);
* "back to the game" leads only to a game's page on this site;
* in Chromium, the game page's header links to its own variant's rules with its settings.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
import pytest
from fastapi.testclient import TestClient

from gammon.core.variants import VARIANTS, Variant
from gammon.i18n import LANGUAGES, translations
from gammon.web import Settings, create_app
from gammon.web.routes.pages import PAGE_HEADERS
from gammon.web.rules_options_text import OPTION_TOPICS
from gammon.web.testing import ThreadedServer
from webclient import client_fixture

client = client_fixture("rules38")
HEADERS = {"en": "en-GB,en;q=0.9", "nb": "nb-NO,nb;q=0.9,en;q=0.5", "sv": "sv-SE,sv;q=0.9",
           "da": "da-DK,da;q=0.9", "pl": "pl-PL,pl;q=0.9,en;q=0.5"}


def words(language: str, english: str) -> str:
    """``english`` as the catalogs give it in ``language``."""
    return translations(language).gettext(english)


def start_items(page: str) -> list[str]:
    """The plain text of each item of the page's start-position list."""
    found = re.search(r'<ul class="start">(.*?)</ul>', page, re.S)
    assert found, "no start-position list"
    items = re.findall(r"<li>(.*?)</li>", found.group(1), re.S)
    return [unescape(re.sub(r"<[^>]+>", "", item)) for item in items]


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def get(client: TestClient, path: str, language: str, **kwargs: Any) -> httpx.Response:
    return client.get(path, headers={"accept-language": HEADERS[language]}, **kwargs)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", list(VARIANTS))
def test_each_variant_has_a_page_in_each_language(client: TestClient, name: str, language: str) -> None:
    variant: Variant = VARIANTS[name]
    res = get(client, f"/rules/{name}", language)
    assert res.status_code == 200
    page = res.text
    assert f'<html lang="{language}">' in page
    for header, value in PAGE_HEADERS.items():
        assert res.headers[header] == value
    assert f"<h2>{words(language, 'Start position')}</h2>" in page
    items = start_items(page)
    # How many checkers each player has, as core says.
    assert numbers(items[0]) == [variant.checkers]
    # Every point core starts a checker on, with its count; no other point is named.
    on_board = {(point, variant.start[point - 1]) for point in range(1, 25) if variant.start[point - 1]}
    named = {(n[1], n[0]) for n in map(numbers, items[1:]) if len(n) == 2}
    assert named == on_board
    # Checkers that start off the board: the count, in the pool (Acey-Deucey) or on the bar.
    if variant.start[24]:
        place = "in the pool" if variant.starts_in_pool else "on the bar"
        waiting = [i for i in items if numbers(i) == [variant.start[24]] and i != items[0]]
        assert len(waiting) == 1
        english = translations(language).ngettext(f"{{count}} checker starts off the board, {place}.",
                                                  f"{{count}} checkers start off the board, {place}.",
                                                  variant.start[24])
        assert waiting[0] == english.format(count=variant.start[24])
    cube = "The doubling cube is used." if variant.cube else "There is no doubling cube."
    assert words(language, cube) in items
    # The diagram draws core's start for both sides: up to five checkers a point (more carry their count),
    # and those waiting off the board as one checker with their count in the bar.
    svg = re.search(r"<svg.*?</svg>", page, re.S)
    assert svg and 'role="img"' in svg.group(0)
    drawn = sum(min(c, 5) for c in variant.start[:24]) + (1 if variant.start[24] else 0)
    assert svg.group(0).count("<circle") == 2 * drawn
    for count in {c for c in variant.start if c > 5} | ({variant.start[24]} if variant.start[24] else set()):
        assert f">{count}</text>" in svg.group(0)


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_option_has_a_page_in_each_language(client: TestClient, language: str) -> None:
    for slug, topic in OPTION_TOPICS.items():
        res = get(client, f"/rules/option/{slug}", language)
        assert res.status_code == 200
        assert f'<html lang="{language}">' in res.text
        assert f"<h1>{words(language, topic.title)}</h1>" in res.text
        assert res.headers["content-security-policy"] == PAGE_HEADERS["Content-Security-Policy"]


def test_the_pages_are_translated(client: TestClient) -> None:
    """Every paragraph of a page is in the reader's language: no English heading is left on a Polish page."""
    english = get(client, "/rules/standard", "en").text
    polish = get(client, "/rules/standard", "pl").text
    headings = re.findall(r"<h2>(.*?)</h2>", english)
    assert len(headings) >= 8
    for heading in headings:
        assert f"<h2>{heading}</h2>" not in polish
        assert f"<h2>{words('pl', unescape(heading))}</h2>" in polish


def test_the_index_links_every_variant_and_option(client: TestClient) -> None:
    page = get(client, "/rules", "sv").text
    assert '<html lang="sv">' in page
    for name in VARIANTS:
        assert f'href="/rules/{name}"' in page
    for slug in OPTION_TOPICS:
        assert f'href="/rules/option/{slug}"' in page
    head = client.head("/rules/standard")
    assert head.status_code == 200 and "Accept-Language" in head.headers["vary"]


def test_the_cookie_beats_accept_language(client: TestClient) -> None:
    client.cookies.set("gammon_lang", "da")
    try:
        page = get(client, "/rules/dutch", "pl").text
    finally:
        client.cookies.clear()
    assert '<html lang="da">' in page
    assert words("da", "Start position") in page


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_unknown_variant_is_a_404_page_in_the_language(client: TestClient, language: str) -> None:
    res = get(client, "/rules/chess", language)
    assert res.status_code == 404
    assert f'<html lang="{language}">' in res.text
    assert words(language, "No such rules page") in res.text
    assert "chess" in res.text
    assert get(client, "/rules/option/chess", language).status_code == 404


def test_a_hostile_name_is_escaped(client: TestClient) -> None:
    res = client.get("/rules/%3Cimg src=x onerror=alert(1)%3E")
    assert res.status_code == 404
    assert "<img" not in res.text and "&lt;img src=x onerror=alert(1)&gt;" in res.text
    long = client.get("/rules/" + "x" * 5000)
    assert long.status_code == 404 and "x" * 41 not in long.text and "x" * 40 in long.text


def test_an_alias_leads_to_the_variants_address(client: TestClient) -> None:
    res = client.get("/rules/nack?jacoby=true", follow_redirects=False)
    assert res.status_code == 308
    assert res.headers["location"] == "/rules/nackgammon?jacoby=true"


def this_game(page: str) -> str:
    found = re.search(r'<section class="this-game">(.*?)</section>', page, re.S)
    assert found, "no section on this game"
    return found.group(1)


def test_the_games_settings_list_the_options_core_applies(client: TestClient) -> None:
    money = this_game(client.get("/rules/standard?match_length=0&jacoby=true&beavers=true").text)
    assert 'href="/rules/option/jacoby"' in money and 'href="/rules/option/beavers"' in money
    assert 'href="/rules/option/opening-reroll"' not in money
    # The Jacoby rule and beavers are money-play customs: a match leaves them out.
    match = this_game(client.get("/rules/standard?match_length=5&jacoby=true&beavers=true").text)
    assert "jacoby" not in match and "beavers" not in match
    assert "5" in match
    # Without the cube the Jacoby rule still counts every gammon single (the cube never leaves the middle).
    uncubed = this_game(client.get("/rules/standard?match_length=0&jacoby=true&beavers=true&cube=false").text)
    assert "option/jacoby" in uncubed and "option/beavers" not in uncubed
    # Dutch backgammon rerolls the opening by default; a game may choose otherwise.
    assert "opening-reroll" in this_game(client.get("/rules/dutch?match_length=0").text)
    assert "opening-reroll" not in this_game(
        client.get("/rules/dutch?match_length=0&opening=use-opening-dice").text)
    no_gammons = this_game(client.get("/rules/standard?match_length=3&gammons=false").text)
    assert 'href="/rules/option/no-gammons"' in no_gammons
    # A setting core refuses (a cube limit that is not a power of two) is said to be invalid.
    assert 'class="error"' in client.get("/rules/standard?cube_limit=3").text
    assert 'class="this-game"' not in client.get("/rules/standard").text


def test_back_to_the_game_leads_only_to_a_games_page(client: TestClient) -> None:
    assert 'href="/game/AbC_-1"' in client.get("/rules/standard?back=/game/AbC_-1").text
    assert 'href="/watch/xyz"' in client.get("/rules/option/jacoby?back=/watch/xyz").text
    for hostile in ("https://evil.example/game/x", "//evil.example/game/x", "/game/x?y=1", "/players/x"):
        page = client.get("/rules/standard", params={"back": hostile}).text
        assert 'class="back"' not in page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    app = create_app(Settings(database_url=str(tmp_path_factory.mktemp("rules38-page") / "gammon.db")))
    with ThreadedServer(app) as srv:
        yield srv


def test_the_game_header_links_to_its_variants_rules(server: ThreadedServer, browser: Any) -> None:
    created = httpx.post(f"{server.url}/api/games", json={
        "opponent": "human", "variant": "nack", "match_length": 0, "jacoby": True, "beavers": True}).json()
    context = browser.new_context(bypass_csp=True, extra_http_headers={"accept-language": HEADERS["nb"]})
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/game/{created['game_id']}#token={created['token']}")
    link = page.wait_for_selector('a.rules-link[href^="/rules/nackgammon?"]')
    assert link.inner_text() == words("nb", "these rules")
    href = link.get_attribute("href")
    query = parse_qs(urlparse(href).query)
    assert query["jacoby"] == ["true"] and query["beavers"] == ["true"] and query["match_length"] == ["0"]
    assert query["back"] == [f"/game/{created['game_id']}"]
    page.goto(server.url + href)
    assert page.inner_text("h1") == "Nackgammon"
    assert page.get_attribute("html", "lang") == "nb"
    listed = page.inner_text(".this-game")
    assert words("nb", "Jacoby rule") in listed and words("nb", "Beavers") in listed
    page.click("a.back")
    page.wait_for_selector('a.rules-link[href^="/rules/nackgammon?"]')
    assert not errors, errors
