"""Where the data lives: database URLs, engines and the schema migrations.

* ``GAMMON_DATABASE_URL`` names the database when set (``postgresql+psycopg://``
  for PostgreSQL; plain ``postgresql://`` and ``postgres://`` are read as
  psycopg 3 URLs; ``sqlite:///path`` or a bare file path for SQLite);
* otherwise an SQLite file under ``$XDG_DATA_HOME/gammon/gammon.db``
  (``~/.local/share/gammon/gammon.db``).

:func:`upgrade_database` runs ``alembic upgrade head`` with the migration
scripts shipped inside the package, under a lock so that several servers
starting together on one PostgreSQL database migrate it once.
"""

from __future__ import annotations

import contextlib
import os
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url

from gammon.core.errors import GammonError

#: The environment variable that names the server's database.
DATABASE_URL_ENV = "GAMMON_DATABASE_URL"

#: Key of the PostgreSQL advisory lock held while migrating ("gammon" in ASCII).
_MIGRATION_LOCK = 0x67616D6D6F6E


def default_database_url() -> str:
    """``$GAMMON_DATABASE_URL``, else the SQLite file in the user's data directory."""
    url = os.environ.get(DATABASE_URL_ENV, "").strip()
    if url:
        return normalize_url(url)
    base = os.environ.get("XDG_DATA_HOME", "").strip() or str(Path.home() / ".local" / "share")
    return normalize_url(str(Path(base) / "gammon" / "gammon.db"))


def normalize_url(url: str) -> str:
    """An SQLAlchemy URL for ``url``: psycopg 3 for PostgreSQL, ``sqlite:///`` for a path.

    :raises GammonError: a URL of a database gammon does not support.
    """
    url = str(url).strip()
    if not url:
        raise GammonError("empty database URL")
    if "://" not in url:
        return "sqlite:///" + str(Path(url).expanduser().resolve())
    scheme, rest = url.split("://", 1)
    scheme = scheme.lower()
    if scheme in ("postgres", "postgresql", "postgresql+psycopg", "postgresql+psycopg3"):
        return "postgresql+psycopg://" + rest
    if scheme in ("sqlite", "sqlite+pysqlite"):
        return url
    raise GammonError(
        f"unsupported database URL scheme {scheme!r}: use sqlite:///path or postgresql+psycopg://..."
    )


def database_kind(url: str) -> str:
    """``"sqlite"`` or ``"postgresql"``."""
    return "postgresql" if normalize_url(url).startswith("postgresql") else "sqlite"


def libpq_url(url: str) -> str:
    """A PostgreSQL URL as libpq (and psycopg's own connect) reads it, password included."""
    return make_url(normalize_url(url)).set(drivername="postgresql").render_as_string(hide_password=False)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL lets readers run beside the writer; FULL makes every commit durable before
    # the server acknowledges the action; the busy timeout makes writers wait their turn.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def make_engine(url: str, **kw: Any) -> Engine:
    """An engine for ``url`` (see :func:`normalize_url`) with gammon's connection settings.

    SQLite files get WAL mode, durable commits and a busy timeout; their directory
    is created.
    """
    url = normalize_url(url)
    if url.startswith("sqlite"):
        u = make_url(url)
        if u.database and u.database != ":memory:":
            Path(u.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 10}, **kw)
        event.listen(engine, "connect", _sqlite_pragmas)
        # pysqlite's own transaction handling defers BEGIN; emit it ourselves so that
        # a transaction that writes takes the write lock at its first statement.
        event.listen(engine, "connect", _no_pysqlite_begin)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    # No pre-ping (a round trip per checkout): a connection lost with a restarted database
    # invalidates the whole pool at its first error, and the next request gets fresh ones.
    kw.setdefault("pool_recycle", 1800)
    kw.setdefault("pool_size", 10)
    kw.setdefault("max_overflow", 20)
    return create_engine(url, **kw)


def _no_pysqlite_begin(dbapi_conn: Any, _record: Any) -> None:
    dbapi_conn.isolation_level = None


_WRITE_OPTION = "gammon_write"


def _sqlite_begin(conn: Any) -> None:
    # A transaction that will write takes SQLite's write lock at once (BEGIN IMMEDIATE, which
    # waits in the busy handler). A deferred one that reads first and writes later fails with
    # "database is locked" at once when another connection wrote in between, busy timeout or not.
    immediate = conn.get_execution_options().get(_WRITE_OPTION, False)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


_ENGINE_LOCKS: weakref.WeakKeyDictionary[Engine, threading.Lock] = weakref.WeakKeyDictionary()
_ENGINE_LOCKS_GUARD = threading.Lock()


def _engine_lock(engine: Engine) -> threading.Lock:
    with _ENGINE_LOCKS_GUARD:
        lock = _ENGINE_LOCKS.get(engine)
        if lock is None:
            lock = _ENGINE_LOCKS[engine] = threading.Lock()
        return lock


@contextlib.contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction that writes: committed when the block ends, rolled back if it raises.

    Every store's writes go through here. On SQLite, this process's writers take turns on one
    lock for the engine (games, accounts, ratings and chat alike: a thread waiting in SQLite's
    own busy handler sleeps in steps of up to 100 ms), and the transaction begins IMMEDIATE,
    so a writer in another process makes it wait for the busy timeout instead of failing.
    PostgreSQL needs neither: it is ``engine.begin()``.
    """
    if engine.dialect.name != "sqlite":
        with engine.begin() as conn:
            yield conn
        return
    with _engine_lock(engine), engine.connect() as conn:
        conn = conn.execution_options(**{_WRITE_OPTION: True})
        with conn.begin():
            yield conn


def _alembic_config(connection: Any) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    cfg.attributes["connection"] = connection
    return cfg


def upgrade_database(engine: Engine) -> None:
    """Bring the schema up to date: ``alembic upgrade head`` with the package's scripts."""
    from alembic import command

    with engine.connect() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _MIGRATION_LOCK})
            conn.commit()
        try:
            command.upgrade(_alembic_config(conn), "head")
            conn.commit()
        finally:
            if engine.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _MIGRATION_LOCK})
                conn.commit()


def current_revision(engine: Engine) -> str | None:
    """The schema revision the database is at (None before the first migration)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


__all__ = [
    "DATABASE_URL_ENV",
    "current_revision",
    "database_kind",
    "default_database_url",
    "libpq_url",
    "make_engine",
    "normalize_url",
    "upgrade_database",
]
