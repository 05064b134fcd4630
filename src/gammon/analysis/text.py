"""Decisions and players written as text, for the terminal, SGF comments and reports.

The words are English unless a language is chosen (:mod:`gammon.i18n`): the terminal game
says its end-of-game analysis in the player's language.
"""

from __future__ import annotations

from gammon.analysis.decisions import Decision
from gammon.analysis.marks import SYMBOLS
from gammon.analysis.stats import PlayerStats
from gammon.analysis.words import explanation_text
from gammon.i18n import N_, _, ngettext
from gammon.i18n.numbers import decimal

#: The marks and kinds of error a decision can carry, and the words of its choices, as the reports say them.
_WORDS: dict[str, str] = {
    "doubtful": N_("doubtful"), "error": N_("error"), "blunder": N_("blunder"),
    "wrong double (too early)": N_("wrong double (too early)"),
    "wrong double (too good)": N_("wrong double (too good)"), "missed double": N_("missed double"),
    "wrong beaver": N_("wrong beaver"), "wrong take": N_("wrong take"), "wrong pass": N_("wrong pass"),
    "very lucky": N_("very lucky"), "lucky": N_("lucky"), "unlucky": N_("unlucky"),
    "very unlucky": N_("very unlucky"),
    "missed double (below cash point)": N_("missed double (below cash point)"),
    "missed double (above cash point)": N_("missed double (above cash point)"),
    "wrong resignation": N_("wrong resignation"), "wrong acceptance": N_("wrong acceptance"),
    "wrong refusal": N_("wrong refusal"), "wrong double chosen": N_("wrong double chosen"),
    # the cube's actions and the resignations' choices, as decisions name what was played and what was best
    "no double": N_("no double"), "double": N_("double"), "take": N_("take"), "pass": N_("pass"),
    "beaver": N_("beaver"), "double/take": N_("double/take"), "double/pass": N_("double/pass"),
    "too good to double": N_("too good to double"), "play on": N_("play on"), "accept": N_("accept"),
    "reject": N_("reject"), "resigns a single game": N_("resigns a single game"),
    "resigns a gammon": N_("resigns a gammon"), "resigns a backgammon": N_("resigns a backgammon"),
    "resign a single game": N_("resign a single game"), "resign a gammon": N_("resign a gammon"),
    "resign a backgammon": N_("resign a backgammon"), "accepts a single game": N_("accepts a single game"),
    "accepts a gammon": N_("accepts a gammon"), "accepts a backgammon": N_("accepts a backgammon"),
    "rejects a single game": N_("rejects a single game"), "rejects a gammon": N_("rejects a gammon"),
    "rejects a backgammon": N_("rejects a backgammon"),
}


def mark_word(text: str) -> str:
    """A mark, kind of error or luck (``blunder``, ``missed double``, ``lucky``) in the current language."""
    return _(_WORDS[text]) if text in _WORDS else text


def signed(x: float | None, digits: int = 3) -> str:
    """``x`` with its sign and ``digits`` decimals as the current language writes it (``+0,123``)."""
    return "-" if x is None else decimal(x, digits, sign=True)


def rate(x: float | None) -> str:
    """An error rate with one decimal as the current language writes it (``4,2``)."""
    return "-" if x is None else decimal(x, 1)


def decision_title(d: Decision, names: tuple[str, str]) -> str:
    """``Game 2, turn 14, Ann: 6-3 13/7 8/5`` and the like."""
    who = names[d.player]
    where = _("Game {number}, turn {turn}, {name}").format(number=d.game + 1, turn=d.turn, name=who)
    if d.kind == "move":
        dice = f"{d.dice[0]}-{d.dice[1]}" if d.dice else ""
        return f"{where}: {dice} {d.played}".rstrip()
    return f"{where}: {d.played}"


def mark_text(d: Decision) -> str:
    """The mark, its kind and its loss; ``R`` after a verdict that rests on a rollout."""
    if d.mark is None:
        return ""
    kind = f" ({mark_word(d.error_kind)})" if d.error_kind else ""
    text = _("{mark} {symbol}{kind}: loses {memg} mEMG").format(
        mark=mark_word(d.mark), symbol=SYMBOLS[d.mark], kind=kind, memg=f"{1000 * d.equity_lost:.0f}")
    return text + (" R" if d.rollout is not None else "")


def mark_counts(marks: dict[str, int]) -> str:
    """``2 doubtful, 1 error, 0 blunders`` (plural forms in the current language)."""
    return ", ".join((
        ngettext("{n} doubtful", "{n} doubtful", marks["doubtful"]).format(n=marks["doubtful"]),
        ngettext("{n} error", "{n} errors", marks["error"]).format(n=marks["error"]),
        ngettext("{n} blunder", "{n} blunders", marks["blunder"]).format(n=marks["blunder"]),
    ))


