"""The players' pages, rendered on the server: the leaderboard (``/players``) and a player's page
(``/players/{name}``) with the rating graph drawn in SVG.

No script runs on them and nothing is computed in the browser: the server
reads the same data as ``GET /api/leaderboard`` and ``GET /api/players/{name}``
and writes it out.  Every name and word from the database is HTML-escaped
(a player's name is whatever the name rules let them type).  The pages carry
the same headers as the board's page (the CSP allows no inline script or style:
the graph is drawn with SVG attributes only).  They are written in the request's
language (:func:`~gammon.web.language.request_language`), numbers as it writes them.
"""

from __future__ import annotations

from html import escape
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

from gammon.i18n import N_, _, ngettext, use_language
from gammon.i18n.numbers import decimal
from gammon.store.accounts import DELETED_NAME
from gammon.web.account_schemas import PlayerProfile
from gammon.web.language import request_language
from gammon.web.page_shell import server_page, shown_name
from gammon.web.rating_schemas import FinishedMatch
from gammon.web.routes.players import player_profile
from gammon.web.service import NotFoundError
from gammon.web.service.ratings import DEFAULT_MIN_EXPERIENCE, MAX_OFFSET, MAX_PAGE, RatingService

router = APIRouter(include_in_schema=False)

#: The graph's size in SVG units, and its margin for the labels.
WIDTH, HEIGHT, MARGIN = 600, 220, 40
#: A finished match's result as the API words it, in the reader's language.
_RESULTS = {"won": N_("won"), "lost": N_("lost")}


def _html(request: Request, title: str, body: str, status: int = 200) -> HTMLResponse:
    return server_page(request_language(request), title, body, main_class="players", status=status)


def _player_link(name: str) -> str:
    return f'<a href="/players/{escape(quote(name, safe=""))}">{escape(name)}</a>'


def rating_graph(points: list[tuple[float, float]]) -> str:
    """An SVG line through ``(x, rating)`` points (x in any unit, increasing), scaled to fit, with the
    lowest and highest rating written on the left."""
    if len(points) < 2:
        empty = escape(_("No rated match yet."))
        return f'<p class="empty">{empty}</p>'
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    lo, hi = min(ys), max(ys)
    span_y = (hi - lo) or 1.0
    span_x = (xs[-1] - xs[0]) or 1.0
    label = _("Rating after each rated match, from {low} to {high}").format(low=decimal(lo, 2),
                                                                           high=decimal(hi, 2))
    coords = " ".join(f"{MARGIN + (x - xs[0]) / span_x * (WIDTH - MARGIN - 10):.1f},"
                      f"{10 + (hi - y) / span_y * (HEIGHT - 30):.1f}" for x, y in points)
    return (f'<svg class="rating-graph" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
            f'role="img" aria-label="{escape(label)}">'
            f'<line x1="{MARGIN}" y1="10" x2="{MARGIN}" y2="{HEIGHT - 20}" stroke="#888"/>'
            f'<line x1="{MARGIN}" y1="{HEIGHT - 20}" x2="{WIDTH - 10}" y2="{HEIGHT - 20}" stroke="#888"/>'
            f'<text x="2" y="16" font-size="11">{hi:.0f}</text>'
            f'<text x="2" y="{HEIGHT - 20}" font-size="11">{lo:.0f}</text>'
            f'<polyline points="{coords}" fill="none" stroke="#1f5fa8" stroke-width="2"/></svg>')


def _opponent(m: FinishedMatch) -> str:
    """The opponent's name, linked to their page when they have one."""
    if m.kind == "rated" and m.opponent != DELETED_NAME:
        return _player_link(m.opponent)
    return escape(shown_name(m.opponent))


