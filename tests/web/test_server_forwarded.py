"""Whose address counts: the connecting one, unless a reverse proxy is configured as trusted.

Before, uvicorn believed ``X-Forwarded-For`` from loopback by default, so anything that
reached the server through a local proxy passing the header on chose its own address for
every limit.  Now ``gammon serve`` believes it only from ``--forwarded-allow-ips``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from gammon.web.testing import ServerProcess

#: Five requests a minute per address: the sixth from one address is refused.
LIMITED = {"GAMMON_RATE_LIMITS": "1", "GAMMON_RATE_LIMIT_CLIENT": "5/minute"}


@pytest.fixture()
def servers(tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    plain = ServerProcess(str(tmp_path / "a.db"), env=LIMITED)
    proxied = ServerProcess(str(tmp_path / "b.db"), env=LIMITED, args=["--forwarded-allow-ips", "127.0.0.1"])
    with plain, proxied:
        yield plain, proxied


def statuses(server: ServerProcess, forwarded_for: list[str]) -> list[int]:
    with httpx.Client(base_url=server.url, timeout=10) as client:
        return [client.get("/api/info", headers={"X-Forwarded-For": f}).status_code for f in forwarded_for]


def test_forwarded_addresses_count_only_from_a_trusted_proxy(
        servers: tuple[ServerProcess, ServerProcess]) -> None:
    plain, proxied = servers
    spoofed = [f"203.0.113.{i}" for i in range(12)]
    # Untrusted: a new made-up address on every request changes nothing; the connection's address
    # (127.0.0.1, which the start-up health checks also used) runs out of its five.
    assert statuses(plain, spoofed).count(429) >= 7
    # Trusted: each forwarded address has its own budget, and one address still runs out of its own.
    assert statuses(proxied, spoofed) == [200] * 12
    assert statuses(proxied, ["198.51.100.7"] * 7) == [200] * 5 + [429] * 2
