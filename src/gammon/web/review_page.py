"""The review page of a finished match, rendered on the server: ``/review/{game_id}``.

The board after every play (SVG from :func:`gammon.analysis.board_svg.board_svg`), the analysis
beside it once made (the equity graph, each play with a choice marked with its cost and the
better play, the players' error rates and luck) and the downloads (.mat, SGF, JSON).  The
analysis is the same as ``GET /api/games/{id}/analysis`` (queued on the first visit: the page
reloads itself until it is made).  ``/static/js/review.js`` steps through the boards with
buttons and the arrow keys; it only shows and hides what the server wrote (no rules in the
browser), and without it every board is listed.  Names are HTML-escaped; the page carries the
board page's headers (no inline script or style).  It is written in the request's language,
numbers as that language writes them.
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
from gammon.i18n import _, current_language, use_language
from gammon.i18n.numbers import decimal
from gammon.web.language import request_language
from gammon.web.page_shell import server_page, shown_name
from gammon.web.ratelimit import client_key
from gammon.web.schemas import AnalysisResult, PlayReview
from gammon.web.service.analysis import in_language
from gammon.web.service.errors import BusyError, ConflictError, NotFoundError
from gammon.web.service.review import Frame, Review, review_of

router = APIRouter(include_in_schema=False)
GameId = Annotated[str, PathParam(min_length=1, max_length=32)]


def _html(request: Request, title: str, body: str, status: int = 200, refresh: bool = False) -> HTMLResponse:
    return server_page(request_language(request), title, body, main_class="review", status=status,
                       styles=("review.css", "themes.css"), scripts=("review.js",), refresh=refresh)


def _heading(title: str, text: str = "") -> str:
    """A page's heading (and a line under it) for an answer with nothing to review."""
    return f"<h1>{escape(title)}</h1>" + (f"<p>{escape(text)}</p>" if text else "")


def _frame(i: int, f: Frame, names: tuple[str, str], marks: dict[int, PlayReview]) -> str:
    dice = f"{f.dice[0]}{f.dice[1]}" if f.dice else ""
    mark = marks.get(f.seq)
    note = ""
    if mark is not None and mark.mark:
        note = escape(_("{mark} costs {loss}; better: {best}")).format(
            mark=f"<b>{escape(mark.mark)}</b>", loss=decimal(mark.loss, 3),
            best=f"<b>{escape(mark.best or '')}</b>")
        note = f'<p class="error-note">{note}</p>'
    words = _("{number}. game {game}: {name} {dice}: {play}")
    caption = escape(words).format(number=i + 1, game=f.game, name=escape(names[f.player]), dice=dice,
                                   play=escape(f.play))
    label = words.format(number=i + 1, game=f.game, name=names[f.player], dice=dice, play=f.play)
    svg = board_svg(f.position, cube=f.cube, cube_owner=f.cube_owner, label=label)
    return (f'<section class="frame" id="move-{i + 1}" data-seq="{f.seq}"><h3>{caption}</h3>{note}'
            f'{svg}</section>')


def _analysis(result: AnalysisResult | None, why: str | None, names: tuple[str, str]) -> str:
    if result is None or result.status != "done":
        running = _("The analysis is running ({done}/{total} decisions); this page reloads itself.")
        text = why or (running.format(done=result.done, total=result.total)
                       if result is not None and result.status == "running"
                       else _("No analysis: {reason}").format(reason=result.message or _("it failed"))
                       if result else "")
        heading = escape(_("Analysis"))
        return f'<section class="analysis"><h2>{heading}</h2><p>{escape(text)}</p></section>'
    graph = ""
    if result.graph_svg:
        data = base64.b64encode(result.graph_svg.encode()).decode()
        alt = escape(_("Equity graph"))
        graph = f'<img class="equity-graph" alt="{alt}" src="data:image/svg+xml;base64,{data}">'
    players = (result.report or {}).get("players", [])
    rows = "".join(_player_row(n, p) for n, p in zip(names, players, strict=False))
    errors = "".join(
        f'<li data-seq="{p.seq}"><b>{escape(p.mark or "")}</b> '
        + escape(_("game {game}, move {move}: played {played}, better {best} (costs {loss})").format(
            game=p.game, move=p.seq, played=p.played or "", best=p.best or "", loss=decimal(p.loss, 3)))
        + "</li>" for p in result.plays if p.mark)
    heads = "".join(f"<th>{escape(word)}</th>" for word in (
        _("Player"), _("Error rate (mEMG)"), "PR", _("Luck (EMG)")))
    none, heading, errors_heading = escape(_("None.")), escape(_("Analysis")), escape(_("Errors"))
    return (f'<section class="analysis"><h2>{heading}</h2>{graph}<table class="players-analysis">'
            f'<tr>{heads}</tr>{rows}</table>'
            f'<h3>{errors_heading}</h3><ol class="errors">{errors or f"<li>{none}</li>"}</ol></section>')


