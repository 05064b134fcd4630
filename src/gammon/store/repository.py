"""Data access: create games, read them and their actions, append an action atomically.

Every write is one transaction.  :meth:`Store.append_action` is the heart of
it: ``UPDATE games SET version = v + 1 ... WHERE id = ? AND version = v``
followed by the ``INSERT`` of the action row numbered ``seq``; when the update
finds no row at version ``v`` another writer got there first and the
transaction is rolled back (:class:`VersionConflict`), so of two submissions of
the same turn exactly one is stored.  The primary key ``(game_id, seq)`` backs
this up.  On PostgreSQL the same transaction sends ``NOTIFY gammon_games``
with ``"<game id>:<version>"``, delivered to every listening server when (and
only if) it commits.

:meth:`Store.beat` stamps the shared heartbeat and, when the stamp it finds is
stale (no server process ran for a while), stores the gap as an outage;
:meth:`Store.outages` reads them back for the game clocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError

from gammon.core.errors import GammonError
from gammon.store.db import make_engine, upgrade_database, write_transaction
from gammon.store.models import ACTIONS, GAMES, HEARTBEAT, OUTAGES

#: The PostgreSQL channel on which a server announces every change to a game.
NOTIFY_CHANNEL = "gammon_games"


class StoreError(GammonError):
    """A storage problem a person should hear about (not a bug)."""


class VersionConflict(StoreError):
    """The game changed since the version the writer started from."""

    def __init__(self, game_id: str, expected: int) -> None:
        super().__init__(f"game {game_id} is no longer at version {expected}")
        self.game_id = game_id
        self.expected = expected


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A ``games`` row, read."""

    id: str
    settings: dict[str, Any]
    seats: list[dict[str, Any]]
    seat_token_hashes: tuple[str | None, str | None]
    dice_seed: str
    commitment: str
    has_computer: bool
    version: int
    status: str
    created_at: datetime
    updated_at: datetime
    invite_token_hash: str | None = None
    invite_used: bool = False
    rematch_id: str | None = None
    public: bool = False


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """An ``actions`` row, read: the action's JSON data and the events it caused."""

    seq: int
    player: int
    kind: str
    data: dict[str, Any]
    events: list[dict[str, Any]]
    created_at: datetime
    actor: str | None = None


@dataclass(frozen=True, slots=True)
class OutageRecord:
    """An ``outages`` row, read: from ``started`` to ``ended`` no server process ran."""

    id: int
    started: datetime
    ended: datetime


@dataclass(frozen=True, slots=True)
class NewGameRow:
    """What :meth:`Store.create_game` writes."""

    id: str
    settings: dict[str, Any]
    seats: list[dict[str, Any]]
    seat_token_hashes: tuple[str | None, str | None]
    dice_seed: str
    commitment: str
    has_computer: bool
    status: str
    invite_token_hash: str | None = None
    public: bool = False


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(t: datetime) -> datetime:
    # SQLite hands back naive datetimes; they were written in UTC.
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


_VERSION_SQL = text("SELECT version FROM games WHERE id = :id")


