"""Ratings, as the server keeps them: each finished match recorded once, profiles, the leaderboard.

:class:`RatingService` listens to the game service: when a change it stored
ends a match (the last play, an accepted resignation, a timeout: whatever core
decides ends it), the match is recorded for the accounts seated in it:

* two different accounts: rated with the FIBS formula (:mod:`gammon.web.fibs_rating`),
  flagged when both seats were taken from one address (allowed, kept for moderators);
* one account against the computer: its "vs computer" record, not its rating;
* one account against a guest: listed in its history, not rated;
* a money session (no match length) is not recorded; nor is one account in both seats.

Recording is idempotent (:meth:`gammon.store.ratings.RatingStore.record`): a
match ended twice, or seen ending by two server processes, counts once.  A
match whose recording failed (the database was away) is caught up the next
time one of its players' profiles is read (:meth:`RatingService.catch_up`).
"""

from __future__ import annotations

import logging

from gammon.store.rating_models import RATED
from gammon.store.ratings import NEW_STANDING, BoardEntry, Outcome, RatingStore, ResultRecord, Standing
from gammon.web.fibs_rating import rate_match
from gammon.web.service.base import Change
from gammon.web.service.games import GameService

log = logging.getLogger("gammon.web.ratings")

#: The experience a player needs to be listed on the leaderboard by default (FIBS lists from 0; a
#: few matches keep one lucky win off the top).
DEFAULT_MIN_EXPERIENCE = 5
#: The most leaderboard lines one request gets, and the deepest it may page.
MAX_PAGE = 100
MAX_OFFSET = 10_000
#: The most history points and matches a profile lists.
MAX_LISTED = 200
#: The most games a process remembers as having nothing to record.
MAX_NEVER = 100_000


class RatingService:
    """Records finished matches and reads ratings; see the module's docstring."""

    def __init__(self, games: GameService, store: RatingStore | None = None) -> None:
        self.games = games
        self.store = store if store is not None else RatingStore(games.store)
        #: Finished games this process found it has nothing to record for (money sessions, one
        #: account in both seats): a profile read does not replay them again.
        self._never: set[str] = set()

    def on_change(self, change: Change) -> None:
        """A game service listener (called in the thread that stored the change, the game's lock
        held): record the match if the change ended it."""
        outcome = self.games.outcome(change.game_id, cached_only=True)
        if outcome is not None:
            self._record(change.game_id, outcome)

    def record(self, game_id: str) -> bool:
        """Record ``game_id`` if its match is over and it was not recorded yet; whether this call did."""
        outcome = self.games.outcome(game_id)
        return outcome is not None and self._record(game_id, outcome)

    def _record(self, game_id: str, outcome: Outcome) -> bool:
        if outcome.match_length < 1:
            return False  # a money session is never rated
        seats = self.store.seat_accounts(game_id)
        if len(seats) == 2 and seats[0].account_id == seats[1].account_id:
            log.warning("game %s: one account in both seats: not rated", game_id)
            return False
        done = self.store.record(outcome, seats, rate_match)
        if done:
            log.info("game %s: result recorded for %d account(s)", game_id, len(seats))
        return done

    def _never_again(self, game_id: str) -> None:
        if len(self._never) >= MAX_NEVER:
            self._never.clear()
        self._never.add(game_id)

    def catch_up(self, account_id: str, game_ids: list[str]) -> int:
        """Record those of ``game_ids`` (the account's finished games) not recorded yet; how many."""
        recorded = {r.game_id for r in self.store.results(account_id, limit=len(game_ids) + MAX_LISTED)}
        n = 0
        for game_id in game_ids:
            if game_id not in recorded and game_id not in self._never and not self.store.is_recorded(game_id):
                try:
                    done = self.record(game_id)
                except Exception:  # a game that no longer replays must not hide the profile
                    log.exception("game %s: recording its result failed", game_id)
                    continue
                n += done
                if not done:  # finished with nothing to record (a money session): not looked at again
                    self._never_again(game_id)
        return n

    def standing(self, account_id: str) -> Standing:
        return self.store.standing(account_id) if account_id else NEW_STANDING

    def history(self, account_id: str) -> list[ResultRecord]:
        """The account's recorded matches, newest first (at most :data:`MAX_LISTED`)."""
        return self.store.results(account_id, MAX_LISTED)

    def rating_points(self, account_id: str) -> list[ResultRecord]:
        """The rated matches, oldest first: the points of the rating graph."""
        return list(reversed(self.store.results(account_id, MAX_LISTED, kind=RATED)))

    def leaderboard(self, min_experience: int, limit: int, offset: int) -> tuple[int, list[BoardEntry]]:
        """A page of the leaderboard (the bounds are the caller's to check)."""
        return self.store.leaderboard(min_experience, limit, offset)


__all__ = ["DEFAULT_MIN_EXPERIENCE", "MAX_OFFSET", "MAX_PAGE", "RatingService"]
