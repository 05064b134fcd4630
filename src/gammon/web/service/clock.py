"""Game clocks as online sites run them: a delay per move, then a reserve per player for the match.

While a player must act, their clock runs: the first ``delay`` seconds of each
turn are free, what goes beyond comes off their ``reserve``.  A player whose
reserve runs out loses the match.  Nothing here keeps time of its own: the
clock is worked out from the times the actions were stored (the store's
``created_at``), so a restarted server knows exactly how much time each player
has left, and a timeout is itself a stored action.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """Seconds free per turn (``delay``) and seconds in each player's reserve for the match."""

    delay: float
    reserve: float


@dataclass
class Clock:
    """The two reserves as the stored actions leave them, and whose clock runs since when."""

    settings: ClockSettings
    used: list[float] = field(default_factory=lambda: [0.0, 0.0])
    running: int | None = None
    since: datetime | None = None

    def charge(self, at: datetime, next_to_act: int | None) -> None:
        """An action was stored at ``at``: charge the player whose clock ran, then start the next one's."""
        if self.running is not None and self.since is not None:
            spent = (at - self.since).total_seconds()
            self.used[self.running] += max(0.0, spent - self.settings.delay)
        self.running, self.since = next_to_act, at

    def remaining(self, seat: int, now: datetime) -> float:
        """Seconds of reserve ``seat`` has left at ``now`` (counting the running turn beyond its delay)."""
        left = self.settings.reserve - self.used[seat]
        if seat == self.running and self.since is not None:
            left -= max(0.0, (now - self.since).total_seconds() - self.settings.delay)
        return left

    def timed_out(self, now: datetime) -> int | None:
        """The seat whose reserve has run out at ``now``, if any."""
        if self.running is not None and self.remaining(self.running, now) <= 0:
            return self.running
        return None


__all__ = ["Clock", "ClockSettings"]
