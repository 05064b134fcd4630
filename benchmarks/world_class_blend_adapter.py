"""Referee adapter for an experiment on the world-class level (stop 50; not shipped): its 1-ply
blend with another net's 0-ply value (``benchmarks/results/judge_world_class_r5_blend.txt``).

The shipped world-class level keeps up to 8 plays within 0.16 of the best by the standard
net's 0-ply value and values each by the mean of that net's 1-ply and 0-ply values.  Here the
0-ply part (and, with ``BLEND_FILTER=zero``, the filter) comes from the net in
``BLEND_ZERO_WEIGHTS`` (default: the shipped 0-ply net); ``BLEND_W`` is the 1-ply value's
weight (default 0.5).  The stop-50 run used R5, the 0-ply net of stop 49
(``git show dfad48c:src/gammon/ai/data/weights-standard-0ply.npz > r5.npz``)::

  BLEND_ZERO_WEIGHTS=r5.npz BLEND_FILTER=zero BLEND_W=0.5 PYTHONPATH=src \\
    python ../shared/referee/judge.py benchmarks/world_class_blend_adapter.py --n 1000 --ply2 --seed 1
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from gammon import Position
from gammon.ai.engine import Engine
from gammon.ai.probabilities import equities
from gammon.ai.search import search_flags

_DATA = Path(__file__).resolve().parent.parent / "src" / "gammon" / "ai" / "data"
W = float(os.environ.get("BLEND_W", "0.5"))
FILTER = os.environ.get("BLEND_FILTER", "zero")  # "zero": the other net's 0-ply filter; "standard"
WORLD_CLASS = Engine("world-class")
ZERO = Engine(plies=0, weights=os.environ.get("BLEND_ZERO_WEIGHTS") or str(_DATA / "weights-standard-0ply.npz"))
STANDARD = Engine(plies=0, weights=str(_DATA / "weights.npz"))
NAME = f"gammon world-class blend w={W} filter={FILTER}"


def choose(position_id: str, dice: tuple[int, int]) -> str:
    pos = Position.from_position_id(position_id)
    d = (int(dice[0]), int(dice[1]))
    zero = ZERO.rank_plays(pos, d, plies=0)
    if not zero:
        return position_id
    ranked = zero if FILTER == "zero" else STANDARD.rank_plays(pos, d, plies=0)
    best = ranked[0].equity
    kept = [rp for rp in ranked[:8] if best - rp.equity <= 0.16]
    if len(kept) == 1:
        return kept[0].play.position.position_id
    by_id = {rp.play.position.position_id: rp for rp in zero}
    boards = np.stack([np.frombuffer(rp.play.position.board, dtype=np.uint8) for rp in kept]).copy()
    one_ply = WORLD_CLASS.evaluator._run(boards, 15, search_flags(pos), 1, True)
    zero_ply = np.array([list(by_id[rp.play.position.position_id].probabilities) for rp in kept])
    value = W * equities(one_ply) + (1 - W) * equities(zero_ply)
    return kept[int(np.argmax(value))].play.position.position_id
