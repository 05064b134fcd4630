"""The network server: FastAPI over the game service, WebSockets, fair dice, SQLite or PostgreSQL.

* :mod:`gammon.web.service`: the transport-free service, one job per module (create, join, act, views);
* :mod:`gammon.web.schemas`: the API's pydantic shapes;
* :mod:`gammon.web.routes`: one router per resource, :mod:`gammon.web.deps` their dependencies;
* :mod:`gammon.web.hub`, :mod:`gammon.web.tasks`: pushing changes, the computer, LISTEN/NOTIFY;
* :mod:`gammon.web.server`: :func:`serve` and :func:`create_app`.
"""

from __future__ import annotations

from gammon.web.config import Settings

__all__ = ["Settings", "create_app", "serve"]


def __getattr__(name: str) -> object:
    # FastAPI and uvicorn are imported only when the server is wanted.
    if name in ("create_app", "serve"):
        from gammon.web import server

        return getattr(server, name)
    raise AttributeError(name)
