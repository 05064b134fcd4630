#!/usr/bin/env python3
"""Each variant's own net against the standard net, playing that variant through the engine.

Both players are :class:`gammon.ai.engine.Engine` at 0-ply, cubeless money
(no one doubles), and the games run through :class:`gammon.core.game.Game`, so
the variant's real rules apply: its start, the Dutch no-hit rule, Acey-Deucey's
pool, its 1-2 bonus (the double named is the one whose best play the mover's
net values most) and its stakes per checker left.  Games come in pairs with the
same dice (a seeded :class:`~gammon.core.dice.RandomDice` per pair) and the
seats exchanged, so much of the luck cancels; the standard error is taken over
the pairs.

**Luck-adjusted estimate.**  The pairs still leave the raw mean noisy (over
2,000 Nackgammon games its SE is about 0.028 ppg), because once the two nets
play differently the two games of a pair part ways.  So each game also gets a
luck total from ONE fixed judge for both players, the standard net at 0-ply,
cubeless money equity (an ``Engine(plies=0, weights=standard)``): for every
roll after the opening roll, the luck of the roll is the roller's value after
the judge's best play of the roll thrown minus the mean of that value over all
36 rolls (:data:`ROLLS`, the 21 distinct rolls weighted 1/36 or 2/36; a roll
with no legal play is worth the position passed, the opponent on roll, as
:meth:`gammon.analysis.valuation.Valuer.roll_value` values a pass).  A game's
luck-adjusted result for player 0 is the points player 0 won minus (the luck of
player 0's rolls minus the luck of player 1's).  Each luck term has expectation
zero given everything before its roll, whatever the judge and whoever plays, so
the adjusted mean is unbiased; it is a control variate (as the rollouts' variance
reduction, :mod:`gammon.ai.rollout`), and a judge that values positions well
takes most of the dice's noise out.  The pair value is adjusted a + adjusted b,
as for the raw figure.  The judge is cubeless: the analysis layer's
:meth:`~gammon.analysis.valuation.Valuer.luck` values cubefully (Janowski), so
the luck here is computed with the judge engine's own 0-ply roll generator
(:func:`roll_values`), which also values the 21 rolls much faster.

* The opening roll's luck is not counted: its dice are played from the
  starting position, and a pair's two games, with the same dice and the seats
  exchanged, give that same roll in that same position to each net once, so
  its luck would cancel exactly over the pair (leaving out a roll whose turn
  to come does not depend on the play keeps the adjusted mean unbiased).
  Where the first mover throws again (Dutch) that throw is an ordinary roll
  and counts (it too cancels over the pair).
* Acey-Deucey gets no luck adjustment, only the raw estimate: a 1-2 brings a
  double the roller names and another roll, so a turn's value is not the best
  play of one of 36 rolls (the mean over the rolls would have to value the
  whole bonus sequence), and the stakes are paid per checker left, not in the
  judge's equity units (win, gammon, backgammon), so luck in equity would not
  measure the points at stake.

The target (issue 12): the variant net wins > 0 points per game over 2,000
games; the script says MET only when the mean is above 0 by two standard
errors, judging the luck-adjusted estimate where there is one (the raw one is
printed beside it), else the raw one.

Usage: python benchmarks/variant_nets.py --variant dutch [--games 2000]
       [--net PATH] [--standard PATH] [--seed 1]
(``--net`` defaults to the shipped net for the variant, ``--standard`` to the
standard game's shipped checker-play net, the one a variant without a net of its own plays
with: since stop 59 ``weights-standard-0ply.npz``, before it ``weights.npz``.)
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from gammon.ai.engine import Engine
from gammon.ai.network import Network
from gammon.ai.probabilities import equities, equity
from gammon.ai.search import search_flags
from gammon.ai.variant_nets import load_variant_network, net_name, standard_network
from gammon.core.actions import ChooseDouble, Move, Roll
from gammon.core.dice import WEIGHTED_ROLLS, RandomDice
from gammon.core.game import Game, Phase
from gammon.core.position import Position
from gammon.core.rules import Rules
from gammon.core.variants import Variant, find_variant

TARGET_GAMES = 2000

#: The 21 distinct rolls (high die first) and how many of the 36 each stands for.
ROLLS = WEIGHTED_ROLLS
#: Each roll's chance (weights 1/36 for a double, 2/36 for the others).
ROLL_CHANCES = np.array([w for _, w in ROLLS], dtype=np.float64) / 36.0
_ROLL_INDEX = {dice: k for k, (dice, _) in enumerate(ROLLS)}


def luck_applies(variant: Variant) -> bool:
    """Whether the luck adjustment applies: not to Acey-Deucey (see the module docstring)."""
    return not (variant.acey_deucey_bonus or variant.pays_per_checker)


def roll_values(judge: Engine, position: Position) -> np.ndarray:
    """The roller's value of each roll of :data:`ROLLS` on ``position`` (the roller on roll).

    The judge's cubeless 0-ply money equity after its best play of the roll: the
    play :meth:`Engine.best_play <gammon.ai.engine.Engine.best_play>` chooses at
    0-ply and its equity, the first of :meth:`~gammon.ai.engine.Engine.rank_plays`
    at 0-ply, from the engine's 0-ply roll generator (one compiled call per roll,
    no play objects built).  A roll with no legal play is worth the position
    passed: the opponent on roll, valued by the judge and seen from the roller.
    """
    ev = judge.evaluator_for(position.variant)
    checkers, flags, board = position.variant.checkers, search_flags(position), position.board
    ws = ev.workspace
    rows = np.zeros((len(ROLLS), 5), dtype=np.float64)
    passes: list[int] = []
    for k, (dice, _) in enumerate(ROLLS):
        n, best = ev.roll(board, dice, checkers, flags)
        if n:
            rows[k] = ws.ys[best]  # the mover's probabilities after the best play
        else:
            passes.append(k)
    values = equities(rows)
    if passes:
        values[passes] = -equity(ev.evaluate(position.swap(), 0))
    return values


def roll_luck(values: np.ndarray, dice: tuple[int, int]) -> float:
    """The luck of ``dice`` given :func:`roll_values`' ``values``: the roll's value minus the mean
    over the 36 rolls."""
    return float(values[_ROLL_INDEX[(max(dice), min(dice))]] - ROLL_CHANCES @ values)


def _double_number(engine: Engine, game: Game) -> int:
    """Acey-Deucey: the double whose best play the engine values most (cubeless)."""
    best, best_eq = 1, -math.inf
    for n in range(1, 7):
        ranked = engine.rank_plays(game.position, (n, n), plies=0)
        eq = ranked[0].equity if ranked else -math.inf
        if eq > best_eq:
            best, best_eq = n, eq
    return best


def play_game(variant: Variant, engines: tuple[Engine, Engine], seed: int,
              judge: Engine | None = None) -> tuple[int, float]:
    """One cubeless money game of ``variant``: (points player 0 wins (negative: loses), luck).

    With a ``judge`` (0-ply), ``luck`` is the luck of player 0's rolls minus the
    luck of player 1's (:func:`roll_luck`, every roll after the opening roll);
    player 0's luck-adjusted result is ``points - luck``.  Without one it is 0.0.
    """
    if judge is not None and not luck_applies(variant):
        raise ValueError(f"no luck adjustment in {variant.name}")
    game = Game(Rules(variant=variant), RandomDice(seed))
    luck = 0.0
    while game.phase is not Phase.OVER:
        turn = game.turn
        if game.phase is Phase.OPENING:
            game.apply(Roll(0))
        elif game.phase is Phase.ROLL:
            # The luck is taken at the roll itself: a roll with no legal play passes at
            # once (the game never stops in the move phase for it).
            before = game.position  # seen from ``turn``, the roller
            game.apply(Roll(turn))
            if judge is not None:
                thrown = game.record[-1]
                assert isinstance(thrown, Roll) and thrown.dice is not None
                lk = roll_luck(roll_values(judge, before), thrown.dice)
                luck += lk if turn == 0 else -lk
        elif game.phase is Phase.MOVE:
            assert game.rolled is not None
            play = engines[turn].best_play(game.position, game.rolled)
            game.apply(Move(turn, play))
        elif game.phase is Phase.CHOOSE_DOUBLE:
            game.apply(ChooseDouble(turn, _double_number(engines[turn], game)))
        else:
            raise RuntimeError(f"unexpected phase {game.phase} in a game without the cube")
    assert game.result is not None
    pts = game.result.points
    return (pts if game.result.winner == 0 else -pts), luck


def _ppg_se(pairs: list[float]) -> tuple[float, float]:
    """Points per game and its standard error from the pairs' sums (two games each)."""
    arr = np.asarray(pairs, dtype=np.float64)
    se = float(arr.std(ddof=1) / math.sqrt(len(arr)) / 2) if len(arr) > 1 else math.nan
    return float(arr.mean() / 2), se


