"""Analyse one decision: a checker play, a cube decision, a take, a resignation or Acey-Deucey's
choice of a double, and the luck of a roll.

Each function turns a task of :mod:`gammon.analysis.walk` into a
:class:`Decision` with the engine's numbers, the equity lost (normalised, see
:mod:`gammon.analysis.marks`) and the mark.  They are pure functions of the
task and a :class:`~gammon.analysis.valuation.Valuer`, so the tasks of a match
can be shared among processes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gammon.ai.cube import CubeInfo
from gammon.analysis.marks import CLOSE_CUBE, luck_mark, mark_for
from gammon.analysis.valuation import Value, Valuer, final_value, flip
from gammon.analysis.walk import ChoiceTask, CubeTask, ResignTask, RollTask, TakeTask, Task
from gammon.analysis.words import Words, english, percent, say, signed
from gammon.core.cube import CubeAction, CubeOwner, cube_is_dead
from gammon.core.errors import GammonError
from gammon.core.position import Outcome, Position, ResultKind
from gammon.i18n import N_


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
    could double), ``take`` (the answer to a double), ``resign`` (a
    resignation offered, accepted or rejected) or ``choice`` (Acey-Deucey's
    double named after a 1-2).  ``position_id`` is seen from the decider (for
    ``take``, from the doubler; for ``resign``, from the player whose turn it was).  ``equity_lost``
    and ``luck`` are normalised equity (EMG at the decision's cube);
    ``mwc_lost`` and ``luck_mwc`` the same in match winning chance.
    ``value_after``/``mwc_after``: the decider's value once the decision is
    made (for the equity graph).  ``error_kind``: what kind of error a
    decision that loses equity is (for the cube, one of :data:`CUBE_ERRORS`).
    """

    kind: str
    game: int
    turn: int
    player: int
    position_id: str
    cube_value: int
    cube_owner: CubeOwner
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
    #: The explanation kept as words (:mod:`gammon.analysis.words`), to word in any language;
    #: :attr:`explanation` is their English.  Not in :meth:`to_dict`: the report's JSON holds the English.
    explanation_words: dict[str, Any] | None = None
    opening: bool = False
    #: The rollout the verdict rests on (:mod:`gammon.analysis.rollouts`): ``trials``, the rolled-out
    #: ``equities`` and their standard errors ``se`` (normalised EMG), and the ``search``'s own verdict;
    #: None: the verdict is the search's.
    rollout: dict[str, Any] | None = None

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
        if self.rollout is not None:  # the verdict rests on a rollout (absent: the search's)
            out["rollout"] = self.rollout
        if self.kind in ("move", "choice"):
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
    # ``info`` is seen from the side of ``task.position``: the doubler for a take, the player
    # whose turn it was for a resignation.
    if isinstance(task, ResignTask):
        side = task.on_roll
    else:
        side = 1 - task.player if kind == "take" else task.player
    s = info.score if side == 0 else (info.score[1], info.score[0])
    owner = CubeOwner.from_relative(info.owner, side)
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


#: The kinds of cube error, GNU Backgammon's (its statistics' names in brackets).  The doubler's:
#: a double missed where the proper action is double/take, below the cash point ("missed doubles
#: below CP"), or double/pass, above it ("above CP"); a double where the proper action is no
#: double, below the doubling point ("wrong doubles below DP"), or where the position is too good
#: to double, above the too-good point ("above TG").  The taker's: a wrong take, pass or beaver.
MISSED_DOUBLE_BELOW_CP = "missed double (below cash point)"
MISSED_DOUBLE_ABOVE_CP = "missed double (above cash point)"
WRONG_DOUBLE_BELOW_DP = "wrong double (too early)"
WRONG_DOUBLE_ABOVE_TG = "wrong double (too good)"
MISSED_DOUBLES = (MISSED_DOUBLE_BELOW_CP, MISSED_DOUBLE_ABOVE_CP)
CUBE_ERRORS: tuple[str, ...] = (MISSED_DOUBLE_BELOW_CP, MISSED_DOUBLE_ABOVE_CP, WRONG_DOUBLE_BELOW_DP,
                                WRONG_DOUBLE_ABOVE_TG, "wrong take", "wrong pass", "wrong beaver")


