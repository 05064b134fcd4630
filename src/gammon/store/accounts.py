"""Data access for accounts: the players, their sessions and the seats they hold.

Every write is one transaction.  Names are unique by their folded key (the
database's unique constraint decides between two sign-ups racing for one name).
Sessions are kept under the SHA-256 of their id only, so a copy of the database
logs nobody in.  Deleting an account deletes its sessions and seat rows in the
same transaction and renames its seats in the games it played to
:data:`DELETED_NAME` (the games stay: the other player's record is theirs too).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError

from gammon.store.account_models import ACCOUNT_SEATS, ACCOUNT_SESSIONS, ACCOUNTS
from gammon.store.db import write_transaction
from gammon.store.models import GAMES
from gammon.store.repository import NOTIFY_CHANNEL, Store, StoreError

#: Sessions an account keeps at most (devices, scripts): a new one ends the oldest beyond.
MAX_SESSIONS = 20

#: How a deleted account's seats are named in the games that stay.
DELETED_NAME = "deleted player"


class NameTaken(StoreError):
    """Another account has this name (or one that folds to the same key)."""


@dataclass(frozen=True, slots=True)
class AccountRecord:
    """An ``accounts`` row, read."""

    id: str
    name: str
    name_key: str
    name_skeleton: str
    password_hash: str
    created_at: datetime
    password_changed_at: datetime


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A seat an account holds, with its game's status."""

    game_id: str
    seat: int
    status: str
    created_at: datetime


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def _account(r: Any) -> AccountRecord:
    return AccountRecord(r["id"], r["name"], r["name_key"], r["name_skeleton"], r["password_hash"],
                         _aware(r["created_at"]), _aware(r["password_changed_at"]))


