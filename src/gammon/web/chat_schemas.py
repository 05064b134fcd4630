"""The chat's request and answer shapes (issue 37), beside :mod:`gammon.web.schemas`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from gammon.web.chat_text import CHAT_MAX_RAW


class ChatMessageOut(BaseModel):
    """One message: plain text (render it as text, never as HTML), its author's seat and name."""

    id: int
    channel: Literal["players", "spectators"]
    seat: int | None = Field(description="The author's seat; null for a spectator")
    author: str
    text: str
    at: str = Field(description="When it was stored (ISO 8601, UTC)")


class ChatHistory(BaseModel):
    """The messages you are sent: with a seat's token the players' channel (without the other seat's
    when you muted it) and, once you opt in, the spectators'; without a token the spectators'."""

    game_id: str
    messages: list[ChatMessageOut]


class ChatPost(BaseModel):
    """A message to send (the socket's ``{"type": "chat", "text": ...}`` does the same)."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(max_length=CHAT_MAX_RAW)


class ChatSettingsIO(BaseModel):
    """Your seat's chat settings; in a change, a field left out stays as it is."""

    model_config = ConfigDict(extra="forbid")

    muted: bool | None = Field(None, description="The other seat's messages are not sent to you")
    spectators: bool | None = Field(None, description="You read the spectators' channel too")


__all__ = ["ChatHistory", "ChatMessageOut", "ChatPost", "ChatSettingsIO"]
