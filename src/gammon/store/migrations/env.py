"""Alembic environment: runs the migrations on the connection gammon hands over.

``gammon.store.db.upgrade_database`` passes its connection in
``config.attributes["connection"]``; run from the ``alembic`` command line
instead, the URL comes from ``sqlalchemy.url`` or ``GAMMON_DATABASE_URL``.
"""

from __future__ import annotations

from alembic import context

from gammon.store.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations_offline() -> None:
    from gammon.store.db import default_database_url

    context.configure(
        url=config.get_main_option("sqlalchemy.url") or default_database_url(),
        target_metadata=target_metadata,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    from gammon.store.db import default_database_url, make_engine

    engine = make_engine(config.get_main_option("sqlalchemy.url") or default_database_url())
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        conn.commit()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
