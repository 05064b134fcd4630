"""Running the server: :func:`serve` (what ``gammon serve`` calls) and :func:`create_app`.

``python -m gammon.web --port 8080 [--database-url URL]`` does the same from
the command line.

Before uvicorn starts, :func:`serve` does what can fail in a way the person starting
the server can fix, and turns each failure into one :class:`GammonError` (the CLI
prints it as one ``error:`` line and exits 2): the database is opened and migrated
(unreachable, not a database, an unwritable folder), and the listening socket is
bound (a busy port, a host that does not resolve).  The server then runs with the
limits of :mod:`gammon.web.http_limits` on every connection, no ``server`` banner,
forwarded addresses trusted only from ``forwarded_allow_ips`` (none by default) and
every log line passed through :mod:`gammon.web.logs`' redactor.
"""

from __future__ import annotations

import argparse
import logging
import socket
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI
from sqlalchemy.engine import make_url

from gammon.core.errors import GammonError
from gammon.web.app import create_app
from gammon.web.config import Settings
from gammon.web.guards import MAX_MESSAGE_BYTES
from gammon.web.http_limits import MAX_CONNECTIONS_PER_ADDRESS, limited_protocol
from gammon.web.logs import configure_logging

if TYPE_CHECKING:
    import uvicorn

log = logging.getLogger("gammon.web")

#: The most connections (HTTP and WebSocket together) one process holds; beyond it new ones get 503.
MAX_CONNECTIONS = 2000
#: Seconds an idle keep-alive connection is kept.
KEEP_ALIVE = 5


def app_from_env() -> FastAPI:
    """The application configured by the environment (for ``uvicorn --factory``)."""
    return create_app(Settings.from_env())


def serve(host: str = "127.0.0.1", port: int = 8080, database_url: str | None = None, *,
          settings: Settings | None = None, log_level: str = "info", access_log: bool = False,
          forwarded_allow_ips: Sequence[str] = (), max_connections: int = MAX_CONNECTIONS,
          max_connections_per_address: int = MAX_CONNECTIONS_PER_ADDRESS) -> None:
    """Run the server until interrupted.

    ``database_url`` overrides ``GAMMON_DATABASE_URL`` (default: an SQLite file
    in the user's data directory; PostgreSQL with ``postgresql+psycopg://...``).
    ``forwarded_allow_ips`` lists the reverse proxies whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed (addresses or networks; none by default); with
    any, the per-address connection cap is left to the proxy.

    :raises GammonError: the database cannot be opened or the address cannot be listened on.
    """
    import uvicorn

    settings = settings or Settings.from_env(database_url=database_url)
    if database_url:
        settings = replace(settings, database_url=database_url)
    url = settings.resolved_database_url()
    check_database(url)  # before logging is set up: a failure is one line, not a migration log
    sock = bind(host, port)
    configure_logging(log_level, access_log)
    proxies = [p.strip() for p in forwarded_allow_ips if p.strip()]
    log.info("gammon server on http://%s:%d (database: %s)", host, port,
             make_url(url).render_as_string(hide_password=True))
    # Behind a proxy every connection comes from the proxy: the per-address connection cap would
    # count them all as one address, so it is left to the proxy (docs/deploy.md).
    config = uvicorn_config(create_app(settings), log_level=log_level, access_log=access_log,
                            forwarded_allow_ips=proxies, max_connections=max_connections,
                            max_connections_per_address=None if proxies else max_connections_per_address)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    if not server.started:
        raise GammonError("the server could not start (the log above says why)")


def uvicorn_config(app: FastAPI, *, log_level: str = "info", access_log: bool = False,
                   forwarded_allow_ips: Sequence[str] = (), max_connections: int = MAX_CONNECTIONS,
                   max_connections_per_address: int | None = MAX_CONNECTIONS_PER_ADDRESS,
                   **extra: Any) -> uvicorn.Config:
    """uvicorn's settings for a gammon server: the request-head limits, the connection caps, no banner,
    forwarded addresses believed only from ``forwarded_allow_ips``, logging left to
    :func:`gammon.web.logs.configure_logging` (the tests' threaded servers use it too)."""
    import uvicorn

    proxies = list(forwarded_allow_ips)
    return uvicorn.Config(
        app, log_config=None, log_level=log_level, access_log=access_log,
        http=limited_protocol(max_connections_per_address), ws=ws_protocol(), ws_max_size=WS_FRAME_LIMIT,
        proxy_headers=bool(proxies), forwarded_allow_ips=proxies or None,
        server_header=False, limit_concurrency=max_connections, timeout_keep_alive=KEEP_ALIVE,
        timeout_graceful_shutdown=5, **extra)


def check_database(url: str) -> None:
    """Open the database at ``url`` and bring its schema up to date, or say in one line why not.

    :raises GammonError: unreachable, refused, not a database, or in a folder that cannot be written.
    """
    from sqlalchemy.exc import SQLAlchemyError

    from gammon.store import open_store

    shown = make_url(url).render_as_string(hide_password=True)
    try:
        extra: dict[str, Any] = {"connect_args": {"connect_timeout": 10}} if url.startswith("postgres") else {}
        store = open_store(url, **extra)
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise GammonError(f"cannot open the database {shown}: {reason}") from None
    except OSError as exc:
        raise GammonError(f"cannot open the database {shown}: {exc.strerror or exc}") from None
    store.dispose()


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``, or a one-line reason why there cannot be one.

    :raises GammonError: the host does not resolve to a local address, or the port is taken or not ours.
    """
    where = f"{host}:{port}"
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as exc:
        raise GammonError(f"cannot listen on {where}: the host does not resolve ({exc.strerror})") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        raise GammonError(f"cannot listen on {where}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


#: The largest WebSocket message uvicorn assembles at all (bigger ones close the socket with 1009);
#: messages under it but over :data:`gammon.web.guards.MAX_MESSAGE_BYTES` get an error message.
WS_FRAME_LIMIT = 4 * MAX_MESSAGE_BYTES


def ws_protocol() -> str:
    """uvicorn's WebSocket implementation on the ``websockets`` package (the sans-I/O one when offered)."""
    from uvicorn.config import WS_PROTOCOLS

    return "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "websockets"


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m gammon.web``: the same server as ``gammon serve``, with plain argparse."""
    import sys

    parser = argparse.ArgumentParser(prog="python -m gammon.web", description="Run the gammon server.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--database-url", default=None,
                        help="sqlite:///path, a file path, or postgresql+psycopg://user@host/db")
    parser.add_argument("--public-url", default=None, help="the server's address as people reach it")
    parser.add_argument("--forwarded-allow-ips", default="",
                        help="comma-separated addresses of trusted reverse proxies (default: none)")
    parser.add_argument("--max-connections-per-address", type=int, default=MAX_CONNECTIONS_PER_ADDRESS)
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--access-log", action="store_true", help="log every request line")
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env(database_url=args.database_url, public_url=args.public_url)
        serve(args.host, args.port, settings=settings, log_level=args.log_level, access_log=args.access_log,
              forwarded_allow_ips=args.forwarded_allow_ips.split(","),
              max_connections_per_address=args.max_connections_per_address)
    except GammonError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


__all__ = ["app_from_env", "bind", "check_database", "create_app", "main", "serve"]
