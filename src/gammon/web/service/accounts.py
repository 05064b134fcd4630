"""Accounts as the server offers them: sign up, log in and out, change the password, delete.

:class:`AccountService` joins the account store, the password hasher and the
login throttle.  Its rules:

* a session id is 32 random bytes (URL-safe text) that only the client's
  cookie holds; the store keeps its SHA-256.  Logging in always makes a new
  one and deletes the session the client came with (no fixation); changing
  the password deletes every session and makes one new one for the client
  that changed it; "log out everywhere" deletes them all;
* a failed login answers :class:`UnauthorizedError` with the same words
  whether the name exists or not, after the same Argon2 work (a check against
  a dummy hash for unknown names), and counts against the name and the address
  (:mod:`gammon.web.login_throttle`);
* deleting an account needs its password; its sessions, hash and seat rows go,
  the games stay with its seats named "deleted player".
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from gammon.store.accounts import AccountRecord, AccountStore, NameTaken, SeatRecord
from gammon.web.account_names import check_account_name, name_key, name_keys
from gammon.web.login_throttle import LoginLimits, LoginThrottle
from gammon.web.passwords import PASSWORD_MAX_LENGTH, Passwords, check_new_password
from gammon.web.service.errors import ConflictError, NotFoundError, ServiceError
from gammon.web.service.tokens import hash_token

if TYPE_CHECKING:
    from gammon.store.repository import Store

#: How long a session lasts after the login that made it.
SESSION_LIFETIME = timedelta(days=30)

def new_token() -> str:
    """A seat token as the game service makes them: 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(32)


#: The one answer to a failed login, whatever failed.
BAD_LOGIN = "wrong name or password"


class UnauthorizedError(ServiceError):
    """No valid session, or a name and password that do not match (401)."""

    code = "unauthorized"


