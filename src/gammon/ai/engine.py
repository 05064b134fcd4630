"""The engine: choose plays and value positions at a playing level.

>>> from gammon import Position
>>> engine = Engine("expert")
>>> play = engine.best_play(Position.initial(), (3, 1))
>>> str(play)
'8/5 6/5'

Values are five probabilities (win, win gammon, win backgammon, lose gammon,
lose backgammon) for the player on roll of an evaluated position, or for the
MOVER after a play (:class:`RankedPlay`), and equities.

The ``match`` argument (a :class:`~gammon.ai.cube.CubeInfo`, a game or a
match) makes play match-aware: each play is then valued by the mover's
cubeful equity at that score and cube (:mod:`gammon.ai.match_play`: money
with the Jacoby rule and beavers, or EMG from our own match equity table),
so gammons count for nothing at double match point and double for a trailer
who wins the match with one.  Without it play is cubeless money, as before.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from gammon.ai.bearoff import BearoffDatabase
from gammon.ai.bearoff import load as load_bearoff
from gammon.ai.evaluator import (
    ClassifyingEvaluator,
    NetEvaluator,
    PositionClass,
    classify,
    load_network,
)
from gammon.ai.match_play import PlayValuer
from gammon.ai.network import Network
from gammon.ai.probabilities import Probabilities, equities, equity
from gammon.ai.ranked import RankedPlay
from gammon.ai.search import (
    MAX_SEARCH_PLIES,
    ONE_PLY_WEIGHT,
    Level,
    PlyEvaluator,
    Ranked,
    find_level,
    rank_results,
    search_flags,
)
from gammon.ai.variant_nets import VARIANT_NETS, cube_network, load_variant_network, standard_network
from gammon.core.cube import CubeAction
from gammon.core.errors import GammonError
from gammon.core.plays import Play
from gammon.core.position import LegalPlays, Position, check_dice
from gammon.core.variants import Variant, find_variant

if TYPE_CHECKING:
    from gammon.ai.cube import CubeDecision, CubeInfo
    from gammon.ai.cube_rollout import CubeRollout, Role
    from gammon.ai.rollout import RolloutResult, RolloutSettings


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A position's value for the player on roll.

    ``cubeful_equity`` and ``cube_action`` are filled in by the cube layer
    when it is present (``None`` otherwise).
    """

    probabilities: Probabilities
    equity: float
    plies: int
    position_class: PositionClass
    cubeful_equity: float | None = None
    cube_action: CubeAction | None = None

    @property
    def win(self) -> float:
        return self.probabilities[0]


