"""The compiled play-outs give, for fixed seeds, exactly the numbers they gave before the
encoder's speed work and before refinement's self-play moved onto the training's turn
(recorded at commit d10a691 with a seeded random net, so retraining does not touch them):
refinement's position collection, a rollout with variance reduction, the strength match
and a few TD training games.  The variants' training games and matches were recorded
(at commit 6b431dc) before the training kernels took their arguments as named tuples.

The TD training games' weights were recorded again at stop 54, when a net trained from
scratch got the six extra inputs (``gammon.ai.encoding.add_extras``): with them left out
(the encoder's extras skipped, the random net drawn on the first 214 inputs) the same code
gave exactly the hashes recorded before, so nothing else in the kernels moved."""

from __future__ import annotations

import hashlib

import pytest

from gammon import Position
from gammon.ai.bearoff import load as load_bearoff
from gammon.ai.encoding import BASE_INPUTS
from gammon.ai.evaluator import ClassifyingEvaluator
from gammon.ai.network import Network
from gammon.ai.rollout import RolloutSettings, rollout
from gammon.training.positions import collect_positions
from gammon.training.train import Settings, Trainer, strength

#: The seed's net as it was recorded: without the extra inputs (zero weights on them, so the
#: evaluator leaves them out and the dense passes add nothing for them).
NET = Network.random(hidden=16, nets=2, seed=2, scale=0.2, inputs=BASE_INPUTS)


def test_refinement_collects_the_same_positions() -> None:
    boards, games = collect_positions(NET, 200, seed=5, epsilon=0.1, keep=0.35)
    assert games == 8
    assert hashlib.sha256(boards.tobytes()).hexdigest() == (
        "7632df734c1bbff241d8401aac5bebf8fe7227ea68326a4e87dd6314d693a374")


def test_a_seeded_rollout_gives_the_same_numbers() -> None:
    # home_only: the numbers predate the short-side table of races down to four checkers;
    # stop_at_bearoff=False: and the trials' stop where the tables value the race.
    r = rollout(Position.initial(), ClassifyingEvaluator(NET, load_bearoff().home_only()),
                RolloutSettings(trials=36, seed=3, stop_at_bearoff=False))
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
        "c7a31fa2c578ebb9e67ebfed0adf8e00d72b5520090f0f98bd55fd872e88cf87")


@pytest.mark.parametrize(("variant", "digest", "stats"), [
    # Acey-Deucey: the pool and the 1-2 bonus; Hypergammon: three checkers; Dutch: no hits
    # before all are home; Nackgammon: another start.
    ("acey-deucey", "83317e764739a61824576128dfcda87b4088c6e8775e17927458f73f101ba6e8",
     [10, 3256, -10, 6, 4, 0]),
    ("hypergammon", "b7412874f0b9d5e17c8cb95f80656f8916dadfb38def25abc4c85d358a40a509",
     [10, 292, 6, 5, 1, 0]),
    ("dutch", "20b39abed0f4faf0330baf5549717226474238b1bd4d4dd81d36b5aeffd70894",
     [10, 1889, 7, 8, 3, 0]),
    ("nackgammon", "d254a421e4aa18c22781f9329e9e7d9f3d3ad93a029195078cd4995cbd42a90c",
     [10, 1601, -1, 10, 5, 0]),
])
def test_td_training_of_each_variant_makes_the_same_weights(variant: str, digest: str,
                                                            stats: list[int]) -> None:
    tr = Trainer(Settings(games=10, seed=3, hidden=16, variant=variant, epsilon=0.1), None)
    assert tr.play(10).tolist() == stats
    assert hashlib.sha256(tr.net.w1.tobytes() + tr.net.w2.tobytes()).hexdigest() == digest


def test_the_variants_strength_matches_give_the_same_results() -> None:
    other = Network.random(hidden=8, nets=2, seed=4, scale=0.2, inputs=BASE_INPUTS)
    assert strength(NET, 20, 9, other, "acey-deucey") == {"win": 0.6, "ppg": 1.65,
                                                          "se": 1.9221660235843894}
    assert strength(NET, 20, 9, variant="hypergammon") == {"win": 0.3, "ppg": -1.1,
                                                           "se": 0.3858612300930075}
