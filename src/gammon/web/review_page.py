"""The review page of a finished match, rendered on the server: ``/review/{game_id}``.

The board after every play (SVG from :func:`gammon.analysis.board_svg.board_svg`), the analysis
beside it once made (the equity graph, each play with a choice marked with its cost and the
better play, the players' error rates and luck) and the downloads (.mat, SGF, JSON).  The
analysis is the same as ``GET /api/games/{id}/analysis`` (queued on the first visit: the page
reloads itself until it is made).  ``/static/js/review.js`` steps through the boards with
buttons and the arrow keys; it only shows and hides what the server wrote (no rules in the
browser), and without it every board is listed.  Names are HTML-escaped; the page carries the
board page's headers (no inline script or style).
"""

from __future__ import annotations

import base64
from html import escape
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

from gammon.analysis.board_svg import board_svg
from gammon.analysis.text import rate, signed
from gammon.web.ratelimit import client_key
from gammon.web.routes.pages import PAGE_HEADERS
from gammon.web.schemas import AnalysisResult, PlayReview
from gammon.web.service.errors import BusyError, ConflictError, NotFoundError
from gammon.web.service.review import Frame, Review, review_of

router = APIRouter(include_in_schema=False)
GameId = Annotated[str, PathParam(min_length=1, max_length=32)]


def _html(title: str, body: str, status: int = 200, refresh: bool = False) -> HTMLResponse:
    again = '<meta http-equiv="refresh" content="3">' if refresh else ""
    page = (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">{again}'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{escape(title)} · gammon</title>'
            f'<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
            f'<link rel="stylesheet" href="/static/css/gammon.css">'
            f'<link rel="stylesheet" href="/static/css/review.css">'
            f'<link rel="stylesheet" href="/static/css/themes.css">'
            f'<script type="module" src="/static/js/review.js"></script></head>'
            f'<body><main class="review">{body}</main></body></html>')
    return HTMLResponse(page, status_code=status, headers=PAGE_HEADERS)


def _frame(i: int, f: Frame, names: tuple[str, str], marks: dict[int, PlayReview]) -> str:
    dice = f"{f.dice[0]}{f.dice[1]}" if f.dice else ""
    mark = marks.get(f.seq)
    note = ""
    if mark is not None and mark.mark:
        note = (f'<p class="error-note"><b>{escape(mark.mark)}</b> costs {mark.loss:.3f}; '
                f'better: <b>{escape(mark.best or "")}</b></p>')
    caption = f"{i + 1}. game {f.game}: {escape(names[f.player])} {dice}: {escape(f.play)}"
    svg = board_svg(f.position, cube=f.cube, cube_owner=f.cube_owner,
                    label=f"{i + 1}. game {f.game}: {names[f.player]} {dice}: {f.play}")
    return (f'<section class="frame" id="move-{i + 1}" data-seq="{f.seq}"><h3>{caption}</h3>{note}'
            f'{svg}</section>')


def _analysis(result: AnalysisResult | None, why: str | None, names: tuple[str, str]) -> str:
    if result is None or result.status != "done":
        text = why or (f"The analysis is running ({result.done}/{result.total} decisions); this page "
                       "reloads itself." if result is not None and result.status == "running"
                       else "No analysis: " + escape(result.message or "it failed") if result else "")
        return f'<section class="analysis"><h2>Analysis</h2><p>{escape(text)}</p></section>'
    graph = ""
    if result.graph_svg:
        data = base64.b64encode(result.graph_svg.encode()).decode()
        graph = f'<img class="equity-graph" alt="Equity graph" src="data:image/svg+xml;base64,{data}">'
    players = (result.report or {}).get("players", [])
    rows = "".join(_player_row(n, p) for n, p in zip(names, players, strict=False))
    errors = "".join(
        f'<li data-seq="{p.seq}"><b>{escape(p.mark or "")}</b> game {p.game}, move {p.seq}: played '
        f'{escape(p.played or "")}, better {escape(p.best or "")} (costs {p.loss:.3f})</li>'
        for p in result.plays if p.mark)
    return (f'<section class="analysis"><h2>Analysis</h2>{graph}<table class="players-analysis">'
            f'<tr><th>Player</th><th>Error rate (mEMG)</th><th>PR</th><th>Luck (EMG)</th></tr>{rows}</table>'
            f'<h3>Errors</h3><ol class="errors">{errors or "<li>None.</li>"}</ol></section>')


