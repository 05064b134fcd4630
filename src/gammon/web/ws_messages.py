"""The WebSocket messages, as pydantic models: documented here (and in the OpenAPI document's
components), sent as JSON.  Their payloads are :mod:`gammon.web.schemas`' shapes."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from gammon.web.schemas import ActionEntry, ActionRequest, ErrorDetail, GameState


class WsHello(BaseModel):
    """First message on every connection (and after a reconnect): the full state."""

    type: Literal["hello"] = "hello"
    you: int | None
    state: GameState


class WsAction(BaseModel):
    """An action stored in the game, with the events it caused."""

    type: Literal["action"] = "action"
    game_id: str
    entry: ActionEntry


class WsState(BaseModel):
    """The state after one or more actions (or a player joining)."""

    type: Literal["state"] = "state"
    state: GameState


class WsResult(BaseModel):
    """The answer to an action a client sent on the socket."""

    type: Literal["result"] = "result"
    request_id: str | int | None = None
    version: int


class WsError(BaseModel):
    type: Literal["error"] = "error"
    request_id: str | int | None = None
    error: ErrorDetail


class WsAct(BaseModel):
    """Client to server: act for your seat (answered by ``result`` or ``error``)."""

    type: Literal["act"]
    request_id: str | int | None = None
    action: ActionRequest


class WsPing(BaseModel):
    """Client to server: ``ping`` (answered by ``pong``) or ``state`` (answered by the state)."""

    type: Literal["ping", "state"]
    request_id: str | int | None = None


#: The WebSocket messages, for the OpenAPI document (components only: OpenAPI has no sockets).
WS_MESSAGES: tuple[type[BaseModel], ...] = (WsHello, WsAction, WsState, WsResult, WsError, WsAct, WsPing)
