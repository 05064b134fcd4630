"""Clocks that charge only the player who thinks (issue 33, item 6): one delay per turn, one
resignation offer per turn, the computer's move checked against its clock, and clock limits shown
wherever a game is offered.

Before: every action (the roll, then the play) started a fresh delay, a player could offer to resign
again and again (each rejection gave them a fresh delay, so a clocked game stalled at no cost), the
computer's move was stored however late it came, and any reserve was accepted (a 1 s reserve public
match was lost 7-0 by the stranger who joined).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from gammon.play.levels import make_computer_player
from gammon.store import open_store
from gammon.web import Settings, create_app
from gammon.web.ratelimit import RateLimits
from gammon.web.service import GameService
from gammon.web.service.clock import Clock, ClockSettings, Outages
from gammon.web.service.requests import Command, GameSetup
from webclient import TestClient, bearer

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def app_for(db: Path, test_server: bool) -> Any:
    return create_app(Settings(database_url=str(db), allow_test_seeds=test_server,
                               rate_limits=RateLimits(enabled=False)))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """A test server: fixed dice, and clocks short enough to run out in a test."""
    with TestClient(app_for(tmp_path_factory.mktemp("clock-rules") / "gammon.db", True)) as c:
        yield c


@pytest.fixture(scope="module")
def public(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """A server as strangers meet it: the clock limits hold."""
    with TestClient(app_for(tmp_path_factory.mktemp("clock-public") / "gammon.db", False)) as c:
        yield c


# -- the arithmetic --------------------------------------------------------------------------------


def test_one_delay_per_turn_shared_by_its_actions() -> None:
    clock = Clock(ClockSettings(delay=5, reserve=60))
    clock.charge(at(0), 0, turn=1)  # seat 0's turn: it rolls after 4 s, plays 4 s later
    clock.charge(at(4), 0, turn=1)
    clock.charge(at(8), 1, turn=2)
    assert clock.used == [3, 0]  # 8 s in one turn, 5 of them free (before: two fresh delays, nothing used)
    clock.charge(at(10), 0, turn=2)  # seat 1 doubles after 2 s: seat 0 answers in seat 1's turn
    clock.charge(at(16), 1, turn=2)  # 6 s to take: seat 0's own delay for its answers in this turn
    assert clock.used == [4, 0]
    assert clock.delay_left(at(17)) == 2  # seat 1 goes on with what its turn's delay has left
    assert clock.remaining(1, at(21)) == 58
    clock.charge(at(21), 0, turn=3)
    assert clock.used == [4, 2]


def test_downtime_is_left_out_of_every_span() -> None:
    outages = Outages()
    clock = Clock(ClockSettings(delay=0, reserve=60), outages)
    clock.charge(at(0), 0, turn=1)
    assert clock.remaining(0, at(100)) == -40
    outages.add(at(10), at(90))  # found later (the restart stores it): the sums are made again
    assert clock.remaining(0, at(100)) == 40
    clock.charge(at(100), 1, turn=2)
    outages.add(at(120), at(130))
    outages.add(at(125), at(140))  # overlapping outages count once
    assert outages.spans == [(at(10), at(90)), (at(120), at(140))]
    assert clock.used == [20, 0] and clock.remaining(1, at(150)) == 30
    assert clock.timed_out(at(160)) is None and clock.timed_out(at(191)) == 1


def first_play(state: dict[str, Any]) -> str:
    return str(state["legal_plays"][0]["notation"])


# -- resignations ----------------------------------------------------------------------------------


SEED = bytes(range(7, 39)).hex()  # fixed dice: the second turn has a play to make


def started(c: TestClient, delay: float, reserve: float) -> tuple[str, tuple[str, str], int]:
    d = c.post("/api/games", json={"opponent": "human", "match_length": 3, "clock_delay": delay,
                                   "clock_reserve": reserve, "test_seed": SEED}).json()
    gid = d["game_id"]
    guest = c.post(f"/api/games/{gid}/join", headers=bearer(d["invite_token"])).json()["token"]
    for _ in range(20):
        r = c.post(f"/api/games/{gid}/actions", headers=bearer(d["token"]), json={"type": "roll"})
        s = r.json()["state"]
        if s["phase"] == "move":
            return gid, (d["token"], guest), int(s["to_act"])
    raise AssertionError("the opening never ended")


def test_a_stream_of_resignation_offers_cannot_stall_a_clocked_game(client: TestClient) -> None:
    """The attack: offer to resign, have it rejected, offer again, ... each offer within the delay.
    Only the first offer of the turn is taken; the offerer's delay goes on running across the offer."""
    delay = 1.0
    gid, tokens, mover, = started(client, delay, 60)
    url = f"/api/games/{gid}/actions"
    codes = []
    for _ in range(3):
        time.sleep(0.4)  # the offerer's own time: within a fresh delay each time, but not all together
        r = client.post(url, headers=bearer(tokens[mover]), json={"type": "resign", "kind": "backgammon"})
        codes.append(r.status_code if r.status_code == 200 else r.json()["error"]["code"])
        if r.status_code == 200:
            answer = client.post(url, headers=bearer(tokens[1 - mover]), json={"type": "reject"})
            assert answer.status_code == 200
    assert codes == [200, "resignation_limit", "resignation_limit"]
    s = client.get(f"/api/games/{gid}", headers=bearer(tokens[mover])).json()
    assert s["phase"] == "move" and "resign" not in s["allowed_actions"] and s["allowed_actions"] == ["play"]
    clock = s["clock"]
    assert clock["running"] == mover
    # 1.2 s of the offerer's own time in one turn: its one delay is spent, the reserve is running.
    assert clock["delay_left"] == 0 and clock["remaining"][mover] <= 60 - 0.2
    # The next turn brings the next chance to offer.
    client.post(url, headers=bearer(tokens[mover]), json={"type": "play", "play": first_play(s)})
    s = client.get(f"/api/games/{gid}", headers=bearer(tokens[1 - mover])).json()
    assert "resign" in s["allowed_actions"]


