"""The engine's view of one decision: cubeful values of plays, cube decisions and luck.

This wraps :mod:`gammon.ai` (the n-ply search, Janowski's cubeful model and our
match equity table) without changing it.  Every value is the *deciding
player's*, as a pair: money-equivalent equity normalised to the cube of the
decision (EMG; +1 = winning the cube's points) and, at match play, the match
winning chance (MWC).

The value of a play is the value of the position after it with the opponent
on roll: the opponent's cubeful equity after his proper cube action (he may
double, the cube may be dead), negated.  A play that ends the game is worth
exactly what it scores.

The plays are ranked by the engine's own search at the score and cube of the
decision (:meth:`~gammon.ai.engine.Engine.rank_plays` given its
:class:`~gammon.ai.cube.CubeInfo`; values from :mod:`gammon.ai.match_play`:
money equity with the Jacoby rule and beavers, or EMG from our match equity
table).  Its move filter (up to 8 plays within 0.16 of the best at 0-ply are
searched to the full depth) therefore keeps the best plays *at that score*:
at double match point, where gammons count for nothing, or for a player who
needs a gammon, the right play is not thrown away for being worse at money.
The survivors and the play made are then valued cubefully as above and
ranked again.  GNU Backgammon's analysis keeps up to 16 plays within 0.32: a
play we filter out early can only be a large mistake at the score, and the
play made is always valued at full depth.

Luck of a roll: the value after the best play of the rolled dice minus the
average of that value over all 36 rolls (over the 30 non-doubles for the
opening roll), all at 0-ply, as GNU Backgammon measures luck.  The opening
roll's luck goes to the player who plays it; who wins the opening throw is
not counted as luck.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from gammon.ai.cube import CubeDecision, CubeInfo, cube_decision, cube_efficiency
from gammon.ai.cube_search import cubeful_cube_action
from gammon.ai.engine import Engine
from gammon.ai.met import default_met
from gammon.ai.ranked import RankedPlay
from gammon.ai.search import STRONGEST_PRUNE, MoveFilter, find_level, search_flags
from gammon.core.dice import WEIGHTED_ROLLS
from gammon.core.plays import Play
from gammon.core.position import Outcome, Position

#: The 21 distinct rolls and how many of the 36 each stands for (core's table).
ROLLS = WEIGHTED_ROLLS
#: The opening roll cannot be a double.
OPENING_ROLLS: tuple[tuple[tuple[int, int], int], ...] = tuple(r for r in ROLLS if r[0][0] != r[0][1])


def flip(probs: Sequence[float] | np.ndarray) -> tuple[float, float, float, float, float]:
    """The same five probabilities from the other side."""
    return (1.0 - float(probs[0]), float(probs[3]), float(probs[4]), float(probs[1]), float(probs[2]))


@dataclass(frozen=True, slots=True)
class Value:
    """A value for the deciding player: ``emg`` (normalised to the cube) and ``mwc`` (match play)."""

    emg: float
    mwc: float | None = None


@dataclass(frozen=True, slots=True)
class Candidate:
    """A play with the mover's cubeless probabilities after it and its cubeful value."""

    play: Play
    probabilities: tuple[float, ...]
    value: Value
    plies: int


def final_value(outcome: Outcome, info: CubeInfo, variant_pays_per_checker: bool = False) -> Value:
    """What a finished game is worth to the player who just moved (``outcome`` from his side)."""
    points = info.points_for(outcome.kind, 1)  # per cube, by core's scoring (gammons, Jacoby)
    if info.is_money:
        return Value(float(points if outcome.winner_is_me else -points))
    a, b = info.away
    k = info.value
    post = info.crawford or info.post_crawford
    met = default_met(max(a, b))
    if outcome.winner_is_me:
        mwc = met.after_game(a - k * points, b, post)
    else:
        mwc = met.after_game(a, b - k * points, post)
    return Value(met.mwc_to_emg(mwc, a, b, k, post), mwc)


#: The deepest cube look-ahead an analysis asks for (see :meth:`Valuer.cube`).  Costed by GNU
#: Backgammon's 2-ply verdicts on 5,685 cube decisions of our matches
#: (``benchmarks/results/cube_policies.txt``, earlier nets), the 2-roll look-ahead lost 4.29 EMG
#: in all and the 1-roll one 6.19 (Janowski's formula on 2-ply probabilities: 7.13), at about
#: 160 ms a decision against 10; with the shipped nets, on the first 500 of them, 0.382 against
#: 0.695.  On 4 whole matches it also comes closer to GNU Backgammon's close decisions, cube
#: loss and error kinds (``cube_depth.txt``).  Each further roll costs about 21 times more
#: (some 3 s a decision), so a 3-ply or deeper analysis judges its cube at 2 rolls.
MAX_CUBE_PLIES = 2
#: A non-double that a 1-roll look-ahead finds this far (normalised equity) from double/take is
#: left at 1 roll (:meth:`Valuer.cube`); wider than the 0.16 of a close decision
#: (:data:`gammon.analysis.marks.CLOSE_CUBE`), so that what the deeper look could call close
#: is looked at deeper.
SCREEN_MARGIN = 0.25

