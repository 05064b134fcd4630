"""Two submissions of the same turn at the same moment: exactly one is applied, the other gets 409.

Over HTTP (many threads against one server), and between two services on one
database that share no lock, as two server processes would (SQLite, and
PostgreSQL when GAMMON_TEST_POSTGRES_URL is set).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from databases import postgres_url_or_skip
from gammon.store import open_store
from gammon.web import Settings, create_app
from gammon.web.service import Command, ConflictError, GameService, GameSetup
from gammon.web.testing import ThreadedServer
from webclient import TEST_SERVER, bearer

#: These tests play fast on purpose: the rate limits have their own tests (test_server_limits.py).

SEED = bytes(range(50, 82))  # its opening roll is no tie
THREADS = 6


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    if request.param == "postgresql":
        return postgres_url_or_skip("the PostgreSQL concurrency tests")
    return str(tmp_path_factory.mktemp("race") / "gammon.db")


@pytest.fixture(scope="module")
def server(db_url: str) -> Iterator[ThreadedServer]:
    settings = Settings(database_url=db_url, **TEST_SERVER)
    with ThreadedServer(create_app(settings)) as s:
        yield s


def all_at_once(n: int, fn: Any) -> list[Any]:
    """Run ``fn(i)`` in ``n`` threads released together; their results in order."""
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n

    def run(i: int) -> None:
        barrier.wait()
        results[i] = fn(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def test_simultaneous_http_submissions_apply_once(server: ThreadedServer) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as c:
        d = c.post("/api/games", json={"opponent": "human", "test_seed": SEED.hex()}).json()
        joined = c.post(f"/api/games/{d['game_id']}/join", headers=bearer(d["invite_token"]))
        assert joined.status_code == 200
        gid, tokens = d["game_id"], (d["token"], joined.json()["token"])
        clients = [httpx.Client(base_url=server.url, timeout=20) for _ in range(THREADS)]
        try:
            for turn in range(8):
                before = c.get(f"/api/games/{gid}/actions").json()["actions"]
                states = [c.get(f"/api/games/{gid}", headers=bearer(t)).json() for t in tokens]
                seat = 0 if states[0]["allowed_actions"] else 1
                s = states[seat]
                if "play" in s["allowed_actions"]:
                    plays = s["legal_plays"]
                    bodies = [{"type": "play", "play": plays[i % len(plays)]["notation"]}
                              for i in range(THREADS)]
                else:
                    bodies = [{"type": "roll"} for _ in range(THREADS)]
                if turn % 2 == 0:  # half the turns with expected_version, half without
                    for b in bodies:
                        b["expected_version"] = s["version"]

                def submit(i: int, bodies: list[dict[str, Any]] = bodies, seat: int = seat) -> httpx.Response:
                    return clients[i].post(f"/api/games/{gid}/actions", json=bodies[i],
                                           headers=bearer(tokens[seat]))

                responses = all_at_once(THREADS, submit)
                codes = sorted(r.status_code for r in responses)
                assert codes == [200] + [409] * (THREADS - 1), [r.text for r in responses]
                for r in responses:
                    if r.status_code == 409:
                        code = r.json()["error"]["code"]
                        assert code in ("version_conflict", "illegal_action", "not_your_turn")
                after = c.get(f"/api/games/{gid}/actions").json()["actions"]
                assert len(after) == len(before) + 1, "exactly one action stored"
                winner = next(r for r in responses if r.status_code == 200).json()
                assert winner["actions"][0] == after[-1]
        finally:
            for cl in clients:
                cl.close()


def test_two_services_sharing_no_lock_store_one_action(db_url: str, tmp_path: Path) -> None:
    """Like two server processes: each has its own cache and locks; the version check decides."""
    stores = [open_store(db_url), open_store(db_url)]
    services = [GameService(s, allow_test_seeds=True) for s in stores]
    try:
        created = services[0].create_game(GameSetup(opponent="human", test_seed=SEED))
        gid = created.game_id
        tokens = (created.token, services[1].join(gid, created.invite_token).token)
        for expected in (True, False):
            # Both services have the game at the same version before the race.
            views = [svc.view(gid, tokens[0]) for svc in services]
            assert views[0].version == views[1].version
            seat = 0 if views[0].allowed_actions else 1
            version = views[0].version
            # Hold both writers at the door until both have applied the action in memory.
            door = threading.Barrier(2)
            for svc in services:
                real = svc.store.append_action

                def held(*args: Any, _real: Any = real, _door: threading.Barrier = door, **kw: Any) -> Any:
                    _door.wait(10)
                    return _real(*args, **kw)

                svc.store.append_action = held  # type: ignore[method-assign]

            def attempt(i: int, seat: int = seat, version: int = version, expected: bool = expected) -> Any:
                try:
                    return services[i].act(gid, tokens[seat], Command("roll"), version if expected else None)
                except ConflictError as exc:
                    return exc

            results = all_at_once(2, attempt)
            for svc in services:
                del svc.store.append_action  # type: ignore[method-assign]
            errors = [r for r in results if isinstance(r, ConflictError)]
            assert len(errors) == 1, results
            assert errors[0].code == ("version_conflict" if expected else "illegal_action")
            winner = next(r for r in results if not isinstance(r, ConflictError))
            assert winner.version == version + 1
            # Both services now agree with the store.
            a, b = (svc.view(gid, tokens[seat]) for svc in services)
            assert a.version == b.version == version + 1 and a.board == b.board and a.dice == b.dice
            # Play the roll so that the next round is a roll again.
            mover = a.to_act
            assert mover is not None and a.phase == "move"
            legal = services[0].view(gid, tokens[mover]).legal_plays
            assert legal
            services[0].act(gid, tokens[mover], Command("play", play=legal[0].notation))
        assert stores[0].count_actions(gid) == len(services[1].action_log(gid)[1])
    finally:
        for s in stores:
            s.dispose()
