"""Chat floods, as an attacker sends them (issue 37): the ``chat`` rate per seat and per address,
and the bound on the messages one game holds.  A real server with its rate limits on."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from chat37_helpers import Socket, bearer, new_human_game
from gammon.web import Settings, create_app
from gammon.web.ratelimit import RateLimits
from gammon.web.service.chat import ChatService
from gammon.web.testing import ThreadedServer

#: Everything generous but the chat's own rate (these tests come from one address).
LIMITS = RateLimits(client="1000/second", create="1000/minute", game="1000/second", socket="1000/second",
                    chat="5/10minute", ping_interval=0.0)  # a window no slow machine outlasts


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    url = str(tmp_path_factory.mktemp("chatlimits") / "gammon.db")
    with ThreadedServer(create_app(Settings(database_url=url, allow_test_seeds=True, rate_limits=LIMITS))) as s:
        yield s


def test_a_flooding_seat_is_refused_and_the_other_seat_is_not(server: ThreadedServer) -> None:
    gid, t0, t1 = new_human_game(server)
    ann, bob = Socket(server, gid, t0), Socket(server, gid, t1)
    try:
        answers = [ann.say(f"spam {i}", i) for i in range(8)]
        assert [a["type"] for a in answers] == ["chat_sent"] * 5 + ["error"] * 3
        assert answers[5]["error"]["code"] == "rate_limited" and " s" in answers[5]["error"]["message"]
        r = httpx.post(f"{server.url}/api/games/{gid}/chat", json={"text": "and here"}, headers=bearer(t0))
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert r.headers.get("retry-after"), "the REST refusal says when to come back"
        # Bob shares the address: his own budget is untouched.
        assert bob.say("stop it", 1)["type"] == "chat_sent"
        assert bob.chats() == [f"spam {i}" for i in range(5)] + ["stop it"]
    finally:
        ann.close()
        bob.close()


def test_spectators_spend_their_address_budget(server: ThreadedServer) -> None:
    gid, t0, _ = new_human_game(server)
    eve = Socket(server, gid)
    try:
        sent = [eve.say(f"boo {i}", i)["type"] for i in range(6)]
        assert sent == ["chat_sent"] * 5 + ["error"]
        # A second spectator's socket from the same address is the same budget, even on another game.
        gid2, t2, _ = new_human_game(server)
        r = httpx.post(f"{server.url}/api/games/{gid2}/chat", json={"text": "again"})
        assert r.status_code == 429
        r = httpx.post(f"{server.url}/api/games/{gid2}/chat", json={"text": "hi"}, headers=bearer(t2))
        assert r.status_code == 201, "a seat spends its own budget, not the address's"
    finally:
        eve.close()


def test_a_game_holds_a_bounded_number_of_messages(server: ThreadedServer) -> None:
    gid, t0, t1 = new_human_game(server)
    app = server.server.config.app
    state = getattr(app, "state", None) or app.app.state  # the app, maybe inside uvicorn's wrapper
    old = getattr(state, "chat", None)
    state.chat = ChatService(state.service, state.limiter, max_messages=3)
    try:
        codes = [httpx.post(f"{server.url}/api/games/{gid}/chat", json={"text": str(i)},
                            headers=bearer(t0 if i % 2 else t1)).status_code for i in range(4)]
        assert codes == [201, 201, 201, 409]
        r = httpx.post(f"{server.url}/api/games/{gid}/chat", json={"text": "x"}, headers=bearer(t0))
        assert r.json()["error"]["code"] == "chat_full"
        assert len(httpx.get(f"{server.url}/api/games/{gid}/chat", headers=bearer(t0)).json()["messages"]) == 3
    finally:
        state.chat = old
