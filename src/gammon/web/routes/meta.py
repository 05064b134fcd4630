"""The server itself: health and what it offers."""

from __future__ import annotations

from importlib import metadata

from fastapi import APIRouter, Request

from gammon.core.variants import VARIANTS
from gammon.web.computer import COMPUTER_LEVELS
from gammon.web.schemas import Health, ServerInfo, VariantInfo

router = APIRouter(tags=["server"])


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


@router.get("/health", response_model=Health, summary="Whether the server is up")
async def health(request: Request) -> Health:
    return Health(status="ok", database=request.app.state.service.store.dialect,
                  notifications=_notifications(request))


@router.get("/info", response_model=ServerInfo, summary="Variants, computer levels and the database in use")
async def info(request: Request) -> ServerInfo:
    return ServerInfo(
        name="gammon", version=_version(), database=request.app.state.service.store.dialect,
        variants=[VariantInfo(name=v.name, title=v.title, checkers=v.checkers, cube=v.cube)
                  for v in VARIANTS.values()],
        computer_levels=list(COMPUTER_LEVELS),
    )