#: The analysis's move filters, as broad as GNU Backgammon's analysis searches by default: every
#: play within 0.32 of the best at 0-ply (up to 16) is valued at full depth, with no 1-ply stage
#: between (a 3-ply analysis keeps up to 4 within 0.08 of its 2-ply values).  A play's engine
#: (:data:`gammon.ai.search.DEFAULT_FILTERS`: up to 8, then 4 at 1-ply) trades breadth for speed;
#: a referee may not, since a best play filtered out before the search makes every other play's
#: error look smaller.  As in GNU Backgammon's analysis, the inner nodes' replies are pre-filtered
#: by the pruning net (the strongest level's ``prune``).  Measured on the 18 matches of
#: ``benchmarks/analysis_agreement.py`` against GNU Backgammon 2-ply (``benchmarks/results/ANALYSIS.md``):
#: PR Spearman 0.879 -> 0.908, mean |PR difference| 1.14 -> 1.03, bias -0.66 -> -0.46, marks
#: recall 0.69 -> 0.71 (precision 0.76 -> 0.73), in 446 s of the machine against 1,124 s for
#: the same breadth unpruned.
ANALYSIS_FILTERS: tuple[MoveFilter | None, ...] = (MoveFilter(0, 16, 0.32), None, MoveFilter(0, 4, 0.08))


def analysis_engine() -> Engine:
    """The engine an analysis values plays with: 0-ply as its base level, no noise, the
    analysis's filters (:data:`ANALYSIS_FILTERS`) and the pruning net at the inner nodes.

    It plays with the shipped checker-play net (:func:`gammon.ai.variant_nets.standard_network`)
    at every depth it searches: that agrees with GNU Backgammon's 2-ply analysis better than Q7,
    the net the levels searched with to stop 58 (``benchmarks/results/ANALYSIS.md``, stop 56).
    Its cube decisions play and value with the cube net (:func:`gammon.ai.variant_nets.cube_network`), as every
    level's do (stop 58)."""
    level = replace(find_level("expert"), name="analysis", plies=0, noise=0.0, cube_plies=None,
                    filters=ANALYSIS_FILTERS, prune=STRONGEST_PRUNE, description="the analysis's search")
    return Engine(level)


