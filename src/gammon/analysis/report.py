"""The HTML report of an analysis, and the after-game bundle the browser's page asks for.

The report is one self-contained HTML file: the players' figures (checker and
cube marks apart), the equity graph (SVG, embedded), the whole move list with
every mark (:mod:`gammon.analysis.move_list`) and, for every error and
blunder, the board before the decision, the board after the play made beside
the board after the better play, the alternatives and the reason in words.

The report is written in the current language (:mod:`gammon.i18n`: ``gammon analyse --lang``),
numbers as that language writes them; the reasons in words are the analysis's own (English).
"""

from __future__ import annotations

from html import escape
from typing import Any

from gammon.analysis.analyse import MatchAnalysis
from gammon.analysis.board_svg import board_svg, changed_points
from gammon.analysis.decisions import Decision
from gammon.analysis.graph import graph_svg
from gammon.analysis.marks import SYMBOLS
from gammon.analysis.move_list import mistake_anchor, move_list_html
from gammon.analysis.text import decision_title, mark_word, rate, signed
from gammon.analysis.words import explanation_text
from gammon.core.position import Position
from gammon.i18n import N_, _, current_language, ngettext
from gammon.i18n.numbers import decimal, percent

_CSS = """
body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
h1{font-size:22px}h2{font-size:18px;margin-top:28px}
table{border-collapse:collapse;margin:8px 0}
td,th{border-bottom:1px solid #ddd;padding:3px 10px;text-align:right}
th:first-child,td:first-child{text-align:left}
.blunder{color:#c62828;font-weight:bold}.error{color:#ef6c00;font-weight:bold}
.mistake{border:1px solid #ddd;border-radius:8px;padding:10px 14px;margin:14px 0}
.boards{display:flex;gap:14px;flex-wrap:wrap}.why{background:#fff8e1;padding:6px 10px;border-radius:6px}
.played td{background:#ffebee}.small{color:#666;font-size:12px}
table.moves td:nth-child(4),table.moves td:nth-child(7){text-align:left}
tr.mark-doubtful td{background:#fffde7}tr.mark-error td{background:#fff3e0}
tr.mark-blunder td{background:#ffebee}
"""


#: The summary's rows of marks, checker plays and cube decisions apart.
_CHECKER_MARKS = {"doubtful": N_("Checker doubtfuls"), "error": N_("Checker errors"),
                  "blunder": N_("Checker blunders")}
_CUBE_MARKS = {"doubtful": N_("Cube doubtfuls"), "error": N_("Cube errors"), "blunder": N_("Cube blunders")}
#: The alternatives' table head.
_ALTERNATIVES_HEAD = (N_("play"), N_("equity"), N_("vs best"), "MWC", N_("win"), N_("gammon"),
                      N_("lose gammon"))


def _rolls(p: dict[str, Any]) -> str:
    return f"{p['very_lucky']} / {p['lucky']} / {p['unlucky']} / {p['very_unlucky']}"


def _players_table(a: MatchAnalysis) -> str:
    p = [x.to_dict() for x in a.players]
    rows: list[tuple[str, str, str]] = [
        (_("Unforced moves"), str(p[0]["unforced_moves"]), str(p[1]["unforced_moves"])),
        (_("Checker error rate (mEMG)"), rate(p[0]["checker_error_rate"]), rate(p[1]["checker_error_rate"])),
        (_("Close cube decisions"), str(p[0]["close_cube_decisions"]), str(p[1]["close_cube_decisions"])),
        (_("Cube error rate (mEMG)"), rate(p[0]["cube_error_rate"]), rate(p[1]["cube_error_rate"])),
        (_("Error rate (mEMG per decision)"), rate(p[0]["error_rate"]), rate(p[1]["error_rate"])),
        ("PR", rate(p[0]["pr"]), rate(p[1]["pr"])),
        (_("Rating"), _(p[0]["rating"]), _(p[1]["rating"])),
    ]
    for key, labels in (("checker_marks", _CHECKER_MARKS), ("cube_marks", _CUBE_MARKS)):
        for m in ("doubtful", "error", "blunder"):
            rows.append((f"{_(labels[m])} {SYMBOLS[m]}", str(p[0][key][m]), str(p[1][key][m])))
    if p[0]["resign_decisions"] or p[1]["resign_decisions"]:
        rows.append((_("Resignation errors"), str(sum(p[0]["resign_errors"].values())),
                     str(sum(p[1]["resign_errors"].values()))))
    for k in p[0]["cube_errors"]:
        word = mark_word(k)
        rows.append((word[:1].upper() + word[1:], str(p[0]["cube_errors"][k]), str(p[1]["cube_errors"][k])))
    rows.append((_("Luck (EMG)"), signed(p[0]["luck"]), signed(p[1]["luck"])))
    rows.append((_("Very lucky / lucky / unlucky / very unlucky rolls"), _rolls(p[0]), _rolls(p[1])))
    head = f"<tr><th></th><th>{escape(a.names[0])}</th><th>{escape(a.names[1])}</th></tr>"
    body = "".join(f"<tr><td>{escape(r[0])}</td><td>{escape(r[1])}</td><td>{escape(r[2])}</td></tr>"
                   for r in rows)
    return f"<table>{head}{body}</table>"


