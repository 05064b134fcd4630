#!/usr/bin/env python3
"""Each variant's own net against the standard net, playing that variant through the engine.

Both players are :class:`gammon.ai.engine.Engine` at 0-ply, cubeless money
(no one doubles), and the games run through :class:`gammon.core.game.Game`, so
the variant's real rules apply: its start, the Dutch no-hit rule, Acey-Deucey's
pool, its 1-2 bonus (the double named is the one whose best play the mover's
net values most) and its stakes per checker left.  Games come in pairs with the
same dice (a seeded :class:`~gammon.core.dice.RandomDice` per pair) and the
seats exchanged, so most of the luck cancels; the standard error is taken over
the pairs.  The target (issue 12): the variant net wins > 0 points per game
over 2,000 games; the script says MET only when the mean is above 0 by two
standard errors.

Usage: python benchmarks/variant_nets.py --variant dutch [--games 2000]
       [--net PATH] [--standard PATH] [--seed 1]
(``--net`` defaults to the shipped net for the variant, ``--standard`` to the
shipped standard weights.)
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from importlib import resources

import numpy as np

from gammon.ai.engine import Engine
from gammon.ai.network import Network
from gammon.ai.variant_nets import load_variant_network, net_name
from gammon.core.actions import ChooseDouble, Move, Roll
from gammon.core.dice import RandomDice
from gammon.core.game import Game, Phase
from gammon.core.rules import Rules
from gammon.core.variants import Variant, find_variant

TARGET_GAMES = 2000


def _double_number(engine: Engine, game: Game) -> int:
    """Acey-Deucey: the double whose best play the engine values most (cubeless)."""
    best, best_eq = 1, -math.inf
    for n in range(1, 7):
        ranked = engine.rank_plays(game.position, (n, n), plies=0)
        eq = ranked[0].equity if ranked else -math.inf
        if eq > best_eq:
            best, best_eq = n, eq
    return best


def play_game(variant: Variant, engines: tuple[Engine, Engine], seed: int) -> int:
    """Points player 0 wins (negative: loses) in one cubeless money game of ``variant``."""
    game = Game(Rules(variant=variant), RandomDice(seed))
    while game.phase is not Phase.OVER:
        turn = game.turn
        if game.phase in (Phase.OPENING, Phase.ROLL):
            game.apply(Roll(0 if game.phase is Phase.OPENING else turn))
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
    return pts if game.result.winner == 0 else -pts


def duel(variant: Variant, net: Network, standard: Network, games: int, seed: int,
         log: bool = True, minutes: float | None = None) -> dict[str, float]:
    """``games`` games (pairs with the same dice, seats exchanged): the variant net's ppg and SE.

    With ``minutes``, stops after the pair that passes that much time (fewer games)."""
    ours = Engine(plies=0, weights=standard, variant_weights={variant.name: net})
    theirs = Engine(plies=0, weights=standard)
    assert ours.network_for(variant) is net and theirs.network_for(variant) is standard
    pairs = []
    wins = 0
    t0 = time.perf_counter()
    npairs = max(1, games // 2)
    for p in range(npairs):
        s = seed * 1_000_003 + p
        a = play_game(variant, (ours, theirs), s)
        b = -play_game(variant, (theirs, ours), s)
        wins += (a > 0) + (b > 0)
        pairs.append(a + b)
        if minutes is not None and time.perf_counter() - t0 > 60 * minutes:
            print(f"  {variant.name}: time budget of {minutes} min spent after {2 * (p + 1)} games",
                  flush=True)
            break
        if log and (p + 1) % 50 == 0:
            m = np.mean(pairs) / 2
            se = np.std(pairs, ddof=1) / math.sqrt(len(pairs)) / 2
            print(f"  {variant.name}: {2 * (p + 1)} games  ppg {m:+.3f} +- {se:.3f}"
                  f"  ({time.perf_counter() - t0:.0f}s)", flush=True)
    arr = np.array(pairs, dtype=np.float64)
    n = 2 * len(arr)
    se = float(arr.std(ddof=1) / math.sqrt(len(arr)) / 2) if len(arr) > 1 else math.nan
    return {"games": n, "ppg": float(arr.mean() / 2), "se": se, "win": wins / n}


def _standard_net(path: str | None) -> Network:
    if path:
        return Network.load(path)
    ref = resources.files("gammon.ai") / "data" / "weights.npz"
    with resources.as_file(ref) as p:
        return Network.load(p)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", required=True)
    ap.add_argument("--games", type=int, default=TARGET_GAMES)
    ap.add_argument("--net", default=None, help="the variant net (default: the shipped one)")
    ap.add_argument("--standard", default=None, help="the standard net (default: the shipped one)")
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
    # MET: more than zero by at least two standard errors, over the full number of games.
    significant = r["ppg"] > 2 * r["se"]
    verdict = "MET" if r["games"] >= TARGET_GAMES and significant else "MISSED"
    if not significant:
        verdict += " (not above 0 by 2 SE)"
    if r["games"] < TARGET_GAMES:
        verdict += f" (fewer than {TARGET_GAMES} games)"
    print(f"RESULT {variant.name}: {r['games']} games  ppg {r['ppg']:+.3f} +- {r['se']:.3f}"
          f"  win {r['win']:.3f}  target > 0 over {TARGET_GAMES} games: {verdict}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
