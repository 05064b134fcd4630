"""Sessions behind HTTPS (the Secure flag, the public URL's origin), expiry and the cap per account."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import text

from accounts37_helpers import PASSWORD, TestClient, database_url, make_client, other_client, table_rows
from gammon.store.accounts import MAX_SESSIONS
from gammon.web.sessions import COOKIE_NAME

PUBLIC = "https://gammon.example"
OWN = {"Origin": PUBLIC}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    yield from make_client(database_url(request.param, tmp_path_factory.mktemp("https")), public_url=PUBLIC)


def _sign_up(c: TestClient, name: str) -> str:
    r = c.post("/api/accounts", json={"name": name, "password": PASSWORD}, headers=OWN)
    assert r.status_code == 201, r.text
    return r.cookies[COOKIE_NAME]


def _me(c: TestClient, session_id: str) -> int:
    return other_client(c).get("/api/account", headers={"Cookie": f"{COOKIE_NAME}={session_id}"}).status_code


def test_behind_https_the_cookie_is_secure(client: TestClient) -> None:
    r = other_client(client).post("/api/accounts", json={"name": "Cal Secure", "password": PASSWORD},
                                  headers=OWN)
    parts = [p.strip().lower() for p in r.headers["set-cookie"].split(";")]
    assert "secure" in parts and "httponly" in parts and "samesite=lax" in parts


def test_the_origin_is_the_public_urls(client: TestClient) -> None:
    sid = _sign_up(other_client(client), "Dee Origin")
    cookie = {"Cookie": f"{COOKIE_NAME}={sid}"}
    # the Host the request came in with is not the server's origin when a public URL is set
    for origin in ("http://testserver", "http://gammon.example", "https://gammon.example.evil.example"):
        r = other_client(client).delete("/api/account/sessions", headers={**cookie, "Origin": origin})
        assert r.status_code == 403 and r.json()["error"]["code"] == "cross_origin"
    assert _me(client, sid) == 200
    r = other_client(client).delete("/api/account/sessions", headers={**cookie, "Origin": "https://GAMMON.example:443"})
    assert r.status_code == 200
    assert _me(client, sid) == 401


def test_an_expired_session_logs_nobody_in(client: TestClient) -> None:
    sid = _sign_up(other_client(client), "Eli Expired")
    assert _me(client, sid) == 200
    engine = client.app.state.service.store.engine  # type: ignore[attr-defined]
    with engine.begin() as conn:
        conn.execute(text("UPDATE account_sessions SET expires_at = created_at WHERE account_id = "
                          "(SELECT id FROM accounts WHERE name = 'Eli Expired')"))
    assert _me(client, sid) == 401


def test_an_account_keeps_at_most_so_many_sessions(client: TestClient) -> None:
    first = _sign_up(other_client(client), "Flo Many")
    ids = [first]
    for _ in range(MAX_SESSIONS + 2):
        r = other_client(client).post("/api/session", json={"name": "Flo Many", "password": PASSWORD},
                                      headers=OWN)
        assert r.status_code == 200, r.text
        ids.append(r.cookies[COOKIE_NAME])
    rows = table_rows(client, "SELECT count(*) FROM account_sessions s JOIN accounts a ON a.id = s.account_id "
                              "WHERE a.name = 'Flo Many'")
    assert rows[0][0] == MAX_SESSIONS
    assert _me(client, ids[-1]) == 200 and _me(client, first) == 401


def test_a_hash_with_old_parameters_is_replaced_at_login(client: TestClient) -> None:
    from argon2 import PasswordHasher

    _sign_up(other_client(client), "Gil Rehash")
    accounts = client.app.state.accounts  # type: ignore[attr-defined]
    account_id = table_rows(client, "SELECT id FROM accounts WHERE name = 'Gil Rehash'")[0][0]
    weak = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1).hash(PASSWORD)
    accounts.store.set_password_hash(account_id, weak, changed=False)  # as an older release stored it
    r = other_client(client).post("/api/session", json={"name": "Gil Rehash", "password": PASSWORD},
                                  headers=OWN)
    assert r.status_code == 200, r.text
    stored = table_rows(client, "SELECT password_hash FROM accounts WHERE id = :i", i=account_id)[0][0]
    assert stored != weak and stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    assert not accounts.passwords.needs_rehash(stored)


def test_sign_ups_spend_the_create_budget(tmp_path_factory: pytest.TempPathFactory) -> None:
    from gammon.web.ratelimit import RateLimits

    limits = RateLimits(create="3/minute")
    for c in make_client(str(tmp_path_factory.mktemp("signups") / "gammon.db"), rate_limits=limits):
        for i in range(3):
            r = other_client(c).post("/api/accounts", json={"name": f"Bot Number {i}", "password": PASSWORD},
                                     headers={"Origin": "http://testserver"})
            assert r.status_code == 201, r.text
        r = other_client(c).post("/api/accounts", json={"name": "Bot Number 9", "password": PASSWORD},
                                 headers={"Origin": "http://testserver"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
