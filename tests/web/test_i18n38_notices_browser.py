"""A refused step explained in the page's language (issue 38), in Chromium.

When a player tries a step the tree does not hold, the page shows its own plain words at once
(moves.js) and asks the server why; the server's answer is gammon.core's rule, worded at the
web edge in the request's language (:mod:`gammon.web.step_words`).  In Polish both must be
Polish: the server's sentence is the catalog's for core's code and numbers, and the page's own
words (seen here with the server's answer cut off) come from the page's catalog.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from gammon.core.position import Position, StepReason
from gammon.i18n.catalogs import read_catalog
from gammon.web.step_words import refusal_text
from gammon.web.testing import ThreadedServer
from webpages import ACTION_BUTTONS, Page, act_once, drag, new_page, points_of, serve, start_game

#: English words a Polish notice never holds.
ENGLISH = re.compile(r"\b(the|your|you|checker|point|roll|legal|dice|die|left|highlighted|no)\b", re.IGNORECASE)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    yield from serve(tmp_path_factory, "notices")


def _polish_game(server: ThreadedServer, browser: Any, errors: list[str]) -> Page:
    """A game against the computer in Polish, with a roll of ours to play."""
    page = new_page(browser, errors)
    page.context.add_cookies([{"name": "gammon_lang", "value": "pl", "url": server.url}])
    start_game(page, server.url, variant="standard", seed="3c" * 32)
    for _ in range(10):
        page.wait_for_selector(ACTION_BUTTONS)
        if page.locator("#confirm").count():
            return page
        act_once(page)
    raise AssertionError("no roll of ours to play")


def test_the_servers_reason_is_polish(server: ThreadedServer, browser: Any) -> None:
    errors: list[str] = []
    page = _polish_game(server, browser, errors)
    game_id = page.url.split("/game/")[1].split("#")[0]
    dice = tuple(httpx.get(f"{server.url}/api/games/{game_id}").json()["dice"])
    tree = Position.from_position_id(page.get_attribute("#app", "data-position") or "").step_tree(dice)
    tries = [(r.reason is not StepReason.BLOCKED, src, dst, r)
             for src in sorted(points_of(page, ".hit.movable")) for dst in [*range(src - 1, 0, -1), 0]
             if (r := tree.refusal(0, src, dst)) is not None]
    _, src, dst, refusal = min(tries, key=lambda t: t[:3])
    drag(page, src, dst)
    page.wait_for_function("(r) => document.getElementById('notice').dataset.reason === r",
                           arg=refusal.reason.value)
    polish = refusal_text(refusal, "pl")
    assert page.inner_text("#notice").strip() == polish[0].upper() + polish[1:] + "."
    assert not ENGLISH.search(polish) and polish != refusal.message
    assert not errors, errors


def test_the_pages_own_words_are_polish(server: ThreadedServer, browser: Any) -> None:
    errors: list[str] = []
    page = _polish_game(server, browser, errors)
    page.route("**/why-not", lambda route: route.abort())  # the server cannot say: the page's words stay
    polish = {m.id if isinstance(m.id, str) else m.id[0]: m.string for m in read_catalog("pl") if m.id}
    movable = points_of(page, ".hit.movable")
    # A point whose checker cannot move (or with none of ours), then a checker that can move and a
    # point it cannot reach.
    stuck = next(p for p in range(1, 25) if p not in movable)
    page.click(f".hit[data-point='{stuck}']")
    said = [page.inner_text("#notice").strip()]
    src = min(movable)
    drag(page, src, src)
    dests = points_of(page, ".hit.dest")
    wrong = next(p for p in [*range(24, 0, -1), 0] if p not in dests and p != src and p not in movable)
    page.click(f".hit[data-point='{wrong}']")
    said.append(page.inner_text("#notice").strip())
    for text in said:
        assert text and not ENGLISH.search(text), text
    assert said[0] in {polish["You have no checker there."], polish["That is your opponent's checker."]} or \
        said[0].startswith("Żaden dozwolony ruch"), said[0]
    assert said[1].startswith("Żaden dozwolony ruch"), said[1]
    errors[:] = [e for e in errors if "why-not" not in e and "ERR_FAILED" not in e]  # the aborted requests
    assert not errors, errors
