"""Password rules and the hashing slots: a flood of password checks is refused beyond a bounded queue
instead of holding every worker thread of the server."""

from __future__ import annotations

import threading
import time

import pytest

from gammon.web.passwords import MAX_CONCURRENT, MAX_WAITING, Passwords, check_new_password
from gammon.web.service import BusyError, InvalidError


class _SlowHasher:
    """A stand-in for argon2's PasswordHasher whose checks wait until released."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.started = 0
        self.lock = threading.Lock()

    def hash(self, password: str) -> str:
        return "$fake$" + password

    def verify(self, stored: str, password: str) -> bool:
        with self.lock:
            self.started += 1
        self.release.wait(30)
        return stored == "$fake$" + password

    def check_needs_rehash(self, stored: str) -> bool:
        return False


def test_a_flood_of_checks_is_refused_beyond_the_queue() -> None:
    hasher = _SlowHasher()
    passwords = Passwords(hasher)  # type: ignore[arg-type]
    threads = [threading.Thread(target=passwords.verify, args=("$fake$x", "x"))
               for _ in range(MAX_CONCURRENT + MAX_WAITING)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 20
    while hasher.started < MAX_CONCURRENT and time.monotonic() < deadline:
        time.sleep(0.01)
    assert hasher.started == MAX_CONCURRENT  # the others wait their turn
    while passwords._queued < MAX_CONCURRENT + MAX_WAITING and time.monotonic() < deadline:
        time.sleep(0.01)
    with pytest.raises(BusyError) as refused:
        passwords.verify("$fake$x", "x")
    assert refused.value.retry_after >= 1
    hasher.release.set()
    for t in threads:
        t.join(20)
    assert passwords.verify("$fake$x", "x") is True  # the queue drained: checks run again


@pytest.mark.parametrize(("password", "ok"), [("0123456789", True), ("012345678", False),
                                              ("x" * 256, True), ("x" * 257, False),
                                              ("my name is Ann Lee!", False), ("ann lee 2026!!", False),
                                              ("annlee 2026!!", True)])
def test_password_rules(password: str, ok: bool) -> None:
    if ok:
        assert check_new_password(password, "Ann Lee") == password
    else:
        with pytest.raises(InvalidError):
            check_new_password(password, "Ann Lee")
