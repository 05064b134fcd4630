"""The browser pages: one HTML shell for every page URL, and the static files it loads.

``/`` (start a game), ``/game/{id}`` (play; the seat token travels in the URL
fragment, ``#token=...``, which browsers never send to the server),
``/join/{id}`` (``#invite=...``: takes the invited seat, then goes to the game)
and ``/watch/{id}`` (spectate) all serve ``static/index.html``; its JavaScript
modules pick the page from the path.  Everything is served from the package:
no build step and nothing fetched from elsewhere.

The page's language is written into the shell's ``<html lang>``: the ``gammon_lang``
cookie that the page's language picker sets, else the request's ``Accept-Language``
(:func:`~gammon.web.language.request_language`); the scripts then load
``/static/i18n/<lang>.json``, generated from the gettext catalogs.  In English the shell
is the file itself, byte for byte.
"""

from __future__ import annotations

import html
from functools import cache
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, FastAPI, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

from gammon.i18n import DEFAULT, N_, _, use_language
from gammon.web.language import LANGUAGE_COOKIE, request_language

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"

#: Sent with the page: no outside scripts, styles or connections (``connect-src 'self'`` covers the
#: page's own WebSocket in current browsers); no referrer; not framed.
PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}

router = APIRouter(include_in_schema=False)

GameId = Annotated[str, PathParam(min_length=1, max_length=32)]


_ENGLISH_TAG = '<html lang="en">'
#: The shell's own words (the scripts replace the first at once; the second shows without them).
_SHELL_TEXTS = (N_("Loading…"), N_("gammon's board needs JavaScript."))


@cache
def _shell(language: str) -> bytes:
    """The page shell with ``<html lang>`` naming ``language`` and its words in it."""
    text = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    with use_language(language):
        for english in _SHELL_TEXTS:
            text = text.replace(f">{english}<", f">{html.escape(_(english), quote=False)}<")
    return text.replace(_ENGLISH_TAG, f'<html lang="{language}">', 1).encode("utf-8")


def _page(request: Request) -> Response:
    language = request_language(request)
    headers = {**PAGE_HEADERS, "Vary": "Accept-Language, Cookie"}
    if language == DEFAULT:
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html", headers=headers)
    return HTMLResponse(_shell(language), headers=headers)


@router.api_route("/", methods=["GET", "HEAD"])
async def start_page(request: Request) -> Response:
    return _page(request)


@router.api_route("/game/{game_id}", methods=["GET", "HEAD"])
async def game_page(request: Request, game_id: GameId) -> Response:
    return _page(request)


@router.api_route("/join/{game_id}", methods=["GET", "HEAD"])
async def join_page(request: Request, game_id: GameId) -> Response:
    return _page(request)


@router.api_route("/watch/{game_id}", methods=["GET", "HEAD"])
async def watch_page(request: Request, game_id: GameId) -> Response:
    return _page(request)


def install_pages(app: FastAPI) -> None:
    """Serve the pages and ``/static/...`` from ``app``."""
    from gammon.web.player_pages import router as player_pages
    from gammon.web.rated_page import router as rated_pages
    from gammon.web.review_page import router as review_pages
    from gammon.web.rules_pages import router as rules_pages

    app.include_router(router)
    app.include_router(player_pages)  # the leaderboard and the players' pages
    app.include_router(review_pages)  # a finished match's review
    app.include_router(rated_pages)  # finding an opponent: the rated queue
    app.include_router(rules_pages)  # the rules of each variant and option
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")


__all__ = ["LANGUAGE_COOKIE", "STATIC_DIR", "install_pages", "router"]