def _alternatives(d: Decision) -> str:
    rows = []
    for i, alt in enumerate(d.alternatives, start=1):
        cls = ' class="played"' if alt.position_id == d.played_position_id else ""
        pr = alt.probabilities
        mwc = percent(alt.mwc) if alt.mwc is not None else ""
        rows.append(f"<tr{cls}><td>{i}. {escape(alt.play)}</td><td>{decimal(alt.equity, sign=True)}</td>"
                    f"<td>{decimal(alt.difference, sign=True)}</td><td>{mwc}</td><td>{percent(pr[0])}</td>"
                    f"<td>{percent(pr[1])}</td><td>{percent(pr[3])}</td></tr>")
    head = "<tr>" + "".join(f"<th>{escape(_(word))}</th>" for word in _ALTERNATIVES_HEAD) + "</tr>"
    return f"<table>{head}{''.join(rows)}</table>"


def _mistake(a: MatchAnalysis, d: Decision) -> str:
    variant = a.variant
    before = Position.from_position_id(d.position_id, variant)
    mark = d.mark or ""
    kind = f" ({mark_word(d.error_kind)})" if d.error_kind else ""
    loses = _("loses {memg} mEMG").format(memg=f"{1000 * d.equity_lost:.0f}")
    head = (f'<h3>{escape(decision_title(d, a.names))} <span class="{mark}">{escape(mark_word(mark))} '
            f'{SYMBOLS.get(mark, "")}{escape(kind)}</span>: {escape(loses)}</h3>')
    owner = d.cube_owner.relative(d.player)
    boards: list[str] = []
    if d.kind in ("move", "choice") and d.played_position_id and d.best_position_id:
        played = Position.from_position_id(d.played_position_id, variant)
        best = Position.from_position_id(d.best_position_id, variant)
        diff = changed_points(played, best)
        boards.append(board_svg(before, title=_("before: {dice}").format(dice=names_dice(d)), cube=d.cube_value,
                                cube_owner=owner, dice=d.dice))
        boards.append(board_svg(played, title=_("played: {play}").format(play=d.played), cube=d.cube_value,
                                cube_owner=owner, highlight=diff))
        boards.append(board_svg(best, title=_("better: {play}").format(play=d.best), cube=d.cube_value,
                                cube_owner=owner, highlight=diff))
        detail = _alternatives(d)
    elif d.kind == "resign":
        boards.append(board_svg(before, title=_("when it was offered"), cube=d.cube_value, cube_owner=owner))
        c = d.cube or {}
        detail = "<p>" + escape(_("Resigning {resign}, playing on {play_on} (the resigner's normalised "
                                  "equity). Played: {played}; best: {best}.").format(
            resign=decimal(c.get("resign", 0), sign=True), play_on=decimal(c.get("play_on", 0), sign=True),
            played=mark_word(d.played), best=mark_word(d.best))) + "</p>"
    else:
        title = _("doubler to play") if d.kind == "take" else _("before the roll")
        boards.append(board_svg(before, title=title, cube=d.cube_value, cube_owner=owner))
        detail = _cube_detail(d)
    explanation = explanation_text(d)
    why = f'<p class="why">{escape(explanation)}</p>' if explanation else ""
    return (f'<div class="mistake" id="{mistake_anchor(d)}">{head}{why}'
            f'<div class="boards">{"".join(boards)}</div>{detail}</div>')


