"""The chat of a game (issue 37), as players, spectators and attackers use it: a real server
(uvicorn in a thread, SQLite in a temporary file) and real WebSocket and HTTP clients.

Each defence has a test that scripts the attack: a spectator writing into the players' channel or
reading it, a seat reading the other's mute, markup coming back as anything but the same text,
over-long and hidden-character messages, chat leaking into exports, a token in a payload or a log.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from chat37_helpers import HOSTILE, Socket, bearer, new_human_game
from gammon.web import Settings, create_app
from gammon.web.ratelimit import RateLimits
from gammon.web.testing import ThreadedServer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    url = str(tmp_path_factory.mktemp("chat") / "gammon.db")
    settings = Settings(database_url=url, allow_test_seeds=True, rate_limits=RateLimits(enabled=False))
    with ThreadedServer(create_app(settings)) as s:
        yield s


def history(server: ThreadedServer, gid: str, token: str | None) -> list[dict[str, Any]]:
    r = httpx.get(f"{server.url}/api/games/{gid}/chat", headers=bearer(token))
    assert r.status_code == 200, r.text
    return list(r.json()["messages"])


def test_players_talk_and_spectators_do_not_hear_them(server: ThreadedServer) -> None:
    gid, t0, t1 = new_human_game(server)
    ann, bob, eve = Socket(server, gid, t0), Socket(server, gid, t1), Socket(server, gid)
    try:
        sent = ann.say("good luck", 1)
        assert sent["type"] == "chat_sent", sent
        assert bob.chats() == ["good luck"] and ann.chats() == ["good luck"]
        assert eve.chats() == [], "a spectator is never sent the players' channel"
        m = history(server, gid, t1)[0]
        assert (m["channel"], m["seat"], m["author"], m["text"]) == ("players", 0, "Ann", "good luck")
        assert history(server, gid, None) == [], "nor can it read it over REST"
    finally:
        for s in (ann, bob, eve):
            s.close()


def test_a_spectator_cannot_post_into_the_players_channel(server: ThreadedServer) -> None:
    gid, t0, t1 = new_human_game(server)
    bob, eve = Socket(server, gid, t1), Socket(server, gid)
    try:
        assert eve.say("resign now, Bob", 1)["type"] == "chat_sent"  # lands in the spectators' own
        r = httpx.post(f"{server.url}/api/games/{gid}/chat", json={"text": "me too"})
        assert r.status_code == 201 and r.json()["channel"] == "spectators"
        # A made-up token or the used invitation is refused, not treated as a spectator's or a seat's.
        r = httpx.post(f"{server.url}/api/games/{gid}/chat", json={"text": "hi"}, headers=bearer("x" * 43))
        assert r.status_code == 403
        assert bob.chats() == [], "players do not read the spectators by default"
        assert [m["channel"] for m in history(server, gid, t0)] == []
        assert [m["text"] for m in history(server, gid, None)] == ["resign now, Bob", "me too"]
        # Bob opts in: he now reads the spectators' channel (history and live), Ann still does not.
        r = httpx.put(f"{server.url}/api/games/{gid}/chat/settings", json={"spectators": True},
                      headers=bearer(t1))
        assert r.json() == {"muted": False, "spectators": True}
        eve.say("go Bob", 2)
        assert bob.chats() == ["go Bob"]
        assert [m["text"] for m in history(server, gid, t1)] == ["resign now, Bob", "me too", "go Bob"]
        assert history(server, gid, t0) == []
    finally:
        bob.close()
        eve.close()


def test_mute_stops_delivery_and_stays_private(server: ThreadedServer) -> None:
    gid, t0, t1 = new_human_game(server)
    ann, bob = Socket(server, gid, t0), Socket(server, gid, t1)
    try:
        ann.say("before", 1)
        r = httpx.put(f"{server.url}/api/games/{gid}/chat/settings", json={"muted": True}, headers=bearer(t1))
        assert r.status_code == 200 and r.json()["muted"] is True
        ann.say("after", 2)
        bob.say("bye", 3)
        assert bob.chats() == ["before", "bye"], "the muted seat's message is not delivered to the muter"
        assert ann.chats() == ["before", "after", "bye"], "the muter still talks"
        assert [m["text"] for m in history(server, gid, t1)] == ["bye"]
        # Ann cannot learn she is muted: her settings are hers, and there is no way to name a seat.
        mine = httpx.get(f"{server.url}/api/games/{gid}/chat/settings", headers=bearer(t0))
        assert mine.json() == {"muted": False, "spectators": False}
        for params in ({"seat": 1}, {"seat": "1"}):
            again = httpx.get(f"{server.url}/api/games/{gid}/chat/settings", params=params, headers=bearer(t0))
            assert again.json() == {"muted": False, "spectators": False}
        assert httpx.get(f"{server.url}/api/games/{gid}/chat/settings").status_code == 403
        r = httpx.put(f"{server.url}/api/games/{gid}/chat/settings", json={"muted": False, "seat": 1},
                      headers=bearer(t0))
        assert r.status_code == 422, "no seat can be named in a change"
        r = httpx.put(f"{server.url}/api/games/{gid}/chat/settings", json={"muted": False})
        assert r.status_code == 403
    finally:
        ann.close()
        bob.close()


def test_markup_comes_back_as_the_same_inert_text(server: ThreadedServer) -> None:
    gid, t0, t1 = new_human_game(server)
    bob = Socket(server, gid, t1)
    try:
        for i, payload in enumerate(HOSTILE):
            r = httpx.post(f"{server.url}/api/games/{gid}/chat", json={"text": payload}, headers=bearer(t0))
            assert r.status_code == 201 and r.headers["content-type"] == "application/json"
            assert r.json()["text"] == payload, i
        assert bob.chats() == HOSTILE
        assert [m["text"] for m in history(server, gid, t1)] == HOSTILE
    finally:
        bob.close()


def test_hidden_characters_are_removed_and_long_messages_refused(server: ThreadedServer) -> None:
    gid, t0, _ = new_human_game(server)
    ann = Socket(server, gid, t0)
    try:
        ann.say("gg \u202egnp.exe\u202c\u200b\n\tcafe\u0301", 1)
        assert ann.chats() == ["gg gnp.exe  caf\u00e9"]  # bidi override and zero-width gone, NFC
        for text, code in (("x" * 501, "chat_too_long"), ("\u202e\u200b \n", "chat_empty"),
                           ("e\u0301" * 501, None), ({"html": 1}, "invalid_request")):
            answer = ann.say(text, 2)
            if code is None:  # 1002 code points, 501 characters after NFC: still too long
                assert answer["error"]["code"] == "chat_too_long"
            else:
                assert answer["type"] == "error" and answer["error"]["code"] == code, answer
        assert ann.say("y" * 500, 3)["type"] == "chat_sent"
        r = httpx.post(f"{server.url}/api/games/{gid}/chat", json={"text": "z" * 501}, headers=bearer(t0))
        assert r.status_code == 422 and r.json()["error"]["code"] == "chat_too_long"
        r = httpx.post(f"{server.url}/api/games/{gid}/chat", json={"text": "z" * 10_000}, headers=bearer(t0))
        assert r.status_code == 422
        assert [len(m["text"]) for m in history(server, gid, t0)] == [16, 500]
    finally:
        ann.close()


def test_exports_carry_no_chat_unless_a_seat_asks(server: ThreadedServer) -> None:
    gid, t0, t1 = new_human_game(server)
    secret = "my secret 7f3a"
    assert httpx.post(f"{server.url}/api/games/{gid}/chat", json={"text": secret},
                      headers=bearer(t0)).status_code == 201
    for ext in ("mat", "sgf", "json"):
        r = httpx.get(f"{server.url}/api/games/{gid}/export.{ext}")
        assert r.status_code == 200 and secret not in r.text, ext
        r = httpx.get(f"{server.url}/api/games/{gid}/export.{ext}", headers=bearer(t1))
        assert secret not in r.text, ext
    r = httpx.get(f"{server.url}/api/games/{gid}/export.json", params={"chat": 1}, headers=bearer(t1))
    assert r.status_code == 200 and [m["text"] for m in r.json()["chat"]] == [secret]
    assert httpx.get(f"{server.url}/api/games/{gid}/export.json", params={"chat": 1}).status_code == 403
    r = httpx.get(f"{server.url}/api/games/{gid}/export.mat", params={"chat": 1}, headers=bearer(t1))
    assert r.status_code == 422 and r.json()["error"]["code"] == "unsupported_export"


def test_no_token_in_chat_payloads_or_logs(server: ThreadedServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    gid, t0, t1 = new_human_game(server)
    ann, bob = Socket(server, gid, t0), Socket(server, gid, t1)
    try:
        ann.say(f"my token is not {t0[:5]}", 1)
        bob.say("hello", 2)
        httpx.post(f"{server.url}/api/games/{gid}/chat", json={"text": "x" * 600}, headers=bearer(t0))
        httpx.put(f"{server.url}/api/games/{gid}/chat/settings", json={"muted": True}, headers=bearer(t1))
        texts = [str(m) for m in ann.seen + bob.seen if m["type"] in ("chat", "chat_sent", "error")]
        texts += [str(history(server, gid, t)) for t in (t0, t1)]
        assert texts and not [t for t in texts if t0 in t or t1 in t]
        # The server's loggers (this test's own clients log what they send, the token included).
        logged = "\n".join(r.getMessage() for r in caplog.records if r.name.split(".")[0] in (
            "gammon", "uvicorn", "fastapi", "starlette", "sqlalchemy"))
        assert t0 not in logged and t1 not in logged
    finally:
        ann.close()
        bob.close()


def test_an_invitation_is_not_a_seat_in_the_chat(server: ThreadedServer) -> None:
    d = httpx.post(f"{server.url}/api/games", json={"opponent": "human", "name": "Ann"}).json()
    gid, invite = d["game_id"], d["invite_token"]
    assert httpx.post(f"{server.url}/api/games/{gid}/chat", json={"text": "private"},
                      headers=bearer(d["token"])).status_code == 201
    for token in (invite, invite[:-1], "x" * 300):
        assert httpx.get(f"{server.url}/api/games/{gid}/chat", headers=bearer(token)).status_code == 403
        r = httpx.post(f"{server.url}/api/games/{gid}/chat", json={"text": "hi"}, headers=bearer(token))
        assert r.status_code == 403
    assert httpx.get(f"{server.url}/api/games/nosuchgame/chat").status_code == 404
