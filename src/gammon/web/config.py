"""Server settings: a frozen dataclass, filled from the environment by :meth:`Settings.from_env`.

=============================  ==========================================================
``GAMMON_DATABASE_URL``        the database (default: an SQLite file, see gammon.store.db)
``GAMMON_COMPUTER_DELAY``      seconds the computer waits before each of its actions (0)
``GAMMON_ALLOW_TEST_SEEDS``    ``1`` lets a request fix the dice seed (tests only)
``GAMMON_CACHE_SIZE``          games kept replayed in memory per process (1000)
``GAMMON_PUBLIC_URL``          the server's address as people reach it, the base of every link
                               handed out (default: links relative to the server; never built
                               from the request's Host header)
``GAMMON_EXPIRE_UNJOINED``     seconds after which a game nobody joined expires (7200; 0: never)
``GAMMON_COMPUTER_WORKERS``    threads that think for the computer, all games taking turns (2)
``GAMMON_ANALYSIS_PLIES``      depth of the after-game analysis (``gammon analyse``'s default)
``GAMMON_HINT_LEVEL``          level of the hints between people (``strongest``: 2-ply; see below)
``GAMMON_RATE_LIMITS``         ``0`` turns the rate limits off (on by default)
``GAMMON_RATE_LIMIT_CLIENT``   requests and sockets per address (``30/second;600/minute``)
``GAMMON_RATE_LIMIT_CREATE``   new games per address (``30/minute;300/hour``)
``GAMMON_RATE_LIMIT_GAME``     requests per seat; without a seat, per address and game (``20/second``)
``GAMMON_RATE_LIMIT_SOCKET``   messages per WebSocket (``20/second``)
=============================  ==========================================================

The rates are written as the ``limits`` library reads them; see :mod:`gammon.web.ratelimit`.
Against the computer a hint is given at the computer's level; ``GAMMON_HINT_LEVEL``
is any level of :mod:`gammon.play.levels` and hints noiselessly, as
:func:`gammon.web.hints.hint_level` says (world-class and strongest 2-ply, world-class over
fewer plays; the others expert's 0-ply).  An unknown level stops the server with a message
listing the known ones.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from gammon.store.db import default_database_url, normalize_url
from gammon.web.hints import DEFAULT_HINT_LEVEL, check_hint_level
from gammon.web.ratelimit import RateLimits

_DEFAULT_LIMITS = RateLimits()


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes", "on")


def check_public_url(url: str) -> str:
    """``url`` as the base of links (``https://host[:port][/path]``, no trailing slash).

    :raises GammonError: not an http(s) URL with a host, or one with a query, fragment or credentials.
    """
    from urllib.parse import urlsplit

    from gammon.core.errors import GammonError

    text = url.strip()
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        raise GammonError(f"the public URL {url!r} is not a URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise GammonError(f"the public URL {url!r} must start with https:// or http:// and name a host")
    if parts.query or parts.fragment or parts.username or parts.password or len(text) > 500 \
            or any(c.isspace() or ord(c) < 32 for c in text):
        raise GammonError(f"the public URL {url!r} may hold only a scheme, a host, a port and a path")
    return text.rstrip("/")


@dataclass(frozen=True, slots=True)
class Settings:
    """What a server needs to know; ``database_url`` None means :func:`default_database_url`."""

    database_url: str | None = None
    computer_delay: float = 0.0
    allow_test_seeds: bool = False
    cache_size: int = 1000
    public_url: str | None = None
    #: Resume the computer's turns of unfinished games when the server starts.
    resume_computer_games: bool = True
    #: Threads that think for the computer (games take turns for them).
    computer_workers: int = 2
    #: Seconds after which a game that nobody joined expires (None: never).
    expire_unjoined: float | None = 7200.0
    rate_limits: RateLimits = RateLimits()
    #: Depth of the after-game analysis (None: ``gammon analyse``'s default).
    analysis_plies: int | None = None
    #: Level of the hints between people (canonical after checking: expert, world-class or strongest).
    hint_level: str = DEFAULT_HINT_LEVEL

    def __post_init__(self) -> None:
        if self.public_url is not None:
            object.__setattr__(self, "public_url", check_public_url(self.public_url))
        # An unknown level is refused here, when the server starts, not at the first hint.
        object.__setattr__(self, "hint_level", check_hint_level(self.hint_level, "the hint level "
                                                                                 "(GAMMON_HINT_LEVEL)"))

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        env = os.environ
        s = cls(
            database_url=env.get("GAMMON_DATABASE_URL") or None,
            computer_delay=float(env.get("GAMMON_COMPUTER_DELAY", "0") or 0),
            allow_test_seeds=_flag(env.get("GAMMON_ALLOW_TEST_SEEDS")),
            cache_size=int(env.get("GAMMON_CACHE_SIZE", "1000") or 1000),
            public_url=env.get("GAMMON_PUBLIC_URL") or None,
            computer_workers=int(env.get("GAMMON_COMPUTER_WORKERS", "2") or 2),
            expire_unjoined=float(env.get("GAMMON_EXPIRE_UNJOINED", "7200") or 0) or None,
            analysis_plies=int(env["GAMMON_ANALYSIS_PLIES"]) if env.get("GAMMON_ANALYSIS_PLIES") else None,
            hint_level=env.get("GAMMON_HINT_LEVEL") or DEFAULT_HINT_LEVEL,
            rate_limits=RateLimits(
                client=env.get("GAMMON_RATE_LIMIT_CLIENT") or _DEFAULT_LIMITS.client,
                create=env.get("GAMMON_RATE_LIMIT_CREATE") or _DEFAULT_LIMITS.create,
                game=env.get("GAMMON_RATE_LIMIT_GAME") or _DEFAULT_LIMITS.game,
                socket=env.get("GAMMON_RATE_LIMIT_SOCKET") or _DEFAULT_LIMITS.socket,
                enabled=(env.get("GAMMON_RATE_LIMITS") or "1").strip().lower() not in ("0", "false", "off"),
            ),
        )
        given = {k: v for k, v in overrides.items() if v is not None}
        return replace(s, **given)  # type: ignore[arg-type]

    def resolved_database_url(self) -> str:
        return normalize_url(self.database_url) if self.database_url else default_database_url()


__all__ = ["Settings", "check_public_url"]
