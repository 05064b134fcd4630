"""The HTML report of an analysis, and the after-game bundle the browser's page asks for.

The report is one self-contained HTML file: the players' figures (checker and
cube marks apart), the equity graph (SVG, embedded), the whole move list with
every mark (:mod:`gammon.analysis.move_list`) and, for every error and
blunder, the board before the decision, the board after the play made beside
the board after the better play, the alternatives and the reason in words.
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
from gammon.analysis.text import decision_title, rate, signed
from gammon.core.position import Position

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


def _rolls(p: dict[str, Any]) -> str:
    return f"{p['very_lucky']} / {p['lucky']} / {p['unlucky']} / {p['very_unlucky']}"


def _players_table(a: MatchAnalysis) -> str:
    p = [x.to_dict() for x in a.players]
    rows: list[tuple[str, str, str]] = [
        ("Unforced moves", str(p[0]["unforced_moves"]), str(p[1]["unforced_moves"])),
        ("Checker error rate (mEMG)", rate(p[0]["checker_error_rate"]), rate(p[1]["checker_error_rate"])),
        ("Close cube decisions", str(p[0]["close_cube_decisions"]), str(p[1]["close_cube_decisions"])),
        ("Cube error rate (mEMG)", rate(p[0]["cube_error_rate"]), rate(p[1]["cube_error_rate"])),
        ("Error rate (mEMG per decision)", rate(p[0]["error_rate"]), rate(p[1]["error_rate"])),
        ("PR", rate(p[0]["pr"]), rate(p[1]["pr"])),
        ("Rating", p[0]["rating"], p[1]["rating"]),
    ]
    for group, key in (("Checker", "checker_marks"), ("Cube", "cube_marks")):
        for m in ("doubtful", "error", "blunder"):
            rows.append((f"{group} {m}s {SYMBOLS[m]}", str(p[0][key][m]), str(p[1][key][m])))
    if p[0]["resign_decisions"] or p[1]["resign_decisions"]:
        rows.append(("Resignation errors", str(sum(p[0]["resign_errors"].values())),
                     str(sum(p[1]["resign_errors"].values()))))
    for k in p[0]["cube_errors"]:
        rows.append((k.capitalize(), str(p[0]["cube_errors"][k]), str(p[1]["cube_errors"][k])))
    rows.append(("Luck (EMG)", signed(p[0]["luck"]), signed(p[1]["luck"])))
    rows.append(("Very lucky / lucky / unlucky / very unlucky rolls", _rolls(p[0]), _rolls(p[1])))
    head = f"<tr><th></th><th>{escape(a.names[0])}</th><th>{escape(a.names[1])}</th></tr>"
    body = "".join(f"<tr><td>{escape(r[0])}</td><td>{escape(r[1])}</td><td>{escape(r[2])}</td></tr>"
                   for r in rows)
    return f"<table>{head}{body}</table>"


def _alternatives(d: Decision) -> str:
    rows = []
    for i, alt in enumerate(d.alternatives, start=1):
        cls = ' class="played"' if alt.position_id == d.played_position_id else ""
        pr = alt.probabilities
        mwc = f"{100 * alt.mwc:.1f}%" if alt.mwc is not None else ""
        rows.append(f"<tr{cls}><td>{i}. {escape(alt.play)}</td><td>{alt.equity:+.3f}</td>"
                    f"<td>{alt.difference:+.3f}</td><td>{mwc}</td><td>{100 * pr[0]:.1f}%</td>"
                    f"<td>{100 * pr[1]:.1f}%</td><td>{100 * pr[3]:.1f}%</td></tr>")
    head = ("<tr><th>play</th><th>equity</th><th>vs best</th><th>MWC</th><th>win</th><th>gammon</th>"
            "<th>lose gammon</th></tr>")
    return f"<table>{head}{''.join(rows)}</table>"


def _mistake(a: MatchAnalysis, d: Decision) -> str:
    variant = a.variant
    before = Position.from_position_id(d.position_id, variant)
    mark = d.mark or ""
    kind = f" ({d.error_kind})" if d.error_kind else ""
    head = (f'<h3>{escape(decision_title(d, a.names))} <span class="{mark}">{mark} {SYMBOLS.get(mark, "")}'
            f"{escape(kind)}</span>: loses {1000 * d.equity_lost:.0f} mEMG</h3>")
    owner = d.cube_owner.relative(d.player)
    boards: list[str] = []
    if d.kind in ("move", "choice") and d.played_position_id and d.best_position_id:
        played = Position.from_position_id(d.played_position_id, variant)
        best = Position.from_position_id(d.best_position_id, variant)
        diff = changed_points(played, best)
        boards.append(board_svg(before, title="before: " + escape(names_dice(d)), cube=d.cube_value,
                                cube_owner=owner, dice=d.dice))
        boards.append(board_svg(played, title=f"played: {d.played}", cube=d.cube_value, cube_owner=owner,
                                highlight=diff))
        boards.append(board_svg(best, title=f"better: {d.best}", cube=d.cube_value, cube_owner=owner,
                                highlight=diff))
        detail = _alternatives(d)
    elif d.kind == "resign":
        boards.append(board_svg(before, title="when it was offered", cube=d.cube_value, cube_owner=owner))
        c = d.cube or {}
        detail = (f"<p>Resigning {c.get('resign', 0):+.3f}, playing on {c.get('play_on', 0):+.3f} "
                  f"(the resigner's normalised equity). Played: {escape(d.played)}; "
                  f"best: {escape(d.best)}.</p>")
    else:
        title = "doubler to play" if d.kind == "take" else "before the roll"
        boards.append(board_svg(before, title=title, cube=d.cube_value, cube_owner=owner))
        c = d.cube or {}
        detail = (f"<p>No double {c.get('no_double', 0):+.3f}, double/take {c.get('double_take', 0):+.3f}, "
                  f"double/pass {c.get('double_pass', 0):+.3f} (doubler's normalised equity). "
                  f"Proper: {escape(str(c.get('proper')))}; {escape(str(c.get('taker_proper')))}. "
                  f"Played: {escape(d.played)}.</p>")
    why = f'<p class="why">{escape(d.explanation)}</p>' if d.explanation else ""
    return (f'<div class="mistake" id="{mistake_anchor(d)}">{head}{why}'
            f'<div class="boards">{"".join(boards)}</div>{detail}</div>')


def names_dice(d: Decision) -> str:
    return f"{d.dice[0]}-{d.dice[1]} to play" if d.dice else ""


def html_report(analysis: MatchAnalysis) -> str:
    """The whole report as one HTML page."""
    a = analysis
    kind = f"{a.match_length}-point match" if a.match_length else "money session"
    title = f"{a.names[0]} vs {a.names[1]}: {kind}"
    mistakes = [d for d in a.decisions if d.mark in ("error", "blunder")]
    u = a.unit
    result = (f"<p>Result for {escape(a.names[0])}: {a.result:+.3f} {u}; luck {a.luck:+.3f} {u}; "
              f"luck-adjusted {a.luck_adjusted:+.3f} {u}.</p>")
    if a.unfinished:
        result += ("<p class='unfinished'><b>Unfinished:</b> "
                   + ("the record stops before the match is over; the result is the match winning chance "
                      "at the score reached.</p>" if a.match_length else
                      "the last game was not played out; the result counts the finished games only.</p>"))
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p class='small'>Analysed by gammon at {a.plies}-ply; {len(a.games)} "
        f"game{'' if len(a.games) == 1 else 's'}, "
        f"{len(a.decisions)} decisions. Rates in mEMG (thousandths of normalised equity) per decision; "
        "marks: doubtful from 30, error from 60, blunder from 120 mEMG.</p>",
        _players_table(a), result,
        "<h2>Equity graph</h2>", f"<div class='graph'>{graph_svg(a)}</div>",
        "<h2>Move list</h2>", move_list_html(a),
        f"<h2>Errors and blunders ({len(mistakes)})</h2>",
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
