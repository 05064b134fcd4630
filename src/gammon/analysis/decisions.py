"""Analyse one decision: a checker play, a cube decision or a take, and the luck of a roll.

Each function turns a task of :mod:`gammon.analysis.walk` into a
:class:`Decision` with the engine's numbers, the equity lost (normalised, see
:mod:`gammon.analysis.marks`) and the mark.  They are pure functions of the
task and a :class:`~gammon.analysis.valuation.Valuer`, so the tasks of a match
can be shared among processes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gammon.ai.cube import DOUBLE_PASS, DOUBLE_TAKE, NO_DOUBLE, TOO_GOOD
from gammon.analysis.marks import CLOSE_CUBE, luck_mark, mark_for
from gammon.analysis.valuation import Valuer, flip
from gammon.analysis.walk import CubeTask, RollTask, TakeTask, Task
from gammon.core.errors import GammonError


@dataclass(frozen=True, slots=True)
class Alternative:
    """One candidate play: the mover's cubeful value after it and what it gives up against the best."""

    play: str
    equity: float
    mwc: float | None
    difference: float
    probabilities: tuple[float, ...]
    position_id: str
    plies: int


@dataclass(slots=True)
class Decision:
    """One analysed decision (see the module text); equities are the deciding player's.

    ``kind``: ``move`` (a roll and its play), ``cube`` (the player on roll
    could double) or ``take`` (the answer to a double).  ``position_id`` is
    seen from the decider (for ``take``, from the doubler).  ``equity_lost``
    and ``luck`` are normalised equity (EMG at the decision's cube);
    ``mwc_lost`` and ``luck_mwc`` the same in match winning chance.
    ``value_after``/``mwc_after``: the decider's value once the decision is
    made (for the equity graph).
    """

    kind: str
    game: int
    turn: int
    player: int
    position_id: str
    cube_value: int
    cube_owner: int
    score: tuple[int, int]
    match_length: int
    crawford: bool
    dice: tuple[int, int] | None = None
    played: str = ""
    best: str = ""
    forced: bool = False
    legal_plays: int = 0
    equity_lost: float = 0.0
    mwc_lost: float | None = None
    mark: str | None = None
    error_kind: str | None = None
    close: bool = False
    alternatives: list[Alternative] = field(default_factory=list)
    cube: dict[str, Any] | None = None
    luck: float | None = None
    luck_mwc: float | None = None
    luck_mark: str | None = None
    value_after: float = 0.0
    mwc_after: float | None = None
    probabilities: tuple[float, ...] | None = None
    played_position_id: str | None = None
    best_position_id: str | None = None
    explanation: str | None = None
    opening: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (rounded figures)."""
        def r(x: float | None, n: int = 4) -> float | None:
            return None if x is None else round(float(x), n)

        out: dict[str, Any] = {
            "kind": self.kind, "game": self.game + 1, "turn": self.turn, "player": self.player,
            "position_id": self.position_id, "cube_value": self.cube_value,
            "score": list(self.score), "dice": list(self.dice) if self.dice else None,
            "played": self.played, "best": self.best, "forced": self.forced,
            "equity_lost": r(self.equity_lost), "equity_lost_memg": r(1000 * self.equity_lost, 1),
            "mwc_lost": r(self.mwc_lost, 5), "mark": self.mark, "error_kind": self.error_kind,
            "luck": r(self.luck), "luck_mwc": r(self.luck_mwc, 5), "luck_mark": self.luck_mark,
            "value_after": r(self.value_after), "mwc_after": r(self.mwc_after, 5),
            "explanation": self.explanation,
        }
        if self.kind == "move":
            out["legal_plays"] = self.legal_plays
            out["alternatives"] = [
                {"play": a.play, "equity": r(a.equity), "mwc": r(a.mwc, 5), "difference": r(a.difference),
                 "probabilities": [r(p) for p in a.probabilities], "position_id": a.position_id,
                 "plies": a.plies}
                for a in self.alternatives
            ]
        else:
            out["close"] = self.close
            out["cube"] = self.cube
            out["probabilities"] = None if self.probabilities is None else [r(p) for p in self.probabilities]
        return out


def _base(task: Task, kind: str) -> Decision:
    info = task.info
    # ``info`` is seen from the side of ``task.position``: the doubler for a take.
    side = 1 - task.player if kind == "take" else task.player
    s = info.score if side == 0 else (info.score[1], info.score[0])
    owner = info.owner if info.owner < 0 else (side if info.owner == 0 else 1 - side)
    return Decision(kind, task.game, task.turn, task.player, task.position.position_id, info.value, owner,
                    (s[0], s[1]), info.match_length, info.crawford)


def analyse_move(valuer: Valuer, task: RollTask) -> Decision:
    """Checker play and luck of one roll."""
    d = _base(task, "move")
    d.dice = task.dice
    d.opening = task.opening
    d.played = task.play_text or "(no legal play)"
    if not task.chosen:
        luck, _ = valuer.luck(task.position, task.dice, task.info, task.opening)
        d.luck, d.luck_mwc, d.luck_mark = luck.emg, luck.mwc, luck_mark(luck.emg)
    if task.played is None:
        d.forced = True
        probs = flip(valuer.engine.evaluator.evaluate(task.position.swap(), valuer.plies))
        v = valuer.value_after(probs, task.position, task.info)
        d.value_after, d.mwc_after = v.emg, v.mwc
        return d
    cands, n = valuer.candidates(task.position, task.dice, task.played, task.info)
    d.legal_plays = n
    d.forced = n <= 1
    if not cands:
        raise GammonError(f"game {task.game + 1}, turn {task.turn}: the engine found no legal play")
    best = cands[0]
    mine = next(c for c in cands if c.play.position == task.played)
    d.best = str(best.play)
    d.best_position_id = best.play.position.position_id
    d.played_position_id = task.played.position_id
    d.value_after, d.mwc_after = mine.value.emg, mine.value.mwc
    d.alternatives = [
        Alternative(str(c.play), c.value.emg, c.value.mwc, c.value.emg - best.value.emg, c.probabilities,
                    c.play.position.position_id, c.plies)
        for c in cands
    ]
    if not d.forced:
        d.equity_lost = max(0.0, best.value.emg - mine.value.emg)
        if best.value.mwc is not None and mine.value.mwc is not None:
            d.mwc_lost = max(0.0, best.value.mwc - mine.value.mwc)
        d.mark = mark_for(d.equity_lost)
    d.probabilities = mine.probabilities
    return d


def _cube_dict(cd: Any, probs: tuple[float, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "no_double": round(cd.no_double, 4), "double_take": round(cd.double_take, 4),
        "double_pass": round(cd.double_pass, 4), "proper": cd.action, "taker_proper": cd.taker_action,
        "take_point": round(cd.take_point, 4), "win": round(probs[0], 4),
        "gammon": round(probs[1], 4), "lose_gammon": round(probs[3], 4),
        "efficiency": round(cd.efficiency, 3), "text": cd.explanation,
    }
    if cd.mwc is not None:
        out["mwc"] = {"no_double": round(cd.mwc[0], 5), "double_take": round(cd.mwc[1], 5),
                      "double_pass": round(cd.mwc[2], 5)}
    return out


def _is_close(cd: Any) -> bool:
    """GNU Backgammon's test: the proper equity is within 0.16 of double/take (capped at 1)."""
    return bool(cd.equity - min(cd.double_take, 1.0) < CLOSE_CUBE)


