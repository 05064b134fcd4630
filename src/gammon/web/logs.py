"""The server's log: one format for every line, with anything token-shaped blotted out.

No credential travels in a URL any more (sockets authenticate by their first
message, invitations ride in the URL fragment), so no request line should hold
one.  :class:`RedactingFormatter` is the second line of defence: whatever a log
line says (a request line, an exception message, a traceback), the last step
before it is written replaces

* the value of any ``token``, ``invite``, ``password`` or ``session`` parameter
  (``token=...``) and of any JSON field of those names,
* the credentials after ``Bearer``,
* and any run of 40 or more URL-safe base64 characters (every seat token and
  invitation is 43 of them)

with ``[redacted]``.  :func:`configure_logging` installs it on the root logger,
which uvicorn's loggers reach too (gammon configures them to propagate).
"""

from __future__ import annotations

import logging
import re
import sys

REDACTED = "[redacted]"

_SECRET_NAMES = r"(?:token|invite|invite_token|password|session|session_id)"
_PATTERNS = (
    re.compile(r"(?i)(\b" + _SECRET_NAMES + r"=)[^&\s\"']+"),
    re.compile(r"(?i)(\"" + _SECRET_NAMES + r"\"\s*:\s*\")[^\"]*"),
    re.compile(r"(?i)(\bbearer\s+)\S+"),
)
_TOKEN_SHAPED = re.compile(r"[A-Za-z0-9_\-]{40,}")

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def redact(text: str) -> str:
    """``text`` with every token-shaped part replaced by ``[redacted]``."""
    for pattern in _PATTERNS:
        text = pattern.sub(lambda m: m.group(1) + REDACTED, text)
    return _TOKEN_SHAPED.sub(REDACTED, text)


class RedactingFormatter(logging.Formatter):
    """A formatter whose whole output (message, exception and stack) passes through :func:`redact`."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


def configure_logging(level: str = "info", access_log: bool = False) -> None:
    """Send every log line (gammon's, uvicorn's, SQLAlchemy's) to standard error through the redactor.

    uvicorn's own loggers lose their handlers and propagate to the root logger, so no
    line escapes the formatter; its access log is silenced unless ``access_log``.
    """
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(RedactingFormatter(FORMAT))
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi"):
        logger = logging.getLogger(name)
        logger.handlers = []
        logger.propagate = True
    logging.getLogger("uvicorn.access").disabled = not access_log
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)


__all__ = ["REDACTED", "RedactingFormatter", "configure_logging", "redact"]
