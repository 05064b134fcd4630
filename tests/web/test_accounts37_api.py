"""Accounts through the real app (SQLite, and PostgreSQL when GAMMON_TEST_POSTGRES_URL is set):
sign up, name and password rules, log in and out, sessions, password change, deletion, profiles,
and the migrated schema against the models."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from accounts37_helpers import (
    EVIL,
    PASSWORD,
    SAME,
    TestClient,
    database_url,
    log_in,
    make_client,
    other_client,
    sign_up,
    table_rows,
    with_cookie,
)
from gammon.web.sessions import COOKIE_NAME


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    yield from make_client(database_url(request.param, tmp_path_factory.mktemp("acc")))


def _error(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text
    return dict(r.json())


def test_migrated_schema_matches_the_models(client: TestClient) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from gammon.store.models import Base

    assert {"accounts", "account_sessions", "account_seats"} <= set(Base.metadata.tables)
    engine = client.app.state.service.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []


def test_sign_up_logs_in_and_shows_the_account(client: TestClient) -> None:
    c = other_client(client)
    body = sign_up(c, "Ann Lee")
    assert body["name"] == "Ann Lee" and set(body) == {"name", "created", "password_changed"}
    me = c.get("/api/account").json()
    assert me["name"] == "Ann Lee" and me["sessions"] == 1 and me["seats"] == []
    assert client.get("/api/account").status_code == 401  # another browser is not logged in


@pytest.mark.parametrize("taken", ["ann lee", "ANN LEE", "\u0391nn Lee", "Ann L\u0435e", "\uff21nn Lee"])
def test_a_name_that_looks_the_same_is_taken(client: TestClient, taken: str) -> None:
    # case, Greek capital Alpha, Cyrillic small ie, full-width A: all look like "Ann Lee"
    if client.get("/api/players/Ann Lee").status_code == 404:
        sign_up(other_client(client), "Ann Lee")
    r = other_client(client).post("/api/accounts", json={"name": taken, "password": PASSWORD}, headers=SAME)
    _error(r, 409, "name_taken")


def test_capital_i_and_small_l_are_one_name(client: TestClient) -> None:
    sign_up(other_client(client), "Ian Moss")
    _error(other_client(client).post("/api/accounts", json={"name": "lan Moss", "password": PASSWORD}),
           409, "name_taken")


@pytest.mark.parametrize("name", ["Ann\u202eEvil", "Zero\u200bWidth", "Tab\tName", " Spaced", "Two  Spaces",
                                  "x" * 25, "a", "--", "Deleted Player", "com/puter", "\u0007bell"])
def test_names_against_the_rules_are_refused(client: TestClient, name: str) -> None:
    r = other_client(client).post("/api/accounts", json={"name": name, "password": PASSWORD}, headers=SAME)
    _error(r, 422, "invalid_request")


@pytest.mark.parametrize("password", ["short pw", "Carol Baxter's password", "xxCAROL BAXTERxx"])
def test_weak_passwords_are_refused(client: TestClient, password: str) -> None:
    r = other_client(client).post("/api/accounts", json={"name": "Carol Baxter", "password": password},
                                  headers=SAME)
    _error(r, 422, "invalid_request")
    assert client.get("/api/players/Carol Baxter").status_code == 404


def test_the_password_is_stored_as_an_argon2id_hash(client: TestClient) -> None:
    sign_up(other_client(client), "Dora Hash")
    rows = table_rows(client, "SELECT password_hash FROM accounts WHERE name = :n", n="Dora Hash")
    assert len(rows) == 1 and rows[0][0].startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    assert PASSWORD not in rows[0][0]


def test_log_in_out_and_the_session_ends(client: TestClient) -> None:
    sign_up(other_client(client), "Eve Login")
    c = other_client(client)
    log_in(c, "eve login")  # any case
    sid = c.cookies.get(COOKIE_NAME)
    assert with_cookie(client, sid).get("/api/account").json()["name"] == "Eve Login"  # the cookie is sent
    r = c.delete("/api/session", headers=SAME)
    assert r.status_code == 200 and r.json() == {"sessions_ended": 1}
    assert c.get("/api/account").status_code == 401
    assert with_cookie(client, sid).get("/api/account").status_code == 401  # a kept copy is worth nothing


def test_sessions_are_stored_hashed(client: TestClient) -> None:
    c = other_client(client)
    sign_up(c, "Fay Hashed")
    sid = c.cookies.get(COOKIE_NAME)
    assert sid and len(sid) >= 43
    rows = table_rows(client, "SELECT s.id_hash FROM account_sessions s JOIN accounts a ON a.id = s.account_id "
                              "WHERE a.name = :n", n="Fay Hashed")
    assert len(rows) == 1 and rows[0][0] != sid and sid not in rows[0][0]
    import hashlib
    assert rows[0][0] == hashlib.sha256(sid.encode()).hexdigest()


def test_log_out_everywhere(client: TestClient) -> None:
    phone, laptop = other_client(client), other_client(client)
    sign_up(phone, "Gus Twice")
    log_in(laptop, "Gus Twice")
    assert phone.get("/api/account").json()["sessions"] == 2
    r = laptop.delete("/api/account/sessions", headers=SAME)
    assert r.status_code == 200 and r.json() == {"sessions_ended": 2}
    assert phone.get("/api/account").status_code == 401
    assert laptop.get("/api/account").status_code == 401


def test_change_password_ends_the_other_sessions(client: TestClient) -> None:
    phone, laptop = other_client(client), other_client(client)
    sign_up(phone, "Hal Change")
    log_in(laptop, "Hal Change")
    old_cookie = laptop.cookies.get(COOKIE_NAME)
    _error(laptop.post("/api/account/password", json={"password": "not the password", "new_password":
                                                       "a brand new secret"}, headers=SAME), 401, "bad_login")
    _error(laptop.post("/api/account/password", json={"password": PASSWORD, "new_password": "short"},
                       headers=SAME), 422, "invalid_request")
    r = laptop.post("/api/account/password", json={"password": PASSWORD, "new_password": "a brand new secret"},
                    headers=SAME)
    assert r.status_code == 200, r.text
    assert laptop.cookies.get(COOKIE_NAME) != old_cookie
    assert laptop.get("/api/account").status_code == 200
    assert phone.get("/api/account").status_code == 401
    log_in(other_client(client), "Hal Change", status=401)
    log_in(other_client(client), "Hal Change", "a brand new secret")


def test_profiles_are_public_and_say_nothing_private(client: TestClient) -> None:
    sign_up(other_client(client), "Ivy Public")
    r = client.get("/api/players/ivy public")
    assert r.status_code == 200
    assert set(r.json()) == {"name", "created", "games_finished", "rating", "experience", "record",
                             "rating_history", "matches"} and r.json()["name"] == "Ivy Public"
    _error(client.get("/api/players/Nobody Here"), 404, "not_found")


def test_delete_the_account(client: TestClient) -> None:
    c = other_client(client)
    sign_up(c, "Jon Gone")
    log_in(other_client(client), "Jon Gone")  # a second session, on another device
    account_id = table_rows(client, "SELECT id FROM accounts WHERE name = :n", n="Jon Gone")[0][0]
    _error(c.post("/api/account/delete", json={"password": "not the password"}, headers=SAME), 401, "bad_login")
    r = c.post("/api/account/delete", json={"password": PASSWORD}, headers=SAME)
    assert r.status_code == 200 and r.json()["deleted"] is True
    # no hash, no session, no seat left; the name is free again
    assert table_rows(client, "SELECT * FROM accounts WHERE id = :i", i=account_id) == []
    assert table_rows(client, "SELECT * FROM account_sessions WHERE account_id = :i", i=account_id) == []
    assert table_rows(client, "SELECT * FROM account_seats WHERE account_id = :i", i=account_id) == []
    assert c.get("/api/account").status_code == 401
    log_in(other_client(client), "Jon Gone", status=401)
    assert client.get("/api/players/Jon Gone").status_code == 404
    sign_up(other_client(client), "Jon Gone", "another password")


def test_one_account_cannot_touch_another(client: TestClient) -> None:
    kim, leo = other_client(client), other_client(client)
    sign_up(kim, "Kim Victim")
    sign_up(leo, "Leo Attacker")
    # Leo reads only his own account; naming Kim in a body is refused, not obeyed
    assert leo.get("/api/account").json()["name"] == "Leo Attacker"
    r = leo.post("/api/account/delete", json={"password": PASSWORD, "name": "Kim Victim"}, headers=SAME)
    _error(r, 422, "invalid_request")
    r = leo.post("/api/account/password", json={"password": PASSWORD, "new_password": "leo owns kim now",
                                                "name": "Kim Victim"}, headers=SAME)
    _error(r, 422, "invalid_request")
    # Leo's own deletion deletes Leo, never Kim
    assert leo.post("/api/account/delete", json={"password": PASSWORD}, headers=SAME).status_code == 200
    assert kim.get("/api/account").json()["name"] == "Kim Victim"
    log_in(other_client(client), "Kim Victim")


def test_cross_origin_requests_with_the_cookie_are_refused(client: TestClient) -> None:
    victim = other_client(client)
    sign_up(victim, "Max Csrf")
    for method, path, body in [("POST", "/api/account/password", {"password": PASSWORD,
                                                                  "new_password": "attacker's choice"}),
                               ("POST", "/api/account/delete", {"password": PASSWORD}),
                               ("DELETE", "/api/account/sessions", None),
                               ("POST", "/api/games", {"opponent": "human"})]:
        for headers in (EVIL, {"Origin": "null"}, {}):  # another site, a sandboxed frame, no Origin at all
            r = victim.request(method, path, json=body, headers=headers)
            _error(r, 403, "cross_origin")
    assert victim.get("/api/account").json()["sessions"] == 1  # nothing happened
    log_in(other_client(client), "Max Csrf")
    # the same requests from the server's own pages work
    assert victim.post("/api/games", json={"opponent": "human"}, headers=SAME).status_code == 201


def test_login_csrf_is_refused(client: TestClient) -> None:
    sign_up(other_client(client), "Ned Attacker")
    victim = other_client(client)
    r = victim.post("/api/session", json={"name": "Ned Attacker", "password": PASSWORD}, headers=EVIL)
    _error(r, 403, "cross_origin")
    assert victim.cookies.get(COOKIE_NAME) is None


def test_guests_are_not_affected_by_the_origin_check(client: TestClient) -> None:
    guest = other_client(client)
    r = guest.post("/api/games", json={"opponent": "human"}, headers=EVIL)  # no cookie: a seat token's world
    assert r.status_code == 201


def test_the_cookie_changes_at_login(client: TestClient) -> None:
    """Session fixation: a session id planted before the login is never the one logged in."""
    sign_up(other_client(client), "Ola Fixed")
    attacker = other_client(client)
    log_in(attacker, "Ola Fixed")
    planted = attacker.cookies.get(COOKIE_NAME)  # a real session id, which the attacker plants
    victim = with_cookie(client, planted)
    assert victim.get("/api/account").status_code == 200  # planted: it is sent, and it works
    log_in(victim, "Ola Fixed")
    fresh = victim.cookies.get(COOKIE_NAME)
    assert fresh and fresh != planted
    assert with_cookie(client, planted).get("/api/account").status_code == 401  # ended at the login
    assert with_cookie(client, fresh).get("/api/account").status_code == 200


def test_cookie_flags(client: TestClient) -> None:
    r = other_client(client).post("/api/accounts", json={"name": "Pam Flags", "password": PASSWORD},
                                  headers=SAME)
    cookie = r.headers["set-cookie"]
    parts = [p.strip().lower() for p in cookie.split(";")]
    assert parts[0].startswith(COOKIE_NAME + "=")
    assert "httponly" in parts and "samesite=lax" in parts and "path=/" in parts
    assert any(p.startswith("max-age=") and int(p.split("=")[1]) > 0 for p in parts)
    assert "secure" not in parts  # plain http: a Secure cookie would never come back
