"""WebSockets: two people play a whole seeded game on their sockets while spectators watch.

A real server (uvicorn in a thread, SQLite in a temporary file) and real
WebSocket clients with timeouts.  Every action reaches every socket once and in
order, a reconnecting spectator gets the full state first, a game against the
computer is pushed move by move, and bad connections are refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from gammon.core.fair_dice import derive_roll
from gammon.web import Settings, create_app
from gammon.web.testing import ThreadedServer, connect_game, pick_action
from webclient import TEST_SERVER, bearer

#: These tests play fast on purpose: the rate limits have their own tests (test_server_limits.py).

SEED = bytes(range(100, 132))
TIMEOUT = 60.0  # generous: only a broken server waits it out; a busy machine answers late


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    url = str(tmp_path_factory.mktemp("ws") / "gammon.db")
    settings = Settings(database_url=url, **TEST_SERVER)
    with ThreadedServer(create_app(settings)) as s:
        yield s


class Socket:
    """A client socket that keeps the last state and every action it was sent."""

    def __init__(self, url: str, token: str | None = None) -> None:
        self._stack = ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(connect_game(url, token, open_timeout=TIMEOUT))
        hello = self.recv()
        assert hello["type"] == "hello", hello
        self.you = hello["you"]
        self.state: dict[str, Any] = hello["state"]
        self.entries: list[dict[str, Any]] = []
        self.results: dict[Any, dict[str, Any]] = {}

    def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=TIMEOUT))
        return message

    def pump_one(self) -> dict[str, Any]:
        m = self.recv()
        if m["type"] == "state":
            assert m["state"]["version"] >= self.state["version"], "states arrive in order"
            self.state = m["state"]
        elif m["type"] == "action":
            seq = m["entry"]["seq"]
            assert not self.entries or seq == self.entries[-1]["seq"] + 1, "actions arrive once, in order"
            self.entries.append(m["entry"])
        elif m["type"] in ("result", "error", "pong"):
            self.results[m.get("request_id")] = m
        return m

    def until_version(self, version: int) -> None:
        while self.state["version"] < version:
            self.pump_one()

    def act(self, action: dict[str, Any], rid: int) -> dict[str, Any]:
        self.ws.send(json.dumps({"type": "act", "request_id": rid, "action": action}))
        while rid not in self.results:
            self.pump_one()
        return self.results.pop(rid)

    def close(self) -> None:
        self._stack.close()


def new_human_game(server: ThreadedServer, **body: Any) -> tuple[str, str, str]:
    d = httpx.post(f"{server.url}/api/games", json={"opponent": "human", **body}).json()
    r = httpx.post(f"{server.url}/api/games/{d['game_id']}/join",
                   headers=bearer(d["invite_token"]))
    assert r.status_code == 200
    return d["game_id"], d["token"], r.json()["token"]


def test_two_players_play_a_whole_game_while_spectators_watch(server: ThreadedServer) -> None:
    gid, t0, t1 = new_human_game(server, variant="hypergammon", cube=False, test_seed=SEED.hex())
    base = f"{server.ws_url}/api/games/{gid}/ws"
    players = [Socket(base, t0), Socket(base, t1)]
    spectators = [Socket(base), Socket(base)]
    assert [p.you for p in players] == [0, 1] and spectators[0].you is None
    assert spectators[0].state["legal_plays"] is None and spectators[0].state["allowed_actions"] == []
    mine = httpx.get(f"{server.url}/api/games/{gid}", headers=bearer(t0)).json()
    assert players[0].state == mine
    everyone = players + spectators
    rid = 0
    reconnected = False
    while players[0].state["status"] != "finished":
        rid += 1
        assert rid < 400, "the game does not end"
        actions = [pick_action(p.state) for p in players]
        seat = 0 if actions[0] is not None else 1
        action = actions[seat]
        assert action is not None, players[0].state
        result = players[seat].act(action, rid)
        assert result["type"] == "result", result
        for s in everyone:
            s.until_version(result["version"])
        # Every socket agrees on the state (seat-specific parts aside).
        boards = {json.dumps(s.state["board"]) for s in everyone}
        assert len(boards) == 1
        if rid == 10 and not reconnected:
            # A spectator drops and comes back: the full state first.
            spectators[1].close()
            spectators[1] = Socket(base)
            assert spectators[1].state["version"] == result["version"]
            assert spectators[1].state["board"] == players[0].state["board"]
            everyone = players + spectators
            reconnected = True
    final = players[0].state
    assert final["result"] is not None and final["match"]["over"]
    # The sockets' states are the REST API's GameState, field for field.
    for seat, token in enumerate((t0, t1)):
        rest = httpx.get(f"{server.url}/api/games/{gid}", headers=bearer(token)).json()
        assert players[seat].state == rest
    assert spectators[0].state == httpx.get(f"{server.url}/api/games/{gid}").json()
    assert final["fair_dice"]["seed"] == SEED.hex()
    log = httpx.get(f"{server.url}/api/games/{gid}/actions").json()["actions"]
    assert [e["seq"] for e in players[0].entries] == [a["seq"] for a in log]
    assert [e["seq"] for e in spectators[0].entries] == [a["seq"] for a in log]
    assert spectators[0].entries == log
    # The events came with the actions; the rolls are the seed's.
    assert any(ev["kind"] == "game-over" for e in spectators[0].entries for ev in e["events"])
    rolls = [e["action"]["dice"] for e in log if e["type"] == "roll"]
    assert rolls == [list(derive_roll(SEED, i)) for i in range(len(rolls))]
    for s in everyone:
        s.close()


def test_errors_on_the_socket(server: ThreadedServer) -> None:
    gid, t0, t1 = new_human_game(server)
    base = f"{server.ws_url}/api/games/{gid}/ws"
    p0, spectator = Socket(base, t0), Socket(base)
    bad = [
        ({"type": "act", "request_id": 1, "action": {"type": "play", "play": "24/18"}}, "illegal_action"),
        ({"type": "act", "request_id": 2, "action": {"type": "fly"}}, "invalid_request"),
        ({"type": "act", "request_id": 3}, "invalid_request"),
        ({"type": "dance", "request_id": 4}, "invalid_request"),
    ]
    for message, code in bad:
        p0.ws.send(json.dumps(message))
        m = p0.pump_one()
        assert m["type"] == "error" and m["error"]["code"] == code, m
    p0.ws.send("{not json")
    assert p0.pump_one()["error"]["code"] == "invalid_json"
    spectator.ws.send(json.dumps({"type": "act", "request_id": 9, "action": {"type": "roll"}}))
    assert spectator.pump_one()["error"]["code"] == "forbidden"
    p0.ws.send(json.dumps({"type": "ping", "request_id": "p"}))
    assert p0.pump_one() == {"type": "pong", "request_id": "p"}
    p0.ws.send(json.dumps({"type": "state"}))
    assert p0.pump_one()["type"] == "state"
    assert httpx.get(f"{server.url}/api/games/{gid}").json()["version"] == 1  # only the join
    for url, token, code, close in ((base, "wrong", "forbidden", 4403),
                                    (f"{server.ws_url}/api/games/nosuchgame/ws", None, "not_found", 4404)):
        with connect_game(url, token, open_timeout=TIMEOUT) as ws:
            m = json.loads(ws.recv(timeout=TIMEOUT))
            assert m["type"] == "error" and m["error"]["code"] == code
            with pytest.raises(ConnectionClosed) as info:
                ws.recv(timeout=TIMEOUT)
            assert info.value.rcvd is not None and info.value.rcvd.code == close
    p0.close()
    spectator.close()


def test_the_computer_is_pushed_move_by_move(server: ThreadedServer) -> None:
    d = httpx.post(f"{server.url}/api/games", json={"opponent": "computer", "variant": "hypergammon",
                                                    "test_seed": SEED.hex()}).json()
    base = f"{server.ws_url}/api/games/{d['game_id']}/ws"
    me, spectator = Socket(base, d["token"]), Socket(base)
    rid = 0
    while me.state["status"] != "finished":
        if not me.state["your_turn"]:
            me.pump_one()
            continue
        rid += 1
        assert rid < 300
        action = pick_action(me.state)
        assert action is not None
        result = me.act(action, rid)
        assert result["type"] == "result", result
        me.until_version(result["version"])
    spectator.until_version(me.state["version"])
    assert [e["seq"] for e in spectator.entries] == list(range(1, me.state["actions"] + 1))
    assert {e["player"] for e in spectator.entries} == {0, 1}
    me.close()
    spectator.close()
