"""A WebSocket per game: every action and the new state, pushed to seats and spectators.

``/api/games/{id}/ws``, for a seat and a spectator alike: the first message
says who is connecting, ``{"type": "auth", "token": "<seat token>"}`` for a
seat, ``{"type": "auth"}`` for a spectator (within :data:`AUTH_TIMEOUT`
seconds).  No token ever travels in the URL, where logs and proxies would keep
it; a ``?token=`` is refused.  The server then sends ``hello`` (the full state;
so does every reconnection), then for each stored action an ``action`` message (the action
with its dice and events) and after them a ``state`` message.  A seat may also
act on the socket::

    {"type": "act", "request_id": 1, "action": {"type": "play", "play": "8/5 6/5"}}

answered by ``{"type": "result", "request_id": 1, "version": 7}`` or an
``error`` (same codes as the REST API).  ``{"type": "ping"}`` gets ``pong``;
``{"type": "state"}`` the current state again; ``{"type": "chat", "text": ...}`` sends a chat
message (:mod:`gammon.web.routes.chat`).  A socket that cannot open
sends an ``error`` and closes with 4400 (no or a malformed ``auth`` message),
4403 (bad token), 4404 (no such game), 4408 (no ``auth`` in time) or 4429 (over
a rate or over the open sockets allowed, :mod:`gammon.web.sockets`).

Limits (:mod:`gammon.web.guards`, :mod:`gammon.web.sockets`): a message over
16 KiB, binary, not JSON or nested too deeply gets an ``error`` and changes
nothing; every message spends the socket's rate and its seat's budget (a
spectator's: its address's); a socket over either gets one ``rate_limited``
error and is then not read until the rate allows, so a flooding client waits
on its own socket while the game goes on for the others.  Pings are answered
at most about once a second per socket; the others are dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import TypeAdapter, ValidationError
from sqlalchemy.exc import DBAPIError
from starlette.concurrency import run_in_threadpool

from gammon.core.errors import GammonError
from gammon.web.guards import MessageRefused, parse_message
from gammon.web.hub import Hub, Watcher, state_json, state_message
from gammon.web.ratelimit import client_key, too_many
from gammon.web.routes.chat import socket_chat
from gammon.web.schemas import ActionRequest
from gammon.web.service import (
    Command,
    ForbiddenError,
    GameService,
    NotFoundError,
    ServiceError,
)
from gammon.web.sockets import Refusal, Ticket, gate_of

router = APIRouter(tags=["games"])
log = logging.getLogger("gammon.web")

_action_adapter: TypeAdapter[Any] = TypeAdapter(ActionRequest)
_CLOSE_CODES = {NotFoundError: 4404, ForbiddenError: 4403}
#: Seconds a new socket has to send its ``auth`` message.
AUTH_TIMEOUT = 10.0
#: The longest token an ``auth`` message may carry (real ones are 43 characters).
MAX_TOKEN_LENGTH = 200


class _AuthRefused(Exception):
    def __init__(self, code: str, message: str, close: int) -> None:
        super().__init__(message)
        self.code, self.close = code, close


async def _authenticate(websocket: WebSocket) -> str | None:
    """The seat token of the socket's first message (None for a spectator).

    :raises _AuthRefused: a token in the URL, no ``auth`` message in time, or a malformed one.
    """
    if "token" in websocket.query_params:
        raise _AuthRefused("invalid_request", "send the token in the first message, {'type': 'auth', "
                           "'token': ...}, never in the URL", 4400)
    try:
        message = await asyncio.wait_for(websocket.receive(), AUTH_TIMEOUT)
    except TimeoutError:
        raise _AuthRefused("auth_timeout", f"no 'auth' message within {AUTH_TIMEOUT:g} s", 4408) from None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    try:
        msg = parse_message(message.get("text"))
    except MessageRefused as exc:
        raise _AuthRefused(exc.code, str(exc), 4400) from None
    token = msg.get("token") if isinstance(msg, dict) else None
    if not isinstance(msg, dict) or msg.get("type") != "auth" or not (
            token is None or (isinstance(token, str) and len(token) <= MAX_TOKEN_LENGTH)):
        raise _AuthRefused("invalid_request", "the first message must be {'type': 'auth', 'token': "
                           "<your seat's token>} (no token to watch)", 4400)
    return token or None


def _error(code: str, message: str, request_id: Any = None) -> dict[str, Any]:
    return {"type": "error", "request_id": request_id, "error": {"code": code, "message": message}}


def _request_id(msg: Any) -> Any:
    rid = msg.get("request_id") if isinstance(msg, dict) else None
    return rid if isinstance(rid, str | int) and not isinstance(rid, bool) else None


@router.websocket("/games/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    service: GameService = websocket.app.state.service
    hub: Hub = websocket.app.state.hub
    await websocket.accept()
    try:
        token = await _authenticate(websocket)
    except _AuthRefused as exc:
        await websocket.send_json(_error(exc.code, str(exc)))
        await websocket.close(code=exc.close)
        return
    except WebSocketDisconnect:
        return
    try:
        seat = await run_in_threadpool(service.seat_for, game_id, token)
    except ServiceError as exc:
        await websocket.send_json(_error(exc.code, str(exc)))
        await websocket.close(code=_CLOSE_CODES.get(type(exc), 4400))
        return
    # The seat's own budget and socket cap, or the address's (gammon.web.sockets).
    ticket = gate_of(websocket.app.state).admit(client_key(websocket.scope), game_id, seat)
    if isinstance(ticket, Refusal):
        await websocket.send_json(_error(ticket.code, ticket.message))
        await websocket.close(code=4429)
        return
    try:
        await _follow(websocket, service, hub, game_id, token, seat, ticket)
    finally:
        ticket.close()


async def _follow(websocket: WebSocket, service: GameService, hub: Hub, game_id: str, token: str | None,
                  seat: int | None, ticket: Ticket) -> None:
    try:
        view = await run_in_threadpool(service.view, game_id, token)
    except ServiceError as exc:
        await websocket.send_json(_error(exc.code, str(exc)))
        await websocket.close(code=_CLOSE_CODES.get(type(exc), 4400))
        return
    kick = getattr(websocket.app.state, "kick_computer", None)
    if kick is not None:
        kick(game_id)  # a game loaded here may owe the computer's move (after a restart)
    watcher = Watcher(seat, view.actions, view.version)
    watcher.put({"type": "hello", "you": seat, "state": state_json(view)})
    hub.subscribe(game_id, watcher)
    writer = asyncio.create_task(_write(websocket, watcher))
    reader = asyncio.create_task(_read(websocket, service, ticket, game_id, token, seat, watcher))
    try:
        done, pending = await asyncio.wait({writer, reader}, return_when=asyncio.FIRST_COMPLETED)
        for t in pending:
            t.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        if writer in done and watcher.overflowed:
            with contextlib.suppress(Exception):
                await websocket.close(code=1013, reason="too slow: reconnect for the full state")
    finally:
        hub.unsubscribe(game_id, watcher)


async def _write(websocket: WebSocket, watcher: Watcher) -> None:
    while True:
        message = await watcher.queue.get()
        if message is None:
            return
        try:
            await websocket.send_json(message)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return


async def _read(websocket: WebSocket, service: GameService, ticket: Ticket, game_id: str,
                token: str | None, seat: int | None, watcher: Watcher) -> None:
    while True:
        try:
            message = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        wait = ticket.charge()  # every message, pings too: the socket's rate and the seat's or address's
        try:
            msg = parse_message(message.get("text"))
        except MessageRefused as exc:
            watcher.put(_error(exc.code, str(exc)))
            msg = None
        rid = _request_id(msg)
        kind = msg.get("type") if isinstance(msg, dict) else None
        if wait is not None:
            # Over the rate: say so once, then leave this socket unread until the rate allows.  The
            # client's further messages wait in its own buffers; nobody else waits for them.
            if not ticket.told:
                watcher.put(_error("rate_limited", too_many(wait), rid))
            ticket.told = True
            await asyncio.sleep(wait)
            continue
        ticket.told = False
        if msg is None:
            continue
        if kind == "ping":
            if ticket.ping_due():  # at most about once a second; the others are dropped unanswered
                watcher.put({"type": "pong", "request_id": rid})
        elif kind == "state":
            try:
                view = await run_in_threadpool(service.view, game_id, token)
            except ServiceError as exc:
                watcher.put(_error(exc.code, str(exc), rid))
                continue
            watcher.put(state_message(view))
        elif kind == "act":
            watcher.put(await _act(service, game_id, token, seat, msg, rid))
        elif kind == "chat":  # a seat's to the players' channel, a spectator's to the spectators'
            watcher.put(await socket_chat(websocket.app.state, ticket.address, game_id, token, msg, rid))
        else:
            watcher.put(_error("invalid_request", "send {'type': 'act', 'action': {...}}, 'chat', 'ping' or "
                               "'state'", rid))


async def _act(service: GameService, game_id: str, token: str | None, seat: int | None,
               msg: dict[str, Any], rid: Any) -> dict[str, Any]:
    if seat is None:
        return _error("forbidden", "spectators cannot act: connect with your seat's token", rid)
    try:
        body = _action_adapter.validate_python(msg.get("action"))
    except ValidationError as exc:
        first = exc.errors()[0] if exc.errors() else {"msg": "invalid action"}
        where = ".".join(str(x) for x in first.get("loc", ()))
        return _error("invalid_request", f"action{'.' + where if where else ''}: {first.get('msg')}", rid)
    command = Command(type=body.type, play=getattr(body, "play", None), kind=getattr(body, "kind", "single"),
                      number=getattr(body, "number", None))
    try:
        acted = await run_in_threadpool(
            functools.partial(service.act, game_id, token, command, body.expected_version, want_view=False))
    except ServiceError as exc:
        return _error(exc.code, str(exc), rid)
    except GammonError as exc:
        return _error("invalid_request", str(exc), rid)
    except DBAPIError:
        return _error("database_unavailable", "the database cannot be reached; try again", rid)
    except Exception:
        log.exception("game %s: action on the socket failed", game_id)
        return _error("internal_error", "the server failed to carry out the action", rid)
    return {"type": "result", "request_id": rid, "version": acted.version}
