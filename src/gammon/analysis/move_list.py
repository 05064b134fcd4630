"""The whole move list of an analysed match as HTML, like GNU Backgammon's export.

Each game under its score, then every decision in order (checker plays,
cube decisions, takes, resignations, Acey-Deucey's named doubles): who, the
dice, what was played, the mark (doubtful ones too) and the equity it loses
in mEMG, and the better choice where there was one.  Errors and blunders
link to their boards further down the report (:mod:`gammon.analysis.report`).
"""

from __future__ import annotations

from html import escape

from gammon.analysis.analyse import GameAnalysis, MatchAnalysis
from gammon.analysis.decisions import Decision
from gammon.analysis.marks import SYMBOLS

#: What the list's "dice" column says for the decisions made without a roll.
_NO_ROLL = {"cube": "cube", "take": "cube", "resign": "resign", "choice": "1-2"}


def mistake_anchor(d: Decision) -> str:
    """The id of an error's or blunder's section of the report (unique: game, turn, kind, player)."""
    return f"g{d.game + 1}-t{d.turn}-{d.kind}-p{d.player}"


def _row(d: Decision, names: tuple[str, str]) -> str:
    dice = f"{d.dice[0]}{d.dice[1]}" if d.dice else _NO_ROLL.get(d.kind, "")
    mark = d.mark or ""
    played = escape(d.played)
    if mark in ("error", "blunder"):
        played = f'<a href="#{mistake_anchor(d)}">{played}</a>'
    loss = f"{1000 * d.equity_lost:.0f}" if d.equity_lost > 0 else ""
    better = escape(d.best) if d.best and d.best != d.played and d.equity_lost > 0 else ""
    label = f'<span class="{mark}">{mark} {SYMBOLS[mark]}</span>' if mark else ("forced" if d.forced else "")
    kind = f" ({escape(d.error_kind)})" if d.error_kind and mark else ""
    if d.rollout is not None:  # the verdict rests on a rollout
        kind += f' <abbr title="judged by a rollout of {d.rollout["trials"]} games">R</abbr>'
    row_class = f"mark-{mark or 'none'}"
    return (f'<tr class="{row_class}"><td>{d.turn}</td><td>{escape(names[d.player])}</td><td>{dice}</td>'
            f"<td>{played}</td><td>{label}{kind}</td><td>{loss}</td><td>{better}</td></tr>")


def _game(g: GameAnalysis, a: MatchAnalysis) -> str:
    s = g.summary
    score = f", score {s.score[0]}-{s.score[1]}" if a.match_length else ""
    crawford = " (Crawford)" if s.crawford else ""
    if s.winner is None:
        end = "not finished"
    else:
        how = " (resigned)" if s.resigned else " (passed)" if s.dropped else ""
        end = f"{escape(a.names[s.winner])} wins {s.points} point{'' if s.points == 1 else 's'}{how}"
    head = ("<tr><th>turn</th><th>player</th><th>dice</th><th>played</th><th>mark</th>"
            "<th>mEMG lost</th><th>better</th></tr>")
    rows = "".join(_row(d, a.names) for d in g.decisions)
    return (f"<h3>Game {s.index + 1}{score}{crawford}: {end}</h3>"
            f"<table class='moves'>{head}{rows}</table>")


def move_list_html(analysis: MatchAnalysis) -> str:
    """Every game's decisions in order, each with its mark and equity loss (one HTML fragment)."""
    return "".join(_game(g, analysis) for g in analysis.games)


__all__ = ["mistake_anchor", "move_list_html"]
