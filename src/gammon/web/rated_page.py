"""The page for finding an opponent (``/rated``), rendered on the server: sign up or log in, join
the rated queue for a match length, and the lists of who is online and the games being played.

``/static/js/rated.js`` sends the forms to the API (``POST /api/accounts``, ``/api/session``,
``/api/queue``), asks ``GET /api/queue`` every second while waiting, and once matched takes a token
for the account's seat and opens the game's page.  Names are HTML-escaped; the page carries the
board page's headers (no inline script or style).  The page is written in the request's language
(the words of ``rated.js`` come from the same catalogs).
"""

from __future__ import annotations

from html import escape

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from gammon.i18n import N_, _, ngettext, use_language
from gammon.web.language import request_language
from gammon.web.page_shell import server_page
from gammon.web.service.matchmaking import QUEUE_LENGTHS

router = APIRouter(include_in_schema=False)

#: The page's fixed words.
_WORDS = {
    "title": N_("Play a rated match"), "account": N_("Your account"),
    "sign_in": N_("Sign up or log in to play rated matches."), "name": N_("Name"), "password": N_("Password"),
    "sign_up": N_("Sign up"), "log_in": N_("Log in"), "find": N_("Find an opponent"), "match": N_("Match"),
    "leave": N_("Leave the queue"), "online": N_("Online"), "watch": N_("Games to watch"),
    "nobody": N_("Nobody."), "none": N_("None."),
}


def _points(n: int) -> str:
    """``n`` points, escaped: ``3 points``, ``3 punkty``."""
    return escape(ngettext("{n} point", "{n} points", n).format(n=n))


def _body(online: list[str], games: list[tuple[str, str, str, int]]) -> str:
    """The page's body in the current language: the account box, the queue, who is online, the games."""
    w = {key: escape(_(text)) for key, text in _WORDS.items()}
    lengths = "".join(f'<option value="{n}">{_points(n)}</option>' for n in QUEUE_LENGTHS)
    people = "".join(f"<li>{escape(n)}</li>" for n in online) or f"<li>{w['nobody']}</li>"
    watch = "".join(f'<li><a href="/watch/{escape(g)}">{escape(a)} – {escape(b)}</a> '
                    f'({_points(n)})</li>'
                    for g, a, b, n in games) or f"<li>{w['none']}</li>"
    return (
        f'<h1>{w["title"]}</h1>'
        f'<section class="account-box"><h2>{w["account"]}</h2>'
        f'<p id="account-status">{w["sign_in"]}</p>'
        f'<label>{w["name"]} <input id="account-name" autocomplete="username" maxlength="24"></label> '
        f'<label>{w["password"]} <input id="account-password" type="password" autocomplete="current-password">'
        f'</label> <button type="button" id="sign-up">{w["sign_up"]}</button> '
        f'<button type="button" id="log-in">{w["log_in"]}</button></section>'
        f'<section class="queue-box"><h2>{w["find"]}</h2>'
        f'<label>{w["match"]} <select id="queue-length">{lengths}</select></label> '
        f'<button type="button" id="queue-join">{w["title"]}</button> '
        f'<button type="button" id="queue-leave">{w["leave"]}</button>'
        '<p id="queue-status"></p></section>'
        f'<section><h2>{w["online"]}</h2><ul id="online">{people}</ul></section>'
        f'<section><h2>{w["watch"]}</h2><ul id="live-games">{watch}</ul></section>'
    )


@router.api_route("/rated", methods=["GET", "HEAD"])
async def rated_page(request: Request) -> HTMLResponse:
    finding = request.app.state.finding
    games = [(g.game_id, g.players[0], g.players[1], g.match_length) for g in finding.live_games(50)]
    language = request_language(request)
    with use_language(language):
        return server_page(language, _("Play a rated match"), _body(finding.presence.online(), games),
                           main_class="players rated", scripts=("rated.js",))


__all__ = ["router"]
