"""Which net plays which variant, and the standard game's checkers and cube: the shipped nets and the fallback.

The standard net (``data/weights.npz``) learnt standard backgammon.  The
variants that start differently or play by other rules have nets of their
own, fine-tuned from it by self-play under the variant's exact rules
(:mod:`gammon.training.train` with ``--variant`` and ``--init``; the runs live in
``training/<variant>/``).  They ship as ``data/weights-<net>.npz`` with their
metadata in ``data/weights-<net>.json`` (the run's settings, games trained and
input size) and have the standard net's input layout
(:data:`gammon.ai.encoding.NUM_INPUTS`; a file of the 214 inputs before the extra ones is
read with zero weights on them): the encoder counts Acey-Deucey's
pool checkers, which wait off the board, with the bar (both stand at index 24
of the generator's board).

:data:`VARIANT_NETS` maps each variant to its net; a variant missing from it
(standard backgammon itself) plays with the standard game's checker-play net (below), and so
does a variant whose file is missing from the installation.

The standard game's checkers are played by one shipped net at every depth,
:data:`ZERO_PLY_NET` (``data/weights-standard-0ply.npz``; the name is from when it played at
0 plies alone): the levels beginner to expert play by it alone, world-class and strongest
search over it, and so does the analysis (:func:`gammon.analysis.valuation.analysis_engine`).
It is the standard net refined on the values of that net's own 2-ply search (deep7), with a
third net for crashed positions (crashed1), a contact net that also reads the six extra
inputs (:func:`gammon.ai.encoding.add_extras`; deep8's F256) and refined last on its own
rollouts of positions in the doubling window (gammon_window's G1c). deep7 found its first
form (R5, without the extra inputs) no better under a search than the net it was refined
from, so the searches kept that net until stop 59, when GNU Backgammon's 2-ply grading of
the 2-ply search's choices found this one better on both judged seeds
(``benchmarks/results/ENGINE.md``). The standard net (``data/weights.npz``, deep6's Q7)
stays the rollouts' net (:func:`gammon.ai.evaluator.default_evaluator`: it reads none of the
extra inputs, so each trial is cheaper), the base the training refines, and the net that
plays when the 0-ply net is not installed.

The cube has a net of its own, :data:`CUBE_NET`: the 0-ply net refined once more on its own
rollouts of closeouts and lopsided positions (``training/closeout/``, C1x), where the 0-ply
net gave the doubler too much.  It decides and values the standard game's cube at every
level and in the analysis (:class:`gammon.ai.engine.Engine`'s ``cube_weights``); checker play
keeps the net above, which plays better than it does.  Without it installed, that net
decides the cube (:func:`cube_network`).
"""

from __future__ import annotations

import json
from importlib import resources

from gammon.ai.encoding import NUM_INPUTS
from gammon.ai.evaluator import default_network
from gammon.ai.network import Network
from gammon.core.errors import GammonError
from gammon.core.variants import Variant, find_variant

#: Variant name -> the shipped net it plays with.  Hypergammon with one or two
#: checkers uses the three-checker net (measured in ``benchmarks/variant_nets.py``).
VARIANT_NETS: dict[str, str] = {
    "nackgammon": "nackgammon",
    "hypergammon": "hypergammon",
    "hypergammon2": "hypergammon",
    "hypergammon1": "hypergammon",
    "dutch": "dutch",
    "acey-deucey": "acey-deucey",
}


#: The shipped net that plays standard backgammon at 0 plies (``data/weights-standard-0ply.npz``).
ZERO_PLY_NET = "standard-0ply"

#: The shipped net that decides the standard game's cube (``data/weights-standard-cube.npz``).
CUBE_NET = "standard-cube"


def standard_network() -> Network:
    """The shipped net that plays the standard game's checkers at every depth: :data:`ZERO_PLY_NET`
    when it is installed, else the standard net (``data/weights.npz``).

    :raises GammonError: a shipped file is damaged.
    """
    net = load_variant_network(ZERO_PLY_NET)
    return net if net is not None else default_network()


def cube_network() -> Network:
    """The shipped net the standard game's cube decisions play and value with at every depth:
    :data:`CUBE_NET` when it is installed, else the checker-play net (:func:`standard_network`).

    :raises GammonError: a shipped file is damaged.
    """
    net = load_variant_network(CUBE_NET)
    return net if net is not None else standard_network()


def net_name(variant: str | Variant) -> str | None:
    """The name of the shipped net ``variant`` plays with, or None for the standard net."""
    return VARIANT_NETS.get(find_variant(variant).name)


def weights_file(name: str) -> str:
    """The package data file of the variant net ``name``."""
    return f"weights-{name}.npz"


def load_variant_network(name: str) -> Network | None:
    """The shipped net ``name`` with its metadata, or None when it is not installed.

    :raises GammonError: the file is there but damaged, or its shapes do not fit the encoder.
    """
    data = resources.files("gammon.ai") / "data"
    ref = data / weights_file(name)
    if not ref.is_file():
        return None
    try:
        with resources.as_file(ref) as path:
            net = Network.load(path)
    except (OSError, ValueError, KeyError) as exc:
        raise GammonError(f"the {name} weights are damaged: {exc}") from None
    meta_ref = data / f"weights-{name}.json"
    if meta_ref.is_file():
        try:
            net.meta = {**net.meta, **json.loads(meta_ref.read_text())}
        except (OSError, ValueError):
            pass
    if net.w1.shape[1] != NUM_INPUTS:
        raise GammonError(
            f"the {name} weights take {net.w1.shape[1]} inputs; the encoder gives {NUM_INPUTS}"
        )
    return net


__all__ = ["CUBE_NET", "VARIANT_NETS", "ZERO_PLY_NET", "cube_network", "load_variant_network", "net_name",
           "standard_network", "weights_file"]
