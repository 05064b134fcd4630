"""The rules pages, rendered on the server in the reader's language: ``/rules`` (the index),
``/rules/{variant}`` (one per variant of :data:`gammon.core.variants.VARIANTS`) and
``/rules/option/{slug}`` (one per option a game can be played with).

The sentences are the catalogs' (:mod:`gammon.web.rules_text`,
:mod:`gammon.web.rules_options_text`); the facts that core holds as data are read from core
when the page is drawn: each variant's checkers and start points (as a list and an SVG
diagram), whether it uses the cube and who plays the first move.  The game page links
here with the game's settings in the query (``?match_length=0&jacoby=true&...``, as
``GET /api/games/{id}`` gives them, and ``back=/game/{id}``); the variant's page then
lists which options are in force, read from :class:`gammon.core.rules.Rules` (the Jacoby
rule only in money play, and so on), never worked out in the browser.

The language is the request's (:func:`gammon.web.language.request_language`: the picker's
cookie, else ``Accept-Language``); an unknown name is a 404 page in that language.  No
script runs; every word from the request is escaped; the pages carry the board page's
headers.
"""

from __future__ import annotations

import re
from html import escape
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from gammon.core.errors import GammonError
from gammon.core.match_id import MAX_MATCH_LENGTH
from gammon.core.rules import Rules
from gammon.core.variants import VARIANTS, Variant, find_variant
from gammon.i18n import _, ngettext, use_language
from gammon.web.language import request_language
from gammon.web.routes.pages import PAGE_HEADERS
from gammon.web.rules_diagram import start_diagram
from gammon.web.rules_options_text import OPTION_COMMANDS, OPTION_TOPICS
from gammon.web.rules_text import VARIANT_TOPICS, Para, Topic

router = APIRouter(include_in_schema=False)

#: Where "back to the game" may lead: a game's or a watched game's page on this site, nothing else.
_BACK = re.compile(r"/(game|watch)/[A-Za-z0-9_-]{1,32}")
_HEADERS = {**PAGE_HEADERS, "Vary": "Accept-Language, Cookie"}
#: The longest page name echoed back on the "no such page" page.
_LONGEST_NAME = 40
#: The default settings, for the cube limit the standard page names.
_DEFAULT_RULES = Rules()


def variant_topic(variant: Variant) -> Topic:
    """The page text of ``variant``: its own, or its family's (two- and one-checker Hypergammon)."""
    return VARIANT_TOPICS[variant.name.rstrip("0123456789")]


def _title(variant: Variant) -> str:
    """The variant's name in the reader's language: the catalogs translate the titles that are words
    (``Dutch backgammon``, the small Hypergammons: the page's ``VARIANT_TITLES`` marks them); the other
    titles are names and stay as they are."""
    return _(variant.title)


def _blocks(paras: tuple[Para, ...], fields: dict[str, str]) -> str:
    out = []
    for para in paras:
        if isinstance(para, str):
            out.append(f"<p>{escape(_(para).format(**fields))}</p>")
        else:
            items = "".join(f"<li>{escape(_(item).format(**fields))}</li>" for item in para)
            out.append(f"<ul>{items}</ul>")
    return "".join(out)


def _topic_body(topic: Topic, fields: dict[str, str]) -> str:
    return "".join(f"<section><h2>{escape(_(s.heading))}</h2>{_blocks(s.body, fields)}</section>"
                   for s in topic.sections)


def _start_facts(v: Variant) -> str:
    """The variant's start as core holds it: checkers, points, the bar or pool, the cube, the first move."""
    n = v.checkers
    items = [ngettext("Each player has {count} checker.", "Each player has {count} checkers.", n)
             .format(count=n)]
    for point in range(24, 0, -1):
        count = v.start[point - 1]
        if count:
            text = ngettext("{count} checker on your {point}-point",
                            "{count} checkers on your {point}-point", count)
            items.append(text.format(count=count, point=point))
    waiting = v.start[24]
    if waiting and v.starts_in_pool:
        items.append(ngettext("{count} checker starts off the board, in the pool.",
                              "{count} checkers start off the board, in the pool.", waiting)
                     .format(count=waiting))
    elif waiting:
        items.append(ngettext("{count} checker starts off the board, on the bar.",
                              "{count} checkers start off the board, on the bar.", waiting)
                     .format(count=waiting))
    items.append(_("Your opponent's checkers stand the same way, counted from the opponent's side."))
    items.append(_("The doubling cube is used.") if v.cube else _("There is no doubling cube."))
    items.append(_("First move, unless the game says otherwise: the starter throws both dice anew.")
                 if v.opening == "reroll" else
                 _("First move, unless the game says otherwise: the starter plays the opening throw."))
    lis = "".join(f"<li>{escape(i)}</li>" for i in items)
    label = _("Start position of {variant}, seen from the player whose checkers are light").format(
        variant=_title(v))
    heading = escape(_("Start position"))
    return (f'<section><h2>{heading}</h2><figure>{start_diagram(v, label)}</figure>'
            f'<ul class="start">{lis}</ul></section>')


