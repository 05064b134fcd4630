"""The after-game analysis: :mod:`gammon.analysis` run on a finished game, in a worker thread, kept.

The browser's after-game page shows the same analysis as ``gammon analyse``:
error rates, PR, marks, the mistakes explained and the equity graph.  It
takes seconds, so it never runs in a request: the first request for a
finished game takes a snapshot of its record and queues the work for a small
pool of threads (one by default: an analysis keeps a core busy, and the
computer's moves and the requests need the rest); every request answers at
once with the progress, and the page asks again until the report is there.
The queue is fair (see :class:`Analyses`): the players of a game first, the
requesters in turn, a few waiting analyses per requester who does not play.
A finished game never changes, so each report (or failure) is made once and
kept, the oldest forgotten first.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gammon.core.game import Action, Rules
from gammon.i18n import DEFAULT, use_language
from gammon.web.schemas import AnalysisResult, PlayReview
from gammon.web.service.errors import BusyError

if TYPE_CHECKING:
    from gammon.analysis.analyse import Progress
    from gammon.analysis.valuation import Valuer

log = logging.getLogger("gammon.web")


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What the analysis of one finished game needs, copied out of the live game under its lock.

    ``move_seqs``: the record numbers of the plays (``Move`` actions), in order,
    to put each analysed play back on its line of the page's record.
    """

    game_id: str
    rules: Rules
    games: tuple[tuple[Action, ...], ...]
    games_limit: int | None
    names: tuple[str, str]
    move_seqs: tuple[int, ...]


def engine_name(plies: int) -> str:
    return f"gammon.analysis {plies}-ply"


def analyse_snapshot(snap: Snapshot, plies: int, progress: Progress | None = None,
                     valuer: Valuer | None = None) -> AnalysisResult:
    """The report of :func:`gammon.analysis.analyse_record` on ``snap``, shaped for the page.

    :raises GammonError: a record the analysis refuses.
    """
    from gammon.analysis.analyse import analyse_record
    from gammon.analysis.marks import SYMBOLS
    from gammon.analysis.report import after_game_report

    a = analyse_record(snap.rules, [list(g) for g in snap.games], snap.names, plies=plies, processes=1,
                       progress=progress, games_limit=snap.games_limit, valuer=valuer)
    report = after_game_report(a)
    played = [d for d in a.decisions if d.kind == "move" and d.played_position_id is not None]
    plays: list[PlayReview] = []
    if len(played) == len(snap.move_seqs):
        for seq, d in zip(snap.move_seqs, played, strict=True):
            if d.forced:
                continue
            plays.append(PlayReview(seq=seq, player=d.player, game=d.game + 1, dice=list(d.dice or ()),
                                    played=d.played, best=d.best, loss=round(d.equity_lost, 4),
                                    mark=SYMBOLS[d.mark] if d.mark else None))
    else:  # never expected: the record's plays and the analysis's disagree; no marks rather than wrong ones
        log.warning("game %s: %d plays in the record, %d analysed; the record is left unmarked",
                    snap.game_id, len(snap.move_seqs), len(played))
    total = len(a.decisions)
    result = AnalysisResult(game_id=snap.game_id, status="done", done=total, total=total,
                            engine=engine_name(plies), report=report["analysis"], graph_svg=report["graph_svg"],
                            plays=plays)
    result._analysis = a  # its explanations' words and its graph, for other languages (in_language)
    result._graphs[DEFAULT] = report["graph_svg"]
    return result


def in_language(result: AnalysisResult, language: str) -> AnalysisResult:
    """``result`` for a reader of ``language``: the mistakes' explanations worded from the words the
    analysis kept, and the graph's labels, in that language (the report is made once, in English,
    and kept; this copy is made per request, the graph drawn once per language).  The figures and
    the schema are the same in every language; English is ``result`` itself.
    """
    from gammon.analysis.graph import graph_svg
    from gammon.analysis.words import explanation_text

    a = result._analysis
    if language == DEFAULT or result.status != "done" or result.report is None or a is None:
        return result
    with use_language(language):
        games = []
        for game, analysed in zip(result.report.get("games", []), a.games, strict=True):
            decisions = [{**shown, "explanation": explanation_text(d)}
                         for shown, d in zip(game["decisions"], analysed.decisions, strict=True)]
            games.append({**game, "decisions": decisions})
        graph = result._graphs.get(language)
        if graph is None:
            graph = result._graphs[language] = graph_svg(a)
    return result.model_copy(update={"report": {**result.report, "games": games}, "graph_svg": graph})


class _Stopped(Exception):
    """Raised in an analysis thread when the server stops."""


@dataclass(slots=True, eq=False)
class _Job:
    snap: Snapshot
    requester: str
    #: 0: asked for by a player of the game (served first); 1: by anyone else.
    rank: int
    running: bool = False
    done: int = 0
    total: int = 0


