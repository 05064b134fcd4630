"""Analyse a whole match: walk the record, value every decision, add up the figures.

Use (``match`` a finished :class:`~gammon.core.match.Match`)::

    from gammon.analysis import analyse_match
    report = analyse_match(match, ("Ann", "Bob"), plies=1)
    report.players[0].error_rate

The decisions are independent once the record is walked, so at 2-ply and
deeper they are shared among worker processes (one per core by default,
forked after the engine is loaded so that no process compiles or loads
anything again).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gammon.ai.met import default_met
from gammon.ai.search import MAX_SEARCH_PLIES
from gammon.analysis.decisions import Decision, analyse_task, is_decision
from gammon.analysis.stats import PlayerStats, luck_difference_mwc, luck_difference_points, player_stats
from gammon.analysis.valuation import Valuer
from gammon.analysis.walk import GameSummary, Task, walk
from gammon.core.errors import GammonError
from gammon.core.game import Action, Rules
from gammon.core.match import Match

if TYPE_CHECKING:
    from gammon.ai.distributed import Runner
    from gammon.analysis.rollouts import RolloutOptions

#: The depth a plain ``gammon analyse`` uses.
DEFAULT_PLIES = 2

#: ``progress(done, total)`` after each decision.
Progress = Callable[[int, int], None]


@dataclass(slots=True)
class GameAnalysis:
    """One game: its decisions, result and luck (player 0's view in points or MWC)."""

    summary: GameSummary
    decisions: list[Decision]
    players: list[PlayerStats]
    luck_points: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        s = self.summary
        return {
            "game": s.index + 1, "score": list(s.score), "crawford": s.crawford, "winner": s.winner,
            "points": s.points, "resigned": s.resigned, "dropped": s.dropped,
            "luck_points": round(self.luck_points, 4),
            "players": [p.to_dict() for p in self.players],
            "decisions": [d.to_dict() for d in self.decisions],
        }


@dataclass(slots=True)
class MatchAnalysis:
    """The analysis of a record: per game, per player and the luck-adjusted result.

    ``result``: player 0's result (money: points; match: MWC won minus the
    MWC at the start); ``luck``: player 0's luck minus player 1's in the same
    unit; ``luck_adjusted``: ``result - luck``, what the play alone earned.
    ``unfinished``: the record stops before the end (a match nobody has won,
    or a game nobody has won): the result is then the score reached, the
    unfinished game counting for nothing.
    """

    names: tuple[str, str]
    match_length: int
    variant: str
    plies: int
    games: list[GameAnalysis]
    players: list[PlayerStats]
    result: float = 0.0
    luck: float = 0.0
    unit: str = "points"
    info: dict[str, str] = field(default_factory=dict)
    #: The match equity table the match-play figures come from (None in money play).
    met: str | None = None
    unfinished: bool = False

    @property
    def luck_adjusted(self) -> float:
        return self.result - self.luck

    @property
    def decisions(self) -> list[Decision]:
        return [d for g in self.games for d in g.decisions]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary: ``players``, ``games`` (with their ``decisions``) and the result.

        Its shape is published as ``docs/analysis.schema.json`` (JSON Schema 2020-12; a test validates
        real analyses against it): a change of key here is a change of that document.
        """
        return {
            "format": "gammon.analysis", "version": 1,
            "names": list(self.names), "match_length": self.match_length, "variant": self.variant,
            "plies": self.plies, "units": {"rates": "mEMG per decision", "equity": "normalised EMG",
                                           "result": self.unit},
            "players": [p.to_dict() for p in self.players],
            "result": {"player0": round(self.result, 4), "luck": round(self.luck, 4),
                       "luck_adjusted": round(self.luck_adjusted, 4), "unit": self.unit},
            "games": [g.to_dict() for g in self.games], "unfinished": self.unfinished,
            **({"match_equity_table": self.met} if self.met is not None else {}),
        }


# -- running the tasks ------------------------------------------------------------------

_worker_valuer: Valuer | None = None


def _work(task: Task) -> Decision:
    assert _worker_valuer is not None
    return analyse_task(_worker_valuer, task)


def default_processes(plies: int) -> int:
    """One process per core from 2-ply on (below, starting workers costs more than it saves)."""
    return (os.cpu_count() or 1) if plies >= 2 else 1


def run_tasks(tasks: Sequence[Task], valuer: Valuer, processes: int = 1,
              progress: Progress | None = None) -> list[Decision]:
    """Analyse ``tasks`` in order, in ``processes`` processes (forked where the system allows)."""
    global _worker_valuer
    total = len(tasks)
    out: list[Decision] = []
    if progress is not None:
        progress(0, total)
    if processes <= 1 or total < 4 or "fork" not in multiprocessing.get_all_start_methods():
        for i, t in enumerate(tasks):
            out.append(analyse_task(valuer, t))
            if progress is not None:
                progress(i + 1, total)
        return out
    _worker_valuer = valuer
    try:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(processes) as pool:
            for i, d in enumerate(pool.imap(_work, tasks, chunksize=1)):
                out.append(d)
                if progress is not None:
                    progress(i + 1, total)
    finally:
        _worker_valuer = None
    return out


# -- the public entry points ---------------------------------------------------------------

def decision_tasks(rules: Rules, games: Sequence[Sequence[Action]], games_limit: int | None = None
                   ) -> tuple[list[Task], list[GameSummary]]:
    """The record walked (:func:`~gammon.analysis.walk.walk`), keeping only the tasks that are decisions
    (:func:`~gammon.analysis.decisions.is_decision`: no dead-cube non-doubles)."""
    tasks, summaries = walk(rules, games, games_limit)
    return [t for t in tasks if is_decision(t)], summaries


def _warm(valuer: Valuer) -> None:
    """Compile and load what the workers need once, in this process, before forking."""
    from gammon.core.position import Position

    p = Position.initial()
    valuer.engine.rank_plays(p, (3, 1), plies=min(valuer.plies, 1))
    valuer.engine.evaluator.evaluate(p, min(valuer.plies, 1))


def analyse_record(rules: Rules, games: Sequence[Sequence[Action]],
                   names: Sequence[str] = ("Player 0", "Player 1"), *, plies: int = DEFAULT_PLIES,
                   processes: int | None = None,
                   progress: Progress | None = None, games_limit: int | None = None,
                   valuer: Valuer | None = None, explain: bool = True,
                   info: dict[str, str] | None = None, rollouts: RolloutOptions | None = None,
                   rollout_progress: Progress | None = None, runner: Runner | None = None) -> MatchAnalysis:
    """Analyse the games of a record (the action lists :meth:`Match.replay` takes).

    ``rollouts``: roll out the doubtful decisions and take their verdicts from the
    rollouts (:mod:`gammon.analysis.rollouts`; ``rollout_progress`` counts them,
    ``runner`` a Ray runner for their trials).

    :raises GammonError: a bad depth, or a record the rules refuse.
    """
    if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies <= MAX_SEARCH_PLIES:
        raise GammonError(f"plies must be a whole number from 0 to {MAX_SEARCH_PLIES}, not {plies!r}")
    if len(names) != 2:
        raise GammonError("a match has two players: give two names")
    tasks, summaries = decision_tasks(rules, games, games_limit)
    val = valuer or Valuer(plies)
    _warm(val)
    procs = default_processes(plies) if processes is None else max(1, int(processes))
    decisions = run_tasks(tasks, val, procs, progress)
    if rollouts is not None:
        from gammon.analysis.rollouts import rollout_doubtful

        rollout_doubtful(tasks, decisions, val, rollouts, rollout_progress, runner)
    if explain:
        from gammon.analysis.explain import set_explanation

        for t, d in zip(tasks, decisions, strict=True):
            if d.mark in ("error", "blunder"):
                set_explanation(t, d, val)
    return summarise(rules, (str(names[0]), str(names[1])), summaries, decisions, plies, info)


def summarise(rules: Rules, names: tuple[str, str], summaries: Sequence[GameSummary],
              decisions: Sequence[Decision], plies: int, info: dict[str, str] | None = None) -> MatchAnalysis:
    """Group analysed decisions by game and add up the figures."""
    games: list[GameAnalysis] = []
    for s in summaries:
        ds = [d for d in decisions if d.game == s.index]
        games.append(GameAnalysis(s, ds, player_stats(names, ds), luck_difference_points(ds)))
    players = player_stats(names, decisions)
    unfinished = any(s.winner is None for s in summaries)
    if rules.match_length:
        met = default_met(rules.match_length)
        n = rules.match_length
        score = [0, 0]
        for s in summaries:
            if s.winner is not None:
                score[s.winner] += s.points
        if score[0] >= n:
            final = 1.0
        elif score[1] >= n:
            final = 0.0
        else:
            final = met.mwc(score[0], score[1], n)
            unfinished = True
        result = final - met.mwc(0, 0, n)
        luck = luck_difference_mwc(decisions)
        unit = "MWC"
    else:
        result = float(sum((s.points if s.winner == 0 else -s.points)
                           for s in summaries if s.winner is not None))
        luck = luck_difference_points(decisions)
        unit = "points"
    return MatchAnalysis(names, rules.match_length, rules.variant.name, plies, games, players, result, luck,
                         unit, dict(info or {}),
                         default_met(rules.match_length).name if rules.match_length else None, unfinished)


def analyse_match(match: Match, names: Sequence[str] = ("Player 0", "Player 1"),
                  **kwargs: Any) -> MatchAnalysis:
    """Analyse a :class:`~gammon.core.match.Match` (finished or not); keywords as :func:`analyse_record`."""
    kwargs.setdefault("games_limit", match.games_limit)
    return analyse_record(match.rules, [g.record for g in match.games], names, **kwargs)


def analyse_game(match: Match, names: Sequence[str] = ("Player 0", "Player 1"), game: int = -1,
                 plies: int = 0, valuer: Valuer | None = None) -> MatchAnalysis:
    """Analyse one game of ``match`` (default: the last) at its real score and cube, quickly.

    The whole record is walked (cheap) so that the score and the Crawford state
    are right; only the chosen game's decisions are valued, in this process.
    """
    rules = match.rules
    records = [g.record for g in match.games]
    tasks, summaries = decision_tasks(rules, records, match.games_limit)
    index = game % len(summaries) if summaries else 0
    mine = [t for t in tasks if t.game == index]
    val = valuer or Valuer(plies)
    decisions = run_tasks(mine, val, 1)
    from gammon.analysis.explain import set_explanation

    for t, d in zip(mine, decisions, strict=True):
        if d.mark in ("error", "blunder"):
            set_explanation(t, d, val)
    return summarise(rules, (str(names[0]), str(names[1])), summaries[index:index + 1], decisions, plies)


def analyse_file(path: str, **kwargs: Any) -> MatchAnalysis:
    """Analyse the record in ``path`` (.mat, .sgf or .json); keywords as :func:`analyse_record`."""
    from gammon.formats.record_files import load_record

    rec = load_record(path)
    kwargs.setdefault("games_limit", rec.games_limit)
    kwargs.setdefault("info", rec.info)
    return analyse_record(rec.rules, rec.games, rec.names, **kwargs)


def _file_task(options: tuple[int, int, bool], path: str) -> MatchAnalysis:
    """One file of :func:`analyse_files`: ``options`` = (plies, processes, explain)."""
    plies, processes, explain = options
    return analyse_file(path, plies=plies, processes=processes, explain=explain)


def analyse_files(paths: Sequence[str], *, plies: int = DEFAULT_PLIES, processes: int = 1,
                  runner: Runner | None = None, progress: Progress | None = None,
                  explain: bool = True) -> list[MatchAnalysis]:
    """Analyse many records, each file a task of ``runner`` (default: one after the other here).

    With a Ray runner (:class:`gammon.ai.distributed.RayRunner`) the files are
    Ray tasks; every decision's analysis depends on the file alone, so the
    results are the same as here.  ``processes``: worker processes inside each
    task (1 when the files themselves run in parallel).  ``progress(done,
    total)`` counts files.

    :raises GammonError: a record that cannot be read or that the rules refuse.
    """
    from gammon.ai.distributed import LocalRunner, run_ordered

    options = (plies, max(1, int(processes)), explain)
    return run_ordered(runner or LocalRunner(), _file_task, options, [str(p) for p in paths], progress)


__all__ = [
    "DEFAULT_PLIES", "GameAnalysis", "MatchAnalysis", "analyse_file", "analyse_files", "decision_tasks",
    "analyse_game", "analyse_match",
    "analyse_record", "default_processes", "run_tasks", "summarise",
]
