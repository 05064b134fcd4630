"""The whole move list of an analysed match, as HTML and as text, like GNU Backgammon's export.

Each game under its score, then every decision in order (checker plays,
cube decisions, takes, resignations, Acey-Deucey's named doubles): who, the
dice, what was played, the mark (doubtful ones too) and the equity it loses
in mEMG, and the better choice where there was one.  In the HTML, errors and
blunders link to their boards further down the report
(:mod:`gammon.analysis.report`); the text (:func:`move_list_lines`, ``gammon
analyse --moves``) is in the reader's language (:mod:`gammon.i18n`), and also
names a cube error too small for a mark, as GNU Backgammon's alerts do.
"""

from __future__ import annotations

from html import escape

from gammon.analysis.analyse import GameAnalysis, MatchAnalysis
from gammon.analysis.decisions import Decision
from gammon.analysis.marks import SYMBOLS
from gammon.analysis.text import mark_text, mark_word
from gammon.i18n import N_, _, ngettext

#: What the list's "dice" column says for the decisions made without a roll.
_NO_ROLL = {"cube": N_("cube"), "take": N_("cube"), "resign": N_("resign"), "choice": "1-2"}
#: The list's head.
_HEAD = (N_("turn"), N_("player"), N_("dice"), N_("played"), N_("mark"), N_("mEMG lost"), N_("better"))


def mistake_anchor(d: Decision) -> str:
    """The id of an error's or blunder's section of the report (unique: game, turn, kind, player)."""
    return f"g{d.game + 1}-t{d.turn}-{d.kind}-p{d.player}"


def _row(d: Decision, names: tuple[str, str]) -> str:
    dice = f"{d.dice[0]}{d.dice[1]}" if d.dice else _(_NO_ROLL.get(d.kind, "")) if d.kind in _NO_ROLL else ""
    mark = d.mark or ""
    played = escape(d.played if d.kind in ("move", "choice") else mark_word(d.played))
    if mark in ("error", "blunder"):
        played = f'<a href="#{mistake_anchor(d)}">{played}</a>'
    loss = f"{1000 * d.equity_lost:.0f}" if d.equity_lost > 0 else ""
    best = d.best if d.kind in ("move", "choice") else mark_word(d.best)
    better = escape(best) if d.best and d.best != d.played and d.equity_lost > 0 else ""
    forced = _("forced") if d.forced else ""
    label = f'<span class="{mark}">{escape(mark_word(mark))} {SYMBOLS[mark]}</span>' if mark else forced
    kind = f" ({escape(mark_word(d.error_kind))})" if d.error_kind and mark else ""
    if d.rollout is not None:  # the verdict rests on a rollout
        judged = escape(_("judged by a rollout of {trials} games").format(trials=d.rollout["trials"]))
        kind += f' <abbr title="{judged}">R</abbr>'
    row_class = f"mark-{mark or 'none'}"
    return (f'<tr class="{row_class}"><td>{d.turn}</td><td>{escape(names[d.player])}</td><td>{dice}</td>'
            f"<td>{played}</td><td>{label}{kind}</td><td>{loss}</td><td>{better}</td></tr>")


def _game(g: GameAnalysis, a: MatchAnalysis) -> str:
    s = g.summary
    score = _(", score {first}-{second}").format(first=s.score[0], second=s.score[1]) if a.match_length else ""
    crawford = " " + _("(Crawford)") if s.crawford else ""
    if s.winner is None:
        end = _("not finished")
    else:
        how = " " + _("(resigned)") if s.resigned else " " + _("(passed)") if s.dropped else ""
        end = ngettext("{name} wins {n} point", "{name} wins {n} points", s.points).format(
            name=a.names[s.winner], n=s.points) + how
    head = "<tr>" + "".join(f"<th>{escape(_(word))}</th>" for word in _HEAD) + "</tr>"
    rows = "".join(_row(d, a.names) for d in g.decisions)
    title = _("Game {number}").format(number=s.index + 1) + f"{score}{crawford}: {end}"
    return f"<h3>{escape(title)}</h3><table class='moves'>{head}{rows}</table>"