def _profile_body(p: PlayerProfile) -> str:
    # The graph starts at 1500, before the first rated match; one step per match.
    points = [(0.0, 1500.0)] + [(float(i + 1), pt.rating) for i, pt in enumerate(p.rating_history)]
    rows = "".join(
        f"<tr><td><a class=\"review-link\" href=\"/review/{escape(quote(m.game_id, safe=''))}\">"
        f"{escape(m.finished.strftime('%Y-%m-%d %H:%M'))}</a></td>"
        f"<td>{_opponent(m)}</td><td>{m.length}</td><td>{escape(_(_RESULTS.get(m.result, m.result)))}</td>"
        f"<td>{decimal(m.rating_change, 2, sign=True)}</td></tr>"
        for m in p.matches)
    r = p.record
    summary = escape(_("Rating {rating}, experience {experience}; rated matches {rated_wins} won, "
                       "{rated_losses} lost; against the computer {computer_wins} won, {computer_losses} "
                       "lost.")).format(
        rating=f"<strong>{decimal(p.rating, 2)}</strong>", experience=p.experience, rated_wins=r.rated_wins,
        rated_losses=r.rated_losses, computer_wins=r.computer_wins, computer_losses=r.computer_losses)
    heads = "".join(f"<th>{escape(_(word))}</th>" for word in (
        N_("Finished"), N_("Opponent"), N_("Points"), N_("Result"), N_("Rating")))
    rating, matches, board = escape(_("Rating")), escape(_("Matches")), escape(_("Leaderboard"))
    return (f"<h1>{escape(p.name)}</h1><p>{summary}</p>"
            f"<h2>{rating}</h2>{rating_graph(points)}"
            f"<h2>{matches}</h2><table><thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>"
            f'<p><a href="/players">{board}</a></p>')


@router.api_route("/players/{name}", methods=["GET", "HEAD"])
async def player_page(name: Annotated[str, PathParam(min_length=1, max_length=100)],
                      request: Request) -> HTMLResponse:
    ratings: RatingService = request.app.state.ratings
    with use_language(request_language(request)):
        try:
            profile = await run_in_threadpool(player_profile, request.app.state.accounts, ratings, name)
        except NotFoundError:
            none, board = escape(_("No such player")), escape(_("Leaderboard"))
            return _html(request, _("No such player"),
                         f'<h1>{none}</h1><p><a href="/players">{board}</a></p>', 404)
        return _html(request, profile.name, _profile_body(profile))


@router.api_route("/players", methods=["GET", "HEAD"])
async def leaderboard_page(request: Request,
                           min_experience: Annotated[int, Query(ge=0, le=1_000_000)] = DEFAULT_MIN_EXPERIENCE,
                           offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0) -> HTMLResponse:
    ratings: RatingService = request.app.state.ratings
    total, rows = await run_in_threadpool(ratings.leaderboard, min_experience, MAX_PAGE, offset)
    with use_language(request_language(request)):
        lines = "".join(f"<tr><td>{offset + i + 1}</td><td>{_player_link(r.name)}</td>"
                        f"<td>{decimal(r.rating, 2)}</td><td>{r.experience}</td>"
                        f"<td>{r.rated_wins}–{r.rated_losses}</td></tr>"
                        for i, r in enumerate(rows))
        following = escape(_("Next"))
        more = (f'<p><a href="/players?min_experience={min_experience}&amp;offset={offset + MAX_PAGE}">'
                f'{following}</a></p>'
                if offset + MAX_PAGE < total and offset + MAX_PAGE <= MAX_OFFSET else "")
        about = ngettext(
            "FIBS ratings of the players with at least {points} points of rated matches ({n} player).",
            "FIBS ratings of the players with at least {points} points of rated matches ({n} players).",
            total).format(points=min_experience, n=total)
        heads = "".join(f"<th>{escape(_(word))}</th>" for word in (
            N_("Player"), N_("Rating"), N_("Experience"), N_("Won–lost")))
        board = escape(_("Leaderboard"))
        body = (f"<h1>{board}</h1><p>{escape(about)}</p><table><thead><tr><th>#</th>{heads}"
                f"</tr></thead><tbody>{lines}</tbody></table>{more}")
        return _html(request, _("Leaderboard"), body)


__all__ = ["rating_graph", "router"]