class AccountStore:
    """Accounts, sessions and account seats in the database of ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    # -- accounts -------------------------------------------------------------------------

    def create_account(self, account_id: str, name: str, keys: tuple[str, str],
                       password_hash: str) -> AccountRecord:
        """Store a new account; ``keys`` are its ``name_key`` and ``name_skeleton``.

        :raises NameTaken: either key is in use.
        """
        now = _now()
        try:
            with write_transaction(self.engine) as conn:
                conn.execute(insert(ACCOUNTS).values(id=account_id, name=name, name_key=keys[0],
                                                     name_skeleton=keys[1],
                                                     password_hash=password_hash, created_at=now,
                                                     password_changed_at=now))
        except IntegrityError:
            raise NameTaken("that name is taken") from None
        return AccountRecord(account_id, name, keys[0], keys[1], password_hash, now, now)

    def by_key(self, name_key: str) -> AccountRecord | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(ACCOUNTS).where(ACCOUNTS.c.name_key == name_key)).mappings().first()
        return None if r is None else _account(r)

    def by_id(self, account_id: str) -> AccountRecord | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(ACCOUNTS).where(ACCOUNTS.c.id == account_id)).mappings().first()
        return None if r is None else _account(r)

    def set_password_hash(self, account_id: str, password_hash: str, *, changed: bool) -> None:
        """Store a new hash: ``changed`` for a new password (stamped), else a rehash of the same one."""
        values: dict[str, Any] = {"password_hash": password_hash}
        if changed:
            values["password_changed_at"] = _now()
        with write_transaction(self.engine) as conn:
            conn.execute(update(ACCOUNTS).where(ACCOUNTS.c.id == account_id).values(**values))

    def delete_account(self, account_id: str) -> list[str]:
        """Delete the account, its sessions and seat rows; rename its seats in the games that stay.

        Returns the ids of the games whose seats were renamed (their version moved on).
        """
        renamed: list[str] = []
        with write_transaction(self.engine) as conn:
            seats = conn.execute(select(ACCOUNT_SEATS.c.game_id, ACCOUNT_SEATS.c.seat)
                                 .where(ACCOUNT_SEATS.c.account_id == account_id)).all()
            for game_id, seat in seats:
                row = conn.execute(select(GAMES.c.seats, GAMES.c.version).where(GAMES.c.id == game_id)).first()
                if row is None or not 0 <= seat < len(row.seats):
                    continue
                new_seats = [dict(s) for s in row.seats]
                new_seats[seat]["name"] = DELETED_NAME
                conn.execute(update(GAMES).where(GAMES.c.id == game_id)
                             .values(seats=new_seats, version=GAMES.c.version + 1, updated_at=_now()))
                self._notify(conn, game_id, int(row.version) + 1)
                renamed.append(game_id)
            conn.execute(delete(ACCOUNT_SEATS).where(ACCOUNT_SEATS.c.account_id == account_id))
            conn.execute(delete(ACCOUNT_SESSIONS).where(ACCOUNT_SESSIONS.c.account_id == account_id))
            conn.execute(delete(ACCOUNTS).where(ACCOUNTS.c.id == account_id))
        return renamed

    # -- sessions -------------------------------------------------------------------------

    def create_session(self, id_hash: str, account_id: str, expires_at: datetime,
                       keep: int = MAX_SESSIONS) -> None:
        """Store a new session of the account; its expired sessions, and the oldest beyond ``keep``, go."""
        now = _now()
        with write_transaction(self.engine) as conn:
            conn.execute(insert(ACCOUNT_SESSIONS).values(id_hash=id_hash, account_id=account_id,
                                                         created_at=now, expires_at=expires_at))
            mine = ACCOUNT_SESSIONS.c.account_id == account_id
            conn.execute(delete(ACCOUNT_SESSIONS).where(mine, ACCOUNT_SESSIONS.c.expires_at <= now))
            old = conn.execute(select(ACCOUNT_SESSIONS.c.id_hash).where(mine)
                               .order_by(ACCOUNT_SESSIONS.c.created_at.desc(), ACCOUNT_SESSIONS.c.id_hash)
                               .offset(keep)).scalars().all()
            if old:
                conn.execute(delete(ACCOUNT_SESSIONS).where(ACCOUNT_SESSIONS.c.id_hash.in_(old),
                                                            ACCOUNT_SESSIONS.c.id_hash != id_hash))

    def session_account(self, id_hash: str, now: datetime | None = None) -> AccountRecord | None:
        """The account of the unexpired session stored under ``id_hash``, or None."""
        now = now or _now()
        with self.engine.connect() as conn:
            r = conn.execute(
                select(ACCOUNTS, ACCOUNT_SESSIONS.c.expires_at)
                .join(ACCOUNT_SESSIONS, ACCOUNT_SESSIONS.c.account_id == ACCOUNTS.c.id)
                .where(ACCOUNT_SESSIONS.c.id_hash == id_hash)
            ).mappings().first()
        if r is None or _aware(r["expires_at"]) <= now:
            return None
        return _account(r)

    def delete_session(self, id_hash: str) -> None:
        with write_transaction(self.engine) as conn:
            conn.execute(delete(ACCOUNT_SESSIONS).where(ACCOUNT_SESSIONS.c.id_hash == id_hash))

    def delete_sessions(self, account_id: str, keep: str | None = None) -> int:
        """Delete every session of the account but ``keep`` (an id hash); how many went."""
        cond = ACCOUNT_SESSIONS.c.account_id == account_id
        if keep is not None:
            cond = cond & (ACCOUNT_SESSIONS.c.id_hash != keep)
        with write_transaction(self.engine) as conn:
            return int(conn.execute(delete(ACCOUNT_SESSIONS).where(cond)).rowcount or 0)

    def purge_expired_sessions(self, now: datetime | None = None) -> int:
        with write_transaction(self.engine) as conn:
            res = conn.execute(delete(ACCOUNT_SESSIONS).where(ACCOUNT_SESSIONS.c.expires_at <= (now or _now())))
            return int(res.rowcount or 0)

    def count_sessions(self, account_id: str) -> int:
        with self.engine.connect() as conn:
            n = conn.execute(select(func.count()).select_from(ACCOUNT_SESSIONS)
                             .where(ACCOUNT_SESSIONS.c.account_id == account_id)).scalar()
        return int(n or 0)

    # -- seats ----------------------------------------------------------------------------

    def add_seat(self, game_id: str, seat: int, account_id: str, address_hash: str | None = None) -> None:
        """Record that the account holds ``seat`` of ``game_id`` (taken from the address hashed as
        ``address_hash``).  :raises StoreError: it is held already."""
        try:
            with write_transaction(self.engine) as conn:
                conn.execute(insert(ACCOUNT_SEATS).values(game_id=game_id, seat=seat, account_id=account_id,
                                                          created_at=_now(), address_hash=address_hash))
        except IntegrityError:
            raise StoreError("that seat belongs to an account already") from None

    def replace_seat_token(self, game_id: str, seat: int, token_hash: str) -> bool:
        """Give ``seat`` of ``game_id`` a new token (its old one stops working); the game's version
        moves on, so every copy of it is read again.  False when there is no such game."""
        if seat not in (0, 1):
            raise StoreError(f"no seat {seat}")
        with write_transaction(self.engine) as conn:
            row = conn.execute(update(GAMES).where(GAMES.c.id == game_id)
                               .values({f"seat{seat}_token_hash": token_hash, "version": GAMES.c.version + 1,
                                        "updated_at": _now()})
                               .returning(GAMES.c.version)).first()
            if row is None:
                return False
            self._notify(conn, game_id, int(row[0]))
        return True

    def _notify(self, conn: Any, game_id: str, version: int) -> None:
        if self.engine.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                         {"channel": NOTIFY_CHANNEL, "payload": f"{game_id}:{version}"})

    def seats_of(self, account_id: str, limit: int = 200) -> list[SeatRecord]:
        """The account's seats, newest first, with their games' status."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ACCOUNT_SEATS.c.game_id, ACCOUNT_SEATS.c.seat, GAMES.c.status,
                       ACCOUNT_SEATS.c.created_at)
                .join(GAMES, GAMES.c.id == ACCOUNT_SEATS.c.game_id)
                .where(ACCOUNT_SEATS.c.account_id == account_id)
                .order_by(ACCOUNT_SEATS.c.created_at.desc()).limit(limit)
            ).all()
        return [SeatRecord(r[0], int(r[1]), str(r[2]), _aware(r[3])) for r in rows]

    def seat_of(self, account_id: str, game_id: str) -> int | None:
        """The seat the account holds in ``game_id`` (the lower one if both), or None."""
        with self.engine.connect() as conn:
            v = conn.execute(select(func.min(ACCOUNT_SEATS.c.seat))
                             .where(ACCOUNT_SEATS.c.account_id == account_id,
                                    ACCOUNT_SEATS.c.game_id == game_id)).scalar()
        return None if v is None else int(v)


__all__ = ["DELETED_NAME", "MAX_SESSIONS", "AccountRecord", "AccountStore", "NameTaken", "SeatRecord"]