def move_list_html(analysis: MatchAnalysis) -> str:
    """Every game's decisions in order, each with its mark and equity loss (one HTML fragment)."""
    return "".join(_game(g, analysis) for g in analysis.games)


#: The cube actions as the text list says them (the words of the terminal's hints), and a roll
#: that could not be played.
_ACTIONS: dict[str, str] = {
    "no double": N_("no double"), "double": N_("double"), "take": N_("take"), "pass": N_("pass"),
    "beaver": N_("beaver"), "(no legal play)": N_("(no legal play)"),
}
#: A loss below this (normalised equity) is no error worth naming: rounding of equal equities.
_NOTHING = 0.0005


def _verdict(d: Decision) -> str:
    """The mark and loss of a decision, a cube error too small for a mark, or "forced move"."""
    if d.mark is not None:
        text = mark_text(d)
    elif d.error_kind and d.equity_lost >= _NOTHING:
        text = _("{kind}: loses {memg} mEMG").format(kind=mark_word(d.error_kind),
                                                       memg=f"{1000 * d.equity_lost:.0f}")
    else:
        return _("forced move") if d.forced and d.kind == "move" else ""
    if d.best and d.best != d.played and d.equity_lost >= _NOTHING:
        best = _(_ACTIONS[d.best]) if d.best in _ACTIONS else d.best
        text += _("; better: {play}").format(play=best)
    return text


def _text_row(d: Decision, names: tuple[str, str], width: int) -> str:
    """One decision: turn, player, dice, what was played, then its verdict."""
    dice = f"{d.dice[0]}{d.dice[1]}" if d.dice else ""
    played = _(_ACTIONS[d.played]) if d.played in _ACTIONS else d.played
    verdict = _verdict(d)
    row = f"{d.turn:>4}  {names[d.player]:<{width}}  {dice:<2}  {played:<24}"
    return (f"{row}  {verdict}" if verdict else row).rstrip()


def _listed(d: Decision) -> bool:
    """Whether the list shows ``d``: every decision but a right decision not to double (as GNU
    Backgammon's text export, which shows the cube only where it was turned or an error made)."""
    return not (d.kind == "cube" and d.played == "no double" and d.equity_lost < _NOTHING)


def _text_game(g: GameAnalysis, a: MatchAnalysis) -> list[str]:
    s = g.summary
    head = [_("Game {number}").format(number=s.index + 1)]
    if a.match_length:
        head.append(_("score {score}").format(score=f"{s.score[0]}-{s.score[1]}"))
    if s.crawford:
        head.append(_("Crawford game"))
    if s.winner is None:
        end = _("not finished")
    else:
        end = ngettext("{name} wins {n} point", "{name} wins {n} points", s.points).format(
            name=a.names[s.winner], n=s.points)
        if s.resigned:
            end += " " + _("(resigned)")
        elif s.dropped:
            end += " " + _("(passed)")
    width = max(len(n) for n in a.names)
    return [", ".join(head) + ": " + end, *(_text_row(d, a.names, width) for d in g.decisions if _listed(d))]


def move_list_lines(analysis: MatchAnalysis) -> list[str]:
    """Every game's decisions in order, one line each with its mark and loss, in the current language.

    A game's first line gives its number, the score, the Crawford game and who won; each
    decision's line its turn, player, dice, what was played and the verdict: the mark with its
    symbol (``?!``, ``?``, ``??``), the equity lost in mEMG and the better choice, a cube error
    too small for a mark, or a forced move.  A right decision not to double is left out.
    """
    out: list[str] = []
    for g in analysis.games:
        if out:
            out.append("")
        out += _text_game(g, analysis)
    return out


__all__ = ["mistake_anchor", "move_list_html", "move_list_lines"]
