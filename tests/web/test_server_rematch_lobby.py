"""After the game and before it: rematches, the lobby of public games, and games that expire.

Issue 11, items 7 and 9: a rematch is a new game with the same settings linked
to the old one (both players see the link; the first to ask creates it, the
other takes the other seat with a fresh token); a public game is listed in the
lobby and joined without an invitation; a game nobody joins expires.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import text

from webclient import TEST_SERVER, TestClient, bearer, client_fixture

client = client_fixture("rematch", **TEST_SERVER, expire_unjoined=3600)


def people(c: TestClient, **body: Any) -> tuple[str, tuple[str, str]]:
    d = c.post("/api/games", json={"opponent": "human", "name": "Ann", **body}).json()
    bob = c.post(f"/api/games/{d['game_id']}/join", headers=bearer(d["invite_token"]), json={"name": "Bob"})
    return d["game_id"], (d["token"], bob.json()["token"])


def act(c: TestClient, gid: str, token: str, **body: Any) -> dict[str, Any]:
    r = c.post(f"/api/games/{gid}/actions", headers=bearer(token), json=body)
    state: dict[str, Any] = r.json()["state"]
    return state


def finish_by_drop(c: TestClient, gid: str, tokens: tuple[str, str]) -> None:
    for _ in range(20):
        s = act(c, gid, tokens[0], type="roll")
        if s["phase"] == "move":
            break
    mover = s["to_act"]
    s = c.get(f"/api/games/{gid}", headers=bearer(tokens[mover])).json()
    c.post(f"/api/games/{gid}/actions", headers=bearer(tokens[mover]),
           json={"type": "play", "play": s["legal_plays"][0]["notation"]})
    c.post(f"/api/games/{gid}/actions", headers=bearer(tokens[1 - mover]), json={"type": "double"})
    s = act(c, gid, tokens[mover], type="drop")
    assert s["match"]["over"]


def test_a_rematch_between_people(client: TestClient) -> None:
    gid, tokens = people(client, variant="nackgammon", jacoby=True, hints=True)
    r = client.post(f"/api/games/{gid}/rematch", headers=bearer(tokens[0]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_over"
    finish_by_drop(client, gid, tokens)
    old_board = client.get(f"/api/games/{gid}").json()["board"]
    first = client.post(f"/api/games/{gid}/rematch", headers=bearer(tokens[1]))  # Bob asks first
    assert first.status_code == 200
    new = first.json()["state"]
    new_id = new["id"]
    assert new_id != gid and new["rematch_of"] == gid and first.json()["seat"] == 1
    assert new["rules"]["variant"] == "nackgammon" and new["rules"]["jacoby"] and new["rules"]["hints"]
    assert [s["name"] for s in new["seats"]] == ["Ann", "Bob"] and new["status"] == "waiting"
    old = client.get(f"/api/games/{gid}", headers=bearer(tokens[0])).json()
    assert old["rematch_id"] == new_id and old["board"] == old_board  # the final position stays
    service = client.app.state.service  # type: ignore[attr-defined]
    service.evict(gid)  # the linked game read back from the store equals the copy that was in memory
    assert client.get(f"/api/games/{gid}", headers=bearer(tokens[0])).json() == old
    assert client.post(f"/api/games/{gid}/rematch").status_code == 403  # a spectator has no seat
    second = client.post(f"/api/games/{gid}/rematch", headers=bearer(tokens[0]))
    assert second.status_code == 200 and second.json()["seat"] == 0
    assert second.json()["state"]["id"] == new_id and second.json()["state"]["status"] == "active"
    again = client.post(f"/api/games/{gid}/rematch", headers=bearer(tokens[0]))
    assert again.status_code == 410 and again.json()["error"]["code"] == "rematch_taken"
    new_tokens = (second.json()["token"], first.json()["token"])
    assert set(new_tokens).isdisjoint(tokens)
    assert client.get(f"/api/games/{new_id}", headers=bearer(tokens[0])).status_code == 403  # old tokens: no
    assert client.post(f"/api/games/{new_id}/actions", headers=bearer(new_tokens[0]),
                       json={"type": "roll"}).status_code == 200


def test_a_rematch_against_the_computer(client: TestClient) -> None:
    d = client.post("/api/games", json={"opponent": "computer", "computer_level": "beginner", "name": "Ann",
                                        "match_length": 1}).json()
    gid, token = d["game_id"], d["token"]
    deadline = time.monotonic() + 60
    while True:  # roll (the opening may tie), then resign at once, again if the computer rejects
        s = client.get(f"/api/games/{gid}", headers=bearer(token)).json()
        if s["match"]["over"]:
            break
        assert time.monotonic() < deadline, s["phase"]
        for kind in ("resign", "roll", "take", "accept"):
            if kind in s["allowed_actions"]:
                body = {"type": kind, "kind": "backgammon"} if kind == "resign" else {"type": kind}
                client.post(f"/api/games/{gid}/actions", headers=bearer(token), json=body)
                break
        else:
            time.sleep(0.01)
    r = client.post(f"/api/games/{gid}/rematch", headers=bearer(token)).json()
    st = r["state"]
    assert st["rematch_of"] == gid and st["status"] == "active" and st["match"]["length"] == 1
    assert st["seats"][1]["kind"] == "computer" and st["seats"][1]["level"] == "beginner"


def test_the_lobby_lists_public_games_and_one_click_joins(client: TestClient) -> None:
    public = client.post("/api/games", json={"opponent": "human", "name": "Host", "public": True,
                                             "match_length": 3}).json()
    private = client.post("/api/games", json={"opponent": "human", "name": "Shy"}).json()
    listed = client.get("/api/lobby").json()["games"]
    ids = [g["game_id"] for g in listed]
    assert public["game_id"] in ids and private["game_id"] not in ids
    entry = next(g for g in listed if g["game_id"] == public["game_id"])
    assert entry["host"] == "Host" and entry["seat"] == 1 and entry["rules"]["match_length"] == 3
    assert client.get(f"/api/games/{public['game_id']}").json()["public"] is True
    # One click: no invitation needed for a public game; the seat then leaves the lobby.
    joined = client.post(f"/api/games/{public['game_id']}/join", json={"name": "Walk-in"})
    assert joined.status_code == 200 and joined.json()["state"]["status"] == "active"
    assert public["game_id"] not in [g["game_id"] for g in client.get("/api/lobby").json()["games"]]
    late = client.post(f"/api/games/{public['game_id']}/join", json={"name": "Late"})
    assert late.status_code == 410
    # A private game still needs its invitation.
    assert client.post(f"/api/games/{private['game_id']}/join").status_code == 403


def test_unjoined_games_expire(client: TestClient) -> None:
    d = client.post("/api/games", json={"opponent": "human", "public": True}).json()
    gid = d["game_id"]
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.store.engine.begin() as conn:  # as if it had been created three hours ago
        conn.execute(text("UPDATE games SET created_at = :t WHERE id = :id"),
                     {"t": datetime.now(UTC) - timedelta(hours=3), "id": gid})
    service.evict(gid)
    assert gid not in [g["game_id"] for g in client.get("/api/lobby").json()["games"]]
    r = client.post(f"/api/games/{gid}/join", headers=bearer(d["invite_token"]))
    assert r.status_code == 410 and r.json()["error"]["code"] == "expired"
    assert gid in service.expire_waiting()
    assert client.get(f"/api/games/{gid}").json()["status"] == "expired"
    assert client.post(f"/api/games/{gid}/join", headers=bearer(d["invite_token"])).status_code == 410
