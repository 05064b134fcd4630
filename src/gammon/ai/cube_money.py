"""The money-play cube rule, compiled: Janowski's equities and the actions they choose.

:func:`gammon.ai.cube.cube_decision` (money play) and the rollouts' trials
(:mod:`gammon.ai.trial_cube`, which end a cubeful trial where the cube ends the
game) both call these functions, so the rule exists once and both reach the very
same numbers.  The model is described in :mod:`gammon.ai.cube`; here are its
arithmetic and the two choices made from it, as numbers a compiled loop can use:

* actions of the doubler: :data:`ND` (no double), :data:`DT` (double, take),
  :data:`DP` (double, pass), :data:`TG` (too good to double);
* answers of the taker: :data:`TAKES`, :data:`PASSES`, :data:`BEAVERS`;
* cube owners relative to the player on roll: :data:`OWN_CENTRED`,
  :data:`OWN_ME`, :data:`OWN_OPPONENT`.
"""

from __future__ import annotations

from numba import njit

#: The doubler's proper actions (:func:`choose_code`).
ND, DT, DP, TG = 0, 1, 2, 3
#: The taker's answers (:func:`taker_code`).
TAKES, PASSES, BEAVERS = 0, 1, 2
#: Who owns the cube, seen by the player on roll.
OWN_CENTRED, OWN_ME, OWN_OPPONENT = 0, 1, 2

#: Ties between the doubler's equities within this count as equal.
EPS = 1e-12


@njit(cache=True)
def clamp_probs(w, wg, wbg, lg, lbg):  # type: ignore[no-untyped-def]
    """Five probabilities made consistent: each within [0, 1], gammons within wins,
    backgammons within gammons (a net's outputs need not be)."""
    w = min(1.0, max(0.0, w))
    wg = min(1.0, max(0.0, wg))
    wbg = min(1.0, max(0.0, wbg))
    lg = min(1.0, max(0.0, lg))
    lbg = min(1.0, max(0.0, lbg))
    wg = min(wg, w)
    wbg = min(wbg, wg)
    lg = min(lg, 1.0 - w)
    lbg = min(lbg, lg)
    return w, wg, wbg, lg, lbg


@njit(cache=True)
def averages(y, s1, s2, s3):  # type: ignore[no-untyped-def]
    """Average points of a win and of a loss (W, L) per cube, when a single game, a gammon
    and a backgammon score ``s1``, ``s2``, ``s3`` (core's scoring rule)."""
    w = y[0]
    lo = 1.0 - w
    big_w = (s1 * (w - y[1]) + s2 * (y[1] - y[2]) + s3 * y[2]) / w if w > 1e-9 else float(s1)
    big_l = (s1 * (lo - y[3]) + s2 * (y[3] - y[4]) + s3 * y[4]) / lo if lo > 1e-9 else float(s1)
    return big_w, big_l


@njit(cache=True)
def money_values(y, owner, owned, centred, x):  # type: ignore[no-untyped-def]
    """No double, double/take and double/pass equities (normalised to the cube) and the
    taker's take point, for the player on roll with probabilities ``y`` (5, consistent),
    cube ``owner`` (:data:`OWN_CENTRED` ...), efficiency ``x``; ``owned``/``centred``:
    what a single game, a gammon and a backgammon score once the cube is turned and
    while it is centred (3 each; Jacoby and the gammon rule make them differ)."""
    big_w, big_l = averages(y, owned[0], owned[1], owned[2])
    p = y[0]
    s = p * (big_w + big_l + 0.5 * x) - big_l
    dead = p * (big_w + big_l) - big_l
    if owner == OWN_CENTRED:
        cw, cl = averages(y, centred[0], centred[1], centred[2])
        nd = 4.0 / (4.0 - x) * (p * (cw + cl + 0.5 * x) - cl - 0.25 * x)
        dead = p * (cw + cl) - cl
    elif owner == OWN_ME:
        nd = s
    else:
        nd = s - 0.5 * x
    dt = 2.0 * (s - 0.5 * x)
    dp = 1.0
    # The taker's take point in the taker's terms: (W_roller - 1/2) / (W + L + x/2).
    tp = (big_w - 0.5) / (big_w + big_l + 0.5 * x)
    if owner != OWN_OPPONENT:
        # Past the cash point the live part is worth the cash, or playing on
        # with the cube kept: cash later if the game swings back to the cash
        # point, win W (gammons included) if it goes all the way: the line from
        # (cash point, +1) to (1, W).  With gammons that is above the cash,
        # which makes a position too good to double.
        cp = 1.0 - tp
        live = 1.0 if p <= cp else 1.0 + (big_w - 1.0) * (p - cp) / max(1.0 - cp, 1e-9)
        nd = min(nd, x * max(live, dead) + (1.0 - x) * dead)
    if owner != OWN_ME:
        # Likewise below the opponent's cash point (our take point): the live
        # part loses the cash, or the opponent plays on for his gammons (the
        # line from (0, -L) to (take point, -1)).
        own_tp = (big_l - 0.5) / (big_w + big_l + 0.5 * x)
        live = -1.0 if p >= own_tp else -big_l + (big_l - 1.0) * p / max(own_tp, 1e-9)
        nd = max(nd, x * min(live, dead) + (1.0 - x) * dead)
    return nd, dt, dp, tp


@njit(cache=True)
def choose_code(nd, dt, dp):  # type: ignore[no-untyped-def]
    """The doubler's proper action (:data:`ND`, :data:`DT`, :data:`DP` or :data:`TG`) from
    his no double, double/take and double/pass values (in one unit)."""
    if nd > dp + EPS:
        return TG
    if min(dt, dp) > nd + EPS or (dt > dp and dp >= nd - EPS):
        return DT if dt <= dp else DP
    return ND


@njit(cache=True)
def taker_code(dt, dp, beavers):  # type: ignore[no-untyped-def]
    """The taker's answer (:data:`TAKES`, :data:`PASSES` or :data:`BEAVERS`) from the
    doubler's double/take and double/pass equities (money: a beaver, when allowed,
    whenever taking leaves the taker ahead)."""
    if dt > dp:
        return PASSES
    if beavers and dt < 0.0:
        return BEAVERS
    return TAKES