def hash_session(session_id: str) -> str:
    """The SHA-256 (hex) under which a session id is stored."""
    return hashlib.sha256(session_id.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class LoggedIn:
    """A new session: the account and the id for the client's cookie."""

    account: AccountRecord
    session_id: str


class AccountService:
    """Accounts, sessions and the seats accounts hold; see the module's docstring."""

    def __init__(self, store: Store, passwords: Passwords | None = None,
                 limits: LoginLimits | None = None,
                 on_game_changed: Callable[[str], None] | None = None) -> None:
        self.store = AccountStore(store)
        self.passwords = passwords or Passwords()
        self.throttle = LoginThrottle(limits)
        #: Called with each game id whose stored seats changed (a deleted player renamed).
        self.on_game_changed = on_game_changed

    # -- sessions -------------------------------------------------------------------------

    def _new_session(self, account: AccountRecord, old_session: str | None) -> LoggedIn:
        if old_session:
            self.store.delete_session(hash_session(old_session))
        session_id = secrets.token_urlsafe(32)
        self.store.create_session(hash_session(session_id), account.id, datetime.now(UTC) + SESSION_LIFETIME)
        return LoggedIn(account, session_id)

    def account_for(self, session_id: str | None) -> AccountRecord | None:
        """The account of a live session id, or None (no id, unknown, expired or revoked)."""
        if not session_id or len(session_id) > 100:
            return None
        return self.store.session_account(hash_session(session_id))

    def require(self, session_id: str | None) -> AccountRecord:
        account = self.account_for(session_id)
        if account is None:
            raise UnauthorizedError("log in first", code="not_logged_in")
        return account

    def log_out(self, session_id: str | None) -> None:
        if session_id and len(session_id) <= 100:
            self.store.delete_session(hash_session(session_id))

    def log_out_everywhere(self, account: AccountRecord) -> int:
        return self.store.delete_sessions(account.id)

    # -- accounts -------------------------------------------------------------------------

    def sign_up(self, name: object, password: object, old_session: str | None = None) -> LoggedIn:
        """Make an account and log it in.

        :raises InvalidError: a name or password against the rules.
        :raises ConflictError: the name (or one that looks the same) is taken (``name_taken``).
        """
        name = check_account_name(name)
        text = check_new_password(password, name)
        password_hash = self.passwords.hash(text)
        try:
            account = self.store.create_account(secrets.token_hex(16), name, name_keys(name), password_hash)
        except NameTaken:
            raise ConflictError("that name, or one that looks the same, is taken", code="name_taken") from None
        return self._new_session(account, old_session)

    def _check_password(self, name: str, password: str, address: str) -> AccountRecord:
        """The account if ``password`` is its password; else count the failure and refuse."""
        key = name_key(name)
        self.throttle.check(key, address)
        account = self.store.by_key(key)
        ok = (self.passwords.verify(account.password_hash, password) if account is not None
              else self.passwords.verify_nobody(password))
        if account is None or not ok:
            self.throttle.failed(key, address)
            raise UnauthorizedError(BAD_LOGIN, code="bad_login")
        self.throttle.succeeded(key)
        if self.passwords.needs_rehash(account.password_hash):
            self.store.set_password_hash(account.id, self.passwords.hash(password), changed=False)
        return account

    def log_in(self, name: str, password: str, address: str, old_session: str | None = None) -> LoggedIn:
        """A new session for the account ``name`` if ``password`` is its password.

        :raises UnauthorizedError: anything wrong (one answer for all).
        :raises BusyError: too many failures for the name or the address (429).
        """
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > PASSWORD_MAX_LENGTH:
            raise UnauthorizedError(BAD_LOGIN, code="bad_login")
        account = self._check_password(name, password, address)
        return self._new_session(account, old_session)

    def change_password(self, account: AccountRecord, password: str, new_password: object,
                        address: str, session_id: str | None) -> LoggedIn:
        """Replace the password (the old one is asked for again); every session ends, and the
        client that changed it gets a new one."""
        self._check_password(account.name, password, address)
        text = check_new_password(new_password, account.name)
        self.store.set_password_hash(account.id, self.passwords.hash(text), changed=True)
        self.store.delete_sessions(account.id)
        return self._new_session(account, session_id)

    def delete(self, account: AccountRecord, password: str, address: str) -> list[str]:
        """Delete the account (its password asked for again); the ids of the games renamed."""
        self._check_password(account.name, password, address)
        renamed = self.store.delete_account(account.id)
        if self.on_game_changed is not None:
            for game_id in renamed:
                self.on_game_changed(game_id)
        return renamed

    # -- seats ----------------------------------------------------------------------------

    def take_seat(self, account: AccountRecord, game_id: str, seat: int, address: str | None = None) -> None:
        """Record that the account holds ``seat`` of ``game_id`` (taken while logged in, from
        ``address``: only its SHA-256 is kept, to flag two accounts of one address in a rated match)."""
        self.store.add_seat(game_id, seat, account.id,
                            None if address is None else hashlib.sha256(address.encode()).hexdigest())

    def holds_seat_in(self, account: AccountRecord, game_id: str) -> bool:
        """Whether the account holds a seat of ``game_id`` already (it may not take the other one)."""
        return self.store.seat_of(account.id, game_id) is not None

    def seat_token(self, account: AccountRecord, game_id: str) -> tuple[int, str]:
        """A fresh token for the account's seat in ``game_id``, for a device that does not have one.

        The seat's previous token stops working (seats hold one token; the other device, logged in
        too, asks again).  A seat taken as a guest is never the account's, whoever asks.

        :raises NotFoundError: the account holds no seat in that game.
        """
        seat = self.store.seat_of(account.id, game_id)
        if seat is None or not self.store.replace_seat_token(game_id, seat, hash_token(token := new_token())):
            raise NotFoundError("your account holds no seat in that game")
        if self.on_game_changed is not None:
            self.on_game_changed(game_id)
        return seat, token

    def profile(self, name: str) -> tuple[AccountRecord, list[SeatRecord]] | None:
        """The account called ``name`` (as folded) and its finished games' seats, or None."""
        if not isinstance(name, str) or len(name) > 100:
            return None
        account = self.store.by_key(name_key(name))
        if account is None:
            return None
        return account, [s for s in self.store.seats_of(account.id) if s.status == "finished"]


__all__ = ["BAD_LOGIN", "SESSION_LIFETIME", "AccountService", "LoggedIn", "UnauthorizedError", "hash_session"]
