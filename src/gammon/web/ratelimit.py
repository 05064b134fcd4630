"""Rate limits per seat, per address, per game and on creating games, kept by the ``limits`` library.

Each kind of limit is a list of rates in ``limits``' notation (``"30/second;600/minute"``),
counted with its sliding-window counter in this process's memory (several server
processes each count their own share).

Whose budget a request spends (issue 33: nobody can spend a player's budget for them):

* a request that carries a valid **seat token** of the game it names spends that seat's
  budget only (``game`` rate, key ``<game>:seat<n>``), never its address's: two players
  behind one address (home, office, carrier NAT) cannot lock each other out, and a seat's
  actions are refused only when that seat itself sends too many;
* every other request (no token, an invitation, a token that holds no seat) spends its
  **address**'s budget (``client``) and, on a game's path, the budget of that address on
  that game (``game`` rate, key ``<game>:<address>``), so one address cannot use up the
  spectators' or the lobby joiners' share of a game;
* creating a game, and asking for a rematch (which creates one), also spends the address's
  ``create`` budget, and so does signing up (``POST /api/accounts``);
* ``socket``: messages on one WebSocket, on top of the seat's or the address's budget
  (:mod:`gammon.web.sockets`);
* ``chat``: chat messages, per seat (key ``<game>:seat<n>``) or, for a spectator, per address
  (:mod:`gammon.web.service.chat`), on top of the socket's budgets.

A token is recognised from the game in the service's memory; a token it cannot recognise
there is looked up in the store at most ``AUTH_LOOKUPS`` times a second per address (so
made-up tokens cannot buy database work or a budget of their own), and is otherwise judged
as an anonymous request.

:class:`RateLimitMiddleware` answers HTTP requests over a limit with 429 and
``Retry-After``; the WebSocket route asks :mod:`gammon.web.sockets`.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter
from starlette.concurrency import run_in_threadpool

from gammon.web.guards import ASGIApp, Receive, Scope, Send, send_error

_GAME_PATH = re.compile(r"^/api/games/([^/]{1,64})(/[a-z.-]+)?/?$")

#: Store look-ups of tokens the service's memory does not recognise, per address.
AUTH_LOOKUPS = "10/second;200/minute"


@dataclass(frozen=True, slots=True)
class RateLimits:
    """The rates of each kind (see the module's docstring); ``enabled`` False turns them all off,
    the WebSocket caps of :mod:`gammon.web.sockets` included."""

    client: str = "30/second;600/minute"
    create: str = "30/minute;300/hour"
    game: str = "20/second"
    socket: str = "20/second"
    chat: str = "5/10second;60/hour"
    enabled: bool = True
    #: Spectators' (token-less) sockets open at once from one address.
    sockets_per_address: int = 16
    #: Spectators' sockets open at once on one game, from all addresses.
    sockets_per_game: int = 200
    #: Sockets open at once for one seat (tabs, reconnections): seats do not count against the two above.
    sockets_per_seat: int = 4
    #: A socket's pings are answered at most once in this many seconds; the others are dropped.
    ping_interval: float = 1.0


class RateLimiter:
    """Counts requests by kind and key; :meth:`check` says whether one more is allowed."""

    KINDS = ("client", "create", "game", "socket", "chat", "auth")

    def __init__(self, limits: RateLimits | None = None) -> None:
        self.limits = limits or RateLimits()
        self._limiter = SlidingWindowCounterRateLimiter(MemoryStorage())
        rates = {kind: getattr(self.limits, kind) for kind in self.KINDS if kind != "auth"}
        self._rates: dict[str, list[RateLimitItem]] = {
            kind: list(parse_many(text)) for kind, text in {**rates, "auth": AUTH_LOOKUPS}.items()}

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

    def check_all(self, checks: list[tuple[str, str]]) -> float | None:
        """:meth:`check` each ``(kind, key)`` in turn, stopping at the first one over its limit."""
        for kind, key in checks:
            wait = self.check(kind, key)
            if wait is not None:
                return wait
        return None


def client_key(scope: Scope) -> str:
    """The address a request or socket comes from (as the server, and any proxy it trusts, say)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def seat_key(game_id: str, seat: int) -> str:
    """The ``game`` budget of a seat (HTTP requests and socket messages share it)."""
    return f"{game_id}:seat{seat}"


def budget(address: str, game_id: str | None, seat: int | None) -> list[tuple[str, str]]:
    """The ``(kind, key)`` budgets one request or socket message spends: the seat's alone when it
    has one, else the address's (and the address's on the game)."""
    if seat is not None and game_id is not None:
        return [("game", seat_key(game_id, seat))]
    checks = [("client", address)]
    if game_id is not None:
        checks.append(("game", f"{game_id}:{address}"))
    return checks


def request_token(scope: Scope) -> str | None:
    """The token a request carries (``Authorization: Bearer`` first, else the ``token`` query
    parameter), as the routes read it; None without one."""
    for key, value in scope.get("headers") or ():
        if key.lower() == b"authorization":
            scheme, _, token = bytes(value).partition(b" ")
            if scheme.lower() == b"bearer" and token.strip():
                return token.strip().decode("latin-1")
    for part in (scope.get("query_string") or b"").split(b"&"):
        if part.startswith(b"token=") and len(part) > 6:
            from urllib.parse import unquote

            return unquote(part[6:].decode("latin-1"))
    return None


def too_many(wait: float) -> str:
    return f"too many requests: try again in {max(1, round(wait))} s"


def retry_after(wait: float) -> str:
    """The ``Retry-After`` value for ``wait`` seconds (whole seconds, at least one)."""
    return str(max(1, round(wait + 0.49)))


async def find_seat(service: Any, limiter: RateLimiter, address: str, game_id: str, token: str) -> int | None:
    """The seat ``token`` holds in ``game_id``, or None (no seat, or not found out within the limits).

    The game in the service's memory answers at once; otherwise the store is asked (in a
    worker thread) within the address's ``auth`` budget.
    """
    known, seat = service.known_seat(game_id, token)
    if known and seat is not None:
        return int(seat)
    if limiter.check("auth", address) is not None:
        return None
    try:
        found = await run_in_threadpool(service.seat_for, game_id, token)
    except Exception:  # no such game, no seat, a store that cannot answer: judged as anonymous
        return None
    return int(found) if found is not None else None


class RateLimitMiddleware:
    """429 for HTTP requests to ``/api/`` over the budget they spend (see the module's docstring)."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and path.startswith("/api/") and self.limiter.limits.enabled:
            wait = await self._spend(scope, path)
            if wait is not None:
                await send_error(send, 429, "rate_limited", too_many(wait),
                                 [(b"retry-after", retry_after(wait).encode())])
                return
        await self.app(scope, receive, send)

    async def _spend(self, scope: Scope, path: str) -> float | None:
        address = client_key(scope)
        post = scope.get("method") == "POST"
        m = _GAME_PATH.match(path)
        game_id = m.group(1) if m else None
        seat = None
        token = request_token(scope) if game_id else None
        service = getattr(getattr(scope.get("app"), "state", None), "service", None)
        if game_id and token and service is not None:
            seat = await find_seat(service, self.limiter, address, game_id, token)
        checks = budget(address, game_id, seat)
        creates = post and (path.rstrip("/") in ("/api/games", "/api/accounts")  # sign-ups count as creations
                            or (m is not None and m.group(2) == "/rematch"))
        if creates:
            checks.append(("create", address))
        return self.limiter.check_all(checks)


__all__ = ["AUTH_LOOKUPS", "RateLimitMiddleware", "RateLimiter", "RateLimits", "budget", "client_key",
           "find_seat", "request_token", "retry_after", "seat_key", "too_many"]
