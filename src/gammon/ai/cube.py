"""Cubeful equities and cube decisions, money and match play.

The input is the cubeless evaluation of a position before the roll, five
probabilities from the view of the player on roll (who considers doubling):
(win, win gammon, win backgammon, lose gammon, lose backgammon).

**Money play** uses Janowski's model (1993).  With ``p`` the chance to win,
``W`` the average points of a win and ``L`` of a loss (gammons included) and a
cube efficiency ``x`` (0 dead cube, 1 perfectly live), the cubeful equity,
normalised to the current cube, is ``x`` times the live-cube line plus
``1 - x`` times the dead-cube line, which gives

* player owns the cube:    ``E = p(W + L + x/2) - L``
* opponent owns the cube:  ``E = p(W + L + x/2) - L - x/2``
* cube centred:            ``E = 4/(4 - x) * (p(W + L + x/2) - L - x/4)``

and the taker's take point ``(L' - 1/2) / (W' + L' + x/2)`` in the taker's
terms.  No double is the first (or third) line, double/take twice the second
at the doubled cube, double/pass +1.  Past the cash point the player with
access to the cube need not cash: he keeps it and plays on (cash later if the
game swings back, win ``W`` at the end), the line from (cash point, +1) to
(1, ``W``); with gammons that is above +1, which makes a position too good to
double.

**Match play** converts to match winning chances (MWC) with our own match
equity table (:mod:`gammon.ai.met`) and its continuous cube model, fed with the
position's own gammon rates; live and dead cube are mixed by the same
efficiency.  The Crawford game has no cube; post-Crawford the leader's cube is
dead and the trailer doubles; a cube that already wins the owner the match
with a single game is dead.  Equities are reported as money-equivalent
(EMG: +1 = winning the current cube's points, -1 = losing them) and as MWC.

Cube efficiency (our documented choice, see ``docs/match_equity.md``): 0.68 in
contact positions; in a race it grows with the length of the race, from 0.6 at
20 pips or fewer for the player on roll (bear-offs jump the most) to 0.8 at 100
pips or more, times the chance that the opponent does not bear off at his next
roll (on the last roll the cube is dead).

>>> d = cube_decision((0.8, 0.0, 0.0, 0.0, 0.0), CubeInfo())
>>> d.action, str(d.action)
(<CubeAction.DOUBLE_PASS: 'double/pass'>, 'double/pass')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from gammon.ai.cube_efficiency import (  # the efficiency is part of this module's API
    CONTACT_EFFICIENCY,
    RACE_LONG,
    RACE_LONG_PIPS,
    RACE_SHORT,
    RACE_SHORT_PIPS,
    board_efficiency,
    cube_efficiency,
    finish_chance,
    race_efficiency,
)
from gammon.ai.cube_model import CubeModel, WinMix
from gammon.ai.cube_money import (
    OWN_CENTRED,
    OWN_ME,
    OWN_OPPONENT,
    choose_code,
    clamp_probs,
    money_values,
    taker_code,
)
from gammon.ai.met import MatchEquityTable, default_met
from gammon.ai.probabilities import equities, equity, flip_rows
from gammon.ai.scoring import points_for
from gammon.core.cube import CubeAction, RelativeOwner, cube_is_dead
from gammon.core.errors import GammonError

if TYPE_CHECKING:
    from gammon.ai.evaluator import Evaluator
    from gammon.core.game import Game
    from gammon.core.position import Outcome, Position, ResultKind
    from gammon.core.xgid import XgidState

__all__ = [
    "BEAVER",
    "CENTERED",
    "CONTACT_EFFICIENCY",
    "DOUBLE_PASS",
    "DOUBLE_TAKE",
    "NO_DOUBLE",
    "PASS",
    "RACE_LONG",
    "RACE_LONG_PIPS",
    "RACE_SHORT",
    "RACE_SHORT_PIPS",
    "TAKE",
    "TOO_GOOD",
    "CubeDecision",
    "CubeInfo",
    "board_efficiency",
    "choose_action",
    "cube_action",
    "cube_decision",
    "cube_efficiency",
    "finish_chance",
    "money_stakes",
    "outcome_probabilities",
    "race_efficiency",
    "refusal",
    "take_decision",
    "taker_action",
]

#: Cube owner: nobody (the cube in the middle); core's value.
CENTERED = RelativeOwner.CENTERED

# The cube actions: core's one vocabulary (:class:`~gammon.core.cube.CubeAction`), by their old names here.
NO_DOUBLE = CubeAction.NO_DOUBLE
DOUBLE_TAKE = CubeAction.DOUBLE_TAKE
DOUBLE_PASS = CubeAction.DOUBLE_PASS
TOO_GOOD = CubeAction.TOO_GOOD
TAKE = CubeAction.TAKE
PASS = CubeAction.DROP
BEAVER = CubeAction.BEAVER


_POWERS = frozenset(1 << i for i in range(13))


@dataclass(frozen=True, slots=True)
class CubeInfo:
    """The cube and the score, seen from the player on roll.

    ``owner``: a :class:`~gammon.core.cube.RelativeOwner`: :data:`CENTERED`, 0 (the
    player on roll) or 1 (the opponent); a plain -1, 0 or 1 is read as one.
    ``match_length`` 0 is money play; ``score`` is (player on roll, opponent)
    in points.  ``crawford``: this game is the Crawford game; with a side
    1-away and ``crawford`` False the game is post-Crawford.  ``jacoby`` and
    ``beavers`` apply to money play only.  ``gammons`` False counts every win
    as a single game.

    :raises GammonError: impossible settings.
    """

    value: int = 1
    owner: RelativeOwner = CENTERED
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    cube_limit: int = 64
    gammons: bool = True

    def __post_init__(self) -> None:
        if self.value not in _POWERS:
            raise GammonError(f"the cube value must be a power of two up to 4096, not {self.value}")
        if self.cube_limit not in _POWERS or self.value > self.cube_limit:
            raise GammonError(f"bad cube limit {self.cube_limit} for a cube at {self.value}")
        object.__setattr__(self, "owner", RelativeOwner.of(self.owner))
        if self.match_length < 0:
            raise GammonError("the match length must be 0 (money) or more")
        s0, s1 = self.score
        if self.match_length:
            if not (0 <= s0 < self.match_length and 0 <= s1 < self.match_length):
                raise GammonError(
                    f"score {s0}-{s1} is impossible in a {self.match_length}-point match in progress"
                )
            if self.crawford and 1 not in self.away:
                raise GammonError("the Crawford game needs a player 1-away")
        elif self.crawford:
            raise GammonError("the Crawford game belongs to match play")

    @property
    def is_money(self) -> bool:
        return self.match_length == 0

    @property
    def away(self) -> tuple[int, int]:
        """Points (player on roll, opponent) still needed; (0, 0) in money play."""
        if self.is_money:
            return (0, 0)
        return (self.match_length - self.score[0], self.match_length - self.score[1])

    @property
    def post_crawford(self) -> bool:
        """A match game after the Crawford game (a side 1-away, not the Crawford game)."""
        return not self.is_money and not self.crawford and 1 in self.away

    def swap(self) -> CubeInfo:
        """The same cube and score seen by the other player."""
        return replace(self, owner=self.owner.swap(), score=(self.score[1], self.score[0]))

    def after_double(self, beaver: bool = False) -> CubeInfo:
        """The cube after the player on roll doubles and the opponent takes (or beavers).

        Still seen from the player on roll.
        """
        if beaver:
            return replace(self, value=min(self.value * 4, self.cube_limit), owner=RelativeOwner.ME)
        return replace(self, value=self.value * 2, owner=RelativeOwner.OPPONENT)

    def points_for(self, kind: Outcome | ResultKind | int, value: int | None = None,
                   owner: int | None = None) -> int:
        """What a win of ``kind`` scores with this cube (or the cube at ``value`` owned by ``owner``):
        core's one scoring rule, :meth:`gammon.core.rules.Rules.points_for`."""
        return points_for(kind, self.value if value is None else value,
                          owner=self.owner if owner is None else owner, money=self.is_money,
                          jacoby=self.jacoby, gammons=self.gammons)

    @classmethod
    def from_xgid(cls, state: XgidState) -> CubeInfo:
        """The cube and score an XGID carries, seen by its player on roll."""
        owner = state.relative_owner
        money = state.match_length == 0
        return cls(
            value=state.cube_value, owner=owner, match_length=state.match_length,
            score=(0, 0) if money else state.score, crawford=state.crawford,
            jacoby=money and state.jacoby, beavers=money and state.beaver,
            cube_limit=max(state.cube_value, min(state.max_cube, 4096)),
        )

    @classmethod
    def from_game(cls, game: Game, player: int | None = None) -> CubeInfo:
        """The cube of a :class:`~gammon.core.game.Game` seen by ``player`` (default: on roll)."""
        p = game.turn if player is None else player
        r = game.rules
        owner = game.cube_owner.relative(p)
        money = r.match_length == 0
        return cls(
            value=game.cube_value,
            owner=owner,
            match_length=r.match_length,
            score=(game.score[p], game.score[1 - p]),
            crawford=game.crawford_game,
            jacoby=money and r.jacoby,
            beavers=money and r.beavers,
            cube_limit=r.cube_limit if r.uses_cube else game.cube_value,
            gammons=r.gammons,
        )


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """A cube decision and the equities behind it, from the doubler's view.

    ``no_double``, ``double_take`` and ``double_pass`` are cubeful equities
    normalised to the current cube (money equity in money play, EMG in match
    play, where ``mwc`` holds the same three as match winning chances).
    ``action``: :data:`NO_DOUBLE`, :data:`DOUBLE_TAKE`, :data:`DOUBLE_PASS`
    or :data:`TOO_GOOD` (for :func:`take_decision`: the taker's action).
    ``taker_action``: :data:`TAKE`, :data:`PASS` or :data:`BEAVER`.
    ``take_point``: the least chance of winning the game the taker needs.
    """

    action: CubeAction
    no_double: float
    double_take: float
    double_pass: float
    taker_action: CubeAction
    explanation: str
    can_double: bool
    cubeless_equity: float
    take_point: float
    efficiency: float
    mwc: tuple[float, float, float] | None = None

    @property
    def doubles(self) -> bool:
        """Whether the proper action is to double."""
        return self.action in (DOUBLE_TAKE, DOUBLE_PASS)  # not TAKE or PASS: a taker's action

    @property
    def equity(self) -> float:
        """The doubler's cubeful equity (normalised) after the proper cube action."""
        if not self.can_double:
            return self.no_double
        return max(self.no_double, min(self.double_take, self.double_pass))

    @property
    def proper_mwc(self) -> float | None:
        """The doubler's match winning chance after the proper action (match play)."""
        if self.mwc is None:
            return None
        nd, dt, dp = self.mwc
        return max(nd, min(dt, dp)) if self.can_double else nd


