"""The server as an attacker meets it at the socket: oversized, crowded and slow request heads,
connection floods from one address, and the answers' headers.

Each attack is sent for real to ``python -m gammon.web`` (the same :func:`gammon.web.server.serve`
as ``gammon serve``) over raw TCP on loopback, while an honest client keeps asking for
``/api/health``: before the limits, one 64 MiB header cost the event loop 10 s and 8 of them
froze every game for 78 s.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from gammon.web.http_limits import HEAD_TIMEOUT, MAX_HEAD_BYTES, MAX_HEADER_COUNT
from gammon.web.testing import ServerProcess

CONNECTIONS_PER_ADDRESS = 20


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("http-limits") / "gammon.db"
    with ServerProcess(str(db), args=["--max-connections-per-address", str(CONNECTIONS_PER_ADDRESS)]) as s:
        yield s


def answer_of(sock: socket.socket, timeout: float = 10.0) -> bytes:
    """Everything the server sends until it closes the connection (or ``timeout``)."""
    sock.settimeout(timeout)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    return data


def send_huge_header(port: int, size: int, sent: list[int]) -> bytes:
    """Send a request whose one header is ``size`` bytes long, as fast as the server takes it."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        head = b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: "
        total = 0
        try:
            sock.sendall(head)
            chunk = b"a" * 65536
            while total < size:
                sock.sendall(chunk)
                total += len(chunk)
        except OSError:
            pass  # the server closed the connection: what it answered is still readable
        sent.append(total)
        return answer_of(sock)


def test_a_huge_header_is_refused_unparsed_and_costs_the_others_nothing(server: ServerProcess) -> None:
    sent: list[int] = []
    answers: list[bytes] = []
    attackers = [threading.Thread(target=lambda: answers.append(send_huge_header(server.port, 64 << 20, sent)))
                 for _ in range(8)]
    slowest = 0.0
    with httpx.Client(base_url=server.url, timeout=10) as honest:
        for t in attackers:
            t.start()
        while any(t.is_alive() for t in attackers):
            started = time.monotonic()
            assert honest.get("/api/health").status_code == 200
            slowest = max(slowest, time.monotonic() - started)
        for t in attackers:
            t.join()
    assert len(answers) == 8
    for answer in answers:
        assert answer.startswith(b"HTTP/1.1 431 "), answer[:100]
        assert b"headers_too_large" in answer
    # The server stopped reading long before 64 MiB: a few socket buffers at most, not the header.
    assert max(sent) < 16 << 20, sent
    # Without the limit one such header held the event loop for 10 s; with it nobody waits (the
    # bound is half that, not a figure a busy machine could miss).
    assert slowest < 5.0, slowest


def test_too_many_headers_get_431(server: ServerProcess) -> None:
    lines = b"".join(b"X-H%d: v\r\n" % i for i in range(MAX_HEADER_COUNT + 5))
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n" + lines + b"\r\n")
        assert answer_of(sock).startswith(b"HTTP/1.1 431 ")
    # A head just under the size limit, with few headers, is served.
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Fill: "
                     + b"f" * (MAX_HEAD_BYTES - 200) + b"\r\n\r\n")
        assert answer_of(sock).startswith(b"HTTP/1.1 200 ")


def test_a_head_trickled_slowly_is_cut_off(server: ServerProcess) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        started = time.monotonic()
        answer = b""
        try:
            while time.monotonic() - started < HEAD_TIMEOUT + 10:
                sock.sendall(b"X-Slow: 1\r\n")  # a header line a second: never a complete head
                sock.settimeout(1.0)
                try:
                    chunk = sock.recv(4096)
                except TimeoutError:
                    continue
                answer += chunk
                if not chunk or answer:
                    break
        except OSError:
            pass
        answer += answer_of(sock, 2.0)
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:100]


def test_one_address_cannot_hold_every_connection(server: ServerProcess) -> None:
    held = []
    try:
        for _ in range(CONNECTIONS_PER_ADDRESS):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")  # keep-alive: stays open
            assert b" 200 " in sock.recv(65536)
            held.append(sock)
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as extra:
            extra.settimeout(10)
            try:
                extra.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
                assert extra.recv(65536) == b""  # closed at once, before anything was read
            except ConnectionResetError:
                pass
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + 60
    while True:  # the count goes down as they close: the address is served again
        try:
            if httpx.get(f"{server.url}/api/health", timeout=5).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "the address stayed locked out after its connections closed"
        time.sleep(0.2)


def test_answers_carry_the_right_headers(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as client:
        page = client.head("/")
        assert page.status_code == 200 and "server" not in page.headers
        csp = page.headers["content-security-policy"]
        assert "connect-src 'self';" in csp and "ws:" not in csp and "wss:" not in csp
        for path in ("/docs", "/redoc"):  # their assets would come from a CDN
            assert client.get(path).status_code == 404
        assert client.get("/openapi.json").status_code == 200
        created = client.post("/api/games", json={"opponent": "computer", "computer_level": "heuristic"},
                              headers={"Host": "evil.example"})
        assert created.status_code == 201
        assert created.headers["cache-control"] == "no-store"  # it carries the seat's token
        assert "server" not in created.headers
        assert "evil.example" not in created.text  # links never come from the Host header
        assert client.get("/api/health").headers["cache-control"] == "no-store"
