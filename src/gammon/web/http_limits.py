"""Limits on a connection's request head, enforced before the HTTP parser builds anything.

uvicorn's httptools protocol bounds nothing before a request reaches the
application: a 64 MiB header is assembled by repeated appends inside the parser
(quadratic in its length) and held in memory, and a header trickled one byte a
second keeps its connection forever.  :class:`LimitedHttpToolsProtocol` is that
protocol with four bounds added at the socket, before any byte is parsed:

* the request head (request line and every header) may hold at most
  :data:`MAX_HEAD_BYTES`; the bytes past it are never given to the parser, and
  the client gets ``431 Request Header Fields Too Large`` and a closed connection;
* at most :data:`MAX_HEADER_COUNT` header lines (431 too);
* the whole head must arrive within :data:`HEAD_TIMEOUT` seconds of its first
  byte (``408 Request Timeout`` otherwise: no slow-loris connections);
* each address holds at most ``max_connections_per_address`` connections at once
  (further ones are closed at once, before they cost anything); off when a
  trusted proxy is configured, since every connection then comes from it.

WebSocket handshakes pass through the same protocol, so the limits hold for
sockets too.  The total number of connections is bounded by uvicorn's own
``limit_concurrency`` (``503`` beyond it); see :func:`gammon.web.server.serve`.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: The largest request head accepted: request line plus all headers (a browser's is under 2 KiB).
MAX_HEAD_BYTES = 16 * 1024
#: The most header lines one request may carry.
MAX_HEADER_COUNT = 64
#: Seconds within which a request head must be complete once its first byte has arrived.
HEAD_TIMEOUT = 10.0
#: Connections one address may hold open at once (HTTP keep-alive and WebSockets together).  Players
#: behind one NAT share it, so it sits above what one address can keep open within its request
#: budget (600 a minute: about 50 keep-alive connections, since idle ones close after 5 s and an
#: answer over the budget closes its connection) plus its 16 spectator sockets.
MAX_CONNECTIONS_PER_ADDRESS = 128


def _refusal(status: int, reason: str, message: str) -> bytes:
    body = json.dumps({"error": {"code": reason, "message": message}}).encode()
    phrase = {408: b"Request Timeout", 431: b"Request Header Fields Too Large"}[status]
    return (b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
            b"connection: close\r\n\r\n" % (status, phrase, len(body))) + body


HEAD_TOO_LARGE = _refusal(431, "headers_too_large",
                          f"the request head is larger than {MAX_HEAD_BYTES // 1024} KiB "
                          f"or has more than {MAX_HEADER_COUNT} headers")
HEAD_TOO_SLOW = _refusal(408, "request_timeout", f"the request head took longer than {HEAD_TIMEOUT:g} s")


class LimitedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, refusing oversized, over-long and slow request heads unparsed."""

    #: Open connections per address, for one server (see :func:`limited_protocol`; one event loop, so
    #: no lock is needed).
    open_per_address: ClassVar[Counter[str]] = Counter()
    max_connections_per_address: ClassVar[int | None] = MAX_CONNECTIONS_PER_ADDRESS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_bytes = 0
        self._header_count = 0
        self._in_head = True  # between requests the next bytes start a head
        self._head_timer: asyncio.TimerHandle | None = None
        self._counted: str | None = None
        self._refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        limit = self.max_connections_per_address
        if limit is not None and self.client is not None:
            address = self.client[0]
            if self.open_per_address[address] >= limit:
                transport.close()  # refused before a byte is read: costs the others nothing
                return
            self.open_per_address[address] += 1
            self._counted = address

    def connection_lost(self, exc: Exception | None) -> None:
        self._uncount()
        self._stop_head_timer()
        super().connection_lost(exc)

    def _uncount(self) -> None:
        if self._counted is not None:
            self._release(self._counted)
            self._counted = None

    def _release(self, address: str) -> None:
        """One connection from ``address`` has closed."""
        counts = self.open_per_address
        counts[address] -= 1
        if counts[address] <= 0:
            del counts[address]

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        if not self._in_head or self.parser is None:
            super().data_received(data)
            return
        if self._head_timer is None and data:
            self._head_timer = self.loop.call_later(HEAD_TIMEOUT, self._refuse, HEAD_TOO_SLOW)
        room = MAX_HEAD_BYTES - self._head_bytes
        if len(data) <= room:
            self._head_bytes += len(data)
            super().data_received(data)
        else:
            # Give the parser only what fits: if the head ends in it, the rest is body (or the next
            # request) and goes on as usual; if not, the head is too large and is refused unparsed.
            self._head_bytes = MAX_HEAD_BYTES
            super().data_received(data[:room])
            if self._in_head:
                self._refuse(HEAD_TOO_LARGE)
            elif not self._refused and self.parser is not None and self.transport.get_protocol() is self:
                self.data_received(data[room:])

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        if self._header_count <= MAX_HEADER_COUNT:
            super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._stop_head_timer()
        if self._header_count > MAX_HEADER_COUNT:
            self._refuse(HEAD_TOO_LARGE)  # the request never reaches the application
            return
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if self._refused:
            return
        super().on_message_complete()
        self._in_head, self._head_bytes, self._header_count = True, 0, 0

    def handle_websocket_upgrade(self) -> None:
        """Hand the connection to the WebSocket protocol, which releases the address's count when it closes."""
        address, self._counted = self._counted, None
        super().handle_websocket_upgrade()
        if address is None:
            return
        protocol = self.transport.get_protocol()
        closed = protocol.connection_lost

        def connection_lost(exc: Exception | None) -> None:
            self._release(address)
            closed(exc)

        protocol.connection_lost = connection_lost  # type: ignore[method-assign]

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _refuse(self, answer: bytes) -> None:
        """Answer ``answer`` and close, reading nothing more from this connection."""
        self._refused = True
        self._stop_head_timer()
        if self.transport.is_closing():
            return
        self.transport.write(answer)
        self.transport.close()


def limited_protocol(max_connections_per_address: int | None) -> type[LimitedHttpToolsProtocol]:
    """The protocol class for one server: its own count of connections per address, capped at
    ``max_connections_per_address`` (None: no cap, as behind a trusted proxy)."""
    return type("ServerHttpProtocol", (LimitedHttpToolsProtocol,), {
        "open_per_address": Counter(), "max_connections_per_address": max_connections_per_address})


__all__ = ["HEAD_TIMEOUT", "MAX_CONNECTIONS_PER_ADDRESS", "MAX_HEADER_COUNT", "MAX_HEAD_BYTES",
           "LimitedHttpToolsProtocol", "limited_protocol"]
