"""What the game service refuses, by kind: the web layer picks the HTTP status from the class."""

from __future__ import annotations

from gammon.core.errors import GammonError


class ServiceError(GammonError):
    """A request the service refuses; ``code`` names the reason for programs."""

    code = "bad_request"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class NotFoundError(ServiceError):
    code = "not_found"


class ForbiddenError(ServiceError):
    code = "forbidden"


class ConflictError(ServiceError):
    """The action does not fit the game's state (out of turn, illegal, stale version)."""

    code = "illegal_action"


class InvalidError(ServiceError):
    """The request itself is malformed or names impossible settings."""

    code = "invalid_request"


class GoneError(ServiceError):
    """What the request names existed once and is used up (an invitation already used)."""

    code = "invitation_used"


class BusyError(ServiceError):
    """Too much of this client's work is waiting already: ask again in ``retry_after`` seconds (429)."""

    code = "too_busy"

    def __init__(self, message: str, code: str | None = None, retry_after: float = 5.0) -> None:
        super().__init__(message, code)
        self.retry_after = retry_after


__all__ = ["BusyError", "ConflictError", "ForbiddenError", "GoneError", "InvalidError", "NotFoundError",
           "ServiceError"]
