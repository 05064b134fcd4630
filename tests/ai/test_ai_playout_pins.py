"""The compiled play-outs give, for fixed seeds, exactly the numbers they gave before the
encoder's speed work and before refinement's self-play moved onto the training's turn
(recorded at commit d10a691 with a seeded random net, so retraining does not touch them):
refinement's position collection, a rollout with variance reduction, the strength match
and a few TD training games."""

from __future__ import annotations

import hashlib

import pytest

from gammon import Position
from gammon.ai.bearoff import load as load_bearoff
from gammon.ai.evaluator import ClassifyingEvaluator
from gammon.ai.network import Network
from gammon.ai.rollout import RolloutSettings, rollout
from gammon.training.refine import collect_positions
from gammon.training.train import Settings, Trainer, strength

NET = Network.random(hidden=16, nets=2, seed=2, scale=0.2)


def test_refinement_collects_the_same_positions() -> None:
    boards, games = collect_positions(NET, 200, seed=5, epsilon=0.1, keep=0.35)
    assert games == 8
    assert hashlib.sha256(boards.tobytes()).hexdigest() == (
        "7632df734c1bbff241d8401aac5bebf8fe7227ea68326a4e87dd6314d693a374")


def test_a_seeded_rollout_gives_the_same_numbers() -> None:
    # home_only: the numbers predate the short-side table of races down to four checkers.
    r = rollout(Position.initial(), ClassifyingEvaluator(NET, load_bearoff().home_only()),
                RolloutSettings(trials=36, seed=3))
    # The trials' values are float32 sums compiled for the host CPU, whose last bits differ
    # between processors (AVX-512 against AVX2: about 2e-8 here); the same plays and dice give
    # the same numbers to 1e-6, a different play or roll anywhere moves them by far more.
    assert r.probs == pytest.approx((0.6224226359231975, 0.26956568857946417, -0.2901335196040674,
                                     0.13710206659919946, -0.2827314240283081), abs=1e-6, rel=0)
    assert r.equity == pytest.approx(0.36990679825090045, abs=1e-6, rel=0)


def test_the_strength_match_gives_the_same_result() -> None:
    assert strength(NET, 20, 9) == {"win": 0.0, "ppg": -2.65, "se": 0.1833333333333334}


def test_td_training_makes_the_same_weights() -> None:
    tr = Trainer(Settings(games=10, seed=3, hidden=16), None)
    tr.play(10)
    assert hashlib.sha256(tr.net.w1.tobytes() + tr.net.w2.tobytes()).hexdigest() == (
        "43bbc351e34ce0044ee0de3b1e57f8260621960b3739b457ff7d5d53a23fb167")