def analyse_cube(valuer: Valuer, task: CubeTask) -> Decision:
    """The decision to double or not of the player on roll."""
    d = _base(task, "cube")
    cd, probs = valuer.cube(task.position, task.info)
    d.probabilities = probs
    d.cube = _cube_dict(cd, probs)
    best = cd.equity
    doubled_value = min(cd.double_take, cd.double_pass)
    if task.doubled:
        d.played = "double"
        d.value_after = doubled_value
        d.equity_lost = max(0.0, best - doubled_value)
        if cd.action == NO_DOUBLE and d.equity_lost > 0:
            d.error_kind = "wrong double (too early)"
        elif cd.action == TOO_GOOD and d.equity_lost > 0:
            d.error_kind = "wrong double (too good)"
        if cd.mwc is not None:
            nd, dt, dp = cd.mwc
            d.mwc_after = min(dt, dp)
            d.mwc_lost = max(0.0, max(nd, min(dt, dp)) - min(dt, dp))
    else:
        d.played = "no double"
        d.value_after = cd.no_double
        d.equity_lost = max(0.0, best - cd.no_double)
        if cd.action in (DOUBLE_TAKE, DOUBLE_PASS) and d.equity_lost > 0:
            d.error_kind = "missed double"
        if cd.mwc is not None:
            nd, dt, dp = cd.mwc
            d.mwc_after = nd
            d.mwc_lost = max(0.0, max(nd, min(dt, dp)) - nd)
    d.best = "double" if cd.action in (DOUBLE_TAKE, DOUBLE_PASS) else "no double"
    d.close = task.doubled or _is_close(cd) or d.error_kind == "missed double"
    d.mark = mark_for(d.equity_lost)
    return d


def analyse_take(valuer: Valuer, task: TakeTask) -> Decision:
    """The answer to a double (equities turned to the taker's side)."""
    d = _base(task, "take")
    cd, probs = valuer.cube(task.position, task.info)
    d.probabilities = probs
    d.cube = _cube_dict(cd, probs)
    take, drop = -cd.double_take, -cd.double_pass
    best = max(take, drop)
    took = task.answer in ("take", "beaver")
    mine = take if took else drop
    d.played = task.answer
    d.best = "take" if take >= drop else "pass"
    if task.answer == "beaver":
        # Money play: the cube goes to four times its value, the taker owning it, so the
        # taker's equity (normalised to the cube before the double) is twice a take's.
        mine = 2.0 * take
        if mine > best:
            best, d.best = mine, "beaver"
    d.value_after = mine
    d.equity_lost = max(0.0, best - mine)
    if d.equity_lost > 0:
        d.error_kind = ("wrong beaver" if task.answer == "beaver" else "wrong take") if took else "wrong pass"
    if cd.mwc is not None:
        t, p = 1.0 - cd.mwc[1], 1.0 - cd.mwc[2]
        d.mwc_after = t if took else p
        d.mwc_lost = max(0.0, max(t, p) - d.mwc_after)
    d.close = True
    d.mark = mark_for(d.equity_lost)
    return d


def analyse_task(valuer: Valuer, task: Task) -> Decision:
    """The decision a task describes, analysed."""
    if isinstance(task, RollTask):
        return analyse_move(valuer, task)
    if isinstance(task, CubeTask):
        return analyse_cube(valuer, task)
    if isinstance(task, TakeTask):
        return analyse_take(valuer, task)
    raise GammonError(f"cannot analyse {type(task).__name__}")


__all__ = ["Alternative", "Decision", "analyse_cube", "analyse_move", "analyse_take", "analyse_task"]
