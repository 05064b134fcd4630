"""The session cookie and the cross-site request check (CSRF) that goes with it.

* The cookie :data:`COOKIE_NAME` holds the session id: ``HttpOnly`` (no script
  reads it), ``SameSite=Lax`` (not sent with cross-site POSTs from other
  sites' pages), ``Path=/``, ``Max-Age`` of the session's lifetime, and
  ``Secure`` when the server's public URL is ``https://``.
* :class:`OriginCheckMiddleware`: every state-changing request (any method but
  GET, HEAD and OPTIONS) that carries the session cookie must carry an
  ``Origin`` header naming the server itself, else it is refused with 403
  ``cross_origin`` before any route runs.  The server's origin is the
  ``--public-url``'s when one is configured, else the scheme and ``Host`` the
  request was made to (a page of another site cannot make a browser send
  another ``Host``).  Logging in and signing up are checked the same way when
  an ``Origin`` is sent at all, so another site cannot log a visitor into an
  account of its choosing (login CSRF).  Requests without the cookie, a guest's
  with a seat token, are not affected: those credentials never ride along by
  themselves.
"""

from __future__ import annotations

from http.cookies import SimpleCookie
from urllib.parse import urlsplit

from starlette.responses import Response

from gammon.web.guards import ASGIApp, Receive, Scope, Send, send_error

#: The name of the session cookie.
COOKIE_NAME = "gammon_session"

_SAFE_METHODS = frozenset(("GET", "HEAD", "OPTIONS"))
#: Paths that make a session: checked whenever an ``Origin`` is sent, cookie or not.
_LOGIN_PATHS = frozenset(("/api/session", "/api/accounts"))


def set_session_cookie(response: Response, session_id: str, max_age: int, secure: bool) -> None:
    response.set_cookie(COOKIE_NAME, session_id, max_age=max_age, path="/", httponly=True, samesite="lax",
                        secure=secure)


def clear_session_cookie(response: Response, secure: bool) -> None:
    response.delete_cookie(COOKIE_NAME, path="/", httponly=True, samesite="lax", secure=secure)


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url``, lower-cased, default ports left out."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    port = parts.port
    if port is None or (scheme, port) in (("http", 80), ("https", 443)):
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def _headers(scope: Scope, name: bytes) -> list[bytes]:
    return [bytes(v) for k, v in scope.get("headers") or () if k.lower() == name]


def session_cookie(scope: Scope) -> str | None:
    """The session id from the request's ``Cookie`` headers, or None."""
    for raw in _headers(scope, b"cookie"):
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(raw.decode("latin-1"))
        except Exception:  # a malformed Cookie header carries no session
            continue
        if COOKIE_NAME in jar:
            return jar[COOKIE_NAME].value
    return None


def own_origin(scope: Scope, public_url: str | None) -> str | None:
    """The origin requests to this server come from: the public URL's, else the request's own."""
    if public_url:
        return origin_of(public_url)
    hosts = _headers(scope, b"host")
    if len(hosts) != 1:
        return None
    scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
    try:
        return origin_of(f"{scheme}://{hosts[0].decode('latin-1')}")
    except ValueError:
        return None


class OriginCheckMiddleware:
    """Refuse state-changing requests with the session cookie from another origin (see the module)."""

    def __init__(self, app: ASGIApp, public_url: str | None = None) -> None:
        self.app = app
        self.public_url = public_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method", "GET") in _SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        origins = _headers(scope, b"origin")
        login = scope.get("path", "").rstrip("/") in _LOGIN_PATHS
        if session_cookie(scope) is not None or (login and origins):
            expected = own_origin(scope, self.public_url)
            given = origins[0].decode("latin-1").strip().lower() if len(origins) == 1 else None
            try:
                ok = given is not None and expected is not None and origin_of(given) == expected
            except ValueError:
                ok = False
            if not ok:
                await send_error(send, 403, "cross_origin",
                                 "a request with the session cookie must come from this server's own pages "
                                 "(its Origin header must name this server)")
                return
        await self.app(scope, receive, send)


__all__ = ["COOKIE_NAME", "OriginCheckMiddleware", "clear_session_cookie", "origin_of", "own_origin",
           "session_cookie", "set_session_cookie"]
