"""Mistakes explained in words, computed from the positions (no canned text).

For a checker play the position after the play made is compared with the
position after the better play, both from the mover's side:

* shots: how many of the opponent's 36 rolls hit a blot outside his home
  board (counted with the rules' own move generator: a roll hits when some
  legal play of it hits such a blot);
* points: a point held before the roll that the play gives up and the better
  play keeps; a point (home board, bar point or an anchor) the better play
  makes and the play made does not;
* primes: the longest run of made points;
* hits, blots, and in races the checkers borne off and the pips wasted;
* the chances: winning, and winning or losing a gammon, as the engine sees them;
* failing all of those, smaller differences (a shot or a blot more, a pip
  wasted) and, with nothing to name, the equity the play gives up.

For a cube decision: the cubeful equities the verdict was drawn from (no
double, double/take, double/pass; for the taker, take and pass), what the
error gives up, and the cubeless chances against the take point in words that
never contradict those equities.

Each reason is a short phrase; :func:`explain_play` and :func:`explain_cube`
join the most telling ones into a sentence.  The phrases are kept as words
(:mod:`gammon.analysis.words`: a catalog message and its numbers), so that the
sentence, made once when the analysis runs, can be read in any of gammon's
languages later; the ``*_words`` functions give them, the others their text in
the current language, and :func:`set_explanation` sets both on a decision (the text in English).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from gammon.analysis.decisions import (
    MISSED_DOUBLE_ABOVE_CP,
    MISSED_DOUBLE_BELOW_CP,
    WRONG_DOUBLE_ABOVE_TG,
    WRONG_DOUBLE_BELOW_DP,
    Decision,
)
from gammon.analysis.valuation import ROLLS, Valuer
from gammon.analysis.walk import Task
from gammon.analysis.words import Nn_, Words, english, fixed, joined, percent, render, say, say_n, signed
from gammon.core.position import Position
from gammon.i18n import N_


def blots(position: Position) -> list[int]:
    """The mover's points (1..24) with exactly one checker."""
    return [p for p in range(1, 25) if position.me[p - 1] == 1]


def made_points(position: Position) -> set[int]:
    """The mover's points (1..24) with two or more checkers."""
    return {p for p in range(1, 25) if position.me[p - 1] >= 2}


def longest_prime(position: Position) -> tuple[int, int]:
    """(length, highest point) of the mover's longest run of made points."""
    best, top, run = 0, 0, 0
    for p in range(1, 25):
        run = run + 1 if position.me[p - 1] >= 2 else 0
        if run > best:
            best, top = run, p
    return best, top


def shots(position: Position, outside_only: bool = True) -> int:
    """How many of the opponent's 36 rolls hit a blot of the mover (``position`` from the mover's side).

    With ``outside_only`` (the players' way of counting shots) a blot in the
    opponent's home board (the mover's points 19-24, split back checkers)
    does not count: hitting it costs the mover few pips.
    """
    last = 18 if outside_only else 24
    if not any(position.me[p - 1] == 1 for p in range(1, last + 1)) or position.outcome is not None:
        return 0
    opp = position.swap()
    # The opponent's move to his point q hits the mover's point 25 - q.
    first_q = 25 - last
    total = 0
    for roll, weight in ROLLS:
        if any(m.hit and m.to_point >= first_q for play in opp.legal_plays(roll) for m in play.moves):
            total += weight
    return total


def is_race(position: Position) -> bool:
    from gammon.ai.encoding import is_contact

    return not bool(is_contact(np.frombuffer(position.board, dtype=np.uint8)))


def _point_name(p: int) -> Words:
    if p >= 18:
        return say(N_("the {p}-point anchor"), p=p)
    if p == 7:
        return say(N_("the bar point"))
    return say(N_("the {p}-point"), p=p)


def _shots_words(s_played: int, s_best: int) -> Words:
    # TRANSLATORS: the English says "shots" whatever the number (its two forms are one); the other
    # languages give each number its form.
    return say_n(*Nn_("leaves {n} shots instead of {best}", "leaves {n} shots instead of {best}"), s_played,
                 best=s_best)


