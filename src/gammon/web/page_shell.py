"""The frame of the pages the server renders (the players' pages, ``/rated``, the review pages):
``<html lang>`` naming the request's language, the title, the styles and scripts, the headers.

The language is the one the browser page's shell uses (:func:`~gammon.web.language.request_language`:
the picker's ``gammon_lang`` cookie, else ``Accept-Language``); the caller renders its body
inside :func:`gammon.i18n.use_language` with it, so every ``_()`` of the body is in that
language, and numbers go through :mod:`gammon.i18n.numbers` (a decimal comma in Norwegian,
Swedish, Danish and Polish).  The answer varies with those two headers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape

from fastapi.responses import HTMLResponse

from gammon.i18n import _
from gammon.play.levels import LEVELS
from gammon.web.routes.pages import PAGE_HEADERS

#: The names the server gives a seat nobody named: the computer's (by level) and an invited guest's.
_COMPUTER_NAME = re.compile(r"Computer \(([a-z-]+)\)")
_GUEST_NAME = "Guest"


def shown_name(name: str) -> str:
    """A seat's name as a page shows it: the server's own names for the computer (``Computer (expert)``)
    and an invited guest (``Guest``) in the current language, a person's name as it is."""
    found = _COMPUTER_NAME.fullmatch(name)
    if found is not None and found.group(1) in LEVELS:
        return _("Computer ({level})").format(level=found.group(1))
    return _("Guest") if name == _GUEST_NAME else name


def server_page(language: str, title: str, body: str, *, main_class: str, status: int = 200,
                styles: Sequence[str] = (), scripts: Sequence[str] = (), refresh: bool = False) -> HTMLResponse:
    """A whole HTML page around ``body`` (already escaped HTML) in ``language``.

    ``styles`` and ``scripts`` are file names under ``/static/css`` and ``/static/js`` (modules);
    ``refresh`` reloads the page every three seconds (while an analysis is being made)."""
    again = '<meta http-equiv="refresh" content="3">' if refresh else ""
    links = "".join(f'<link rel="stylesheet" href="/static/css/{escape(name)}">'
                    for name in ("gammon.css", *styles))
    modules = "".join(f'<script type="module" src="/static/js/{escape(name)}"></script>' for name in scripts)
    page = (f'<!doctype html>\n<html lang="{escape(language)}"><head><meta charset="utf-8">{again}'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{escape(title)} · gammon</title>'
            f'<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">{links}{modules}</head>'
            f'<body><main class="{escape(main_class)}">{body}</main></body></html>')
    return HTMLResponse(page, status_code=status, headers={**PAGE_HEADERS, "Vary": "Accept-Language, Cookie"})


__all__ = ["server_page", "shown_name"]
