"""Referee adapter: 0-ply play with a contact net that reads :mod:`features`' candidate inputs.

The engine cannot load such a net (its encoder has no such inputs yet), so this adapter values
each legal play's result itself: the shipped 0-ply engine ranks the plays, and every result that
the contact net values (net 0 of :func:`gammon.ai.network.net_indices`: in contact, not
crashed) is valued again by the candidate net from the encoder's inputs and the candidate
inputs, made to obey the board (:func:`gammon.ai.network.settle_into`) as the engine's values
are; the other results (race, crashed, the bear-off tables, finished games) keep the engine's
values, which the candidate fit left as they were.  The play of the highest cubeless equity is
chosen, the first of equals.  For measuring a candidate only (``judge.py``, ``duel.py``):

    GAMMON_FEATURE_WEIGHTS=.../weights_features.npz python ../shared/referee/judge.py \\
        training/deep8/features_adapter.py --n 1000 --ply2
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from features import features  # noqa: E402

from gammon import Position  # noqa: E402
from gammon.ai.encoding import encode_batch  # noqa: E402
from gammon.ai.engine import Engine  # noqa: E402
from gammon.ai.network import equity, flip_probs, net_indices, settle_into  # noqa: E402
from gammon.training.fitting import _forward  # noqa: E402

ENGINE = Engine(plies=0)
_z = np.load(os.environ["GAMMON_FEATURE_WEIGHTS"])
WEIGHTS = {k: np.asarray(_z[k], dtype=np.float64) for k in ("w1", "b1", "w2", "b2")}
NAME = f"gammon 0-ply with candidate inputs ({os.environ['GAMMON_FEATURE_WEIGHTS']})"


def choose(position_id: str, dice: tuple[int, int]) -> str:
    position = Position.from_position_id(position_id)
    ranked = ENGINE.rank_plays(position, (int(dice[0]), int(dice[1])))
    if not ranked:
        return position_id
    mover = np.array([np.frombuffer(r.play.position.board, dtype=np.uint8) for r in ranked])
    boards = np.ascontiguousarray(np.concatenate([mover[:, 25:], mover[:, :25]], axis=1))  # opponent on roll
    values = [equity(r.probabilities) for r in ranked]
    contact = np.flatnonzero(net_indices(boards, 3) == 0)
    if len(contact):
        x = np.hstack([encode_batch(boards[contact]), features(boards[contact])]).astype(np.float64)
        y = _forward(WEIGHTS, 0, x)[1].astype(np.float32)
        for row, r in enumerate(contact):
            out = np.ascontiguousarray(y[row])
            settle_into(boards[r], 15, out)
            values[r] = equity(flip_probs([float(v) for v in out]))
    best = int(np.argmax(values))
    return ranked[best].play.position.position_id
