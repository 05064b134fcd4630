"""No seat token or invitation in any URL the server sees or any line it logs.

Before, uvicorn logged each WebSocket handshake at INFO, ``"WebSocket
/api/games/<id>/ws?token=<seat token>" [accepted]``, even with the access log off, and a
token read from the log rolled the dice for that seat.  Now the socket takes the token in
its first message, invitations ride in the join page's URL fragment, a token in a URL is
refused, and every log line passes through a redactor as a second line of defence.

The games here run against a real server process logging at INFO with the access log on
(every request line written), as an operator debugging it would run it.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from gammon.web.logs import REDACTED, RedactingFormatter, redact
from gammon.web.testing import ServerProcess, connect_game, pick_action
from webclient import bearer
from webpages import act_once, new_page, settled, start_game, version

TIMEOUT = 60.0  # generous: only a broken server waits it out; a busy machine answers late


@pytest.fixture()
def logged_server(tmp_path: Path) -> Iterator[tuple[ServerProcess, Path]]:
    log = tmp_path / "server.log"
    with ServerProcess(str(tmp_path / "gammon.db"), log_path=log, log_level="info", args=["--access-log"]) as s:
        yield s, log


def read_log(log: Path) -> str:
    text = log.read_text(errors="replace")
    assert "/api/games" in text, "the access log was on: every request line is in it"
    return text


def test_the_redactor_blots_out_every_token_shape() -> None:
    token = secrets.token_urlsafe(32)
    for line in (f'"GET /api/games/abc/ws?token={token}" [accepted]', f"Authorization: Bearer {token}",
                 f'< TEXT \'{{"type": "auth", "token": "{token}"}}\'', f"/join/abc#invite={token}",
                 "GET /x?session=abc&password=hunter2&token=short", f"a bare {token} in a message"):
        cleaned = redact(line)
        assert token not in cleaned and REDACTED in cleaned, cleaned
        assert "hunter2" not in cleaned and "token=short" not in cleaned
    assert redact("GET /api/games/abc123/actions HTTP/1.1 200") == "GET /api/games/abc123/actions HTTP/1.1 200"
    try:
        raise ValueError(f"bad token {token}")
    except ValueError:
        record = logging.LogRecord("t", logging.ERROR, __file__, 1, "failed: %s", (token,), exc_info=True)
        import sys
        record.exc_info = sys.exc_info()
    assert token not in RedactingFormatter().format(record)  # the message and the traceback


def test_a_game_over_rest_and_sockets_logs_no_token(logged_server: tuple[ServerProcess, Path]) -> None:
    server, log = logged_server
    with httpx.Client(base_url=server.url, timeout=TIMEOUT) as client:
        created = client.post("/api/games", json={"opponent": "human", "variant": "hypergammon",
                                                  "cube": False, "test_seed": "ab" * 32}).json()
        gid, invite = created["game_id"], created["invite_token"]
        joined = client.post(f"/api/games/{gid}/join", headers=bearer(invite)).json()
        tokens = [created["token"], joined["token"]]
        # A careless client puts a token in the URL: it is refused, and the log still never shows it.
        assert client.get(f"/api/games/{gid}?token={tokens[0]}").status_code == 422
        ws_url = f"{server.ws_url}/api/games/{gid}/ws"
        with connect_game(ws_url, tokens[0], open_timeout=TIMEOUT) as p0, \
                connect_game(ws_url, tokens[1], open_timeout=TIMEOUT) as p1, \
                connect_game(ws_url, None, open_timeout=TIMEOUT) as watcher:
            hello = [json.loads(ws.recv(timeout=TIMEOUT)) for ws in (p0, p1, watcher)]
            assert [h["type"] for h in hello] == ["hello"] * 3 and [h["you"] for h in hello] == [0, 1, None]
            sockets = {0: p0, 1: p1}
            for rid in range(1, 400):
                st = client.get(f"/api/games/{gid}", headers=bearer(tokens[0])).json()
                if st["status"] == "finished":
                    break
                seat = st["to_act"] if st["to_act"] is not None else 0
                mine = client.get(f"/api/games/{gid}",
                                  headers=bearer(tokens[seat])).json()
                action = pick_action(mine)
                assert action is not None, mine
                sockets[seat].send(json.dumps({"type": "act", "request_id": rid, "action": action}))
                while (m := json.loads(sockets[seat].recv(timeout=TIMEOUT))).get("request_id") != rid:
                    pass
                assert m["type"] == "result", m
            else:
                pytest.fail("the game did not end")
    text = read_log(log)
    assert "WebSocket /api/games/" in text  # the handshakes were logged: with no token in them
    for secret in (*tokens, invite):
        assert secret not in text
    # The only token-shaped text that ever reached the log was the careless client's URL.
    assert text.count(REDACTED) == 1, [line for line in text.splitlines() if REDACTED in line]


def test_a_browser_game_shows_no_token_to_any_url_or_log_line(logged_server: tuple[ServerProcess, Path],
                                                             browser: Any) -> None:  # noqa: F811
    server, log = logged_server
    errors: list[str] = []
    urls: list[str] = []
    ann = new_page(browser, errors)
    start_game(ann, server.url, variant="hypergammon1", opponent="human", seed="c3" * 32)
    ann.wait_for_selector("#share")
    invite_link = ann.input_value("#invite-link")
    watch_link = ann.input_value("#watch-link")
    ann.click("#go-to-game")
    ann.wait_for_url("**/game/**")
    bob = new_page(browser, errors, width=390, height=844)
    spectator = new_page(browser, errors)
    for page in (ann, bob, spectator):
        page.on("request", lambda r: urls.append(r.url))
        page.on("websocket", lambda ws: urls.append(ws.url))
    bob.goto(invite_link)
    bob.fill("#join-name", "Bob")
    bob.click("#join-button")
    bob.wait_for_url("**/game/**")
    spectator.goto(watch_link)
    spectator.wait_for_selector(".strip.me")
    ann.wait_for_selector("#roll")
    steps = 0
    while True:
        settled(ann, bob)
        if ann.locator("#result-line").count() and bob.locator("#result-line").count():
            break
        mover = next((p for p in (ann, bob) if p.locator("#roll, #take, #accept, #confirm").count()), None)
        assert mover is not None, "neither page offers an action"
        act_once(mover)
        steps += 1
        assert steps < 200
    spectator.wait_for_function(f"document.getElementById('app').dataset.version === '{version(ann)}'")
    secrets_seen = [re.search(r"#invite=([^&]+)", invite_link).group(1)]  # type: ignore[union-attr]
    for page in (ann, bob):
        stored = page.evaluate("Object.entries(localStorage).filter(([k]) => k.startsWith('gammon:token:'))"
                               ".map(([, v]) => v)")
        assert stored, "the page keeps its seat token in this browser"
        secrets_seen += stored
    assert len(set(secrets_seen)) == 3
    # What the browsers sent: the fragment after '#' is never part of a request, so it is cut off here.
    sent = [u.split("#", 1)[0] for u in urls]
    assert any("/ws" in u for u in sent) and any("/api/games/" in u for u in sent)
    text = read_log(log)
    for secret in secrets_seen:
        assert not any(secret in u for u in sent), secret
        assert secret not in text
    assert REDACTED not in text  # nothing token-shaped ever reached the log, not even to be blotted out
    assert not errors, errors
