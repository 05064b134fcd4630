"""A logged-in player's seats belong to the account: the game opens on a second device after logging
in there; a guest's seat never becomes an account's; a deleted player's games stay, renamed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from accounts37_helpers import (
    PASSWORD,
    SAME,
    TestClient,
    database_url,
    make_client,
    other_client,
    sign_up,
    table_rows,
)
from webclient import bearer


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    yield from make_client(database_url(request.param, tmp_path_factory.mktemp("seats")))


def _bearer(token: str) -> dict[str, str]:
    return {**bearer(token), **SAME}


def _new_game(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/games", json={"opponent": "human", "name": "typed name", **body}, headers=SAME)
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_the_game_opens_on_a_second_device(client: TestClient) -> None:
    laptop = other_client(client)
    sign_up(laptop, "Vic Devices")
    game = _new_game(laptop)
    gid = game["game_id"]
    assert game["state"]["seats"][game["seat"]]["name"] == "Vic Devices"  # the account's, not the typed name
    assert laptop.get("/api/account").json()["seats"] == [{"game_id": gid, "seat": game["seat"],
                                                           "status": "waiting"}]
    phone = other_client(client)
    r = phone.post(f"/api/account/games/{gid}/token", headers=SAME)
    assert r.status_code == 401  # not logged in there yet
    r = phone.post("/api/session", json={"name": "Vic Devices", "password": PASSWORD}, headers=SAME)
    assert r.status_code == 200
    r = phone.post(f"/api/account/games/{gid}/token", headers=SAME)
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == game["seat"] and r.json()["token"] != game["token"]
    # the phone's token holds the seat now; the laptop's old one does not (the laptop asks again)
    assert client.get(f"/api/games/{gid}", headers=_bearer(r.json()["token"])).json()["you"] == game["seat"]
    assert client.get(f"/api/games/{gid}", headers=_bearer(game["token"])).status_code == 403
    again = laptop.post(f"/api/account/games/{gid}/token", headers=SAME)
    assert client.get(f"/api/games/{gid}", headers=_bearer(again.json()["token"])).status_code == 200


def test_a_joined_seat_is_the_joiners_account(client: TestClient) -> None:
    host, guest = other_client(client), other_client(client)
    sign_up(host, "Wes Host")
    sign_up(guest, "Xan Joiner")
    game = _new_game(host)
    r = guest.post(f"/api/games/{game['game_id']}/join", headers=_bearer(game["invite_token"]),
                   json={"name": "someone else"})
    assert r.status_code == 200, r.text
    seat = r.json()["seat"]
    assert r.json()["state"]["seats"][seat]["name"] == "Xan Joiner"
    assert [s["game_id"] for s in guest.get("/api/account").json()["seats"]] == [game["game_id"]]


def test_a_guest_seat_token_cannot_be_promoted_to_an_account(client: TestClient) -> None:
    guest = other_client(client)
    game = client.post("/api/games", json={"opponent": "human"}).json()  # as a guest: no cookie
    sign_up(guest, "Yul Promoter")  # logs in afterwards, holding the guest's token
    r = guest.post(f"/api/account/games/{game['game_id']}/token", headers=_bearer(game["token"]))
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert guest.get("/api/account").json()["seats"] == []
    # the guest's token still works as before: guests play exactly as today
    assert client.get(f"/api/games/{game['game_id']}", headers=_bearer(game["token"])).status_code == 200


def test_another_account_cannot_take_my_seat(client: TestClient) -> None:
    owner, thief = other_client(client), other_client(client)
    sign_up(owner, "Zed Owner")
    sign_up(thief, "Abe Thief")
    game = _new_game(owner)
    r = thief.post(f"/api/account/games/{game['game_id']}/token", headers=SAME)
    assert r.status_code == 404
    assert client.get(f"/api/games/{game['game_id']}", headers=_bearer(game["token"])).status_code == 200
    assert thief.get("/api/account").json()["seats"] == []  # nor can it read the owner's seats


def test_a_deleted_players_games_stay_named_deleted_player(client: TestClient) -> None:
    leaver = other_client(client)
    sign_up(leaver, "Bea Leaver")
    game = _new_game(leaver)
    gid, seat = game["game_id"], game["seat"]
    r = leaver.post("/api/account/delete", json={"password": PASSWORD}, headers=SAME)
    assert r.status_code == 200 and r.json()["games_renamed"] == 1
    state = client.get(f"/api/games/{gid}").json()
    assert state["seats"][seat]["name"] == "deleted player"
    assert table_rows(client, "SELECT * FROM account_seats WHERE game_id = :g", g=gid) == []
    assert table_rows(client, "SELECT id FROM games WHERE id = :g", g=gid) == [(gid,)]
