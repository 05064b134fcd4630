"""``POST /api/games/{id}/why-not``: core's reason for a refused step, and hostile input refused.

The page holds no rules: when a player tries a step that is not in the step tree,
it asks the server why, and the server answers with the rule gammon.core names
(:meth:`gammon.core.steps.StepTree.refusal`).
"""

from __future__ import annotations

from typing import Any

import pytest

from gammon.core.position import Position
from gammon.web import Settings, create_app
from gammon.web.ratelimit import RateLimits
from webclient import TEST_SERVER, TestClient, bearer, client_fixture

client = client_fixture("whynot", **TEST_SERVER)


def _moving_game(c: TestClient) -> tuple[str, dict[str, Any]]:
    """A game between two people where someone has the opening roll to play: (id, that seat's state)."""
    d = c.post("/api/games", json={"opponent": "human", "test_seed": "00" * 32}).json()
    joined = c.post(f"/api/games/{d['game_id']}/join", headers=bearer(d["invite_token"]), json={}).json()
    tokens = (d["token"], joined["token"])
    for _ in range(20):
        s = c.post(f"/api/games/{d['game_id']}/actions", json={"type": "roll"},
                   headers=bearer(tokens[0])).json()
        if s["state"]["phase"] == "move":
            seat = s["state"]["to_act"]
            return d["game_id"], c.get(f"/api/games/{d['game_id']}", headers=bearer(tokens[seat])).json()
    raise AssertionError("the opening roll never ended")


def _why(c: TestClient, gid: str, **body: Any) -> Any:
    return c.post(f"/api/games/{gid}/why-not", json=body)


def test_the_answer_is_cores_rule(client: TestClient) -> None:
    gid, st = _moving_game(client)
    d1, d2 = st["dice"]
    assert d1 != d2  # an opening roll
    # No die covers 13 -> 13 - (d1 + d2 + 1): "no die left makes that move".
    far = 13 - (d1 + d2 + 1)
    r = _why(client, gid, from_point=13, to_point=far, version=st["version"])
    assert r.status_code == 200, r.text
    assert r.json()["allowed"] is False and r.json()["reason"] == "no_die"
    assert f"point {far} is {d1 + d2 + 1} pips away" in r.json()["message"]
    # The opening board: the opponent's 13-point is the mover's 12: "that is your opponent's checker".
    assert _why(client, gid, from_point=12, to_point=11).json()["reason"] == "no_checker"
    # Backwards.
    assert _why(client, gid, from_point=8, to_point=13).json()["reason"] == "wrong_way"
    # A legal step is allowed; after it, the whole answer is core's for the node walked to.
    first = st["steps"]["nodes"][0]["steps"][0]
    assert _why(client, gid, from_point=first[0], to_point=first[1]).json() == {
        "allowed": True, "reason": None, "message": None}
    position = Position.from_position_id(st["board"]["position_id"])
    tree = position.step_tree((d1, d2))
    at = tree.walk([first[:2]])
    for f, t in [(24, 24 - d1), (13, 13 - d2), (6, 6 - d1), (8, 0)]:
        expected = tree.refusal(at, f, t)
        got = _why(client, gid, walked=[first[:3]], from_point=f, to_point=t).json()
        assert got["allowed"] == (expected is None)
        if expected is not None:
            assert (got["reason"], got["message"]) == (expected.reason.value, expected.message)


def test_blocked_point_on_the_opening_board(client: TestClient) -> None:
    gid, st = _moving_game(client)
    d1, d2 = st["dice"]
    # The opponent's 6-point (5 checkers) is the mover's 19: a 5 from the 24-point lands there.
    if 5 in (d1, d2):
        r = _why(client, gid, from_point=24, to_point=19).json()
        assert r["reason"] == "blocked" and r["message"].startswith("point 19 is blocked")


@pytest.mark.parametrize("body", [
    {},
    {"from_point": "13", "to_point": 7},
    {"from_point": 13.5, "to_point": 7},
    {"from_point": 26, "to_point": 7},
    {"from_point": 13, "to_point": -1},
    {"from_point": 13, "to_point": 7, "walked": [[13, 7]] * 5},
    {"from_point": 13, "to_point": 7, "walked": [[13, 7, 6, 1]]},
    {"from_point": 13, "to_point": 7, "walked": [[13]]},
    {"from_point": 13, "to_point": 7, "walked": "13/7"},
    {"from_point": 13, "to_point": 7, "extra": 1},
    {"from_point": 13, "to_point": 7, "version": -1},
])
def test_malformed_questions_are_refused(client: TestClient, body: dict[str, Any]) -> None:
    gid, _ = _moving_game(client)
    r = _why(client, gid, **body)
    assert r.status_code == 422, r.text
    assert set(r.json()) == {"error"}


def test_walked_steps_must_be_in_the_tree_and_the_version_current(client: TestClient) -> None:
    gid, st = _moving_game(client)
    r = _why(client, gid, walked=[[1, 0]], from_point=13, to_point=7)
    assert r.status_code == 409 and r.json()["error"]["code"] == "illegal_play"
    r = _why(client, gid, from_point=13, to_point=7, version=st["version"] + 1)
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_version"
    assert _why(client, "nosuchgame", from_point=13, to_point=7).status_code == 404


def test_no_roll_to_play(client: TestClient) -> None:
    d = client.post("/api/games", json={"opponent": "human"}).json()
    r = _why(client, d["game_id"], from_point=13, to_point=7)
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_roll"


def test_the_question_counts_against_the_games_rate_limit(tmp_path: Any) -> None:
    url = str(tmp_path / "g.db")
    limits = RateLimits(client="1000/second", create="60/minute", game="5/second", socket="5/second")
    with TestClient(create_app(Settings(database_url=url, rate_limits=limits))) as c:
        d = c.post("/api/games", json={"opponent": "human"}).json()
        answers = [_why(c, d["game_id"], from_point=13, to_point=7).status_code for _ in range(12)]
    assert answers[0] == 409 and 429 in answers
