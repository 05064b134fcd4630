"""Gammon chances in lopsided contact positions: find them, measure the net against our own rollouts, refine.

TD self-play sees few positions where one side is crushed (a checker on the
bar against a closed or crunched board, a blitz), so the net's gammon chances
there drift (+0.05 to +0.13 was measured, e.g. 70% gammons where 42% is
right), which makes the cube double too early and pass wrongly.  The cure is
supervised refinement on targets we make ourselves, never another engine's:

1. **positions**: our own 0-ply self-play (:func:`gammon.training.positions.collect_positions`),
   keeping the lopsided ones (:func:`is_lopsided`: a side on the bar against
   at least four made home points, or a side far behind in a blitz);
2. **targets**: a 0-ply rollout of each, played to the end (gammons are only
   known at the end), seeded per position (:func:`rollout_targets`);
3. **training**: :func:`gammon.training.fitting.fit` on these targets mixed with an
   ordinary refinement dataset (so that the rest of the game is not forgotten),
   from the weights to improve; the held-out lopsided positions report the
   gammon bias (net minus rollout) before and after.

The same recipe serves other classes of positions (``--source``): ``constructed``
(:func:`construct_lopsided`), ``late-hit`` (:func:`late_hit_positions`),
``cube-window`` (:func:`cube_window_positions`, where the cube decisions are taken),
``contact-siblings`` (:func:`contact_sibling_positions`, the plays a 0-ply net must rank) and
``race-siblings`` (:func:`race_sibling_positions`, the races the race net values).
``--truncate N --vr`` makes the targets truncated, variance-reduced rollouts instead
(N plies, then the net's value; the luck of every roll taken off): far less noise a
second, at the price of the net's own error N plies on.

The dataset (positions and targets) is saved in chunks to ``DIR/dataset.npz``
so an interrupted run resumes; ``DIR/weights.npz`` and ``DIR/meta.json`` hold
the result.  Run ``gammon train lopsided --base W --out DIR
[--positions N] [--trials T] [--mix DATASET] [--epochs E] [--lr LR]``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from gammon.ai.bearoff import load as load_bearoff
from gammon.ai.encoding import encode_batch, is_contact
from gammon.ai.evaluator import ClassifyingEvaluator, valued_by_tables
from gammon.ai.network import Network
from gammon.ai.probabilities import equities
from gammon.ai.rollout import RolloutSettings, rollout
from gammon.core.errors import GammonError
from gammon.core.pips import pips
from gammon.core.position import Position
from gammon.core.variants import STANDARD
from gammon.training.fitting import Progress, dataset_loss, fit, net_indices
from gammon.training.positions import collect_positions, collect_siblings
from gammon.training.refine import SHIPPED, load_base
from gammon.training.runs import run_command

DATASET_FILE = "dataset.npz"
#: Positions rolled out between saves.
CHUNK = 100


def _made_home_points(b: np.ndarray, o: int) -> int:
    return int(sum(1 for i in range(6) if b[o + i] >= 2))


def is_lopsided(board: np.ndarray | bytes) -> bool:
    """Whether a contact position (player on roll first) is one where a side is crushed.

    Either side has a checker on the bar against at least four made home
    points of the other, or trails the race by 60 pips or more while still in
    contact with two or more checkers back (a blitz or a closed-out side).
    """
    b = np.frombuffer(board, dtype=np.uint8) if isinstance(board, bytes) else board
    if not is_contact(b):
        return False
    for me, opp in ((0, 25), (25, 0)):
        if b[me + 24] >= 1 and _made_home_points(b, opp) >= 4:
            return True
        back = int(sum(int(b[me + i]) for i in range(18, 25)))
        if back >= 2 and pips(b, me) - pips(b, opp) >= 60:
            return True
    return False


def _first_selected(batch: Callable[[int], np.ndarray], count: int, seed: int,
                    select: Callable[[np.ndarray], np.ndarray], what: str | None = None) -> np.ndarray:
    """The first ``count`` boards that ``select`` keeps from ``batch(s)``'s boards, for the
    seeds ``seed``, ``seed + 1,000,003``, ... in turn (so a larger run extends a smaller one);
    with ``what``, a batch that keeps nothing is an error naming it."""
    out: list[np.ndarray] = []
    have = 0
    s = seed
    while have < count:
        sel = select(batch(s))
        if what is not None and len(sel) == 0:
            raise GammonError(f"self-play gave no {what} positions")
        out.append(sel)
        have += len(sel)
        s += 1_000_003
    return np.concatenate(out)[:count]


def _self_play_selection(net: Network, count: int, seed: int,
                         select: Callable[[np.ndarray], np.ndarray], what: str) -> np.ndarray:
    """The first ``count`` boards that ``select`` keeps from batches of ``net``'s 0-ply
    self-play (20,000 positions a batch, seeded from ``seed``)."""
    return _first_selected(lambda s: collect_positions(net, 20_000, seed=s)[0], count, seed, select, what)


def _sibling_selection(net: Network, count: int, seed: int, k: int, batch: int,
                       keep: Callable[[np.ndarray], bool]) -> np.ndarray:
    """The first ``count`` siblings (:func:`gammon.training.positions.collect_siblings`: the
    results of ``net``'s ``k`` best plays of a random roll in its 0-ply self-play, the next
    player on roll) that ``keep`` accepts, from batches of ``batch`` seeded from ``seed``."""
    return _first_selected(lambda s: collect_siblings(net, batch, s, k)[0], count, seed,
                           lambda boards: boards[[keep(b) for b in boards]])


def lopsided_positions(net: Network, count: int, seed: int = 1) -> np.ndarray:
    """``count`` lopsided self-play positions ``(count, 50)`` (player on roll first)."""
    return _self_play_selection(net, count, seed, lambda b: b[[is_lopsided(x) for x in b]], "lopsided")


def construct_lopsided(rng: random.Random) -> Position:
    """One constructed lopsided position, built at random (retried until legal).

    The player on roll has one or two checkers on the bar (and perhaps a blot or
    an anchor back) against four to six made home points; the opponent's spare
    checkers are piled deep ("crunched") or kept outside.
    """
    while True:
        opp = [0] * 25  # the opponent's own points 1..24, bar
        made = rng.sample(range(6), rng.choice((4, 5, 5, 6)))
        left = 15
        for i in made:
            opp[i] = 2
            left -= 2
        crunched = rng.random() < 0.6
        while left > 0:
            if crunched:
                i = rng.choice(made)  # piled deep on the home points
            else:
                i = rng.randrange(6, 13)  # kept outside
            opp[i] += 1
            left -= 1
        me = [0] * 25
        me[24] = rng.choice((1, 1, 2))
        left = 15 - me[24]
        # A blot or an anchor in the opponent's home board, on a point it has not made.
        free = [i for i in range(6) if opp[i] == 0]  # the opponent's index i is my 23 - i
        if free and rng.random() < 0.6:
            n = rng.choice((1, 2))
            me[23 - rng.choice(free)] += n
            left -= n
        while left > 0:
            i = rng.randrange(3, 17)
            if opp[23 - i] == 0:
                me[i] += 1
                left -= 1
        try:
            return Position(me, opp)
        except GammonError:
            continue


def constructed_positions(count: int, seed: int = 1) -> np.ndarray:
    """``count`` boards from :func:`construct_lopsided`, half of them seen from the other side."""
    rng = random.Random(seed)
    out = np.zeros((count, 50), dtype=np.uint8)
    for k in range(count):
        pos = construct_lopsided(rng)
        if k % 2:
            pos = pos.swap()
        out[k] = np.frombuffer(pos.board, dtype=np.uint8)
    return out


def construct_late_hit(rng: random.Random) -> Position:
    """One constructed late-hit position, built at random (retried until legal).

    The player on roll is far ahead in the race (2 to 13 checkers off, the rest in
    its home board) but has one or two checkers on the bar against three to six
    made home points; the opponent keeps zero to two checkers back in the player's
    home board (where the hit came from) and its other checkers outside or piled
    on its home points.  Our nets misjudged these badly: the side on the bar was
    given about 11% more wins than GNU Backgammon's 2-ply analysis gives it.
    """
    while True:
        me, opp = [0] * 25, [0] * 25
        me[24] = rng.choice((1, 1, 1, 2))
        left = 15 - rng.randint(2, 13) - me[24]
        made = rng.sample(range(6), rng.choice((3, 4, 4, 5, 5, 6)))
        oleft = 15 - 2 * len(made)
        for i in made:
            opp[i] = 2
        for _ in range(rng.choice((0, 0, 1, 1, 2))):  # back in my home board: its 19..24
            opp[rng.randrange(18, 24)] += 1
            oleft -= 1
        home = [i for i in range(6) if opp[23 - i] == 0]  # my home points it does not hold
        if left < 0 or not home:
            continue
        for _ in range(left):
            me[rng.choice(home)] += 1
        outside = [i for i in range(6, 18) if me[23 - i] == 0]
        for _ in range(oleft):
            opp[rng.choice(outside) if rng.random() < 0.5 else rng.choice(made)] += 1
        try:
            return Position(me, opp)
        except GammonError:
            continue


def late_hit_positions(net: Network, count: int, seed: int = 1) -> np.ndarray:
    """``count`` boards around late hits: :func:`construct_late_hit`, each then played on
    0 to 4 plies by ``net`` at 0-ply with random dice (so the positions after the entry,
    the pick-up and the closeout come too), half of them seen from the other side.

    Only contact positions are kept (the race and the bear-off are valued exactly or well).
    """
    rng = random.Random(seed)
    out = np.zeros((count, 50), dtype=np.uint8)
    k = 0
    while k < count:
        pos = construct_late_hit(rng)
        for _ in range(rng.choice((0, 0, 1, 2, 3, 4))):
            ranked = net.rank_plays(pos, (rng.randint(1, 6), rng.randint(1, 6)))
            pos = (ranked[0].play.position if ranked else pos).swap()
            if pos.is_game_over:
                break
        b = np.frombuffer(pos.board, dtype=np.uint8)
        if pos.is_game_over or not is_contact(b):
            continue
        if rng.random() < 0.5:
            b = np.frombuffer(pos.swap().board, dtype=np.uint8)
        out[k] = b
        k += 1
    return out


#: The cubeless money equity (0-ply, player on roll) of a cube-window position: from a
#: marginal double to past the pass point ("too good"), where cube decisions are taken.
CUBE_WINDOW = (0.30, 1.30)


def in_cube_window(probs: np.ndarray) -> np.ndarray:
    """Which rows of ``(n, 5)`` probabilities (player on roll) lie in :data:`CUBE_WINDOW`."""
    e = equities(np.asarray(probs, dtype=np.float64))
    return (e >= CUBE_WINDOW[0]) & (e <= CUBE_WINDOW[1])


def cube_window_positions(net: Network, count: int, seed: int = 1) -> np.ndarray:
    """``count`` contact self-play positions ``(count, 50)`` where the player on roll, by
    ``net`` at 0-ply, stands in the doubling window (:func:`in_cube_window`).

    These are the positions of the cube decisions.  GNU Backgammon's analysis of our
    matches found most of the expert's wrong takes in positions where the 0-ply net
    valued the doubler about 0.03 too low while our own 0-ply rollouts were within 0.01
    of GNU Backgammon's 2-ply; over the window as a whole the net has no such slant, so
    rollouts of the window correct it position by position.
    """
    ev = ClassifyingEvaluator(net, load_bearoff())

    def select(boards: np.ndarray) -> np.ndarray:
        boards = np.ascontiguousarray(boards[[is_contact(b) for b in boards]])
        kept: np.ndarray = boards[in_cube_window(ev.evaluate_batch(boards))]
        return kept

    return _self_play_selection(net, count, seed, select, "cube-window")


def contact_sibling_positions(net: Network, count: int, seed: int = 1, k: int = 5,
                              batch: int = 20_000) -> np.ndarray:
    """``count`` contact positions ``(count, 50)``: the results of ``net``'s ``k`` best plays
    of a random roll in its own 0-ply self-play (:func:`gammon.training.positions.collect_siblings`),
    seen by the next player on roll, races left out.

    Contact is where the 0-ply net loses most by GNU Backgammon's 2-ply grading (6.2 mp a
    decision there, 4.68 over all; 60% of the decisions), and what a 0-ply net's
    choice depends on is how it ranks the results of one roll.  Batches of ``batch`` siblings,
    seeded from ``seed``, so the first positions of a larger run are a smaller run's.
    """
    return _sibling_selection(net, count, seed, k, batch, is_contact)


def race_sibling_positions(net: Network, count: int, seed: int = 1, k: int = 5,
                           batch: int = 20_000) -> np.ndarray:
    """``count`` race positions ``(count, 50)`` that the race net values: the results of
    ``net``'s ``k`` best plays of a random roll in its own 0-ply self-play, seen by the next
    player on roll, with no contact left and a side not yet in the bear-off tables.

    The race net is what values them (the tables value the rest exactly), and its gammon
    chances there were measured far from our own rollouts (0.038 RMS in gammons won on 200
    such positions, stop 62).  Batches as :func:`contact_sibling_positions`.
    """
    model = ClassifyingEvaluator(net, load_bearoff()).kernel_model()
    return _sibling_selection(net, count, seed, k, batch,
                              lambda b: not is_contact(b) and not valued_by_tables(b, 15, model))


def rollout_targets(evaluator: ClassifyingEvaluator, boards: np.ndarray, trials: int,
                    seed: int = 1, truncate: int | None = None,
                    variance_reduction: bool = False) -> np.ndarray:
    """``(n, 5)`` probabilities of each board (player on roll) by a 0-ply rollout.

    Played to the end by default; ``truncate`` plies then the evaluator's value, and
    ``variance_reduction`` to take the luck off (:mod:`gammon.ai.rollout`).  Clipped to
    [0, 1] (a variance-reduced mean may stray just past it).  Position ``i`` uses dice
    seed ``seed + i``, so a resumed run gives the same targets.
    """
    out = np.zeros((len(boards), 5), dtype=np.float32)
    for i, b in enumerate(boards):
        pos = Position._make(bytes(np.asarray(b, dtype=np.uint8)), STANDARD)
        s = RolloutSettings(trials=trials, seed=seed + i, truncate_at=truncate,
                            variance_reduction=variance_reduction)
        out[i] = rollout(pos, evaluator, s).probs
    return np.clip(out, 0.0, 1.0)


@dataclass(frozen=True, slots=True)
class Bias:
    """Mean of net minus target over positions, per output, with standard errors."""

    mean: tuple[float, ...]
    se: tuple[float, ...]
    positions: int

    def line(self) -> str:
        names = ("win", "wg", "wbg", "lg", "lbg")
        return "  ".join(f"{n} {m:+.3f}+-{e:.3f}" for n, m, e in zip(names, self.mean, self.se,
                                                                     strict=True))


def gammon_bias(evaluator: ClassifyingEvaluator, boards: np.ndarray, targets: np.ndarray) -> Bias:
    """How far the static evaluator's probabilities sit from ``targets`` on ``boards``."""
    ys = evaluator.evaluate_batch(np.ascontiguousarray(boards, dtype=np.uint8))
    d = ys - np.asarray(targets, dtype=np.float64)
    n = len(d)
    se = d.std(axis=0, ddof=1) / np.sqrt(n) if n > 1 else np.full(5, np.inf)
    return Bias(tuple(float(v) for v in d.mean(axis=0)), tuple(float(v) for v in se), n)


