"""The chat tables on SQLite and PostgreSQL (issue 37): migration 0007 makes exactly the models'
tables (and goes down again), messages and settings survive a restart of the service, and a
game's chat is deleted with the game.  PostgreSQL runs on a database of these tests' own
(``gammon_chat37``) on the server of ``GAMMON_TEST_POSTGRES_URL``; skipped without it."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import text

from accounts37_helpers import PG_URL, own_postgres_url, table_rows
from gammon.store.chat import ChatFull, ChatSettings, ChatStore
from gammon.store.db import current_revision
from gammon.web import Settings, create_app
from gammon.web.ratelimit import RateLimits
from gammon.web.testing import reset_postgres
from webclient import bearer

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def _url(kind: str, tmp: Any) -> str:
    if kind == "sqlite":
        return str(tmp / "gammon.db")
    if not PG_URL:
        pytest.skip("GAMMON_TEST_POSTGRES_URL is not set: PostgreSQL tests skipped")
    url = own_postgres_url(PG_URL, "gammon_chat37")
    reset_postgres(url)
    return url


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    return _url(request.param, tmp_path_factory.mktemp("chatstore"))


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=url, allow_test_seeds=True, rate_limits=RateLimits(enabled=False)))
    with TestClient(app) as c:
        yield c


def _game(c: TestClient) -> tuple[str, str, str]:
    d = c.post("/api/games", json={"opponent": "human", "name": "Ann"}).json()
    j = c.post(f"/api/games/{d['game_id']}/join", headers=bearer(d['invite_token']))
    return d["game_id"], d["token"], j.json()["token"]


def test_migrated_schema_matches_the_models(client: TestClient) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from gammon.store.models import Base

    engine = client.app.state.service.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    assert current_revision(engine) == "0007"


def test_chat_survives_a_restart_and_goes_with_its_game(url: str) -> None:
    app = create_app(Settings(database_url=url, allow_test_seeds=True, rate_limits=RateLimits(enabled=False)))
    with TestClient(app) as c:
        gid, t0, t1 = _game(c)
        for token, words in ((t0, "hej \u00e5"), (t1, "<b>hi</b>")):
            assert c.post(f"/api/games/{gid}/chat", json={"text": words},
                          headers=bearer(token)).status_code == 201
        c.put(f"/api/games/{gid}/chat/settings", json={"spectators": True},
              headers=bearer(t1))
    with TestClient(create_app(Settings(database_url=url, rate_limits=RateLimits(enabled=False)))) as c:
        r = c.get(f"/api/games/{gid}/chat", headers=bearer(t0))
        assert [m["text"] for m in r.json()["messages"]] == ["hej \u00e5", "<b>hi</b>"]
        r = c.get(f"/api/games/{gid}/chat/settings", headers=bearer(t1))
        assert r.json() == {"muted": False, "spectators": True}
        store = ChatStore(c.app.state.service.store)  # type: ignore[attr-defined]
        with pytest.raises(ChatFull):
            store.add(gid, "players", 0, "Ann", "one too many", limit=2)
        store.set_settings(gid, 0, ChatSettings(muted=True))
        assert store.settings(gid)[0] == ChatSettings(muted=True, spectators=False)
        with c.app.state.service.store.engine.begin() as conn:  # type: ignore[attr-defined]
            conn.execute(text("DELETE FROM actions WHERE game_id = :g"), {"g": gid})
            conn.execute(text("DELETE FROM games WHERE id = :g"), {"g": gid})
        assert table_rows(c, "SELECT id FROM chat_messages WHERE game_id = :g", g=gid) == []
        assert table_rows(c, "SELECT seat FROM chat_settings WHERE game_id = :g", g=gid) == []


def test_the_migration_goes_down_and_up(url: str) -> None:
    from alembic import command

    from gammon.store.db import _alembic_config, make_engine

    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            command.upgrade(_alembic_config(conn), "head")
            command.downgrade(_alembic_config(conn), "0005")
            conn.commit()
        assert current_revision(engine) == "0005"
        with engine.connect() as conn:
            command.upgrade(_alembic_config(conn), "head")
            conn.commit()
        assert current_revision(engine) == "0007"
    finally:
        engine.dispose()
