"""Running the server: :func:`serve` (what ``gammon serve`` calls) and :func:`create_app`.

``python -m gammon.web --port 8080 [--database-url URL]`` does the same from
the command line.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Sequence

from fastapi import FastAPI
from sqlalchemy.engine import make_url

from gammon.web.app import create_app
from gammon.web.config import Settings
from gammon.web.guards import MAX_MESSAGE_BYTES

log = logging.getLogger("gammon.web")


def app_from_env() -> FastAPI:
    """The application configured by the environment (for ``uvicorn --factory``)."""
    return create_app(Settings.from_env())


def serve(host: str = "127.0.0.1", port: int = 8080, database_url: str | None = None, *,
          settings: Settings | None = None, log_level: str = "info", access_log: bool = False) -> None:
    """Run the server until interrupted.

    ``database_url`` overrides ``GAMMON_DATABASE_URL`` (default: an SQLite file
    in the user's data directory; PostgreSQL with ``postgresql+psycopg://...``).
    The access log is off by default: WebSocket and invitation URLs carry seat tokens.
    """
    import uvicorn

    settings = settings or Settings.from_env(database_url=database_url)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    log.info("gammon server on http://%s:%d (database: %s)", host, port,
             make_url(settings.resolved_database_url()).render_as_string(hide_password=True))
    uvicorn.run(create_app(settings), host=host, port=port, log_level=log_level, ws=ws_protocol(),
                ws_max_size=WS_FRAME_LIMIT,
                timeout_graceful_shutdown=5, access_log=access_log)


#: The largest WebSocket message uvicorn assembles at all (bigger ones close the socket with 1009);
#: messages under it but over :data:`gammon.web.guards.MAX_MESSAGE_BYTES` get an error message.
WS_FRAME_LIMIT = 4 * MAX_MESSAGE_BYTES


def ws_protocol() -> str:
    """uvicorn's WebSocket implementation on the ``websockets`` package (the sans-I/O one when offered)."""
    from uvicorn.config import WS_PROTOCOLS

    return "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "websockets"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m gammon.web", description="Run the gammon server.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--database-url", default=None,
                        help="sqlite:///path, a file path, or postgresql+psycopg://user@host/db")
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--access-log", action="store_true", help="log every request (URLs may hold tokens)")
    args = parser.parse_args(argv)
    serve(args.host, args.port, args.database_url, log_level=args.log_level, access_log=args.access_log)


__all__ = ["app_from_env", "create_app", "main", "serve"]