def _option_link(slug: str) -> str:
    topic = OPTION_TOPICS[slug]
    return f'<a href="/rules/option/{slug}">{escape(_(topic.title))}</a>'


def in_force(rules: Rules) -> list[str]:
    """The options of :data:`OPTION_TOPICS` that ``rules`` plays with, as :meth:`Rules.points_for` and the game
    read them: the money-only ones only in money play, beavers and automatic doubles only with the cube (the
    Jacoby rule counts gammons single without it too), none of the scoring ones in Acey-Deucey."""
    money_cube = rules.is_money and rules.uses_cube
    per_checker = rules.variant.pays_per_checker
    chosen = {"opening-reroll": rules.rerolls_opening,
              "jacoby": rules.is_money and rules.jacoby and not per_checker,
              "beavers": money_cube and rules.beavers,
              "automatic-doubles": money_cube and rules.automatic_doubles > 0,
              "no-gammons": not rules.gammons and not per_checker}
    return [slug for slug, on in chosen.items() if on]


def _this_game(rules: Rules) -> str:
    """The "this game" section: match or money, the cube, and each option in force, linked."""
    n = rules.match_length
    items = [escape(ngettext("A match to {count} point.", "A match to {count} points.", n).format(count=n))
             if n else escape(_("A money game."))]
    if n and rules.crawford:
        items.append(escape(_("The Crawford rule is used.")))
    if rules.uses_cube:
        items.append(escape(_("The doubling cube goes up to {limit}.").format(limit=rules.cube_limit)))
    else:
        items.append(escape(_("There is no doubling cube.")))
    for slug in in_force(rules):
        summary = escape(_(OPTION_TOPICS[slug].summary))
        if slug == "automatic-doubles":
            k = rules.automatic_doubles
            summary += " " + escape(ngettext("At most {count} in a game.", "At most {count} in a game.", k)
                                    .format(count=k))
        items.append(f"{_option_link(slug)}: {summary}")
    lis = "".join(f"<li>{i}</li>" for i in items)
    heading = escape(_("This game"))
    return f'<section class="this-game"><h2>{heading}</h2><ul>{lis}</ul></section>'


def _nav(current: str | None) -> str:
    """Links to every variant's and option's page (the current one marked, not linked)."""
    def link(href: str, text: str, here: bool) -> str:
        if here:
            return f'<li><a href="{href}" aria-current="page">{escape(text)}</a></li>'
        return f'<li><a href="{href}">{escape(text)}</a></li>'

    variants = "".join(link(f"/rules/{v.name}", _title(v), v.name == current) for v in VARIANTS.values())
    options = "".join(link(f"/rules/option/{t.slug}", _(t.title), f"option/{t.slug}" == current)
                      for t in OPTION_TOPICS.values())
    words = escape(_("Rules")), escape(_("Variants")), escape(_("Options"))
    return (f'<nav aria-label="{words[0]}"><h2>{words[1]}</h2><ul>{variants}</ul>'
            f'<h2>{words[2]}</h2><ul>{options}</ul></nav>')


def _page(language: str, title: str, body: str, back: str | None, current: str | None,
          status: int = 200) -> HTMLResponse:
    """The whole document: the top bar (home, the index, back to the game), ``body``, links to every page."""
    back_words, rules_words = escape(_("Back to the game")), escape(_("Rules"))
    back_link = (f' <a class="back" href="{escape(back)}">{back_words}</a>'
                 if back is not None and _BACK.fullmatch(back) else "")
    page = (f'<!doctype html>\n<html lang="{language}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{escape(title)} · gammon</title>'
            f'<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
            f'<link rel="stylesheet" href="/static/css/gammon.css"></head>'
            f'<body><header class="topbar"><a class="brand" href="/">gammon</a>'
            f' <a class="rules-home" href="/rules">{rules_words}</a>{back_link}</header>'
            f'<main class="rules">{body}{_nav(current)}</main></body></html>')
    return HTMLResponse(page, status_code=status, headers=_HEADERS)


def _not_found(request: Request, name: str) -> HTMLResponse:
    language = request_language(request)
    with use_language(language):
        title = _("No such rules page")
        said = escape(_("gammon has no rules page called “{name}”.").format(name=name))
        listed = escape(_("The variants and options gammon plays are listed below."))
        body = f"<h1>{escape(title)}</h1><p>{said}</p><p>{listed}</p>"
        return _page(language, title, body, None, None, 404)