def play_words(before: Position, played: Position, best: Position) -> list[Words]:
    """Why ``best`` is better than ``played`` in position terms (mover's side, after each play), as words."""
    out: list[Words] = []
    race = is_race(before)
    if not race:
        s_played, s_best = shots(played), shots(best)
        if s_played - s_best >= 3:
            out.append(_shots_words(s_played, s_best))
        elif s_best - s_played >= 5:
            # TRANSLATORS: "shots" whatever the number in English, as above.
            safe = say(N_("plays safe")) if s_played == 0 else say_n(
                *Nn_("leaves only {n} shots", "leaves only {n} shots"), s_played)
            out.append(say(N_("{safe} where the better play accepts {best} shots for more"), safe=safe,
                           best=s_best))
    held, m_played, m_best = made_points(before), made_points(played), made_points(best)
    interesting = set(range(2, 10)) | set(range(18, 25))
    for p in sorted(held & m_best - m_played, reverse=True):
        if p in interesting:
            out.append(say(N_("gives up {point}"), point=_point_name(p)))
    for p in sorted((m_best - held) - m_played, reverse=True):
        if p in interesting:
            out.append(say(N_("does not make {point}"), point=_point_name(p)))
    pr_before, _ = longest_prime(before)
    pr_played, _ = longest_prime(played)
    pr_best, _ = longest_prime(best)
    if pr_before >= 4 and pr_played < pr_before <= pr_best:
        out.append(say(N_("breaks a {length}-point prime"), length=pr_before))
    elif pr_best >= 4 and pr_best > pr_played:
        out.append(say(N_("builds a {length}-point prime where a {best}-point prime was there"),
                       length=pr_played, best=pr_best))
    hit_played, hit_best = played.opp[24] - before.opp[24], best.opp[24] - before.opp[24]
    if hit_best > hit_played:
        out.append(say(N_("does not hit")) if hit_played == 0 else
                   say(N_("hits {n} instead of {best}"), n=hit_played, best=hit_best))
    elif hit_played > hit_best:
        out.append(say_n(*Nn_("hits {n} checker for too much risk", "hits {n} checkers for too much risk"),
                         hit_played))
    if not race:
        b_played, b_best = len(blots(played)), len(blots(best))
        if b_played - b_best >= 2:
            out.append(_blots_words(b_played, b_best))
    off_before = before.checkers_off[0]
    off_played, off_best = played.checkers_off[0] - off_before, best.checkers_off[0] - off_before
    if off_best > off_played:
        out.append(say_n(*Nn_("bears off {n} checker instead of {best}",
                              "bears off {n} checkers instead of {best}"), off_played, best=off_best))
    waste = played.pip_counts[0] - best.pip_counts[0]
    if race and waste >= 2:
        out.append(_waste_words(waste))
    return out


def _blots_words(b_played: int, b_best: int) -> Words:
    return say_n(*Nn_("leaves {n} blot instead of {best}", "leaves {n} blots instead of {best}"), b_played,
                 best=b_best)


def _waste_words(waste: int) -> Words:
    return say_n(*Nn_("wastes {n} pip", "wastes {n} pips"), waste)


def play_reasons(before: Position, played: Position, best: Position) -> list[str]:
    """:func:`play_words` in the current language."""
    return [render(w) for w in play_words(before, played, best)]


def chance_words(played: Sequence[float], best: Sequence[float]) -> list[Words]:
    """The chances in which the better play is ahead: winning, winning and losing gammons.

    (Mover's cubeless probabilities; a chance where the play made is ahead is not a reason.)
    """
    out: list[Words] = []
    if best[0] - played[0] >= 0.01:
        out.append(say(N_("wins {played} instead of {best}"), played=percent(played[0]), best=percent(best[0])))
    if best[1] - played[1] >= 0.03:
        out.append(say(N_("gammon chances {played} instead of {best}"), played=percent(played[1]),
                       best=percent(best[1])))
    if played[3] - best[3] >= 0.03:
        out.append(say(N_("gets gammoned {played} instead of {best}"), played=percent(played[3]),
                       best=percent(best[3])))
    return out


def chance_reasons(played: Sequence[float], best: Sequence[float]) -> list[str]:
    """:func:`chance_words` in the current language."""
    return [render(w) for w in chance_words(played, best)]


def small_words(before: Position, played: Position, best: Position) -> list[Words]:
    """Smaller differences, for a play :func:`play_words` finds nothing against: a shot or a
    blot more, a checker less borne off or a pip wasted, a hit or a point made elsewhere."""
    out: list[Words] = []
    race = is_race(before)
    if not race:
        s_played, s_best = shots(played), shots(best)
        if s_played > s_best:
            out.append(_shots_words(s_played, s_best))
        b_played, b_best = len(blots(played)), len(blots(best))
        if b_played > b_best:
            out.append(_blots_words(b_played, b_best))
    made = sorted(made_points(best) - made_points(played), reverse=True)
    if made:
        out.append(say(N_("does not make {point}"), point=_point_name(made[0])))
    waste = played.pip_counts[0] - best.pip_counts[0]
    if race and waste >= 1:
        out.append(_waste_words(waste))
    return out