def _player_row(name: str, p: dict[str, Any]) -> str:
    return (f"<tr><td>{escape(name)}</td><td>{escape(rate(p['error_rate']))}</td>"
            f"<td>{escape(rate(p['pr']))}</td><td>{escape(signed(p['luck']))}</td></tr>")


def _downloads(game_id: str) -> str:
    base = f"/api/games/{escape(game_id)}/export"
    download = escape(_("Download:"))
    return (f'<p class="downloads">{download} <a href="{base}.mat">.mat</a> · '
            f'<a href="{base}.sgf">SGF</a> · <a href="{base}.json">JSON</a></p>')


def render_review(review: Review, result: AnalysisResult | None, why: str | None,
                  downloads: bool = True) -> str:
    """The page's body for ``review`` and its analysis (None, with ``why``: none to show), the
    analysis already in the page's language (:func:`in_language`, off the event loop)."""
    marks = {p.seq: p for p in (result.plays if result is not None else [])}
    names = (shown_name(review.names[0]), shown_name(review.names[1]))
    frames = "".join(_frame(i, f, names, marks) for i, f in enumerate(review.frames))
    steps = (("first", "⏮", _("First move")), ("prev", "◀", _("Previous move")), ("next", "▶", _("Next move")),
             ("last", "⏭", _("Last move")))
    buttons = [f'<button type="button" data-step="{step}" title="{escape(word)}" aria-label="{escape(word)}">'
               f'{sign}</button>' for step, sign, word in steps]
    controls = (f'<nav class="review-controls">{buttons[0]}{buttons[1]}<span class="review-at"></span>'
                f'{buttons[2]}{buttons[3]}</nav>')
    title = f"{escape(names[0])} – {escape(names[1])}"
    about = _("{length}-point match, {score}").format(length=review.match_length,
                                                     score=f"{review.score[0]}–{review.score[1]}")
    return (f'<h1>{title}</h1><p>{escape(about)}</p>'
            f'{_downloads(review.game_id) if downloads else ""}'
            f'<div class="review-layout"><div class="review-boards">{controls}'
            f'{frames}</div>{_analysis(result, why, names)}</div>')


@router.api_route("/review/{game_id}", methods=["GET", "HEAD"])
async def review_page(game_id: GameId, request: Request) -> HTMLResponse:
    service = request.app.state.service
    with use_language(request_language(request)):
        try:
            review = await run_in_threadpool(review_of, service.store, game_id)
        except NotFoundError:
            return _html(request, _("No such match"), _heading(_("No such match")), 404)
        except ConflictError:
            return _html(request, _("Not over"), _heading(_("This match is not over yet"),
                                                          _("It is reviewed when it ends.")), 409)
        result: AnalysisResult | None = None
        why = None
        try:
            # In the page's language (the graph drawn off the event loop, once per language).
            result = await run_in_threadpool(service.analysis, game_id, None, client_key(request.scope),
                                             current_language())
        except BusyError:
            why = _("Too many analyses are waiting for your address; reload in a while.")
        refresh = result is not None and result.status == "running"
        return _html(request, _review_title(review), render_review(review, result, why), refresh=refresh)


def _review_title(review: Review) -> str:
    return _("Review: {first} – {second}").format(first=shown_name(review.names[0]),
                                                  second=shown_name(review.names[1]))


@router.api_route("/review/upload/{upload_id}", methods=["GET", "HEAD"])
async def upload_page(upload_id: GameId, request: Request) -> HTMLResponse:
    service = request.app.state.service
    upload = request.app.state.uploads.get(upload_id)
    with use_language(request_language(request)):
        if upload is None:
            return _html(request, _("No such upload"), _heading(_("No such upload"),
                                                                _("Uploads are kept for a while only.")), 404)
        result: AnalysisResult | None = service.analyses.known(upload.snapshot.game_id)
        why = None
        if result is None:
            try:
                result = service.analyses.start(upload.snapshot, client_key(request.scope), player=False)
            except BusyError:
                why = _("Too many analyses are waiting for your address; reload in a while.")
        if result is not None:
            result = await run_in_threadpool(in_language, result, current_language())
        review = upload.review
        return _html(request, _review_title(review), render_review(review, result, why, False),
                     refresh=result is not None and result.status == "running")


__all__ = ["render_review", "router"]