def _cube_detail(d: Decision) -> str:
    """A cube decision's equities, the proper actions and the action played, as a paragraph."""
    c = d.cube or {}
    text = _("No double {no_double}, double/take {double_take}, double/pass {double_pass} (doubler's "
             "normalised equity). Proper: {proper}; {taker_proper}. Played: {played}.").format(
        no_double=decimal(c.get("no_double", 0), sign=True),
        double_take=decimal(c.get("double_take", 0), sign=True),
        double_pass=decimal(c.get("double_pass", 0), sign=True), proper=mark_word(str(c.get("proper"))),
        taker_proper=mark_word(str(c.get("taker_proper"))), played=mark_word(d.played))
    return f"<p>{escape(text)}</p>"


def names_dice(d: Decision) -> str:
    """The dice of a decision, "5-3 to play" (empty without a roll)."""
    return _("{first}-{second} to play").format(first=d.dice[0], second=d.dice[1]) if d.dice else ""


def _about(a: MatchAnalysis) -> str:
    """The line under the title: the depth, the games and decisions, how rates and marks are counted."""
    games = ngettext("Analysed by gammon at {plies}-ply; {n} game, {decisions} decisions.",
                     "Analysed by gammon at {plies}-ply; {n} games, {decisions} decisions.", len(a.games))
    rates = _("Rates in mEMG (thousandths of normalised equity) per decision; marks: doubtful from 30, "
              "error from 60, blunder from 120 mEMG.")
    text = games.format(plies=a.plies, n=len(a.games), decisions=len(a.decisions)) + " " + rates
    return f"<p class='small'>{escape(text)}</p>"


def _result(a: MatchAnalysis) -> str:
    """The first player's result and luck, and what an unfinished record's result counts."""
    u = a.unit
    text = _("Result for {name}: {result} {unit}; luck {luck} {unit}; luck-adjusted {adjusted} {unit}.").format(
        name=a.names[0], result=decimal(a.result, sign=True), luck=decimal(a.luck, sign=True),
        adjusted=decimal(a.luck_adjusted, sign=True), unit=u)
    result = f"<p>{escape(text)}</p>"
    if a.unfinished:
        why = (_("the record stops before the match is over; the result is the match winning chance "
                 "at the score reached.") if a.match_length else
               _("the last game was not played out; the result counts the finished games only."))
        unfinished = escape(_("Unfinished:"))
        result += f"<p class='unfinished'><b>{unfinished}</b> {escape(why)}</p>"
    return result


def html_report(analysis: MatchAnalysis) -> str:
    """The whole report as one HTML page."""
    a = analysis
    kind = (_("{length}-point match").format(length=a.match_length) if a.match_length
            else _("money session"))
    title = _("{first} vs {second}: {kind}").format(first=a.names[0], second=a.names[1], kind=kind)
    mistakes = [d for d in a.decisions if d.mark in ("error", "blunder")]
    parts = [
        f"<!DOCTYPE html><html lang='{current_language()}'><head><meta charset='utf-8'>",
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{escape(title)}</h1>", _about(a), _players_table(a), _result(a),
        "<h2>" + escape(_("Equity graph")) + "</h2>", f"<div class='graph'>{graph_svg(a)}</div>",
        "<h2>" + escape(_("Move list")) + "</h2>", move_list_html(a),
        "<h2>" + escape(_("Errors and blunders ({count})").format(count=len(mistakes))) + "</h2>",
    ]
    parts += [_mistake(a, d) for d in mistakes]
    parts.append("</body></html>")
    return "\n".join(parts)


def after_game_report(analysis: MatchAnalysis) -> dict[str, Any]:
    """What the browser's after-game page shows: the analysis as JSON and the graph as an SVG string.

    ``{"analysis": MatchAnalysis.to_dict(), "graph_svg": "<svg ...>"}``.
    """
    return {"analysis": analysis.to_dict(), "graph_svg": graph_svg(analysis)}


__all__ = ["after_game_report", "html_report"]
