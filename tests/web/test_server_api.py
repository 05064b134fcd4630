"""The server's REST API against SQLite and (when GAMMON_TEST_POSTGRES_URL is set) PostgreSQL.

Create, join, read and act; every kind of error and that it changes nothing;
seats and tokens; exports; the dice commitment and its verification after a
finished game; the migrated schema against the models.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from databases import postgres_url_or_skip
from gammon.core.fair_dice import commitment_for, derive_roll
from gammon.core.position import Position
from gammon.web import Settings, create_app
from gammon.web.schemas import GameState
from gammon.web.service import hash_token
from gammon.web.testing import pick_action, reset_postgres
from webclient import TEST_SERVER, TestClient, bearer

#: These tests play fast on purpose: the rate limits have their own tests (test_server_limits.py).

SEED = bytes(range(32))


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    if request.param == "postgresql":
        url = postgres_url_or_skip("the PostgreSQL API tests")
        reset_postgres(url)  # the app below migrates an empty database
    else:
        url = str(tmp_path_factory.mktemp("api") / "gammon.db")
    app = create_app(Settings(database_url=url, **TEST_SERVER))
    with TestClient(app) as c:
        yield c


def create(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def human_game(c: TestClient, **body: Any) -> tuple[str, str, str]:
    """A started game between two people: (id, token of seat 0, token of seat 1)."""
    d = create(c, opponent="human", **body)
    r = c.post(f"/api/games/{d['game_id']}/join", headers=bearer(d["invite_token"]), json={"name": "Bob"})
    assert r.status_code == 200, r.text
    return d["game_id"], d["token"], r.json()["token"]


def state(c: TestClient, gid: str, token: str | None = None) -> dict[str, Any]:
    r = c.get(f"/api/games/{gid}", headers=bearer(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def act(c: TestClient, gid: str, token: str, status: int = 200, **body: Any) -> dict[str, Any]:
    r = c.post(f"/api/games/{gid}/actions", json=body, headers=bearer(token))
    assert r.status_code == status, r.text
    return r.json()


def start(c: TestClient, gid: str, tokens: tuple[str, str]) -> int:
    """Roll the opening until someone starts; the seat on roll (to move)."""
    for _ in range(20):
        s = act(c, gid, tokens[0], type="roll")["state"]
        if s["phase"] == "move":
            return int(s["to_act"])
    raise AssertionError("the opening roll never ended")


def assert_error(r: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    if code is not None:
        assert body["error"]["code"] == code, body
    return body["error"]


# -- the schema ---------------------------------------------------------------------------


def test_openapi_schema_is_complete(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    for path in ("/api/games", "/api/games/{game_id}", "/api/games/{game_id}/join",
                 "/api/games/{game_id}/actions", "/api/games/{game_id}/verify",
                 "/api/games/{game_id}/export.mat", "/api/games/{game_id}/export.sgf", "/api/health"):
        assert path in paths, path
    for path, ops in paths.items():
        for method, op in ops.items():
            ok = op["responses"].get("200") or op["responses"].get("201")
            assert ok and ok.get("content"), f"{method} {path} documents no success body"
            content = next(iter(ok["content"].values()))
            assert content.get("schema"), f"{method} {path} has no response schema"
            if path.startswith("/api/games/"):
                assert "404" in op["responses"], f"{method} {path} does not document 404"
            for status, answer in op["responses"].items():
                if status[0] in "45":
                    ref = answer["content"]["application/json"]["schema"]["$ref"]
                    assert ref.endswith("/ErrorResponse"), (method, path, status)
    names = set(schema["components"]["schemas"])
    assert {"GameState", "CreateGameRequest", "ActionResult", "ErrorResponse", "VerifyResult",
            "PlayAction", "ChooseDoubleAction", "LegalPlay", "WsHello", "WsAction", "WsState", "WsAct",
            "WsError"} <= names
    act_body = paths["/api/games/{game_id}/actions"]["post"]["requestBody"]["content"]["application/json"]
    assert "discriminator" in str(act_body["schema"]) or "oneOf" in str(act_body["schema"])


def test_migrated_schema_matches_the_models(client: TestClient) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from gammon.store.models import Base

    engine = client.app.state.service.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []


# -- creating, joining, reading ---------------------------------------------------------------


def test_create_against_the_computer(client: TestClient) -> None:
    d = create(client, opponent="computer", variant="nackgammon", computer_level="beginner", name="Ann",
               jacoby=True, beavers=True, automatic_doubles=2, cube_limit=16)
    assert d["seat"] == 0 and d["invite_token"] is None and len(d["token"]) >= 43
    s = d["state"]
    assert s["status"] == "active" and s["version"] == 0 and s["you"] == 0
    assert s["seats"][0] == {"seat": 0, "kind": "human", "name": "Ann", "joined": True, "level": None,
                             "token_id": hash_token(d["token"])[:12]}
    assert s["seats"][1]["kind"] == "computer" and s["seats"][1]["level"] == "beginner"
    assert s["rules"]["variant"] == "nackgammon" and s["rules"]["jacoby"] and s["rules"]["beavers"]
    assert s["rules"]["automatic_doubles"] == 2 and s["rules"]["cube_limit"] == 16
    assert s["phase"] == "opening" and s["to_act"] is None and s["allowed_actions"] == ["roll"]
    fd = s["fair_dice"]
    assert fd["kind"] == "crypto" and len(fd["commitment"]) == 64 and fd["seed"] is None and not fd["revealed"]
    assert s["board"]["position_id"] == Position.initial("nackgammon").position_id
    # Links: relative without a configured public URL (never from the Host header), and no token in any
    # of them where a server would see it (the socket takes it in its first message).
    assert d["links"]["websocket"] == f"/api/games/{d['game_id']}/ws" == d["links"]["spectate"]
    assert d["token"] not in str(d["links"])
    spectator = state(client, d["game_id"])
    assert spectator["you"] is None and spectator["allowed_actions"] == [] and spectator["legal_plays"] is None


def test_join_and_seats(client: TestClient) -> None:
    d = create(client, opponent="human", seat=1, name="Host")
    gid = d["game_id"]
    assert d["seat"] == 1 and d["state"]["status"] == "waiting"
    # The invitation rides in the join page's URL fragment, which browsers never send to a server.
    assert d["links"]["invite"] == f"/join/{gid}#invite={d['invite_token']}"
    assert_error(client.post(f"/api/games/{gid}/actions", json={"type": "roll"}, headers=bearer(d["token"])),
                 409, "waiting_for_opponent")
    assert_error(client.post(f"/api/games/{gid}/join"), 403, "forbidden")
    assert_error(client.post(f"/api/games/{gid}/join", headers=bearer("x" * 43)), 403, "forbidden")
    in_url = client.post(f"/api/games/{gid}/join?token={d['invite_token']}", json={"name": "Guest Star"})
    assert_error(in_url, 422, "invalid_request")  # a token in the URL is refused, never used
    r = client.post(f"/api/games/{gid}/join", headers=bearer(d["invite_token"]), json={"name": "Guest Star"})
    assert r.status_code == 200 and r.json()["seat"] == 0
    assert r.json()["state"]["status"] == "active" and r.json()["state"]["seats"][0]["name"] == "Guest Star"
    assert state(client, gid, d["token"])["you"] == 1
    assert state(client, gid, r.json()["token"])["you"] == 0


def test_tokens_are_stored_only_as_hashes(client: TestClient) -> None:
    from sqlalchemy import text

    d = create(client, opponent="human")
    engine = client.app.state.service.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        row = conn.execute(text("SELECT * FROM games WHERE id = :id"), {"id": d["game_id"]}).mappings().one()
    values = " ".join(str(v) for v in row.values())
    assert d["token"] not in values and d["invite_token"] not in values
    assert row["seat0_token_hash"] == hash_token(d["token"])
    assert row["seat1_token_hash"] is None and row["invite_token_hash"] == hash_token(d["invite_token"])
    joined = client.post(f"/api/games/{d['game_id']}/join", headers=bearer(d["invite_token"])).json()
    with engine.connect() as conn:
        row = conn.execute(text("SELECT * FROM games WHERE id = :id"), {"id": d["game_id"]}).mappings().one()
    assert joined["token"] not in " ".join(str(v) for v in row.values())
    assert row["seat1_token_hash"] == hash_token(joined["token"]) and row["invite_used_at"] is not None


def test_invalid_settings(client: TestClient) -> None:
    for body, field in (({"variant": "chess"}, "variant"), ({"cube_limit": 3}, "cube"),
                        ({"match_length": 5, "games": 3}, "games")):
        err = assert_error(client.post("/api/games", json=body), 422, "invalid_settings")
        assert field in err["message"]
    for body in ({"match_length": -1}, {"opponent": "alien"}, {"computer_level": "god"}, {"seat": 2},
                 {"unknown": 1}, {"test_seed": "zz"}):
        assert_error(client.post("/api/games", json=body), 422, "invalid_request")
    assert_error(client.post("/api/games", content=b"{", headers={"content-type": "application/json"}),
                 422, "invalid_json")


# -- acting --------------------------------------------------------------------------------------


def test_play_a_few_turns_with_errors_changing_nothing(client: TestClient) -> None:
    gid, t0, t1 = human_game(client, test_seed=SEED.hex())
    tokens = (t0, t1)
    mover = start(client, gid, tokens)
    other = 1 - mover
    s = state(client, gid, tokens[mover])
    assert s["your_turn"] and s["allowed_actions"] == ["play", "resign"] and s["legal_plays"]
    assert state(client, gid, tokens[other])["legal_plays"] is None
    version = s["version"]

    def unchanged() -> None:
        now = state(client, gid, tokens[mover])
        assert now["version"] == version and now["board"] == s["board"] and now["dice"] == s["dice"]

    errors = [
        (client.post(f"/api/games/{gid}/actions", json={"type": "roll"}, headers=bearer(tokens[other])),
         409, "not_your_turn"),
        (client.post(f"/api/games/{gid}/actions", json={"type": "roll"}, headers=bearer(tokens[mover])),
         409, "illegal_action"),
        (client.post(f"/api/games/{gid}/actions", json={"type": "play", "play": "24/x"},
                     headers=bearer(tokens[mover])), 422, "bad_play_syntax"),
        (client.post(f"/api/games/{gid}/actions", json={"type": "play", "play": "1/off"},
                     headers=bearer(tokens[mover])), 409, None),
        (client.post(f"/api/games/{gid}/actions", json={"type": "play", "play": [[3, 1], [5, 2]]},
                     headers=bearer(tokens[mover])), 409, "illegal_play"),
        (client.post(f"/api/games/{gid}/actions", json={"type": "double"}, headers=bearer(tokens[mover])),
         409, "illegal_action"),
        (client.post(f"/api/games/{gid}/actions", json={"type": "take"}, headers=bearer(tokens[mover])),
         409, "illegal_action"),
        (client.post(f"/api/games/{gid}/actions", json={"type": "play", "play": s["legal_plays"][0]["notation"],
                                                        "expected_version": version - 1},
                     headers=bearer(tokens[mover])), 409, "version_conflict"),
        (client.post(f"/api/games/{gid}/actions", json={"type": "play"}, headers=bearer(tokens[mover])),
         422, "invalid_request"),
        (client.post(f"/api/games/{gid}/actions", json={"type": "resign", "kind": "triple"},
                     headers=bearer(tokens[mover])), 422, "invalid_request"),
        (client.post(f"/api/games/{gid}/actions", json={"type": "roll"}), 403, "forbidden"),
        (client.post(f"/api/games/{gid}/actions", json={"type": "roll"}, headers=bearer("nope")),
         403, "forbidden"),
        (client.post(f"/api/games/{gid}/actions", content=b"[1,", headers={**bearer(tokens[mover]),
                                                                           "content-type": "application/json"}),
         422, "invalid_json"),
        (client.post("/api/games/doesnotexist/actions", json={"type": "roll"}, headers=bearer(tokens[mover])),
         404, "not_found"),
    ]
    for r, status, code in errors:
        err = assert_error(r, status, code)
        assert tokens[mover] not in err["message"] and tokens[other] not in err["message"]
        unchanged()
    # A correct play, then the other seat rolls and plays by checker moves.
    play = s["legal_plays"][0]
    r = act(client, gid, tokens[mover], type="play", play=play["notation"], expected_version=version)
    assert r["version"] == version + 1 and r["actions"][0]["type"] == "play"
    assert r["actions"][0]["action"]["position"] == play["position_id"]
    assert r["state"]["to_act"] == other and r["state"]["allowed_actions"] == []
    r = act(client, gid, tokens[other], type="roll")
    legal = r["state"]["legal_plays"]
    pick = legal[-1]
    moves = [[m["from_point"], m["to_point"]] for m in pick["moves"]]
    r = act(client, gid, tokens[other], type="play", play=moves)
    assert r["actions"][0]["action"]["position"] == pick["position_id"]
    log = client.get(f"/api/games/{gid}/actions").json()
    assert log["version"] == r["version"] and [a["seq"] for a in log["actions"]] == list(
        range(1, len(log["actions"]) + 1))
    assert [a["action"]["dice"] for a in log["actions"] if a["type"] == "roll"] == [
        list(derive_roll(SEED, i)) for i in range(sum(a["type"] == "roll" for a in log["actions"]))]
    tail = client.get(f"/api/games/{gid}/actions?after={len(log['actions']) - 1}").json()
    assert [a["seq"] for a in tail["actions"]] == [len(log["actions"])]


def test_cube_actions_and_beaver(client: TestClient) -> None:
    gid, t0, t1 = human_game(client, beavers=True, test_seed=SEED.hex())
    tokens = (t0, t1)
    mover = start(client, gid, tokens)
    s = state(client, gid, tokens[mover])
    act(client, gid, tokens[mover], type="play", play=s["legal_plays"][0]["notation"])
    doubler = 1 - mover
    s = state(client, gid, tokens[doubler])
    assert s["allowed_actions"] == ["roll", "double", "resign"]
    s = act(client, gid, tokens[doubler], type="double")["state"]
    assert s["phase"] == "doubled" and s["to_act"] == mover and s["cube"]["offered_by"] == doubler
    assert state(client, gid, tokens[mover])["allowed_actions"] == ["take", "drop", "beaver", "resign"]
    s = act(client, gid, tokens[mover], type="beaver")["state"]
    # After a beaver the original doubler answers it (take or drop).
    assert s["phase"] == "beavered" and s["to_act"] == doubler
    assert state(client, gid, tokens[doubler])["allowed_actions"] == ["take", "drop"]
    s = act(client, gid, tokens[doubler], type="take")["state"]
    assert s["cube"]["value"] == 4 and s["cube"]["owner"] == mover and s["phase"] == "roll"
    assert_error(client.post(f"/api/games/{gid}/actions", json={"type": "double"},
                             headers=bearer(tokens[doubler])), 409, "illegal_action")


def test_double_and_drop_ends_a_money_game(client: TestClient) -> None:
    gid, t0, t1 = human_game(client)
    tokens = (t0, t1)
    mover = start(client, gid, tokens)
    first = state(client, gid, tokens[mover])["legal_plays"][0]["notation"]
    act(client, gid, tokens[mover], type="play", play=first)
    act(client, gid, tokens[1 - mover], type="double")
    s = act(client, gid, tokens[mover], type="drop")["state"]
    assert s["status"] == "finished" and s["phase"] == "over"
    assert s["result"] == {"winner": 1 - mover, "kind": "single", "points": 1, "cube": 1, "resigned": False,
                           "dropped": True, "timeout": False}
    assert s["fair_dice"]["revealed"] and s["fair_dice"]["seed"]
    assert commitment_for(bytes.fromhex(s["fair_dice"]["seed"])) == s["fair_dice"]["commitment"]
    assert_error(client.post(f"/api/games/{gid}/actions", json={"type": "roll"}, headers=bearer(tokens[0])),
                 409, "game_over")


def test_resignations_in_a_match(client: TestClient) -> None:
    gid, t0, t1 = human_game(client, match_length=3)
    tokens = (t0, t1)
    mover = start(client, gid, tokens)
    s = act(client, gid, tokens[mover], type="resign", kind="gammon")["state"]
    assert s["phase"] == "resigned" and s["resignation"] == {"player": mover, "kind": "gammon"}
    assert state(client, gid, tokens[1 - mover])["allowed_actions"] == ["accept", "reject"]
    s = act(client, gid, tokens[1 - mover], type="reject")["state"]
    assert s["phase"] == "move" and s["resignation"] is None
    # One offer a turn: the next comes in a later turn (a stream of offers would stall the game).
    assert state(client, gid, tokens[mover])["allowed_actions"] == ["play"]
    assert_error(client.post(f"/api/games/{gid}/actions", json={"type": "resign", "kind": "single"},
                             headers=bearer(tokens[mover])), 409, "resignation_limit")
    for seat, kind in ((mover, "play"), (1 - mover, "roll"), (1 - mover, "play")):
        s = state(client, gid, tokens[seat])
        act(client, gid, tokens[seat], type=kind, **({"play": s["legal_plays"][0]["notation"]} if kind == "play"
                                                     else {}))
    act(client, gid, tokens[mover], type="resign", kind="single")
    s = act(client, gid, tokens[1 - mover], type="accept")["state"]
    assert s["status"] == "active" and s["phase"] == "over" and s["match"]["score"][1 - mover] == 1
    assert s["allowed_actions"] == ["roll"] and state(client, gid, tokens[mover])["allowed_actions"] == ["roll"]
    assert not s["fair_dice"]["revealed"]
    # Either seat starts the next game.
    s = act(client, gid, tokens[1], type="roll")["state"]
    assert s["match"]["game_number"] == 2 and s["phase"] in ("opening", "move")
    assert s["match_id"] and len(s["match_id"]) == 12


def test_acey_deucey_choose_double(client: TestClient) -> None:
    seed = next(bytes([i]) * 32 for i in range(256) if sorted(derive_roll(bytes([i]) * 32, 0)) == [1, 2])
    gid, t0, t1 = human_game(client, variant="acey-deucey", opening="use-opening-dice", test_seed=seed.hex())
    tokens = (t0, t1)
    mover = start(client, gid, tokens)
    s = state(client, gid, tokens[mover])
    assert sorted(s["dice"]) == [1, 2] and s["cube"]["in_use"] is False
    s = act(client, gid, tokens[mover], type="play", play=s["legal_plays"][0]["notation"])["state"]
    assert s["phase"] == "choose-double" and s["allowed_actions"] == ["choose-double", "resign"]
    assert_error(client.post(f"/api/games/{gid}/actions", json={"type": "choose-double", "number": 7},
                             headers=bearer(tokens[mover])), 422, "invalid_request")
    s = act(client, gid, tokens[mover], type="choose-double", number=6)["state"]
    assert s["phase"] == "move" and s["dice"] == [6, 6]


# -- a whole game, its exports and the dice check -------------------------------------------------


def wait_for_turn(c: TestClient, gid: str, token: str, timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        s = state(c, gid, token)
        if s["your_turn"] or s["status"] == "finished":
            return s
        assert time.monotonic() < deadline, f"the computer did not move: {s['phase']} {s['to_act']}"
        time.sleep(0.01)


def test_finished_game_against_the_computer_verifies_and_exports(client: TestClient) -> None:
    d = create(client, opponent="computer", variant="hypergammon", test_seed=SEED.hex())
    gid, token = d["game_id"], d["token"]
    commitment = d["state"]["fair_dice"]["commitment"]
    assert commitment == commitment_for(SEED)
    seen_running = False
    for _ in range(500):
        s = wait_for_turn(client, gid, token)
        if s["status"] == "finished":
            break
        if not seen_running and s["version"] > 4:
            seen_running = True
            v = client.get(f"/api/games/{gid}/verify").json()
            assert v["revealed"] is False and v["seed"] is None and v["verified"] is None and v["rolls"]
            for fmt in ("mat", "sgf"):
                assert client.get(f"/api/games/{gid}/export.{fmt}").status_code == 200
            for url in (f"/api/games/{gid}", f"/api/games/{gid}/actions", f"/api/games/{gid}/verify",
                        f"/api/games/{gid}/export.json"):
                assert SEED.hex() not in client.get(url).text, url
        GameState.model_validate(s)  # the service builds states without validating: check they are valid
        action = pick_action(s)
        assert action is not None, s
        act(client, gid, token, **action)
    assert s["status"] == "finished" and s["match"]["over"] and s["result"] is not None
    assert seen_running
    v = client.get(f"/api/games/{gid}/verify").json()
    assert v["revealed"] and v["verified"] is True and v["seed"] == SEED.hex() and v["commitment"] == commitment
    assert v["rolls"] == [list(derive_roll(SEED, i)) for i in range(len(v["rolls"]))]
    assert s["fair_dice"]["seed"] == SEED.hex()
    mat = client.get(f"/api/games/{gid}/export.mat")
    assert mat.status_code == 200 and mat.headers["content-type"].startswith("text/plain")
    assert "point match" in mat.text and "Game 1" in mat.text
    sgf = client.get(f"/api/games/{gid}/export.sgf")
    assert sgf.status_code == 200 and sgf.text.startswith("(;") and "GM[6]" in sgf.text
    js = client.get(f"/api/games/{gid}/export.json").json()
    assert js["dice"]["seed"] == SEED.hex() and js["dice"]["commitment"] == commitment
    from gammon.formats.record_json import match_from_json

    assert match_from_json(js).is_over


def test_unsupported_export_and_unknown_game(client: TestClient) -> None:
    d = create(client, opponent="computer", variant="hypergammon1")
    assert_error(client.get(f"/api/games/{d['game_id']}/export.mat"), 422, "unsupported_export")
    for path in ("", "/verify", "/actions", "/export.mat", "/export.sgf", "/export.json"):
        assert_error(client.get(f"/api/games/no-such-game{path}"), 404, "not_found")
    assert_error(client.get("/api/games/" + "x" * 40), 422, "invalid_request")
    assert_error(client.get("/api/nothing-here"), 404, "not_found")
    assert_error(client.delete("/api/games"), 405, "method_not_allowed")


def test_spectator_with_a_bad_token_gets_403(client: TestClient) -> None:
    d = create(client, opponent="computer")
    assert_error(client.get(f"/api/games/{d['game_id']}", headers=bearer("not-a-seat")), 403, "forbidden")
    assert_error(client.get(f"/api/games/{d['game_id']}?token={d['token']}"), 422, "invalid_request")
    assert state(client, d["game_id"], d["token"])["you"] == 0


def test_info_and_health(client: TestClient) -> None:
    h = client.get("/api/health").json()
    assert h["status"] == "ok" and h["database"] in ("sqlite", "postgresql")
    info = client.get("/api/info").json()
    assert "hypergammon" in [v["name"] for v in info["variants"]]
    assert info["computer_levels"][:5] == ["beginner", "casual", "intermediate", "advanced", "expert"]


def test_a_state_to_play_carries_cores_tree_of_steps(client: TestClient) -> None:
    """With a roll to play, the seat's state holds the tree of legal single steps (from core) whose
    complete paths are the legal plays; the other seat and spectators get none."""
    gid, t0, t1 = human_game(client, variant="standard")
    mover = start(client, gid, (t0, t1))
    mine = state(client, gid, (t0, t1)[mover])
    tree = mine["steps"]
    assert tree is not None and tree["dice"] in ([*mine["dice"]], sorted(mine["dice"], reverse=True),
                                                 [mine["dice"][0]] * 4)
    position = Position.from_position_id(mine["board"]["position_id"])
    legal = {str(p) for p in position.legal_plays(tuple(mine["dice"]))}
    complete = {n["play"] for n in tree["nodes"] if n["play"] is not None}
    assert complete == legal == {p["notation"] for p in mine["legal_plays"]}
    root = tree["nodes"][0]
    assert [int(c, 36) for c in root["board"]] == [*position.me, *position.opp]
    assert root["pips"] == list(position.pip_counts)
    assert state(client, gid, (t0, t1)[1 - mover])["steps"] is None
    assert state(client, gid)["steps"] is None
    # Sent compressed to clients that accept it.
    r = client.get(f"/api/games/{gid}", headers={**bearer((t0, t1)[mover]), "Accept-Encoding": "gzip"})
    assert r.headers.get("content-encoding") == "gzip"
