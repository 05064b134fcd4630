"""n-ply search with move filters and an evaluation cache, compiled with numba.

Values are always for the player on roll of the position evaluated:

* 0-ply: the static evaluator (:func:`gammon.ai.evaluator.static_eval`);
* n-ply: the average over the 21 rolls (1/36 for doubles, 2/36 otherwise) of
  the value, after the turn passes, of the best play of that roll by 0-ply,
  evaluated at (n-1)-ply.  A roll with no legal play passes the turn with the
  position unchanged.  GNU Backgammon's ``EvaluatePositionFull`` does the
  same.

A play is valued by its result with the opponent on roll, so a play "at
n-ply" sees n rolls ahead: at 1-ply each of the opponent's replies is
chosen (and valued) by 0-ply, at 2-ply each reply is valued by averaging
our own next rolls.

Choosing a play at n-ply (:func:`rank_results`) filters candidates as GNU
Backgammon's move filters do: every play is valued at 0-ply (one numba call
for the whole roll), the best ``accept`` plus up to ``extra`` more within
``threshold`` equity of the best survive, and only those are searched deeper.

Values found at 1 ply or more are kept in a cache (the compiled kernels and
their workspace: :mod:`gammon.ai.search_kernels`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from gammon.ai.evaluator import ClassifyingEvaluator, NetEvaluator, as_boards
from gammon.ai.network import NUM_OUTPUTS
from gammon.ai.probabilities import Probabilities, equities
from gammon.ai.pruning import PRUNE_INPUTS, load_pruning
from gammon.ai.search_kernels import (
    CACHE_BITS,
    OPP_POOL_SHIFT,
    roll_results,
    run,
)

# Re-exported: the depth limit and the kernels' modes and workspace are part of this module's API.
from gammon.ai.search_kernels import MAX_SEARCH_PLIES as MAX_SEARCH_PLIES
from gammon.ai.search_kernels import MODE_POSITIONS as MODE_POSITIONS
from gammon.ai.search_kernels import MODE_RESULTS as MODE_RESULTS
from gammon.ai.search_kernels import MODE_ROLL as MODE_ROLL
from gammon.ai.search_kernels import SearchWorkspace as SearchWorkspace
from gammon.core.errors import GammonError
from gammon.core.position import Position
from gammon.i18n import N_


@dataclass(frozen=True, slots=True)
class MoveFilter:
    """Which candidates survive a search stage (GNU Backgammon's ``movefilter``).

    The best ``accept`` plays (at least one) always survive; the next ones
    survive, up to ``accept + extra`` in all, while within ``threshold``
    equity of the best.
    """

    accept: int = 0
    extra: int = 8
    threshold: float = 0.16

    def keep(self, equities: np.ndarray) -> np.ndarray:
        """Indices of the surviving plays, best first."""
        order = np.argsort(-np.asarray(equities), kind="stable")
        if len(order) == 0:
            return order
        base = max(1, self.accept)
        limit = max(base, self.accept + self.extra)
        best = float(equities[order[0]])
        k = base
        while k < min(limit, len(order)) and best - float(equities[order[k]]) <= self.threshold:
            k += 1
        out: np.ndarray = order[:k]
        return out


#: The filters: keep up to 8 plays within 0.16 of the best by 0-ply (GNU
#: Backgammon's "normal" first stage); for a 2-ply (or deeper) search value those
#: at 1-ply (a twentieth of the cost of 2-ply each) and keep up to 4 within 0.06
#: of the best there, then search the survivors at the final depth.
DEFAULT_FILTERS: tuple[MoveFilter | None, ...] = (
    MoveFilter(0, 8, 0.16), MoveFilter(0, 4, 0.06), None,
)


def search_flags(position: Position) -> int:
    """The flags the search kernels take for ``position``: its generator flags
    (:attr:`~gammon.core.Position.generator_flags`: the rules and the pool of the
    player on roll) plus the other side's pool, so that every ply of the search
    generates with its own mover's pool (Acey-Deucey)."""
    return position.generator_flags | position.pool[1] << OPP_POOL_SHIFT


#: The weight of a play's 1-ply value in the value the engine gives it at 1 ply; the rest is
#: its 0-ply value.  A 1-ply value ends on the evaluations of the opponent's replies, a 0-ply
#: one on the position with the opponent to roll, and the two err in opposite directions: their
#: mean, as the play's 1-ply value, cut GNU Backgammon 2-ply's grading of 1,000 1-ply choices
#: from 4.17 to 3.49 mp a decision (seed 1; seed 2: 2.38 to 1.79), and as the 2-ply search's
#: filter it costs nothing (1.79 to 1.60; 1.20 to 1.18).  Weights 0.3 and 0.7 did no better;
#: mixing 2-ply values with 1-ply or 0-ply ones did worse (``benchmarks/results/ENGINE.md``,
#: "The 1-ply blend").  The training's searches value positions unblended (weight 1).
ONE_PLY_WEIGHT = 0.5


class PlyEvaluator:
    """An :class:`~gammon.ai.evaluator.Evaluator` that looks ``plies`` rolls ahead.

    ``one_ply_weight`` (see :data:`ONE_PLY_WEIGHT`): the weight of the 1-ply value of a
    play's result in :meth:`evaluate_results` at 1 ply, the rest on its 0-ply value (1: the
    1-ply value alone).  Positions on roll and deeper searches are not blended.

    Thread-safe: each thread gets its own workspace (and cache).
    """

    def __init__(self, inner: NetEvaluator | ClassifyingEvaluator, plies: int = 0,
                 cache_bits: int = CACHE_BITS, prune: int = 0, one_ply_weight: float = 1.0) -> None:
        if not 0 <= plies <= MAX_SEARCH_PLIES:
            raise GammonError(f"plies must be 0 to {MAX_SEARCH_PLIES}, not {plies}")
        if not 0 <= prune <= 64:
            raise GammonError(f"prune must be 0 (none) to 64 plays, not {prune}")
        if not 0.0 <= one_ply_weight <= 1.0:
            raise GammonError(f"the 1-ply weight must be 0 to 1, not {one_ply_weight}")
        self.inner = inner
        self.plies = plies
        self.one_ply_weight = float(one_ply_weight)
        #: Plays per inner node valued by the evaluator after the pruning net's pre-filter (0: all).
        self.prune = prune
        self._pw = load_pruning() if prune else np.zeros((PRUNE_INPUTS + 3, 1), dtype=np.float32)
        self._cache_bits = cache_bits
        self._local = threading.local()
        #: The evaluator's tables as the kernels take them from Python (a plain tuple).
        self._model = tuple(inner.kernel_model())

    @property
    def workspace(self) -> SearchWorkspace:
        """The calling thread's workspace."""
        return self._buffers()[0]

    def _buffers(self) -> tuple[SearchWorkspace, tuple[Any, ...]]:
        """The calling thread's workspace, and the same as a plain tuple for the kernels."""
        found: tuple[SearchWorkspace, tuple[Any, ...]] | None = getattr(self._local, "ws", None)
        if found is None:
            ws = SearchWorkspace.create(self._cache_bits, self.prune, self._pw)
            found = self._local.ws = (ws, tuple(ws))
        return found

    def run(self, mode: int, src: np.ndarray, plies: int = 0, dice: tuple[int, int] = (0, 0),
            checkers: int = 15, flags: int = 1, out: np.ndarray | None = None) -> tuple[int, int]:
        """Call the kernel :func:`run` (``MODE_ROLL``: :func:`roll_results`, with ``dice``)
        with this thread's workspace.

        ``src`` must be a writable C-contiguous ``(n, 50)`` uint8 array (one
        compiled version serves every call); ``out`` defaults to the
        workspace's ``ys`` (which holds at least MAX_RESULTS rows).
        """
        ws, args = self._buffers()
        ys = ws.ys if out is None else out
        # numba's Dispatcher stubs do not type the calls.
        if mode == MODE_ROLL:
            roll: Any = roll_results
            n, best = roll(src, dice[0], dice[1], flags, checkers, self._model, args, ys)
        else:
            kernel: Any = run
            n, best = kernel(mode, src, plies, flags, checkers, self._model, args, ys)
        return int(n), int(best)

    def roll(self, board: bytes, dice: tuple[int, int], checkers: int = 15,
             flags: int = 1) -> tuple[int, int]:
        """The 0-ply decision on ``board`` (a position's 50 bytes) for checked ``dice``:
        ``(n, best)``, the results and their values in this thread's workspace
        (``boards[0, :n]``, ``moves[0, :n]``, ``ys[:n]``), as :func:`run`'s ``MODE_ROLL``."""
        ws, args = self._buffers()
        src = ws.src
        src[0] = np.frombuffer(board, dtype=np.uint8)
        kernel: Any = roll_results  # numba's Dispatcher stub does not type the call
        n, best = kernel(src, dice[0], dice[1], flags, checkers, self._model, args, ws.ys)
        return int(n), int(best)

    def _run(self, boards: np.ndarray, checkers: int, flags: int, plies: int,
             as_results: bool) -> np.ndarray:
        ys = np.empty((boards.shape[0], NUM_OUTPUTS), dtype=np.float32)
        self.run(MODE_RESULTS if as_results else MODE_POSITIONS, boards, plies, (0, 0), checkers,
                 flags, ys)
        return ys.astype(np.float64)

    def evaluate_batch(self, positions: Sequence[Position] | np.ndarray,
                       plies: int | None = None) -> np.ndarray:
        """``(n, 5)`` probabilities for the players on roll, at ``plies`` (default: own)."""
        p = self.plies if plies is None else plies
        boards, checkers, flags = _uniform_variant(positions)
        if flags is None:
            assert not isinstance(positions, np.ndarray)
            return np.concatenate([self.evaluate_batch([q], p) for q in positions])
        return self._run(boards, checkers, flags, p, False)

    def evaluate(self, position: Position, plies: int | None = None) -> Probabilities:
        """The five chances of the player on roll of ``position`` at ``plies`` (default: own)."""
        return Probabilities.of_row(self.evaluate_batch([position], plies)[0])

    def evaluate_results(self, boards: np.ndarray, plies: int, variant_checkers: int = 15,
                         flags: int = 1) -> np.ndarray:
        """Mover's-view probabilities of move results ``(n, 50)`` at ``plies`` (at 1 ply
        blended with the 0-ply ones by :attr:`one_ply_weight`)."""
        b = np.array(boards, dtype=np.uint8, order="C").reshape(-1, 50)
        ys = self._run(b, variant_checkers, flags, plies, True)
        w = self.one_ply_weight
        if plies == 1 and w != 1.0:
            ys = w * ys + (1.0 - w) * self._run(b, variant_checkers, flags, 0, True)
        return ys

    def __repr__(self) -> str:
        extra = f", prune={self.prune}" if self.prune else ""
        if self.one_ply_weight != 1.0:
            extra += f", one_ply_weight={self.one_ply_weight}"
        return f"PlyEvaluator({self.inner!r}, plies={self.plies}{extra})"


def _uniform_variant(positions: Sequence[Position] | np.ndarray) -> tuple[np.ndarray, int, int | None]:
    """Boards, checkers and search flags of one batch; flags None when the positions'
    pools differ (then each is searched with its own)."""
    boards, checkers = as_boards(positions)
    flags: int | None = 1
    if not isinstance(positions, np.ndarray) and len(positions) > 0:
        variants = {p.variant for p in positions}
        if len(variants) > 1:
            raise GammonError("positions of different variants cannot be searched in one batch")
        found = {search_flags(p) for p in positions}
        flags = found.pop() if len(found) == 1 else None
    return boards, int(checkers[0]) if len(checkers) else 15, flags


@dataclass(frozen=True, slots=True)
class Ranked:
    """The candidates of one roll after a search, best first.

    ``order`` indexes the generator's results; ``probs[k]`` (mover's view) and
    ``plies[k]`` (depth of that value) belong to result ``order[k]``.  Plays
    searched to the full depth come first, each stage's survivors ahead of
    those filtered out before it.
    """

    order: np.ndarray
    probs: np.ndarray
    equities: np.ndarray
    plies: np.ndarray


#: What ranks plays: ``scorer(probs, rows)`` values the results ``rows`` (indices
#: into the boards) from their mover's-view probabilities ``probs`` ``(len(rows), 5)``,
#: higher is better, on the scale of equity (the filters' thresholds apply to it).
Scorer = Callable[[np.ndarray, np.ndarray], np.ndarray]


def money_scorer(probs: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The default :data:`Scorer`: cubeless money equity."""
    return equities(probs)


def rank_results(evaluator: PlyEvaluator, boards: np.ndarray, probs0: np.ndarray, plies: int,
                 checkers: int = 15, flags: int = 1,
                 filters: Sequence[MoveFilter | None] = DEFAULT_FILTERS,
                 scorer: Scorer | None = None) -> Ranked:
    """Rank move results ``boards`` ``(n, 50)`` given their 0-ply values ``probs0``.

    At each depth ``d`` below ``plies`` with a filter, the survivors of the
    previous stage are valued at depth ``d`` (0-ply values are given) and
    filtered; the last survivors are valued at ``plies``.  ``scorer`` turns
    probabilities into what is compared (default: cubeless money equity; the
    engine passes a match-aware one, :mod:`gammon.ai.match_play`).
    """
    score = scorer or money_scorer
    n = boards.shape[0]
    probs = np.array(probs0, dtype=np.float64).reshape(n, NUM_OUTPUTS)
    depth = np.zeros(n, dtype=np.int64)
    eq = np.asarray(score(probs, np.arange(n)), dtype=np.float64)
    alive = np.arange(n)
    # Elimination rank: plays filtered out earlier rank below later survivors.
    stage_of = np.zeros(n, dtype=np.int64)
    for d in range(plies):
        f = filters[d] if d < len(filters) else None
        if d > 0 and f is not None:
            ys = evaluator.evaluate_results(boards[alive], d, checkers, flags)
            probs[alive] = ys
            depth[alive] = d
            eq[alive] = score(ys, alive)
        if f is not None:
            alive = alive[f.keep(eq[alive])]
            stage_of[alive] = d + 1
    if plies > 0 and len(alive):
        ys = evaluator.evaluate_results(boards[alive], plies, checkers, flags)
        probs[alive] = ys
        depth[alive] = plies
        eq[alive] = score(ys, alive)
        stage_of[alive] = plies + 1
    order = np.lexsort((-eq, -stage_of))
    return Ranked(order, probs[order], eq[order], depth[order])


# -- levels ---------------------------------------------------------------------------


#: Plays the strongest level values fully at each inner node (see ``benchmarks/results/ENGINE.md``).
STRONGEST_PRUNE = 5

#: The world-class level's search: 2 plies like the strongest level's, over fewer plays (up to 5
#: within 0.10 of the best by 0-ply, then up to 2 within 0.04 by the 1-ply blend) and 3 replies
#: valued fully at each inner node.  GNU Backgammon 2-ply grades its choices 2.03 and 1.32 mp a
#: decision on two seeds of 1,000 (the strongest level: 1.60; the 1-ply blend world-class played
#: before stop 57: 3.49 and 1.79) at about 60% of the strongest level's time a move
#: (``benchmarks/results/judge_world_class.txt``, ``judge_world_class_seed2.txt``).
WORLD_CLASS_FILTERS: tuple[MoveFilter | None, ...] = (MoveFilter(0, 5, 0.10), MoveFilter(0, 2, 0.04), None)
WORLD_CLASS_PRUNE = 3


#: Trials of each rollout that decides the strongest level's close cube calls (those its 2-roll
#: look-ahead puts within ``cube_rollout_margin``, 8% in stop 64's replay): 648 brought its cube error
#: in 45 7-point matches and 20 money games from 2.5 to 1.9 mEMG a close decision by GNU
#: Backgammon's 2-ply (stop 65, ``benchmarks/results/match_pr_strongest_cube2_seed2_roll648.txt``);
#: 72 and 216 were too noisy in the replay of stored decisions (``probes_stop64.txt``).  A call
#: rolled out costs some 10 to 20 s on one core, some 27 s a game for both sides together.
STRONGEST_CUBE_ROLLOUT = 648


@dataclass(frozen=True, slots=True)
class Level:
    """A playing strength: search depth and the noise added to each play's equity.

    Noise is Gaussian with standard deviation ``noise`` (cubeless equity) and
    makes the weaker levels pick second-rate plays on purpose, as GNU
    Backgammon's beginner to advanced settings do with the same numbers.
    """

    name: str
    plies: int
    noise: float
    description: str
    filters: tuple[MoveFilter | None, ...] = DEFAULT_FILTERS
    #: Plays per inner node of the search valued by the evaluator after the pruning
    #: net's pre-filter (0: every play), see :func:`_replies`.
    prune: int = 0
    #: Depth of the cube decisions (None: ``plies``): 0 is Janowski's formula at the root,
    #: ``n`` a cubeful look-ahead with the formula ``n`` rolls ahead
    #: (:mod:`gammon.ai.cube_search`).
    cube_plies: int | None = None
    #: Trials of each cubeful rollout that decides a close cube call (0: none): where the
    #: look-ahead's own equities put no double within ``cube_rollout_margin`` of double, or
    #: take within it of pass, no double and double/take are rolled out
    #: (:func:`gammon.ai.cube_rollout.rollout_cube`) and decide instead.
    cube_rollout: int = 0
    cube_rollout_margin: float = 0.08

    @property
    def cube_depth(self) -> int:
        """The depth of this level's cube decisions."""
        return self.plies if self.cube_plies is None else self.cube_plies


LEVELS: dict[str, Level] = {
    lv.name: lv
    for lv in (
        Level("beginner", 0, 0.060, N_("0-ply with heavy noise: frequent mistakes, some blunders")),
        Level("casual", 0, 0.050, N_("0-ply with noise: plays plausibly, often inaccurately")),
        Level("intermediate", 0, 0.040, N_("0-ply with moderate noise")),
        Level("advanced", 0, 0.015, N_("0-ply with light noise: occasional small errors")),
        Level("expert", 0, 0.0, N_("the neural nets, no lookahead (instant); the cube looks 2 rolls ahead"),
              cube_plies=2),
        Level("world-class", 2, 0.0, N_("2-ply lookahead over the few best plays, pruned (fast); the cube "
                                        "looks 2 rolls ahead"),
              filters=WORLD_CLASS_FILTERS, prune=WORLD_CLASS_PRUNE, cube_plies=2),
        Level("strongest", 2, 0.0, N_("2-ply lookahead with move filters and pruning; close cube calls "
                                      "rolled out (slowest)"),
              prune=STRONGEST_PRUNE, cube_rollout=STRONGEST_CUBE_ROLLOUT),
    )
}


def find_level(name: str | Level) -> Level:
    """The level called ``name`` (case-insensitive; ``world class`` and ``world_class`` work).

    :raises GammonError: an unknown level, listing the known ones.
    """
    if isinstance(name, Level):
        return name
    key = str(name).strip().lower().replace(" ", "-").replace("_", "-")
    try:
        return LEVELS[key]
    except KeyError:
        raise GammonError(f"unknown level {name!r}; choose one of {', '.join(LEVELS)}") from None