@router.api_route("/rules", methods=["GET", "HEAD"])
async def rules_index(request: Request) -> HTMLResponse:
    language = request_language(request)
    with use_language(language):
        variants = "".join(f'<li><a href="/rules/{v.name}">{escape(_title(v))}</a>: '
                           f"{escape(_(variant_topic(v).summary))}</li>" for v in VARIANTS.values())
        options = "".join(f"<li>{_option_link(t.slug)}: {escape(_(t.summary))}</li>"
                          for t in OPTION_TOPICS.values())
        intro = escape(_("The rules of every game gammon plays, as gammon plays them."))
        words = escape(_("Rules")), escape(_("Variants")), escape(_("Options"))
        body = (f"<h1>{words[0]}</h1><p>{intro}</p><section><h2>{words[1]}</h2><ul>{variants}</ul></section>"
                f"<section><h2>{words[2]}</h2><ul>{options}</ul></section>")
        return _page(language, _("Rules"), body, None, None)


Flag = Annotated[bool | None, Query()]


@router.api_route("/rules/option/{slug}", methods=["GET", "HEAD"])
async def option_page(request: Request, slug: str,
                      back: Annotated[str | None, Query(max_length=64)] = None) -> HTMLResponse:
    topic = OPTION_TOPICS.get(slug)
    if topic is None:
        return _not_found(request, slug if len(slug) <= _LONGEST_NAME else slug[:_LONGEST_NAME] + "…")
    language = request_language(request)
    with use_language(language):
        fields = {"command": OPTION_COMMANDS.get(slug, "")}
        body = f"<h1>{escape(_(topic.title))}</h1><p class=\"summary\">{escape(_(topic.summary))}</p>"
        body += _topic_body(topic, fields)
        if slug == "opening-reroll":
            users = [v for v in VARIANTS.values() if v.opening == "reroll"]
            names = ", ".join(_title(v) for v in users)
            users_text = _("Variants that use it unless the game says otherwise: {variants}.").format(
                variants=names)
            body += f"<p>{escape(users_text)}</p>"
        return _page(language, _(topic.title), body, back, f"option/{slug}")


@router.api_route("/rules/{name}", methods=["GET", "HEAD"])
async def variant_page(
    request: Request, name: str,
    match_length: Annotated[int | None, Query(ge=0, le=MAX_MATCH_LENGTH)] = None,
    crawford: Flag = None, jacoby: Flag = None, beavers: Flag = None, gammons: Flag = None, cube: Flag = None,
    automatic_doubles: Annotated[int | None, Query(ge=0, le=12)] = None,
    cube_limit: Annotated[int | None, Query(ge=1, le=4096)] = None,
    opening: Annotated[Literal["use-opening-dice", "reroll"] | None, Query()] = None,
    back: Annotated[str | None, Query(max_length=64)] = None,
) -> Response:
    if len(name) > _LONGEST_NAME:  # no variant is called that; say so without echoing a page of it
        return _not_found(request, name[:_LONGEST_NAME] + "…")
    try:
        variant = find_variant(name)
    except GammonError:
        return _not_found(request, name)
    if variant.name != name:  # an alias or another spelling: the page has one address
        query = f"?{request.url.query}" if request.url.query else ""
        return RedirectResponse(f"/rules/{variant.name}{query}", status_code=308, headers=_HEADERS)
    given = {k: v for k, v in {"match_length": match_length, "crawford": crawford, "jacoby": jacoby,
                               "beavers": beavers, "gammons": gammons, "cube": cube,
                               "automatic_doubles": automatic_doubles, "cube_limit": cube_limit,
                               "opening": opening}.items() if v is not None}
    language = request_language(request)
    with use_language(language):
        topic = variant_topic(variant)
        body = f"<h1>{escape(_title(variant))}</h1><p class=\"summary\">{escape(_(topic.summary))}</p>"
        if given:
            try:
                body += _this_game(Rules(variant=variant, **given))  # type: ignore[arg-type]
            except GammonError:
                invalid = escape(_("The game settings in this link are not valid."))
                body += f'<p class="error">{invalid}</p>'
        body += _start_facts(variant)
        if variant.name != "standard":
            rest, link = escape(_("Everything not said here is as in standard backgammon:")), escape(
                _("the rules of backgammon"))
            body += f'<p>{rest} <a href="/rules/standard">{link}</a>.</p>'
        body += _topic_body(topic, {"cube_limit": str(_DEFAULT_RULES.cube_limit)})
        return _page(language, _title(variant), body, back, variant.name)


__all__ = ["in_force", "router", "variant_topic"]
