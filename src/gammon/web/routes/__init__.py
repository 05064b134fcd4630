"""The API's routers, one per resource, gathered in :data:`api_router`."""

from __future__ import annotations

from fastapi import APIRouter

from gammon.web.routes import accounts, chat, finding, games, lobby, meta, players, ws

api_router = APIRouter(prefix="/api")
api_router.include_router(meta.router)
api_router.include_router(games.router)
api_router.include_router(lobby.router)
api_router.include_router(ws.router)
api_router.include_router(accounts.router)
api_router.include_router(chat.router)
api_router.include_router(players.router)
api_router.include_router(finding.router)

__all__ = ["api_router"]
