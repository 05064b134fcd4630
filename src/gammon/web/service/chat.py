"""The chat of a game (issue 37): who may write and read which channel, its limits, and mutes.

* **Channels.** ``players``: between the two seats; only a seat's token writes or reads it
  (spectators never see it).  ``spectators``: the watchers' own, written by sockets without a
  seat; a seat reads it only after opting in (its ``spectators`` setting, off by default).
* **Mutes.** A seat that mutes the other is no longer sent the other's messages, live or in the
  history; the setting is stored per seat and only that seat's token reads or changes it.
* **Limits.** Each message is cleaned and bounded by :mod:`gammon.web.chat_text`; a seat spends
  its own ``chat`` budget, a spectator its address's (:mod:`gammon.web.ratelimit`), so a neighbour
  cannot silence a player; a channel holds at most :data:`MAX_MESSAGES` messages per game.

Nothing here knows of sockets: :mod:`gammon.web.routes.chat` delivers what :func:`delivered_to`
allows.  A message never carries a token, only the author's seat and shown name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gammon.store.chat import ChatFull, ChatMessage, ChatSettings, ChatStore
from gammon.web.chat_text import clean_message
from gammon.web.ratelimit import RateLimiter, seat_key
from gammon.web.service.errors import BusyError, ConflictError, ForbiddenError
from gammon.web.service.games import GameService

#: Messages a channel of one game holds at most.
MAX_MESSAGES = 1000
#: How a spectator's messages are signed.
SPECTATOR_NAME = "spectator"


@dataclass(frozen=True, slots=True)
class Posted:
    """A stored message and the seats' settings when it was stored (who is sent it)."""

    message: ChatMessage
    settings: dict[int, ChatSettings]


def message_json(m: ChatMessage) -> dict[str, Any]:
    """A message as the API and the socket send it (no token, no address)."""
    return {"id": m.id, "channel": m.channel, "seat": m.seat, "author": m.author, "text": m.text,
            "at": m.created_at.isoformat()}


def delivered_to(m: ChatMessage, reader: int | None, settings: dict[int, ChatSettings]) -> bool:
    """Whether the reader (a seat, or None for a spectator) is sent ``m``."""
    if reader is None:
        return m.channel == "spectators"
    if m.channel == "spectators":
        return settings[reader].spectators
    return m.seat == reader or not settings[reader].muted


class ChatService:
    """Posting, reading and the per-seat settings of games' chats."""

    def __init__(self, games: GameService, limiter: RateLimiter, max_messages: int = MAX_MESSAGES) -> None:
        self.games = games
        self.chat = ChatStore(games.store)
        self.limiter = limiter
        self.max_messages = max_messages

    def post(self, game_id: str, token: str | None, address: str, raw: object) -> Posted:
        """Store a message from the seat of ``token`` (its players' channel) or from a spectator at
        ``address`` (the spectators' channel).

        :raises ForbiddenError: a token with no seat; :raises NotFoundError: no such game.
        :raises InvalidError: an empty or over-long message (:func:`clean_message`).
        :raises BusyError: over the ``chat`` rate (``rate_limited``).
        :raises ConflictError: the channel is full (``chat_full``).
        """
        text = clean_message(raw)
        view = self.games.view(game_id, token)  # the seat, or a spectator's view; refuses bad tokens
        seat = view.you
        key = seat_key(game_id, seat) if seat is not None else f"{game_id}:{address}"
        wait = self.limiter.check("chat", key)
        if wait is None and seat is None:
            wait = self.limiter.check("chat", address)  # one address's spectators, over all games
        if wait is not None:
            raise BusyError(f"too many chat messages: wait {max(1, round(wait))} s", "rate_limited", wait)
        channel = "players" if seat is not None else "spectators"
        author = view.seats[seat].name if seat is not None else SPECTATOR_NAME
        try:
            message = self.chat.add(game_id, channel, seat, author, text, self.max_messages)
        except ChatFull as exc:
            raise ConflictError(str(exc), "chat_full") from None
        return Posted(message, self.chat.settings(game_id))

    def history(self, game_id: str, token: str | None) -> list[ChatMessage]:
        """The messages the reader is sent: a seat's (``token``) or a spectator's (no token)."""
        seat = self.games.seat_for(game_id, token)
        settings = self.chat.settings(game_id)
        channels = ("spectators",) if seat is None else ("players", "spectators")
        return [m for m in self.chat.messages(game_id, channels) if delivered_to(m, seat, settings)]

    def settings(self, game_id: str, token: str | None) -> ChatSettings:
        """The chat settings of the seat of ``token`` (its own only)."""
        return self.chat.settings(game_id)[self._seat(game_id, token)]

    def set_settings(self, game_id: str, token: str | None, *, muted: bool | None = None,
                     spectators: bool | None = None) -> ChatSettings:
        """Change the settings of the seat of ``token``; a value left None stays as it is."""
        seat = self._seat(game_id, token)
        old = self.chat.settings(game_id)[seat]
        new = ChatSettings(old.muted if muted is None else muted,
                           old.spectators if spectators is None else spectators)
        self.chat.set_settings(game_id, seat, new)
        return new

    def _seat(self, game_id: str, token: str | None) -> int:
        seat = self.games.seat_for(game_id, token) if token else None
        if seat is None:
            raise ForbiddenError("only a seat's token has chat settings in this game")
        return seat


def chat_of(state: Any) -> ChatService:
    """The app's :class:`ChatService` (``app.state.chat``), made on first use around the app's
    game service and rate limiter."""
    chat: ChatService | None = getattr(state, "chat", None)
    if chat is None:
        chat = state.chat = ChatService(state.service, state.limiter)
    return chat


__all__ = ["MAX_MESSAGES", "SPECTATOR_NAME", "ChatService", "Posted", "chat_of", "delivered_to", "message_json"]
