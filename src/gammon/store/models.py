"""The tables, as SQLAlchemy 2 declarative models.

``games`` holds one row per server game (a single game, a money session or a
match); ``actions`` one row per accepted action, numbered ``seq`` 1, 2, ...
within its game.  ``server_heartbeat`` (one row) and ``outages`` let the
game clocks leave out the time no server process was running.  The
migration scripts in :mod:`gammon.store.migrations` create exactly these
tables (a test compares them).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Index, Integer, String, Table, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """The declarative base of gammon's tables."""


class GameRow(Base):
    """A server game: settings, seats, the secret dice seed and the version counter.

    ``version`` counts every change (each action, a player joining), so a
    client's ``expected_version`` and the optimistic ``UPDATE ... WHERE
    version = ?`` see every change.  ``dice_seed`` is the secret of the crypto
    dice (hex); it leaves the server only once the game is finished.
    """

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    seats: Mapped[list[Any]] = mapped_column(JSON, nullable=False)
    seat0_token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    seat1_token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: SHA-256 of the single-use invitation to the guest's seat (None against the computer).
    invite_token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: When the invitation was used (None while it is open): a used invitation seats nobody.
    invite_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: The game's rematch, once one is made (a new game with the same settings).
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: Listed in the lobby while it waits for its guest.
    public: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False, server_default=false())
    dice_seed: Mapped[str] = mapped_column(String(64), nullable=False)
    commitment: Mapped[str] = mapped_column(String(64), nullable=False)
    has_computer: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    status: Mapped[str] = mapped_column(String(16), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)

    __table_args__ = (Index("ix_games_status_updated", "status", "updated_at"),
                      Index("ix_games_public_status", "public", "status"))


class ActionRow(Base):
    """One accepted action of a game: the action (with its dice) and the events it caused."""

    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    player: Mapped[int] = mapped_column(Integer, nullable=False)
    kind: Mapped[str] = mapped_column(String(20), nullable=False)
    data: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    events: Mapped[list[Any]] = mapped_column(JSON, nullable=False)
    #: Who acted: ``seat<N>:<token id>`` (the first 12 hex digits of the acting token's hash) or
    #: ``computer``; None for actions stored before actors were recorded.
    actor: Mapped[str | None] = mapped_column(String(40), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class HeartbeatRow(Base):
    """The one row (``id`` 1) every running server process stamps every few seconds.

    A process that finds the stamp older than a few beats knows that no process
    was running in between, and stores that gap as an :class:`OutageRow`.
    """

    __tablename__ = "server_heartbeat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    #: The latest stamp of any process (None before the first).
    beat_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class OutageRow(Base):
    """A stretch of time in which no server process ran: nobody's clock runs in it."""

    __tablename__ = "outages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


GAMES = cast(Table, GameRow.__table__)
ACTIONS = cast(Table, ActionRow.__table__)
HEARTBEAT = cast(Table, HeartbeatRow.__table__)
OUTAGES = cast(Table, OutageRow.__table__)

__all__ = ["ACTIONS", "GAMES", "HEARTBEAT", "OUTAGES", "ActionRow", "Base", "GameRow", "HeartbeatRow",
           "OutageRow"]

# The account tables live in their own module on the same metadata; importing it here puts them in
# ``Base.metadata`` wherever the models are (the migrations' comparison, ``alembic``).
import gammon.store.account_models  # noqa: E402,F401  (registers the account tables)
import gammon.store.chat_models  # noqa: E402,F401  (registers the chat tables)
import gammon.store.rating_models  # noqa: E402,F401  (registers the rating tables)
