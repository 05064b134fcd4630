"""Every page a person reads, in Chromium, in Norwegian, Swedish, Danish and Polish: no English left.

One server holds a little of everything: two accounts who played a rated 1-point match (so the
leaderboard, the players' pages, the finished game's page with its result, fair-dice check and
analysis, and the match's review page have something to show), a game against the computer in
progress (after a roll, a play and the computer's answer: the status line, the strips, the
record, the fair-dice panel, the chat), a game waiting for a friend (the host's page and the
join page of the invitation), a public game (the start page's lobby) and a spectator's view.

Each page is opened in English and in each other language (the picker's ``gammon_lang``
cookie).  The check is word-level: a text node (or a placeholder, label or title, or the
document's title) that the other language shows exactly as the English page shows it, and that
holds a letter, fails, unless each of its words is a name (the players', the variants',
``gammon``), notation, a unit or an acronym, or the text is a translation the language's
catalog itself gives, its fields filled (a word the language shares with English: *Match*,
*Chat*, Danish *1 point*), or a language's name in the picker, or a link's address.
Nothing is left out: the analysis's explanations of the mistakes (``.why``) are worded in the
page's language too (the analysis keeps them as words, the server words them per request).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from functools import cache
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from accounts37_helpers import sign_up
from gammon.i18n import NAMES
from gammon.i18n.catalogs import TRANSLATED, fields, read_catalog
from gammon.web import Settings, create_app
from gammon.web.testing import ThreadedServer
from ratings37_helpers import new_match, resign_match
from webclient import TEST_SERVER
from webpages import COMPUTER_TURN_MS, SEED, TIMEOUT_MS

#: The people of these pages (their names may show in any language).
PLAYERS = ("Ingrid", "Oskar", "Halvard", "Marit", "Sigrun")
#: Words that are the same in every language: names, notation, units, acronyms, the file types.
ALLOWED = {
    "gammon", "backgammon", "nackgammon", "hypergammon", "acey", "deucey", "computer", "heuristic", "expert",
    "bar", "off", "memg", "emg", "pr", "fibs", "sgf", "json", "mat", "sha", "id", "ok", "s", "p", "pkt", "vs",
    *(name.lower() for name in PLAYERS),
}
#: What a person reads on the page: the title, the text nodes, and the placeholders, labels, titles, alts.
_TEXT = """() => {
  const found = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    if (text && !node.parentElement.closest('script, style, svg.board')) found.push(text);
  }
  for (const el of document.querySelectorAll('[placeholder], [aria-label], [title], img[alt]')) {
    for (const name of ['placeholder', 'aria-label', 'title', 'alt']) {
      if (el.getAttribute(name)) found.push(el.getAttribute(name));
    }
  }
  return found;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    db = tmp_path_factory.mktemp("i18n-pages") / "gammon.db"
    # public_url: the API helpers send the Origin "http://testserver" with their session cookies.
    settings = Settings(database_url=str(db), computer_delay=0.0, public_url="http://testserver", **TEST_SERVER)
    with ThreadedServer(create_app(settings)) as srv:
        yield srv


def _account(server: ThreadedServer, name: str) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=60)
    sign_up(client, name)
    return client


