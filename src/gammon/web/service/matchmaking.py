"""Finding an opponent: the rated queue, challenges to a named player, and who is online.

All three live in this process's memory (a restarted server forgets who was waiting; a waiting
player's client simply joins again), behind one lock each, and know nothing of HTTP.  Making the
game of a pair is the caller's (:data:`StartMatch`), so the rules of seating stay in
:mod:`gammon.web.service.seating`.

* :class:`MatchQueue`: one queue per match length.  A player waits in at most one.  Two waiting
  players are paired when their rating gap is within the wider of their two windows; a window is
  :data:`BASE_GAP` points and grows by :data:`GAP_PER_SECOND` for each second waited (up to
  :data:`MAX_GAP`), so a lone player finds someone further away the longer they wait.  The oldest
  waiting player is served first, with the closest rating that fits.  A player who stops asking
  for :data:`STALE_AFTER` seconds (a closed page) leaves the queue.
* :class:`Challenges`: an invitation from one account to another named one; the other accepts
  (the game is made) or declines; unanswered, it expires after :data:`CHALLENGE_TTL` seconds.
* :class:`Presence`: when each account was last seen; online means seen in :data:`ONLINE_FOR`.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from gammon.store.accounts import AccountRecord
from gammon.web.service.errors import ConflictError, ForbiddenError, InvalidError, NotFoundError

#: The rating gap every waiting player accepts at once.
BASE_GAP = 50.0
#: How much a waiting player's window widens per second waited.
GAP_PER_SECOND = 10.0
#: The widest window: after ~3 minutes anyone waiting for the same length is a match.
MAX_GAP = 2000.0
#: Match lengths a queue exists for.
QUEUE_LENGTHS = (1, 3, 5, 7, 9, 11)
#: Seconds a waiting player may go without asking (``GET /api/queue``) before leaving the queue: a
#: closed page is never paired.
STALE_AFTER = 30.0
#: Seconds an unanswered challenge stays open.
CHALLENGE_TTL = 300.0
#: Open challenges one account may have sent at once.
MAX_OPEN_CHALLENGES = 5
#: Seconds since its last request that an account still counts as online.
ONLINE_FOR = 300.0


@dataclass(frozen=True, slots=True)
class Seeker:
    """An account looking for an opponent: its id, name, rating and the address it asked from (the
    seat records it, so that two accounts of one address in a rated match are flagged)."""

    account_id: str
    name: str
    rating: float
    address: str | None = None
    #: The account itself (the seat is recorded for it); None in tests of the pairing alone.
    account: AccountRecord | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Paired:
    """A game made for a pair: its id and the seat each account holds (by account id)."""

    game_id: str
    seats: dict[str, int]


#: Makes the game of two players in a match of the given length (the first seeker waited longest).
StartMatch = Callable[[Seeker, Seeker, int], Paired]


def window(waited: float) -> float:
    """The rating gap a player who has waited ``waited`` seconds accepts."""
    return min(MAX_GAP, BASE_GAP + GAP_PER_SECOND * max(0.0, waited))


@dataclass(slots=True)
class _Waiting:
    seeker: Seeker
    length: int
    since: float
    asked: float  # when the player last joined or asked for their state


@dataclass(frozen=True, slots=True)
class QueueState:
    """Where an account stands: ``idle``, ``waiting`` (length, seconds waited, its window) or
    ``matched`` (the game made for it and its seat)."""

    state: str
    match_length: int | None = None
    waited: float = 0.0
    gap: float = 0.0
    game_id: str | None = None
    seat: int | None = None


class MatchQueue:
    """The rated queues, one per match length (see the module)."""

    def __init__(self, start: StartMatch, clock: Callable[[], float] = time.monotonic) -> None:
        self._start = start
        self._clock = clock
        self._lock = threading.Lock()
        self._waiting: dict[str, _Waiting] = {}  # by account id, in order of joining
        self._matched: dict[str, tuple[str, int]] = {}  # account id -> (game id, seat), until read or left

    def join(self, seeker: Seeker, length: int) -> QueueState:
        """Put ``seeker`` in the queue for ``length`` (again: no change), and pair whom it can.

        :raises ConflictError: the account waits in the queue of another length (``already_queued``).
        """
        if length not in QUEUE_LENGTHS:
            raise InvalidError(f"the rated queues are for matches of {', '.join(map(str, QUEUE_LENGTHS))} "
                               "points", "invalid_length")
        with self._lock:
            current = self._waiting.get(seeker.account_id)
            if current is not None and current.length != length:
                raise ConflictError(f"you wait in the {current.length}-point queue already: leave it first",
                                    "already_queued")
            if current is None:
                self._matched.pop(seeker.account_id, None)
                now = self._clock()
                self._waiting[seeker.account_id] = _Waiting(seeker, length, now, now)
            else:
                current.asked = self._clock()
            self._pair(length)
            return self._state(seeker.account_id)

    def leave(self, account_id: str) -> bool:
        """Take the account out of its queue (and forget a match it was told of); whether it waited."""
        with self._lock:
            self._matched.pop(account_id, None)
            return self._waiting.pop(account_id, None) is not None

    def state(self, account_id: str) -> QueueState:
        """The account's state, after pairing whoever the widened windows now allow."""
        with self._lock:
            waiting = self._waiting.get(account_id)
            if waiting is not None:
                waiting.asked = self._clock()
                self._pair(waiting.length)
            return self._state(account_id)

    def waiting_counts(self) -> dict[int, int]:
        """How many players wait in each queue."""
        with self._lock:
            counts = dict.fromkeys(QUEUE_LENGTHS, 0)
            for w in self._waiting.values():
                counts[w.length] += 1
            return counts

    def _state(self, account_id: str) -> QueueState:
        waiting = self._waiting.get(account_id)
        if waiting is not None:
            waited = self._clock() - waiting.since
            return QueueState("waiting", waiting.length, round(waited, 1), window(waited))
        matched = self._matched.get(account_id)
        if matched is not None:
            return QueueState("matched", game_id=matched[0], seat=matched[1])
        return QueueState("idle")

    def _pair(self, length: int) -> None:
        """Pair the waiting players of ``length`` while two fit: the oldest first, the closest rating."""
        now = self._clock()
        for key in [k for k, w in self._waiting.items() if now - w.asked > STALE_AFTER]:
            del self._waiting[key]  # the page that asked was closed
        while True:
            now = self._clock()
            queue = [w for w in self._waiting.values() if w.length == length]
            pair = _best_pair(queue, now)
            if pair is None:
                return
            first, second = pair
            paired = self._start(first.seeker, second.seeker, length)  # raises: both stay waiting
            for w in pair:
                del self._waiting[w.seeker.account_id]
                self._matched[w.seeker.account_id] = (paired.game_id, paired.seats[w.seeker.account_id])


