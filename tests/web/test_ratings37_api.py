"""Ratings through the API, played as players would: matches between accounts are rated with the
FIBS formula (the numbers worked by hand from the formula's text), once however often their end
is submitted; nobody rates a match against themselves; money sessions are not rated; matches
against the computer go to their own record; the profile and the leaderboard show it all."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from accounts37_helpers import PASSWORD, SAME, TestClient, table_rows
from ratings37_helpers import act, bearer, new_match, player, rating_client, resign_match, wait_finished


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    yield from rating_client(request.param, tmp_path_factory.mktemp("ratings"))


def profile(c: TestClient, name: str) -> dict:  # type: ignore[type-arg]
    r = c.get(f"/api/players/{name}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_migrated_schema_matches_the_models(client: TestClient) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from gammon.store.models import Base

    assert {"player_ratings", "match_results"} <= set(Base.metadata.tables)
    engine = client.app.state.service.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []


def test_two_matches_move_the_ratings_by_the_formula(client: TestClient) -> None:
    ann, bob = player(client, "Ann Rated"), player(client, "Bob Rated")
    fresh = profile(client, "Ann Rated")
    assert (fresh["rating"], fresh["experience"]) == (1500.0, 0)
    assert fresh["rating_history"] == fresh["matches"] == []
    # 1 point, Bob resigns: equal ratings, P = 1/2, K = 5: 4 * 5 * sqrt(1) * 1/2 = 10 each way.
    gid, tokens, ann_seat = new_match(ann, bob, match_length=1)
    end = resign_match(client, gid, tokens, loser=1 - ann_seat)
    assert end["status"] == "finished"
    a, b = profile(client, "Ann Rated"), profile(client, "Bob Rated")
    assert (a["rating"], a["experience"], b["rating"], b["experience"]) == (1510.0, 1, 1490.0, 1)
    assert a["matches"][0] | {"finished": None} == {
        "game_id": gid, "kind": "rated", "opponent": "Bob Rated", "length": 1, "result": "won",
        "rating_change": 10.0, "finished": None}
    assert b["matches"][0]["result"] == "lost" and b["matches"][0]["rating_change"] == -10.0
    # 3 points, Ann resigns a backgammon (3 points: the match): the underdog Bob (1490) beats Ann (1510).
    # D = 20, P_upset = 1/(10^(20*sqrt(3)/2000)+1) = 0.490030835427801242 (bc), the underdog won so
    # P = 1 - P_upset; K = 5 - 1/100 = 4.99 for both: 4 * 4.99 * sqrt(3) * P = 17.630518366516751.
    gid2, tokens2, bob_seat = new_match(bob, ann, match_length=3)
    resign_match(client, gid2, tokens2, loser=1 - bob_seat, kind="backgammon")
    p_upset = 1 / (10 ** (20 * math.sqrt(3) / 2000) + 1)
    change = 4 * (5 - 1 / 100) * math.sqrt(3) * (1 - p_upset)
    a, b = profile(client, "Ann Rated"), profile(client, "Bob Rated")
    assert a["rating"] == pytest.approx(1510 - change, abs=1e-9) == pytest.approx(1492.3694816334832, abs=1e-9)
    assert b["rating"] == pytest.approx(1490 + change, abs=1e-9) == pytest.approx(1507.6305183665168, abs=1e-9)
    assert (a["experience"], b["experience"]) == (4, 4)
    assert a["record"] == {"rated_wins": 1, "rated_losses": 1, "computer_wins": 0, "computer_losses": 0}
    assert [p["rating"] for p in a["rating_history"]] == [1510.0, pytest.approx(1492.3694816334832, abs=1e-9)]
    assert [m["game_id"] for m in a["matches"]] == [gid2, gid]
    assert a["matches"][0]["length"] == 3
    assert a["matches"][0]["rating_change"] == pytest.approx(-change, abs=1e-9)


def test_a_match_is_rated_once_however_often_its_end_comes(client: TestClient) -> None:
    cy, dee = player(client, "Cy Twice"), player(client, "Dee Twice")
    gid, tokens, cy_seat = new_match(cy, dee, match_length=1)
    resign_match(client, gid, tokens, loser=1 - cy_seat)
    before = (profile(client, "Cy Twice"), profile(client, "Dee Twice"))
    # The end submitted again, by either seat: refused, nothing moves.
    for seat in (0, 1):
        for kind in ("accept", "roll"):
            r = client.post(f"/api/games/{gid}/actions", json={"type": kind}, headers=bearer(tokens[seat]))
            assert r.status_code == 409
    # The server's own recording, asked again (as a second process that saw the end would): no change.
    ratings = client.app.state.ratings  # type: ignore[attr-defined]
    assert ratings.record(gid) is False
    from gammon.web.service.base import Change

    ratings.on_change(Change(gid, 0, False))
    assert (profile(client, "Cy Twice"), profile(client, "Dee Twice")) == before
    rows = table_rows(client, "SELECT account_id FROM match_results WHERE game_id = :g", g=gid)
    assert len(rows) == 2
    assert before[0]["rating"] == 1510.0 and before[0]["experience"] == 1


def test_nobody_joins_their_own_game(client: TestClient) -> None:
    eve = player(client, "Eve Alone")
    r = eve.post("/api/games", json={"opponent": "human", "match_length": 1}, headers=SAME)
    made = r.json()
    r = eve.post(f"/api/games/{made['game_id']}/join", headers=bearer(made["invite_token"]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "own_game"
    # The invitation is still unused: a real opponent can take the seat.
    fay = player(client, "Fay Other")
    r = fay.post(f"/api/games/{made['game_id']}/join", headers=bearer(made["invite_token"]))
    assert r.status_code == 200, r.text


def test_one_account_in_both_seats_is_never_rated(client: TestClient) -> None:
    gus, hal = player(client, "Gus Both"), player(client, "Hal Both")
    gid, tokens, _ = new_match(gus, hal, match_length=1)
    # As if a race had let Gus into both seats: the recording refuses to rate it.
    ratings = client.app.state.ratings  # type: ignore[attr-defined]
    gus_id = table_rows(client, "SELECT id FROM accounts WHERE name = 'Gus Both'")[0][0]
    engine = client.app.state.service.store.engine  # type: ignore[attr-defined]
    from sqlalchemy import text

    with engine.begin() as conn:
        conn.execute(text("UPDATE account_seats SET account_id = :a WHERE game_id = :g"),
                     {"a": gus_id, "g": gid})
    resign_match(client, gid, tokens, loser=1)
    assert ratings.record(gid) is False
    assert table_rows(client, "SELECT * FROM match_results WHERE game_id = :g", g=gid) == []
    assert profile(client, "Gus Both")["rating"] == 1500.0 and profile(client, "Gus Both")["matches"] == []


def test_same_address_is_allowed_but_flagged(client: TestClient) -> None:
    ivy, jon = player(client, "Ivy Flag"), player(client, "Jon Flag")
    gid, tokens, ivy_seat = new_match(ivy, jon, match_length=1)  # both from the test client's one address
    resign_match(client, gid, tokens, loser=ivy_seat)
    assert {r[0] for r in table_rows(client, "SELECT same_address FROM match_results WHERE game_id = :g",
                                     g=gid)} == {True}
    assert profile(client, "Jon Flag")["rating"] == 1510.0  # rated all the same
    assert "same_address" not in str(client.get("/api/players/Jon Flag").json())  # not public
    kim, lou = player(client, "Kim Apart"), player(client, "Lou Apart")
    gid2, tokens2, kim_seat = new_match(kim, lou, match_length=1)
    engine = client.app.state.service.store.engine  # type: ignore[attr-defined]
    from sqlalchemy import text

    with engine.begin() as conn:  # as if Lou had joined from elsewhere
        conn.execute(text("UPDATE account_seats SET address_hash = 'elsewhere' "
                          "WHERE game_id = :g AND seat = :s"), {"g": gid2, "s": 1 - kim_seat})
    resign_match(client, gid2, tokens2, loser=0)
    assert {r[0] for r in table_rows(client, "SELECT same_address FROM match_results WHERE game_id = :g",
                                     g=gid2)} == {False}


def test_money_sessions_and_guests_are_not_rated(client: TestClient) -> None:
    max_, ned = player(client, "Max Money"), player(client, "Ned Money")
    gid, tokens, _ = new_match(max_, ned, match_length=0, games=1)
    end = resign_match(client, gid, tokens, loser=1)
    assert end["status"] == "finished"
    assert table_rows(client, "SELECT * FROM match_results WHERE game_id = :g", g=gid) == []
    # A profile read looks at a finished money session once, not at every read (no replay each time).
    ratings = client.app.state.ratings  # type: ignore[attr-defined]
    calls: list[str] = []
    real = ratings.record
    ratings.record = lambda game_id: calls.append(game_id) or real(game_id)
    try:
        profile(client, "Max Money")
        profile(client, "Max Money")
    finally:
        del ratings.record
    assert calls == [gid]
    # Against a guest: listed, not rated.
    guest = TestClient(client.app)
    gid2, tokens2, max_seat = new_match(max_, guest, match_length=1)
    resign_match(client, gid2, tokens2, loser=1 - max_seat)
    p = profile(client, "Max Money")
    assert (p["rating"], p["experience"]) == (1500.0, 0)
    assert [(m["kind"], m["opponent"], m["result"], m["rating_change"]) for m in p["matches"]] == [
        ("guest", "guest", "won", 0.0)]


def test_matches_against_the_computer_have_their_own_record(client: TestClient) -> None:
    oli = player(client, "Oli Computer")
    r = oli.post("/api/games", json={"opponent": "computer", "match_length": 1, "computer_level": "beginner"},
                 headers=SAME)
    assert r.status_code == 201, r.text
    gid, seat, token = r.json()["game_id"], r.json()["seat"], r.json()["token"]
    for _ in range(200):  # roll when it is ours to roll; resign once we are to move
        s = wait_or_turn(oli, gid, token, seat)
        if s["status"] == "finished":
            break
        if "resign" in s["allowed_actions"] and s["phase"] in ("move", "roll") and s["resignation"] is None:
            act(oli, gid, token, type="resign", kind="single")
            break
        if "roll" in s["allowed_actions"]:
            act(oli, gid, token, type="roll")
    wait_finished(oli, gid, token)
    p = profile(client, "Oli Computer")
    assert (p["rating"], p["experience"]) == (1500.0, 0)
    assert p["record"] == {"rated_wins": 0, "rated_losses": 0, "computer_wins": 0, "computer_losses": 1}
    assert [(m["kind"], m["opponent"], m["result"]) for m in p["matches"]] == [("computer", "computer", "lost")]
    assert p["rating_history"] == []


def wait_or_turn(c: TestClient, gid: str, token: str, seat: int) -> dict:  # type: ignore[type-arg]
    import time

    for _ in range(2400):
        s = c.get(f"/api/games/{gid}", headers=bearer(token)).json()
        if s["status"] == "finished" or s["allowed_actions"]:
            return dict(s)
        time.sleep(0.05)
    raise AssertionError("never our turn")


def test_the_leaderboard(client: TestClient) -> None:
    r = client.get("/api/leaderboard", params={"min_experience": 1, "limit": 100})
    assert r.status_code == 200, r.text
    board = r.json()
    ratings = [p["rating"] for p in board["players"]]
    assert ratings == sorted(ratings, reverse=True) and board["total"] == len(board["players"]) >= 2
    assert [p["rank"] for p in board["players"]] == list(range(1, len(ratings) + 1))
    assert all(p["experience"] >= 1 for p in board["players"])
    names = [p["name"] for p in board["players"]]
    assert "Oli Computer" not in names and "Max Money" not in names  # no rated match: not listed
    page = client.get("/api/leaderboard", params={"min_experience": 1, "limit": 1, "offset": 1}).json()
    assert [p["name"] for p in page["players"]] == names[1:2] and page["players"][0]["rank"] == 2
    assert client.get("/api/leaderboard", params={"min_experience": 5}).json()["min_experience"] == 5
    for bad in ({"limit": 0}, {"limit": 101}, {"offset": -1}, {"offset": 10**9}, {"min_experience": -1},
                {"limit": "many"}):
        assert client.get("/api/leaderboard", params=bad).status_code == 422, bad
    assert client.get("/api/players/nobody here").status_code == 404


def test_a_deleted_opponent_leaves_the_history_as_deleted_player(client: TestClient) -> None:
    uma, vic = player(client, "Uma Stays"), player(client, "Vic Leaves")
    gid, tokens, uma_seat = new_match(uma, vic, match_length=1)
    resign_match(client, gid, tokens, loser=1 - uma_seat)
    vic_id = table_rows(client, "SELECT id FROM accounts WHERE name = 'Vic Leaves'")[0][0]
    r = vic.post("/api/account/delete", json={"password": PASSWORD}, headers=SAME)
    assert r.status_code == 200, r.text
    p = profile(client, "Uma Stays")
    assert p["rating"] == 1510.0
    assert (p["matches"][0]["opponent"], p["matches"][0]["game_id"]) == ("deleted player", gid)
    assert "Vic Leaves" not in str(p)
    for table in ("player_ratings", "match_results"):  # nothing of Vic's stays
        assert table_rows(client, f"SELECT * FROM {table} WHERE account_id = :a", a=vic_id) == []
    assert table_rows(client, "SELECT * FROM match_results WHERE opponent_id = :a", a=vic_id) == []
    assert client.get("/api/players/Vic Leaves").status_code == 404


def test_an_abandoned_match_is_forfeited_and_rated(client: TestClient) -> None:
    from datetime import UTC, datetime, timedelta

    wes, xia = player(client, "Wes Waits"), player(client, "Xia Gone")
    gid, tokens, wes_seat = new_match(wes, xia, match_length=3)
    for _ in range(20):  # the opening; then play on until the game waits on Xia
        s = act(client, gid, tokens[0], type="roll")["state"]
        if s["phase"] == "move":
            break
    if s["to_act"] == wes_seat:
        act(client, gid, tokens[wes_seat], type="play", play=s["legal_plays"][0]["notation"])
    service = client.app.state.service  # type: ignore[attr-defined]
    assert service.forfeit_abandoned(now=datetime.now(UTC) + timedelta(hours=23)) == []  # not a day yet
    assert service.forfeit_abandoned(now=datetime.now(UTC) + timedelta(hours=25)) == [gid]
    end = client.get(f"/api/games/{gid}", headers=bearer(tokens[wes_seat])).json()
    assert end["status"] == "finished"
    w, x = profile(client, "Wes Waits"), profile(client, "Xia Gone")
    # Rated as a 3-point match Wes won: equal ratings, P = 1/2, K = 5: 4 * 5 * sqrt(3) / 2 = 10 * sqrt(3).
    assert w["rating"] == pytest.approx(1500 + 10 * math.sqrt(3), abs=1e-9)
    assert x["rating"] == pytest.approx(1500 - 10 * math.sqrt(3), abs=1e-9)
    assert (w["matches"][0]["result"], x["matches"][0]["result"]) == ("won", "lost")
    assert service.forfeit_abandoned(now=datetime.now(UTC) + timedelta(hours=50)) == []  # once


def test_a_resignation_rates_nothing_until_the_match_is_over(client: TestClient) -> None:
    yan, zed = player(client, "Yan Arranged"), player(client, "Zed Arranged")
    gid, tokens, yan_seat = new_match(yan, zed, match_length=3)
    s = resign_match(client, gid, tokens, loser=1 - yan_seat)  # one point of three: the match goes on
    assert s["status"] == "active" and s["match"]["score"][yan_seat] == 1
    assert table_rows(client, "SELECT * FROM match_results WHERE game_id = :g", g=gid) == []
    assert client.app.state.ratings.record(gid) is False  # type: ignore[attr-defined]
    assert profile(client, "Yan Arranged")["rating"] == 1500.0


def test_a_match_whose_recording_was_missed_is_caught_up(client: TestClient) -> None:
    service, ratings = client.app.state.service, client.app.state.ratings  # type: ignore[attr-defined]
    amy, ben = player(client, "Amy Missed"), player(client, "Ben Missed")
    gid, tokens, amy_seat = new_match(amy, ben, match_length=1)
    service.listeners.remove(ratings.on_change)  # as if the database had been away when it ended
    try:
        resign_match(client, gid, tokens, loser=1 - amy_seat)
    finally:
        service.listeners.append(ratings.on_change)
    assert table_rows(client, "SELECT * FROM match_results WHERE game_id = :g", g=gid) == []
    assert profile(client, "Amy Missed")["rating"] == 1510.0  # recorded when the profile is read
    assert profile(client, "Ben Missed")["rating"] == 1490.0
    assert profile(client, "Amy Missed")["experience"] == 1
