"""The engine's help between people: refused during play unless both were told from the start.

Issue 11, security item 2: ``/hint`` is served mid-game between two people only
when the game was created with hints for both (a setting every player and the
invitation show); hints go only to the seat that has a roll to play; once the
game is over the analysis is open.
"""

from __future__ import annotations

from typing import Any

from webclient import TEST_SERVER, TestClient, bearer, client_fixture

client = client_fixture("hints", **TEST_SERVER)


def people(c: TestClient, **body: Any) -> tuple[str, tuple[str, str], dict[str, Any]]:
    d = c.post("/api/games", json={"opponent": "human", "test_seed": "42" * 32, **body}).json()
    offer = c.get(f"/api/games/{d['game_id']}/invitation", headers=bearer(d["invite_token"])).json()
    guest = c.post(f"/api/games/{d['game_id']}/join", headers=bearer(d["invite_token"])).json()["token"]
    return d["game_id"], (d["token"], guest), offer


def to_the_first_move(c: TestClient, gid: str, tokens: tuple[str, str]) -> int:
    for _ in range(20):
        r = c.post(f"/api/games/{gid}/actions", headers=bearer(tokens[0]), json={"type": "roll"})
        s = r.json()["state"]
        if s["phase"] == "move":
            return int(s["to_act"])
    raise AssertionError("no opening")


def test_hints_are_refused_mid_game_between_people_by_default(client: TestClient) -> None:
    gid, tokens, offer = people(client)
    assert offer["rules"]["hints"] is False
    for token in (*tokens, None):  # both players and spectators see the setting from the start
        s = client.get(f"/api/games/{gid}", headers=bearer(token) if token else {}).json()
        assert s["rules"]["hints"] is False
    mover = to_the_first_move(client, gid, tokens)
    r = client.get(f"/api/games/{gid}/hint", headers=bearer(tokens[mover]))
    assert r.status_code == 403 and r.json()["error"]["code"] == "hints_off"
    r = client.get(f"/api/games/{gid}/analysis")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_over"
    # Once the game is over, the analysis opens.
    s = client.get(f"/api/games/{gid}", headers=bearer(tokens[mover])).json()
    client.post(f"/api/games/{gid}/actions", headers=bearer(tokens[mover]),
                json={"type": "play", "play": s["legal_plays"][0]["notation"]})
    client.post(f"/api/games/{gid}/actions", headers=bearer(tokens[1 - mover]), json={"type": "double"})
    over = client.post(f"/api/games/{gid}/actions", headers=bearer(tokens[mover]), json={"type": "drop"})
    assert over.json()["state"]["match"]["over"]
    r = client.get(f"/api/games/{gid}/analysis")
    assert r.status_code == 200 and "plays" in r.json()


def test_hints_agreed_at_creation_go_to_the_seat_on_roll_only(client: TestClient) -> None:
    gid, tokens, offer = people(client, hints=True)
    assert offer["rules"]["hints"] is True
    assert client.get(f"/api/games/{gid}").json()["rules"]["hints"] is True
    mover = to_the_first_move(client, gid, tokens)
    r = client.get(f"/api/games/{gid}/hint?count=3", headers=bearer(tokens[mover]))
    assert r.status_code == 200 and 1 <= len(r.json()["plays"]) <= 3
    # Between people, at the server's hint level: by default the strongest, 2-ply.
    assert r.json()["engine"] == "gammon.ai strongest (2-ply)"
    r = client.get(f"/api/games/{gid}/hint", headers=bearer(tokens[1 - mover]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_hint"
    assert client.get(f"/api/games/{gid}/hint").status_code == 403  # spectators get no hints


def test_against_the_computer_hints_are_on(client: TestClient) -> None:
    d = client.post("/api/games", json={"opponent": "computer", "hints": False}).json()
    assert d["state"]["rules"]["hints"] is True
