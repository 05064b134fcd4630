"""Checker play analysed at the score: the best play is the best one at the score and cube, not for money.

Written from the rules of match play, at two scores where the match winning
chance after a play follows from its cubeless chances with no cube to model:

* Double match point (both 1-away): only winning the game counts, so a play
  is worth its chance to win, gammons or not (and the cube is dead).
* The Crawford game with the player on roll 2-away and his opponent 1-away:
  there is no doubling; a gammon (or backgammon) wins him the match, a single
  game only reaches double match point (50%), and losing anything loses it.
  So a play is worth ``0.5 * single + 1.0 * gammon``: he needs the gammon.

In each position below the best play by that rule is far down the cubeless
money ranking (outside the engine's money move filter), and the money-best
play is a clear error at the score.  The rule is applied to every legal play,
valued at the analysis depth, so the analysis must find the best play among
all of them, not among the best money plays.

The positions were chosen with the nets shipped when the tests were written (the
2,195,000-game nets refined on 2-ply targets), which the tests load from
``tests/data/weights_2195000_deep2.npz``: they check how the analysis ranks plays at a
score, not how strong the shipped nets are, so shipping new weights does not move them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from boards import pos
from gammon.ai.cube import CubeInfo
from gammon.ai.engine import Engine
from gammon.analysis.decisions import Decision, analyse_move
from gammon.analysis.valuation import Valuer
from gammon.analysis.walk import RollTask
from gammon.core.plays import Play
from gammon.core.position import Position
from paths import DATA

#: The nets the positions below were chosen with (see the module docstring).
WEIGHTS = DATA / "weights_2195000_deep2.npz"
DMP = CubeInfo(match_length=7, score=(6, 6))
#: The Crawford game, the player on roll 2-away and his opponent 1-away.
CRAWFORD_TRAILER = CubeInfo(match_length=7, score=(5, 6), crawford=True)

Rule = Callable[[Sequence[float]], float]


def dmp_mwc(probs: Sequence[float]) -> float:
    """Double match point: the chance to win the game."""
    return float(probs[0])


def crawford_trailer_mwc(probs: Sequence[float]) -> float:
    """2-away in the Crawford game: a single win reaches DMP (0.5), a gammon wins the match."""
    win, gammon = float(probs[0]), float(probs[1])
    return 0.5 * (win - gammon) + 1.0 * gammon


#: The mover is far behind with three checkers on the opponent's ace point; the
#: opponent is bearing off.  Money runs (24/18(2)) to save the gammon; at DMP the
#: gammon costs nothing and the back checkers wait for a shot.
ACE_POINT_GAME = pos("x: 24:3 13:2 12 8 7 6:3 5:2 3:2; o: 3:2 2:5")
#: The mover leads the race; 1-4 can hit two blots in his board (7/3* 5/4*, strong
#: for money, with gammons) or run safely (16/11), which wins more games.
DOUBLE_HIT = pos("x: 16 11 7:3 6:3 5:3 2:2 1:2; o: 22 21 13:3 11 8:2 6:3 3:2 2:2")
#: 1-2: money plays safe (8/5); needing a gammon, the mover hits loose (18/17*),
#: winning a few games fewer and many more gammons.
HIT_FOR_GAMMON = pos("x: 18:2 11:2 8:3 6:3 4:2 3 2:2; o: 15:2 13:3 8 6:4 5:2 4:2 3")


def valuer_at(plies: int) -> Valuer:
    """The analysis's valuer at ``plies`` over the nets of :data:`WEIGHTS`."""
    return Valuer(plies=plies, engine=Engine(plies=0, weights=str(WEIGHTS)))


def _by_rule(valuer: Valuer, position: Position, dice: tuple[int, int], rule: Rule) -> list[tuple[float, Play]]:
    """Every legal play with its MWC by ``rule`` from its chances at the valuer's depth, best first."""
    plays = position.legal_plays(dice)
    valued = [(rule(valuer.probs_after(p.position, valuer.plies)), p) for p in plays]
    return sorted(valued, key=lambda t: -t[0])


def _analyse(valuer: Valuer, position: Position, dice: tuple[int, int], info: CubeInfo, play: Play) -> Decision:
    task = RollTask(0, 1, 0, position, info, dice=dice, played=play.position, play_text=str(play))
    return analyse_move(valuer, task)


def _check(valuer: Valuer, position: Position, dice: tuple[int, int], info: CubeInfo, rule: Rule) -> float:
    """The match-best play (by ``rule``) is no error; the money-best play loses what the rule says.

    Returns the MWC the money-best play loses.
    """
    ranked = _by_rule(valuer, position, dice, rule)
    best_mwc, best = ranked[0]
    assert best_mwc - ranked[1][0] > 1e-4  # a clear best play
    money = valuer.engine.rank_plays(position, dice, plies=valuer.plies)  # cubeless money, best first
    money_best = money[0].play
    assert money_best.position != best.position
    # A money filter would drop the match-best play: it is not among the 7 best money plays
    # searched to full depth.
    full = money[0].plies
    assert all(r.play.position != best.position for r in money[:7] if r.plies == full)

    good = _analyse(valuer, position, dice, info, best)
    assert good.best == str(best)
    assert good.equity_lost == 0.0 and good.mwc_lost == 0.0 and good.mark is None
    assert good.mwc_after == pytest.approx(best_mwc, abs=1e-6)

    bad = _analyse(valuer, position, dice, info, money_best)
    money_mwc = next(m for m, p in ranked if p.position == money_best.position)
    assert bad.best == str(best)
    assert bad.mwc_lost == pytest.approx(best_mwc - money_mwc, abs=1e-6)
    assert bad.mark is not None
    return bad.mwc_lost


def test_at_double_match_point_the_back_game_waits_for_a_shot() -> None:
    lost = _check(valuer_at(0), ACE_POINT_GAME, (3, 3), DMP, dmp_mwc)
    assert lost > 0.02  # 3% of the match (an error: 0.06 EMG, the EMG at DMP being 2 MWC - 1)


def test_at_double_match_point_the_safe_run_beats_the_double_hit_at_1_ply() -> None:
    valuer = valuer_at(1)
    lost = _check(valuer, DOUBLE_HIT, (1, 4), DMP, dmp_mwc)
    assert lost > 0.05  # about 10% of the match: a blunder


def test_a_trailer_who_needs_a_gammon_plays_for_it() -> None:
    valuer = valuer_at(0)
    lost = _check(valuer, HIT_FOR_GAMMON, (1, 2), CRAWFORD_TRAILER, crawford_trailer_mwc)
    assert lost > 0.03  # about 5% of the match: a blunder (the EMG here is 4 MWC - 1)
    # The match-best play risks the game for gammons: fewer wins, more gammons than the money play.
    best = _by_rule(valuer, HIT_FOR_GAMMON, (1, 2), crawford_trailer_mwc)[0][1]
    money_best = valuer.engine.rank_plays(HIT_FOR_GAMMON, (1, 2))[0].play
    pb = valuer.probs_after(best.position, 0)
    pm = valuer.probs_after(money_best.position, 0)
    assert pb[0] < pm[0] and pb[1] > pm[1] + 0.05


def test_money_analysis_still_ranks_by_cubeful_money_equity() -> None:
    # The same position for money (centred cube): the money play is best and no error.
    valuer = valuer_at(0)
    money_best = valuer.engine.rank_plays(ACE_POINT_GAME, (3, 3))[0].play
    d = _analyse(valuer, ACE_POINT_GAME, (3, 3), CubeInfo(), money_best)
    assert d.best == str(money_best) and d.equity_lost == 0.0 and d.mwc_lost is None
