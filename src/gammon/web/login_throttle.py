"""Throttling password guesses: per account and per address, with growing delays.

Every failed check of a password (a wrong password, or a name nobody has)
counts against two keys: the account name tried (its folded key, so "ann"
and "ANN" are one account) and the address it came from.  When a key has
:attr:`LoginLimits.per_account` (resp. ``per_address``) failures within
:attr:`LoginLimits.window` seconds, it is blocked: further attempts are refused
(429 with ``Retry-After``) *before* any password is checked.  Each block lasts
twice as long as the one before (``base_delay``, 2x, 4x, ... up to
``max_delay``); a key's strikes are forgotten after ``forget_after`` quiet
seconds, and an account's at a successful login.

So the 11th wrong password for one account within a minute is refused, and
so is the spraying of a few guesses at each of many names from one address
(credential stuffing): those failures all count against the address.  The
counts live in this process's memory, like the rate limits.

A known trade-off: anybody may block an account's logins for a while by
failing on purpose (lockout as denial of service).  The block is short at
first and the correct password is never revealed by it; the issue asks for
per-account throttling, and Lichess and most sites accept the same trade.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, field

from gammon.web.service.errors import BusyError


@dataclass(frozen=True, slots=True)
class LoginLimits:
    """The numbers of :class:`LoginThrottle` (see the module's docstring)."""

    per_account: int = 10
    per_address: int = 30
    window: float = 60.0
    base_delay: float = 60.0
    max_delay: float = 3600.0
    forget_after: float = 3600.0
    enabled: bool = True


@dataclass
class _Key:
    failures: deque[float] = field(default_factory=deque)
    blocked_until: float = 0.0
    strikes: int = 0
    last: float = 0.0


class LoginThrottle:
    """Counts failed logins per key; :meth:`check` refuses a blocked key with :class:`BusyError`."""

    #: Keys kept at most per kind (the oldest quiet ones are dropped first).
    MAX_KEYS = 100_000

    def __init__(self, limits: LoginLimits | None = None) -> None:
        self.limits = limits or LoginLimits()
        self._keys: dict[str, _Key] = {}
        self._lock = threading.Lock()

    def _get(self, key: str, now: float) -> _Key:
        k = self._keys.get(key)
        if k is not None and now - k.last > self.limits.forget_after and now >= k.blocked_until:
            k = None
            del self._keys[key]
        if k is None:
            if len(self._keys) >= self.MAX_KEYS:
                self._prune(now)
            k = self._keys[key] = _Key(last=now)
        return k

    def _prune(self, now: float) -> None:
        for key in [key for key, k in self._keys.items() if now >= k.blocked_until
                    and now - k.last > self.limits.window]:
            del self._keys[key]
        if len(self._keys) >= self.MAX_KEYS:  # all busy: drop the quietest tenth at once
            quietest = sorted(self._keys, key=lambda key: self._keys[key].last)[: self.MAX_KEYS // 10 or 1]
            for key in quietest:
                del self._keys[key]

    def check(self, account_key: str, address: str, now: float | None = None) -> None:
        """Refuse (:class:`BusyError`, 429) an attempt for a blocked account or address."""
        if not self.limits.enabled:
            return
        now = time.monotonic() if now is None else now
        with self._lock:
            wait = max(self._get("a:" + account_key, now).blocked_until,
                       self._get("h:" + address, now).blocked_until) - now
        if wait > 0:
            raise BusyError("too many failed logins: try again later", code="login_throttled",
                            retry_after=max(1.0, wait))

    def failed(self, account_key: str, address: str, now: float | None = None) -> None:
        """Count a failed attempt against both keys, blocking a key that reached its limit."""
        if not self.limits.enabled:
            return
        now = time.monotonic() if now is None else now
        with self._lock:
            self._fail(self._get("a:" + account_key, now), self.limits.per_account, now)
            self._fail(self._get("h:" + address, now), self.limits.per_address, now)

    def _fail(self, k: _Key, limit: int, now: float) -> None:
        k.last = now
        k.failures.append(now)
        while k.failures and now - k.failures[0] > self.limits.window:
            k.failures.popleft()
        if len(k.failures) >= limit:
            delay = min(self.limits.max_delay, self.limits.base_delay * 2 ** k.strikes)
            k.strikes += 1
            k.blocked_until = now + delay
            k.failures.clear()

    def succeeded(self, account_key: str) -> None:
        """A correct password: the account's count and strikes start again (the address's stay)."""
        with self._lock:
            self._keys.pop("a:" + account_key, None)


__all__ = ["LoginLimits", "LoginThrottle"]
