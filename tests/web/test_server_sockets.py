"""WebSocket floods (issue 33, item 4), scripted from several loopback addresses.

The attack: 950 sockets held open on one game from one address; socket messages spent
no budget; every ping got a pong, so ~300 sockets pinging at the allowed rate halved
everyone's throughput.  Now spectators' sockets are capped per address and per game (a
seat's are capped per seat and count against neither), every message spends the
seat's or the address's budget, and pings are answered at most about once a second.
"""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from gammon.web import Settings, create_app
from gammon.web.ratelimit import RateLimiter, RateLimits
from gammon.web.sockets import Refusal, SocketGate, Ticket
from gammon.web.testing import ThreadedServer, auth_message

LIMITS = RateLimits(client="20/minute", game="50/second", socket="50/second", sockets_per_address=3,
                    sockets_per_game=5, sockets_per_seat=2)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    url = str(tmp_path_factory.mktemp("sockets") / "gammon.db")
    with ThreadedServer(create_app(Settings(database_url=url, rate_limits=LIMITS))) as s:
        yield s


_addresses = iter(range(10, 250))


def new_address() -> str:
    return f"127.0.0.{next(_addresses)}"


def open_socket(server: ThreadedServer, game_id: str, address: str,
                token: str | None = None) -> ClientConnection:
    """A WebSocket to ``game_id`` from ``address`` (as the seat of ``token``, else a spectator)."""
    raw = socket.socket()
    raw.bind((address, 0))
    raw.connect(("127.0.0.1", server.port))
    url = f"{server.ws_url}/api/games/{game_id}/ws"
    ws = connect(url, sock=raw, open_timeout=60)
    ws.send(auth_message(token))
    return ws


def first(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=60))
    return message


def refused(ws: ClientConnection) -> str:
    """The error code a socket refused at the door got (it is then closed with 4429)."""
    m = first(ws)
    assert m["type"] == "error", m
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=60)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
    return str(m["error"]["code"])


def new_game(server: ThreadedServer, address: str) -> dict[str, Any]:
    with httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=20) as c:
        r = c.post(f"{server.url}/api/games", json={"opponent": "human"})
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


def test_spectators_are_capped_per_address_and_per_game_seats_are_not(server: ThreadedServer) -> None:
    crowd = new_address()
    game = new_game(server, new_address())
    gid = game["game_id"]
    with contextlib.ExitStack() as stack:
        held = [stack.enter_context(open_socket(server, gid, crowd)) for _ in range(3)]
        assert all(first(ws)["type"] == "hello" for ws in held)
        with open_socket(server, gid, crowd) as fourth:  # the old code took 950 of these
            assert refused(fourth) == "too_many_sockets"
        # The crowd's address cannot keep out a player behind it (NAT): seats have their own cap.
        seat = stack.enter_context(open_socket(server, gid, crowd, game["token"]))
        assert first(seat)["type"] == "hello"
        with open_socket(server, gid, crowd, game["token"]) as tab2:
            assert first(tab2)["type"] == "hello"
            with open_socket(server, gid, crowd, game["token"]) as tab3:
                assert refused(tab3) == "too_many_sockets"  # at most two per seat
        # Spectators from elsewhere fill the game up to its cap (5), then wait their turn.
        others = [stack.enter_context(open_socket(server, gid, new_address())) for _ in range(2)]
        assert all(first(ws)["type"] == "hello" for ws in others)
        with open_socket(server, gid, new_address()) as late:
            assert refused(late) == "too_many_sockets"
        held[0].close()
    # Closed sockets give their places back.
    with open_socket(server, gid, crowd) as again:
        assert first(again)["type"] == "hello"


def test_pings_are_answered_once_a_second_and_messages_spend_the_address_budget(server: ThreadedServer) -> None:
    address = new_address()
    game = new_game(server, new_address())
    with open_socket(server, game["game_id"], address) as ws:
        assert first(ws)["type"] == "hello"
        for i in range(8):
            ws.send(json.dumps({"type": "ping", "request_id": i}))
        ws.send(json.dumps({"type": "state", "request_id": "s"}))
        # One pong, then the state: the seven other pings were dropped (the old code answered all).
        assert first(ws) == {"type": "pong", "request_id": 0}
        assert first(ws)["type"] == "state"
        # Every message spent the address's budget (20 a minute): its HTTP requests now wait.
        for i in range(12):
            ws.send(json.dumps({"type": "ping", "request_id": i}))
        with httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=20) as c:
            r = c.get(f"{server.url}/api/lobby")
        assert r.status_code == 429


def test_a_seats_messages_spend_its_own_budget_not_the_address(server: ThreadedServer) -> None:
    shared = new_address()
    game = new_game(server, new_address())
    with httpx.Client(transport=httpx.HTTPTransport(local_address=shared), timeout=20) as neighbour:
        while neighbour.get(f"{server.url}/api/lobby").status_code != 429:
            pass
    with open_socket(server, game["game_id"], shared, game["token"]) as ws:
        assert first(ws)["type"] == "hello"
        for i in range(5):
            ws.send(json.dumps({"type": "state", "request_id": i}))
            assert first(ws)["type"] == "state"


def test_the_gate_counts_what_is_open() -> None:
    gate = SocketGate(RateLimiter(RateLimits(sockets_per_address=1, sockets_per_game=2, sockets_per_seat=1)))
    a = gate.admit("1.1.1.1", "g", None)
    assert isinstance(a, Ticket) and isinstance(gate.admit("1.1.1.1", "g", None), Refusal)
    b = gate.admit("2.2.2.2", "g", None)
    assert isinstance(b, Ticket) and isinstance(gate.admit("3.3.3.3", "g", None), Refusal)
    seat = gate.admit("1.1.1.1", "g", 0)
    assert isinstance(seat, Ticket) and isinstance(gate.admit("9.9.9.9", "g", 0), Refusal)
    for t in (a, b, seat, a):  # closing twice gives back once
        t.close()
    assert gate.open_sockets() == 0 and not gate.by_address and not gate.by_game and not gate.by_seat
    off = SocketGate(RateLimiter(RateLimits(enabled=False, sockets_per_address=1)))
    assert all(isinstance(off.admit("1.1.1.1", "g", None), Ticket) for _ in range(5))