def cube_error_kind(proper: CubeAction, doubled: bool) -> str | None:
    """The kind of a doubler's cube error from the proper action (None: the action was right).

    >>> cube_error_kind(CubeAction.DOUBLE_PASS, False), cube_error_kind(CubeAction.TOO_GOOD, True)
    ('missed double (above cash point)', 'wrong double (too good)')
    """
    if doubled:
        wrong = {CubeAction.NO_DOUBLE: WRONG_DOUBLE_BELOW_DP, CubeAction.TOO_GOOD: WRONG_DOUBLE_ABOVE_TG}
        return wrong.get(proper)
    missed = {CubeAction.DOUBLE_TAKE: MISSED_DOUBLE_BELOW_CP, CubeAction.DOUBLE_PASS: MISSED_DOUBLE_ABOVE_CP}
    return missed.get(proper)


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
    cd, probs = valuer.cube(task.position, task.info, task.doubled)
    d.probabilities = probs
    d.cube = _cube_dict(cd, probs)
    best = cd.equity
    doubled_value = min(cd.double_take, cd.double_pass)
    if task.doubled:
        d.played = CubeAction.DOUBLE
        d.value_after = doubled_value
        d.equity_lost = max(0.0, best - doubled_value)
        if cd.mwc is not None:
            nd, dt, dp = cd.mwc
            d.mwc_after = min(dt, dp)
            d.mwc_lost = max(0.0, max(nd, min(dt, dp)) - min(dt, dp))
    else:
        d.played = CubeAction.NO_DOUBLE
        d.value_after = cd.no_double
        d.equity_lost = max(0.0, best - cd.no_double)
        if cd.mwc is not None:
            nd, dt, dp = cd.mwc
            d.mwc_after = nd
            d.mwc_lost = max(0.0, max(nd, min(dt, dp)) - nd)
    if d.equity_lost > 0:
        d.error_kind = cube_error_kind(cd.action, task.doubled)
    d.best = CubeAction.DOUBLE if cd.action.doubles else CubeAction.NO_DOUBLE
    d.close = task.doubled or _is_close(cd) or d.error_kind in MISSED_DOUBLES
    d.mark = mark_for(d.equity_lost)
    return d


def analyse_take(valuer: Valuer, task: TakeTask) -> Decision:
    """The answer to a double (equities turned to the taker's side)."""
    d = _base(task, "take")
    cd, probs = valuer.cube(task.position, task.info, True)  # the double was made
    d.probabilities = probs
    d.cube = _cube_dict(cd, probs)
    take, drop = -cd.double_take, -cd.double_pass
    best = max(take, drop)
    took = task.answer in (CubeAction.TAKE, CubeAction.BEAVER)
    mine = take if took else drop
    d.played = task.answer
    d.best = CubeAction.TAKE if take >= drop else CubeAction.DROP
    if task.answer == CubeAction.BEAVER:
        # Money play: the cube goes to four times its value, the taker owning it, so the
        # taker's equity (normalised to the cube before the double) is twice a take's.
        mine = 2.0 * take
        if mine > best:
            best, d.best = mine, CubeAction.BEAVER
    d.value_after = mine
    d.equity_lost = max(0.0, best - mine)
    if d.equity_lost > 0:
        d.error_kind = (("wrong beaver" if task.answer == CubeAction.BEAVER else "wrong take") if took
                        else "wrong pass")
    if cd.mwc is not None:
        t, p = 1.0 - cd.mwc[1], 1.0 - cd.mwc[2]
        d.mwc_after = t if took else p
        d.mwc_lost = max(0.0, max(t, p) - d.mwc_after)
    d.close = True
    d.mark = mark_for(d.equity_lost)
    return d


#: What a resignation gives up, in words.
RESIGN_NAMES = {1: "a single game", 2: "a gammon", 3: "a backgammon"}
#: The same, for the explanations (translated where they are read).
_RESIGN_WORDS = {1: N_("a single game"), 2: N_("a gammon"), 3: N_("a backgammon")}


def _resign_words(kind: int) -> Words:
    return say(_RESIGN_WORDS.get(kind, _RESIGN_WORDS[1]))


def _explained(d: Decision, words: Words) -> None:
    """Give ``d`` its explanation: the words and their English."""
    d.explanation_words = words
    d.explanation = english(words)


def resignation_value(kind: int, info: CubeInfo) -> Value:
    """What resigning ``kind`` is worth to the resigner (``info`` from his side): the game lost so."""
    return final_value(Outcome(False, ResultKind(kind)), info)


