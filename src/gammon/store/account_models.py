"""The account tables, as SQLAlchemy 2 declarative models on :class:`gammon.store.models.Base`.

* ``accounts``: one row per registered player.  ``name`` is shown as typed
  (after the name rules of :mod:`gammon.web.names`); ``name_key`` is the name
  folded for comparison (case folded and Unicode confusables folded, see
  :mod:`gammon.web.account_names`) and is unique, so "Ann", "ann" and "Αnn"
  (Greek Alpha) cannot all exist; ``name_skeleton`` (skeleton first, folded
  after) is unique too, so "Ian" and "lan" cannot both exist.  ``password_hash`` is an Argon2id hash in
  PHC form.  Ratings and other per-player data hang off ``accounts.id``
  (a later table ``ratings(account_id -> accounts.id)``), never off the name,
  which is freed when the account is deleted.
* ``account_sessions``: one row per logged-in browser or script; the key is the
  SHA-256 of the session id (the id itself lives only in the client's cookie).
  Deleting the account deletes its sessions (``ON DELETE CASCADE``).
* ``account_seats``: the seats an account took in games while logged in (so the
  account, not only one device's seat token, holds them).  Deleting the account
  deletes these rows; the games themselves stay, their seat named "deleted player".
  ``address_hash`` (a hash of the address the seat was taken from) flags two
  accounts that played a rated match from one address.
"""

from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String, Table
from sqlalchemy.orm import Mapped, mapped_column

from gammon.store.models import Base


class AccountRow(Base):
    """A registered player: the name, its comparison key and the password's hash."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(32), nullable=False)
    #: The name folded for comparison (case and confusables): unique.
    name_key: Mapped[str] = mapped_column(String(200), nullable=False, unique=True)
    #: The name's confusable skeleton, case folded after: unique too ("Ian" and "lan" share it).
    name_skeleton: Mapped[str] = mapped_column(String(200), nullable=False, unique=True)
    #: Argon2id, PHC string form (``$argon2id$v=19$m=...,t=...,p=...$salt$hash``).
    password_hash: Mapped[str] = mapped_column(String(255), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    password_changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class AccountSessionRow(Base):
    """A logged-in session: stored under the SHA-256 of its id, until ``expires_at``."""

    __tablename__ = "account_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)

    __table_args__ = (Index("ix_account_sessions_account", "account_id"),)


class AccountSeatRow(Base):
    """A seat an account holds in a game (taken while logged in)."""

    __tablename__ = "account_seats"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    #: SHA-256 of the address the seat was taken from (None before ratings): one address in both seats
    #: of a rated match is flagged (:mod:`gammon.store.rating_models`).
    address_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)

    __table_args__ = (Index("ix_account_seats_account", "account_id"),)


ACCOUNTS = cast(Table, AccountRow.__table__)
ACCOUNT_SESSIONS = cast(Table, AccountSessionRow.__table__)
ACCOUNT_SEATS = cast(Table, AccountSeatRow.__table__)

__all__ = ["ACCOUNTS", "ACCOUNT_SEATS", "ACCOUNT_SESSIONS", "AccountRow", "AccountSeatRow", "AccountSessionRow"]
