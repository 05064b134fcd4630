"""Rate limits per client, per game, per socket and on creating games, kept by the ``limits`` library.

Each kind of limit is a list of rates in ``limits``' notation (``"30/second;600/minute"``),
counted with its sliding-window counter in this process's memory (several server
processes each count their own share).

* ``client``: every HTTP request and WebSocket connection from one address;
* ``create``: new games from one address (each may call on the computer);
* ``game``: requests that read or change one game (REST calls, ``act`` and
  ``state`` messages), counted per game and per token: each seat has its own
  count, and everyone without a token (spectators) shares one, so watchers
  cannot use up the players' share;
* ``socket``: messages on one WebSocket.

:class:`RateLimitMiddleware` answers HTTP requests over a limit with 429 and
``Retry-After``; the WebSocket route asks :meth:`RateLimiter.check` itself.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter

from gammon.web.guards import ASGIApp, Receive, Scope, Send, send_error

_GAME_PATH = re.compile(r"^/api/games/([^/]{1,64})(?:/|$)")


@dataclass(frozen=True, slots=True)
class RateLimits:
    """The rates of each kind (see the module's docstring); ``enabled`` False turns them all off."""

    client: str = "30/second;600/minute"
    create: str = "30/minute;300/hour"
    game: str = "20/second"
    socket: str = "20/second"
    enabled: bool = True


class RateLimiter:
    """Counts requests by kind and key; :meth:`check` says whether one more is allowed."""

    KINDS = ("client", "create", "game", "socket")

    def __init__(self, limits: RateLimits | None = None) -> None:
        self.limits = limits or RateLimits()
        self._limiter = SlidingWindowCounterRateLimiter(MemoryStorage())
        self._rates: dict[str, list[RateLimitItem]] = {
            kind: list(parse_many(getattr(self.limits, kind))) for kind in self.KINDS}

    def check(self, kind: str, key: str) -> float | None:
        """Count one request of ``kind`` from ``key``: None when it is allowed, else the seconds
        until it would be."""
        if not self.limits.enabled:
            return None
        for rate in self._rates[kind]:
            if not self._limiter.hit(rate, kind, key):
                stats = self._limiter.get_window_stats(rate, kind, key)
                return max(0.1, stats.reset_time - time.time())
        return None


def client_key(scope: Scope) -> str:
    """The address a request or socket comes from."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _token_key(scope: Scope) -> str:
    """A short, one-way name for the token a request carries (header or query), or ``anon``."""
    token = b""
    for key, value in scope.get("headers") or ():
        if key.lower() == b"authorization":
            token = bytes(value).partition(b" ")[2].strip()
    if not token:
        for part in (scope.get("query_string") or b"").split(b"&"):
            if part.startswith(b"token="):
                token = part[6:]
    return hashlib.blake2s(token, digest_size=6).hexdigest() if token else "anon"


def too_many(wait: float) -> str:
    return f"too many requests: try again in {max(1, round(wait))} s"


class RateLimitMiddleware:
    """429 for HTTP requests to ``/api/`` over the client's, the game's or the creation limit."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and path.startswith("/api/"):
            client = client_key(scope)
            checks = [("client", client)]
            if scope.get("method") == "POST" and path.rstrip("/") == "/api/games":
                checks.append(("create", client))
            m = _GAME_PATH.match(path)
            if m:
                checks.append(("game", f"{m.group(1)}:{_token_key(scope)}"))
            for kind, key in checks:
                wait = self.limiter.check(kind, key)
                if wait is not None:
                    await send_error(send, 429, "rate_limited", too_many(wait),
                                     [(b"retry-after", str(max(1, round(wait))).encode())])
                    return
        await self.app(scope, receive, send)


__all__ = ["RateLimitMiddleware", "RateLimiter", "RateLimits", "client_key", "too_many"]