def _best_pair(queue: list[_Waiting], now: float) -> tuple[_Waiting, _Waiting] | None:
    """The oldest player who fits someone, with the closest rating that fits (ties: who waited longer)."""
    for first in queue:
        fits = [w for w in queue if w is not first
                and abs(w.seeker.rating - first.seeker.rating)
                <= max(window(now - first.since), window(now - w.since))]
        if fits:
            return first, min(fits, key=lambda w: (abs(w.seeker.rating - first.seeker.rating), w.since))
    return None


@dataclass(slots=True)
class Challenge:
    """A challenge from one account to another; ``game_id`` once accepted."""

    id: str
    sender: Seeker
    to_id: str
    to_name: str
    length: int
    created: float
    status: str = "open"  # open, accepted, declined, cancelled
    game_id: str | None = None


class Challenges:
    """Open challenges between named accounts (see the module)."""

    def __init__(self, start: StartMatch, clock: Callable[[], float] = time.monotonic) -> None:
        self._start = start
        self._clock = clock
        self._lock = threading.Lock()
        self._all: dict[str, Challenge] = {}

    def send(self, sender: Seeker, to_id: str, to_name: str, length: int) -> Challenge:
        """A new challenge from ``sender`` to the account ``to_id``.

        :raises ConflictError: a challenge to oneself (``own_challenge``), or too many open ones.
        """
        if to_id == sender.account_id:
            raise ConflictError("you cannot challenge yourself", "own_challenge")
        with self._lock:
            self._expire()
            mine = [c for c in self._all.values() if c.sender.account_id == sender.account_id
                    and c.status == "open"]
            if len(mine) >= MAX_OPEN_CHALLENGES:
                raise ConflictError(f"you have {len(mine)} open challenges: wait for an answer",
                                    "too_many_challenges")
            c = Challenge(secrets.token_urlsafe(9), sender, to_id, to_name, length, self._clock())
            self._all[c.id] = c
            return c

    def now(self) -> float:
        """This object's clock now (``expires_in`` is counted from it)."""
        return self._clock()

    def of(self, account_id: str) -> tuple[list[Challenge], list[Challenge]]:
        """The challenges the account received and sent (open or answered, not yet expired)."""
        with self._lock:
            self._expire()
            got = [c for c in self._all.values() if c.to_id == account_id]
            sent = [c for c in self._all.values() if c.sender.account_id == account_id]
            return got, sent

    def answer(self, challenge_id: str, me: Seeker, accept: bool) -> Challenge:
        """The challenged account accepts (the game is made) or declines; the sender may cancel
        (``accept`` False).

        :raises NotFoundError: no such open challenge for this account (expired ones are gone).
        :raises ForbiddenError: the sender tried to accept their own challenge.
        """
        with self._lock:
            self._expire()
            c = self._all.get(challenge_id)
            if c is None or me.account_id not in (c.to_id, c.sender.account_id):
                raise NotFoundError("no such challenge")
            if c.status != "open":
                raise ConflictError(f"this challenge is {c.status} already", "challenge_answered")
            if me.account_id == c.sender.account_id:
                if accept:
                    raise ForbiddenError("only the challenged player can accept")
                c.status = "cancelled"
                return c
            if accept:
                c.game_id = self._start(c.sender, me, c.length).game_id
            c.status = "accepted" if accept else "declined"
            return c

    def _expire(self) -> None:
        limit = self._clock() - CHALLENGE_TTL
        for key in [k for k, c in self._all.items() if c.created < limit]:
            del self._all[key]