def _check_probs(probs: Sequence[float] | np.ndarray) -> tuple[float, float, float, float, float]:
    try:
        vals = [float(v) for v in probs]
    except (TypeError, ValueError):
        raise GammonError("probabilities must be five numbers") from None
    if len(vals) != 5 or not all(np.isfinite(vals)):
        raise GammonError(f"probabilities must be five finite numbers, not {probs!r}")
    # Within [0, 1], gammons within wins, backgammons within gammons (the compiled rule's own).
    w, wg, wbg, lg, lbg = clamp_probs(*vals)
    return (w, wg, wbg, lg, lbg)


@lru_cache(maxsize=64)
def _stakes(money: bool, jacoby: bool, gammons: bool, centred: bool) -> tuple[int, int, int]:
    """What a single game, a gammon and a backgammon score at cube 1: ``Rules.points_for``."""
    owner = CENTERED if centred else 0
    return tuple(points_for(k, 1, owner=owner, money=money, jacoby=jacoby, gammons=gammons)  # type: ignore[return-value]
                 for k in (1, 2, 3))


def money_stakes(info: CubeInfo) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """What a single game, a gammon and a backgammon score at cube 1 in money play under
    ``info``'s rules, once the cube is turned and while it is centred (the Jacoby rule
    and the gammon rule make them differ): core's scoring rule."""
    return (_stakes(True, info.jacoby, info.gammons, False),
            _stakes(True, info.jacoby, info.gammons, True))