class Analyses:
    """The analyses of finished games: queued, running (with their progress) and made (kept).

    Thread-safe.  ``plies``: the depth (``gammon analyse``'s default unless
    the server is told otherwise); ``workers``: threads that analyse;
    ``cache_size``: reports kept (each holds the whole report and its graph,
    some hundred kilobytes for a long match).

    The queue is fair (issue 33): analyses asked for by a player of the game come before
    those asked for by anyone else, and within each kind the requesters (addresses) take
    turns, one analysis each, so many analyses from one address delay another's by at most
    one.  A requester who is not a player of the game has at most ``per_requester`` analyses
    queued or running at once; more are refused with :class:`BusyError` (429).
    """

    def __init__(self, plies: int, workers: int = 1, cache_size: int = 100, per_requester: int = 2) -> None:
        self.plies = plies
        self.workers = max(1, workers)
        self.cache_size = max(1, cache_size)
        self.per_requester = max(1, per_requester)
        self._made: OrderedDict[str, AnalysisResult] = OrderedDict()
        self._jobs: dict[str, _Job] = {}
        #: Per rank, the requesters in turn order, each with the games it queued (oldest first).
        self._queues: tuple[OrderedDict[str, deque[str]], ...] = (OrderedDict(), OrderedDict())
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self._threads: list[threading.Thread] = []
        self._local = threading.local()
        self._closed = False

    def known(self, game_id: str) -> AnalysisResult | None:
        """The report if made, the progress if queued or running, else None."""
        with self._lock:
            made = self._made.get(game_id)
            if made is not None:
                self._made.move_to_end(game_id)
                return made
            job = self._jobs.get(game_id)
            return None if job is None else self._running(game_id, job)

    def _running(self, game_id: str, job: _Job) -> AnalysisResult:
        return AnalysisResult(game_id=game_id, status="running", done=job.done, total=job.total,
                              engine=engine_name(self.plies))

    def start(self, snap: Snapshot, requester: str | None = None, player: bool = True) -> AnalysisResult:
        """Queue the analysis of ``snap`` (once: a second call answers with the first's progress).

        ``requester`` names who asks (an address; None: not counted), ``player`` whether they play
        in the game: a player's request moves a queued analysis of the game ahead.

        :raises BusyError: ``requester``, not a player, has :attr:`per_requester` analyses waiting.
        """
        who = requester if requester is not None else ""
        rank = 0 if player or requester is None else 1
        with self._lock:
            made = self._made.get(snap.game_id)
            if made is not None:
                return made
            job = self._jobs.get(snap.game_id)
            if job is None:
                if rank == 1 and sum(1 for j in self._jobs.values()
                                     if j.requester == who and j.rank == 1) >= self.per_requester:
                    raise BusyError(f"you have {self.per_requester} analyses waiting already: "
                                    "ask again when one is made", retry_after=5)
                job = self._jobs[snap.game_id] = _Job(snap, who, rank)
                self._enqueue(job)
                self._spawn()
            elif rank < job.rank and not job.running:  # a player asks: the game's analysis moves ahead
                self._dequeue(job)
                job.rank, job.requester = rank, who
                self._enqueue(job)
            return self._running(snap.game_id, job)

    def _enqueue(self, job: _Job) -> None:
        self._queues[job.rank].setdefault(job.requester, deque()).append(job.snap.game_id)
        self._ready.notify()

    def _dequeue(self, job: _Job) -> None:
        queue = self._queues[job.rank]
        games = queue.get(job.requester)
        if games is not None and job.snap.game_id in games:
            games.remove(job.snap.game_id)
            if not games:
                del queue[job.requester]

    def _next(self) -> _Job | None:
        """The next job to run (call with the lock held): the first rank with work, its first
        requester, who then goes to the back of the line."""
        for queue in self._queues:
            if queue:
                requester, games = next(iter(queue.items()))
                game_id = games.popleft()
                del queue[requester]
                if games:
                    queue[requester] = games  # back of the line
                job = self._jobs[game_id]
                job.running = True
                return job
        return None

    def _spawn(self) -> None:
        """Start the worker threads on first use (call with the lock held)."""
        while len(self._threads) < self.workers:
            t = threading.Thread(target=self._work, name=f"gammon-analysis-{len(self._threads)}", daemon=True)
            self._threads.append(t)
            t.start()

    def _work(self) -> None:
        while True:
            with self._lock:
                job = self._next()
                while job is None and not self._closed:
                    self._ready.wait()
                    job = self._next()
                if self._closed:
                    return
            assert job is not None
            self._run(job.snap, job)

    def _valuer(self) -> Valuer:
        """This thread's :class:`~gammon.analysis.valuation.Valuer` (an engine's buffers are not shared)."""
        valuer: Valuer | None = getattr(self._local, "valuer", None)
        if valuer is None:
            from gammon.analysis.valuation import Valuer

            valuer = self._local.valuer = Valuer(self.plies)
        return valuer

    def _run(self, snap: Snapshot, job: _Job) -> None:
        def progress(done: int, total: int) -> None:
            if self._closed:  # the server is stopping: it does not wait for the rest
                raise _Stopped
            job.done, job.total = done, total

        try:
            result = analyse_snapshot(snap, self.plies, progress, self._valuer())
        except _Stopped:
            return
        except Exception as exc:  # a failure is reported to the page, never lost in a thread
            log.exception("game %s: the analysis failed", snap.game_id)
            result = AnalysisResult(game_id=snap.game_id, status="failed", done=job.done, total=job.total,
                                    engine=engine_name(self.plies), message=f"the analysis failed: {exc}")
        with self._lock:
            self._jobs.pop(snap.game_id, None)
            self._made[snap.game_id] = result
            while len(self._made) > self.cache_size:
                self._made.popitem(last=False)

    def wait(self, game_id: str, timeout: float = 120.0) -> AnalysisResult | None:
        """Block until the analysis of ``game_id`` is made (for tests and scripts); None on timeout."""
        import time

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            got = self.known(game_id)
            if got is None or got.status != "running":
                return got
            time.sleep(0.05)
        return None

    def close(self) -> None:
        """Stop the workers: queued analyses are dropped, running ones stop at their next decision."""
        with self._lock:
            self._closed = True
            for queue in self._queues:
                queue.clear()
            self._ready.notify_all()


__all__ = ["Analyses", "Snapshot", "analyse_snapshot", "engine_name", "in_language"]
