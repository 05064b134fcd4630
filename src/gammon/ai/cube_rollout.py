"""A cube decision rolled out: *no double* and *double/take* each played out by cubeful rollouts.

A cubeful rollout of a position (:func:`gammon.ai.rollout.rollout`) values it
with the cube played as it goes, the player on roll's own action before his
first roll included: it answers "what is this position worth?".  A cube
decision needs two other numbers, each with that first action fixed:

* **no double**: the cube as it is, and no double before the first roll
  (:attr:`~gammon.ai.rollout.RolloutSettings.first_cube_action` off; with it
  on, a position the rollout's cube play would double comes out as doubled);
* **double/take**: the cube doubled and owned by the taker, who may redouble
  later;
* **double/pass** is exact: the cube's points (or the match winning chances of
  winning them) handed over, :func:`~gammon.ai.cube.cube_decision`'s cash.

Both rollouts run with the same settings and seed (the same dice for both), so
their difference, which decides, carries less noise than either value.  The
equities are normalised to the cube as it is (EMG at a match score), the doubler's
view, as every :class:`~gammon.ai.cube.CubeDecision` reports them.  GNU
Backgammon's cube rollouts do the same (its "rollout =cube").
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from gammon.ai.cube import (
    NO_DOUBLE,
    CubeDecision,
    CubeInfo,
    choose_action,
    cube_decision,
    cube_efficiency,
    refusal,
    taker_action,
)
from gammon.ai.met import MatchEquityTable, default_met
from gammon.ai.rollout import ProgressCallback, RolloutResult, RolloutSettings, rollout
from gammon.core.errors import GammonError
from gammon.core.position import Position

if TYPE_CHECKING:
    from gammon.ai.distributed import Runner

__all__ = ["CubeRollout", "Role", "doubler_close", "is_close_call", "normalised_value", "rollout_cube",
           "taker_close"]


@dataclass(frozen=True, slots=True)
class CubeRollout:
    """What :func:`rollout_cube` found, the doubler's view.

    ``decision``: the cube decision from the rolled-out equities (its ``mwc`` at
    a match score); ``se``: the standard errors of no double and double/take in
    the same units (double/pass is exact); ``no_double`` / ``double_take``: the
    two rollouts themselves (their chances and cubeless equities included).
    """

    decision: CubeDecision
    se: tuple[float, float]
    no_double: RolloutResult
    double_take: RolloutResult

    @property
    def trials(self) -> int:
        """Trials of each rollout (the fewer, where ``target_se`` stopped one early)."""
        return min(self.no_double.trials, self.double_take.trials)


def normalised_value(res: RolloutResult, state: CubeInfo, info: CubeInfo,
                     met: MatchEquityTable | None) -> tuple[float, float, float | None]:
    """(equity normalised to ``info``'s cube, its standard error, MWC or None) of a cubeful
    rollout made with the cube at ``state`` (``met``: the table of a match score, None in
    money play)."""
    assert res.cubeful_equity is not None and res.se_cubeful is not None
    if met is None or res.cubeful_mwc is None:
        scale = state.value / info.value
        return res.cubeful_equity * scale, res.se_cubeful * scale, None
    a, b = info.away
    post = info.crawford or info.post_crawford
    mwc = res.cubeful_mwc
    emg = met.mwc_to_emg(mwc, a, b, info.value, post)
    se = abs(met.mwc_to_emg(mwc + (res.se_mwc or 0.0), a, b, info.value, post) - emg)
    return emg, se, mwc


def rollout_cube(position: Position, evaluator: Any, settings: RolloutSettings | None = None,
                 info: CubeInfo | None = None, met: MatchEquityTable | None = None,
                 runner: Runner | None = None, progress: ProgressCallback | None = None) -> CubeRollout:
    """Roll out the cube decision of ``position``'s player on roll (before his roll).

    ``settings`` (cubeful is implied) serve both rollouts; ``info`` is the cube and
    score (None: money, centred); ``met`` the match equity table (None: the one in
    use).  Where the player may not double (:func:`~gammon.ai.cube.refusal`: the
    opponent owns the cube, the Crawford game, a dead cube) the decision is no
    double, with double/take still rolled out while the cube can be turned, so
    that the cost of a double made all the same can be read.  ``progress`` is
    told ``(done, total)`` over both rollouts' trials.

    :raises GammonError: a finished game, or a cube that cannot be turned at all.
    """
    if position.outcome is not None:
        raise GammonError("the game is over: there is no cube decision")
    info = info or CubeInfo()
    if 2 * info.value > info.cube_limit:
        raise GammonError(f"the cube is at its limit ({info.cube_limit}): there is no double to roll out")
    if not info.is_money:
        met = met or default_met(max(info.away))
    s = replace(settings or RolloutSettings(), cubeful=True)
    doubled = info.after_double()
    total = 2 * s.trials

    def part(offset: int) -> ProgressCallback | None:
        if progress is None:
            return None
        return lambda done, _total: progress(offset + done, total)

    nd_r = rollout(position, evaluator, replace(s, first_cube_action=False), part(0), info, met=met,
                   runner=runner)
    dt_r = rollout(position, evaluator, s, part(s.trials), doubled, met=met, runner=runner)
    nd, nd_se, nd_m = normalised_value(nd_r, info, info, met)
    dt, dt_se, dt_m = normalised_value(dt_r, doubled, info, met)
    cash = cube_decision(nd_r.probs, info, cube_efficiency(position), met)  # its D/P is exact
    dp = cash.double_pass
    mwc = None
    if nd_m is not None and dt_m is not None and cash.mwc is not None:
        mwc = (nd_m, dt_m, cash.mwc[2])
    # Decide in the unit the trials were valued in (MWC at a match score), as the search does.
    vals = mwc if mwc is not None else (nd, dt, dp)
    why = refusal(info)
    action = NO_DOUBLE if why is not None else choose_action(*vals)
    taker = taker_action(vals[1], vals[2], info.is_money and info.beavers)
    text = (f"rolled out, {s.trials} trials: ND {nd:+.3f} +- {nd_se:.3f}, D/T {dt:+.3f} +- {dt_se:.3f}, "
            f"D/P {dp:+.3f}{'' if info.is_money else ' (EMG)'}; "
            + (why if why is not None else f"{action}, the taker should {taker}"))
    decision = CubeDecision(action, nd, dt, dp, taker, text, why is None, cash.cubeless_equity,
                            cash.take_point, cash.efficiency, mwc)
    return CubeRollout(decision, (nd_se, dt_se), nd_r, dt_r)


def doubler_close(decision: CubeDecision, margin: float) -> bool:
    """Whether ``decision``'s no double is within ``margin`` of double (the doubler's question)."""
    return abs(decision.no_double - min(decision.double_take, decision.double_pass)) <= margin


def taker_close(decision: CubeDecision, margin: float) -> bool:
    """Whether ``decision``'s take is within ``margin`` of pass (the taker's question)."""
    return abs(decision.double_take - decision.double_pass) <= margin


#: Whose question a cube call asks: the player on roll's (double or not) or his opponent's
#: (take or pass); None: either.
Role = Literal["doubler", "taker"] | None


def is_close_call(decision: CubeDecision, margin: float, role: Role = None) -> bool:
    """Whether ``decision``'s own equities leave ``role``'s question open: the doubler's
    (:func:`doubler_close`), the taker's (:func:`taker_close`), or either (None).  Only a
    player who may double has a call to make."""
    if not decision.can_double:
        return False
    if role is None:
        return doubler_close(decision, margin) or taker_close(decision, margin)
    if role == "doubler":
        return doubler_close(decision, margin)
    if role == "taker":
        return taker_close(decision, margin)
    raise GammonError(f"a cube call's role is 'doubler' or 'taker', not {role!r}")
