"""The players' pages, rendered on the server: the leaderboard (``/players``) and a player's page
(``/players/{name}``) with the rating graph drawn in SVG.

No script runs on them and nothing is computed in the browser: the server
reads the same data as ``GET /api/leaderboard`` and ``GET /api/players/{name}``
and writes it out.  Every name and word from the database is HTML-escaped
(a player's name is whatever the name rules let them type).  The pages carry
the same headers as the board's page (the CSP allows no inline script or style:
the graph is drawn with SVG attributes only).
"""

from __future__ import annotations

from html import escape
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

from gammon.store.accounts import DELETED_NAME
from gammon.web.account_schemas import PlayerProfile
from gammon.web.rating_schemas import FinishedMatch
from gammon.web.routes.pages import PAGE_HEADERS
from gammon.web.routes.players import player_profile
from gammon.web.service import NotFoundError
from gammon.web.service.ratings import DEFAULT_MIN_EXPERIENCE, MAX_OFFSET, MAX_PAGE, RatingService

router = APIRouter(include_in_schema=False)

#: The graph's size in SVG units, and its margin for the labels.
WIDTH, HEIGHT, MARGIN = 600, 220, 40


def _html(title: str, body: str, status: int = 200) -> HTMLResponse:
    page = (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{escape(title)} · gammon</title>'
            f'<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
            f'<link rel="stylesheet" href="/static/css/gammon.css"></head>'
            f'<body><main class="players">{body}</main></body></html>')
    return HTMLResponse(page, status_code=status, headers=PAGE_HEADERS)


def _player_link(name: str) -> str:
    return f'<a href="/players/{escape(quote(name, safe=""))}">{escape(name)}</a>'


def rating_graph(points: list[tuple[float, float]]) -> str:
    """An SVG line through ``(x, rating)`` points (x in any unit, increasing), scaled to fit, with the
    lowest and highest rating written on the left."""
    if len(points) < 2:
        return '<p class="empty">No rated match yet.</p>'
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    lo, hi = min(ys), max(ys)
    span_y = (hi - lo) or 1.0
    span_x = (xs[-1] - xs[0]) or 1.0
    coords = " ".join(f"{MARGIN + (x - xs[0]) / span_x * (WIDTH - MARGIN - 10):.1f},"
                      f"{10 + (hi - y) / span_y * (HEIGHT - 30):.1f}" for x, y in points)
    return (f'<svg class="rating-graph" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
            f'role="img" aria-label="Rating after each rated match, from {lo:.2f} to {hi:.2f}">'
            f'<line x1="{MARGIN}" y1="10" x2="{MARGIN}" y2="{HEIGHT - 20}" stroke="#888"/>'
            f'<line x1="{MARGIN}" y1="{HEIGHT - 20}" x2="{WIDTH - 10}" y2="{HEIGHT - 20}" stroke="#888"/>'
            f'<text x="2" y="16" font-size="11">{hi:.0f}</text>'
            f'<text x="2" y="{HEIGHT - 20}" font-size="11">{lo:.0f}</text>'
            f'<polyline points="{coords}" fill="none" stroke="#1f5fa8" stroke-width="2"/></svg>')


def _opponent(m: FinishedMatch) -> str:
    """The opponent's name, linked to their page when they have one."""
    return _player_link(m.opponent) if m.kind == "rated" and m.opponent != DELETED_NAME else escape(m.opponent)


def _profile_body(p: PlayerProfile) -> str:
    # The graph starts at 1500, before the first rated match; one step per match.
    points = [(0.0, 1500.0)] + [(float(i + 1), pt.rating) for i, pt in enumerate(p.rating_history)]
    rows = "".join(
        f"<tr><td><a class=\"review-link\" href=\"/review/{escape(quote(m.game_id, safe=''))}\">"
        f"{escape(m.finished.strftime('%Y-%m-%d %H:%M'))}</a></td>"
        f"<td>{_opponent(m)}</td><td>{m.length}</td><td>{escape(m.result)}</td><td>{m.rating_change:+.2f}</td></tr>"
        for m in p.matches)
    r = p.record
    return (f"<h1>{escape(p.name)}</h1>"
            f"<p>Rating <strong>{p.rating:.2f}</strong>, experience {p.experience}; rated matches "
            f"{r.rated_wins} won, {r.rated_losses} lost; against the computer {r.computer_wins} won, "
            f"{r.computer_losses} lost.</p>"
            f"<h2>Rating</h2>{rating_graph(points)}"
            f"<h2>Matches</h2><table><thead><tr><th>Finished</th><th>Opponent</th><th>Points</th>"
            f"<th>Result</th><th>Rating</th></tr></thead><tbody>{rows}</tbody></table>"
            f'<p><a href="/players">Leaderboard</a></p>')


@router.api_route("/players/{name}", methods=["GET", "HEAD"])
async def player_page(name: Annotated[str, PathParam(min_length=1, max_length=100)],
                      request: Request) -> HTMLResponse:
    ratings: RatingService = request.app.state.ratings
    try:
        profile = await run_in_threadpool(player_profile, request.app.state.accounts, ratings, name)
    except NotFoundError:
        return _html("No such player", '<h1>No such player</h1><p><a href="/players">Leaderboard</a></p>', 404)
    return _html(profile.name, _profile_body(profile))


@router.api_route("/players", methods=["GET", "HEAD"])
async def leaderboard_page(request: Request,
                           min_experience: Annotated[int, Query(ge=0, le=1_000_000)] = DEFAULT_MIN_EXPERIENCE,
                           offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0) -> HTMLResponse:
    ratings: RatingService = request.app.state.ratings
    total, rows = await run_in_threadpool(ratings.leaderboard, min_experience, MAX_PAGE, offset)
    lines = "".join(f"<tr><td>{offset + i + 1}</td><td>{_player_link(r.name)}</td><td>{r.rating:.2f}</td>"
                    f"<td>{r.experience}</td><td>{r.rated_wins}–{r.rated_losses}</td></tr>"
                    for i, r in enumerate(rows))
    more = (f'<p><a href="/players?min_experience={min_experience}&amp;offset={offset + MAX_PAGE}">Next</a></p>'
            if offset + MAX_PAGE < total and offset + MAX_PAGE <= MAX_OFFSET else "")
    body = (f"<h1>Leaderboard</h1><p>FIBS ratings of the players with at least {min_experience} points of "
            f"rated matches ({total} players).</p><table><thead><tr><th>#</th><th>Player</th><th>Rating</th>"
            f"<th>Experience</th><th>Won–lost</th></tr></thead><tbody>{lines}</tbody></table>{more}")
    return _html("Leaderboard", body)


__all__ = ["rating_graph", "router"]
