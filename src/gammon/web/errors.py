"""Errors as the API answers them: ``{"error": {"code": ..., "message": ...}}`` with a fitting status.

Service refusals keep their code (404 not_found, 403 forbidden, 410 invitation_used, 409 for
actions that do not fit the state, 422 for malformed requests); malformed JSON
and bodies that do not match the schema are 422 ``invalid_json`` and
``invalid_request``; a database that cannot be reached is 503; anything else
is 500 ``internal_error`` and says nothing more.  The message is said in the reader's
language (:mod:`gammon.web.error_words`); the code never changes.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException

from gammon.core.errors import GammonError
from gammon.web.error_words import localized
from gammon.web.service import (
    BusyError,
    ConflictError,
    ForbiddenError,
    GoneError,
    InvalidError,
    NotFoundError,
    ServiceError,
)
from gammon.web.service.accounts import UnauthorizedError

log = logging.getLogger("gammon.web")

_STATUS: list[tuple[type[ServiceError], int]] = [
    (BusyError, 429), (NotFoundError, 404), (ForbiddenError, 403), (GoneError, 410), (ConflictError, 409),
    (InvalidError, 422),
]
# Accounts: a missing session or a failed login is 401.
_STATUS.append((UnauthorizedError, 401))
_HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
               405: "method_not_allowed", 410: "gone", 413: "too_large", 415: "unsupported_media_type",
               429: "rate_limited"}

def error_body(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


def status_of(exc: ServiceError) -> int:
    for cls, status in _STATUS:
        if isinstance(exc, cls):
            return status
    return 400


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse(error_body(code, message), status_code=status)


def _validation_message(exc: RequestValidationError) -> tuple[str, str]:
    errors = list(exc.errors())
    if any(e.get("type") == "json_invalid" for e in errors):
        return "invalid_json", "the request body is not valid JSON"
    parts = []
    for e in errors[:3]:
        loc = ".".join(str(x) for x in e.get("loc", ()) if x not in ("body",)) or "body"
        parts.append(f"{loc}: {e.get('msg', 'invalid')}")
    more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
    return "invalid_request", "; ".join(parts) + more


def install_error_handlers(app: FastAPI) -> None:
    """Answer every error in the one JSON shape."""

    async def on_service_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ServiceError)
        answer = error_response(status_of(exc), exc.code, localized(request, exc.code, str(exc)))
        if isinstance(exc, BusyError):
            answer.headers["Retry-After"] = str(max(1, round(exc.retry_after)))
        return answer

    async def on_gammon_error(request: Request, exc: Exception) -> JSONResponse:
        return error_response(422, "invalid_request", localized(request, "invalid_request", str(exc)))

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        code, message = _validation_message(exc)
        return error_response(422, code, localized(request, code, message))

    async def on_http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        if exc.status_code == 400:
            # FastAPI's answer to a body it cannot decode at all (not UTF-8, truncated form data).
            message = localized(request, "invalid_json", "the request body is not valid JSON")
            return error_response(422, "invalid_json", message)
        code = _HTTP_CODES.get(exc.status_code, "error")
        message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
        body = error_body(code, localized(request, code, message))
        return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)

    async def on_db(request: Request, exc: Exception) -> JSONResponse:
        log.error("database error: %s", exc)
        message = localized(request, "database_unavailable", "the database cannot be reached; try again")
        return error_response(503, "database_unavailable", message)

    app.add_exception_handler(ServiceError, on_service_error)
    app.add_exception_handler(GammonError, on_gammon_error)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(DBAPIError, on_db)


__all__ = ["error_body", "error_response", "install_error_handlers", "status_of"]
