"""Limits on what a client may send, checked before anything is parsed.

* :class:`BodyLimitMiddleware`: a request body larger than :data:`MAX_BODY_BYTES`
  is refused with 413 before the application sees it: at once when the
  ``Content-Length`` says so, otherwise (chunked bodies) as soon as the bytes
  read pass the limit.  Nothing larger is ever held in memory.  A JSON body
  nested deeper than :data:`MAX_JSON_DEPTH` is refused with 422 before it is
  decoded (Python's decoder recurses, and a deep enough body would raise
  ``RecursionError`` inside the framework).
* :func:`parse_message`: the same limits for a WebSocket message, which gets
  a :class:`MessageRefused` with a message for the client, never a traceback.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The largest request body accepted (the biggest real request, an action, is well under 1 KiB).
MAX_BODY_BYTES = 64 * 1024
#: The largest WebSocket message accepted from a client.
MAX_MESSAGE_BYTES = 16 * 1024
#: The deepest nesting of JSON arrays and objects accepted (an action needs 4).
MAX_JSON_DEPTH = 10

_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def json_too_deep(data: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the JSON text ``data`` nests arrays and objects deeper than ``limit``.

    Brackets inside strings do not count.  Linear in the size of ``data``; a
    text with at most ``limit`` opening brackets is let through at once.
    """
    if data.count(b"[") + data.count(b"{") <= limit:
        return False
    brackets = _STRINGS.sub(b"", data).translate(None, _NOT_BRACKETS)
    depth = 0
    for b in brackets:
        if b in b"[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


class MessageRefused(ValueError):
    """A WebSocket message that breaks a limit or is not JSON: ``code`` and a message for the client."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def parse_message(raw: str | bytes | None) -> Any:
    """The JSON value of a client's WebSocket message.

    :raises MessageRefused: a binary or oversized message, JSON nested too
        deeply, or text that is not JSON.
    """
    if not isinstance(raw, str):
        raise MessageRefused("invalid_json", "send text messages holding one JSON object")
    data = raw.encode("utf-8", "surrogatepass")
    if len(data) > MAX_MESSAGE_BYTES:
        raise MessageRefused("too_large", f"a message may hold at most {MAX_MESSAGE_BYTES} bytes")
    if json_too_deep(data):
        raise MessageRefused("invalid_json", f"JSON nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise MessageRefused("invalid_json", "a message must be a JSON object") from None


async def send_error(send: Send, status: int, code: str, message: str,
                     headers: list[tuple[bytes, bytes]] | None = None) -> None:
    """Answer with the API's error shape, and close the connection (the rest of the body is unread)."""
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return bytes(value)
    return None


class BodyLimitMiddleware:
    """Refuse request bodies over ``max_bytes`` (413) and JSON nested too deeply (422), unparsed."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES, max_depth: int = MAX_JSON_DEPTH) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.max_depth = max_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = f"the request body is larger than {self.max_bytes // 1024} KiB"
        length = _header(scope, b"content-length")
        if length is not None:
            if not length.strip().isdigit():
                await send_error(send, 400, "bad_request", "the Content-Length header is not a number")
                return
            if int(length) > self.max_bytes:
                await send_error(send, 413, "too_large", too_large)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await send_error(send, 413, "too_large", too_large)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        kind = (_header(scope, b"content-type") or b"").lower()
        if body and b"json" in kind and json_too_deep(body, self.max_depth):
            await send_error(send, 422, "invalid_json", f"JSON nested deeper than {self.max_depth} levels")
            return
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: wait for the disconnect as usual

        await self.app(scope, replay, send)


__all__ = [
    "MAX_BODY_BYTES", "MAX_JSON_DEPTH", "MAX_MESSAGE_BYTES", "BodyLimitMiddleware", "MessageRefused",
    "json_too_deep", "parse_message", "send_error",
]