def _mixes(y: Sequence[float]) -> tuple[WinMix, WinMix]:
    """(single, gammon, backgammon) fractions of the wins of each player."""
    w = y[0]
    lo = 1.0 - w
    if w > 1e-9:
        m0 = ((w - y[1]) / w, (y[1] - y[2]) / w, y[2] / w)
    else:
        m0 = (1.0, 0.0, 0.0)
    if lo > 1e-9:
        m1 = ((lo - y[3]) / lo, (y[3] - y[4]) / lo, y[4] / lo)
    else:
        m1 = (1.0, 0.0, 0.0)
    return m0, m1


def refusal(info: CubeInfo) -> str | None:
    """Why the player on roll cannot (usefully) double with this cube and score, or None."""
    if info.value * 2 > info.cube_limit:
        return f"the cube is at its limit ({info.cube_limit})"
    if info.crawford:
        return "Crawford game: no doubling"
    if info.owner is RelativeOwner.OPPONENT:
        return "the opponent owns the cube"
    if cube_is_dead(info.match_length, info.score[0], info.value):
        return "the cube is dead: a single game already wins the match"
    return None


#: The compiled rule's codes (:mod:`gammon.ai.cube_money`) as actions.
_TAKER = (TAKE, PASS, BEAVER)
_DOUBLER = (NO_DOUBLE, DOUBLE_TAKE, DOUBLE_PASS, TOO_GOOD)
#: Who owns the cube, as the compiled rule numbers it.
OWNER_CODES = {RelativeOwner.CENTERED: OWN_CENTRED, RelativeOwner.ME: OWN_ME,
               RelativeOwner.OPPONENT: OWN_OPPONENT}