class Store:
    """Games and actions in one database (SQLite or PostgreSQL), through one engine.

    Every write goes through :func:`gammon.store.db.write_transaction`, which on SQLite
    makes this process's writers (of every store on the engine) take turns.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.engine.dialect.name

    @property
    def url(self) -> str:
        return self.engine.url.render_as_string(hide_password=False)

    def dispose(self) -> None:
        self.engine.dispose()

    def ping(self) -> str | None:
        """Ask the database something: the schema revision it is at (None before any migration).

        :raises sqlalchemy.exc.DBAPIError: the database cannot be reached.
        """
        with self.engine.connect() as conn:
            try:
                revision = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
            except Exception:
                conn.rollback()
                conn.execute(text("SELECT 1"))
                return None
        return None if revision is None else str(revision)

    # -- writes ---------------------------------------------------------------

    def create_game(self, row: NewGameRow) -> GameRecord:
        now = _now()
        values = {
            "id": row.id, "settings": row.settings, "seats": row.seats,
            "seat0_token_hash": row.seat_token_hashes[0], "seat1_token_hash": row.seat_token_hashes[1],
            "dice_seed": row.dice_seed, "commitment": row.commitment, "has_computer": row.has_computer,
            "version": 0, "status": row.status, "created_at": now, "updated_at": now,
            "invite_token_hash": row.invite_token_hash, "public": row.public,
        }
        with write_transaction(self.engine) as conn:
            conn.execute(insert(GAMES).values(**values))
        return GameRecord(row.id, row.settings, row.seats, row.seat_token_hashes, row.dice_seed,
                          row.commitment, row.has_computer, 0, row.status, now, now,
                          row.invite_token_hash, False, None, row.public)

    def append_action(
        self, game_id: str, expected_version: int, seq: int, player: int, kind: str,
        data: dict[str, Any], events: list[dict[str, Any]], status: str, actor: str | None = None,
    ) -> tuple[int, datetime]:
        """Store action number ``seq`` if the game is still at ``expected_version``.

        Returns the new version and the time stored.  Committed before it returns.

        :raises VersionConflict: the game moved on (nothing was written).
        """
        now = _now()
        new_version = expected_version + 1
        try:
            with write_transaction(self.engine) as conn:
                res = conn.execute(
                    update(GAMES)
                    .where(GAMES.c.id == game_id, GAMES.c.version == expected_version)
                    .values(version=new_version, status=status, updated_at=now)
                )
                if res.rowcount != 1:
                    raise VersionConflict(game_id, expected_version)
                conn.execute(insert(ACTIONS).values(
                    game_id=game_id, seq=seq, player=player, kind=kind, data=data, events=events,
                    actor=actor, created_at=now,
                ))
                self._notify(conn, game_id, new_version)
        except IntegrityError:
            raise VersionConflict(game_id, expected_version) from None
        return new_version, now

    def claim_seat(self, game_id: str, expected_version: int, seat: int, token_hash: str,
                   seats: list[dict[str, Any]], status: str) -> tuple[int, datetime]:
        """Use the game's invitation: give ``seat`` the token hashed ``token_hash`` and mark the
        invitation used, in one transaction, if the game is still at ``expected_version`` and the
        invitation still open.

        Returns the new version and the time stored (the game's ``updated_at``), so that a copy
        in memory stays equal to the game read back.

        :raises VersionConflict: the game moved on, or the invitation was used meanwhile.
        """
        if seat not in (0, 1):
            raise StoreError(f"no seat {seat}")
        new_version = expected_version + 1
        now = _now()
        with write_transaction(self.engine) as conn:
            res = conn.execute(
                update(GAMES)
                .where(GAMES.c.id == game_id, GAMES.c.version == expected_version,
                       GAMES.c.invite_used_at.is_(None))
                .values({f"seat{seat}_token_hash": token_hash, "invite_used_at": now, "seats": seats,
                         "status": status, "version": new_version, "updated_at": now})
            )
            if res.rowcount != 1:
                raise VersionConflict(game_id, expected_version)
            self._notify(conn, game_id, new_version)
        return new_version, now

    def set_rematch(self, game_id: str, rematch_id: str) -> tuple[int, datetime] | None:
        """Link ``game_id`` to its rematch unless it has one already.

        Returns the game's new version and the time stored if this call linked it, else None.
        """
        now = _now()
        with write_transaction(self.engine) as conn:
            res = conn.execute(
                update(GAMES).where(GAMES.c.id == game_id, GAMES.c.rematch_id.is_(None))
                .values(rematch_id=rematch_id, version=GAMES.c.version + 1, updated_at=now)
                .returning(GAMES.c.version)
            )
            row = res.first()
            if row is not None:
                self._notify(conn, game_id, int(row[0]))
        return None if row is None else (int(row[0]), now)

    def expire_waiting(self, created_before: datetime) -> list[str]:
        """Mark ``expired`` the games still waiting for their guest, created before ``created_before``."""
        with write_transaction(self.engine) as conn:
            ids = list(conn.execute(
                select(GAMES.c.id).where(GAMES.c.status == "waiting", GAMES.c.created_at < created_before)
            ).scalars())
            if ids:
                conn.execute(update(GAMES).where(GAMES.c.id.in_(ids), GAMES.c.status == "waiting")
                             .values(status="expired", version=GAMES.c.version + 1, updated_at=_now()))
                for gid in ids:
                    self._notify(conn, gid, -1)  # no version: every listener reads the game again
        return ids

    def set_status(self, game_id: str, expected_version: int, status: str) -> tuple[int, datetime]:
        """Give ``game_id`` the status ``status`` (a game cancelled before it was played) if it is
        still at ``expected_version``; the new version and the time stored.

        :raises VersionConflict: the game moved on meanwhile.
        """
        new_version = expected_version + 1
        now = _now()
        with write_transaction(self.engine) as conn:
            res = conn.execute(update(GAMES).where(GAMES.c.id == game_id, GAMES.c.version == expected_version)
                               .values(status=status, version=new_version, updated_at=now))
            if res.rowcount != 1:
                raise VersionConflict(game_id, expected_version)
            self._notify(conn, game_id, new_version)
        return new_version, now

    def lobby(self, created_after: datetime, limit: int = 50) -> list[GameRecord]:
        """Public games waiting for a guest, created after ``created_after``, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(GAMES.c.id).where(GAMES.c.public.is_(True), GAMES.c.status == "waiting",
                                         GAMES.c.invite_used_at.is_(None), GAMES.c.created_at > created_after)
                .order_by(GAMES.c.created_at.desc()).limit(limit)
            ).scalars().all()
            return [g for g in (self._game(conn, gid) for gid in rows) if g is not None]

    def beat(self, stale_after: float) -> OutageRecord | None:
        """Stamp the heartbeat that every server process shares with the time now.

        When the stamp found is older than ``stale_after`` seconds, no process
        stamped it in between: that stretch, from the old stamp to now, is
        stored as an outage (and returned).  One transaction, the row locked,
        so of processes starting together one stores the outage.  A stamp
        newer than this process's clock is kept (clocks of several hosts may
        differ a little).
        """
        now = _now()
        outage = None
        with write_transaction(self.engine) as conn:
            # Lock the row with a write before reading it: on SQLite a transaction that reads first
            # cannot write once another process has written meanwhile (it fails, it does not wait).
            conn.execute(update(HEARTBEAT).where(HEARTBEAT.c.id == 1).values(beat_at=HEARTBEAT.c.beat_at))
            row = conn.execute(select(HEARTBEAT.c.beat_at).where(HEARTBEAT.c.id == 1)).first()
            if row is None:  # the migration makes the row; this only mends a database without it
                conn.execute(insert(HEARTBEAT).values(id=1, beat_at=now))
                return None
            last = _aware(row[0]) if row[0] is not None else None
            if last is not None and (now - last).total_seconds() > stale_after:
                new_id = conn.execute(insert(OUTAGES).values(started_at=last, ended_at=now)
                                      .returning(OUTAGES.c.id)).scalar_one()
                outage = OutageRecord(int(new_id), last, now)
            if last is None or now > last:
                conn.execute(update(HEARTBEAT).where(HEARTBEAT.c.id == 1).values(beat_at=now))
        return outage

    def outages(self, after_id: int = 0) -> list[OutageRecord]:
        """The outages stored with an id above ``after_id``, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(OUTAGES).where(OUTAGES.c.id > after_id).order_by(OUTAGES.c.id)).all()
        return [OutageRecord(int(r.id), _aware(r.started_at), _aware(r.ended_at)) for r in rows]

    def _notify(self, conn: Any, game_id: str, version: int) -> None:
        if self.dialect == "postgresql":
            conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                         {"channel": NOTIFY_CHANNEL, "payload": f"{game_id}:{version}"})

    # -- reads ----------------------------------------------------------------

    @staticmethod
    def _game(conn: Any, game_id: str) -> GameRecord | None:
        r = conn.execute(select(GAMES).where(GAMES.c.id == game_id)).mappings().first()
        if r is None:
            return None
        return GameRecord(
            r["id"], r["settings"], r["seats"], (r["seat0_token_hash"], r["seat1_token_hash"]),
            r["dice_seed"], r["commitment"], bool(r["has_computer"]), r["version"], r["status"],
            _aware(r["created_at"]), _aware(r["updated_at"]), r["invite_token_hash"],
            r["invite_used_at"] is not None, r["rematch_id"], bool(r["public"]),
        )

    @staticmethod
    def _actions(conn: Any, game_id: str, after_seq: int) -> list[ActionRecord]:
        rows = conn.execute(
            select(ACTIONS).where(ACTIONS.c.game_id == game_id, ACTIONS.c.seq > after_seq)
            .order_by(ACTIONS.c.seq)
        ).mappings().all()
        return [ActionRecord(r["seq"], r["player"], r["kind"], r["data"], r["events"],
                             _aware(r["created_at"]), r["actor"]) for r in rows]

    def get_game(self, game_id: str) -> GameRecord | None:
        with self.engine.connect() as conn:
            return self._game(conn, game_id)

    def get_version(self, game_id: str) -> int | None:
        """The game's version, or None when there is no such game."""
        with self.engine.connect() as conn:
            v = conn.execute(_VERSION_SQL, {"id": game_id}).scalar()
        return None if v is None else int(v)

    def actions(self, game_id: str, after_seq: int = 0) -> list[ActionRecord]:
        """The game's actions numbered above ``after_seq``, in order."""
        with self.engine.connect() as conn:
            return self._actions(conn, game_id, after_seq)

    def load(self, game_id: str, after_seq: int = 0) -> tuple[GameRecord, list[ActionRecord]] | None:
        """The game row and its actions above ``after_seq``, read from one snapshot.

        None when there is no such game.
        """
        conn = self.engine.connect()
        if self.dialect == "postgresql":
            conn = conn.execution_options(isolation_level="REPEATABLE READ")
        with conn, conn.begin():
            game = self._game(conn, game_id)
            if game is None:
                return None
            return game, self._actions(conn, game_id, after_seq)

    def count_actions(self, game_id: str) -> int:
        with self.engine.connect() as conn:
            n = conn.execute(select(func.count()).select_from(ACTIONS)
                             .where(ACTIONS.c.game_id == game_id)).scalar()
        return int(n or 0)

    def active_games_with(self, setting: str, limit: int = 1000) -> Sequence[str]:
        """Ids of the games being played whose settings have ``setting``, most recently changed first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(GAMES.c.id, GAMES.c.settings).where(GAMES.c.status == "active")
                .order_by(GAMES.c.updated_at.desc()).limit(limit)
            ).all()
        return [gid for gid, settings in rows if isinstance(settings, dict) and settings.get(setting)]

    def idle_games(self, before: datetime, limit: int = 200) -> Sequence[str]:
        """Ids of the games being played that have not changed since ``before``, stalest first."""
        with self.engine.connect() as conn:
            return conn.execute(
                select(GAMES.c.id).where(GAMES.c.status == "active", GAMES.c.updated_at < before)
                .order_by(GAMES.c.updated_at).limit(limit)
            ).scalars().all()

    def active_computer_games(self, limit: int = 1000) -> Sequence[str]:
        """Ids of unfinished games with a computer seat, most recently changed first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(GAMES.c.id).where(GAMES.c.has_computer.is_(True), GAMES.c.status != "finished")
                .order_by(GAMES.c.updated_at.desc()).limit(limit)
            ).scalars().all()
        return list(rows)


def open_store(url: str, *, migrate: bool = True, **engine_kw: Any) -> Store:
    """A :class:`Store` on ``url``, its schema brought up to date first (``alembic upgrade head``)."""
    engine = make_engine(url, **engine_kw)
    if migrate:
        upgrade_database(engine)
    return Store(engine)


__all__ = [
    "NOTIFY_CHANNEL",
    "ActionRecord",
    "GameRecord",
    "NewGameRow",
    "OutageRecord",
    "Store",
    "StoreError",
    "VersionConflict",
    "open_store",
]
