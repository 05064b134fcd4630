"""Dependencies of the routes, as ``Annotated`` aliases."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from gammon.web.config import Settings
from gammon.web.service import GameService

_bearer = HTTPBearer(auto_error=False, description="A seat token: 'Authorization: Bearer <token>'")


def get_service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    token: Annotated[str | None, Query(max_length=200, description="A seat token (for links); "
                                       "the Authorization header is preferred")] = None,
) -> str | None:
    """The seat token from ``Authorization: Bearer`` or the ``token`` query parameter."""
    if credentials is not None and credentials.credentials:
        return credentials.credentials
    return token or None


ServiceDep = Annotated[GameService, Depends(get_service)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
TokenDep = Annotated[str | None, Depends(get_token)]

__all__ = ["ServiceDep", "SettingsDep", "TokenDep", "get_service", "get_settings", "get_token"]
