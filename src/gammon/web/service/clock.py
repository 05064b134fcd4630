"""Game clocks as online sites run them: a delay per turn, then a reserve per player for the match.

The model (it charges only the player who thinks):

* **Whose clock runs.**  The clock of the player the game waits for: the
  player on roll while they roll, double and play; the opponent while they
  answer a double or a resignation.  Nobody's clock runs during the opening
  roll or between the games of a match.
* **One delay per turn.**  In each turn of the game every player has
  ``delay`` free seconds once: the player on roll for all of their turn
  (rolling *and* playing, before and after a double is answered), the
  opponent for all their answers in that turn.  What a player spends in a
  turn beyond their delay comes off their ``reserve`` for the match; a player
  whose reserve runs out loses the match.
* **Resignations.**  A player may offer to resign once per turn (the service
  refuses a second offer, ``resignation_limit``).  While the offer waits for
  its answer the opponent's clock runs, since the opponent is the one who
  thinks; the offerer's turn is not restarted by it: after a rejection their
  clock goes on with what is left of the same delay.  So an offer gains the
  offerer nothing on the clock, and a game cannot be stalled by offers: each
  turn holds at most one offer from each side, each answered on the
  answerer's own time.  (Letting the offerer's clock run while the opponent
  answers would let the opponent win on time by never answering.)
* **Server downtime is nobody's.**  Time in which no server process ran
  (:class:`Outages`, from the stored heartbeat) is left out of every span.

Nothing here keeps time of its own: the clock is worked out from the times the
actions were stored (the store's ``created_at``) and the stored outages, so a
restarted server knows exactly how much time each player has left, and a
timeout is itself a stored action.
"""

from __future__ import annotations

import bisect
import itertools
from dataclasses import dataclass, field
from datetime import datetime

#: The clock settings a game may be created with: the delay and reserve in seconds.
MIN_DELAY, MAX_DELAY = 3.0, 600.0
MIN_RESERVE, MAX_RESERVE = 30.0, 36000.0


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """Seconds free per turn (``delay``) and seconds in each player's reserve for the match."""

    delay: float
    reserve: float


def clock_settings(delay: float, reserve: float, *, short_ok: bool = False) -> ClockSettings | None:
    """The clock a game is created with (None: no clock, ``reserve`` 0 and no delay).

    A clock needs a delay of at least :data:`MIN_DELAY` and a reserve of at least
    :data:`MIN_RESERVE` seconds (so a move fits in it over a slow connection); at
    most :data:`MAX_DELAY` and :data:`MAX_RESERVE`.  ``short_ok`` (test servers
    only) lifts the minimums.

    :raises ValueError: settings out of range, with a sentence that says which.
    """
    if not reserve:
        if delay:
            raise ValueError("a clock needs a reserve: clock_reserve 0 means no clock, and then "
                             "clock_delay must be 0")
        return None
    low_delay, low_reserve = (0.0, 0.0) if short_ok else (MIN_DELAY, MIN_RESERVE)
    if not low_delay <= delay <= MAX_DELAY:
        raise ValueError(f"clock_delay must be between {low_delay:g} and {MAX_DELAY:g} seconds")
    if not (low_reserve <= reserve <= MAX_RESERVE and reserve > 0):
        raise ValueError(f"clock_reserve must be 0 (no clock) or between {low_reserve:g} and {MAX_RESERVE:g} "
                         "seconds")
    return ClockSettings(float(delay), float(reserve))


class Outages:
    """The stretches of time in which no server process ran, merged and in order.

    Shared by every clock of a service; :meth:`add` replaces the list whole, so a
    clock reading it in another thread sees the old list or the new one.
    :attr:`version` counts the changes (clocks redo their sums when it moves).
    """

    def __init__(self, spans: list[tuple[datetime, datetime]] | None = None) -> None:
        self._starts: list[datetime] = []
        self._spans: list[tuple[datetime, datetime]] = []
        self.version = 0
        for start, end in spans or []:
            self.add(start, end)

    def add(self, start: datetime, end: datetime) -> None:
        """Leave ``start`` to ``end`` out of every clock (overlaps are merged)."""
        if end <= start:
            return
        merged: list[tuple[datetime, datetime]] = []
        for s, e in sorted([*self._spans, (start, end)]):
            if merged and s <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], e))
            else:
                merged.append((s, e))
        self._spans, self._starts = merged, [s for s, _ in merged]
        self.version += 1

    @property
    def spans(self) -> list[tuple[datetime, datetime]]:
        return list(self._spans)

    def busy(self, start: datetime, end: datetime) -> float:
        """Seconds from ``start`` to ``end`` that a server ran (the outages in between left out)."""
        total = (end - start).total_seconds()
        if total <= 0:
            return 0.0
        spans, starts = self._spans, self._starts
        i = max(0, bisect.bisect_right(starts, start) - 1)
        for s, e in itertools.islice(spans, i, None):
            if s >= end:
                break
            overlap = (min(e, end) - max(s, start)).total_seconds()
            if overlap > 0:
                total -= overlap
        return max(0.0, total)


