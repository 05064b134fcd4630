"""Data access for the chat of games: messages by game and channel, and each seat's settings.

Every write is one transaction.  :meth:`ChatStore.add` counts the channel's messages in the
transaction that adds one, so a game holds at most the number it is given (two server processes
racing on one PostgreSQL database may each add the last one: the bound is then exceeded by at
most one per process, never without end).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, insert, select, update

from gammon.store.chat_models import CHAT_MESSAGES, CHAT_SETTINGS
from gammon.store.db import write_transaction
from gammon.store.repository import Store, StoreError

#: The two channels of a game: between its seats, and among its spectators.
CHANNELS = ("players", "spectators")


class ChatFull(StoreError):
    """The channel holds as many messages as a game may have."""


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """A stored message: ``seat`` None for a spectator's."""

    id: int
    game_id: str
    channel: str
    seat: int | None
    author: str
    text: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ChatSettings:
    """One seat's chat settings (both off until the seat changes them)."""

    muted: bool = False
    spectators: bool = False


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def _message(r: Any) -> ChatMessage:
    return ChatMessage(r["id"], r["game_id"], r["channel"], r["seat"], r["author"], r["text"],
                       _aware(r["created_at"]))


class ChatStore:
    """The chat tables in the database of ``store``."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def add(self, game_id: str, channel: str, seat: int | None, author: str, text: str,
            limit: int) -> ChatMessage:
        """Store one message, unless the channel of the game holds ``limit`` already.

        :raises ChatFull: the channel is full.
        """
        now = datetime.now(UTC)
        with write_transaction(self.engine) as conn:
            count = conn.execute(select(func.count()).select_from(CHAT_MESSAGES).where(
                CHAT_MESSAGES.c.game_id == game_id, CHAT_MESSAGES.c.channel == channel)).scalar_one()
            if count >= limit:
                raise ChatFull(f"this game's {channel} chat holds its {limit} messages: no more can be added")
            new_id = conn.execute(insert(CHAT_MESSAGES).values(
                game_id=game_id, channel=channel, seat=seat, author=author, text=text,
                created_at=now).returning(CHAT_MESSAGES.c.id)).scalar_one()
        return ChatMessage(int(new_id), game_id, channel, seat, author, text, now)

    def messages(self, game_id: str, channels: tuple[str, ...] = CHANNELS) -> list[ChatMessage]:
        """The game's messages in ``channels``, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(CHAT_MESSAGES).where(
                CHAT_MESSAGES.c.game_id == game_id, CHAT_MESSAGES.c.channel.in_(channels))
                .order_by(CHAT_MESSAGES.c.id)).mappings().all()
        return [_message(r) for r in rows]

    def settings(self, game_id: str) -> dict[int, ChatSettings]:
        """Each seat's settings in the game (the defaults for a seat that never changed them)."""
        found = {0: ChatSettings(), 1: ChatSettings()}
        with self.engine.connect() as conn:
            for r in conn.execute(select(CHAT_SETTINGS).where(CHAT_SETTINGS.c.game_id == game_id)).mappings():
                found[int(r["seat"])] = ChatSettings(bool(r["muted"]), bool(r["spectators"]))
        return found

    def set_settings(self, game_id: str, seat: int, settings: ChatSettings) -> None:
        """Store ``seat``'s settings in the game."""
        values = {"muted": settings.muted, "spectators": settings.spectators}
        with write_transaction(self.engine) as conn:
            done = conn.execute(update(CHAT_SETTINGS).where(
                CHAT_SETTINGS.c.game_id == game_id, CHAT_SETTINGS.c.seat == seat).values(**values))
            if done.rowcount == 0:
                conn.execute(insert(CHAT_SETTINGS).values(game_id=game_id, seat=seat, **values))


__all__ = ["CHANNELS", "ChatFull", "ChatMessage", "ChatSettings", "ChatStore"]
