"""The page for finding an opponent (``/rated``), rendered on the server: sign up or log in, join
the rated queue for a match length, and the lists of who is online and the games being played.

``/static/js/rated.js`` sends the forms to the API (``POST /api/accounts``, ``/api/session``,
``/api/queue``), asks ``GET /api/queue`` every second while waiting, and once matched takes a token
for the account's seat and opens the game's page.  Names are HTML-escaped; the page carries the
board page's headers (no inline script or style).  English only for now.
"""

from __future__ import annotations

from html import escape

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from gammon.web.routes.pages import PAGE_HEADERS
from gammon.web.service.matchmaking import QUEUE_LENGTHS

router = APIRouter(include_in_schema=False)


def _body(online: list[str], games: list[tuple[str, str, str, int]]) -> str:
    lengths = "".join(f'<option value="{n}">{n} point{"s" if n > 1 else ""}</option>' for n in QUEUE_LENGTHS)
    people = "".join(f"<li>{escape(n)}</li>" for n in online) or "<li>Nobody.</li>"
    watch = "".join(f'<li><a href="/watch/{escape(g)}">{escape(a)} – {escape(b)}</a> ({n} points)</li>'
                    for g, a, b, n in games) or "<li>None.</li>"
    return (
        '<h1>Play a rated match</h1>'
        '<section class="account-box"><h2>Your account</h2>'
        '<p id="account-status">Sign up or log in to play rated matches.</p>'
        '<label>Name <input id="account-name" autocomplete="username" maxlength="24"></label> '
        '<label>Password <input id="account-password" type="password" autocomplete="current-password">'
        '</label> <button type="button" id="sign-up">Sign up</button> '
        '<button type="button" id="log-in">Log in</button></section>'
        '<section class="queue-box"><h2>Find an opponent</h2>'
        f'<label>Match <select id="queue-length">{lengths}</select></label> '
        '<button type="button" id="queue-join">Play a rated match</button> '
        '<button type="button" id="queue-leave">Leave the queue</button>'
        '<p id="queue-status"></p></section>'
        f'<section><h2>Online</h2><ul id="online">{people}</ul></section>'
        f'<section><h2>Games to watch</h2><ul id="live-games">{watch}</ul></section>'
    )


@router.api_route("/rated", methods=["GET", "HEAD"])
async def rated_page(request: Request) -> HTMLResponse:
    finding = request.app.state.finding
    games = [(g.game_id, g.players[0], g.players[1], g.match_length) for g in finding.live_games(50)]
    page = ('<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<title>Play a rated match · gammon</title>'
            '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
            '<link rel="stylesheet" href="/static/css/gammon.css">'
            '<script type="module" src="/static/js/rated.js"></script></head>'
            f'<body><main class="players rated">{_body(finding.presence.online(), games)}</main></body></html>')
    return HTMLResponse(page, headers=PAGE_HEADERS)


__all__ = ["router"]