@dataclass(frozen=True, slots=True)
class Settings:
    base: str = SHIPPED
    positions: int = 4000
    trials: int = 72
    seed: int = 1
    source: str = "self-play"
    mix: str | None = None
    mix_weight: int = 1
    lopsided_repeat: int = 3
    epochs: int = 4
    lr: float = 3e-4
    batch: int = 128
    holdout: float = 0.15
    #: Rollout targets: plies before the net's value stands in (None: to the end).
    truncate: int | None = None
    variance_reduction: bool = False


def _load(path: Path, key: dict[str, object]) -> tuple[np.ndarray, np.ndarray, int] | None:
    """The saved dataset when it was made with the same settings.

    A dataset of MORE positions serves too: the positions come in a fixed
    order for a seed, so its first ones are this run's.
    """
    if not path.exists():
        return None
    with np.load(path, allow_pickle=False) as z:
        saved = json.loads(str(z["key"]))
        want = int(key["positions"])  # type: ignore[call-overload]
        same = {k: v for k, v in saved.items() if k != "positions"} == {
            k: v for k, v in key.items() if k != "positions"}
        if not same or int(saved["positions"]) < want:
            return None
        boards, targets = np.array(z["boards"])[:want], np.array(z["targets"])[:want]
        return boards, targets, min(int(z["done"]), want)


