"""The browser page's server side, without a browser: pages, static files, hints.

(The after-game analysis: tests/test_server_analysis.py.)

(The page itself is tested in Chromium by tests/test_web_browser.py.)
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from gammon.web import hints as hints_module
from gammon.web.routes.pages import STATIC_DIR
from gammon.web.testing import pick_action
from webclient import TEST_SERVER, TestClient, bearer, client_fixture

SEED = "42" * 32


client = client_fixture("pages", **TEST_SERVER)


def computer_game(c: TestClient, **body: Any) -> tuple[str, str]:
    r = c.post("/api/games", json={"opponent": "computer", "test_seed": SEED, **body})
    assert r.status_code == 201, r.text
    return r.json()["game_id"], r.json()["token"]


def until_my_move(c: TestClient, gid: str, token: str) -> dict[str, Any]:
    """Roll (and take doubles) until the seat has a roll to play."""
    for _ in range(200):
        st = c.get(f"/api/games/{gid}", headers=bearer(token)).json()
        if "play" in st["allowed_actions"]:
            return dict(st)
        action = pick_action(st)
        if action is None:
            time.sleep(0.01)
            continue
        r = c.post(f"/api/games/{gid}/actions", json=action, headers=bearer(token))
        assert r.status_code == 200, r.text
    raise AssertionError("never my move")


@pytest.mark.parametrize("path", ["/", "/game/abc", "/join/abc", "/watch/abc"])
def test_every_page_url_serves_the_page_with_a_strict_policy(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/js/main.js">' in r.text
    csp = r.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    assert r.headers["referrer-policy"] == "no-referrer"


def test_static_files_are_served_and_self_contained(client: TestClient) -> None:
    names = sorted(p.relative_to(STATIC_DIR).as_posix() for p in STATIC_DIR.rglob("*") if p.is_file())
    needed = {"index.html", "css/gammon.css", "js/main.js", "js/board.js", "js/moves.js", "js/game.js"}
    assert needed <= set(names)
    for name in names:
        r = client.get(f"/static/{name}")
        assert r.status_code == 200, name
        # Nothing is fetched from elsewhere at run time: no CDN, no web fonts.
        assert "http://" not in r.text.replace("http://www.w3.org/", ""), name
        assert "https://" not in r.text, name
    assert client.get("/static/js/main.js").headers["content-type"].startswith(("text/javascript",
                                                                               "application/javascript"))
    assert client.get("/static/nothing.js").status_code == 404


def test_the_page_takes_the_level_words_from_the_server(client: TestClient) -> None:
    """The start page lists the levels /api/info sends, with their words; it keeps no copy of its own."""
    from gammon.play.levels import COMPUTER_LEVELS

    info = client.get("/api/info").json()
    assert info["computer_levels"] == list(COMPUTER_LEVELS)
    assert info["levels"] == [{"name": lv.name, "title": lv.title, "description": lv.description}
                              for lv in COMPUTER_LEVELS.values()]
    page = client.get("/static/js/start.js").text
    assert "info.levels" in page
    for level in COMPUTER_LEVELS.values():
        assert level.title not in page and level.description not in page, level.name


def test_pages_stay_out_of_the_api_schema(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert "/" not in paths and "/game/{game_id}" not in paths
    assert "/api/games/{game_id}/hint" in paths and "/api/games/{game_id}/analysis" in paths


def test_hint_ranks_the_plays_of_my_roll(client: TestClient) -> None:
    gid, token = computer_game(client)
    r = client.get(f"/api/games/{gid}/hint", headers=bearer(token))
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_hint"  # nothing rolled yet
    assert client.get(f"/api/games/{gid}/hint").status_code == 403
    assert client.get(f"/api/games/{gid}/hint", headers=bearer("nope")).status_code == 403
    st = until_my_move(client, gid, token)
    r = client.get(f"/api/games/{gid}/hint?count=3", headers=bearer(token))
    assert r.status_code == 200, r.text
    hint = r.json()
    legal = {p["notation"] for p in st["legal_plays"]}
    assert hint["dice"] == st["dice"] and hint["version"] == st["version"]
    assert 1 <= len(hint["plays"]) <= 3
    assert {p["notation"] for p in hint["plays"]} <= legal
    # The shipped weights load: the neural engine ranks (the fallback has its own test below).
    assert hint["engine"] == "gammon.ai expert (0-ply)"  # the computer's level (the default, expert)
    diffs = [p["difference"] for p in hint["plays"]]
    assert diffs[0] == 0 and diffs == sorted(diffs, reverse=True)
    assert all(p["equity"] is not None for p in hint["plays"])
    # A token in the URL is refused (URLs end up in logs), even a valid one.
    assert client.get(f"/api/games/{gid}/hint?token={token}").status_code == 422
    assert client.get(f"/api/games/{gid}/hint?count=0", headers=bearer(token)).status_code == 422


def test_hint_falls_back_to_the_heuristic(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def unavailable(level: str) -> object:
        raise ImportError("as if gammon.ai could not be imported")

    service = client.app.state.service  # type: ignore[attr-defined]
    monkeypatch.setattr(service, "hint_engines", hints_module.HintEngines(unavailable))
    gid, token = computer_game(client, variant="hypergammon")
    st = until_my_move(client, gid, token)
    hint = client.get(f"/api/games/{gid}/hint?count=50", headers=bearer(token)).json()
    assert hint["engine"] == "heuristic"
    assert sorted(p["notation"] for p in hint["plays"]) == sorted(p["notation"] for p in st["legal_plays"])
    assert all(p["equity"] is None for p in hint["plays"])