def decision_lines(d: Decision, names: tuple[str, str], count: int = 5) -> list[str]:
    """A decision's analysis in a few lines (alternatives, cube equities, luck, explanation)."""
    lines: list[str] = []
    if d.mark:
        lines.append(f"Alert: {mark_text(d)}")
    if d.kind == "move" or d.kind == "choice":
        if d.luck is not None:
            lm = f" ({d.luck_mark})" if d.luck_mark else ""
            lines.append(f"Luck: {signed(d.luck)}{lm}")
        if d.forced:
            lines.append("Forced move" if d.legal_plays <= 1 and d.played_position_id else "No choice")
        for i, a in enumerate(d.alternatives[:count + 1], start=1):
            star = "*" if a.position_id == d.played_position_id else " "
            mwc = f"  MWC {100 * a.mwc:.1f}%" if a.mwc is not None else ""
            diff = "" if a.difference == 0 else f" ({a.difference:+.3f})"
            pr = a.probabilities
            chances = f"  [{100 * pr[0]:.1f}% g {100 * pr[1]:.1f}%, lose g {100 * pr[3]:.1f}%]"
            lines.append(f"{star}{i}. {a.play:<24} Eq {a.equity:+.3f}{diff}{mwc}{chances}")
    elif d.kind == "resign" and d.cube is not None:
        c = d.cube
        lines.append(f"Resigning: {c['resign']:+.3f}; playing on: {c['play_on']:+.3f} (the resigner's "
                     f"normalised equity; he wins {100 * c['win']:.1f}%, gammons {100 * c['gammon']:.1f}%, "
                     f"loses a gammon {100 * c['lose_gammon']:.1f}%)")
        lines.append(f"Played: {d.played}; best: {d.best}")
    elif d.cube is not None:
        c = d.cube
        lines.append(f"Cube: no double {c['no_double']:+.3f}, double/take {c['double_take']:+.3f}, "
                     f"double/pass {c['double_pass']:+.3f}")
        lines.append(f"Proper: {c['proper']}; {c['taker_proper']}. Win {100 * c['win']:.1f}%, "
                     f"take point {100 * c['take_point']:.1f}%")
        lines.append(f"Played: {d.played}; best: {d.best}")
    explanation = explanation_text(d)
    if explanation:
        lines.append(f"Why: {explanation}")
    return lines


def player_lines(p: PlayerStats) -> list[str]:
    """The summary lines of one player."""
    out = p.to_dict()
    m = out["marks"]
    return [
        f"{p.name}",
        f"  checker: {p.unforced_moves} unforced moves, error rate {rate(p.checker_error_rate)} mEMG",
        f"  cube: {p.close_cube_decisions} close decisions, error rate {rate(p.cube_error_rate)} mEMG",
        f"  overall error rate {rate(p.error_rate)} mEMG, PR {rate(p.pr)}, rating {out['rating']}",
        f"  marks: {m['doubtful']} doubtful, {m['error']} errors, {m['blunder']} blunders",
        f"  luck {signed(p.luck)} EMG over {p.rolls} rolls",
    ]


def game_report_lines(match: object, names: tuple[str, str], plies: int = 0) -> list[str]:
    """The analysis of the game just finished, as a few lines for the terminal's end of game.

    Error rates, PR, marks and luck per player, the equity graph in letters,
    then the worst mistakes with the better play and the reason.  Never raises: an analysis that fails says so
    in one line.
    """
    from gammon.analysis.analyse import analyse_game
    from gammon.core.errors import GammonError
    from gammon.core.match import Match

    if not isinstance(match, Match) or not match.games:
        return []
    try:
        a = analyse_game(match, names, -1, plies)
    except (GammonError, ValueError) as exc:
        return [_("(no analysis of this game: {reason})").format(reason=exc)]
    lines = [_("Analysis of the game ({plies}-ply; mEMG per decision, PR = half of it):").format(plies=plies)]
    for p in a.players:
        m = p.marks
        lines.append("  " + _("{name}: error rate {rate} (checker {checker}, cube {cube}), PR {pr}; {marks}; "
                              "luck {luck}").format(
            name=p.name, rate=rate(p.error_rate), checker=rate(p.checker_error_rate),
            cube=rate(p.cube_error_rate), pr=rate(p.pr), marks=mark_counts(m), luck=signed(p.luck)))
    from gammon.analysis.graph import text_graph

    lines += [f"  {line}" for line in text_graph(a)]
    worst = sorted((d for d in a.decisions if d.mark in ("error", "blunder")), key=lambda d: -d.equity_lost)
    for d in worst[:3]:
        better = _("; better {play}").format(play=d.best) if d.best and d.best != d.played else ""
        lines.append(f"  {decision_title(d, names)}: {mark_text(d)}{better}")
        explanation = explanation_text(d)
        if explanation:
            lines.append(f"    {explanation}")
    return lines


__all__ = [
    "decision_lines", "decision_title", "game_report_lines", "mark_counts", "mark_text", "mark_word",
    "player_lines", "rate", "signed",
]