class Valuer:
    """Values decisions with one :class:`Engine` at ``plies`` (luck always at 0-ply)."""

    def __init__(self, plies: int = 2, engine: Engine | None = None, cube_plies: int | None = None,
                 screen: bool = True) -> None:
        self.plies = plies
        #: The cube look-ahead's depth (None: :attr:`cube_plies`' rule; a benchmark may set its own).
        self._cube_plies = cube_plies
        #: Whether a deeper cube look-ahead is kept for the decisions a 1-roll one finds close
        #: (see :meth:`cube`); False: every cube decision at full depth.
        self.screen = screen
        self.engine = engine or analysis_engine()
        #: 0-ply, no noise: chooses the best play of each roll for luck (its fast path).
        self._luck_engine = self.engine if self.engine.level.plies == 0 and self.engine.level.noise == 0 \
            else Engine(plies=0)

    # -- positions after a play ---------------------------------------------------

    def value_after(self, probs: Sequence[float], after: Position, info: CubeInfo) -> Value:
        """The mover's value of ``after`` (his view, the opponent to roll next)."""
        outcome = after.outcome
        if outcome is not None:
            return final_value(outcome, info)
        opp = after.swap()
        d = cube_decision(flip(probs), info.swap(), cube_efficiency(opp))
        mwc = d.proper_mwc
        return Value(-d.equity, None if mwc is None else 1.0 - mwc)

    def probs_after(self, after: Position, plies: int) -> tuple[float, ...]:
        """Cubeless probabilities of the mover after ``after`` (his view) at ``plies``."""
        if after.outcome is not None:
            o = after.outcome
            g = 1.0 if o.kind >= 2 else 0.0
            bg = 1.0 if o.kind >= 3 else 0.0
            return (1.0, g, bg, 0.0, 0.0) if o.winner_is_me else (0.0, 0.0, 0.0, g, bg)
        v = after.variant
        ys = self.engine.evaluator.evaluate_results(
            np.frombuffer(after.board, dtype=np.uint8).reshape(1, 50), plies, v.checkers,
            search_flags(after))
        return tuple(float(x) for x in ys[0])

    def probs_on_roll(self, position: Position, plies: int | None = None) -> tuple[float, ...]:
        """Cubeless probabilities of the player on roll of ``position`` (before rolling)."""
        p = self.plies if plies is None else plies
        return tuple(float(x) for x in self.engine.evaluator.evaluate(position, p))

    # -- checker play ---------------------------------------------------------------

    def candidates(self, position: Position, dice: tuple[int, int], played: Position | None,
                   info: CubeInfo, count: int = 5) -> tuple[list[Candidate], int]:
        """The ``count`` best plays by cubeful value, and the played one, at full depth.

        Returns the candidates (best first; the played play included) and the
        number of legal plays.
        """
        # The engine's match-aware search: its filter and ranking value each play at
        # ``info``'s score and cube, so the plays searched to full depth are the best
        # ones at that score (not the best for cubeless money).
        ranked: list[RankedPlay] = self.engine.rank_plays(position, dice, info, plies=self.plies)
        n = len(ranked)
        if n == 0:
            return [], 0
        # The search's survivors (valued at full depth) are the candidates; the
        # others were filtered out at 0-ply.  The play made is always valued at
        # full depth, as GNU Backgammon does.
        full = max(r.plies for r in ranked)
        chosen = [r for r in ranked[: max(count, 1) + 2] if r.plies == full] or [ranked[0]]
        if played is not None and all(r.play.position != played for r in chosen):
            chosen += [r for r in ranked if r.play.position == played]
        out: list[Candidate] = []
        for r in chosen:
            probs: tuple[float, ...] = r.probabilities
            depth = r.plies
            if depth < self.plies and n > 1:
                probs = self.probs_after(r.play.position, self.plies)
                depth = self.plies
            out.append(Candidate(r.play, probs, self.value_after(probs, r.play.position, info), depth))
        out.sort(key=lambda c: -c.value.emg)
        keep = out[:count]
        if played is not None and all(c.play.position != played for c in keep):
            keep += [c for c in out if c.play.position == played]
        return keep, n

    # -- the cube ---------------------------------------------------------------------

    @property
    def cube_plies(self) -> int:
        """How many rolls the cube look-ahead searches: the analysis's depth, at most :data:`MAX_CUBE_PLIES`."""
        return min(self.plies, MAX_CUBE_PLIES) if self._cube_plies is None else self._cube_plies

    def cube(self, position: Position, info: CubeInfo, doubled: bool = False
             ) -> tuple[CubeDecision, tuple[float, ...]]:
        """The cube decision of the player on roll of ``position`` and its cubeless probabilities.

        At 1 ply or more the decision is a cubeful look-ahead of :attr:`cube_plies`
        rolls (:func:`gammon.ai.cube_search.cubeful_cube_action`): the depth the
        checker play is judged at, up to :data:`MAX_CUBE_PLIES`.  At 0 plies it is
        Janowski's formula on the 0-ply probabilities.  ``doubled``: the player
        doubled (for a take or pass: the double was made), so a double he should
        not have made (a dead cube) is valued too.

        With :attr:`screen`, a 2-roll look-ahead (about 20 times the cost of a
        1-roll one) is spent only where it can matter: a double made, a double
        the 1-roll look-ahead calls proper, or a decision it finds within
        :data:`SCREEN_MARGIN` of double/take.  A non-double it finds clearly
        right keeps its 1-roll verdict (no error, not close).
        """
        probs = self.probs_on_roll(position)
        if self.plies == 0:
            return cube_decision(probs, info, cube_efficiency(position)), probs
        ev = self.engine.cube_evaluator_for(position.variant)
        depth = self.cube_plies
        if self.screen and depth > 1 and not doubled:
            first = cubeful_cube_action(ev, position, info, 1)
            if not first.doubles and first.equity - min(first.double_take, 1.0) >= SCREEN_MARGIN:
                return first, probs
        return cubeful_cube_action(ev, position, info, depth, value_double=doubled), probs

    # -- luck --------------------------------------------------------------------------

    def roll_value(self, position: Position, dice: tuple[int, int], info: CubeInfo) -> Value:
        """The mover's 0-ply value after the best play of ``dice`` (a pass when none is legal)."""
        best = self._luck_engine.best_play(position, dice)
        if best.moves:
            return self.value_after(self.probs_after(best.position, 0), best.position, info)
        probs = flip(self.engine.evaluator.evaluate(position.swap(), 0))
        return self.value_after(probs, position, info)

    def luck(self, position: Position, dice: tuple[int, int], info: CubeInfo,
             opening: bool = False) -> tuple[Value, Value]:
        """(luck, value of the roll): the roll's value minus the average over all rolls."""
        rolls = OPENING_ROLLS if opening else ROLLS
        total_w = 0
        emg = 0.0
        mwc = 0.0
        actual: Value | None = None
        key = (max(dice), min(dice))
        for roll, w in rolls:
            v = self.roll_value(position, roll, info)
            total_w += w
            emg += w * v.emg
            mwc += w * (v.mwc or 0.0)
            if roll == key:
                actual = v
        if actual is None:  # an opening double cannot happen; value it anyway
            actual = self.roll_value(position, dice, info)
        mean = Value(emg / total_w, None if info.is_money else mwc / total_w)
        luck = Value(actual.emg - mean.emg,
                     None if actual.mwc is None or mean.mwc is None else actual.mwc - mean.mwc)
        return luck, actual


__all__ = [
    "MAX_CUBE_PLIES", "OPENING_ROLLS", "ROLLS", "SCREEN_MARGIN", "Candidate", "Value", "Valuer", "final_value",
    "flip",
]
