"""The after-game analysis queued fairly (issue 33, item 6).

The attack: one address asked for the analyses of 42 finished games, one thread
analyses at a time, and a player's own analysis waited behind all of them (1.1 s
became 14.7 s).  Now the players of a game go first, the requesters take turns,
and an address has at most two analyses of other people's games waiting.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from gammon.core.game import Rules
from gammon.web import Settings, create_app
from gammon.web.ratelimit import RateLimits
from gammon.web.schemas import AnalysisResult
from gammon.web.service import BusyError
from gammon.web.service import analysis as analysis_module
from gammon.web.service.analysis import Analyses, Snapshot
from gammon.web.testing import ThreadedServer, pick_action
from webclient import bearer, client_at


class Gate:
    """Stands in for the analysis: records the order the games are analysed in, one at a time,
    each waiting until the test lets it finish."""

    def __init__(self) -> None:
        self.order: list[str] = []
        self.started = threading.Semaphore(0)
        self.release = threading.Semaphore(0)

    def __call__(self, s: Snapshot, plies: int, progress: Any = None, valuer: Any = None) -> AnalysisResult:
        self.order.append(s.game_id)
        self.started.release()
        assert self.release.acquire(timeout=20)
        return AnalysisResult(game_id=s.game_id, status="done", done=1, total=1, engine="x")

    def finish(self, jobs: Analyses, count: int) -> None:
        """Let ``count`` analyses finish one at a time, in whatever order the queue starts them."""
        for _ in range(count):
            assert self.started.acquire(timeout=20)
            gid = self.order[-1]
            self.release.release()
            assert jobs.wait(gid, 20) is not None


@pytest.fixture()
def gate(monkeypatch: pytest.MonkeyPatch) -> Gate:
    g = Gate()
    monkeypatch.setattr(analysis_module, "analyse_snapshot", g)
    monkeypatch.setattr(Analyses, "_valuer", lambda self: None)
    return g


def snap(game_id: str) -> Snapshot:
    return Snapshot(game_id, Rules(), ((),), None, ("Ann", "Bob"), ())


def test_the_players_go_first_and_an_address_waits_for_two_at_most(gate: Gate) -> None:
    jobs = Analyses(plies=0)
    try:
        jobs.start(snap("spam0"), "6.6.6.6", player=False)
        assert gate.started.acquire(timeout=20)  # the first one runs; the next wait their turn
        gate.started.release()
        jobs.start(snap("spam1"), "6.6.6.6", player=False)
        with pytest.raises(BusyError):  # the address's third: refused, not queued
            jobs.start(snap("spam2"), "6.6.6.6", player=False)
        jobs.start(snap("other"), "7.7.7.7", player=False)
        jobs.start(snap("mine"), "1.2.3.4", player=True)  # a player of that game: ahead of the others
        jobs.start(snap("other"), "7.7.7.7", player=True)  # a player asks too: that game moves ahead
        gate.finish(jobs, 4)
        assert gate.order == ["spam0", "mine", "other", "spam1"]
        jobs.start(snap("spam2"), "6.6.6.6", player=False)  # done ones make room again
        gate.finish(jobs, 1)
    finally:
        for _ in range(10):
            gate.release.release()
        jobs.close()


def test_requesters_take_turns(gate: Gate) -> None:
    """Many analyses from one address (its own games) delay another's by one at most."""
    jobs = Analyses(plies=0)
    try:
        for i in range(6):
            jobs.start(snap(f"a{i}"), "6.6.6.6", player=True)
        jobs.start(snap("b0"), "1.2.3.4", player=True)
        gate.finish(jobs, 7)
        assert gate.order.index("b0") <= 2 and sorted(gate.order) == sorted(f"a{i}" for i in range(6)) + ["b0"]
    finally:
        for _ in range(10):
            gate.release.release()
        jobs.close()


# -- over HTTP, from several addresses ---------------------------------------------------------


@pytest.fixture()
def server(tmp_path: Any, gate: Gate) -> Iterator[ThreadedServer]:
    settings = Settings(database_url=str(tmp_path / "g.db"), analysis_plies=0,
                        rate_limits=RateLimits(client="100/second", game="100/second"))
    with ThreadedServer(create_app(settings)) as s:
        yield s
        for _ in range(20):
            gate.release.release()


def finished(ann: httpx.Client, bob: httpx.Client) -> tuple[str, str]:
    """A game between Ann and Bob, over at the first double (dropped); its id and Ann's token."""
    d = ann.post("/api/games", json={"opponent": "human"}).json()
    gid, tokens = d["game_id"], [d["token"], ""]
    tokens[1] = bob.post(f"/api/games/{gid}/join", headers=bearer(d["invite_token"])
                         ).json()["token"]
    for _ in range(100):
        for seat, c in enumerate((ann, bob)):
            auth = bearer(tokens[seat])
            state = c.get(f"/api/games/{gid}", headers=auth).json()
            if state["match"]["over"]:
                return gid, tokens[0]
            allowed = state["allowed_actions"]
            action = ({"type": "double"} if "double" in allowed else {"type": "drop"} if "drop" in allowed
                      else pick_action(state))
            if action is not None:
                c.post(f"/api/games/{gid}/actions", headers=auth, json=action)
    raise AssertionError("the game did not end")


def test_over_http_a_spectators_address_is_bounded_and_a_player_is_not(server: ThreadedServer,
                                                                       gate: Gate) -> None:
    with client_at(server, "127.0.0.2") as ann, client_at(server, "127.0.0.3") as bob, \
            client_at(server, "127.0.0.2") as neighbour:
        games = [finished(ann, bob) for _ in range(4)]
        answers = [neighbour.get(f"/api/games/{gid}/analysis") for gid, _ in games[:3]]
        assert [a.status_code for a in answers] == [200, 200, 429]  # a third waiting one: later, please
        assert answers[2].json()["error"]["code"] == "too_busy" and int(answers[2].headers["retry-after"]) >= 1
        # Ann, behind the same address, asks for her own game's analysis: accepted, and next in line.
        mine = ann.get(f"/api/games/{games[3][0]}/analysis", headers=bearer(games[3][1]))
        assert mine.status_code == 200 and mine.json()["status"] == "running"
        jobs = server.server.config.app.state.service.analyses
        gate.finish(jobs, 3)
        assert gate.order == [games[0][0], games[3][0], games[1][0]]
