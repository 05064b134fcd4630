"""The browser pages: one HTML shell for every page URL, and the static files it loads.

``/`` (start a game), ``/game/{id}`` (play; the seat token travels in the URL
fragment, ``#token=...``, which browsers never send to the server),
``/join/{id}`` (``#invite=...``: takes the invited seat, then goes to the game)
and ``/watch/{id}`` (spectate) all serve ``static/index.html``; its JavaScript
modules pick the page from the path.  Everything is served from the package:
no build step and nothing fetched from elsewhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, FastAPI
from fastapi import Path as PathParam
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

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


def _page() -> FileResponse:
    return FileResponse(STATIC_DIR / "index.html", media_type="text/html", headers=PAGE_HEADERS)


@router.api_route("/", methods=["GET", "HEAD"])
async def start_page() -> FileResponse:
    return _page()


@router.api_route("/game/{game_id}", methods=["GET", "HEAD"])
async def game_page(game_id: GameId) -> FileResponse:
    return _page()


@router.api_route("/join/{game_id}", methods=["GET", "HEAD"])
async def join_page(game_id: GameId) -> FileResponse:
    return _page()


@router.api_route("/watch/{game_id}", methods=["GET", "HEAD"])
async def watch_page(game_id: GameId) -> FileResponse:
    return _page()


def install_pages(app: FastAPI) -> None:
    """Serve the pages and ``/static/...`` from ``app``."""
    from gammon.web.player_pages import router as player_pages
    from gammon.web.rated_page import router as rated_pages
    from gammon.web.review_page import router as review_pages

    app.include_router(router)
    app.include_router(player_pages)  # the leaderboard and the players' pages
    app.include_router(review_pages)  # a finished match's review
    app.include_router(rated_pages)  # finding an opponent: the rated queue
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")


__all__ = ["STATIC_DIR", "install_pages", "router"]