def test_the_roll_and_the_play_share_one_delay(client: TestClient) -> None:
    gid, tokens, mover = started(client, 0.8, 60)
    url = f"/api/games/{gid}/actions"
    s = client.get(f"/api/games/{gid}", headers=bearer(tokens[mover])).json()
    client.post(url, headers=bearer(tokens[mover]), json={"type": "play", "play": first_play(s)})
    other = 1 - mover
    time.sleep(0.5)
    s = client.post(url, headers=bearer(tokens[other]), json={"type": "roll"}).json()["state"]
    time.sleep(0.5)  # 1 s in the turn: beyond its 0.8 s delay (before: a fresh delay after the roll)
    s = client.get(f"/api/games/{gid}", headers=bearer(tokens[other])).json()
    assert s["phase"] == "move" and s["clock"]["running"] == other
    assert s["clock"]["delay_left"] == 0 and s["clock"]["remaining"][other] <= 60 - 0.2


# -- the computer ----------------------------------------------------------------------------------


class SlowComputer:
    """A computer player that thinks ``pause`` seconds before each decision (a slow engine)."""

    def __init__(self, pause: float, seed: int | None) -> None:
        self.inner = make_computer_player("heuristic", seed)
        self.pause = pause

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if not callable(attr):
            return attr

        def slow(*args: Any, **kw: Any) -> Any:
            time.sleep(self.pause)
            return attr(*args, **kw)
        return slow


def test_a_computer_move_after_its_time_ran_out_is_not_stored(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "gammon.db"))
    service = GameService(store, allow_test_seeds=True,
                          computer_factory=lambda level, seed: SlowComputer(0.8, seed))  # type: ignore[arg-type,return-value]
    try:
        created = service.create_game(GameSetup(opponent="computer", clock_delay=0.1, clock_reserve=0.2))
        gid, token = created.game_id, created.token
        for _ in range(20):
            view = service.act(gid, token, Command("roll")).view
            assert view is not None
            if view.phase == "move":
                break
        if view.to_act == 0:  # the person won the opening: they play, then it is the computer's turn
            service.act(gid, token, Command("play", view.legal_plays[0].notation))
        before = len(service.action_log(gid)[1])
        assert service.computer_step(gid) is False  # it thought 0.8 s with 0.3 s on its clock
        log = service.action_log(gid)[1]
        assert len(log) == before + 1 and log[-1].type == "timeout" and log[-1].player == 1
        s = service.view(gid, token)
        assert s.match.over and s.match.timeout == 1 and s.match.winner == 0
        assert service.computer_step(gid) is False and len(service.action_log(gid)[1]) == before + 1
    finally:
        service.close()
        store.dispose()


# -- limits, and the clock shown where a game is offered ---------------------------------------------


@pytest.mark.parametrize(("delay", "reserve", "says"), [
    (3, 1, "clock_reserve"),  # the 1 s public match
    (0, 60, "clock_delay"),
    (1, 600, "clock_delay"),
    (3, 29, "clock_reserve"),
    (5, 0, "clock_delay must be 0"),
])
def test_a_clock_out_of_range_is_refused_with_a_clear_422(public: TestClient, delay: float, reserve: float,
                                                          says: str) -> None:
    r = public.post("/api/games", json={"opponent": "human", "public": True, "clock_delay": delay,
                                        "clock_reserve": reserve})
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "invalid_clock" and says in error["message"]
    for field, value in (("clock_reserve", 40000), ("clock_delay", 601), ("clock_reserve", -1)):
        r = public.post("/api/games", json={"opponent": "human", field: value})
        assert r.status_code == 422 and field in r.json()["error"]["message"], r.text


def test_the_clock_is_shown_in_the_lobby_and_on_the_invitation(public: TestClient) -> None:
    d = public.post("/api/games", json={"opponent": "human", "public": True, "name": "Host", "clock_delay": 3,
                                        "clock_reserve": 30}).json()
    assert d["state"]["rules"]["clock"] == {"delay": 3, "reserve": 30}
    listed = {g["game_id"]: g for g in public.get("/api/lobby").json()["games"]}
    assert listed[d["game_id"]]["rules"]["clock"] == {"delay": 3, "reserve": 30}
    offer = public.get(f"/api/games/{d['game_id']}/invitation", headers=bearer(d["invite_token"])).json()
    assert offer["rules"]["clock"] == {"delay": 3, "reserve": 30}
    plain = public.post("/api/games", json={"opponent": "human", "public": True}).json()
    assert plain["state"]["rules"]["clock"] is None