def playing_on_value(valuer: Valuer, task: ResignTask) -> tuple[Value, tuple[float, ...]]:
    """The resigner's value of going on instead (proper cube action, best play, or best answer to the
    double) and his cubeless chances (win, gammon, backgammon, lose gammon, lose backgammon)."""
    pos, info = task.position, task.info
    if task.phase == "doubled":  # the resigner was doubled: take or pass instead (the doubler's view)
        cd, probs = valuer.cube(pos, info, True)
        take, drop = -cd.double_take, -cd.double_pass
        mwc = None if cd.mwc is None else (1.0 - cd.mwc[1] if take >= drop else 1.0 - cd.mwc[2])
        return Value(max(take, drop), mwc), flip(probs)
    if task.phase == "move" and task.dice is not None:
        cands, n = valuer.candidates(pos, task.dice, None, info, count=1)
        if n > 0:
            return cands[0].value, cands[0].probabilities
    cd, probs = valuer.cube(pos, info)
    return Value(cd.equity, cd.proper_mwc), probs


def analyse_resign(valuer: Valuer, task: ResignTask) -> Decision:
    """A resignation offered, accepted or rejected: its value against the value of playing on.

    From the resigner's side, resigning is worth ``R`` (the game lost by the
    kind offered) and playing on ``P``.  The opponent's right answer is to
    accept when ``R < P`` (the offer gives more than the game is worth) and
    to reject otherwise, so the offer is *wrong* when ``R < P`` (it loses
    ``P - R``), an acceptance is wrong when ``R > P`` (it loses ``R - P``)
    and a refusal when ``R < P`` (``P - R``).
    """
    d = _base(task, "resign")
    info = task.info if task.resigner == task.on_roll else task.info.swap()
    res = resignation_value(task.kind, info)
    play, probs = playing_on_value(valuer, task)
    d.probabilities = probs
    what = RESIGN_NAMES.get(task.kind, "a single game")
    gap = play.emg - res.emg  # > 0: the resignation gives away more than the game is worth
    mwc_gap = None if play.mwc is None or res.mwc is None else play.mwc - res.mwc
    d.cube = {"resign": round(res.emg, 4), "play_on": round(play.emg, 4), "kind": task.kind,
              "win": round(probs[0], 4), "gammon": round(probs[1], 4), "lose_gammon": round(probs[3], 4)}
    win, gammon, lose_g = probs[0], probs[1], probs[3]
    if task.answer == "offer":
        d.played = f"resigns {what}"
        d.best = "play on" if gap > 0 else f"resign {what}"
        d.equity_lost = max(0.0, gap)
        d.mwc_lost = None if mwc_gap is None else max(0.0, mwc_gap)
        after = res if gap > 0 else play  # the opponent's right answer: accept a gift, refuse the rest
        d.value_after, d.mwc_after = after.emg, after.mwc
        if d.equity_lost > 0:
            d.error_kind = "wrong resignation"
            _explained(d, say(N_("playing on you win {win} (gammons {gammon}, you lose a gammon "
                                 "{lose_gammon}): worth {play}, more than the {resign} of resigning {what}"),
                              win=percent(win), gammon=percent(gammon), lose_gammon=percent(lose_g),
                              play=signed(play.emg), resign=signed(res.emg), what=_resign_words(task.kind)))
    else:
        # The one who answers: his values are the resigner's turned round.
        accepted = task.answer == "accept"
        d.played = f"{'accepts' if accepted else 'rejects'} {what}"
        d.best = "reject" if gap < 0 else "accept"
        lost = max(0.0, -gap) if accepted else max(0.0, gap)
        d.equity_lost = lost
        d.mwc_lost = None if mwc_gap is None else max(0.0, -mwc_gap if accepted else mwc_gap)
        mine = res if accepted else play
        d.value_after = -mine.emg
        d.mwc_after = None if mine.mwc is None else 1.0 - mine.mwc
        my_win, my_gammon = 1.0 - win, lose_g
        if lost > 0 and accepted:
            d.error_kind = "wrong acceptance"
            _explained(d, say(N_("playing on you win {win} (gammons {gammon}): worth {play}, more than the "
                                 "{resign} of {what}: reject"), win=percent(my_win), gammon=percent(my_gammon),
                              play=signed(-play.emg), resign=signed(-res.emg), what=_resign_words(task.kind)))
        elif lost > 0:
            d.error_kind = "wrong refusal"
            _explained(d, say(N_("{what} is worth {resign} to you, more than playing on ({play}: you win "
                                 "{win}, gammons {gammon}): accept"), what=_resign_words(task.kind),
                              resign=signed(-res.emg), play=signed(-play.emg), win=percent(my_win),
                              gammon=percent(my_gammon)))
    d.close = True
    d.mark = mark_for(d.equity_lost)
    return d


