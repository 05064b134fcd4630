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
join the most telling ones into a sentence.
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
from gammon.core.position import Position


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


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _point_name(p: int) -> str:
    if p >= 18:
        return f"the {p}-point anchor"
    if p == 7:
        return "the bar point"
    return f"the {p}-point"


def _and(parts: Sequence[str]) -> str:
    parts = list(parts)
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def play_reasons(before: Position, played: Position, best: Position) -> list[str]:
    """Why ``best`` is better than ``played`` in position terms (mover's side, after each play)."""
    out: list[str] = []
    race = is_race(before)
    if not race:
        s_played, s_best = shots(played), shots(best)
        if s_played - s_best >= 3:
            out.append(f"leaves {s_played} shots instead of {s_best}")
        elif s_best - s_played >= 5:
            safe = "plays safe" if s_played == 0 else f"leaves only {s_played} shots"
            out.append(f"{safe} where the better play accepts {s_best} shots for more")
    held, m_played, m_best = made_points(before), made_points(played), made_points(best)
    interesting = set(range(2, 10)) | set(range(18, 25))
    for p in sorted(held & m_best - m_played, reverse=True):
        if p in interesting:
            out.append(f"gives up {_point_name(p)}")
    for p in sorted((m_best - held) - m_played, reverse=True):
        if p in interesting:
            out.append(f"does not make {_point_name(p)}")
    pr_before, _ = longest_prime(before)
    pr_played, _ = longest_prime(played)
    pr_best, _ = longest_prime(best)
    if pr_before >= 4 and pr_played < pr_before <= pr_best:
        out.append(f"breaks a {pr_before}-point prime")
    elif pr_best >= 4 and pr_best > pr_played:
        out.append(f"builds a {pr_played}-point prime where a {pr_best}-point prime was there")
    hit_played, hit_best = played.opp[24] - before.opp[24], best.opp[24] - before.opp[24]
    if hit_best > hit_played:
        out.append("does not hit" if hit_played == 0 else f"hits {hit_played} instead of {hit_best}")
    elif hit_played > hit_best:
        out.append(f"hits {hit_played} checker{'s' if hit_played > 1 else ''} for too much risk")
    if not race:
        b_played, b_best = len(blots(played)), len(blots(best))
        if b_played - b_best >= 2:
            out.append(f"leaves {b_played} blots instead of {b_best}")
    off_before = before.checkers_off[0]
    off_played, off_best = played.checkers_off[0] - off_before, best.checkers_off[0] - off_before
    if off_best > off_played:
        out.append(f"bears off {off_played} checker{'s' if off_played != 1 else ''} instead of {off_best}")
    waste = played.pip_counts[0] - best.pip_counts[0]
    if race and waste >= 2:
        out.append(f"wastes {waste} pips")
    return out


def chance_reasons(played: Sequence[float], best: Sequence[float]) -> list[str]:
    """The chances in which the better play is ahead: winning, winning and losing gammons.

    (Mover's cubeless probabilities; a chance where the play made is ahead is not a reason.)
    """
    out: list[str] = []
    if best[0] - played[0] >= 0.01:
        out.append(f"wins {_pct(played[0])} instead of {_pct(best[0])}")
    if best[1] - played[1] >= 0.03:
        out.append(f"gammon chances {_pct(played[1])} instead of {_pct(best[1])}")
    if played[3] - best[3] >= 0.03:
        out.append(f"gets gammoned {_pct(played[3])} instead of {_pct(best[3])}")
    return out


def small_reasons(before: Position, played: Position, best: Position) -> list[str]:
    """Smaller differences, for a play :func:`play_reasons` finds nothing against: a shot or a
    blot more, a checker less borne off or a pip wasted, a hit or a point made elsewhere."""
    out: list[str] = []
    race = is_race(before)
    if not race:
        s_played, s_best = shots(played), shots(best)
        if s_played > s_best:
            out.append(f"leaves {s_played} shots instead of {s_best}")
        b_played, b_best = len(blots(played)), len(blots(best))
        if b_played > b_best:
            out.append(f"leaves {b_played} blot{'s' if b_played != 1 else ''} instead of {b_best}")
    made = sorted(made_points(best) - made_points(played), reverse=True)
    if made:
        out.append(f"does not make {_point_name(made[0])}")
    waste = played.pip_counts[0] - best.pip_counts[0]
    if race and waste >= 1:
        out.append(f"wastes {waste} pip{'s' if waste != 1 else ''}")
    return out


