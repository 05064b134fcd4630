"""Limits on what one client may make the server do (issue 11, security item 3).

* request bodies over 64 KiB are refused with 413 before they are read, by
  ``Content-Length`` and for chunked bodies; JSON nested too deeply is a 422,
  never a 500;
* WebSocket messages that are too big, binary, not JSON or nested too deeply
  get an ``error`` message and the socket goes on;
* rate limits per client, per game, per socket and on creating games (429 with
  ``Retry-After``; on a socket one ``rate_limited`` error);
* the computer thinks in a bounded pool of workers, games taking turns.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from gammon.web import Settings, create_app
from gammon.web.guards import MAX_BODY_BYTES, MessageRefused, json_too_deep, parse_message
from gammon.web.ratelimit import RateLimiter, RateLimits
from gammon.web.tasks import ComputerDriver
from gammon.web.testing import ThreadedServer, connect_game
from webclient import TestClient, bearer, client_fixture

LIMITS = RateLimits(client="1000/second", create="6/minute", game="12/second", socket="5/second")


client = client_fixture("limits", rate_limits=LIMITS)


def code(r: Any) -> str:
    return str(r.json()["error"]["code"])


# -- request bodies --------------------------------------------------------------------------


def test_a_64_mib_body_is_refused_unread(client: TestClient) -> None:
    huge = b"x" * (64 * 1024 * 1024)
    r = client.post("/api/games", content=huge, headers={"content-type": "application/json"})
    assert r.status_code == 413 and code(r) == "too_large"
    just_over = b" " * (MAX_BODY_BYTES + 1)
    assert client.post("/api/games", content=just_over,
                       headers={"content-type": "application/json"}).status_code == 413
    # At the limit the body is read and judged on its merits (here: not JSON).
    at_limit = client.post("/api/games", content=b" " * MAX_BODY_BYTES,
                           headers={"content-type": "application/json"})
    assert at_limit.status_code == 422


def test_a_chunked_body_is_cut_off_at_the_limit(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(200):
            yield b" " * 1024

    r = client.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and code(r) == "too_large"


def test_deeply_nested_json_is_a_clear_422(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    for body in (b"[" * 5000 + b"]" * 5000, b'{"type": "roll", "x": ' + b"[" * 3000 + b"]" * 3000 + b"}"):
        r = client.post("/api/games/x/actions", content=body,
                        headers={"content-type": "application/json", "authorization": "Bearer t"})
        assert r.status_code == 422 and code(r) == "invalid_json" and "nested" in r.json()["error"]["message"]
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR]


def test_json_depth_counts_brackets_outside_strings_only() -> None:
    assert not json_too_deep(b'{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[["}')
    assert not json_too_deep(b'{"a": "\\"[[[[[[[[[[[[[[[[[[[[[[[[["}')
    assert json_too_deep(b"[" * 11 + b"]" * 11)
    assert not json_too_deep(b"[" * 10 + b"]" * 10)
    assert not json_too_deep(b"[[1], [2], [3], [4], [5], [6], [7], [8], [9], [10], [11], [12]]")


def test_the_limits_hold_on_a_real_socket(tmp_path: Any) -> None:
    """Over TCP: a 64 MiB Content-Length is answered 413 after its first kilobyte; so is a chunked stream."""
    settings = Settings(database_url=str(tmp_path / "g.db"), rate_limits=RateLimits(enabled=False))
    with ThreadedServer(create_app(settings)) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=20) as s:
            s.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 67108864\r\n\r\n" + b" " * 1024)
            answer = s.recv(4096)
        assert answer.startswith(b"HTTP/1.1 413"), answer
        with socket.create_connection(("127.0.0.1", server.port), timeout=20) as s:
            s.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Transfer-Encoding: chunked\r\n\r\n")
            answer = b""
            try:
                for _ in range(1000):  # up to 8 MB: the server must answer long before
                    s.sendall(b"2000\r\n" + b" " * 0x2000 + b"\r\n")
                    s.settimeout(0.001)
                    try:
                        answer = s.recv(4096)
                    except TimeoutError:
                        continue
                    finally:
                        s.settimeout(20)
                    if answer:
                        break
            except (BrokenPipeError, ConnectionResetError):
                pass
            if not answer:
                answer = s.recv(4096)
        assert answer.startswith(b"HTTP/1.1 413"), answer


# -- WebSocket messages -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    url = str(tmp_path_factory.mktemp("limits-ws") / "gammon.db")
    with ThreadedServer(create_app(Settings(database_url=url, rate_limits=LIMITS))) as s:
        yield s


@contextlib.contextmanager
def socket_to(server: ThreadedServer, game_id: str, token: str | None = None) -> Iterator[Any]:
    with connect_game(f"{server.ws_url}/api/games/{game_id}/ws", token, open_timeout=60) as ws:
        assert json.loads(ws.recv(timeout=60))["type"] == "hello"
        yield ws


def recv(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=60))
    return message


def new_game(server: ThreadedServer) -> dict[str, Any]:
    r = httpx.post(f"{server.url}/api/games", json={"opponent": "computer", "computer_level": "heuristic"})
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


def test_bad_socket_messages_get_errors_not_tracebacks(server: ThreadedServer,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    d = new_game(server)
    with socket_to(server, d["game_id"], d["token"]) as ws:
        sent: list[tuple[str | bytes, str]] = [
            ('{"type": "ping", "pad": "' + "x" * 20000 + '"}', "too_large"),
            (b'{"type": "ping"}', "invalid_json"),
            ("[" * 400 + "]" * 400, "invalid_json"),
            ('{"type": "act", "action": ' + "[" * 5000 + "]" * 5000 + "}", "invalid_json"),
        ]
        for payload, expected in sent:
            ws.send(payload)
            m = recv(ws)
            assert m["type"] == "error" and m["error"]["code"] == expected, (payload[:30], m)
        ws.send('{"type": "ping", "request_id": 1}')  # the socket goes on
        assert recv(ws) == {"type": "pong", "request_id": 1}
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR]


def test_a_huge_socket_message_closes_the_socket_cleanly(server: ThreadedServer,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    from websockets.exceptions import ConnectionClosed

    d = new_game(server)
    with socket_to(server, d["game_id"], d["token"]) as ws:
        ws.send("x" * (1024 * 1024))  # over the protocol's limit: never assembled in memory
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=60)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR]


def test_parse_message_limits() -> None:
    assert parse_message('{"type": "ping"}') == {"type": "ping"}
    for raw in (None, b"{}", "x" * 20000, "[" * 50 + "]" * 50, "{"):
        with pytest.raises(MessageRefused):
            parse_message(raw)


# -- rate limits -------------------------------------------------------------------------------


def test_a_flooding_socket_is_told_once_and_others_go_on(server: ThreadedServer) -> None:
    a, b = new_game(server), new_game(server)
    with socket_to(server, a["game_id"]) as flood, socket_to(server, b["game_id"]) as calm:
        for i in range(20):
            flood.send(json.dumps({"type": "ping", "request_id": i}))
        # One pong a second (issue 33): pings 1-4 are dropped unanswered; the sixth message is over
        # the socket's rate (5 a second), told once, and the socket is left unread for a while.
        replies = [recv(flood) for _ in range(2)]
        assert replies[0] == {"type": "pong", "request_id": 0}
        limited = replies[1]
        assert limited["error"]["code"] == "rate_limited" and limited["request_id"] == 5
        calm.send(json.dumps({"type": "ping", "request_id": "calm"}))  # another socket is not held up
        assert recv(calm) == {"type": "pong", "request_id": "calm"}


def test_http_rate_limits_per_game_and_on_creating_games(client: TestClient) -> None:
    a = client.post("/api/games", json={"opponent": "human"}).json()
    b = client.post("/api/games", json={"opponent": "human"}).json()
    answers: list[int] = []
    while 429 not in answers and len(answers) < 600:  # until refused: a busy machine floods slowly
        answers.append(client.get(f"/api/games/{a['game_id']}").status_code)
    assert 429 in answers and answers[:5] == [200] * 5
    r = client.get(f"/api/games/{a['game_id']}")
    assert r.status_code == 429 and code(r) == "rate_limited" and int(r.headers["retry-after"]) >= 1
    assert client.get(f"/api/games/{b['game_id']}").status_code == 200  # the other game is untouched
    # Watchers (no token) used up their share of game a; its players have their own.
    seat = client.get(f"/api/games/{a['game_id']}", headers=bearer(a["token"]))
    assert seat.status_code == 200 and seat.json()["you"] == 0
    created = [client.post("/api/games", json={"opponent": "computer"}).status_code for _ in range(6)]
    assert created.count(429) >= 1 and created[0] in (201, 429)
    r = client.post("/api/games", json={"opponent": "computer"})
    assert r.status_code == 429 and code(r) == "rate_limited"


def test_rate_limiter_keys_are_separate() -> None:
    limiter = RateLimiter(RateLimits(client="3/minute"))
    assert [limiter.check("client", "1.2.3.4") for _ in range(3)] == [None] * 3
    assert limiter.check("client", "1.2.3.4") is not None
    assert limiter.check("client", "5.6.7.8") is None
    off = RateLimiter(RateLimits(client="1/minute", enabled=False))
    assert all(off.check("client", "x") is None for _ in range(5))


# -- the computer's worker pool ------------------------------------------------------------------


class FakeService:
    """Each game owes ``due[game]`` computer actions; records the order and the most at once."""

    def __init__(self, due: dict[str, int]) -> None:
        self.due = dict(due)
        self.order: list[str] = []
        self.started: list[str] = []
        self.lock = threading.Lock()
        self.now = 0
        self.most = 0
        self.gate = threading.Event()

    def computer_step(self, game_id: str) -> bool:
        with self.lock:
            if self.due.get(game_id, 0) <= 0:
                return False
            self.now += 1
            self.most = max(self.most, self.now)
            self.started.append(game_id)
        self.gate.wait(60)
        with self.lock:
            self.now -= 1
            self.due[game_id] -= 1
            self.order.append(game_id)
        return True


def test_computer_games_take_turns_in_a_bounded_pool() -> None:
    async def run(workers: int, due: dict[str, int]) -> FakeService:
        service = FakeService(due)
        driver = ComputerDriver(service, workers=workers)  # type: ignore[arg-type]
        for game_id in due:
            driver.kick(game_id)
        await asyncio.sleep(0.05)
        service.gate.set()
        deadline = time.monotonic() + 60  # generous: a busy machine runs the pool's threads late
        while (any(service.due.values()) or driver.busy) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        await driver.close()
        return service

    # One worker: a game that owes many actions cannot make another wait for all of them.
    one = asyncio.run(run(1, {"heavy": 6, "light": 2}))
    assert one.started[:4] == ["heavy", "light", "heavy", "light"] and one.order.count("heavy") == 6
    # Many games, two workers: never more than two think at once, every game is served.
    many = asyncio.run(run(2, {f"g{i}": 3 for i in range(8)}))
    assert many.most <= 2 and len(many.order) == 24
    assert set(many.started[:8]) == {f"g{i}" for i in range(8)}  # each game once before any twice


def test_a_new_socket_never_inherits_a_closed_sockets_spent_rate() -> None:
    # A socket's own rate is keyed by its ticket: a ticket freed and another made in its place
    # (often at the same address in memory) must start with the whole rate.
    import gc

    from gammon.web.sockets import SocketGate, Ticket

    gate = SocketGate(RateLimiter(RateLimits(client="1000/second", game="1000/second", socket="5/second")))
    keys = set()
    for _ in range(20):
        ticket = gate.admit("127.0.0.1", "g", None)
        assert isinstance(ticket, Ticket)
        assert ticket.key not in keys
        keys.add(ticket.key)
        assert all(ticket.charge() is None for _ in range(5))  # its whole rate
        assert ticket.charge() is not None  # and no more
        ticket.close()
        del ticket
        gc.collect()
