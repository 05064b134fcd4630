"""The browser page in five languages: the server names the language in the shell's
``<html lang>`` (the picker's ``gammon_lang`` cookie, else ``Accept-Language``), and the
page's scripts show the catalogs' words for it.

* over HTTP: the shell in English is the file itself, byte for byte; in another language it
  names it and carries its words; the cookie beats the header; a hostile cookie or header is
  ignored (English), never an error;
* in Chromium: the start page opened in each language shows none of the English page
  messages that the language translates differently (compared with the English rendering,
  which shows them), and the picker switches the language and remembers it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from gammon.i18n import translations
from gammon.i18n.page import page_messages
from gammon.web import Settings, create_app
from gammon.web.routes.pages import STATIC_DIR
from gammon.web.testing import ThreadedServer
from webclient import client_fixture

client = client_fixture("i18n38")
OTHERS = ("nb", "sv", "da", "pl")
#: Each language's header as a browser set to it sends it.
HEADERS = {"en": "en-US,en;q=0.9", "nb": "nb-NO,nb;q=0.9,no;q=0.8,en;q=0.5", "sv": "sv-SE,sv;q=0.9",
           "da": "da-DK,da;q=0.9,en;q=0.8", "pl": "pl-PL,pl;q=0.9,en-US;q=0.8"}


def test_the_english_shell_is_the_file_itself(client: TestClient) -> None:
    for headers in ({}, {"accept-language": HEADERS["en"]}, {"accept-language": "de-DE,fr;q=0.5"}):
        res = client.get("/", headers=headers)
        assert res.status_code == 200
        assert res.content == (STATIC_DIR / "index.html").read_bytes()


@pytest.mark.parametrize("language", OTHERS)
def test_the_shell_names_the_language_of_accept_language(client: TestClient, language: str) -> None:
    for path in ("/", "/game/abc", "/join/abc", "/watch/abc"):
        res = client.get(path, headers={"accept-language": HEADERS[language]})
        assert res.status_code == 200
        assert f'<html lang="{language}">' in res.text
        assert translations(language).gettext("Loading…") in res.text
        assert "Loading…" not in res.text
        assert "Content-Security-Policy" in res.headers


def test_the_pickers_cookie_beats_the_header(client: TestClient) -> None:
    res = client.get("/", headers={"accept-language": HEADERS["pl"], "cookie": "gammon_lang=sv"})
    assert '<html lang="sv">' in res.text
    res = client.get("/", headers={"accept-language": HEADERS["pl"], "cookie": "gammon_lang=en"})
    assert res.content == (STATIC_DIR / "index.html").read_bytes()


@pytest.mark.parametrize("cookie", ['"><script>alert(1)</script>', "x" * 5000, "de", "", "pl\x00"])
def test_a_hostile_cookie_or_header_is_ignored(client: TestClient, cookie: str) -> None:
    res = client.get("/", headers={"cookie": f"gammon_lang={cookie}", "accept-language": "q=;;,,,*" * 600})
    assert res.status_code == 200
    assert "<script>alert" not in res.text
    assert '<html lang="en">' in res.text or '<html lang="pl">' in res.text


# -- in Chromium ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    db = tmp_path_factory.mktemp("web-i18n") / "gammon.db"
    with ThreadedServer(create_app(Settings(database_url=str(db), computer_delay=0.0))) as srv:
        yield srv


_VISIBLE_TEXT = """() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    if (text) found.push(text);
  }
  for (const el of document.querySelectorAll('[placeholder], [aria-label], [title]')) {
    for (const name of ['placeholder', 'aria-label', 'title']) {
      if (el.getAttribute(name)) found.push(el.getAttribute(name));
    }
  }
  return found;
}"""


def _page_texts(browser: Any, url: str, language: str, ready: str, friend: bool = False) -> list[str]:
    """The visible texts (and placeholders, labels, titles) of the page at ``url`` in a browser set to
    ``language``, once ``ready`` shows."""
    locales = {"en": "en-US", "nb": "nb-NO", "sv": "sv-SE", "da": "da-DK", "pl": "pl-PL"}
    context = browser.new_context(locale=locales[language], bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector(ready)
        assert page.get_attribute("html", "lang") == language
        if friend:  # the start page's rows and words for a game with a friend too
            page.check("input[name=opponent][value=human]", force=True)
        texts: list[str] = page.evaluate(_VISIBLE_TEXT)
        return texts
    finally:
        context.close()


def _plain_messages() -> set[str]:
    """The page messages without fields: whole text nodes as they stand."""
    return {m for m, _file, _line in page_messages() if isinstance(m, str) and "{" not in m}


def _no_english(browser: Any, url: str, ready: str, expected: set[str], friend: bool = False) -> None:
    """The page at ``url`` shows ``expected`` (page messages) in English, and in every other
    language none of the English messages it shows that the language translates otherwise."""
    english = set(_page_texts(browser, url, "en", ready, friend))
    shown_in_english = _plain_messages() & english
    assert expected <= shown_in_english
    for language in OTHERS:
        texts = set(_page_texts(browser, url, language, ready, friend))
        catalog = translations(language)
        translated = {m for m in shown_in_english if catalog.gettext(m) != m}
        assert translated & texts == set(), language
        assert {catalog.gettext(m) for m in expected} <= texts, language


def test_the_start_page_shows_no_english_in_the_other_languages(server: ThreadedServer, browser: Any) -> None:
    _no_english(browser, f"{server.url}/", "#lobby h2",
                {"Play the computer", "Create the game and get a link", "New game", "Your name"}, friend=True)


def test_the_join_pages_show_no_english_in_the_other_languages(server: ThreadedServer, browser: Any) -> None:
    game = {"opponent": "human", "name": "Ann", "variant": "dutch", "clock_delay": 8, "clock_reserve": 180}
    created = httpx.post(f"{server.url}/api/games", json=game).json()
    invited = f"{server.url}/join/{created['game_id']}#invite={created['invite_token']}"
    _no_english(browser, invited, "#join-button", {"Join the game", "Invitation", "Your name"})
    _no_english(browser, f"{server.url}/join/{created['game_id']}", "#join h2",
                {"This invitation link is incomplete", "Watch the game"})


def test_the_waiting_game_page_shows_no_english_in_the_other_languages(server: ThreadedServer,
                                                                       browser: Any) -> None:
    created = httpx.post(f"{server.url}/api/games", json={"opponent": "human", "name": "Ann"}).json()
    seat = f"{server.url}/game/{created['game_id']}#token={created['token']}"
    _no_english(browser, seat, "#cancel-game",
                {"Invite your opponent", "Cancel this game", "Waiting for your opponent", "Spectators:",
                 "The game starts when they open the invitation."})


def test_the_picker_switches_the_language_and_remembers_it(server: ThreadedServer, browser: Any) -> None:
    context = browser.new_context(locale="en-US", bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/")
        page.wait_for_selector("#new-game")
        assert page.inner_text("#start") == "Play the computer"
        with page.expect_navigation():
            page.select_option("#language", "da")
        page.wait_for_selector("#new-game")
        assert page.get_attribute("html", "lang") == "da"
        assert page.inner_text("#start") == translations("da").gettext("Play the computer")
        page.goto(f"{server.url}/game/nosuchgame")  # another page, the same language
        assert page.get_attribute("html", "lang") == "da"
        cookies = {c["name"]: c["value"] for c in context.cookies()}
        assert cookies["gammon_lang"] == "da"
    finally:
        context.close()
