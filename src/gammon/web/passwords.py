"""Passwords: the rules a new one must meet, and Argon2id hashing (``argon2-cffi``).

* A password has :data:`PASSWORD_MIN_LENGTH` to :data:`PASSWORD_MAX_LENGTH`
  characters and does not contain the account's name (compared case-folded).
* Hashes are Argon2id with ``argon2-cffi``'s current recommended parameters
  (its ``PasswordHasher()`` defaults, RFC 9106's second recommended profile).
  When they change in a later release, :meth:`Passwords.needs_rehash` says so
  at the next successful login and the account's hash is replaced.
* :meth:`Passwords.verify_nobody` spends the time of a real check against a
  dummy hash, so that logging in as a name nobody has takes as long as a wrong
  password (no enumeration of names by timing).
* Hashing is memory- and CPU-hard on purpose: at most :data:`MAX_CONCURRENT`
  hashes run at once in a process and at most :data:`MAX_WAITING` wait their
  turn; beyond that a request is refused at once (:class:`BusyError`, 429), so
  a flood of logins cannot hold the worker threads that the games need.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import unicodedata
from collections.abc import Iterator

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from gammon.web.service.errors import BusyError, InvalidError

PASSWORD_MIN_LENGTH = 10
#: Longer passwords are refused (hashing is cheap in their length, but nobody needs more).
PASSWORD_MAX_LENGTH = 256
#: Argon2 hashes that may run at once in one process (each takes its memory cost: 64 MiB by default).
MAX_CONCURRENT = 4
#: Hashes that may wait for a turn; more are refused with 429.
MAX_WAITING = 8


def check_new_password(password: object, name: str) -> str:
    """``password`` if it may be an account's password, else :class:`InvalidError` saying why."""
    if not isinstance(password, str):
        raise InvalidError("the password must be text")
    text = unicodedata.normalize("NFC", password)
    if len(text) < PASSWORD_MIN_LENGTH:
        raise InvalidError(f"a password has at least {PASSWORD_MIN_LENGTH} characters")
    if len(text) > PASSWORD_MAX_LENGTH:
        raise InvalidError(f"a password has at most {PASSWORD_MAX_LENGTH} characters")
    if name and name.casefold() in text.casefold():
        raise InvalidError("the password may not contain the name")
    return text


class Passwords:
    """Argon2id hashing and checking, ``MAX_CONCURRENT`` at a time."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()
        self._slots = threading.BoundedSemaphore(MAX_CONCURRENT)
        self._queued = 0
        self._queued_lock = threading.Lock()
        # A hash of a password nobody knows, with the same parameters as every new hash.
        self._dummy = self.hasher.hash(secrets.token_urlsafe(24))

    @contextlib.contextmanager
    def _turn(self) -> Iterator[None]:
        """One of the hashing slots, waiting for it if few are waiting; else :class:`BusyError`."""
        with self._queued_lock:
            if self._queued >= MAX_CONCURRENT + MAX_WAITING:
                raise BusyError("the server is busy checking passwords: try again in a moment",
                                code="too_busy", retry_after=1.0)
            self._queued += 1
        try:
            with self._slots:
                yield
        finally:
            with self._queued_lock:
                self._queued -= 1

    def hash(self, password: str) -> str:
        with self._turn():
            return self.hasher.hash(unicodedata.normalize("NFC", password))

    def verify(self, stored: str, password: str) -> bool:
        """Whether ``password`` matches the stored hash (False for a malformed hash, never an error).

        :raises BusyError: too many checks running and waiting already.
        """
        with self._turn():
            try:
                return bool(self.hasher.verify(stored, unicodedata.normalize("NFC", password)))
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False

    def verify_nobody(self, password: str) -> bool:
        """A check against the dummy hash: the same work as :meth:`verify`, always False."""
        self.verify(self._dummy, password)
        return False

    def needs_rehash(self, stored: str) -> bool:
        try:
            return bool(self.hasher.check_needs_rehash(stored))
        except (InvalidHashError, ValueError):
            return True


__all__ = ["MAX_CONCURRENT", "MAX_WAITING", "PASSWORD_MAX_LENGTH", "PASSWORD_MIN_LENGTH", "Passwords",
           "check_new_password"]