class Engine:
    """Plays and values at a level (:data:`gammon.ai.search.LEVELS`) or a fixed depth.

    ``Engine("expert")`` plays by the nets alone (0-ply); ``Engine(plies=2)``
    searches two plies; ``weights`` is a path or a :class:`Network` (default:
    the weights shipped with the package: the standard game's checker-play net at every
    depth, :func:`gammon.ai.variant_nets.standard_network`).  ``seed`` fixes the noise of the
    weaker levels.  ``bearoff=False`` leaves bear-offs to the race net.  ``prune``
    overrides the level's pruning (plays valued at each inner node of a search of two
    or more plies after the pruning net's pre-filter; 0: every play).

    Each position is played with its variant's net
    (:mod:`gammon.ai.variant_nets`): with the default weights, the shipped
    variant nets (the standard net for a variant without one); with explicit
    ``weights``, that net everywhere unless ``variant_weights`` (variant name ->
    path or net) says otherwise.

    ``cube_weights`` (a path or a :class:`Network`) is the net the standard game's cube
    decisions play and value with (the look-ahead's plays and leaves); checker play keeps
    the level's net.  With the shipped weights it is the cube's own net at every depth
    (:func:`gammon.ai.variant_nets.cube_network`): refined on its own rollouts of the
    doubling window and of closeouts, it decides the cube better than the nets that play.

    :raises GammonError: an unknown level, bad depth or unreadable weights.
    """

    def __init__(self, level: str | Level = "expert", *, plies: int | None = None,
                 weights: str | Network | None = None, seed: int | None = None,
                 bearoff: bool = True, noise: float | None = None,
                 variant_weights: Mapping[str, str | Network] | None = None,
                 prune: int | None = None, cube_weights: str | Network | None = None) -> None:
        lv = find_level(level)
        if plies is not None:
            if not 0 <= plies <= MAX_SEARCH_PLIES:
                raise GammonError(f"plies must be 0 to {MAX_SEARCH_PLIES}, not {plies}")
            lv = replace(lv, name=f"{plies}-ply", plies=plies, noise=0.0, cube_plies=None,
                         description=f"{plies}-ply search")
        if noise is not None:
            lv = replace(lv, noise=float(noise))
        if prune is not None:
            lv = replace(lv, prune=int(prune))
        self.level = lv
        # The shipped weights: the checker-play net, at every depth.
        self.network = standard_network() if weights is None else load_network(weights)
        self._bearoff = bearoff
        #: The bear-off database every evaluator of this engine reads (loaded once, at the first).
        self._bearoff_db: BearoffDatabase | None = None
        #: The n-ply evaluator (an :class:`~gammon.ai.evaluator.Evaluator`) at this depth,
        #: over the standard game's net; :meth:`evaluator_for` gives a variant's.
        self.evaluator = self._ply_evaluator(self.network)
        #: Variant name -> its net, or the name of a shipped net still to load.
        self._variant_nets: dict[str, str | Network] = {}
        if weights is None:
            self._variant_nets.update(VARIANT_NETS)
        for name, net in (variant_weights or {}).items():
            self._variant_nets[find_variant(name).name] = (
                net if isinstance(net, Network) else load_network(net))
        #: Evaluators by ``id`` of their net (the nets are held above), shipped nets by name.
        self._variant_evaluators: dict[int, PlyEvaluator] = {}
        self._shipped: dict[str, Network] = {}
        self._variant_lock = threading.Lock()
        self._rng = np.random.default_rng(seed)
        self._rng_lock = threading.Lock()
        #: The evaluator the standard game's cube look-ahead values its plays with (None: the
        #: level's own, :attr:`evaluator`).
        self._cube_evaluator: PlyEvaluator | None = None
        cube_net: Network | None = None
        if cube_weights is not None:
            cube_net = cube_weights if isinstance(cube_weights, Network) else load_network(cube_weights)
        elif weights is None:
            # The shipped weights: the cube decides with its own net at every depth.
            cube_net = cube_network()
        if cube_net is not None and cube_net is not self.network:
            self._cube_evaluator = self._ply_evaluator(cube_net)

    def _ply_evaluator(self, network: Network) -> PlyEvaluator:
        static: NetEvaluator
        if self._bearoff:
            if self._bearoff_db is None:
                self._bearoff_db = load_bearoff()
            static = ClassifyingEvaluator(network, self._bearoff_db)
        else:
            static = NetEvaluator(network)
        return PlyEvaluator(static, self.level.plies, prune=self.level.prune,
                            one_ply_weight=ONE_PLY_WEIGHT)

    def network_for(self, variant: str | Variant) -> Network:
        """The net that plays ``variant`` (its own, else the standard game's)."""
        return self._variant_evaluator(find_variant(variant).name)[1]

    def evaluator_for(self, variant: str | Variant) -> PlyEvaluator:
        """The n-ply evaluator over ``variant``'s net (see :meth:`network_for`)."""
        return self._variant_evaluator(find_variant(variant).name)[0]

    def cube_evaluator_for(self, variant: str | Variant) -> PlyEvaluator:
        """The evaluator ``variant``'s cube decisions play and value with: a variant's own net,
        and for the standard game the cube's net (``cube_weights``; with the shipped weights
        :func:`~gammon.ai.variant_nets.cube_network` at every depth)."""
        ev = self.evaluator_for(variant)
        if self._cube_evaluator is not None and ev is self.evaluator:
            return self._cube_evaluator
        return ev

    def _variant_evaluator(self, name: str) -> tuple[PlyEvaluator, Network]:
        if name not in self._variant_nets:
            return self.evaluator, self.network
        with self._variant_lock:
            net = self._variant_nets.get(name)
            if isinstance(net, str):
                # A shipped net, loaded once for every variant that plays with it.
                loaded = self._shipped.get(net)
                if loaded is None:
                    loaded = load_variant_network(net)
                if loaded is None:  # not installed: the standard net plays the variant
                    self._variant_nets.pop(name)
                    return self.evaluator, self.network
                self._shipped[net] = loaded
                net = self._variant_nets[name] = loaded
            assert isinstance(net, Network)
            ev = self._variant_evaluators.get(id(net))
            if ev is None:
                ev = self._variant_evaluators[id(net)] = self._ply_evaluator(net)
            return ev, net

    def reseeded(self, seed: int | None) -> Engine:
        """This engine with its own noise, drawn from ``seed``.

        The twin shares this engine's nets, bear-off database and evaluators (read
        only, with per-thread workspaces) and its lazily loaded variant nets, so it
        costs nothing to make; a new :class:`Engine` reads them all again (about
        20 MB and 60 ms).  A server gives each computer seat one twin of a level's
        engine (:class:`gammon.play.levels.EnginePool`); each game's noise stays
        its own and reproducible.
        """
        twin = copy.copy(self)
        twin._rng = np.random.default_rng(seed)
        twin._rng_lock = threading.Lock()
        return twin

    @property
    def plies(self) -> int:
        return self.level.plies

    @property
    def static_evaluator(self) -> NetEvaluator:
        """The 0-ply evaluator (nets, bear-off database, exact results)."""
        return self.evaluator.inner

    # -- plays -------------------------------------------------------------------

    def _candidates(self, position: Position, dice: Iterable[int],
                    ev: PlyEvaluator | None = None) -> tuple[int, int]:
        """Every result of the roll valued at 0-ply in ``ev``'s (default: the variant's)
        workspace: ``(n, best)``."""
        v = position.variant
        if ev is None:
            ev = self.evaluator_for(v)
        # Every ply generates with its own mover's pool (Acey-Deucey's pool may wait).
        return ev.roll(position.board, check_dice(dice), v.checkers, search_flags(position))

    def best_play(self, position: Position, dice: Iterable[int], match: object | None = None) -> Play:
        """The play this engine chooses (a pass, with no moves, when nothing is legal).

        :raises InvalidDiceError: dice that are not two numbers 1..6.
        """
        lv = self.level
        if lv.plies == 0 and lv.noise == 0.0 and match is None:
            ev = self.evaluator_for(position.variant)
            n, best = self._candidates(position, dice, ev)
            if n == 0:
                return Play((), position)
            ws = ev.workspace
            return LegalPlays(position, [ws.boards[0, best].tobytes()], [ws.moves[0, best].tobytes()], 1)[0]
        valuer = self._valuer(match)
        ranked = self._search(position, dice, None, valuer)
        if ranked is None:
            return Play((), position)
        plays, r, _mwc = ranked
        if lv.noise > 0.0 and len(r.order) > 1:
            with self._rng_lock:
                noisy = r.equities + self._rng.normal(0.0, lv.noise, len(r.equities))
            return plays[int(r.order[int(np.argmax(noisy))])]
        return plays[int(r.order[0])]

    def _valuer(self, match: object | None) -> PlayValuer | None:
        """The match-aware valuer for ``match`` (None: cubeless money)."""
        return None if match is None else PlayValuer(self._cube_info(match))

    def _search(self, position: Position, dice: Iterable[int], plies: int | None = None,
                valuer: PlayValuer | None = None,
                ) -> tuple[LegalPlays, Ranked, np.ndarray | None] | None:
        """The plays of the roll ranked at ``plies``, and with a match-aware ``valuer`` each
        play's match winning chance (in the plays' order: the value of its deepest look, the
        one its equity is from; None for money)."""
        n, _ = self._candidates(position, dice)
        if n == 0:
            return None
        ev = self.evaluator_for(position.variant)
        ws = ev.workspace
        # The deeper search reuses the generator buffers: keep the candidates apart.
        boards = ws.boards[0, :n].copy()
        plays = LegalPlays.from_blocks(position, boards.tobytes(), ws.moves[0, :n].tobytes(), n)
        probs0 = ws.ys[:n].astype(np.float64)
        v = position.variant
        p = self.plies if plies is None else plies
        scorer = None
        mwc: np.ndarray | None = None
        if valuer is not None:
            # Each play's values are kept from its last (deepest) look, so they need not be
            # computed again for the ranking (the valuer is a Python loop over the plays).
            mwc = np.full(n, np.nan)

            def scorer(probs: np.ndarray, rows: np.ndarray) -> np.ndarray:
                values = valuer.results(probs, boards[rows])
                if values.mwc is not None:
                    mwc[rows] = values.mwc
                return values.equity
        r = rank_results(ev, boards, probs0, p, v.checkers, search_flags(position),
                         self.level.filters,
                         scorer)
        ranked_mwc = None if mwc is None or valuer is None or valuer.met is None else mwc[r.order]
        return plays, r, ranked_mwc

    def rank_plays(self, position: Position, dice: Iterable[int], match: object | None = None,
                   plies: int | None = None) -> list[RankedPlay]:
        """Every legal play, best first, with the mover's values (no noise).

        Empty when nothing can be played.  With ``match`` the plays are valued
        at its score and cube (see :class:`RankedPlay`).

        :raises InvalidDiceError: dice that are not two numbers 1..6.
        """
        if plies is not None and not 0 <= plies <= MAX_SEARCH_PLIES:
            raise GammonError(f"plies must be 0 to {MAX_SEARCH_PLIES}, not {plies}")
        valuer = self._valuer(match)
        found = self._search(position, dice, plies, valuer)
        if found is None:
            return []
        plays, r, mwc = found
        best = float(r.equities[0])
        if valuer is None:
            return [
                RankedPlay(plays[int(i)], Probabilities.of_row(pr), float(e), float(e) - best, int(d))
                for i, pr, e, d in zip(r.order, r.probs, r.equities, r.plies, strict=True)
            ]
        cubeless = equities(r.probs)
        return [
            RankedPlay(plays[int(i)], Probabilities.of_row(pr), float(e), float(e) - best,
                       int(d), float(c), None if mwc is None else float(mwc[k]))
            for k, (i, pr, e, d, c) in enumerate(
                zip(r.order, r.probs, r.equities, r.plies, cubeless, strict=True))
        ]

    def hint(self, position: Position, dice: Iterable[int], match: object | None = None,
             count: int = 5) -> list[RankedPlay]:
        """The ``count`` best plays (all with ``count`` 0), as :meth:`rank_plays` values them
        at this engine's depth (and at ``match``'s score and cube when given)."""
        ranked = self.rank_plays(position, dice, match)
        return ranked if count <= 0 else ranked[:count]

    # -- positions ----------------------------------------------------------------

    def evaluate(self, position: Position, match: object | None = None,
                 plies: int | None = None, *, cube: bool = True) -> Evaluation:
        """The value of ``position`` for the player on roll (before rolling), cubeless at
        ``plies`` (default: the level's), with the cubeful equity and cube action of
        :meth:`cube_action` (the level's cube depth; with a cube depth of 0, the formula on
        these probabilities).  ``cube=False`` leaves the cube out (its fields None), for a
        caller that takes the cube decision itself.

        :raises GammonError: a bad depth.
        """
        p = self.plies if plies is None else plies
        if not 0 <= p <= MAX_SEARCH_PLIES:
            raise GammonError(f"plies must be 0 to {MAX_SEARCH_PLIES}, not {p}")
        probs = self.evaluator_for(position.variant).evaluate(position, p)
        cls = classify(position)
        value = Evaluation(Probabilities.of_row(probs), equity(probs), p, cls)
        if position.outcome is not None or not cube:
            return value
        if self.level.cube_depth == 0:
            decision = self._decide(probs, position, match)
        else:
            decision = self.cube_action(position, match)
        return replace(value, cubeful_equity=decision.equity, cube_action=decision.action)

    # -- the cube and rollouts ------------------------------------------------------

    @staticmethod
    def _cube_info(match: object | None) -> CubeInfo:
        """The cube state ``match`` gives: a :class:`CubeInfo`, a game (its player on roll), or money."""
        from gammon.ai.cube import CubeInfo
        from gammon.core.game import Game

        if match is None:
            return CubeInfo()
        if isinstance(match, CubeInfo):
            return match
        if isinstance(match, Game):
            return CubeInfo.from_game(match)
        game = getattr(match, "game", None)  # a Match: its current game
        if isinstance(game, Game):
            return CubeInfo.from_game(game)
        raise GammonError(f"match must be a CubeInfo, a Game or a Match, not {type(match).__name__}")

    def _decide(self, probs: Sequence[float] | np.ndarray, position: Position,
                match: object | None) -> CubeDecision:
        from gammon.ai.cube import cube_decision, cube_efficiency

        return cube_decision(probs, self._cube_info(match), cube_efficiency(position))

    def cube_action(self, position: Position, match: object | None = None, role: Role = None,
                    progress: Callable[[int, int], None] | None = None) -> CubeDecision:
        """The cube decision for the player on roll of ``position`` (before rolling).

        ``match`` is a :class:`~gammon.ai.cube.CubeInfo`, a game or match (its cube
        and score), or None for money play with a centred cube.  The decision is
        taken at the level's cube depth (:attr:`~gammon.ai.search.Level.cube_depth`):
        Janowski's formula on the 0-ply evaluation at depth 0, else a cubeful
        look-ahead (:func:`gammon.ai.cube_search.cubeful_cube_action`); a level with
        ``cube_rollout`` trials rolls out the calls that leaves close
        (:func:`gammon.ai.cube_rollout.is_close_call`): ``role``'s question alone
        where the decision is asked for one side ("doubler": double or not;
        "taker": take or pass), either where None, in the variants a rollout plays
        (:func:`gammon.ai.rollout.can_roll_out`); ``progress`` is told
        ``(done, total)`` trials while one is rolled out.

        :raises GammonError: a finished game or bad cube settings.
        """
        if position.outcome is not None:
            raise GammonError("the game is over: there is no cube decision")
        ev = self.cube_evaluator_for(position.variant)
        depth = self.level.cube_depth
        if depth == 0:
            decision = self._decide(ev.evaluate(position, 0), position, match)
        else:
            from gammon.ai.cube_search import cubeful_cube_action

            decision = cubeful_cube_action(ev, position, self._cube_info(match), depth)
        lv = self.level
        if lv.cube_rollout:
            from gammon.ai.cube_rollout import is_close_call, rollout_cube
            from gammon.ai.rollout import RolloutSettings, can_roll_out

            if can_roll_out(position.variant) and is_close_call(decision, lv.cube_rollout_margin, role):
                settings = RolloutSettings(trials=lv.cube_rollout, min_trials=2)
                return rollout_cube(position, ev.inner, settings, self._cube_info(match),
                                    progress=progress).decision
        return decision

    def rollout(self, position: Position, settings: RolloutSettings | None = None,
                progress: Callable[[int, int], None] | None = None,
                match: object | None = None) -> RolloutResult:
        """Roll ``position`` out (the player on roll rolls first) with the 0-ply nets.

        ``settings`` sets trials, seed, truncation, variance reduction, cubeful
        play and processes (see :class:`~gammon.ai.rollout.RolloutSettings`).
        """
        from gammon.ai.rollout import rollout

        cube = None if match is None else self._cube_info(match)
        static = self.evaluator_for(position.variant).inner
        return rollout(position, static, settings, progress=progress, cube_info=cube)

    def rollout_cube(self, position: Position, settings: RolloutSettings | None = None,
                     progress: Callable[[int, int], None] | None = None,
                     match: object | None = None) -> CubeRollout:
        """Roll out the cube decision of ``position``'s player on roll with the 0-ply nets: no
        double and double/take, double/pass exact (:func:`gammon.ai.cube_rollout.rollout_cube`).

        ``match`` as for :meth:`cube_action` (None: money, the cube centred).
        """
        from gammon.ai.cube_rollout import rollout_cube

        static = self.evaluator_for(position.variant).inner
        return rollout_cube(position, static, settings, self._cube_info(match), progress=progress)

    def probabilities(self, positions: Sequence[Position] | np.ndarray) -> np.ndarray:
        """``(n, 5)`` probabilities for the players on roll at this engine's depth
        (positions with the first one's variant net; boards with the standard net).

        Not named ``evaluate_batch``: an engine is not an
        :class:`~gammon.ai.evaluator.Evaluator` (its :meth:`evaluate` answers an
        :class:`Evaluation`); :meth:`evaluator_for` gives the evaluator itself."""
        if len(positions) and isinstance(positions[0], Position):
            return self.evaluator_for(positions[0].variant).evaluate_batch(positions)
        return self.evaluator.evaluate_batch(positions)

    def __repr__(self) -> str:
        return f"Engine({self.level.name!r})"