_fresh_turns = itertools.count(-1, -1)  # charges without a turn each make a turn of their own


@dataclass
class Clock:
    """The two reserves as the stored actions leave them, and whose clock runs since when.

    Feed it every stored action in order with :meth:`charge`.  Spans of a
    player within one turn share that turn's delay; each finished turn's
    charge is summed once (and again only when :attr:`outages` changes).
    """

    settings: ClockSettings
    outages: Outages = field(default_factory=Outages)
    running: int | None = None
    since: datetime | None = None
    #: The turn the running clock belongs to.
    turn: int | None = None
    _spans: list[tuple[int, int, datetime, datetime]] = field(default_factory=list)
    _settled: list[float] = field(default_factory=lambda: [0.0, 0.0])
    _open: list[tuple[int, float] | None] = field(default_factory=lambda: [None, None])
    _seen: int = 0

    def charge(self, at: datetime, next_to_act: int | None, turn: int | None = None) -> None:
        """An action was stored at ``at``: close the running span, and start ``next_to_act``'s in ``turn``.

        ``turn`` numbers the game's turns (the same number for every span of a
        turn, its answers by the opponent included); None makes a turn of its own.
        """
        self._sync()
        if self.running is not None and self.since is not None and self.turn is not None:
            span = (self.running, self.turn, self.since, at)
            self._spans.append(span)
            self._add(span)
        self.running, self.since = next_to_act, at
        self.turn = next(_fresh_turns) if turn is None else turn

    def _add(self, span: tuple[int, int, datetime, datetime]) -> None:
        seat, turn, start, end = span
        seconds = self.outages.busy(start, end)
        current = self._open[seat]
        if current is not None and current[0] == turn:
            self._open[seat] = (turn, current[1] + seconds)
            return
        if current is not None:
            self._settled[seat] += max(0.0, current[1] - self.settings.delay)
        self._open[seat] = (turn, seconds)

    def _sync(self) -> None:
        """Redo the sums when the outages changed since they were made."""
        if self._seen == self.outages.version:
            return
        self._seen = self.outages.version
        self._settled, self._open = [0.0, 0.0], [None, None]
        for span in self._spans:
            self._add(span)

    def _thinking(self, seat: int, now: datetime) -> tuple[float, float]:
        """Reserve used in ``seat``'s finished turns, and seconds thought in its latest turn at ``now``."""
        self._sync()
        settled = self._settled[seat]
        current = self._open[seat]
        turn, seconds = current if current is not None else (None, 0.0)
        if seat == self.running and self.since is not None:
            running = self.outages.busy(self.since, now)
            if turn == self.turn:
                seconds += running
            else:
                settled += max(0.0, seconds - self.settings.delay)
                seconds = running
        return settled, seconds

    @property
    def used(self) -> list[float]:
        """Reserve each seat has used in the spans closed so far."""
        self._sync()
        return [self._settled[s] + max(0.0, (o[1] if (o := self._open[s]) else 0.0) - self.settings.delay)
                for s in (0, 1)]

    def remaining(self, seat: int, now: datetime) -> float:
        """Seconds of reserve ``seat`` has left at ``now`` (counting the running turn beyond its delay)."""
        settled, seconds = self._thinking(seat, now)
        return self.settings.reserve - settled - max(0.0, seconds - self.settings.delay)

    def delay_left(self, now: datetime) -> float:
        """Seconds of this turn's delay the running seat has left at ``now`` (0 when none runs)."""
        if self.running is None:
            return 0.0
        return max(0.0, self.settings.delay - self._thinking(self.running, now)[1])

    def timed_out(self, now: datetime) -> int | None:
        """The seat whose reserve has run out at ``now``, if any."""
        if self.running is not None and self.remaining(self.running, now) <= 0:
            return self.running
        return None


__all__ = ["MAX_DELAY", "MAX_RESERVE", "MIN_DELAY", "MIN_RESERVE", "Clock", "ClockSettings", "Outages",
           "clock_settings"]
