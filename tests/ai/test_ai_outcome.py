"""The engine's compiled game result agrees with the rules (``Position.outcome``) in every variant.

The rule: "A gammon: the loser has borne off no checker.  A backgammon: the
loser has borne off none and still has a checker on the bar or in the
winner's home board."  Hypergammon has 1-3 checkers a side, so "borne off
none" is "all 3 (2, 1) still on the board", never "15".
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from gammon.ai.evaluator import over_into
from gammon.ai.network import Network, terminal_into
from gammon.core.position import Position, ResultKind
from gammon.core.variants import VARIANTS, Variant

_VARIANTS = sorted({v.name: v for v in VARIANTS.values()}.values(), key=lambda v: v.name)


def _expected(position: Position) -> np.ndarray:
    """Five probabilities (player on roll) of a finished position, from ``Position.outcome``."""
    o = position.outcome
    assert o is not None
    g = 1.0 if o.kind >= ResultKind.GAMMON else 0.0
    bg = 1.0 if o.kind >= ResultKind.BACKGAMMON else 0.0
    return np.array([1.0, g, bg, 0.0, 0.0]) if o.winner_is_me else np.array([0.0, 0.0, 0.0, g, bg])


def _loser_rows(checkers: int, rng: np.random.Generator, count: int) -> list[list[int]]:
    """Rows (25 counts) of a loser with 1..checkers checkers left: all of them when few, else random."""
    if checkers <= 3:
        rows = []
        for left in range(1, checkers + 1):
            for slots in itertools.combinations_with_replacement(range(25), left):
                row = [0] * 25
                for s in slots:
                    row[s] += 1
                rows.append(row)
        return rows
    rows = []
    for _ in range(count):
        left = int(rng.choice([checkers, checkers, int(rng.integers(1, checkers + 1))]))
        row = [0] * 25
        # Mostly near home, sometimes in the winner's home board or on the bar.
        for s in rng.choice(25, size=left, p=_slot_weights()):
            row[int(s)] += 1
        rows.append(row)
    return rows


def _slot_weights() -> np.ndarray:
    w = np.ones(25)
    w[:6] = 6.0
    w /= w.sum()
    return w


def _finished(variant: Variant, rng: np.random.Generator, count: int = 400) -> list[Position]:
    """Finished positions of ``variant``: the player on roll won, or lost (then seen swapped)."""
    out = []
    empty = [0] * 25
    for row in _loser_rows(variant.checkers, rng, count):
        out.append(Position(empty, row, variant))  # the player on roll has won
        out.append(Position(row, empty, variant))  # the player on roll has lost
    return out


@pytest.mark.parametrize("variant", _VARIANTS, ids=lambda v: v.name)
def test_compiled_outcome_matches_the_rules(variant: Variant) -> None:
    rng = np.random.default_rng(7)
    positions = _finished(variant, rng)
    kinds = {p.outcome.kind for p in positions if p.outcome is not None}
    # (With one checker a side the loser never has borne one off: no single games.)
    singles = {ResultKind.SINGLE} if variant.checkers > 1 else set()
    assert kinds == singles | {ResultKind.GAMMON, ResultKind.BACKGAMMON}
    out = np.zeros(5, dtype=np.float32)
    for p in positions:
        b = np.frombuffer(bytearray(p.board), dtype=np.uint8)
        over_into(b, variant.checkers, out)
        assert np.array_equal(out, _expected(p)), (variant.name, p.board)


@pytest.mark.parametrize("variant", _VARIANTS, ids=lambda v: v.name)
def test_every_engine_path_scores_a_finished_game_by_the_variant(variant: Variant) -> None:
    from gammon.ai.engine import Engine

    rng = np.random.default_rng(11)
    positions = _finished(variant, rng, 60)[:200]
    engine = Engine("expert")
    got = engine.probabilities(positions)
    want = np.array([_expected(p) for p in positions])
    assert np.array_equal(got, want)
    for p in positions[:40]:
        assert np.array_equal(engine.evaluate(p).probabilities, tuple(_expected(p)))
    net: Network = engine.network
    boards = np.frombuffer(b"".join(p.board for p in positions), dtype=np.uint8).reshape(-1, 50)
    lost = [i for i, p in enumerate(positions) if p.outcome is not None and not p.outcome.winner_is_me]
    assert np.array_equal(net.evaluate_boards(boards[lost], variant.checkers), want[lost])
    won = [i for i, p in enumerate(positions) if p.outcome is not None and p.outcome.winner_is_me]
    ys, _ = net.evaluate_results(boards[won], variant.checkers)
    assert np.array_equal(ys, want[won])


def test_hypergammon_gammon_is_a_gammon() -> None:
    """The drift this file guards: three checkers left, none off, is a gammon (not a single)."""
    p = Position([0] * 25, [0, 0, 0, 0, 1, 1, 1] + [0] * 18, "hypergammon")
    assert p.outcome is not None and p.outcome.kind == ResultKind.GAMMON
    out = np.zeros(5, dtype=np.float32)
    terminal_into(np.frombuffer(bytearray(p.board), dtype=np.uint8), 3, out)
    assert list(out) == [1.0, 1.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize("variant", _VARIANTS, ids=lambda v: v.name)
def test_games_played_to_the_end_agree(variant: Variant) -> None:
    """Random games to the end: the engine's value of the last play's result is the rules' result."""
    from gammon.ai.engine import Engine

    engine = Engine("expert")
    rng = np.random.default_rng(3)
    for _ in range(6):
        pos = Position.initial(variant)
        for _ply in range(2000):
            d = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
            ranked = engine.rank_plays(pos, d)
            if not ranked:
                pos = pos.swap()
                continue
            pick = ranked[int(rng.integers(0, len(ranked)))]
            after = pick.play.position
            if after.outcome is not None:
                # The mover's values after the winning play are the exact result.
                assert pick.probabilities == tuple(_expected(after))
                break
            pos = after.swap()
        else:
            pytest.fail("a random game did not end")
