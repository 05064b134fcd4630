"""The chat tables (issue 37), as SQLAlchemy 2 declarative models on :class:`gammon.store.models.Base`.

* ``chat_messages``: one row per message, numbered by ``id`` across the server.  ``channel`` is
  ``players`` (between the two seats) or ``spectators`` (the watchers' own); ``seat`` is the
  author's seat (None for a spectator) and ``author`` the name shown.  ``text`` is the message as
  typed, after the cleaning of :mod:`gammon.web.chat_text`: plain text, never markup.  Deleted with
  the game (``ON DELETE CASCADE``).
* ``chat_settings``: per seat of a game, whether it muted the other seat and whether it reads the
  spectators' channel (off by default).  Only that seat's token reads or changes its row.
"""

from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy import Boolean, DateTime, ForeignKey, Index, Integer, String, Table, Text, false
from sqlalchemy.orm import Mapped, mapped_column

from gammon.store.models import Base


class ChatMessageRow(Base):
    """One chat message of a game."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    channel: Mapped[str] = mapped_column(String(12), nullable=False)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    author: Mapped[str] = mapped_column(String(32), nullable=False)
    text: Mapped[str] = mapped_column(Text, nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)

    __table_args__ = (Index("ix_chat_messages_game", "game_id", "channel", "id"),)


class ChatSettingsRow(Base):
    """One seat's chat settings in one game."""

    __tablename__ = "chat_settings"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    #: The other seat's messages are not delivered to this one.
    muted: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False, server_default=false())
    #: This seat reads the spectators' channel too.
    spectators: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False, server_default=false())


CHAT_MESSAGES = cast(Table, ChatMessageRow.__table__)
CHAT_SETTINGS = cast(Table, ChatSettingsRow.__table__)

__all__ = ["CHAT_MESSAGES", "CHAT_SETTINGS", "ChatMessageRow", "ChatSettingsRow"]
