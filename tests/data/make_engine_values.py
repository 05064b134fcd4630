#!/usr/bin/env python3
"""Write ``tests/data/engine_values.npz``: the engine's exact numbers on fixed boards.

The file pins what the compiled evaluator computes (input encodings, 0-ply
probabilities, every candidate of a roll, 1-ply values) so that speed work on
the encoder and the forward pass can be checked bit for bit against the
numbers of the engine as it was when the file was written (commit d10a691).
The weights are a seeded random net (``Network.random(seed=5)``), not the
shipped ones, so retraining does not touch this file; the bear-off database is
the shipped one.  The boards come from seeded random play of every variant
(``tests/test_ai_exact.py`` reads the file).

Usage: python tests/data/make_engine_values.py  (rewrites the file)
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from gammon.ai.bearoff import load as load_bearoff
from gammon.ai.encoding import BASE_INPUTS, encode_batch
from gammon.ai.evaluator import ClassifyingEvaluator, static_batch
from gammon.ai.network import Network
from gammon.ai.search import MODE_POSITIONS, MODE_ROLL, PlyEvaluator, search_flags
from gammon.core.position import Position
from gammon.core.variants import VARIANTS

OUT = Path(__file__).with_name("engine_values.npz")
#: Decisions (position, dice) whose candidates are all kept, per variant.
ROLLS_PER_VARIANT = 60


def network() -> Network:
    """The seeded random net of the file, without the extra inputs (written before them)."""
    return Network.random(hidden=64, nets=2, seed=5, scale=0.15, inputs=BASE_INPUTS)


def decisions(seed: int = 3) -> list[tuple[Position, tuple[int, int]]]:
    """Seeded random games of every variant: (position, dice) before each roll."""
    rng = random.Random(seed)
    out: list[tuple[Position, tuple[int, int]]] = []
    for variant in VARIANTS.values():
        got = 0
        while got < ROLLS_PER_VARIANT:
            pos = Position.initial(variant)
            for _ in range(400):
                dice = (rng.randint(1, 6), rng.randint(1, 6))
                plays = pos.legal_plays(dice)
                if len(plays) and rng.random() < 0.3 and got < ROLLS_PER_VARIANT:
                    out.append((pos, dice))
                    got += 1
                if len(plays) == 0:
                    pos = pos.swap()
                    continue
                play = plays[rng.randrange(len(plays))]
                if play.position.is_game_over:
                    break
                pos = play.position.swap()
    return out


def main() -> None:
    net = network()
    static = ClassifyingEvaluator(net, load_bearoff())
    ev = PlyEvaluator(static, 0)
    items = decisions()
    boards: list[np.ndarray] = []
    checkers: list[int] = []
    roll_start: list[int] = []
    roll_ys: list[np.ndarray] = []
    roll_best: list[int] = []
    for pos, dice in items:
        src = np.frombuffer(bytearray(pos.board), dtype=np.uint8).reshape(1, 50)
        n, best = ev.run(MODE_ROLL, src, 0, dice, pos.variant.checkers, search_flags(pos))
        roll_start.append(len(roll_ys))
        roll_ys.extend(ev.workspace.ys[:n].copy())
        roll_best.append(best)
        boards.append(np.frombuffer(pos.board, dtype=np.uint8))
        checkers.append(pos.variant.checkers)
        for r in range(n):  # every candidate, with the opponent on roll
            b = ev.workspace.boards[0, r]
            boards.append(np.concatenate([b[25:], b[:25]]))
            checkers.append(pos.variant.checkers)
    bs = np.ascontiguousarray(np.array(boards, dtype=np.uint8))
    ck = np.array(checkers, dtype=np.int64)
    probs = np.zeros((len(bs), 5), dtype=np.float32)
    for c in np.unique(ck):
        sel = np.flatnonzero(ck == c)
        ys = np.zeros((len(sel), 5), dtype=np.float32)
        static_batch(np.ascontiguousarray(bs[sel]), int(c), tuple(static.kernel_model()), ys)
        probs[sel] = ys
    # 1-ply values of some of the positions (the search's own path).
    firsts = items[:: ROLLS_PER_VARIANT // 4]
    ply1 = np.zeros((len(firsts), 5), dtype=np.float32)
    for k, (p, _) in enumerate(firsts):
        src = np.frombuffer(bytearray(p.board), dtype=np.uint8).reshape(1, 50)
        ev.run(MODE_POSITIONS, src, 1, (0, 0), p.variant.checkers, search_flags(p), ply1[k:k + 1])
    np.savez_compressed(
        OUT, boards=bs, checkers=ck, inputs=encode_batch(bs)[:, :BASE_INPUTS], probs=probs,
        roll_src=np.array([np.frombuffer(p.board, dtype=np.uint8) for p, _ in items]),
        roll_checkers=np.array([p.variant.checkers for p, _ in items], dtype=np.int64),
        roll_flags=np.array([search_flags(p) for p, _ in items], dtype=np.int64),
        roll_dice=np.array([d for _, d in items], dtype=np.int64),
        roll_start=np.array(roll_start + [len(roll_ys)], dtype=np.int64),
        roll_ys=np.array(roll_ys, dtype=np.float32), roll_best=np.array(roll_best, dtype=np.int64),
        ply1_src=np.array([np.frombuffer(p.board, dtype=np.uint8) for p, _ in firsts]),
        ply1_checkers=np.array([p.variant.checkers for p, _ in firsts], dtype=np.int64),
        ply1_flags=np.array([search_flags(p) for p, _ in firsts], dtype=np.int64), ply1=ply1,
    )
    print(f"{OUT}: {len(bs)} boards, {len(items)} rolls, {len(firsts)} 1-ply values")


if __name__ == "__main__":
    main()