def _after_double(valuer: Valuer, position: Position, number: int, info: CubeInfo
                  ) -> list[tuple[str, Value, tuple[float, ...], str, int]]:
    """The best plays of the double ``number`` (play, value, chances, position ID, plies), best first.

    A play that uses all four moves earns another throw (the rules of
    Acey-Deucey), so it is valued with its player on roll; any other passes
    the turn.  Nothing legal: the turn passes at once.
    """
    cands, n = valuer.candidates(position, (number, number), None, info, count=3)
    probs: tuple[float, ...]
    if n == 0:
        probs = flip(valuer.engine.evaluator.evaluate(position.swap(), valuer.plies))
        return [("(no legal play)", valuer.value_after(probs, position, info), probs, position.position_id,
                 valuer.plies)]
    out: list[tuple[str, Value, tuple[float, ...], str, int]] = []
    for c in cands:
        after = c.play.position
        value, probs = c.value, c.probabilities
        if c.play.dice_used == 4 and after.outcome is None:
            cd, probs = valuer.cube(after, info)
            value = Value(cd.equity, cd.proper_mwc)
        out.append((str(c.play), value, probs, after.position_id, c.plies))
    out.sort(key=lambda t: -t[1].emg)
    return out


def analyse_choice(valuer: Valuer, task: ChoiceTask) -> Decision:
    """Acey-Deucey's double named after a 1-2: the value of the best play of each double, the named one
    against the best (a checker decision: the six doubles are six ways to go on)."""
    d = _base(task, "choice")
    rows = []
    for n in range(1, 7):
        best = _after_double(valuer, task.position, n, task.info)[0]
        rows.append((n, *best))
    rows.sort(key=lambda r: -r[2].emg)
    top = rows[0]
    mine = next(r for r in rows if r[0] == task.number)
    d.played = f"chooses {task.number}-{task.number}"
    d.best = f"{top[0]}-{top[0]}"
    d.legal_plays = 6
    d.played_position_id = mine[4]
    d.best_position_id = top[4]
    d.alternatives = [
        Alternative(f"{n}-{n}: {play}", value.emg, value.mwc, value.emg - top[2].emg, probs, pid, plies)
        for n, play, value, probs, pid, plies in rows
    ]
    d.value_after, d.mwc_after = mine[2].emg, mine[2].mwc
    d.probabilities = mine[3]
    d.equity_lost = max(0.0, top[2].emg - mine[2].emg)
    if top[2].mwc is not None and mine[2].mwc is not None:
        d.mwc_lost = max(0.0, top[2].mwc - mine[2].mwc)
    if d.equity_lost > 0:
        d.error_kind = "wrong double chosen"
    d.mark = mark_for(d.equity_lost)
    return d


def is_decision(task: Task) -> bool:
    """Whether the analysis judges ``task`` (and counts it in the error rates and PR).

    Every task is a decision except a cube task where the player on roll did
    not double and the cube is dead for him (core's
    :func:`~gammon.core.cube.cube_is_dead`: a single game at the present cube
    already wins him the match, so a double can gain him nothing).  There
    holding the cube is the only sensible action, and GNU Backgammon lists no
    cube decision; counted, each would be a "close" decision that loses
    nothing, diluting the cube error rate and the PR.  A double made with a
    dead cube was a real choice and stays a decision.  (A cube the player
    may not turn at all, in the Crawford game, owned by the opponent or at
    its limit, never becomes a task.)
    """
    if isinstance(task, CubeTask) and not task.doubled:
        info = task.info
        return not cube_is_dead(info.match_length, info.score[0], info.value)
    return True


def analyse_task(valuer: Valuer, task: Task) -> Decision:
    """The decision a task describes, analysed."""
    if isinstance(task, RollTask):
        return analyse_move(valuer, task)
    if isinstance(task, CubeTask):
        return analyse_cube(valuer, task)
    if isinstance(task, TakeTask):
        return analyse_take(valuer, task)
    if isinstance(task, ResignTask):
        return analyse_resign(valuer, task)
    if isinstance(task, ChoiceTask):
        return analyse_choice(valuer, task)
    raise GammonError(f"cannot analyse {type(task).__name__}")


__all__ = [
    "CUBE_ERRORS", "MISSED_DOUBLES", "MISSED_DOUBLE_ABOVE_CP", "MISSED_DOUBLE_BELOW_CP", "RESIGN_NAMES",
    "WRONG_DOUBLE_ABOVE_TG", "WRONG_DOUBLE_BELOW_DP", "Alternative", "Decision", "analyse_choice",
    "analyse_cube", "analyse_move", "analyse_resign", "analyse_take", "analyse_task", "cube_error_kind",
    "is_decision", "playing_on_value", "resignation_value",
]
