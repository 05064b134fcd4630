"""The web tests' client helpers, written once: a seat token's header, an app under test, a client.

The server tests talk to the app in three ways: FastAPI's ``TestClient`` (no socket),
:class:`gammon.web.testing.ThreadedServer` (a real socket in this process) and
:class:`gammon.web.testing.ServerProcess` (a real ``python -m gammon.web`` process).  What
they share is here, so that every test file asks for the same thing the same way.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import Any, Protocol

import httpx
import pytest

from gammon.web import Settings, create_app
from gammon.web.ratelimit import RateLimits

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

#: Rate limits off: a test that is not about the limits plays as fast as it likes.
NO_LIMITS = RateLimits(enabled=False)
#: A test server: fixed dice on request (``test_seed``) and no rate limits.
TEST_SERVER: dict[str, Any] = {"allow_test_seeds": True, "rate_limits": NO_LIMITS}


def bearer(token: str) -> dict[str, str]:
    """The HTTP headers that present ``token`` (a seat's or an invitation's)."""
    return {"Authorization": f"Bearer {token}"}


def client_fixture(folder: str, **settings: Any) -> Callable[..., Iterator[TestClient]]:
    """A module-scoped ``client`` fixture: a ``TestClient`` on a fresh SQLite database.

    ``folder`` names the temporary folder of the database (to tell the modules' apart);
    ``settings`` are the app's :class:`~gammon.web.Settings` besides the database URL.
    Use it as ``client = client_fixture("hints", **TEST_SERVER)`` at a module's top level.
    """

    @pytest.fixture(scope="module")
    def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
        url = str(tmp_path_factory.mktemp(folder) / "gammon.db")
        with TestClient(create_app(Settings(database_url=url, **settings))) as c:
            yield c

    return client


class Served(Protocol):
    """A running server (:class:`~gammon.web.testing.ThreadedServer` or ``ServerProcess``)."""

    @property
    def url(self) -> str: ...


def client_at(server: Served, address: str) -> httpx.Client:
    """An HTTP client of ``server`` whose requests come from the loopback ``address``.

    Each loopback address (127.0.0.2, 127.0.0.3, ...) is another client to the rate limits.
    """
    return httpx.Client(base_url=server.url, timeout=20, transport=httpx.HTTPTransport(local_address=address))
