"""The chat of a game: REST for its history and settings, and the socket's ``chat`` messages.

* ``GET /api/games/{id}/chat``: the messages you are sent (see :class:`ChatHistory`).
* ``POST /api/games/{id}/chat`` ``{"text": ...}``: send one (a seat's token: the players' channel;
  none: the spectators').
* ``GET``/``PUT /api/games/{id}/chat/settings`` ``{"muted": bool, "spectators": bool}``: your seat's
  settings, and only yours (the other seat's mute is not readable by anyone else).
* ``GET /api/games/{id}/export.json?chat=1`` (a seat's token): the record with a ``chat`` list of the
  messages that seat is sent; exports never carry chat otherwise, and ``.mat``/SGF never do.
* On the game's socket, ``{"type": "chat", "text": ...}`` sends one, answered by
  ``{"type": "chat_sent", "request_id", "id"}`` or an ``error`` (``chat_too_long``, ``chat_empty``,
  ``rate_limited``, ``chat_full``); every socket allowed to read it (:func:`delivered_to`) gets
  ``{"type": "chat", "message": {...}}``.  Messages reach the sockets of the server process that
  stored them.
"""

from __future__ import annotations

import functools
import json
from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Request
from starlette.concurrency import run_in_threadpool

from gammon.web.chat_schemas import ChatHistory, ChatMessageOut, ChatPost, ChatSettingsIO
from gammon.web.deps import TokenDep
from gammon.web.hub import Hub
from gammon.web.ratelimit import client_key
from gammon.web.schemas import ErrorResponse
from gammon.web.service import ForbiddenError, InvalidError, ServiceError
from gammon.web.service.chat import Posted, chat_of, delivered_to, message_json

router = APIRouter(prefix="/games", tags=["games"])

GameId = Annotated[str, Path(min_length=1, max_length=32, description="The game's id (public)")]

_TEXT = {403: "The token holds no seat in this game", 404: "No such game",
         409: "The game's chat holds as many messages as it may (chat_full)",
         422: "A malformed request, an empty message or one over 500 characters",
         429: "Too many chat messages: see Retry-After"}


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {s: {"model": ErrorResponse, "description": _TEXT[s]} for s in statuses}


def deliver(hub: Hub, posted: Posted) -> None:
    """Queue ``posted`` for every socket of this process allowed to read it."""
    m = posted.message
    message = {"type": "chat", "game_id": m.game_id, "message": message_json(m)}
    for watcher in hub.watchers_of(m.game_id):
        if delivered_to(m, watcher.seat, posted.settings):
            watcher.put(message)


async def socket_chat(app_state: Any, address: str, game_id: str, token: str | None,
                      msg: dict[str, Any], rid: Any) -> dict[str, Any]:
    """A socket's ``chat`` message: stored and delivered, or the error to send back."""
    try:
        posted = await run_in_threadpool(
            functools.partial(chat_of(app_state).post, game_id, token, address, msg.get("text")))
    except ServiceError as exc:
        return {"type": "error", "request_id": rid, "error": {"code": exc.code, "message": str(exc)}}
    deliver(app_state.hub, posted)
    return {"type": "chat_sent", "request_id": rid, "id": posted.message.id}


async def export_with_chat(request: Request, game_id: str, token: str | None, fmt: str, text: str) -> str:
    """The export ``text`` with the chat the seat of ``token`` is sent (``?chat=1``; JSON only).

    :raises ForbiddenError: no seat's token; :raises InvalidError: ``.mat`` or SGF.
    """
    if fmt != "json":
        raise InvalidError("chat travels only in the JSON export (export.json?chat=1)", "unsupported_export")
    if not token:
        raise ForbiddenError("the chat is exported for the game's seats only: send your seat's token")
    messages = await run_in_threadpool(chat_of(request.app.state).history, game_id, token)
    record = json.loads(text)
    record["chat"] = [message_json(m) for m in messages]
    return json.dumps(record, ensure_ascii=False, indent=1)


@router.get("/{game_id}/chat", response_model=ChatHistory, responses=_errors(403, 404),
            summary="The chat messages you are sent (a seat's token: the players'; none: the spectators')")
async def history(game_id: GameId, request: Request, token: TokenDep) -> ChatHistory:
    messages = await run_in_threadpool(chat_of(request.app.state).history, game_id, token)
    return ChatHistory(game_id=game_id, messages=[ChatMessageOut(**message_json(m)) for m in messages])


@router.post("/{game_id}/chat", response_model=ChatMessageOut, status_code=201,
             responses=_errors(403, 404, 409, 422, 429),
             summary="Send a chat message (plain text, at most 500 characters)")
async def post(game_id: GameId, body: Annotated[ChatPost, Body()], request: Request,
               token: TokenDep) -> ChatMessageOut:
    posted = await run_in_threadpool(chat_of(request.app.state).post, game_id, token,
                                     client_key(request.scope), body.text)
    deliver(request.app.state.hub, posted)
    return ChatMessageOut(**message_json(posted.message))


@router.get("/{game_id}/chat/settings", response_model=ChatSettingsIO, responses=_errors(403, 404),
            summary="Your seat's chat settings (a seat's token)")
async def get_settings(game_id: GameId, request: Request, token: TokenDep) -> ChatSettingsIO:
    s = await run_in_threadpool(chat_of(request.app.state).settings, game_id, token)
    return ChatSettingsIO(muted=s.muted, spectators=s.spectators)


@router.put("/{game_id}/chat/settings", response_model=ChatSettingsIO, responses=_errors(403, 404, 422),
            summary="Mute the other seat, or read the spectators' channel (a seat's token)")
async def put_settings(game_id: GameId, body: Annotated[ChatSettingsIO, Body()], request: Request,
                       token: TokenDep) -> ChatSettingsIO:
    s = await run_in_threadpool(functools.partial(chat_of(request.app.state).set_settings, game_id, token,
                                                  muted=body.muted, spectators=body.spectators))
    return ChatSettingsIO(muted=s.muted, spectators=s.spectators)


__all__ = ["deliver", "export_with_chat", "router", "socket_chat"]