def _wait(api: httpx.Client, path: str, done: Any, token: str | None = None) -> dict[str, Any]:
    """GET ``path`` until ``done(answer)`` holds (the computer and the analysis work in the background)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    deadline = time.monotonic() + COMPUTER_TURN_MS / 1000
    while time.monotonic() < deadline:
        answer: dict[str, Any] = api.get(path, headers=headers).json()
        if done(answer):
            return answer
        time.sleep(0.1)
    raise AssertionError(f"{path} never got there")


def _computer_game(api: httpx.Client) -> tuple[str, str]:
    """A 3-point match against the computer after a roll, a play and the computer's turn: its id and token."""
    game = {"opponent": "computer", "name": PLAYERS[2], "computer_level": "heuristic", "match_length": 3,
            "test_seed": SEED}
    made = api.post("/api/games", json=game).json()
    gid, token = made["game_id"], made["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(20):  # the opening: roll until it is our move (or the computer's, then wait)
        st = _wait(api, f"/api/games/{gid}", lambda s: bool(s["allowed_actions"]), token)
        if st["phase"] == "move":
            break
        api.post(f"/api/games/{gid}/actions", headers=auth,
                 json={"type": "roll", "expected_version": st["version"]})
    play = st["legal_plays"][0]["notation"]
    api.post(f"/api/games/{gid}/actions", headers=auth,
             json={"type": "play", "play": play, "expected_version": st["version"]})
    _wait(api, f"/api/games/{gid}", lambda s: "roll" in s["allowed_actions"], token)
    return gid, token


@pytest.fixture(scope="module")
def pages(server: ThreadedServer) -> list[tuple[str, str, str]]:
    """Every page to compare: (URL, a selector that shows once it is drawn, an English text it shows)."""
    ingrid, oskar = _account(server, PLAYERS[0]), _account(server, PLAYERS[1])
    gid, tokens, seat = new_match(ingrid, oskar, match_length=1)
    resign_match(ingrid, gid, tokens, loser=1 - seat)
    anyone = httpx.Client(base_url=server.url, timeout=60)
    _wait(anyone, f"/api/games/{gid}/analysis", lambda a: a["status"] == "done")
    computer, computer_token = _computer_game(anyone)
    friend = anyone.post("/api/games", json={"opponent": "human", "name": PLAYERS[3], "match_length": 5,
                                             "clock_delay": 8, "clock_reserve": 300}).json()
    anyone.post("/api/games", json={"opponent": "human", "name": PLAYERS[4], "public": True})
    base = server.url
    return [
        (f"{base}/", "#lobby li", "Play the computer"),
        (f"{base}/game/{computer}#token={computer_token}", "#roll", "Record"),
        (f"{base}/watch/{computer}", "#record li.move", "Spectators’ chat"),
        (f"{base}/game/{gid}#token={tokens[seat]}", "#analysis[data-status=done]", "Fair dice"),
        (f"{base}/game/{friend['game_id']}#token={friend['token']}", "#cancel-game", "Invite your opponent"),
        (f"{base}/join/{friend['game_id']}#invite={friend['invite_token']}", "#join-button", "Join the game"),
        (f"{base}/join/{friend['game_id']}", "#join h2", "This invitation link is incomplete"),
        (f"{base}/players?min_experience=0", "table", "Leaderboard"),
        (f"{base}/players/{quote(PLAYERS[0])}", "svg.rating-graph", "Matches"),
        (f"{base}/players/Nobody", "h1", "No such player"),
        (f"{base}/rated", "#queue-join", "Find an opponent"),
        (f"{base}/review/{gid}", ".players-analysis", "Errors"),
    ]


@cache
def _catalog_words(language: str) -> tuple[frozenset[str], tuple[re.Pattern[str], ...]]:
    """Every translation ``language``'s catalog gives (each plural form too), and those with fields as
    patterns (a field matches anything; a template of fields and punctuation alone is left out)."""
    words: set[str] = set()
    patterns = []
    for message in read_catalog(language):
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        for text in (s for s in strings if s):
            words.add(text)
            if fields(text) and re.search(r"[^\W\d_]", re.sub(r"\{\w+\}", "", text)):
                parts = re.split(r"\{\w+\}", text)
                patterns.append(re.compile(".+".join(re.escape(part) for part in parts)))
    return frozenset(words), tuple(patterns)


def _allowed(text: str, language: str) -> bool:
    """Whether ``text``, shown alike in English and in ``language``, may be: no letters, only names,
    notation, units and acronyms, the language's own words for it (the catalog's translation, its
    fields filled), a language's name, or an address."""
    words, patterns = _catalog_words(language)
    if text in words or text in NAMES.values() or text.startswith("http://"):
        return True
    if any(p.fullmatch(text) for p in patterns):
        return True
    words = re.findall(r"[^\W\d_]+", text)
    return all(w.lower() in ALLOWED or re.fullmatch(r"[0-9a-f]+", w) for w in words)


def _texts(page: Any, url: str, ready: str) -> list[str]:
    page.goto("about:blank")
    page.goto(url)
    page.wait_for_selector(ready, state="attached", timeout=COMPUTER_TURN_MS)
    found: list[str] = page.evaluate(_TEXT)
    return found


@pytest.fixture(scope="module")
def tabs(browser: Any, server: ThreadedServer) -> Iterator[dict[str, Any]]:
    """One browser tab per language, the language chosen with the picker's cookie."""
    contexts, tabs = [], {}
    for language in ("en", *TRANSLATED):
        context = browser.new_context(bypass_csp=True, locale="en-US")
        context.add_cookies([{"name": "gammon_lang", "value": language, "url": server.url}])
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        tabs[language] = page
    yield tabs
    for context in contexts:
        context.close()


def test_no_page_shows_english_in_another_language(pages: list[tuple[str, str, str]],
                                                   tabs: dict[str, Any]) -> None:
    leftovers: list[str] = []
    for url, ready, english_text in pages:
        english = _texts(tabs["en"], url, ready)
        assert english_text in english, (url, english)
        for language in TRANSLATED:
            shown = _texts(tabs[language], url, ready)
            assert tabs[language].get_attribute("html", "lang") == language, url
            same = [text for text in shown if text in english and not _allowed(text, language)]
            leftovers += [f"{language} {url.split('#')[0]}: {text!r}" for text in dict.fromkeys(same)]
    assert leftovers == [], "\n".join(leftovers)


def test_the_check_sees_english() -> None:
    """The check itself: an English sentence and a page message left untranslated are caught,
    names, notation and the language's own words are not."""
    assert not _allowed("Roll to start", "nb") and not _allowed("Your turn: roll the dice.", "pl")
    assert not _allowed("Download:", "da")
    assert _allowed("Ingrid", "sv") and _allowed("24/18 13/11", "pl") and _allowed("bar/22*", "da")
    assert _allowed("Match", "sv") and _allowed("SGF", "nb") and _allowed("12 – 3", "pl")
    assert _allowed("3 point", "da") and not _allowed("3 points", "da") and _allowed("Polski", "nb")
