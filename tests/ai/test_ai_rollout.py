"""Rollouts: reproducible, process-independent, variance reduction, truncation, cube play."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
import pytest

from gammon.ai.cube import CubeInfo
from gammon.ai.encoding import NUM_INPUTS, OFF_PIPDIFF
from gammon.ai.met import default_met
from gammon.ai.network import Network
from gammon.ai.probabilities import Probabilities
from gammon.ai.rollout import RolloutSettings, rollout, rollout_play
from gammon.core.cube import RelativeOwner
from gammon.core.errors import GammonError
from gammon.core.position import Position


def pip_net() -> Network:
    """A hand-made net that knows one thing: fewer pips than the opponent is good.

    One hidden unit reads the pip difference; the win output grows with it;
    gammon outputs stay near zero.  Good enough in races, and deterministic.
    """
    w1 = np.zeros((2, NUM_INPUTS, 1))
    w1[:, OFF_PIPDIFF, 0] = -8.0  # input is (my pips - his pips) / 100
    b1 = np.full((2, 1), 0.2)  # being on roll is worth a few pips
    w2 = np.zeros((2, 1, 5))
    w2[:, 0, 0] = 8.0
    b2 = np.full((2, 5), -9.0)
    b2[:, 0] = -4.0
    return Network(w1, b1, w2, b2)


NET = pip_net()


class NetAdapter:
    """The evaluator protocol over a bare :class:`Network`, without the compiled path."""

    def __init__(self, net: Network) -> None:
        self.net = net

    def evaluate(self, position: Position) -> Probabilities:
        return Probabilities.of(self.net.evaluate(position.board))

    def evaluate_batch(self, positions: Sequence[Position]) -> np.ndarray:
        boards = np.frombuffer(b"".join(q.board for q in positions), dtype=np.uint8).reshape(-1, 50)
        return self.net.evaluate_boards(boards).astype(np.float64)


def side(**points: int) -> list[int]:
    row = [0] * 25
    for name, n in points.items():
        row[int(name[1:]) - 1] = n
    return row


#: A race of about 40 pips each, the player on roll slightly ahead.
RACE = Position(side(p1=2, p2=2, p3=2, p4=2, p5=2, p6=1), side(p1=1, p2=2, p3=2, p4=2, p5=2, p6=2))
#: A longer race, about 75 pips each.
LONG_RACE = Position(
    side(p1=2, p2=2, p3=2, p4=2, p5=2, p6=1, p9=2, p10=2),
    side(p1=1, p2=2, p3=2, p4=2, p5=2, p6=2, p8=2, p11=2),
)
#: A short contact position (one checker back each side).
CONTACT = Position(
    side(p24=1, p6=4, p5=3, p4=3, p3=2, p2=2), side(p24=1, p6=4, p5=3, p4=3, p3=2, p2=2)
)


def test_same_seed_same_result() -> None:
    s = RolloutSettings(trials=36, seed=11, variance_reduction=False)
    a = rollout(CONTACT, NET, s)
    b = rollout(CONTACT, NET, s)
    assert a.probs == b.probs and a.se_equity == b.se_equity
    c = rollout(CONTACT, NET, RolloutSettings(trials=36, seed=12, variance_reduction=False))
    assert c.probs != a.probs
    assert a.trials == 36 and not a.stopped_early
    assert a.mean_plies > 2


def test_processes_do_not_change_the_result() -> None:
    s = RolloutSettings(trials=108, seed=3, variance_reduction=True, cubeful=True)
    one = rollout(RACE, NET, s)
    two = rollout(RACE, NET, RolloutSettings(trials=108, seed=3, variance_reduction=True,
                                               cubeful=True, processes=2))
    assert one.probs == two.probs
    assert one.cubeful_equity == two.cubeful_equity
    assert one.se_equity == two.se_equity


def test_variance_reduction_lowers_the_error() -> None:
    # The pip-count net measures luck only roughly (it knows nothing of wastage);
    # a trained net cuts the error four- to fivefold here, with the bear-off
    # database twentyfold.
    plain = rollout(LONG_RACE, NET, RolloutSettings(trials=144, seed=5, variance_reduction=False))
    vr = rollout(LONG_RACE, NET, RolloutSettings(trials=144, seed=5, variance_reduction=True))
    assert vr.se_equity < 0.8 * plain.se_equity
    # Both estimate the same thing.
    assert abs(vr.equity - plain.equity) < 3 * plain.se_equity


def test_compiled_and_python_paths_agree() -> None:
    for vr in (False, True):
        s = RolloutSettings(trials=12, seed=7, variance_reduction=vr, truncate_at=6)
        fast = rollout(RACE, NET, s)
        slow = rollout(RACE, NetAdapter(NET), s)
        np.testing.assert_allclose(fast.probs, slow.probs, atol=1e-6)


def test_truncation() -> None:
    static = NET.evaluate(CONTACT.board)
    r0 = rollout(CONTACT, NET, RolloutSettings(trials=36, truncate_at=0))
    np.testing.assert_allclose(r0.probs, static, atol=1e-6)
    assert r0.se_equity == pytest.approx(0.0, abs=1e-9)
    r2 = rollout(CONTACT, NET, RolloutSettings(trials=72, truncate_at=2, seed=2))
    assert r2.mean_plies <= 2
    assert np.isfinite(r2.equity)


def test_near_won_race() -> None:
    # Two checkers on the ace point: every roll bears both off.
    done = Position(side(p1=2), side(p6=3, p5=3))
    r = rollout(done, NET, RolloutSettings(trials=36))
    assert r.equity == pytest.approx(1.0)
    assert r.probs[0] == pytest.approx(1.0)
    # Nearly won: four checkers low against eight checkers far back.
    nearly = Position(side(p1=2, p2=2), side(p6=4, p5=4))
    r = rollout(nearly, NET, RolloutSettings(trials=144, seed=1))
    assert r.equity > 0.9
    cubeful = rollout(nearly, NET, RolloutSettings(trials=72, cubeful=True))
    assert cubeful.cubeful_equity == pytest.approx(1.0)  # double, pass


def test_quasi_random_first_rolls() -> None:
    seen: Counter[tuple[int, int]] = Counter()

    def choose(position: Position, dice: tuple[int, int]) -> Position | None:
        if position == RACE:
            seen[dice] += 1
        plays = position.legal_plays(dice)
        return plays[0].position if len(plays) else None

    rollout(RACE, NetAdapter(NET), RolloutSettings(trials=36, truncate_at=1,
                                                   variance_reduction=False), choose=choose)
    assert sum(seen.values()) == 36
    assert len(seen) == 21
    assert all(n == (1 if d1 == d2 else 2) for (d1, d2), n in seen.items())


def test_target_se_stops_early() -> None:
    calls: list[tuple[int, int]] = []
    s = RolloutSettings(trials=3600, seed=4, target_se=0.05, variance_reduction=False, min_trials=72)
    r = rollout(RACE, NET, s, progress=lambda done, total: calls.append((done, total)))
    assert r.stopped_early
    assert r.trials < 3600 and r.trials % 36 == 0
    assert r.se_equity < 0.05
    assert calls and calls[0] == (36, 3600)


def test_rollout_play() -> None:
    play = RACE.legal_plays((6, 5))[0]
    s = RolloutSettings(trials=36, seed=8)
    r = rollout_play(RACE, play, NET, s)
    direct = rollout(play.position.swap(), NET, s)
    assert r.probs[0] == pytest.approx(1.0 - direct.probs[0])
    assert r.equity == pytest.approx(-direct.equity)
    winning = Position(side(p1=1), side(p6=2)).legal_plays((3, 1))[0]
    w = rollout_play(Position(side(p1=1), side(p6=2)), winning, NET, RolloutSettings(cubeful=True))
    assert w.equity == 1.0 and w.cubeful_equity == 1.0 and w.trials == 0


def test_cubeful_match_rollout() -> None:
    met = default_met()
    info = CubeInfo(match_length=5, score=(1, 2))
    r = rollout(RACE, NET, RolloutSettings(trials=72, cubeful=True, seed=6), cube_info=info)
    assert r.cubeful_mwc is not None and r.cubeful_equity is not None
    assert 0.0 <= r.cubeful_mwc <= 1.0
    assert met.mwc_to_emg(r.cubeful_mwc, 4, 3, 1) == pytest.approx(r.cubeful_equity)
    # In the Crawford game there is no cube: the cubeful result follows the games.
    craw = CubeInfo(match_length=5, score=(4, 2), crawford=True)
    rc = rollout(RACE, NET, RolloutSettings(trials=36, cubeful=True, seed=6,
                                            variance_reduction=False), cube_info=craw)
    assert rc.cubeful_mwc == pytest.approx(rc.probs[0] + (1 - rc.probs[0]) * met.equity(1, 2))


def test_bad_calls() -> None:
    with pytest.raises(GammonError):
        RolloutSettings(trials=0)
    with pytest.raises(GammonError):
        RolloutSettings(processes=0)
    with pytest.raises(GammonError):
        RolloutSettings(target_se=0.0)
    over = Position([0] * 25, side(p6=2))
    with pytest.raises(GammonError):
        rollout(over, NET)
    with pytest.raises(GammonError):
        rollout(RACE, object())


def _cubeful_blocks(pos: Position, settings: RolloutSettings, info: CubeInfo,
                    follow: bool, python: bool = False) -> np.ndarray:
    """Per-trial values of a cubeful rollout (``rollout``'s own blocks), with the trials
    following the money cube (and ending at a passed double) or played to the end."""
    import gammon.ai.rollout as ro
    import gammon.ai.rollout_trials as rt

    job = ro._make_job(pos, NetAdapter(NET) if python else NET, settings, info, None, None)
    original = rt.MoneyCube.of
    try:
        if not follow:
            # The trials play on; the replay still knows the cube.
            rt.MoneyCube.of = classmethod(  # type: ignore[method-assign,assignment]
                lambda cls, s, i: original(s, i)._replace(on=False))
        return ro._block_values(job, rt.run_block(job, 0, settings.trials))
    finally:
        rt.MoneyCube.of = original  # type: ignore[method-assign]


@pytest.mark.parametrize("info", [CubeInfo(), CubeInfo(jacoby=True, beavers=True),
                                  CubeInfo(value=2, owner=RelativeOwner.OPPONENT)])
def test_money_trials_end_where_the_double_is_passed(info: CubeInfo) -> None:
    # The cube decides the game where a double is passed; playing on past it changes nothing
    # of the cubeful result, trial by trial.  The trials that stop there are shorter.
    s = RolloutSettings(trials=72, seed=4, cubeful=True)
    stopped = _cubeful_blocks(LONG_RACE, s, info, follow=True)
    played = _cubeful_blocks(LONG_RACE, s, info, follow=False)
    np.testing.assert_allclose(stopped[:, 5], played[:, 5], rtol=0, atol=1e-12)
    plies = stopped[:, 7]
    assert (plies <= played[:, 7]).all()
    assert (plies < played[:, 7]).sum() >= 10  # passes happen in a race of 75 pips
    # A stopped trial's cubeless value is the evaluator's where it stopped.
    assert not np.array_equal(stopped[:, :5], played[:, :5])


def test_money_trials_stop_alike_compiled_and_from_python() -> None:
    s = RolloutSettings(trials=36, seed=2, cubeful=True, variance_reduction=False)
    fast = _cubeful_blocks(LONG_RACE, s, CubeInfo(), follow=True)
    slow = _cubeful_blocks(LONG_RACE, s, CubeInfo(), follow=True, python=True)
    np.testing.assert_array_equal(fast[:, 7], slow[:, 7])
    np.testing.assert_allclose(fast[:, :6], slow[:, :6], atol=1e-6)


@pytest.mark.parametrize("vr", [True, False])
def test_the_shared_first_plies_change_nothing(vr: bool) -> None:
    # Every trial of a variance-reduced rollout shares the roll tables of its first two plies
    # (ply 1's per first roll), a plain one each roll's best result there; made afresh for
    # each trial, they give the same numbers.
    import dataclasses

    import gammon.ai.rollout as ro
    import gammon.ai.rollout_trials as rt

    s = RolloutSettings(trials=72, seed=3, cubeful=True, variance_reduction=vr)
    job = ro._make_job(CONTACT, NET, s, CubeInfo(), None, None)
    shared = rt.run_block(job, 0, 72)
    if vr:
        assert job.first_plies.filled[0, 0] and job.first_plies.filled.sum() == 22  # all 21 first rolls met
        assert not job.first_plies.played.any()
    else:
        assert job.first_plies.played[0].all() and not job.first_plies.filled.any()
        def roll(k: int) -> tuple[int, int]:
            return max(k // 6, k % 6) + 1, min(k // 6, k % 6) + 1

        pairs = {(roll(int(job.perm1[t % 36])), roll(int(job.perm2[(11 * (t % 36) + t // 36) % 36])))
                 for t in range(72)}
        assert job.first_plies.played[1:].sum() == len(pairs) < 72  # each pair of rolls played once
    for t in range(0, 72, 5):
        alone = rt.run_block(dataclasses.replace(job, first_plies=rt.FirstPlies.create()), t, 1)
        for got, want in zip(alone, shared, strict=True):
            np.testing.assert_array_equal(got[0], want[t])


def _blocks(pos: Position, settings: RolloutSettings) -> tuple[object, object]:
    """Trials of the shipped evaluator (with the bear-off tables) from ``pos``: stopping at
    the tables, then played out; the same dice."""
    import dataclasses

    import gammon.ai.rollout as ro
    import gammon.ai.rollout_trials as rt
    from gammon.ai.evaluator import default_evaluator

    out = []
    for stop in (True, False):
        s = dataclasses.replace(settings, stop_at_bearoff=stop)
        job = ro._make_job(pos, default_evaluator(), s, CubeInfo(), None, None)
        out.append(rt.run_block(job, 0, s.trials))
    return out[0], out[1]


def test_cubeless_trials_stop_at_the_bearoff_tables() -> None:
    # A race of 75 pips each, not yet in the tables: the trials stop once both sides are in
    # them (shorter, marked cut), the same play up to there; the rest are the games that end
    # before (a side left far behind is never in the tables).
    stopped, played = _blocks(LONG_RACE, RolloutSettings(trials=72, seed=6, variance_reduction=False))
    short = stopped.nplies < played.nplies
    assert short.sum() >= 36
    np.testing.assert_array_equal(stopped.cut.astype(bool), short)
    np.testing.assert_array_equal(stopped.nplies[~short], played.nplies[~short])
    # Where a trial stopped the tables' chances stand in for the game played out: with the
    # luck of every roll removed the two agree closely (the tables are what the play followed).
    import gammon.ai.rollout as ro
    from gammon.ai.evaluator import default_evaluator
    vr = {stop: ro.rollout(LONG_RACE, default_evaluator(), RolloutSettings(
        trials=144, seed=6, stop_at_bearoff=stop)) for stop in (True, False)}
    assert vr[True].mean_plies < vr[False].mean_plies - 5
    assert vr[True].equity == pytest.approx(vr[False].equity, abs=0.01)
    assert vr[True].se_equity < 0.02


def test_a_position_in_the_tables_and_cubeful_trials_play_out() -> None:
    # Rolling out a bear-off position means playing it: no trial stops at once.  Cubeful trials
    # play their races' cube turns.
    stopped, played = _blocks(RACE, RolloutSettings(trials=36, seed=6, variance_reduction=False))
    np.testing.assert_array_equal(stopped.nplies, played.nplies)
    np.testing.assert_array_equal(stopped.res, played.res)
    assert not stopped.cut.any()
    stopped, played = _blocks(LONG_RACE, RolloutSettings(trials=36, seed=6, cubeful=True))
    np.testing.assert_array_equal(stopped.nplies, played.nplies)


#: The last roll: the player on roll bears his one checker off from his 6-point with 27 of the
#: 36 rolls (every roll but 1-2, 1-3, 1-4, 2-3 and 1-1); otherwise the opponent, one checker on
#: his 1-point, bears off at once.  No gammons: the game is worth exactly 27/36 - 9/36 = 0.5
#: points a cube unit to the player on roll if he does not double (the opponent, sure to win,
#: doubles and is passed: one point either way).
LAST_ROLL = Position(side(p6=1), side(p1=1))


def exact_evaluator() -> object:
    """The engine's 0-ply evaluator: its bear-off tables know the last roll exactly (75%)."""
    from gammon.ai.engine import Engine

    return Engine(plies=0).evaluator


class PythonDriven:
    """An evaluator without the compiled path (``evaluate_batch`` only), over ``inner``."""

    def __init__(self, inner: object) -> None:
        self.inner = inner

    def evaluate(self, position: Position) -> Probabilities:
        return self.inner.evaluate(position, 0)  # type: ignore[attr-defined,no-any-return]

    def evaluate_batch(self, positions: Sequence[Position]) -> np.ndarray:
        return np.array([np.asarray(self.evaluate(q), dtype=np.float64) for q in positions])


#: The same from the 5-point: 31 rolls in 36 bear off (all but 1-1, 1-2 and 1-3), so the
#: double is passed, and "no double" is worth 31/36 - 5/36.
LAST_ROLL_PASS = Position(side(p5=1), side(p1=1))


@pytest.mark.parametrize("driven", ["compiled", "python"])
def test_a_no_double_rollout_keeps_the_cube_for_the_first_turn(driven: str) -> None:
    # Rolled out as "no double" (first_cube_action False) the money game is worth its 0.5;
    # with the cube doubled and owned by the taker, 2 x 0.5 = 1.0 in units of the starting
    # cube; with the first cube action allowed the player on roll doubles at once (75% to win:
    # double, and a take or a pass are worth the same) and the rollout says 1.0, the value of
    # the proper action, not of "no double".  Multiples of 36 trials see every first roll
    # equally often.
    ev = exact_evaluator()
    if driven == "python":
        ev = PythonDriven(ev)
    s = RolloutSettings(trials=72, cubeful=True, first_cube_action=False)
    assert rollout(LAST_ROLL, ev, s).cubeful_equity == pytest.approx(0.5)
    doubled = rollout(LAST_ROLL, ev, s, cube_info=CubeInfo(value=2, owner=RelativeOwner.OPPONENT))
    assert 2 * (doubled.cubeful_equity or 0.0) == pytest.approx(1.0)
    proper = rollout(LAST_ROLL, ev, RolloutSettings(trials=72, cubeful=True))
    assert proper.cubeful_equity == pytest.approx(1.0)
    # 86% to win: the double is passed.  The proper action's rollout stops every trial at
    # the root (a point won); "no double" plays the roll out: 26/36.
    cash = rollout(LAST_ROLL_PASS, ev, RolloutSettings(trials=72, cubeful=True))
    assert cash.cubeful_equity == pytest.approx(1.0) and cash.mean_plies == 0
    held = rollout(LAST_ROLL_PASS, ev, s)
    assert held.cubeful_equity == pytest.approx(26 / 36) and held.mean_plies >= 1


@pytest.mark.parametrize("truncate_at", [None, 0])
def test_a_no_double_rollout_at_a_match_score(truncate_at: int | None) -> None:
    # 5-away, 5-away, cube 1: without doubling the player on roll wins one point 27 times in
    # 36, and loses one otherwise (truncated at once: the same from the exact probabilities).
    info = CubeInfo(match_length=7, score=(2, 2))
    met = default_met(7)
    s = RolloutSettings(trials=72, cubeful=True, first_cube_action=False, truncate_at=truncate_at)
    r = rollout(LAST_ROLL, exact_evaluator(), s, cube_info=info, met=met)
    expect = 0.75 * met.after_pre(4, 5) + 0.25 * met.after_pre(5, 4)
    assert r.cubeful_mwc == pytest.approx(expect)