def _player_row(name: str, p: dict[str, Any]) -> str:
    return (f"<tr><td>{escape(name)}</td><td>{escape(rate(p['error_rate']))}</td>"
            f"<td>{escape(rate(p['pr']))}</td><td>{escape(signed(p['luck']))}</td></tr>")


def _downloads(game_id: str) -> str:
    base = f"/api/games/{escape(game_id)}/export"
    return (f'<p class="downloads">Download: <a href="{base}.mat">.mat</a> · <a href="{base}.sgf">SGF</a> · '
            f'<a href="{base}.json">JSON</a></p>')


def render_review(review: Review, result: AnalysisResult | None, why: str | None,
                  downloads: bool = True) -> str:
    """The page's body for ``review`` and its analysis (None, with ``why``: none to show)."""
    marks = {p.seq: p for p in (result.plays if result is not None else [])}
    names = review.names
    frames = "".join(_frame(i, f, names, marks) for i, f in enumerate(review.frames))
    controls = ('<nav class="review-controls"><button type="button" data-step="first">⏮</button>'
                '<button type="button" data-step="prev">◀</button><span class="review-at"></span>'
                '<button type="button" data-step="next">▶</button>'
                '<button type="button" data-step="last">⏭</button></nav>')
    title = f"{escape(names[0])} – {escape(names[1])}"
    return (f'<h1>{title}</h1><p>{review.match_length}-point match, {review.score[0]}–{review.score[1]}</p>'
            f'{_downloads(review.game_id) if downloads else ""}'
            f'<div class="review-layout"><div class="review-boards">{controls}'
            f'{frames}</div>{_analysis(result, why, names)}</div>')


@router.api_route("/review/{game_id}", methods=["GET", "HEAD"])
async def review_page(game_id: GameId, request: Request) -> HTMLResponse:
    service = request.app.state.service
    try:
        review = await run_in_threadpool(review_of, service.store, game_id)
    except NotFoundError:
        return _html("No such match", "<h1>No such match</h1>", 404)
    except ConflictError:
        return _html("Not over", "<h1>This match is not over yet</h1><p>It is reviewed when it ends.</p>", 409)
    result: AnalysisResult | None = None
    why = None
    try:
        result = await run_in_threadpool(service.analysis, game_id, None, client_key(request.scope))
    except BusyError:
        why = "Too many analyses are waiting for your address; reload in a while."
    refresh = result is not None and result.status == "running"
    return _html(f"Review: {review.names[0]} – {review.names[1]}", render_review(review, result, why),
                 refresh=refresh)


@router.api_route("/review/upload/{upload_id}", methods=["GET", "HEAD"])
async def upload_page(upload_id: GameId, request: Request) -> HTMLResponse:
    service = request.app.state.service
    upload = request.app.state.uploads.get(upload_id)
    if upload is None:
        return _html("No such upload", "<h1>No such upload</h1><p>Uploads are kept for a while only.</p>", 404)
    result: AnalysisResult | None = service.analyses.known(upload.snapshot.game_id)
    why = None
    if result is None:
        try:
            result = service.analyses.start(upload.snapshot, client_key(request.scope), player=False)
        except BusyError:
            why = "Too many analyses are waiting for your address; reload in a while."
    review = upload.review
    return _html(f"Review: {review.names[0]} – {review.names[1]}", render_review(review, result, why, False),
                 refresh=result is not None and result.status == "running")


__all__ = ["render_review", "router"]