def taker_action(dt: float, dp: float, beavers: bool) -> CubeAction:
    """The taker's answer from the doubler's double/take and double/pass equities (money: a
    beaver, when allowed, whenever taking leaves the taker ahead)."""
    return _TAKER[taker_code(float(dt), float(dp), bool(beavers))]


def choose_action(nd: float, dt: float, dp: float) -> CubeAction:
    """The doubler's proper action from his no double, double/take and double/pass values
    (in one unit: normalised equity or match winning chances)."""
    return _DOUBLER[choose_code(float(nd), float(dt), float(dp))]


def _explain(action: CubeAction, nd: float, dt: float, dp: float, taker: CubeAction, tp: float,
             what: str) -> str:
    nums = f"ND {nd:+.3f}, D/T {dt:+.3f}, D/P {dp:+.3f} ({what}); take point {100 * tp:.1f}%"
    if action == NO_DOUBLE:
        return f"not good enough to double: {nums}"
    if action == TOO_GOOD:
        return f"too good to double: playing on for the gammon beats cashing; {nums}"
    if action == DOUBLE_PASS:
        return f"double, and the opponent should pass: {nums}"
    return f"double, and the opponent should {taker}: {nums}"


def _money(y: tuple[float, ...], info: CubeInfo, x: float) -> CubeDecision:
    # W and L once the cube is turned (owned), and as the cube is now: with Jacoby, gammons count
    # only once the cube has been turned (the scores come from core's rule); the equities are
    # the compiled rule's (gammon.ai.cube_money), which the rollouts' trials use too.
    nd, dt, dp, tp = money_values(y, OWNER_CODES[info.owner], *money_stakes(info), x)
    taker = taker_action(dt, dp, info.beavers)
    why = refusal(info)
    cubeless = equity(y)
    if why is not None:
        return CubeDecision(NO_DOUBLE, nd, dt, dp, taker, why, False, cubeless, tp, x)
    action = choose_action(nd, dt, dp)
    text = _explain(action, nd, dt, dp, taker, tp, f"money, cube efficiency {x:.2f}")
    return CubeDecision(action, nd, dt, dp, taker, text, True, cubeless, tp, x)


