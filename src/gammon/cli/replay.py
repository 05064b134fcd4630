"""Stepping through an analysed match (``gammon analyse --replay``, ``gammon play --replay``).

Each decision is one page that fits an 80 x 24 terminal with the prompt below
it: a title line, the board (:func:`~gammon.cli.board.render_board`, at most
17 lines) and the analysis in the rows left.  The analysis is laid out for
those rows: the alternatives compact (play, equity, difference, match winning
chances, win / gammon / lose-gammon percentages), the best plays first and the
played one always shown, and the explanation cut to what fits.  The layout
does not depend on the terminal's width, so a wide window shows the same page.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from rich.console import Console
from rich.text import Text

from gammon.i18n import N_, _

if TYPE_CHECKING:
    from gammon.analysis.analyse import MatchAnalysis
    from gammon.analysis.decisions import Alternative, Decision

#: A page's size: an 80 x 24 terminal, whose last row is the prompt.
PAGE_COLUMNS = 80
PAGE_ROWS = 24
#: The prompt between pages.
PROMPT = N_("Enter: next decision, q: quit > ")
_INDENT = "  "
_WIDTH = PAGE_COLUMNS - len(_INDENT)


def _wrap(text: str) -> list[str]:
    return textwrap.wrap(text, _WIDTH, subsequent_indent="  ", break_long_words=True) or [""]


def _cut(lines: list[str], rows: int) -> list[str]:
    """At most ``rows`` lines, the last one ending in ``...`` when some were left out."""
    if len(lines) <= rows:
        return lines
    if rows <= 0:
        return []
    last = lines[rows - 1]
    return [*lines[:rows - 1], (last[:_WIDTH - 3] + "...") if len(last) > _WIDTH - 3 else last + "..."]


def _alternative_line(i: int, a: Alternative, played: str | None) -> str:
    star = "*" if a.position_id == played else " "
    diff = "" if a.difference == 0 else f"({a.difference:+.3f})"
    mwc = f" MWC {100 * a.mwc:5.1f}%" if a.mwc is not None else ""
    pr = a.probabilities
    chances = f"W {100 * pr[0]:4.1f} G {100 * pr[1]:4.1f} LG {100 * pr[3]:4.1f}"
    tail = f" Eq {a.equity:+.3f} {diff:>8}{mwc}  {chances}"
    head = f"{star}{i}. "
    room = _WIDTH - len(head) - len(tail)
    play = a.play if len(a.play) <= room else a.play[:room - 2] + ".."
    return f"{head}{play:<{room}}{tail}"


def _alternatives(d: Decision, rows: int) -> list[str]:
    """The best alternatives that fit in ``rows``, the played one always among them."""
    if rows <= 0 or not d.alternatives:
        return []
    indexed = list(enumerate(d.alternatives, start=1))
    shown = indexed[:rows]
    played = next((x for x in indexed if x[1].position_id == d.played_position_id), None)
    if played is not None and played not in shown:
        shown[-1] = played
    return [_alternative_line(i, a, d.played_position_id) for i, a in shown]


def analysis_lines(d: Decision, rows: int) -> list[str]:
    """The analysis of ``d`` in at most ``rows`` lines of at most 78 columns (without the indent)."""
    from gammon.analysis.text import mark_text, mark_word, signed
    from gammon.cli.terminal.hints import action_words

    head: list[str] = []
    if d.mark:
        head.append(_("Alert: {mark}").format(mark=mark_text(d)))
    body: list[str] = []
    is_move = d.kind in ("move", "choice")
    if is_move:
        if d.luck is not None:
            head.append(_("Luck: {luck}").format(luck=signed(d.luck))
                        + (f" ({mark_word(d.luck_mark)})" if d.luck_mark else ""))
        if d.forced:
            head.append(_("forced move") if d.legal_plays <= 1 and d.played_position_id else _("no choice"))
    elif d.kind == "resign" and d.cube is not None:
        c = d.cube
        body += _wrap(_("Resigning {resign}, playing on {play_on} (the resigner's normalised equity: wins "
                        "{win}%, gammons {gammon}%, loses a gammon {lose_gammon}%)").format(
            resign=f"{c['resign']:+.3f}", play_on=f"{c['play_on']:+.3f}", win=f"{100 * c['win']:.1f}",
            gammon=f"{100 * c['gammon']:.1f}", lose_gammon=f"{100 * c['lose_gammon']:.1f}"))
        body += _wrap(_("Played: {played}; best: {best}").format(played=d.played, best=d.best))
    elif d.cube is not None:
        c = d.cube
        body += _wrap(_("Cube: no double {no_double}, double/take {double_take}, double/pass {double_pass}")
                      .format(no_double=f"{c['no_double']:+.3f}", double_take=f"{c['double_take']:+.3f}",
                              double_pass=f"{c['double_pass']:+.3f}"))
        body += _wrap(_("Proper: {proper}; {taker_proper}. Win {win}%, take point {take_point}%. "
                        "Played: {played}").format(
            proper=action_words(c["proper"]), taker_proper=action_words(c["taker_proper"]),
            win=f"{100 * c['win']:.1f}", take_point=f"{100 * c['take_point']:.1f}", played=d.played))
    fixed = _cut((_wrap("; ".join(head)) if head else []) + body, rows)
    from gammon.analysis.words import explanation_text

    explanation = explanation_text(d)
    why = _wrap(_("Why: {explanation}").format(explanation=explanation)) if explanation else []
    left = rows - len(fixed)
    reserved = min(len(why), 2 if left >= 4 else 1)  # the reason for a mark before the fourth-best play
    alternatives = _alternatives(d, left - reserved) if is_move else []
    return fixed + alternatives + _cut(why, left - len(alternatives))


def _title(i: int, total: int, text: str) -> str:
    head = f"── {i}/{total}  "
    room = PAGE_COLUMNS - len(head) - 1
    text = text if len(text) <= room else text[:room - 3] + "..."
    return f"{head}{text} ".ljust(PAGE_COLUMNS, "─")


def page(analysis: MatchAnalysis, d: Decision, i: int, total: int) -> list[Text]:
    """Decision ``d`` (the ``i``-th of ``total`` shown) as the lines of one page: at most
    :data:`PAGE_ROWS` - 1 lines of at most :data:`PAGE_COLUMNS` columns."""
    from gammon.analysis.text import decision_title
    from gammon.cli.board import render_board
    from gammon.core.position import Position

    a = analysis
    side = 1 - d.player if d.kind == "take" else d.player
    names = (a.names[side], a.names[1 - side])
    owner: Literal["me", "opp"] | None = None
    if d.cube_owner >= 0:
        owner = "me" if d.cube_owner == side else "opp"
    score = d.score if side == 0 else (d.score[1], d.score[0])
    position = Position.from_position_id(d.position_id, a.variant)
    board = render_board(position, cube=d.cube_value, cube_owner=owner, score=score,
                         match_length=d.match_length, crawford=d.crawford, dice=d.dice, names=names)
    board_lines = board.split("\n")
    rows = PAGE_ROWS - 1 - 1 - len(board_lines)  # the prompt, the title
    lines = [Text(_title(i, total, decision_title(d, a.names))), *board_lines]
    return lines + [Text(_INDENT + line) for line in analysis_lines(d, rows)]


def shown_decisions(analysis: MatchAnalysis) -> list[Decision]:
    """The decisions worth a page: every play, and the cube decisions that were close or marked."""
    return [d for d in analysis.decisions if d.kind != "cube" or d.close or d.mark is not None]


def replay(console: Console, analysis: MatchAnalysis, read: Callable[[str], object] | None = None) -> None:
    """Step through the analysed match, a page per decision (:func:`page`).

    ``read(prompt)`` waits between pages (Enter: next, ``q``: stop); None
    prints every page without waiting (output that is not a terminal).
    """
    shown = shown_decisions(analysis)
    total = len(shown)
    for i, d in enumerate(shown, start=1):
        for line in page(analysis, d, i, total):
            console.print(line, soft_wrap=True, highlight=False, markup=False)
        if read is not None and i < total:
            try:
                answer = str(read(_(PROMPT)))
            except (EOFError, KeyboardInterrupt):
                return
            if answer.strip().lower() in ("q", "quit"):
                return
