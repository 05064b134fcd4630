"""Shared helpers of the chat tests (tests/test_chat37_*.py): a real server, games with two seats,
and sockets that keep every message they were sent."""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

import httpx
from websockets.sync.client import ClientConnection

import webclient
from gammon.web.testing import ThreadedServer, connect_game

TIMEOUT = 15.0

#: Payloads an attacker would send hoping the page runs them.
HOSTILE = ['<script>window.__pwned = 1</script>',
           '<img src=x onerror="window.__pwned = 2">',
           '<a href="javascript:window.__pwned = 3">click</a>',
           '"><svg onload=window.__pwned=4>',
           "{{7*7}} ${7*7} &lt;b&gt;"]


def bearer(token: str | None) -> dict[str, str]:
    """A seat's Authorization header; none for a spectator (``token`` None)."""
    return webclient.bearer(token) if token else {}


def new_human_game(server: ThreadedServer, **body: Any) -> tuple[str, str, str]:
    """A game between two people: its id and both seats' tokens."""
    d = httpx.post(f"{server.url}/api/games", json={"opponent": "human", "name": "Ann", **body}).json()
    r = httpx.post(f"{server.url}/api/games/{d['game_id']}/join", headers=bearer(d["invite_token"]),
                   json={"name": "Bob"})
    assert r.status_code == 200, r.text
    return d["game_id"], d["token"], r.json()["token"]


class Socket:
    """A client on a game's socket that keeps every message it was sent, in order."""

    def __init__(self, server: ThreadedServer, game_id: str, token: str | None = None) -> None:
        self._stack = ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(
            connect_game(f"{server.ws_url}/api/games/{game_id}/ws", token, open_timeout=TIMEOUT))
        self.seen: list[dict[str, Any]] = []
        hello = self.recv()
        assert hello["type"] == "hello", hello
        self.you = hello["you"]

    def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        raw = self.ws.recv(timeout=timeout)
        message: dict[str, Any] = json.loads(raw)
        self.seen.append(message)
        return message

    def until(self, kind: str, rid: Any = None) -> dict[str, Any]:
        """The next message of ``kind`` (with ``request_id`` ``rid`` when given), the others kept."""
        while True:
            m = self.recv()
            if (m["type"] == kind or (kind != "error" and m["type"] == "error")) and (
                    rid is None or m.get("request_id") == rid):
                return m

    def say(self, text: Any, rid: int) -> dict[str, Any]:
        """Send a chat message; the answer (``chat_sent`` or ``error``)."""
        self.ws.send(json.dumps({"type": "chat", "request_id": rid, "text": text}))
        return self.until("chat_sent", rid)

    def chats(self) -> list[str]:
        """The texts of the chat messages this socket was sent so far, after a round trip (the state
        asked for now comes after everything queued for this socket before it)."""
        self.ws.send(json.dumps({"type": "state", "request_id": "sync"}))
        self.until("state")
        return [m["message"]["text"] for m in self.seen if m["type"] == "chat"]

    def close(self) -> None:
        self._stack.close()