def _match(y: tuple[float, ...], info: CubeInfo, x: float, met: MatchEquityTable) -> CubeDecision:
    a, b = info.away
    k = info.value
    post = info.crawford or info.post_crawford
    after = met.after_post if post else met.after_pre
    m0, m1 = _mixes(y)
    model = CubeModel(after, a, b, m0, m1, x, info.cube_limit)
    p = y[0]
    if info.crawford:
        nd_m = model.dead(k, p)
    elif info.owner is RelativeOwner.CENTERED:
        nd_m = model.centered(k, p)
    elif info.owner is RelativeOwner.ME:
        nd_m = model.own0(k, p)
    else:
        nd_m = model.own1(k, p)
    dt_m = model.own1(2 * k, p) if 2 * k <= info.cube_limit else model.dead(k, p)
    dp_m = model.cash0(k)
    c0, c1 = model.cash0(k), model.cash1(k)

    def emg(m: float) -> float:
        return 0.0 if abs(c0 - c1) < 1e-12 else 2.0 * (m - c1) / (c0 - c1) - 1.0

    nd, dt, dp = emg(nd_m), emg(dt_m), emg(dp_m)
    tp = 1.0 - model.cash_point0(k) if 2 * k <= info.cube_limit else 0.0
    taker = TAKE if dt_m <= dp_m + 1e-12 else PASS
    cubeless = emg(model.dead(k, p))
    mwc = (nd_m, dt_m, dp_m)
    why = refusal(info)
    if why is not None:
        return CubeDecision(NO_DOUBLE, nd, dt, dp, taker, why, False, cubeless, tp, x, mwc)
    action = choose_action(nd_m, dt_m, dp_m)
    where = f"{a}-away/{b}-away{' post-Crawford' if info.post_crawford else ''}"
    text = _explain(action, nd, dt, dp, taker, tp, f"EMG at {where}, cube efficiency {x:.2f}")
    text += f"; MWC ND {100 * nd_m:.1f}%, D/T {100 * dt_m:.1f}%, D/P {100 * dp_m:.1f}%"
    return CubeDecision(action, nd, dt, dp, taker, text, True, cubeless, tp, x, mwc)


def cube_decision(
    probs: Sequence[float] | np.ndarray,
    cube_info: CubeInfo | None = None,
    efficiency: float | None = None,
    met: MatchEquityTable | None = None,
) -> CubeDecision:
    """The cube decision of the player on roll, from cubeless probabilities.

    ``probs``: (win, win gammon, win backgammon, lose gammon, lose backgammon)
    for the player on roll, before the roll.  ``efficiency``: the cube
    efficiency (default: the contact value, 0.68; :func:`cube_action` picks it
    from the position).  ``met``: the match equity table (default: ours).

    :raises GammonError: probabilities that are not five numbers.
    """
    info = cube_info or CubeInfo()
    y = _check_probs(probs)
    if not info.gammons:
        y = (y[0], 0.0, 0.0, 0.0, 0.0)
    x = CONTACT_EFFICIENCY if efficiency is None else float(efficiency)
    if not 0.0 <= x <= 1.0:
        raise GammonError(f"cube efficiency must be between 0 and 1, not {x}")
    if info.is_money:
        return _money(y, info, x)
    return _match(y, info, x, met or default_met(max(info.away)))


