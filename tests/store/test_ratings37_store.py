"""Recording finished matches under races: the same match recorded by many threads (and, on
PostgreSQL, by two stores as two server processes would be) counts once; two matches of one player
ending at once are rated one after the other, the second from the first's result."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from accounts37_helpers import TestClient, table_rows
from gammon.store import open_store
from gammon.store.ratings import Outcome, RatingStore
from gammon.web.fibs_rating import rate_match
from ratings37_helpers import new_match, player, rating_client


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    yield from rating_client(request.param, tmp_path_factory.mktemp("ratings_store"))


def _stores(c: TestClient) -> list[RatingStore]:
    """One rating store per server process: two on PostgreSQL (two engines), one on SQLite (one
    process per SQLite file), which its threads share."""
    mine = c.app.state.ratings.store  # type: ignore[attr-defined]
    if mine.engine.dialect.name != "postgresql":
        return [mine]
    other = open_store(mine.engine.url.render_as_string(hide_password=False), migrate=False)
    return [mine, RatingStore(other)]


def _race(stores: list[RatingStore], jobs: list[tuple[Outcome, str]], per_job: int) -> list[bool]:
    """Record each job's outcome ``per_job`` times at once, spread over ``stores``: the answers."""
    answers: list[bool] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(jobs) * per_job)
    lock = threading.Lock()

    def run(i: int, outcome: Outcome, game_id: str) -> None:
        store = stores[i % len(stores)]
        try:
            barrier.wait()
            done = store.record(outcome, store.seat_accounts(game_id), rate_match)
            with lock:
                answers.append(done)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i, o, g)) for i, (o, g) in
               enumerate(j for j in jobs for _ in range(per_job))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    return answers


def _outcome(game_id: str, winner: int, length: int = 1) -> Outcome:
    return Outcome(game_id, length, winner, (False, False), datetime.now(UTC))


def test_the_same_match_recorded_at_once_counts_once(client: TestClient) -> None:
    pat, quin = player(client, "Pat Race"), player(client, "Quin Race")
    gid, _, pat_seat = new_match(pat, quin, match_length=1)  # not played: the race records its end
    answers = _race(_stores(client), [(_outcome(gid, pat_seat), gid)], per_job=8)
    assert sorted(answers) == [False] * 7 + [True]
    assert len(table_rows(client, "SELECT * FROM match_results WHERE game_id = :g", g=gid)) == 2
    assert client.get("/api/players/Pat Race").json()["rating"] == 1510.0
    assert client.get("/api/players/Quin Race").json()["experience"] == 1


def test_two_matches_of_one_player_at_once_are_rated_in_turn(client: TestClient) -> None:
    ray, sam, tia = player(client, "Ray Busy"), player(client, "Sam Busy"), player(client, "Tia Busy")
    g1, _, ray1 = new_match(ray, sam, match_length=1)
    g2, _, ray2 = new_match(ray, tia, match_length=1)
    answers = _race(_stores(client), [(_outcome(g1, ray1), g1), (_outcome(g2, ray2), g2)], per_job=3)
    assert sorted(answers) == [False] * 4 + [True] * 2
    ray_rows = table_rows(client, "SELECT rating_before, rating_after FROM match_results m JOIN accounts a "
                                  "ON a.id = m.account_id WHERE a.name = 'Ray Busy' ORDER BY rating_before")
    # Ray won both from 1500 against fresh players: first +10 (K = 5, P = 1/2); the second from 1510
    # against 1500 as favourite: D = 10, P = P_upset = 1/(10^(10/2000) + 1), K = 5 - 1/100 = 4.99.
    p = 1 / (10 ** (10 / 2000) + 1)
    assert [tuple(r) for r in ray_rows] == [(1500.0, 1510.0), (1510.0, pytest.approx(1510 + 4 * 4.99 * p))]
    profile = client.get("/api/players/Ray Busy").json()
    assert profile["experience"] == 2 and profile["record"]["rated_wins"] == 2
