"""Clocks (issue 11, item 8): a delay per move, then a reserve per player; out of time loses the match.

Time runs on the server and is worked out from the stored actions' times, so
a restarted server knows it; a timeout is stored like an action, the match
goes to the other player with the score a match win gives, and the dice
seed is revealed as at any end.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from gammon.formats.mat import read_mat
from gammon.formats.record_json import match_from_json
from gammon.formats.sgf import read_sgf
from gammon.web import Settings, create_app
from gammon.web.service.clock import Clock, ClockSettings
from webclient import TEST_SERVER, TestClient, bearer


def app_for(db: Path) -> Any:
    settings = Settings(database_url=str(db), **TEST_SERVER)
    return create_app(settings)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("clock") / "gammon.db"


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(app_for(db)) as c:
        yield c


def test_the_clock_arithmetic() -> None:
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    clock = Clock(ClockSettings(delay=5, reserve=60))
    clock.charge(t0, 0)  # seat 0 to act
    clock.charge(t0 + timedelta(seconds=3), 1)  # within the delay: nothing comes off
    assert clock.used == [0, 0]
    clock.charge(t0 + timedelta(seconds=23), 0)  # seat 1 took 20 s: 15 beyond the delay
    assert clock.used == [0, 15]
    assert clock.remaining(0, t0 + timedelta(seconds=33)) == 55  # 10 s running, 5 of them free
    assert clock.remaining(1, t0 + timedelta(seconds=33)) == 45
    assert clock.timed_out(t0 + timedelta(seconds=87)) is None
    assert clock.timed_out(t0 + timedelta(seconds=89)) == 0
    clock.charge(t0 + timedelta(seconds=40), None)  # between games nobody's clock runs
    assert clock.timed_out(t0 + timedelta(days=1)) is None


def test_running_out_of_time_loses_the_match(client: TestClient, db: Path) -> None:
    d = client.post("/api/games", json={"opponent": "human", "match_length": 5, "clock_delay": 0.1,
                                        "clock_reserve": 0.4, "test_seed": "21" * 32}).json()
    gid, host = d["game_id"], d["token"]
    guest = client.post(f"/api/games/{gid}/join", headers=bearer(d["invite_token"])).json()["token"]
    tokens = (host, guest)
    s = d["state"]
    assert s["clock"]["delay"] == 0.1 and s["clock"]["reserve"] == 0.4 and s["clock"]["running"] is None
    for _ in range(20):
        r = client.post(f"/api/games/{gid}/actions", headers=bearer(host), json={"type": "roll"})
        s = r.json()["state"]
        if s["phase"] == "move":
            break
    mover = s["to_act"]
    assert s["clock"]["running"] == mover and s["clock"]["remaining"][mover] <= 0.4
    deadline = time.monotonic() + 30  # the server's watcher stores the timeout by itself
    while s["status"] != "finished":
        assert time.monotonic() < deadline, "the timeout was never stored"
        time.sleep(0.1)
        s = client.get(f"/api/games/{gid}", headers=bearer(tokens[1 - mover])).json()
    assert s["match"]["over"] and s["match"]["timeout"] == mover and s["match"]["winner"] == 1 - mover
    assert s["match"]["score"][1 - mover] == 5 and s["match"]["score"][mover] == 0
    assert s["fair_dice"]["revealed"] and s["allowed_actions"] == []
    log = client.get(f"/api/games/{gid}/actions").json()["actions"]
    assert log[-1]["type"] == "timeout" and log[-1]["player"] == mover and log[-1]["actor"] == "clock"
    late = client.post(f"/api/games/{gid}/actions", headers=bearer(tokens[mover]), json={"type": "resign"})
    assert late.status_code == 409 and late.json()["error"]["code"] == "game_over"
    assert client.get(f"/api/games/{gid}/verify").json()["verified"] is True
    # The downloads say so, with the final score: gammon's readers find the loss on time in each.
    js = client.get(f"/api/games/{gid}/export.json").text
    mat = client.get(f"/api/games/{gid}/export.mat").text
    sgf = client.get(f"/api/games/{gid}/export.sgf").text
    assert json.loads(js)["games"][-1][-1] == {"action": "timeout", "player": mover}
    assert "Wins 5 points on time" in mat and f"RE[{'WB'[1 - mover]}+Time]" in sgf and "ran out of time" in sgf
    for back in (match_from_json(js), read_mat(mat).replay(), read_sgf(sgf).replay()):
        assert back.is_over and back.timed_out == mover and back.winner == 1 - mover
        assert back.score[1 - mover] == 5 and back.score[mover] == 0
    # A restarted server reads the same end from the record.
    with TestClient(app_for(db)) as again:
        s2 = again.get(f"/api/games/{gid}").json()
    assert s2["match"] == s["match"] and s2["status"] == "finished"


def test_a_running_clock_survives_a_restart(client: TestClient, db: Path) -> None:
    d = client.post("/api/games", json={"opponent": "human", "clock_delay": 0, "clock_reserve": 3600}).json()
    gid = d["game_id"]
    guest = client.post(f"/api/games/{gid}/join", headers=bearer(d["invite_token"])).json()["token"]
    for _ in range(20):
        r = client.post(f"/api/games/{gid}/actions", headers=bearer(guest), json={"type": "roll"})
        s = r.json()["state"]
        if s["phase"] == "move":
            break
    mover = s["to_act"]
    time.sleep(0.3)
    with TestClient(app_for(db)) as again:
        after = again.get(f"/api/games/{gid}").json()["clock"]
    assert after["running"] == mover and after["remaining"][mover] <= 3600 - 0.3
    assert after["remaining"][1 - mover] == 3600


def test_no_clock_by_default(client: TestClient) -> None:
    d = client.post("/api/games", json={"opponent": "computer"}).json()
    assert d["state"]["clock"] is None
