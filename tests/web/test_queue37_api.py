"""Finding an opponent through the API, as players and an attacker would: two accounts in the rated
1-point queue are paired into one game whose seats are their accounts' (tokens from the account
endpoint; a third account gets none), the match is rated by the FIBS formula; guests, cross-site
pages and a second queue are refused; challenges go to a named player, only they accept; the live
list shows who is online and the game."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from accounts37_helpers import EVIL, PG_URL, SAME, TestClient, make_client, other_client, own_postgres_url
from gammon.web.testing import reset_postgres
from ratings37_helpers import player, resign_match


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    if request.param == "postgresql":
        if not PG_URL:
            pytest.skip("GAMMON_TEST_POSTGRES_URL is not set: PostgreSQL tests skipped")
        url = own_postgres_url(PG_URL, "gammon_queue37")
        reset_postgres(url)
    else:
        url = str(tmp_path_factory.mktemp("queue") / "gammon.db")
    yield from make_client(url)


def seat_token(c: TestClient, gid: str, status: int = 200) -> dict:  # type: ignore[type-arg]
    r = c.post(f"/api/account/games/{gid}/token", headers=SAME)
    assert r.status_code == status, r.text
    return dict(r.json())


def test_guests_and_other_sites_cannot_queue(client: TestClient) -> None:
    guest = other_client(client)
    assert guest.post("/api/queue", json={"match_length": 1}, headers=SAME).status_code == 401
    assert guest.get("/api/queue").status_code == 401
    ann = player(client, "Ann Guarded")
    r = ann.post("/api/queue", json={"match_length": 1}, headers=EVIL)  # the cookie, from another site's page
    assert r.status_code == 403, r.text
    assert ann.get("/api/queue").json()["state"] == "idle"
    assert ann.post("/api/queue", json={"match_length": 4}, headers=SAME).status_code == 422
    assert ann.post("/api/queue", json={"match_length": "1; drop"}, headers=SAME).status_code == 422


def test_two_players_are_paired_play_and_are_rated(client: TestClient) -> None:
    ann, bob, eve = player(client, "Ann Queue"), player(client, "Bob Queue"), player(client, "Eve Queue")
    r = ann.post("/api/queue", json={"match_length": 1}, headers=SAME)
    assert r.status_code == 200 and r.json()["state"] == "waiting", r.text
    assert r.json()["gap"] >= 50 and r.json()["waiting"]["1"] == 1
    # One queue at a time: Ann cannot wait for a 3-point match as well.
    assert ann.post("/api/queue", json={"match_length": 3}, headers=SAME).status_code == 409
    r = bob.post("/api/queue", json={"match_length": 1}, headers=SAME)
    assert r.json()["state"] == "matched", r.text
    gid = r.json()["game_id"]
    mine = ann.get("/api/queue").json()
    assert mine["state"] == "matched" and mine["game_id"] == gid and {mine["seat"], r.json()["seat"]} == {0, 1}
    tokens = {t["seat"]: t["token"] for t in (seat_token(ann, gid), seat_token(bob, gid))}
    assert set(tokens) == {0, 1}
    seat_token(eve, gid, status=404)  # a third account holds no seat in it
    state = client.get(f"/api/games/{gid}").json()
    assert state["status"] == "active"
    assert sorted(s["name"] for s in state["seats"]) == ["Ann Queue", "Bob Queue"]
    assert state["match"]["length"] == 1
    live = client.get("/api/live").json()
    assert gid in [g["game_id"] for g in live["games"]]
    assert {"Ann Queue", "Bob Queue"} <= set(live["online"])
    # Bob resigns: two newcomers in a 1-point match move by 10 each way (the FIBS formula).
    bob_seat = r.json()["seat"]
    assert resign_match(client, gid, tokens, loser=bob_seat)["status"] == "finished"
    a, b = client.get("/api/players/Ann Queue").json(), client.get("/api/players/Bob Queue").json()
    assert (a["rating"], b["rating"]) == (1510.0, 1490.0)
    assert a["matches"][0]["game_id"] == gid and a["matches"][0]["kind"] == "rated"
    assert gid not in [g["game_id"] for g in client.get("/api/live").json()["games"]]
    # Leaving: back to idle; the next join waits again.
    assert ann.delete("/api/queue", headers=SAME).json()["state"] == "idle"
    assert ann.get("/api/queue").json()["state"] == "idle"


def test_challenges_go_to_the_named_player_only(client: TestClient) -> None:
    ann, bob = player(client, "Ann Challenger"), player(client, "Bob Challenged")
    eve = player(client, "Eve Nosy")
    assert other_client(client).post("/api/challenges", json={"name": "Bob Challenged", "match_length": 3},
                                     headers=SAME).status_code == 401
    assert ann.post("/api/challenges", json={"name": "Nobody Here", "match_length": 3},
                    headers=SAME).status_code == 404
    assert ann.post("/api/challenges", json={"name": "ann challenger", "match_length": 3},
                    headers=SAME).status_code == 409
    r = ann.post("/api/challenges", json={"name": "bob challenged", "match_length": 3}, headers=SAME)
    assert r.status_code == 201, r.text
    c = r.json()
    assert (c["challenger"], c["challenged"], c["status"]) == ("Ann Challenger", "Bob Challenged", "open")
    assert [x["id"] for x in bob.get("/api/challenges").json()["received"]] == [c["id"]]
    assert eve.get("/api/challenges").json() == {"received": [], "sent": []}
    assert eve.post(f"/api/challenges/{c['id']}/accept", headers=SAME).status_code == 404
    assert ann.post(f"/api/challenges/{c['id']}/accept", headers=SAME).status_code == 403
    assert bob.post(f"/api/challenges/{c['id']}/accept", headers=EVIL).status_code == 403
    r = bob.post(f"/api/challenges/{c['id']}/accept", headers=SAME)
    assert r.status_code == 200 and r.json()["status"] == "accepted", r.text
    gid = r.json()["game_id"]
    assert ann.get("/api/challenges").json()["sent"][0]["game_id"] == gid
    assert {seat_token(ann, gid)["seat"], seat_token(bob, gid)["seat"]} == {0, 1}
    assert client.get(f"/api/games/{gid}").json()["match"]["length"] == 3
    assert bob.post(f"/api/challenges/{c['id']}/decline", headers=SAME).status_code == 409
    d = ann.post("/api/challenges", json={"name": "Bob Challenged", "match_length": 1}, headers=SAME).json()
    assert bob.post(f"/api/challenges/{d['id']}/decline", headers=SAME).json()["status"] == "declined"
