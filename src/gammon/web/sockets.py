"""WebSocket admission and message budgets: how many sockets one address, game or seat holds open,
and what each message a socket sends costs (issue 33, item 4).

* **Open sockets.** A seat holds at most ``sockets_per_seat`` sockets (tabs, reconnections), and
  its sockets do not count against any address or game: a neighbour behind the same address
  cannot keep a player's socket out.  Spectators' (token-less) sockets are capped per address
  (``sockets_per_address``) and per game (``sockets_per_game``).  A socket over a cap gets an
  ``error`` (``too_many_sockets``) and is closed with 4429.
* **Messages.** Every message spends the socket's own rate (``socket``) and the budget a REST
  request of the same client would spend (:func:`gammon.web.ratelimit.budget`: the seat's, or
  the address's and the address's on the game); opening a socket spends one too.  Over a budget,
  the route sends one ``rate_limited`` error and leaves the socket unread until the budget
  allows: a flood waits in the flooder's own buffers and costs the server nothing more.
* **Pings** are answered at most once per ``ping_interval`` seconds per socket; the others
  are dropped without an answer (a pong costs a send on the one event loop).

All of it lives in one process's memory and is used from the event loop only (no locks);
``RateLimits(enabled=False)`` turns it all off.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from gammon.web.ratelimit import RateLimiter, budget, seat_key, too_many


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a socket may not open: the ``error`` code and message to send before closing with 4429."""

    code: str
    message: str


#: The numbers of the sockets' tickets, one each.
_SERIALS = itertools.count(1)


@dataclass(eq=False, slots=True)
class Ticket:
    """One admitted socket: what it counts against, and its own message and ping accounting."""

    gate: SocketGate
    address: str
    game_id: str
    seat: int | None
    last_pong: float = field(default=-1e9)
    #: A number no other socket of this process has had: its own rate's key.  (``id()`` is reused
    #: once a closed socket's ticket is freed, and the new socket then inherited its spent rate.)
    serial: int = field(default_factory=lambda: next(_SERIALS))
    #: The socket was told it is over a rate, and has sent nothing allowed since (told once, not each time).
    told: bool = False
    closed: bool = False

    @property
    def key(self) -> str:
        return f"{self.serial:x}"

    def charge(self) -> float | None:
        """Count one message: None when the socket may go on, else the seconds to leave it unread."""
        limiter = self.gate.limiter
        return limiter.check_all([("socket", self.key), *budget(self.address, self.game_id, self.seat)])

    def ping_due(self) -> bool:
        """Whether a ping is answered now (at most once per ``ping_interval``); counts the answer."""
        if not self.gate.limiter.limits.enabled:
            return True
        now = time.monotonic()
        if now - self.last_pong < self.gate.limiter.limits.ping_interval:
            return False
        self.last_pong = now
        return True

    def close(self) -> None:
        """Give the socket's places back (idempotent)."""
        if not self.closed:
            self.closed = True
            self.gate._release(self)


class SocketGate:
    """Counts the open sockets by address, game and seat, and admits new ones within the caps."""

    def __init__(self, limiter: RateLimiter) -> None:
        self.limiter = limiter
        self.by_address: Counter[str] = Counter()
        self.by_game: Counter[str] = Counter()
        self.by_seat: Counter[str] = Counter()

    def admit(self, address: str, game_id: str, seat: int | None) -> Ticket | Refusal:
        """A :class:`Ticket` for a new socket from ``address`` on ``game_id`` (as ``seat``, None for a
        spectator), or why it may not open.  Opening spends one message of the socket's budget."""
        ticket = Ticket(self, address, game_id, seat)
        limits = self.limiter.limits
        if not limits.enabled:
            self._hold(ticket)
            return ticket
        wait = self.limiter.check_all(budget(address, game_id, seat))
        if wait is not None:
            return Refusal("rate_limited", too_many(wait))
        if seat is not None:
            if self.by_seat[seat_key(game_id, seat)] >= limits.sockets_per_seat:
                return Refusal("too_many_sockets", f"this seat has {limits.sockets_per_seat} sockets open "
                                                   "already: close one (another tab?)")
        elif self.by_address[address] >= limits.sockets_per_address:
            return Refusal("too_many_sockets", f"{limits.sockets_per_address} sockets are open from your "
                                               "address already: close one")
        elif self.by_game[game_id] >= limits.sockets_per_game:
            return Refusal("too_many_sockets", "this game has as many spectators as it can take: try later")
        self._hold(ticket)
        return ticket

    def _hold(self, ticket: Ticket) -> None:
        if ticket.seat is not None:
            self.by_seat[seat_key(ticket.game_id, ticket.seat)] += 1
        else:
            self.by_address[ticket.address] += 1
            self.by_game[ticket.game_id] += 1

    def _release(self, ticket: Ticket) -> None:
        if ticket.seat is not None:
            _down(self.by_seat, seat_key(ticket.game_id, ticket.seat))
        else:
            _down(self.by_address, ticket.address)
            _down(self.by_game, ticket.game_id)

    def open_sockets(self) -> int:
        return sum(self.by_seat.values()) + sum(self.by_address.values())


def _down(counter: Counter[str], key: str) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]  # the counters hold only what is open


def gate_of(state: Any) -> SocketGate:
    """The app's :class:`SocketGate` (``app.state.socket_gate``), made on first use around the app's
    rate limiter (``app.state.limiter``)."""
    gate: SocketGate | None = getattr(state, "socket_gate", None)
    if gate is None:
        gate = state.socket_gate = SocketGate(state.limiter)
    return gate


__all__ = ["Refusal", "SocketGate", "Ticket", "gate_of"]
