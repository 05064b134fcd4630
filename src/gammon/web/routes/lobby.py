"""The lobby: public games waiting for a guest, to join with one click."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from starlette.concurrency import run_in_threadpool

from gammon.web.deps import ServiceDep
from gammon.web.schemas import Lobby

router = APIRouter(tags=["games"])


@router.get("/lobby", response_model=Lobby, summary="Public games waiting for a guest, newest first")
async def lobby(service: ServiceDep, limit: Annotated[int, Query(ge=1, le=100)] = 50) -> Lobby:
    games = await run_in_threadpool(service.lobby, limit)
    return Lobby(games=games, expire_after=service.expire_after)
