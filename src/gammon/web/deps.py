"""Dependencies of the routes, as ``Annotated`` aliases.

The services live on ``app.state`` (made by :func:`gammon.web.app.create_app`); each is
read here once, typed, so a route names what it needs (``accounts: AccountsDep``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Depends, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from gammon.web.config import Settings
from gammon.web.service import GameService
from gammon.web.service.accounts import AccountService
from gammon.web.service.errors import ForbiddenError, InvalidError
from gammon.web.service.finding import Finding
from gammon.web.service.ratings import RatingService

_bearer = HTTPBearer(auto_error=False, description="A seat token: 'Authorization: Bearer <token>'")


def _state(name: str) -> Callable[[Request], Any]:
    """The dependency that gives the service ``app.state.<name>`` (its type is the alias's)."""

    def get(request: Request) -> Any:
        return getattr(request.app.state, name)

    get.__name__ = f"get_{name}"
    return get


def get_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    token: Annotated[str | None, Query(include_in_schema=False)] = None,
) -> str | None:
    """The seat token from ``Authorization: Bearer``.

    A token in the URL (``?token=``) is refused, not read: URLs end up in logs, proxies and
    browser histories, so a credential never travels in one.
    """
    if token is not None:
        raise InvalidError("send the token as 'Authorization: Bearer <token>', never in the URL")
    if credentials is not None and credentials.credentials:
        if len(credentials.credentials) > 200:
            raise ForbiddenError("the token holds no seat in this game")
        return credentials.credentials
    return None


AccountsDep = Annotated[AccountService, Depends(_state("accounts"))]
FindingDep = Annotated[Finding, Depends(_state("finding"))]
RatingsDep = Annotated[RatingService, Depends(_state("ratings"))]
ServiceDep = Annotated[GameService, Depends(_state("service"))]
SettingsDep = Annotated[Settings, Depends(_state("settings"))]
TokenDep = Annotated[str | None, Depends(get_token)]

__all__ = ["AccountsDep", "FindingDep", "RatingsDep", "ServiceDep", "SettingsDep", "TokenDep", "get_token"]
