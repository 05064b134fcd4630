"""TD(lambda) self-play training of the network evaluator, the game loop in numba.

Our own self-play only: the nets start from random weights and learn from the
results of games they play against themselves (standard backgammon, cubeless).

Each turn the player on roll rolls (a seeded splitmix64 generator inside numba,
so a run is reproducible and its state is part of a checkpoint), the move
generator gives every distinct legal result, all results are encoded and
evaluated in one batch, and the best by cubeless equity is played (with
probability ``epsilon`` a random one).  Net 0 values contact positions, net 1
pure races.

Learning is offline TD(lambda) per game: the values the net gave during the
game (``V_t`` for the position with the player on roll at turn ``t``) give
the lambda-returns backwards from the final result,

    G_{T-1} = result,   G_t = flip((1 - lambda) V_{t+1} + lambda G_{t+1}),

(``flip`` turns five probabilities into the other player's) and each
position's net is moved by ``alpha * (G_t - V_t) * grad V_t``.  With the weights
fixed during a game this is exactly the forward view of TD(lambda); updates
are sparse in the inputs, so a game costs little beyond playing it.

Run ``gammon train td --games N --out DIR [--resume]`` (:mod:`gammon.cli.train_command`);
the directory gets ``checkpoint.npz`` (weights, generator state) and ``meta.json``.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from gammon.ai.encoding import NUM_INPUTS, encode_into, is_contact, shots, swap_into
from gammon.ai.network import (
    NUM_OUTPUTS,
    Network,
    equity_of,
    flip_into,
    forward_one,
    net_index,
    side_empty,
    terminal_into,
)
from gammon.ai.rng import GOLDEN, M1, next_u64
from gammon.ai.scoring import points_kernel
from gammon.core import movegen
from gammon.core.pips import pips
from gammon.core.variants import STANDARD, Variant, find_variant
from gammon.training.runs import run_command

#: Standard backgammon's move generator switches and checkers (the default variant).
_FLAGS = STANDARD.flags
_CHECKERS = STANDARD.checkers
#: Column of a generated move row holding the dice it used (see ``movegen.MOVE_COLS``).
_USED = 12

#: Most turns one self-play game (training, refinement) may take; a longer game is abandoned
#: (never seen in practice).
MAX_SELFPLAY_PLIES = 4000



# -- random numbers ------------------------------------------------------------


@njit(cache=True)
def _die(state):  # type: ignore[no-untyped-def]
    return np.int64(next_u64(state) % np.uint64(6)) + 1


@njit(cache=True)
def _uniform(state):  # type: ignore[no-untyped-def]
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _below(state, n):  # type: ignore[no-untyped-def]
    return np.int64(next_u64(state) % np.uint64(n))


def seed_state(seed: int) -> np.ndarray:
    """A generator state for ``seed``."""
    s = np.zeros(1, dtype=np.uint64)
    s[0] = (seed * int(M1) + int(GOLDEN)) & 0xFFFFFFFFFFFFFFFF
    return s


# -- a fixed baseline player -----------------------------------------------------


@njit(cache=True)
def heuristic_score(b, checkers=15):  # type: ignore[no-untyped-def]
    """A simple pip-count and safety heuristic for a move result (mover first).

    Prefers hitting, making points (home board and primes), few exposed blots;
    in a race, bearing off and pips.  A fixed yardstick for progress reports.
    """
    if side_empty(b, 0):
        return 1e6
    off = checkers
    for i in range(25):
        off -= b[i]
    if not is_contact(b):
        return 10.0 * off - 0.1 * pips(b, 0)
    score = 0.02 * (pips(b, 25) - pips(b, 0)) + 1.0 * b[49]
    run = 0
    prime = 0
    home = 0
    made = 0
    for i in range(24):
        c = b[i]
        if c >= 2:
            made += 1
            run += 1
            if run > prime:
                prime = run
            if i < 6:
                home += 1
        else:
            run = 0
    score += 0.3 * home + 0.1 * made + 0.2 * prime
    score -= 2.0 * shots(b, 0, 25) / 36.0
    return score


# -- one game ------------------------------------------------------------------


@njit(cache=True)
def _roll(rng, first):  # type: ignore[no-untyped-def]
    d1 = _die(rng)
    d2 = _die(rng)
    while first and d1 == d2:
        d1 = _die(rng)
        d2 = _die(rng)
    return d1, d2


@njit(cache=True)
def _pick(kind, n, checkers, w1, b1, w2, b2, gb, cx, cy, tmp):  # type: ignore[no-untyped-def]
    """The best of the ``n`` generated results in ``gb`` and its value for the mover.

    ``kind`` 0: the net (greedy by cubeless equity; a finished game wins at once);
    1: the heuristic.  ``cx[r]``/``cy[r]`` get the net's inputs and the
    probabilities of each result with the opponent on roll (kind 0).
    """
    best = 0
    bestv = -1e30
    if kind == 0:
        h = np.empty(b1.shape[1], dtype=np.float32)
        knets = w1.shape[0]
        for r in range(n):
            row = gb[r]
            if side_empty(row, 0):
                terminal_into(row, checkers, cy[r])
                return r, 1e6
            swap_into(row, tmp)
            encode_into(tmp, cx[r])
            forward_one(cx[r], w1, b1, w2, b2, net_index(tmp, knets), h, cy[r])
            v = -equity_of(cy[r])
            if v > bestv:
                bestv = v
                best = r
        return best, bestv
    for r in range(n):
        v = heuristic_score(gb[r], checkers)
        if v > bestv:
            bestv = v
            best = r
    return best, bestv


@njit(cache=True)
def _choose_v(kind, board, d1, d2, flags, checkers, w1, b1, w2, b2, eps, rng, gb, gm, table, cx, cy, tmp):  # type: ignore[no-untyped-def]
    """Generate the results of a roll under the variant's ``flags`` and pick one.

    Returns (count, index); with probability ``eps`` the net's choice is
    replaced by a random result (exploration).
    """
    n = movegen.generate(board, d1, d2, flags, checkers, gb, gm, table)
    if n == 0:
        return 0, -1
    best, _v = _pick(kind, n, checkers, w1, b1, w2, b2, gb, cx, cy, tmp)
    if kind == 0 and eps > 0.0 and not side_empty(gb[best], 0) and _uniform(rng) < eps:
        best = _below(rng, n)
    return n, best


@njit(cache=True)
def _play_turn(kind, board, pools, first, rules, w1, b1, w2, b2, eps, rng, gb, gm, table, cx, cy,  # type: ignore[no-untyped-def]
               tmp, out):
    """Play one whole turn of the player on roll of ``board`` under the variant's rules.

    ``rules`` = (generator flags, checkers, reroll opening, Acey-Deucey bonus).
    ``pools`` = never-entered checkers (mover, opponent) (Acey-Deucey's pool: of
    the checkers at index 24, that many may wait; entries take hit ones first).
    Acey-Deucey: "if both the 1 and the 2 were legally played, the player's
    chosen double follows; if all four of those moves were played too, the dice
    are thrown again" (the double is chosen with its play: the best result over
    the six doubles).  ``out`` gets the final board in the mover's view.
    Returns 1 when the mover won (``out``'s side 0 is empty), else 0; ``pools``
    is updated for the mover (not swapped).
    """
    flags = rules[0]
    checkers = rules[1]
    for i in range(50):
        out[i] = board[i]
    stage = 0
    opening = first
    best_board = np.empty(50, dtype=np.uint8)
    while True:
        if stage == 0:
            d1, d2 = _roll(rng, opening and rules[2] == 0)
            opening = False
            n, best = _choose_v(kind, out, d1, d2, flags | (pools[0] << 8), checkers, w1, b1, w2,
                                b2, eps, rng, gb, gm, table, cx, cy, tmp)
            if n == 0:
                return 0
            used = gm[best, _USED]
            for i in range(50):
                out[i] = gb[best, i]
            if out[24] < pools[0]:
                pools[0] = out[24]
            if side_empty(out, 0):
                return 1
            if rules[3] != 0 and d1 + d2 == 3 and d1 != d2 and used == 2:
                stage = 1
                continue
            return 0
        found = False
        bestv = -1e30
        bused = 0
        for dd in range(1, 7):
            n = movegen.generate(out, dd, dd, flags | (pools[0] << 8), checkers, gb, gm, table)
            if n == 0:
                continue
            r, v = _pick(kind, n, checkers, w1, b1, w2, b2, gb, cx, cy, tmp)
            if v > bestv:
                bestv = v
                found = True
                bused = gm[r, _USED]
                for i in range(50):
                    best_board[i] = gb[r, i]
        if not found:
            return 0
        for i in range(50):
            out[i] = best_board[i]
        if out[24] < pools[0]:
            pools[0] = out[24]
        if side_empty(out, 0):
            return 1
        if bused == 4:
            stage = 0
            continue
        return 0


@njit(cache=True)
def _pass_turn(after, pools, board):  # type: ignore[no-untyped-def]
    """The turn passes: ``board`` gets ``after`` (the mover's view after the turn) seen by
    the other player, and the two pools change places."""
    swap_into(after, board)
    p = pools[0]
    pools[0] = pools[1]
    pools[1] = p


@njit(cache=True)
def _result_points(b, checkers=15, per_checker=False):  # type: ignore[no-untyped-def]
    """Points won by the player whose side of ``b`` is empty: 1, 2 or 3 (single, gammon,
    backgammon), or with ``per_checker`` (Acey-Deucey) the loser's checkers not borne off."""
    if per_checker:
        left = 0
        for i in range(25):
            left += b[25 + i]
        return points_kernel(1, 1, True, True, False, True, True, left)
    out = np.empty(5, dtype=np.float32)
    terminal_into(b, checkers, out)
    # Cubeless money scoring (cube 1, gammons count): core's rule through its compiled twin.
    return points_kernel(1 + int(out[1]) + int(out[2]), 1, True, True, False, True, False, 0)


@njit(cache=True, fastmath=True)
def _update(x, k, g, w1, b1, w2, b2, alpha, h, y, dh):  # type: ignore[no-untyped-def]
    """One gradient step of net ``k`` moving its outputs for ``x`` towards ``g``."""
    forward_one(x, w1, b1, w2, b2, k, h, y)
    nh = h.shape[0]
    dy = np.empty(NUM_OUTPUTS, dtype=np.float32)
    for o in range(NUM_OUTPUTS):
        dy[o] = alpha * (g[o] - y[o]) * y[o] * (1.0 - y[o])
    for j in range(nh):
        s = 0.0
        for o in range(NUM_OUTPUTS):
            s += dy[o] * w2[k, j, o]
        dh[j] = s * h[j] * (1.0 - h[j])
        for o in range(NUM_OUTPUTS):
            w2[k, j, o] += dy[o] * h[j]
        b1[k, j] += dh[j]
    for o in range(NUM_OUTPUTS):
        b2[k, o] += dy[o]
    for i in range(x.shape[0]):
        xi = x[i]
        if xi != 0.0:
            row = w1[k, i]
            for j in range(nh):
                row[j] += dh[j] * xi


class _Scratch:
    """Preallocated arrays for the numba game loops."""

    def __init__(self, hidden: int) -> None:
        ws = movegen.Workspace()
        self.gb, self.gm, self.table = ws.boards, ws.moves, ws.table
        cap = movegen.MAX_RESULTS
        self.cx = np.zeros((cap, NUM_INPUTS), dtype=np.float32)
        self.cy = np.zeros((cap, NUM_OUTPUTS), dtype=np.float32)
        self.xs = np.zeros((MAX_SELFPLAY_PLIES, NUM_INPUTS), dtype=np.float32)
        self.ks = np.zeros(MAX_SELFPLAY_PLIES, dtype=np.int64)
        self.vs = np.zeros((MAX_SELFPLAY_PLIES, NUM_OUTPUTS), dtype=np.float32)
        self.h = np.zeros(hidden, dtype=np.float32)
        self.dh = np.zeros(hidden, dtype=np.float32)


@njit(cache=True)
def _train_games(  # type: ignore[no-untyped-def]
    ngames, start, rules, pool0, w1, b1, w2, b2, alpha, lam, eps, rng, gb, gm, table, cx, cy, xs,
    ks, vs, h, dh, stats,
):
    """Play ``ngames`` self-play games of the variant (``rules``, see :func:`_play_turn`;
    ``pool0`` never-entered checkers a side starts with), learning after each.

    ``stats`` += (games, plies, first player's points, gammons (with
    backgammons), backgammons, abandoned games).
    """
    knets = w1.shape[0]
    checkers = rules[1]
    tmp = np.empty(50, dtype=np.uint8)
    board = np.empty(50, dtype=np.uint8)
    after = np.empty(50, dtype=np.uint8)
    pools = np.empty(2, dtype=np.int64)
    g = np.empty(NUM_OUTPUTS, dtype=np.float32)
    y = np.empty(NUM_OUTPUTS, dtype=np.float32)
    for _ in range(ngames):
        for i in range(50):
            board[i] = start[i]
        pools[0] = pool0
        pools[1] = pool0
        t = 0
        encode_into(board, xs[0])
        ks[0] = net_index(board, knets)
        first = True
        abandoned = False
        while True:
            if t + 1 >= MAX_SELFPLAY_PLIES:
                abandoned = True
                break
            won = _play_turn(0, board, pools, first, rules, w1, b1, w2, b2, eps, rng, gb, gm,
                             table, cx, cy, tmp, after)
            first = False
            if won:
                terminal_into(after, checkers, g)
                pts = points_kernel(1 + int(g[1]) + int(g[2]), 1, True, True, False, True, False, 0)
                stats[1] += t + 1
                stats[2] += pts if t % 2 == 0 else -pts
                if g[1] > 0:
                    stats[3] += 1
                if g[2] > 0:
                    stats[4] += 1
                break
            _pass_turn(after, pools, board)
            t += 1
            encode_into(board, xs[t])
            ks[t] = net_index(board, knets)
            forward_one(xs[t], w1, b1, w2, b2, ks[t], h, vs[t])
        if abandoned:
            stats[5] += 1
            continue
        stats[0] += 1
        # g holds the result for the player on roll at turn t (the winner).
        for u in range(t, -1, -1):
            _update(xs[u], ks[u], g, w1, b1, w2, b2, alpha, h, y, dh)
            if u > 0:
                for o in range(NUM_OUTPUTS):
                    g[o] = (1.0 - lam) * vs[u, o] + lam * g[o]
                flip_into(g, g)


@njit(cache=True)
def _play_game(start, rules, pool0, per_checker, kinds, wa1, ba1, wa2, ba2, wb1, bb1, wb2, bb2,  # type: ignore[no-untyped-def]
               rng, gb, gm, table, cx, cy):
    """One game between player A (moves first) and B; returns A's points (0: abandoned)."""
    tmp = np.empty(50, dtype=np.uint8)
    board = start.copy()
    after = np.empty(50, dtype=np.uint8)
    pools = np.empty(2, dtype=np.int64)
    pools[0] = pool0
    pools[1] = pool0
    for t in range(MAX_SELFPLAY_PLIES):
        p = t % 2
        if p == 0:
            won = _play_turn(kinds[0], board, pools, t == 0, rules, wa1, ba1, wa2, ba2, 0.0, rng,
                             gb, gm, table, cx, cy, tmp, after)
        else:
            won = _play_turn(kinds[1], board, pools, t == 0, rules, wb1, bb1, wb2, bb2, 0.0, rng,
                             gb, gm, table, cx, cy, tmp, after)
        if won:
            pts = _result_points(after, rules[1], per_checker)
            return pts if p == 0 else -pts
        _pass_turn(after, pools, board)
    return 0


@njit(cache=True)
def _match(npairs, seed0, start, rules, pool0, per_checker, kind_a, kind_b, wa1, ba1, wa2, ba2,  # type: ignore[no-untyped-def]
           wb1, bb1, wb2, bb2, gb, gm, table, cx, cy):
    """``npairs`` pairs of games with the same dice, A first then B first.

    Returns (A's total points, A's wins, games, A's sum of squared pair totals)."""
    rng = np.zeros(1, dtype=np.uint64)
    kinds = np.empty(2, dtype=np.int64)
    total = 0
    wins = 0
    sq = 0
    for p in range(npairs):
        pair = 0
        for side in range(2):
            rng[0] = np.uint64(seed0 + p) * M1 + GOLDEN
            if side == 0:
                kinds[0] = kind_a
                kinds[1] = kind_b
                pts = _play_game(start, rules, pool0, per_checker, kinds, wa1, ba1, wa2, ba2,
                                 wb1, bb1, wb2, bb2, rng, gb, gm, table, cx, cy)
            else:
                kinds[0] = kind_b
                kinds[1] = kind_a
                pts = -_play_game(start, rules, pool0, per_checker, kinds, wb1, bb1, wb2, bb2,
                                  wa1, ba1, wa2, ba2, rng, gb, gm, table, cx, cy)
            total += pts
            pair += pts
            if pts > 0:
                wins += 1
        sq += pair * pair
    return total, wins, 2 * npairs, sq


def variant_rules(variant: Variant) -> tuple[np.ndarray, np.ndarray, int, bool]:
    """The compiled loops' view of a variant: (start board, rules, pool, pays per checker).

    ``rules`` = (generator flags, checkers, opening throw rerolled, 1-2 bonus);
    the pool is the never-entered checkers each side starts with (Acey-Deucey).
    """
    start = np.array(variant.start + variant.start, dtype=np.uint8)
    rules = np.array([variant.flags, variant.checkers, int(variant.opening == "reroll"),
                      int(variant.acey_deucey_bonus)], dtype=np.int64)
    pool = variant.start[24] if variant.starts_in_pool else 0
    return start, rules, pool, variant.pays_per_checker


# -- the Python driver -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Settings:
    """What a training run does; stored with every checkpoint."""

    games: int = 100_000
    seed: int = 1
    hidden: int = 128
    alpha: float = 0.1
    lam: float = 0.7
    epsilon: float = 0.0
    nets: int = 2
    init_scale: float = 0.1
    checkpoint_every: int = 5000
    log_every: int = 1000
    eval_every: int = 5000
    eval_games: int = 200
    eval_seed: int = 12345
    snapshot_every: int = 100_000
    #: The variant played (a name :func:`gammon.core.variants.find_variant` knows).
    variant: str = "standard"
    #: Start from these weights (a ``.npz``, e.g. the shipped standard net) instead of random
    #: ones; progress reports then add the points per game against them ("vs_init_ppg").
    init: str | None = None


@dataclass(frozen=True, slots=True)
class Progress:
    """One progress report."""

    games: int
    games_per_s: float
    elapsed_s: float
    recent_games_per_s: float
    plies_per_game: float
    gammon_rate: float
    strength: dict[str, float] | None

    def line(self) -> str:
        s = (
            f"games {self.games}  {self.recent_games_per_s:.1f} games/s"
            f" (run {self.games_per_s:.1f})  elapsed {self.elapsed_s:.0f}s"
            f"  plies/game {self.plies_per_game:.1f}  gammons {self.gammon_rate:.3f}"
        )
        if self.strength:
            s += "  " + "  ".join(f"{k} {v:.3f}" for k, v in self.strength.items())
        return s


def strength(net: Network, games: int = 200, seed: int = 12345,
             opponent: Network | None = None,
             variant: str | Variant = STANDARD) -> dict[str, float]:
    """Win rate and points per game of ``net`` against the heuristic (or ``opponent``)
    in ``variant`` (0-ply, cubeless; Acey-Deucey scores per checker left).

    Pairs of games share their dice with the sides exchanged; same seeds every call.
    ``se`` is the standard error of ``ppg`` over the pairs.
    """
    sc = _Scratch(max(net.hidden, opponent.hidden if opponent is not None else 0))
    start, rules, pool, per_checker = variant_rules(find_variant(variant))
    o = opponent if opponent is not None else net
    npairs = max(1, games // 2)
    total, wins, n, sq = _match(
        npairs, seed, start, rules, pool, per_checker, 0, 0 if opponent is not None else 1,
        net.w1, net.b1, net.w2, net.b2, o.w1, o.b1, o.w2, o.b2,
        sc.gb, sc.gm, sc.table, sc.cx, sc.cy,
    )
    mean_pair = total / npairs
    var = max(0.0, sq / npairs - mean_pair * mean_pair)
    se = (var / max(1, npairs - 1)) ** 0.5 / 2.0
    return {"win": wins / n, "ppg": total / n, "se": se}


class Trainer:
    """The state of a run: network, generator state, counters; checkpoints in ``out_dir``."""

    def __init__(self, settings: Settings, out_dir: str | os.PathLike[str] | None,
                 resume: bool = False) -> None:
        self.settings = settings
        self.out_dir = Path(out_dir) if out_dir is not None else None
        self.games_done = 0
        self.history: list[dict[str, Any]] = []
        #: The latest snapshot, the yardstick of the "vs_snap" figure.
        self.prev: Network | None = None
        ckpt = self.out_dir / "checkpoint.npz" if self.out_dir else None
        if resume and ckpt is not None and ckpt.exists():
            self.net = Network.load(ckpt)
            with np.load(ckpt, allow_pickle=False) as z:
                self.rng = np.array(z["rng"], dtype=np.uint64)
            self.games_done = int(self.net.meta.get("games", 0))
            self.history = list(self.net.meta.get("history", []))
            snaps = sorted((self.out_dir / "snapshots").glob("games-*.npz")) if self.out_dir else []
            if snaps:
                self.prev = Network.load(snaps[-1])
        elif settings.init is not None:
            self.net = Network.load(settings.init).copy()
            self.rng = seed_state(settings.seed)
        else:
            self.net = Network.random(settings.hidden, settings.nets, settings.seed,
                                      settings.init_scale)
            self.rng = seed_state(settings.seed)
        #: The weights the run started from (``Settings.init``), the "vs_init" yardstick.
        self.init_net = Network.load(settings.init) if settings.init is not None else None
        self.variant = find_variant(settings.variant)
        self.scratch = _Scratch(self.net.hidden)
        self.start, self.rules, self.pool, _ = variant_rules(self.variant)

    def play(self, games: int) -> np.ndarray:
        """Train on ``games`` more games; returns the stats array of that chunk."""
        s, n, sc = self.settings, self.net, self.scratch
        stats = np.zeros(6, dtype=np.int64)
        _train_games(
            games, self.start, self.rules, self.pool, n.w1, n.b1, n.w2, n.b2,
            np.float32(s.alpha), np.float32(s.lam), s.epsilon, self.rng, sc.gb, sc.gm, sc.table,
            sc.cx, sc.cy, sc.xs, sc.ks, sc.vs, sc.h, sc.dh, stats,
        )
        self.games_done += games
        return stats

    def snapshot(self) -> None:
        """Keep a copy of the weights as ``snapshots/games-NNNNNNNNN.npz``."""
        if self.out_dir is None:
            return
        d = self.out_dir / "snapshots"
        d.mkdir(parents=True, exist_ok=True)
        self.net.save(d / f"games-{self.games_done:09d}.npz")
        self.prev = self.net.copy()

    def checkpoint(self) -> None:
        if self.out_dir is None:
            return
        self.out_dir.mkdir(parents=True, exist_ok=True)
        meta = {
            "kind": "td-lambda self-play",
            "variant": self.variant.name,
            "games": self.games_done,
            "settings": dataclasses.asdict(self.settings),
            "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
            "command": run_command("td"),
            "history": self.history[-200:],
        }
        self.net.meta = meta
        self.net.save(self.out_dir / "checkpoint.npz", rng=self.rng)
        tmp = self.out_dir / "meta.json.tmp"
        tmp.write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
        os.replace(tmp, self.out_dir / "meta.json")


def train(settings: Settings, out_dir: str | os.PathLike[str] | None, *, resume: bool = False,
          progress: Callable[[Progress], None] | None = None) -> Network:
    """Train until ``settings.games`` games in all (counting resumed ones); return the net.

    Checkpoints every ``checkpoint_every`` games and at the end; calls
    ``progress`` every ``log_every`` games (with a strength figure every
    ``eval_every`` games: win rate and points per game of the net against the
    fixed heuristic, and points per game against the latest snapshot, kept
    every ``snapshot_every`` games in ``out_dir/snapshots``).
    """
    tr = Trainer(settings, out_dir, resume)
    t0 = time.perf_counter()
    done_at_start = tr.games_done
    chunk = max(1, min(settings.log_every, settings.checkpoint_every))
    last_ckpt = tr.games_done
    acc = np.zeros(6, dtype=np.int64)
    last_log = [float(tr.games_done), 0.0]
    while tr.games_done < settings.games:
        todo = min(chunk - tr.games_done % chunk, settings.games - tr.games_done)
        acc += tr.play(todo)
        g = tr.games_done
        at_log = g % settings.log_every == 0 or g >= settings.games
        if at_log:
            el = time.perf_counter() - t0
            st = None
            if settings.eval_every and (g % settings.eval_every == 0 or g >= settings.games):
                v = tr.variant
                st = strength(tr.net, settings.eval_games, settings.eval_seed, variant=v)
                st.pop("se")
                if tr.prev is not None:
                    vs = strength(tr.net, settings.eval_games, settings.eval_seed, tr.prev, v)
                    st["vs_snap_ppg"] = vs["ppg"]
                if tr.init_net is not None:
                    vs = strength(tr.net, settings.eval_games, settings.eval_seed, tr.init_net, v)
                    st["vs_init_ppg"] = vs["ppg"]
                    st["vs_init_se"] = vs["se"]
                tr.history.append({"games": g, **st})
            played = max(1, int(acc[0]))
            rep = Progress(g, (g - done_at_start) / max(el, 1e-9), el,
                           (g - last_log[0]) / max(el - last_log[1], 1e-9), acc[1] / played,
                           acc[3] / played, st)
            last_log[:] = [g, el]
            acc[:] = 0
            if progress is not None:
                progress(rep)
        if g - last_ckpt >= settings.checkpoint_every or g >= settings.games:
            tr.checkpoint()
            last_ckpt = g
        if settings.snapshot_every and g % settings.snapshot_every == 0:
            tr.snapshot()
    if tr.games_done == done_at_start:
        tr.checkpoint()
    return tr.net
