"""Shared helpers of the account tests (tests/test_accounts37_*.py): an app on SQLite or on a
PostgreSQL database of these tests' own, clients that log in, and direct looks into the tables."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from gammon.web import Settings, create_app
from gammon.web.ratelimit import RateLimits
from gammon.web.sessions import COOKIE_NAME
from gammon.web.testing import reset_postgres

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

PG_URL = os.environ.get("GAMMON_TEST_POSTGRES_URL")
#: The server's own origin as TestClient's requests reach it.
ORIGIN = "http://testserver"
SAME = {"Origin": ORIGIN}
EVIL = {"Origin": "https://evil.example"}
PASSWORD = "correct horse battery"


def own_postgres_url(url: str, name: str = "gammon_accounts37") -> str:
    """``url`` with a database of these tests' own (made when missing), so that they never drop the
    tables another test file is using on the shared test server."""
    from gammon.store.db import make_engine

    engine = make_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            if conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}).first() is None:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return make_url(url).set(database=name).render_as_string(hide_password=False)


def database_url(kind: str, tmp: Any) -> str:
    if kind == "postgresql":
        if not PG_URL:
            pytest.skip("GAMMON_TEST_POSTGRES_URL is not set: PostgreSQL tests skipped")
        url = own_postgres_url(PG_URL)
        reset_postgres(url)
        return url
    return str(tmp / "gammon.db")


def make_client(url: str, **settings: Any) -> Iterator[TestClient]:
    settings.setdefault("rate_limits", RateLimits(enabled=False))
    app = create_app(Settings(database_url=url, allow_test_seeds=True, **settings))
    with TestClient(app) as c:
        yield c


def other_client(c: TestClient) -> TestClient:
    """A second browser on the same running app: its own cookie jar."""
    return TestClient(c.app)


def with_cookie(c: TestClient, session_id: str | None) -> TestClient:
    """A browser that holds the session cookie ``session_id`` (a stolen or a planted one)."""
    other = other_client(c)
    if session_id is not None:
        other.cookies.set(COOKIE_NAME, session_id, domain="testserver.local")
    return other


def sign_up(c: TestClient, name: str, password: str = PASSWORD, status: int = 201) -> dict[str, Any]:
    r = c.post("/api/accounts", json={"name": name, "password": password}, headers=SAME)
    assert r.status_code == status, r.text
    return dict(r.json())


def log_in(c: TestClient, name: str, password: str = PASSWORD, status: int = 200) -> Any:
    r = c.post("/api/session", json={"name": name, "password": password}, headers=SAME)
    assert r.status_code == status, r.text
    return r


def table_rows(c: TestClient, sql: str, **params: Any) -> list[Any]:
    engine = c.app.state.service.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        return list(conn.execute(text(sql), params).all())
