"""Two ``gammon serve`` processes on one PostgreSQL database serve the same games consistently.

An action accepted by one process reaches the WebSocket clients of the other
(LISTEN/NOTIFY), the same turn submitted to both at once is applied once, and
the computer's moves made by one process are pushed by the other.  Needs
GAMMON_TEST_POSTGRES_URL (see scripts/start_postgres.sh).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from databases import postgres_url_or_skip
from gammon.core.fair_dice import derive_roll
from gammon.web.testing import ServerProcess, connect_game, pick_action
from webclient import bearer

# A seed whose opening roll is no tie.
SEED = next(seed for seed in (bytes(range(k, k + 32)) for k in range(200))
            if len(set(derive_roll(seed, 0))) == 2)
TIMEOUT = 60.0  # generous: only a broken server waits it out; a busy machine answers late


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    # each test skips (and fails in CI, where PostgreSQL runs: see conftest)
    url = postgres_url_or_skip("the PostgreSQL scale-out tests")
    logs: Path = tmp_path_factory.mktemp("scaleout")
    a = ServerProcess(url, log_path=logs / "a.log")
    b = ServerProcess(url, log_path=logs / "b.log")
    try:
        a.start(wait_listening=True)
        b.start(wait_listening=True)
        yield a, b
    finally:
        a.stop()
        b.stop()


def human_game(a: ServerProcess, b: ServerProcess) -> tuple[str, tuple[str, str]]:
    d = httpx.post(f"{a.url}/api/games", json={"opponent": "human", "test_seed": SEED.hex()}).json()
    r = httpx.post(f"{b.url}/api/games/{d['game_id']}/join", headers=bearer(d["invite_token"]))
    assert r.status_code == 200
    return d["game_id"], (d["token"], r.json()["token"])


def recv_until(ws: Any, pred: Any) -> list[dict[str, Any]]:
    """Messages from ``ws`` up to the first for which ``pred`` holds."""
    got = []
    while True:
        m = json.loads(ws.recv(timeout=TIMEOUT))
        got.append(m)
        if pred(m):
            return got


def test_an_action_on_a_reaches_sockets_on_b(servers: tuple[ServerProcess, ServerProcess]) -> None:
    a, b = servers
    gid, tokens = human_game(a, b)
    with connect_game(f"{b.ws_url}/api/games/{gid}/ws", tokens[1], open_timeout=TIMEOUT) as on_b, \
            connect_game(f"{a.ws_url}/api/games/{gid}/ws", open_timeout=TIMEOUT) as watch_a:
        hello = json.loads(on_b.recv(timeout=TIMEOUT))
        assert hello["type"] == "hello" and hello["you"] == 1
        assert json.loads(watch_a.recv(timeout=TIMEOUT))["type"] == "hello"
        r = httpx.post(f"{a.url}/api/games/{gid}/actions", json={"type": "roll"}, headers=bearer(tokens[0]))
        assert r.status_code == 200
        version = r.json()["version"]
        got = recv_until(on_b, lambda m: m["type"] == "state" and m["state"]["version"] >= version)
        actions = [m["entry"] for m in got if m["type"] == "action"]
        assert [e["seq"] for e in actions] == [1] and actions[0] == r.json()["actions"][0]
        state = got[-1]["state"]
        assert state["you"] == 1 and state["version"] == version
        # And the other way: an action on B reaches the spectator on A.
        mover = state["to_act"]
        s = httpx.get(f"{b.url}/api/games/{gid}", headers=bearer(tokens[mover])).json()
        r = httpx.post(f"{b.url}/api/games/{gid}/actions", headers=bearer(tokens[mover]),
                       json={"type": "play", "play": s["legal_plays"][0]["notation"]})
        assert r.status_code == 200
        version = r.json()["version"]
        got = recv_until(watch_a, lambda m: m["type"] == "state" and m["state"]["version"] >= version)
        assert [m["entry"]["seq"] for m in got if m["type"] == "action"] == [1, 2]


def test_the_same_turn_on_both_processes_applies_once(servers: tuple[ServerProcess, ServerProcess]) -> None:
    a, b = servers
    gid, tokens = human_game(a, b)
    for round_ in range(6):
        states = [httpx.get(f"{a.url}/api/games/{gid}", headers=bearer(t)).json() for t in tokens]
        seat = 0 if states[0]["allowed_actions"] else 1
        action = pick_action(states[seat])
        assert action is not None
        if round_ % 2:
            action["expected_version"] = states[seat]["version"]
        barrier = threading.Barrier(4)
        results: list[httpx.Response | None] = [None] * 4

        def submit(i: int, action: dict[str, Any] = action, seat: int = seat,
                   barrier: threading.Barrier = barrier, results: list[Any] = results) -> None:
            base = (a, b)[i % 2].url
            with httpx.Client(base_url=base, timeout=20) as c:
                barrier.wait()
                results[i] = c.post(f"/api/games/{gid}/actions", json=action, headers=bearer(tokens[seat]))

        threads = [threading.Thread(target=submit, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        codes = sorted(r.status_code for r in results if r is not None)
        assert codes == [200, 409, 409, 409], [r.text for r in results if r is not None]
        log = httpx.get(f"{b.url}/api/games/{gid}/actions").json()
        assert log["version"] == states[seat]["version"] + 1
        assert len(log["actions"]) == states[seat]["actions"] + 1


def test_the_computer_moves_made_on_one_process_reach_the_other(
        servers: tuple[ServerProcess, ServerProcess]) -> None:
    a, b = servers
    d = httpx.post(f"{a.url}/api/games", json={"opponent": "computer", "variant": "hypergammon",
                                               "test_seed": SEED.hex()}).json()
    gid, token = d["game_id"], d["token"]
    with connect_game(f"{a.ws_url}/api/games/{gid}/ws", open_timeout=TIMEOUT) as watch_a:
        assert json.loads(watch_a.recv(timeout=TIMEOUT))["type"] == "hello"
        for _ in range(8):  # a few turns, acting on B only; B's computer answers
            deadline = time.monotonic() + TIMEOUT
            while True:
                s = httpx.get(f"{b.url}/api/games/{gid}", headers=bearer(token)).json()
                if s["your_turn"] or s["status"] == "finished":
                    break
                assert time.monotonic() < deadline, "the computer did not move"
                time.sleep(0.02)
            if s["status"] == "finished":
                break
            action = pick_action(s)
            assert action is not None
            r = httpx.post(f"{b.url}/api/games/{gid}/actions", json=action, headers=bearer(token))
            assert r.status_code == 200, r.text
        final = httpx.get(f"{a.url}/api/games/{gid}").json()
        entries: list[dict[str, Any]] = []
        while not entries or entries[-1]["seq"] < final["actions"]:
            m = json.loads(watch_a.recv(timeout=TIMEOUT))
            if m["type"] == "action":
                entries.append(m["entry"])
        assert [e["seq"] for e in entries] == list(range(1, final["actions"] + 1))
        assert any(e["player"] == 1 for e in entries), "no move of the computer reached process A"


def test_a_whole_game_with_each_seat_on_its_own_process(servers: tuple[ServerProcess, ServerProcess]) -> None:
    """The deployment of docs/deploy.md: behind a proxy, each player may reach any process; here seat 0
    acts only on A's socket and seat 1 only on B's, from the first roll to the end of the game."""
    a, b = servers
    d = httpx.post(f"{a.url}/api/games", json={"opponent": "human", "variant": "hypergammon", "cube": False,
                                               "test_seed": SEED.hex()}).json()
    joined = httpx.post(f"{b.url}/api/games/{d['game_id']}/join", headers=bearer(d["invite_token"])).json()
    gid, tokens = d["game_id"], (d["token"], joined["token"])
    with connect_game(f"{a.ws_url}/api/games/{gid}/ws", tokens[0], open_timeout=TIMEOUT) as on_a, \
            connect_game(f"{b.ws_url}/api/games/{gid}/ws", tokens[1], open_timeout=TIMEOUT) as on_b:
        sockets = (on_a, on_b)
        states = [json.loads(ws.recv(timeout=TIMEOUT))["state"] for ws in sockets]
        for rid in range(1, 500):
            if states[0]["status"] == "finished":
                break
            seat = states[0]["to_act"] if states[0]["to_act"] is not None else 0
            action = pick_action(states[seat])
            assert action is not None, states[seat]
            sockets[seat].send(json.dumps({"type": "act", "request_id": rid, "action": action}))
            got = recv_until(sockets[seat], lambda m, rid=rid: m.get("request_id") == rid)
            assert got[-1]["type"] == "result", got[-1]
            version = got[-1]["version"]
            for s, ws in enumerate(sockets):  # the action reaches both: B's socket through LISTEN/NOTIFY
                seen = [m["state"] for m in got if m["type"] == "state"] if s == seat else []
                if not seen or seen[-1]["version"] < version:
                    seen += [recv_until(ws, lambda m, v=version: m["type"] == "state"
                                        and m["state"]["version"] >= v)[-1]["state"]]
                states[s] = seen[-1]
        else:
            pytest.fail("the game did not end")
    on_each = [httpx.get(f"{p.url}/api/games/{gid}/actions").json() for p in (a, b)]
    assert on_each[0] == on_each[1] and states[0]["status"] == states[1]["status"] == "finished"
    movers = {e["player"] for e in on_each[0]["actions"] if e["type"] == "play"}
    assert movers == {0, 1}
