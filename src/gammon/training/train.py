"""TD(lambda) self-play training of the network evaluator, the game loop in numba.

Our own self-play only: the nets start from random weights and learn from the
results of games they play against themselves (standard backgammon, cubeless).

The games are :mod:`gammon.training.selfplay`'s compiled turns: each turn the
player on roll rolls (a seeded generator inside numba, so a run is reproducible
and its state is part of a checkpoint), all legal results are evaluated in one
batch, and the best by cubeless equity is played (with probability ``epsilon``
a random one).  Net 0 values contact positions, net 1 pure races.  The kernels
take their arguments bundled (:mod:`gammon.training.bundles`).

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

from gammon.ai.encoding import encode_into
from gammon.ai.network import NUM_OUTPUTS, Network, flip_into, forward_one, net_index, terminal_into
from gammon.ai.scoring import points_kernel
from gammon.core.variants import find_variant
from gammon.training.bundles import (
    MAX_SELFPLAY_PLIES,
    NET,
    Learning,
    Policy,
    Rules,
    Scratch,
    Trace,
    learning,
    policy,
    scratch,
    trace,
    variant_rules,
)
from gammon.training.runs import run_command
from gammon.training.selfplay import pass_turn, play_turn, seed_state, strength

# -- learning ------------------------------------------------------------------


@njit(cache=True, fastmath=True)
def _update(x, k, g, net, alpha, h, y, dh):  # type: ignore[no-untyped-def]
    """One gradient step of net ``k`` of the weights ``net`` moving its outputs for ``x``
    towards ``g`` (``h``, ``y``, ``dh``: the hidden units, outputs and hidden gradients)."""
    w1, b1, w2, b2 = net.w1, net.b1, net.w2, net.b2
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


@njit(cache=True)
def _learn(t, g, net, learn, tr):  # type: ignore[no-untyped-def]
    """Offline TD(lambda) over the game in ``tr`` whose turn ``t`` won with the result
    ``g`` (for the player on roll then): the lambda-returns backwards, one step each."""
    y = np.empty(NUM_OUTPUTS, dtype=np.float32)
    for u in range(t, -1, -1):
        _update(tr.xs[u], tr.ks[u], g, net, learn.alpha, tr.h, y, tr.dh)
        if u > 0:
            for o in range(NUM_OUTPUTS):
                g[o] = (1.0 - learn.lam) * tr.vs[u, o] + learn.lam * g[o]
            flip_into(g, g)


@njit(cache=True)
def _train_games(ngames, rules, pol, learn, rng, sc, tr, stats):  # type: ignore[no-untyped-def]
    """Play ``ngames`` self-play games of the variant (``rules``) by the net's policy
    ``pol``, learning (``learn``) into its weights after each.

    ``stats`` += (games, plies, first player's points, gammons (with
    backgammons), backgammons, abandoned games).
    """
    net = pol.weights
    knets = net.w1.shape[0]
    board = np.empty(50, dtype=np.uint8)
    after = np.empty(50, dtype=np.uint8)
    pools = np.empty(2, dtype=np.int64)
    g = np.empty(NUM_OUTPUTS, dtype=np.float32)
    for _ in range(ngames):
        for i in range(50):
            board[i] = rules.start[i]
        pools[0] = rules.pool
        pools[1] = rules.pool
        t = 0
        encode_into(board, tr.xs[0])
        tr.ks[0] = net_index(board, knets)
        first = True
        abandoned = False
        while True:
            if t + 1 >= MAX_SELFPLAY_PLIES:
                abandoned = True
                break
            won = play_turn(pol, board, pools, first, rules, rng, sc, after)
            first = False
            if won:
                terminal_into(after, rules.checkers, g)
                pts = points_kernel(1 + int(g[1]) + int(g[2]), 1, True, True, False, True, False, 0)
                stats[1] += t + 1
                stats[2] += pts if t % 2 == 0 else -pts
                if g[1] > 0:
                    stats[3] += 1
                if g[2] > 0:
                    stats[4] += 1
                break
            pass_turn(after, pools, board)
            t += 1
            encode_into(board, tr.xs[t])
            tr.ks[t] = net_index(board, knets)
            forward_one(tr.xs[t], net.w1, net.b1, net.w2, net.b2, tr.ks[t], tr.h, tr.vs[t])
        if abandoned:
            stats[5] += 1
            continue
        stats[0] += 1
        # g holds the result for the player on roll at turn t (the winner).
        _learn(t, g, net, learn, tr)


# -- the Python driver -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Settings:
    """What a training run does; stored with every checkpoint (its keys sorted).

    Grouped: the games played, the learning, the net it starts from, the reports.
    """

    games: int = 100_000
    """Games to reach in all (a resumed run counts the games it has played)."""
    variant: str = "standard"
    """The variant played (a name :func:`gammon.core.variants.find_variant` knows)."""
    seed: int = 1
    """Seed of the dice generator and of the random first weights."""
    epsilon: float = 0.0
    """Chance that a self-play choice is replaced by a random play (exploration)."""
    alpha: float = 0.1
    """TD step size."""
    lam: float = 0.7
    """TD trace decay (lambda)."""
    hidden: int = 128
    """Hidden units of each net."""
    nets: int = 2
    """2: a contact and a race net; 1: one net for every position."""
    init_scale: float = 0.1
    """Spread of the random first weights."""
    init: str | None = None
    """Start from these weights (a ``.npz``, e.g. the shipped standard net) instead of random
    ones; progress reports then add the points per game against them ("vs_init_ppg")."""
    checkpoint_every: int = 5000
    """Games between checkpoints."""
    log_every: int = 1000
    """Games between progress reports."""
    eval_every: int = 5000
    """Games between strength figures (0: none)."""
    eval_games: int = 200
    """Games of each strength figure (:func:`gammon.training.selfplay.strength`)."""
    eval_seed: int = 12345
    """Seed of each strength figure's dice (the same every time)."""
    snapshot_every: int = 100_000
    """Games between the snapshots kept in ``snapshots/`` (0: none)."""


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
        self.scratch: Scratch = scratch()
        self.trace: Trace = trace(self.net.hidden)
        self.rules: Rules = variant_rules(self.variant)

    def play(self, games: int) -> np.ndarray:
        """Train on ``games`` more games; returns the stats array of that chunk."""
        s = self.settings
        pol: Policy = policy(NET, self.net, s.epsilon)
        learn: Learning = learning(s.alpha, s.lam)
        stats = np.zeros(6, dtype=np.int64)
        _train_games(games, self.rules, pol, learn, self.rng, self.scratch, self.trace, stats)
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
        """Save the weights, generator state and metadata to ``checkpoint.npz`` and ``meta.json``."""
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
