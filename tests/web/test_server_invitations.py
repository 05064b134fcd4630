"""Invitations are single-use: joining consumes one and gives the joiner a seat token of its own.

Written from issue 11's first security item: the creator (or anyone who saw the
link) must not be able to act for the guest, join again, or seat a third
person with the invitation; a used invitation is refused with 410 and says
the seat is taken; each stored action names the token that acted.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from gammon.store import open_store
from gammon.web.service import ForbiddenError, GameService, GameSetup, GoneError, hash_token
from gammon.web.testing import auth_message, pick_action
from webclient import TEST_SERVER, TestClient, bearer, client_fixture

client = client_fixture("invite", **TEST_SERVER)


def error_code(r: Any) -> str:
    return str(r.json()["error"]["code"])


def test_a_used_invitation_seats_nobody_and_acts_for_nobody(client: TestClient) -> None:
    d = client.post("/api/games", json={"opponent": "human", "name": "Ann"}).json()
    gid, host, invite = d["game_id"], d["token"], d["invite_token"]
    # Before it is used, the invitation is not a seat token: it can neither read a seat's view nor act.
    assert client.get(f"/api/games/{gid}", headers=bearer(invite)).status_code == 403
    offer = client.get(f"/api/games/{gid}/invitation", headers=bearer(invite))
    assert offer.status_code == 200 and offer.json()["seat"] == 1 and offer.json()["host"] == "Ann"
    joined = client.post(f"/api/games/{gid}/join", headers=bearer(invite), json={"name": "Bob"})
    assert joined.status_code == 200
    guest = joined.json()["token"]
    assert guest != invite and len(guest) >= 43
    # The invitation again: joining, reading the offer, acting, reading a seat, a socket: all refused.
    again = client.post(f"/api/games/{gid}/join", headers=bearer(invite), json={"name": "Carol"})
    assert again.status_code == 410 and error_code(again) == "invitation_used"
    assert "seat is taken" in again.json()["error"]["message"]
    assert client.get(f"/api/games/{gid}/invitation", headers=bearer(invite)).status_code == 410
    acted = client.post(f"/api/games/{gid}/actions", headers=bearer(invite), json={"type": "roll"})
    assert acted.status_code == 403 and error_code(acted) == "forbidden"
    assert client.get(f"/api/games/{gid}", headers=bearer(invite)).status_code == 403
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_text(auth_message(invite))
        assert ws.receive_json()["error"]["code"] == "forbidden"
    # Nothing changed: Bob is still the guest, and the creator's token is not the guest's either.
    s = client.get(f"/api/games/{gid}", headers=bearer(guest)).json()
    assert s["you"] == 1 and s["seats"][1]["name"] == "Bob"
    assert client.get(f"/api/games/{gid}", headers=bearer(host)).json()["you"] == 0
    assert client.post(f"/api/games/{gid}/join", headers=bearer(host)).status_code == 403
    assert client.post(f"/api/games/{gid}/join", headers=bearer(guest)).status_code == 403


def test_unknown_invitations_are_forbidden(client: TestClient) -> None:
    d = client.post("/api/games", json={"opponent": "human"}).json()
    for token in ("x" * 43, d["token"]):
        r = client.post(f"/api/games/{d['game_id']}/join", headers=bearer(token))
        assert r.status_code == 403 and error_code(r) == "forbidden"
    other = client.post("/api/games", json={"opponent": "human"}).json()
    r = client.post(f"/api/games/{d['game_id']}/join", headers=bearer(other["invite_token"]))
    assert r.status_code == 403
    # The failed tries used nothing up.
    assert client.post(f"/api/games/{d['game_id']}/join", headers=bearer(d["invite_token"])).status_code == 200
    computer = client.post("/api/games", json={"opponent": "computer"}).json()
    assert computer["invite_token"] is None
    r = client.post(f"/api/games/{computer['game_id']}/join", headers=bearer(computer["token"]))
    assert r.status_code == 403


def test_the_record_names_the_token_that_acted(client: TestClient) -> None:
    d = client.post("/api/games", json={"opponent": "human", "test_seed": "11" * 32}).json()
    gid = d["game_id"]
    guest = client.post(f"/api/games/{gid}/join", headers=bearer(d["invite_token"])).json()["token"]
    tokens = (d["token"], guest)
    seats = client.get(f"/api/games/{gid}").json()["seats"]
    assert seats[0]["token_id"] == hash_token(tokens[0])[:12] and seats[1]["token_id"] == hash_token(guest)[:12]
    assert hash_token(d["invite_token"])[:12] not in (seats[0]["token_id"], seats[1]["token_id"])
    client.post(f"/api/games/{gid}/actions", headers=bearer(guest), json={"type": "roll"})
    for _ in range(10):
        s = client.get(f"/api/games/{gid}", headers=bearer(guest)).json()
        if s["phase"] == "move":
            break
        client.post(f"/api/games/{gid}/actions", headers=bearer(tokens[0]), json={"type": "roll"})
    mover = s["to_act"]
    st = client.get(f"/api/games/{gid}", headers=bearer(tokens[mover])).json()
    client.post(f"/api/games/{gid}/actions", headers=bearer(tokens[mover]),
                json={"type": "play", "play": st["legal_plays"][0]["notation"]})
    log = client.get(f"/api/games/{gid}/actions").json()["actions"]
    assert log[0]["actor"] == f"seat1:{seats[1]['token_id']}"  # the guest rolled the opening
    assert log[-1]["actor"] == f"seat{mover}:{seats[mover]['token_id']}" and log[-1]["type"] == "play"
    computer = client.post("/api/games", json={"opponent": "computer", "computer_level": "heuristic"}).json()
    cid = computer["game_id"]
    deadline = time.monotonic() + 30
    while True:
        log = client.get(f"/api/games/{cid}/actions").json()["actions"]
        if any(a["player"] == 1 for a in log):
            break
        assert time.monotonic() < deadline, "the computer never acted"
        s = client.get(f"/api/games/{cid}", headers=bearer(computer["token"])).json()
        action = pick_action(s) if s["your_turn"] else None
        if action:
            client.post(f"/api/games/{cid}/actions", headers=bearer(computer["token"]), json=action)
        time.sleep(0.01)
    assert {a["actor"] for a in log if a["player"] == 1} == {"computer"}
    assert {a["actor"] for a in log if a["player"] == 0} <= {f"seat0:{hash_token(computer['token'])[:12]}"}


def test_two_servers_joining_at_once_seat_one_guest(tmp_path: Path) -> None:
    url = str(tmp_path / "race.db")
    stores = [open_store(url), open_store(url)]
    services = [GameService(s) for s in stores]
    try:
        created = services[0].create_game(GameSetup(opponent="human"))
        for svc in services:  # both have the game cached, invitation open
            svc.invitation(created.game_id, created.invite_token)
        door = threading.Barrier(2)
        results: list[Any] = [None, None]

        def join(i: int) -> None:
            door.wait(60)
            try:
                results[i] = services[i].join(created.game_id, created.invite_token, f"P{i}")
            except (GoneError, ForbiddenError) as exc:
                results[i] = exc

        threads = [threading.Thread(target=join, args=(i,)) for i in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        winners = [r for r in results if not isinstance(r, Exception)]
        assert len(winners) == 1 and sum(isinstance(r, GoneError) for r in results) == 1, results
        with stores[0].engine.connect() as conn:
            h = conn.execute(text("SELECT seat1_token_hash FROM games")).scalar()
        assert h == hash_token(winners[0].token)
    finally:
        for s in stores:
            s.dispose()


def test_the_migration_turns_waiting_guest_seats_into_invitations(tmp_path: Path) -> None:
    from alembic import command

    from gammon.store.db import _alembic_config, make_engine

    engine = make_engine(str(tmp_path / "old.db"))
    with engine.connect() as conn:
        command.upgrade(_alembic_config(conn), "0001")
        conn.commit()
    invite = "an-old-style-invitation-token"
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO games (id, settings, seats, seat0_token_hash, seat1_token_hash, dice_seed, commitment,"
            " has_computer, version, status, created_at, updated_at) VALUES ('old', :settings, :seats, :h0,"
            " :h1, :seed, :c, 0, 0, 'waiting', '2026-01-01 00:00:00', '2026-01-01 00:00:00')"),
            {"settings": '{"format": 1, "rules": {"variant": "standard"}, "games_limit": 1}',
             "seats": '[{"kind": "human", "name": "Ann", "joined": true}, '
                      '{"kind": "human", "name": "Guest", "joined": false}]',
             "h0": hash_token("host"), "h1": hash_token(invite), "seed": "00" * 32, "c": "ab" * 32})
    engine.dispose()
    store = open_store(str(tmp_path / "old.db"))
    try:
        svc = GameService(store)
        with pytest.raises(ForbiddenError):
            svc.view("old", invite)  # no longer a seat token
        joined = svc.join("old", invite, "Bob")
        assert joined.seat == 1 and joined.token != invite
        with pytest.raises(GoneError):
            svc.join("old", invite)
    finally:
        store.dispose()