def small_reasons(before: Position, played: Position, best: Position) -> list[str]:
    """:func:`small_words` in the current language."""
    return [render(w) for w in small_words(before, played, best)]


def explain_play_words(before: Position, played: Position, best: Position, played_probs: Sequence[float],
                       best_probs: Sequence[float], played_text: str = "the play", best_text: str = "",
                       loss: float | None = None) -> Words:
    """A sentence saying what the play made gives up against the better play, as words.

    The position's reasons first (:func:`play_words`, then
    :func:`small_words`), the chances where the better play is ahead; with
    nothing to name, what the play gives up in equity (``loss``, at the
    decision's score and cube) rather than a bare "is weaker".
    """
    reasons = play_words(before, played, best)[:3] or small_words(before, played, best)[:2]
    chances = chance_words(played_probs, best_probs)
    if reasons:
        text = say(N_("{play} {reasons}"), play=played_text, reasons=joined(reasons))
    elif loss is not None:
        text = say(N_("{play} gives up {loss} in equity"), play=played_text, loss=fixed(loss))
    else:
        text = say(N_("{play} is weaker"), play=played_text)
    if chances:
        text = say(N_("{sentence} ({chances})"), sentence=text, chances=joined(chances))
    if best_text:
        text = say(N_("{sentence}; {best} is better"), sentence=text, best=best_text)
    return say(N_("{sentence}."), sentence=text)


def explain_play(before: Position, played: Position, best: Position, played_probs: Sequence[float],
                 best_probs: Sequence[float], played_text: str = "the play", best_text: str = "",
                 loss: float | None = None) -> str:
    """:func:`explain_play_words` in the current language."""
    return render(explain_play_words(before, played, best, played_probs, best_probs, played_text, best_text,
                                     loss))


def _equities(c: dict[str, Any]) -> Words:
    return say(N_("no double {no_double}, double/take {double_take}, double/pass {double_pass}"),
               no_double=signed(c["no_double"]), double_take=signed(c["double_take"]),
               double_pass=signed(c["double_pass"]))


def _take_point_note(c: dict[str, Any], takes: bool, mine: bool) -> Words:
    """The cubeless chances against the take point, in words that agree with the verdict.

    The verdict (``takes``: the taker should take) comes from the cubeful
    equities; the take point is Janowski's formula's at the same score and
    cube, and the taker's cubeless chance to win is set against it.  At 0 plies
    the two are one model and always agree; a look-ahead can see what the
    formula cannot (market losers, a volatile position), and where the two
    disagree the sentence says that the cubeful equities decide, rather than
    quoting a take point the verdict ignores.  ``mine``: said to the taker.
    """
    tp, taker_win = c["take_point"], 1.0 - c["win"]
    chances = say(N_("you win {win} cubeless against a take point of {take_point}") if mine else
                  N_("the opponent wins {win} cubeless against a take point of {take_point}"),
                  win=percent(taker_win), take_point=percent(tp))
    if (taker_win >= tp) == takes:
        return chances
    return say(N_("{chances}, but the cubeful equities, which see the market and the recube, decide"),
               chances=chances)


def _take_words(d: Decision, c: dict[str, Any], nums: Words, takes: bool) -> Words | None:
    """The taker's verdict: the two answers' values (and a beaver's) from the doubler's equities."""
    take, drop = -c["double_take"], -c["double_pass"]
    answer = say(N_("taking leaves you {take}, passing {drop} ({equities}, the doubler's view)"),
                 take=signed(take), drop=signed(drop), equities=nums)
    note = _take_point_note(c, takes, True)
    kind = d.error_kind or ""
    if kind == "wrong take":
        return say(N_("{answer}; {note}; you lose a gammon {gammon}: pass"), answer=answer, note=note,
                   gammon=percent(c["gammon"]))
    if kind == "wrong pass":
        return say(N_("{answer}; {note}: take"), answer=answer, note=note)
    if kind == "wrong beaver":
        if take >= drop:
            better = N_("{answer}: a beaver makes it {beaver}, less than taking ({value}): take")
        else:
            better = N_("{answer}: a beaver makes it {beaver}, less than passing ({value}): pass")
        return say(better, answer=answer, beaver=signed(2 * take), value=signed(max(take, drop)))
    return None