class Presence:
    """When each account was last seen (bounded: the oldest are forgotten past 100 000)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._seen: dict[str, tuple[str, float]] = {}

    def seen(self, account_id: str, name: str) -> None:
        with self._lock:
            self._seen.pop(account_id, None)
            self._seen[account_id] = (name, self._clock())
            while len(self._seen) > 100_000:
                del self._seen[next(iter(self._seen))]

    def gone(self, account_id: str) -> None:
        """Forget the account (logged out or deleted)."""
        with self._lock:
            self._seen.pop(account_id, None)

    def online(self, limit: int = 200) -> list[str]:
        """The names of the accounts seen in the last :data:`ONLINE_FOR` seconds, the latest first."""
        since = self._clock() - ONLINE_FOR
        with self._lock:
            names = [name for name, at in reversed(self._seen.values()) if at >= since]
        return sorted(names[:limit], key=str.casefold)


__all__ = ["BASE_GAP", "CHALLENGE_TTL", "GAP_PER_SECOND", "MAX_GAP", "MAX_OPEN_CHALLENGES", "ONLINE_FOR",
           "QUEUE_LENGTHS", "STALE_AFTER", "Challenge", "Challenges", "MatchQueue", "Paired", "Presence",
           "QueueState", "Seeker", "StartMatch", "window"]
