"""The server itself: health and what it offers."""

from __future__ import annotations

import asyncio
import logging
from importlib import metadata
from typing import Literal

from fastapi import APIRouter, Request, Response

from gammon.core.variants import VARIANTS
from gammon.i18n import _, use_language
from gammon.play.levels import COMPUTER_LEVELS
from gammon.web.language import request_language
from gammon.web.names import NAME_MAX_LENGTH
from gammon.web.schemas import Health, LevelInfo, ServerInfo, VariantInfo

router = APIRouter(tags=["server"])
log = logging.getLogger("gammon.web")

#: Seconds the health check waits for the database.
HEALTH_TIMEOUT = 3.0


def _version() -> str:
    try:
        return metadata.version("gammon")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "unknown"


def _notifications(request: Request) -> str:
    listener = getattr(request.app.state, "listener", None)
    if listener is None:
        return "in-process"
    return "listen/notify" if listener.listening.is_set() else "connecting"


@router.get("/health", response_model=Health, responses={503: {"model": Health, "description": "Degraded"}},
            summary="Whether the server is up and its database answers")
async def health(request: Request, response: Response) -> Health:
    store = request.app.state.service.store
    revision = None
    state: Literal["ok", "unreachable", "timeout"]
    try:
        revision = await asyncio.wait_for(asyncio.to_thread(store.ping), HEALTH_TIMEOUT)
        state = "ok"
    except TimeoutError:
        state = "timeout"
    except Exception as exc:  # the health check reports it; it never fails itself
        log.warning("health: the database does not answer: %s", exc)
        state = "unreachable"
    if state != "ok":
        response.status_code = 503
    return Health(status="ok" if state == "ok" else "degraded", database=store.dialect, database_state=state,
                  schema_revision=revision, notifications=_notifications(request))


@router.get("/info", response_model=ServerInfo, summary="Variants, computer levels and the database in use")
async def info(request: Request) -> ServerInfo:
    """What the server offers; the levels' titles and descriptions in the request's language."""
    with use_language(request_language(request)):
        levels = [LevelInfo(name=lv.name, title=_(lv.title), description=_(lv.description))
                  for lv in COMPUTER_LEVELS.values()]
    return ServerInfo(
        name="gammon", version=_version(), database=request.app.state.service.store.dialect,
        variants=[VariantInfo(name=v.name, title=v.title, checkers=v.checkers, cube=v.cube)
                  for v in VARIANTS.values()],
        computer_levels=list(COMPUTER_LEVELS),
        levels=levels,
        name_max_length=NAME_MAX_LENGTH,
    )
