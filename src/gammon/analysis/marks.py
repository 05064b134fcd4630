"""Thresholds, marks and the per-player figures derived from errors (error rates, PR, rating).

Every threshold is in *normalised* equity: money-equivalent equity (EMG) where
+1 is winning the current cube's points and -1 losing them, so that a mistake
weighs the same at any cube value.  At match play the loss in match winning
chance (MWC) is converted to EMG at the score and cube of the decision, as GNU
Backgammon does (its "mEMG": thousandths of EMG).

Marks (GNU Backgammon 1.07's defaults, read from ``gnubg -t`` ``show
analysis``; earlier releases used 0.04 / 0.08 / 0.16):

* doubtful (``?!``): a loss of 0.030 or more,
* error, GNU Backgammon's "bad" (``?``): 0.060 or more,
* blunder, GNU Backgammon's "very bad" (``??``): 0.120 or more.

Luck (GNU Backgammon's defaults too): a roll whose value is 0.3 above the
average of all rolls is *lucky*, 0.6 above *very lucky* (and below:
*unlucky*, *very unlucky*).

Per player:

* checker error rate: total checker loss / unforced moves, in mEMG;
* cube error rate: total cube loss / close cube decisions, in mEMG (a cube
  decision is *close*, as GNU Backgammon counts it, when the proper action's
  equity is less than 0.16 above the double/take equity capped at 1, and every
  double, take and pass is counted; a turn where the cube is dead for the
  player on roll and he does not double is no cube decision at all, see
  :func:`gammon.analysis.decisions.is_decision`);
* cube errors by kind, GNU Backgammon's: missed doubles below the cash point
  (the proper action double/take) and above it (double/pass), wrong doubles
  below the doubling point ("too early") and above the too-good point ("too
  good"), wrong takes, passes and beavers (:data:`gammon.analysis.decisions.CUBE_ERRORS`);
* error rate: (checker + cube + resignation loss) / (unforced moves + close
  cube decisions + resignations offered or answered); a resignation is a
  decision like a cube decision (its value against the value of playing on),
  and Acey-Deucey's choice of a double counts with the checker play;
* PR, the performance rating of eXtreme Gammon: 500 x the average loss per
  decision in normalised equity over the same decisions, that is half the
  error rate in mEMG (PR 5 = 10 mEMG per decision).  XG's own count of
  decisions differs slightly (it leaves out some obvious cube decisions);
* rating category: GNU Backgammon's names for the error per decision
  (Supernatural below 0.002 EMG, World class 0.005, Expert 0.008, Advanced
  0.012, Intermediate 0.018, Casual player 0.026, Beginner 0.035, Awful!);
* no rating estimate: a number on a rating scale (FIBS, a club's) from one
  match's PR would need a fit of PR against ratings measured on that scale,
  and there is none published that we could state; the rule of thumb
  ``2100 - 8 x PR`` we printed before put GNU Backgammon 0-ply at 2080 where
  GNU Backgammon's own estimate says 2009 (issue 35, D7), so it is gone.
"""

from __future__ import annotations

#: (loss from which a decision gets the mark, mark name, symbol), worst first.
MARKS: tuple[tuple[float, str, str], ...] = (
    (0.120, "blunder", "??"),
    (0.060, "error", "?"),
    (0.030, "doubtful", "?!"),
)
MARK_NAMES: tuple[str, ...] = ("doubtful", "error", "blunder")
SYMBOLS: dict[str, str] = {name: sym for _, name, sym in MARKS}

#: Luck thresholds (normalised equity): lucky / very lucky and the negatives.
LUCKY = 0.3
VERY_LUCKY = 0.6

#: A cube decision is close when proper equity - min(double/take, 1) is below this.
CLOSE_CUBE = 0.16

#: GNU Backgammon's rating names by error per decision (EMG), best first.
RATINGS: tuple[tuple[float, str], ...] = (
    (0.002, "Supernatural"),
    (0.005, "World class"),
    (0.008, "Expert"),
    (0.012, "Advanced"),
    (0.018, "Intermediate"),
    (0.026, "Casual player"),
    (0.035, "Beginner"),
)


def mark_for(loss: float) -> str | None:
    """The mark of a decision that lost ``loss`` (normalised equity), or None."""
    for limit, name, _ in MARKS:
        if loss >= limit - 1e-12:
            return name
    return None


def luck_mark(luck: float) -> str | None:
    """'very lucky', 'lucky', 'unlucky', 'very unlucky' or None for a roll's luck."""
    if luck >= VERY_LUCKY:
        return "very lucky"
    if luck >= LUCKY:
        return "lucky"
    if luck <= -VERY_LUCKY:
        return "very unlucky"
    if luck <= -LUCKY:
        return "unlucky"
    return None


def rating_name(error_per_decision: float | None) -> str:
    """GNU Backgammon's name for an error per decision in EMG ('N/A' without decisions)."""
    if error_per_decision is None:
        return "N/A"
    for limit, name in RATINGS:
        if error_per_decision < limit:
            return name
    return "Awful!"


def performance_rating(error_rate_memg: float | None) -> float | None:
    """XG's PR from an error rate in mEMG per decision: 500 x EMG per decision."""
    return None if error_rate_memg is None else error_rate_memg / 2.0


__all__ = [
    "CLOSE_CUBE", "LUCKY", "MARKS", "MARK_NAMES", "RATINGS", "SYMBOLS", "VERY_LUCKY",
    "luck_mark", "mark_for", "performance_rating", "rating_name",
]