def save_dataset(path: Path, key: dict[str, object], boards: np.ndarray, targets: np.ndarray,
                 done: int) -> None:
    """Write a dataset (its first ``done`` rows valued) atomically: a temporary file, then a rename."""
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, boards=boards, targets=targets, done=np.array(done),
                        key=np.array(json.dumps(key, sort_keys=True)))
    os.replace(tmp, path)


#: The position sources of ``--source``: what makes ``count`` boards from the base net and a seed.
SOURCES: dict[str, Callable[[Network, int, int], np.ndarray]] = {
    "self-play": lopsided_positions,
    "constructed": lambda _net, count, seed: constructed_positions(count, seed),
    "late-hit": late_hit_positions,
    "cube-window": cube_window_positions,
    "contact-siblings": contact_sibling_positions,
    "race-siblings": race_sibling_positions,
}


def _dataset_key(s: Settings) -> dict[str, object]:
    """Settings that decide the dataset's contents (a resumed run must match them)."""
    key: dict[str, object] = {"base": s.base, "positions": s.positions, "trials": s.trials,
                              "seed": s.seed}
    if s.source != "self-play":
        key["source"] = s.source
    if s.truncate is not None:  # only when set, so the older datasets still match
        key["truncate"] = s.truncate
    if s.variance_reduction:
        key["vr"] = True
    return key