def explain_play(before: Position, played: Position, best: Position, played_probs: Sequence[float],
                 best_probs: Sequence[float], played_text: str = "the play", best_text: str = "",
                 loss: float | None = None) -> str:
    """A sentence saying what the play made gives up against the better play.

    The position's reasons first (:func:`play_reasons`, then
    :func:`small_reasons`), the chances where the better play is ahead; with
    nothing to name, what the play gives up in equity (``loss``, at the
    decision's score and cube) rather than a bare "is weaker".
    """
    reasons = play_reasons(before, played, best)[:3] or small_reasons(before, played, best)[:2]
    chances = chance_reasons(played_probs, best_probs)
    if reasons:
        text = f"{played_text} {_and(reasons)}"
    elif loss is not None:
        text = f"{played_text} gives up {loss:.3f} in equity"
    else:
        text = f"{played_text} is weaker"
    if chances:
        text += f" ({_and(chances)})"
    if best_text:
        text += f"; {best_text} is better"
    return text + "."


def _equities(c: dict[str, Any]) -> str:
    return (f"no double {c['no_double']:+.3f}, double/take {c['double_take']:+.3f}, "
            f"double/pass {c['double_pass']:+.3f}")


def _take_point_note(c: dict[str, Any], takes: bool, mine: bool) -> str:
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
    who = "you win" if mine else "the opponent wins"
    chances = f"{who} {_pct(taker_win)} cubeless against a take point of {_pct(tp)}"
    if (taker_win >= tp) == takes:
        return chances
    return f"{chances}, but the cubeful equities, which see the market and the recube, decide"


def explain_cube(d: Decision) -> str | None:
    """The cube reasoning from the equities the verdict used (no double, double/take, double/pass).

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
    kind = d.error_kind or ""
    if d.kind == "take":
        take, drop = -dt, -dp
        answer = f"taking leaves you {take:+.3f}, passing {drop:+.3f} ({nums}, the doubler's view)"
        note = _take_point_note(c, takes, True)
        if kind == "wrong take":
            return f"{answer}; {note}; you lose a gammon {_pct(c['gammon'])}: pass"
        if kind == "wrong pass":
            return f"{answer}; {note}: take"
        if kind == "wrong beaver":
            better, verdict = ("taking", "take") if take >= drop else ("passing", "pass")
            return (f"{answer}: a beaver makes it {2 * take:+.3f}, less than {better} "
                    f"({max(take, drop):+.3f}): {verdict}")
        return None
    note = _take_point_note(c, takes, False)
    gammons = f"you win {_pct(c['win'])}, gammons {_pct(c['gammon'])}"
    if kind == MISSED_DOUBLE_BELOW_CP:
        return (f"{nums}: the opponent should take ({note}), and doubling gains {dt - nd:.3f} over holding "
                f"the cube ({gammons}): double")
    if kind == MISSED_DOUBLE_ABOVE_CP:
        return (f"{nums}: the opponent should pass ({note}), and cashing gains {dp - nd:.3f} over playing on "
                f"({gammons}): double")
    if kind == WRONG_DOUBLE_BELOW_DP:
        return (f"{nums}: doubling gives up {nd - min(dt, dp):.3f} against holding the cube ({gammons}; "
                f"{note}): too early to double")
    if kind == WRONG_DOUBLE_ABOVE_TG:
        return (f"{nums}: playing on is worth {nd - dp:.3f} more than the point the double cashes ({gammons}): "
                "too good to double")
    return None


def explain_decision(task: Task, decision: Decision, valuer: Valuer | None = None) -> str | None:
    """The explanation of an analysed decision (None when there is nothing to say)."""
    d = decision
    if d.kind == "resign":  # worded where it is valued (gammon.analysis.decisions.analyse_resign)
        return d.explanation
    if d.kind not in ("move", "choice"):  # a choice of double: the two doubles' best plays compared
        return explain_cube(d)
    if not d.played_position_id or not d.best_position_id or d.played_position_id == d.best_position_id:
        return None
    played = next((a for a in d.alternatives if a.position_id == d.played_position_id), None)
    best = d.alternatives[0] if d.alternatives else None
    if played is None or best is None:
        return None
    variant = task.position.variant
    return explain_play(task.position, Position.from_position_id(played.position_id, variant),
                        Position.from_position_id(best.position_id, variant), played.probabilities,
                        best.probabilities, played.play, best.play, best.equity - played.equity)


__all__ = [
    "blots", "chance_reasons", "explain_cube", "explain_decision", "explain_play", "is_race",
    "longest_prime", "made_points", "play_reasons", "shots", "small_reasons",
]
