"""The attacker's probe of issue 11, against a real server with its default limits.

Over real sockets, as an outsider would: join with an invitation, then try the
same invitation again, act with it, read a seat's view and open a socket with
it; ask the engine for a hint in the middle of a game between two people; send
a 64 MiB body, declared and chunked.  Every one must be refused.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from gammon.web import Settings, create_app
from gammon.web.testing import ThreadedServer, connect_game
from webclient import bearer

MIB = 1024 * 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    url = str(tmp_path_factory.mktemp("probe") / "gammon.db")
    with ThreadedServer(create_app(Settings(database_url=url))) as s:  # the default limits
        yield s


def send_big_body(port: int, head: bytes, piece: bytes, total: int) -> bytes:
    """Send ``head`` and then ``piece`` after ``piece`` (up to ``total`` bytes) until the server answers."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(head)
        sent = 0
        while sent < total:
            try:
                s.sendall(piece)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(piece)
            s.settimeout(0.002)
            try:
                answer = s.recv(4096)
                if answer:
                    return answer
            except TimeoutError:
                pass
            finally:
                s.settimeout(30)
        return s.recv(4096)


def test_the_probe_is_refused_everywhere(server: ThreadedServer) -> None:
    refused: dict[str, Any] = {}
    with httpx.Client(base_url=server.url, timeout=30) as c:
        d = c.post("/api/games", json={"opponent": "human", "name": "Ann"}).json()
        gid, ann, invite = d["game_id"], d["token"], d["invite_token"]
        joined = c.post(f"/api/games/{gid}/join", headers=bearer(invite), json={"name": "Bob"})
        assert joined.status_code == 200
        bob = joined.json()["token"]

        refused["join again"] = c.post(f"/api/games/{gid}/join", headers=bearer(invite), json={"name": "Eve"})
        refused["act with it"] = c.post(f"/api/games/{gid}/actions", headers=bearer(invite),
                                        json={"type": "resign", "kind": "backgammon"})
        refused["read a seat with it"] = c.get(f"/api/games/{gid}", headers=bearer(invite))
        with connect_game(f"{server.ws_url}/api/games/{gid}/ws", invite, open_timeout=15) as ws:
            refused["socket with it"] = json.loads(ws.recv(timeout=15))

        tokens = (ann, bob)
        for _ in range(20):
            s = c.post(f"/api/games/{gid}/actions", headers=bearer(ann), json={"type": "roll"}).json()["state"]
            if s["phase"] == "move":
                break
        mover = s["to_act"]
        assert c.get(f"/api/games/{gid}", headers=bearer(tokens[mover])).json()["legal_plays"]
        refused["hint mid-game"] = c.get(f"/api/games/{gid}/hint", headers=bearer(tokens[mover]))

    refused["64 MiB body"] = send_big_body(
        server.port, b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % (64 * MIB), b" " * 65536, 64 * MIB)
    refused["64 MiB chunked"] = send_big_body(
        server.port, b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n", b"10000\r\n" + b" " * 65536 + b"\r\n", 64 * MIB)

    assert refused["join again"].status_code == 410
    assert refused["join again"].json()["error"]["code"] == "invitation_used"
    assert refused["act with it"].status_code == 403
    assert refused["read a seat with it"].status_code == 403
    assert refused["socket with it"]["error"]["code"] == "forbidden"
    assert refused["hint mid-game"].status_code == 403
    assert refused["hint mid-game"].json()["error"]["code"] == "hints_off"
    assert refused["64 MiB body"].startswith(b"HTTP/1.1 413"), refused["64 MiB body"][:200]
    assert refused["64 MiB chunked"].startswith(b"HTTP/1.1 413"), refused["64 MiB chunked"][:200]
    # Nothing the probe tried changed the game: Bob is the guest and nobody resigned.
    with httpx.Client(base_url=server.url, timeout=30) as c:
        s = c.get(f"/api/games/{gid}", headers=bearer(bob)).json()
    assert s["you"] == 1 and s["seats"][1]["name"] == "Bob"
    assert s["status"] == "active" and s["resignation"] is None
