"""Positions for refinement from our own self-play: kept positions and the siblings of plays.

:func:`collect_positions` plays the training's own compiled games
(:func:`gammon.training.selfplay.play_turn`: the net's 0-ply choice, a random play with
probability ``epsilon``) and keeps positions before their roll;
:func:`collect_siblings` turns them into the results of the net's best plays of a
random roll (what a 0-ply net must rank against each other).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from gammon.ai.distributed import task_seed
from gammon.ai.evaluator import classify_board
from gammon.ai.network import Network, crashed_rows_mask
from gammon.core.errors import GammonError
from gammon.core.position import Position
from gammon.core.variants import STANDARD, Variant, find_variant
from gammon.training.bundles import MAX_SELFPLAY_PLIES, NET, policy, scratch, variant_rules
from gammon.training.selfplay import pass_turn, play_turn, seed_state, uniform


@njit(cache=True)
def _collect(want, rules, pol, keep, rng, sc, out):  # type: ignore[no-untyped-def]
    """Self-play games until ``want`` positions are in ``out`` (player on roll first).

    The games are the training's own (:func:`gammon.training.selfplay.play_turn`: the
    variant's ``rules``, the policy ``pol``: the net's 0-ply choice, a random play
    with probability ``pol.eps``).  A position is kept (with probability ``keep``)
    before its roll when it is a race or contact position (not finished, not a
    bear-off database one).  Returns (positions, games).
    """
    board = np.empty(50, dtype=np.uint8)
    after = np.empty(50, dtype=np.uint8)
    pools = np.empty(2, dtype=np.int64)
    m = 0
    games = 0
    while m < want:
        for i in range(50):
            board[i] = rules.start[i]
        pools[0] = rules.pool
        pools[1] = rules.pool
        games += 1
        for t in range(MAX_SELFPLAY_PLIES):
            if m < want and classify_board(board) >= 2 and uniform(rng) < keep:
                for i in range(50):
                    out[m, i] = board[i]
                m += 1
            # The opening roll follows the variant's rule; later ones are ordinary.
            if play_turn(pol, board, pools, t == 0, rules, rng, sc, after):
                break
            pass_turn(after, pools, board)
    return m, games


def collect_positions(net: Network, count: int, seed: int = 1, epsilon: float = 0.1,
                      keep: float = 0.35, variant: str | Variant = STANDARD) -> tuple[np.ndarray, int]:
    """``count`` self-play positions ``(count, 50)`` uint8 (player on roll) of ``variant``
    and the games played."""
    if count < 0:
        raise GammonError("the number of positions must be at least 0")
    if not 0.0 < keep <= 1.0:
        raise GammonError("keep must be in (0, 1]")
    out = np.zeros((max(count, 1), 50), dtype=np.uint8)
    rules = variant_rules(find_variant(variant))
    rng = seed_state(seed)
    m, games = _collect(count, rules, policy(NET, net, epsilon), float(keep), rng, scratch(), out)
    return out[:m], int(games)


def sibling_positions(net: Network, boards: np.ndarray, k: int, count: int,
                      rng: np.random.Generator, variant: Variant = STANDARD) -> np.ndarray:
    """Up to ``count`` positions ``(n, 50)``: the results of the ``k`` best plays (by
    ``net``) of a random roll from each of ``boards``, in turn, seen by the next player
    on roll.

    A 0-ply net chooses among the results of one roll, so what its choices depend on
    is how it ranks those; self-play alone shows it mostly the results of the plays it
    liked.  Finished games and bear-off database positions are left out (their values
    are exact), as are rolls that cannot be played.
    """
    if k < 1:
        raise GammonError("siblings must be at least 1")
    out: list[bytes] = []
    for row in boards:
        if len(out) >= count:
            break
        pos = Position._make(bytes(row), variant)
        d1, d2 = (int(v) for v in rng.integers(1, 7, size=2))
        for r in net.rank_plays(pos, (d1, d2))[:k]:
            nxt = r.play.position.swap().board
            if classify_board(np.frombuffer(nxt, dtype=np.uint8)) >= 2:
                out.append(nxt)
    out = out[:count]
    if not out:
        return np.zeros((0, 50), dtype=np.uint8)
    return np.frombuffer(b"".join(out), dtype=np.uint8).reshape(-1, 50).copy()


def collect_siblings(net: Network, count: int, seed: int, k: int, epsilon: float = 0.1,
                     keep: float = 0.35, batch: int | None = None,
                     progress: Callable[[int, int], None] | None = None,
                     variant: str | Variant = STANDARD,
                     crashed_only: bool = False) -> tuple[np.ndarray, int]:
    """``count`` sibling positions (:func:`sibling_positions`) of ``net``'s self-play and the
    games played; with ``crashed_only`` of its crashed positions alone
    (:func:`~gammon.ai.encoding.is_crashed`: the class a third net values).

    Self-play positions are collected ``batch`` at a time (default: enough for ``count``
    if each gave ``k``), batch ``i`` seeded ``task_seed(seed, i)``, until ``count``
    results are in; one generator seeded ``seed`` throws the rolls.  ``progress`` is
    told the positions made and the batches played after each batch.  ``variant``: whose
    self-play (its start and rules) gives the positions.
    """
    v = find_variant(variant)
    rng = np.random.default_rng(seed)
    want = batch if batch is not None else count // k + 1
    if crashed_only:
        # About one kept position in twenty is crashed, and only late in a game: play whole
        # games' worth of positions a batch, or a small batch would never leave the opening.
        want = max(25 * want, 1000)
    parts: list[np.ndarray] = []
    made = games = i = 0
    while made < count:
        base, g = collect_positions(net, want, task_seed(seed, i), epsilon, keep, v)
        games += g
        if crashed_only:
            base = base[crashed_rows_mask(base)]
        part = sibling_positions(net, base, k, count - made, rng, v)
        parts.append(part)
        made += len(part)
        i += 1
        if progress is not None:
            progress(made, i)
    boards = np.concatenate(parts) if parts else np.zeros((0, 50), dtype=np.uint8)
    return boards, games