def take_decision(
    probs: Sequence[float] | np.ndarray,
    cube_info: CubeInfo | None = None,
    efficiency: float | None = None,
    met: MatchEquityTable | None = None,
) -> CubeDecision:
    """What the player offered a double should do: take, pass or beaver.

    ``probs`` and ``cube_info`` are the doubler's, as for :func:`cube_decision`
    (the position before the doubler's roll, the cube before the double).  The
    result's ``action`` is the taker's; the equities stay the doubler's.
    """
    d = cube_decision(probs, cube_info, efficiency, met)
    info = cube_info or CubeInfo()
    if d.taker_action == PASS:
        text = f"pass: taking would leave {-d.double_take:+.3f} against {-d.double_pass:+.3f} for passing"
    elif d.taker_action == BEAVER:
        text = f"beaver: after taking the taker is ahead ({-d.double_take:+.3f})"
    else:
        text = f"take: taking leaves {-d.double_take:+.3f} against {-d.double_pass:+.3f} for passing"
    text += f"; take point {100 * d.take_point:.1f}%"
    if not info.is_money and d.mwc is not None:
        text += f" (taker's MWC take {100 * (1 - d.mwc[1]):.1f}%, pass {100 * (1 - d.mwc[2]):.1f}%)"
    return replace(d, action=d.taker_action, explanation=text)


def evaluate_plies(evaluator: Evaluator, position: Position, plies: int) -> np.ndarray:
    """Probabilities of ``position`` (player on roll) looking ``plies`` rolls ahead.

    An evaluator whose ``evaluate`` takes ``plies`` does it itself; otherwise
    each of the 21 rolls is played by the 0-ply choice and the results are
    valued ``plies - 1`` deep and averaged.
    """
    if plies < 0:
        raise GammonError("plies must be 0 or more")
    if position.outcome is not None:
        return outcome_probabilities(position)
    if plies == 0:
        return np.asarray(evaluator.evaluate(position), dtype=np.float64)
    from gammon.ai.search import PlyEvaluator

    if isinstance(evaluator, PlyEvaluator):  # it searches itself
        return np.asarray(evaluator.evaluate(position, plies), dtype=np.float64)
    total = np.zeros(5)
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            weight = 1.0 if d1 == d2 else 2.0
            plays = position.legal_plays((d2, d1))
            results = plays.positions() if len(plays) else [position]
            swapped = [r.swap() for r in results]
            vals = _values_on_roll(evaluator, swapped)
            eqs = -equities(vals)
            best = swapped[int(np.argmax(eqs))]
            total += weight * flip_rows(evaluate_plies(evaluator, best, plies - 1))[0]
    out: np.ndarray = total / 36.0
    return out


def outcome_probabilities(position: Position) -> np.ndarray:
    """The exact five chances of a finished game for ``position``'s player ``me``."""
    o = position.outcome
    assert o is not None
    g = 1.0 if o.kind >= 2 else 0.0
    bg = 1.0 if o.kind >= 3 else 0.0
    if o.winner_is_me:
        return np.array([1.0, g, bg, 0.0, 0.0])
    return np.array([0.0, 0.0, 0.0, g, bg])


def _values_on_roll(evaluator: Evaluator, positions: Sequence[Position]) -> np.ndarray:
    """Probabilities for the players on roll, with finished games valued exactly."""
    out = np.zeros((len(positions), 5))
    live = [i for i, q in enumerate(positions) if q.outcome is None]
    if live:
        out[live] = np.asarray(evaluator.evaluate_batch([positions[i] for i in live]), dtype=np.float64)
    for i, q in enumerate(positions):
        if q.outcome is not None:
            out[i] = outcome_probabilities(q)
    return out


def cube_action(
    evaluator: Evaluator,
    position: Position,
    cube_info: CubeInfo | None = None,
    plies: int = 0,
    met: MatchEquityTable | None = None,
) -> CubeDecision:
    """Evaluate ``position`` (the player on roll considers doubling) and decide.

    :raises GammonError: a finished game, or bad settings.
    """
    if position.outcome is not None:
        raise GammonError("the game is over: there is no cube decision")
    probs = evaluate_plies(evaluator, position, plies)
    return cube_decision(probs, cube_info, cube_efficiency(position), met)