def explain_cube_words(d: Decision) -> Words | None:
    """The cube reasoning from the equities the verdict used (no double, double/take, double/pass), as words.

    Every sentence quotes those three cubeful equities and draws its verdict
    from them alone (for a take, the taker's: take = -double/take, pass =
    -double/pass), so it cannot contradict them; the cubeless chances and the
    take point are added only as :func:`_take_point_note` words them.
    """
    c = d.cube
    if c is None or "no_double" not in c:
        return None
    nd, dt, dp = c["no_double"], c["double_take"], c["double_pass"]
    nums = _equities(c)
    takes = dt <= dp
    if d.kind == "take":
        return _take_words(d, c, nums, takes)
    kind = d.error_kind or ""
    note = _take_point_note(c, takes, False)
    gammons = say(N_("you win {win}, gammons {gammon}"), win=percent(c["win"]), gammon=percent(c["gammon"]))
    if kind == MISSED_DOUBLE_BELOW_CP:
        return say(N_("{equities}: the opponent should take ({note}), and doubling gains {gain} over holding "
                      "the cube ({chances}): double"), equities=nums, note=note, gain=fixed(dt - nd),
                   chances=gammons)
    if kind == MISSED_DOUBLE_ABOVE_CP:
        return say(N_("{equities}: the opponent should pass ({note}), and cashing gains {gain} over playing on "
                      "({chances}): double"), equities=nums, note=note, gain=fixed(dp - nd), chances=gammons)
    if kind == WRONG_DOUBLE_BELOW_DP:
        return say(N_("{equities}: doubling gives up {loss} against holding the cube ({chances}; {note}): "
                      "too early to double"), equities=nums, loss=fixed(nd - min(dt, dp)), chances=gammons,
                   note=note)
    if kind == WRONG_DOUBLE_ABOVE_TG:
        return say(N_("{equities}: playing on is worth {gain} more than the point the double cashes "
                      "({chances}): too good to double"), equities=nums, gain=fixed(nd - dp), chances=gammons)
    return None


def explain_cube(d: Decision) -> str | None:
    """:func:`explain_cube_words` in the current language."""
    words = explain_cube_words(d)
    return None if words is None else render(words)


def explain_decision_words(task: Task, decision: Decision, valuer: Valuer | None = None) -> Words | None:
    """The explanation of an analysed decision as words (None when there is nothing to say)."""
    d = decision
    if d.kind == "resign":  # worded where it is valued (gammon.analysis.decisions.analyse_resign)
        return d.explanation_words
    if d.kind not in ("move", "choice"):  # a choice of double: the two doubles' best plays compared
        return explain_cube_words(d)
    if not d.played_position_id or not d.best_position_id or d.played_position_id == d.best_position_id:
        return None
    played = next((a for a in d.alternatives if a.position_id == d.played_position_id), None)
    best = d.alternatives[0] if d.alternatives else None
    if played is None or best is None:
        return None
    variant = task.position.variant
    return explain_play_words(task.position, Position.from_position_id(played.position_id, variant),
                              Position.from_position_id(best.position_id, variant), played.probabilities,
                              best.probabilities, played.play, best.play, best.equity - played.equity)


def explain_decision(task: Task, decision: Decision, valuer: Valuer | None = None) -> str | None:
    """The explanation of an analysed decision in English, as the analysis keeps it (None: nothing to say)."""
    words = explain_decision_words(task, decision, valuer)
    return None if words is None else english(words)


def set_explanation(task: Task, decision: Decision, valuer: Valuer | None = None) -> None:
    """Set ``decision``'s explanation: its words (:attr:`Decision.explanation_words`, to word in any
    language later) and their English (:attr:`Decision.explanation`, what the report's JSON holds)."""
    words = explain_decision_words(task, decision, valuer)
    decision.explanation_words = words
    decision.explanation = None if words is None else english(words)


__all__ = [
    "blots", "chance_reasons", "chance_words", "explain_cube", "explain_cube_words", "explain_decision",
    "explain_decision_words", "explain_play", "explain_play_words", "is_race", "longest_prime", "made_points",
    "play_reasons", "play_words", "set_explanation", "shots", "small_reasons", "small_words",
]
