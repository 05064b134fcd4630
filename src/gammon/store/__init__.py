"""Persistence for the server: games and their action records in SQLite or PostgreSQL.

SQLAlchemy 2 does the data access (:mod:`gammon.store.repository`), Alembic the
schema (:mod:`gammon.store.migrations`, run by :func:`open_store`).  A game row
holds the settings, the seats' token hashes, the secret dice seed and its
commitment, a version counter and a status; each accepted action is one row of
``actions`` with the dice it used, from which a game replays exactly.
"""

from __future__ import annotations

from gammon.store.codec import action_from_dict, action_to_dict, event_to_dict
from gammon.store.db import (
    database_kind,
    default_database_url,
    make_engine,
    normalize_url,
    upgrade_database,
)
from gammon.store.repository import (
    ActionRecord,
    GameRecord,
    NewGameRow,
    Store,
    StoreError,
    VersionConflict,
    open_store,
)

__all__ = [
    "ActionRecord",
    "GameRecord",
    "NewGameRow",
    "Store",
    "StoreError",
    "VersionConflict",
    "action_from_dict",
    "action_to_dict",
    "database_kind",
    "default_database_url",
    "event_to_dict",
    "make_engine",
    "normalize_url",
    "open_store",
    "upgrade_database",
]