def _positions(s: Settings, net: Network, ds: Path, key: dict[str, object],
               log: Callable[[str], None]) -> tuple[np.ndarray, np.ndarray, int]:
    """The dataset in ``ds`` (boards, targets, rows rolled out), or fresh boards from
    ``s.source`` with no targets yet."""
    t0 = time.perf_counter()
    loaded = _load(ds, key)
    if loaded is not None:
        boards, targets, done = loaded
        log(f"positions: {len(boards)} from {ds} ({done} rolled out)")
        return boards, targets, done
    make = SOURCES.get(s.source)
    if make is None:
        raise GammonError(f"unknown source {s.source!r}: self-play, constructed, late-hit, "
                          "cube-window, contact-siblings or race-siblings")
    boards = make(net, s.positions, s.seed)
    targets = np.zeros((len(boards), 5), dtype=np.float32)
    save_dataset(ds, key, boards, targets, 0)
    log(f"positions: {len(boards)} ({s.source})  {time.perf_counter() - t0:.1f}s")
    return boards, targets, 0


def _roll_out(s: Settings, ev: ClassifyingEvaluator, ds: Path, key: dict[str, object],
              data: tuple[np.ndarray, np.ndarray, int], log: Callable[[str], None]) -> None:
    """Roll out the boards from row ``done`` on, :data:`CHUNK` at a time, saving each chunk."""
    boards, targets, done = data
    t1 = time.perf_counter()
    start = done
    while done < len(boards):
        hi = min(len(boards), done + CHUNK)
        targets[done:hi] = rollout_targets(ev, boards[done:hi], s.trials, s.seed * 1_000_003 + done,
                                           s.truncate, s.variance_reduction)
        done = hi
        save_dataset(ds, key, boards, targets, done)
        el = time.perf_counter() - t1
        per = el / max(1, done - start)
        log(f"targets: {done}/{len(boards)}  {el:.0f}s  {per:.2f} s/position"
            f"  {60 / per:.0f}/min  ETA {per * (len(boards) - done) / 60:.0f} min"
            f"  {_dt.datetime.now():%H:%M}")


