"""Random and malformed requests never give a 500 and never corrupt a game.

Hypothesis throws bodies at the action endpoint (well-formed actions with
random fields, arbitrary JSON, raw bytes; every kind of token) mixed with
legal actions that move the game along, and random paths at the whole API.
A refused request must leave the game exactly as it was; an accepted one adds
exactly one stored action; and the game in memory must equal the game
replayed from the database.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gammon.web.testing import pick_action
from webclient import NO_LIMITS, TestClient, bearer, client_fixture

#: These tests play fast on purpose: the rate limits have their own tests (test_server_limits.py).

ALLOWED = {200, 403, 404, 409, 422}


class Table:
    """A game between two people that the test drives; a new one when it ends."""

    def __init__(self, client: TestClient, variant: str) -> None:
        self.client = client
        self.variant = variant
        self.new()

    def new(self) -> None:
        d = self.client.post("/api/games", json={"opponent": "human", "variant": self.variant,
                                                 "beavers": True}).json()
        self.gid = d["game_id"]
        r = self.client.post(f"/api/games/{self.gid}/join",
                             headers=bearer(d["invite_token"]))
        assert r.status_code == 200
        self.tokens = (d["token"], r.json()["token"])

    def state(self, token: str | None = None) -> dict[str, Any]:
        headers = bearer(token) if token else {}
        r = self.client.get(f"/api/games/{self.gid}", headers=headers)
        assert r.status_code == 200, r.text
        s: dict[str, Any] = r.json()
        return s


client = client_fixture("fuzz", rate_limits=NO_LIMITS)


@pytest.fixture(scope="module")
def table(client: TestClient) -> Table:
    return Table(client, "hypergammon")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
points = st.integers(-3, 30)
plays = (st.text(max_size=30) | st.sampled_from(["8/5 6/5", "24/18 13/11", "bar/22*", "6/off", "pass", "",
                                                  "24/23/22/21/20", "25/20(2)"])
         | st.lists(st.lists(points, max_size=4), max_size=6) | json_values)
action_types = st.sampled_from(["roll", "play", "double", "take", "drop", "beaver", "resign", "accept",
                                "reject", "choose-double"]) | st.text(max_size=12)
structured = st.fixed_dictionaries(
    {"type": action_types},
    optional={"play": plays, "kind": st.sampled_from(["single", "gammon", "backgammon"]) | json_values,
              "number": st.integers(-3, 9) | json_values,
              "expected_version": st.integers(-2, 300) | json_values,
              "extra": json_values},
)
bodies = (
    st.tuples(st.just("json"), structured)
    | st.tuples(st.just("json"), json_values)
    | st.tuples(st.just("raw"), st.binary(max_size=40)
                | st.sampled_from([b"Infinity", b"NaN", b"-1e999", b'{"type": "play", "play": NaN}']))
    | st.tuples(st.just("legal"), st.none())
    | st.tuples(st.just("legal"), st.none())
)
seats = st.sampled_from(["seat0", "seat1", "none", "garbage", "empty", "other-game"])


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=bodies, who=seats)
def test_random_actions_never_500_and_never_corrupt(client: TestClient, table: Table,
                                                    body: tuple[str, Any], who: str) -> None:
    before = table.state()
    if before["status"] == "finished":
        table.new()
        before = table.state()
    token = {"seat0": table.tokens[0], "seat1": table.tokens[1], "none": None, "garbage": "garbage",
             "empty": "", "other-game": "x" * 43}[who]
    kind, payload = body
    if kind == "legal":
        for t in table.tokens:
            action = pick_action(table.state(t))
            if action is not None:
                token, payload, kind = t, action, "json"
                break
    headers = bearer(token) if token else {}
    url = f"/api/games/{table.gid}/actions"
    if kind == "raw":
        r = client.post(url, content=payload, headers={**headers, "content-type": "application/json"})
    else:
        r = client.post(url, json=payload, headers=headers)
    assert r.status_code in ALLOWED, (r.status_code, r.text)
    after = table.state()
    if r.status_code == 200:
        assert after["version"] == before["version"] + 1 and after["actions"] == before["actions"] + 1
    else:
        err = r.json()["error"]
        assert isinstance(err["code"], str) and isinstance(err["message"], str)
        assert {k: v for k, v in after.items() if k != "updated_at"} == {
            k: v for k, v in before.items() if k != "updated_at"}, "a refused request changed the game"
        for t in table.tokens:
            assert t not in r.text


def test_memory_matches_the_database_after_fuzzing(client: TestClient, table: Table) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    for token in (*table.tokens, None):
        cached = service.view(table.gid, token)
        service.evict(table.gid)
        replayed = service.view(table.gid, token)
        assert cached.model_dump() == replayed.model_dump()


segments = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126, exclude_characters="/?#%"),
                   max_size=12)


@settings(max_examples=120, deadline=None)
@given(method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]),
       parts=st.lists(segments | st.sampled_from(["games", "actions", "join", "verify", "export.mat",
                                                  "export.sgf", "export.json", "ws", "{id}"]), max_size=4),
       query=st.dictionaries(st.sampled_from(["token", "after", "x"]), st.text(max_size=8), max_size=2),
       body=json_values)
def test_random_requests_anywhere_never_500(client: TestClient, table: Table, method: str, parts: list[str],
                                            query: dict[str, str], body: Any) -> None:
    path = "/api/" + "/".join(table.gid if p == "{id}" else p for p in parts)
    r = client.request(method, path, params=query, json=body)
    assert r.status_code < 500, (method, path, r.status_code, r.text)
    if r.status_code >= 400:
        assert set(r.json()) == {"error"}
