"""Alembic migration scripts of gammon's database (run by ``gammon.store.upgrade_database``)."""