_Split = tuple[np.ndarray, np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]


def _training_set(s: Settings, net: Network, boards: np.ndarray, targets: np.ndarray,
                  tr: np.ndarray, ho: np.ndarray, log: Callable[[str], None]) -> _Split:
    """Inputs, targets and net indices to train on (the training rows ``tr``, repeated, and
    the ``--mix`` dataset's), and the held-out (inputs, targets, net indices): rows ``ho``
    and a tenth of the mix."""
    xb = [np.repeat(boards[tr], s.lopsided_repeat, axis=0)]
    tb = [np.repeat(targets[tr], s.lopsided_repeat, axis=0)]
    hold_b, hold_t = [boards[ho]], [targets[ho]]
    if s.mix:
        with np.load(s.mix, allow_pickle=False) as z:
            mb, mt, md = np.array(z["boards"]), np.array(z["targets"]), int(z["done"])
        mb, mt = mb[:md], mt[:md]
        mp = np.random.default_rng(s.seed + 29).permutation(len(mb))
        mh = mp[: len(mp) // 10]
        mtr = mp[len(mp) // 10:]
        xb.append(np.repeat(mb[mtr], s.mix_weight, axis=0))
        tb.append(np.repeat(mt[mtr], s.mix_weight, axis=0))
        hold_b.append(mb[mh])
        hold_t.append(mt[mh])
        log(f"mix: {len(mtr)} positions from {s.mix} (+{len(mh)} held out)")
    bx = np.ascontiguousarray(np.concatenate(xb))
    hb = np.ascontiguousarray(np.concatenate(hold_b))
    hold = (encode_batch(hb), np.concatenate(hold_t).astype(np.float32), net_indices(hb, net.nets))
    return encode_batch(bx), np.concatenate(tb).astype(np.float32), net_indices(bx, net.nets), hold


def run(s: Settings, out_dir: str | os.PathLike[str], log: Callable[[str], None] = print) -> Network:
    """Positions, targets (resumable), training and files (see the module doc)."""
    if s.truncate is not None and s.truncate < 1:
        raise GammonError("truncate must be 1 or more plies (or left out to play to the end)")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    net = load_base(s.base)
    ev = ClassifyingEvaluator(net, load_bearoff())
    key = _dataset_key(s)
    ds = out / DATASET_FILE
    data = _positions(s, net, ds, key, log)
    _roll_out(s, ev, ds, key, data, log)
    boards, targets, _ = data
    # Training: lopsided (repeated) plus the mix dataset.
    perm = np.random.default_rng(s.seed + 17).permutation(len(boards))
    nh = max(1, int(round(s.holdout * len(boards))))
    ho, tr = perm[:nh], perm[nh:]
    before = gammon_bias(ev, boards[ho], targets[ho])
    log(f"held-out bias before ({nh} positions): {before.line()}")
    x, t, k, hold = _training_set(s, net, boards, targets, tr, ho, log)
    loss0 = dataset_loss(net, *hold)

    def show(p: Progress) -> None:
        log(p.line())

    refined, best_epoch = fit(net, x, t, k, epochs=s.epochs, lr=s.lr, batch=s.batch, seed=s.seed,
                              holdout=hold, progress=show)
    loss1 = dataset_loss(refined, *hold)
    after = gammon_bias(ClassifyingEvaluator(refined, ev.bearoff), boards[ho], targets[ho])
    log(f"held-out loss {loss0:.5f} -> {loss1:.5f} (best epoch {best_epoch})")
    log(f"held-out bias after: {after.line()}")
    refined.meta = {
        **net.meta,
        "kind": "supervised refinement on own rollouts of lopsided positions",
        "base_lopsided": {"path": s.base, "kind": net.meta.get("kind")},
        "lopsided": {"settings": asdict(s), "positions": int(len(boards)),
                     "heldout_loss": [loss0, loss1], "best_epoch": best_epoch,
                     "bias_before": asdict(before), "bias_after": asdict(after)},
        "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "command": run_command("lopsided"),
    }
    refined.save(out / "weights.npz")
    (out / "meta.json").write_text(json.dumps(refined.meta, indent=1, sort_keys=True) + "\n")
    return refined


def main(argv: list[str] | None = None) -> int:
    d = Settings()
    p = argparse.ArgumentParser(prog="gammon train lopsided", description=__doc__.split("\n")[0])
    p.add_argument("--base", default=d.base,
                   help=f"weights to refine (a .npz file, or {SHIPPED!r}: the net gammon ships)")
    p.add_argument("--out", required=True)
    p.add_argument("--positions", type=int, default=d.positions)
    p.add_argument("--trials", type=int, default=d.trials)
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--source", default=d.source, choices=tuple(SOURCES))
    p.add_argument("--truncate", type=int, default=None,
                   help="rollouts stop after this many plies and take the net's value")
    p.add_argument("--vr", action="store_true", help="variance-reduced rollouts")
    p.add_argument("--mix", default=None, help="a refinement dataset.npz to train on as well")
    p.add_argument("--mix-weight", type=int, default=d.mix_weight)
    p.add_argument("--repeat", type=int, default=d.lopsided_repeat, help="copies of each lopsided position")
    p.add_argument("--epochs", type=int, default=d.epochs)
    p.add_argument("--lr", type=float, default=d.lr)
    a = p.parse_args(argv)
    s = Settings(base=a.base, positions=a.positions, trials=a.trials, seed=a.seed,
                 source=a.source, mix=a.mix,
                 mix_weight=a.mix_weight, lopsided_repeat=a.repeat, epochs=a.epochs, lr=a.lr,
                 truncate=a.truncate, variance_reduction=a.vr)

    def log(line: str) -> None:
        print(line, flush=True)

    log("settings: " + json.dumps(asdict(s)))
    try:
        run(s, a.out, log)
    except GammonError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0