def duel(variant: Variant, net: Network, standard: Network, games: int, seed: int,
         log: bool = True, minutes: float | None = None) -> dict[str, float]:
    """``games`` games (pairs with the same dice, seats exchanged): the variant net's ppg and SE.

    ``games``, ``ppg``, ``se`` and ``win`` are the raw figures; ``ppg_adj`` and
    ``se_adj`` the luck-adjusted ones (NaN where the adjustment does not apply:
    :func:`luck_applies`).  With ``minutes``, stops after the pair that passes that
    much time (fewer games)."""
    ours = Engine(plies=0, weights=standard, variant_weights={variant.name: net})
    theirs = Engine(plies=0, weights=standard)
    assert ours.network_for(variant) is net and theirs.network_for(variant) is standard
    # The one judge of both players' luck: the standard net at 0-ply, cubeless.
    judge = Engine(plies=0, weights=standard) if luck_applies(variant) else None
    pairs: list[float] = []
    adjusted: list[float] = []
    wins = 0
    t0 = time.perf_counter()
    npairs = max(1, games // 2)
    for p in range(npairs):
        s = seed * 1_000_003 + p
        a, luck_a = play_game(variant, (ours, theirs), s, judge)
        b, luck_b = play_game(variant, (theirs, ours), s, judge)
        b = -b  # the variant net is player 1 here: its points are -b, its luck +luck_b
        wins += (a > 0) + (b > 0)
        pairs.append(a + b)
        adjusted.append((a - luck_a) + (b + luck_b))
        if minutes is not None and time.perf_counter() - t0 > 60 * minutes:
            print(f"  {variant.name}: time budget of {minutes} min spent after {2 * (p + 1)} games",
                  flush=True)
            break
        if log and (p + 1) % 50 == 0:
            m, se = _ppg_se(pairs)
            adj = ""
            if judge is not None:
                ma, sa = _ppg_se(adjusted)
                adj = f"  luck-adjusted {ma:+.3f} +- {sa:.3f}"
            print(f"  {variant.name}: {2 * (p + 1)} games  ppg {m:+.3f} +- {se:.3f}{adj}"
                  f"  ({time.perf_counter() - t0:.0f}s)", flush=True)
    n = 2 * len(pairs)
    ppg, se = _ppg_se(pairs)
    ppg_adj, se_adj = _ppg_se(adjusted) if judge is not None else (math.nan, math.nan)
    return {"games": n, "ppg": ppg, "se": se, "win": wins / n, "ppg_adj": ppg_adj, "se_adj": se_adj}


def _standard_net(path: str | None) -> Network:
    """The net at ``path``; by default the standard game's shipped checker-play net
    (:func:`gammon.ai.variant_nets.standard_network`), the one a variant without a net of its
    own plays with, so a variant's net is measured against what would play in its place."""
    if path:
        return Network.load(path)
    return standard_network()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", required=True)
    ap.add_argument("--games", type=int, default=TARGET_GAMES)
    ap.add_argument("--net", default=None, help="the variant net (default: the shipped one)")
    ap.add_argument("--standard", default=None,
                    help="the standard net (default: the shipped checker-play net, which plays a"
                         " variant without a net of its own)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--minutes", type=float, default=None, help="stop after this much time")
    a = ap.parse_args(argv)
    variant = find_variant(a.variant)
    if a.net:
        net = Network.load(a.net)
        source = a.net
    else:
        name = net_name(variant)
        loaded = load_variant_network(name) if name else None
        if loaded is None:
            print(f"error: no shipped net for {variant.name}", file=sys.stderr)
            return 2
        net, source = loaded, f"shipped weights-{name}.npz"
    standard = _standard_net(a.standard)
    trained = net.meta.get("games", "?")
    print(f"variant {variant.name}: net {source} (self-play games {trained}) vs the standard net,"
          f" 0-ply cubeless, {a.games} games in pairs with the same dice, seed {a.seed}", flush=True)
    r = duel(variant, net, standard, a.games, a.seed, minutes=a.minutes)
    adjusted = not math.isnan(r["ppg_adj"])
    if not adjusted:
        print(f"{variant.name}: no luck adjustment (a 1-2 brings a chosen double and another roll,"
              " and the stakes are per checker left, not in the judge's equity units):"
              " only the raw estimate applies", flush=True)
    # MET: more than zero by at least two standard errors, over the full number of games,
    # judged on the luck-adjusted estimate where there is one.
    ppg, se = (r["ppg_adj"], r["se_adj"]) if adjusted else (r["ppg"], r["se"])
    significant = ppg > 2 * se
    verdict = "MET" if r["games"] >= TARGET_GAMES and significant else "MISSED"
    if not significant:
        verdict += " (not above 0 by 2 SE)"
    if r["games"] < TARGET_GAMES:
        verdict += f" (fewer than {TARGET_GAMES} games)"
    adj = f"{r['ppg_adj']:+.3f} +- {r['se_adj']:.3f}" if adjusted else "n/a"
    print(f"RESULT {variant.name}: {r['games']} games  ppg {r['ppg']:+.3f} +- {r['se']:.3f} (raw)"
          f"  luck-adjusted {adj}  win {r['win']:.3f}  target > 0 over {TARGET_GAMES} games:"
          f" {verdict}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
