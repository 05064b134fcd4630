"""Data access for ratings: recording a finished match once, and reading profiles and the leaderboard.

:meth:`RatingStore.record` writes everything one finished match changes in one
transaction: a ``match_results`` row per account seated in it and the accounts'
``player_ratings``.  The rows are read ``FOR UPDATE`` (PostgreSQL; SQLite has one
writer at a time anyway), in account order, so two matches of one player
finishing at once in two processes are rated one after the other, each from
the other's result; the key ``(game_id, account_id)`` of ``match_results``
makes a second recording of the same match fail and change nothing, whichever
process tries it.  How ratings move is not this module's business: the caller
passes the formula (:func:`gammon.web.fibs_rating.rate_match`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from gammon.store.account_models import ACCOUNT_SEATS, ACCOUNTS
from gammon.store.db import write_transaction
from gammon.store.rating_models import COMPUTER, GUEST, MATCH_RESULTS, PLAYER_RATINGS, RATED
from gammon.store.repository import Store

#: Every player's rating before their first rated match.
START_RATING = 1500.0


@dataclass(frozen=True, slots=True)
class Rated:
    """A player's rating and experience (the sum of the lengths of their rated matches)."""

    rating: float
    experience: int


#: The rating formula: (winner, loser, match length) -> (winner after, loser after).
Formula = Callable[[Rated, Rated, int], tuple[Rated, Rated]]


@dataclass(frozen=True, slots=True)
class SeatAccount:
    """The account holding a seat of a game, and the hash of the address it was taken from."""

    seat: int
    account_id: str
    address_hash: str | None


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished match as the rules decided it: who sat where, who won, how long it was."""

    game_id: str
    match_length: int
    winner: int
    #: Per seat: True for a computer seat.
    computer: tuple[bool, bool]
    finished_at: datetime


@dataclass(frozen=True, slots=True)
class Standing:
    """An account's rating, experience and records."""

    rating: float
    experience: int
    rated_wins: int
    rated_losses: int
    computer_wins: int
    computer_losses: int


@dataclass(frozen=True, slots=True)
class ResultRecord:
    """A ``match_results`` row, with the opponent's name (None: the computer, a guest or deleted)."""

    game_id: str
    kind: str
    opponent_id: str | None
    opponent_name: str | None
    match_length: int
    won: bool
    rating_before: float
    rating_after: float
    same_address: bool
    finished_at: datetime


@dataclass(frozen=True, slots=True)
class BoardEntry:
    """One line of the leaderboard."""

    name: str
    rating: float
    experience: int
    rated_wins: int
    rated_losses: int


NEW_STANDING = Standing(START_RATING, 0, 0, 0, 0, 0)


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


class RatingStore:
    """Ratings and match results in the database of ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    # -- recording ------------------------------------------------------------------------

    def seat_accounts(self, game_id: str) -> list[SeatAccount]:
        """The accounts holding seats of ``game_id``, by seat."""
        with self.engine.connect() as conn:
            seats = ACCOUNT_SEATS.c
            rows = conn.execute(select(seats.seat, seats.account_id, seats.address_hash)
                                .where(ACCOUNT_SEATS.c.game_id == game_id).order_by(ACCOUNT_SEATS.c.seat)).all()
        return [SeatAccount(int(r[0]), str(r[1]), r[2]) for r in rows]

    def is_recorded(self, game_id: str) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(MATCH_RESULTS.c.game_id)
                                .where(MATCH_RESULTS.c.game_id == game_id).limit(1)).first() is not None

    def _ensure(self, account_ids: list[str], now: datetime) -> None:
        """Give each account a ``player_ratings`` row (the start) if it has none."""
        for account_id in account_ids:
            try:
                with write_transaction(self.engine) as conn:
                    if conn.execute(select(PLAYER_RATINGS.c.account_id)
                                    .where(PLAYER_RATINGS.c.account_id == account_id)).first() is None:
                        conn.execute(insert(PLAYER_RATINGS).values(
                            account_id=account_id, rating=START_RATING, experience=0, rated_wins=0,
                            rated_losses=0, computer_wins=0, computer_losses=0, updated_at=now))
            except IntegrityError:
                pass  # made meanwhile by another process

    def record(self, outcome: Outcome, seats: list[SeatAccount], formula: Formula) -> bool:
        """Record ``outcome`` for the accounts in ``seats`` (rated when both seats are two different
        accounts); False when it was recorded before (nothing changes) or concerns no account."""
        by_seat = {s.seat: s for s in seats if s.seat in (0, 1)}
        if not by_seat:
            return False
        ids = sorted({s.account_id for s in by_seat.values()})
        if len(ids) < len(by_seat):
            return False  # one account in both seats: never rated, never counted
        self._ensure(ids, outcome.finished_at)
        try:
            with write_transaction(self.engine) as conn:
                rows = conn.execute(select(PLAYER_RATINGS).where(PLAYER_RATINGS.c.account_id.in_(ids))
                                    .order_by(PLAYER_RATINGS.c.account_id).with_for_update()).mappings().all()
                now = {r["account_id"]: Rated(float(r["rating"]), int(r["experience"])) for r in rows}
                if len(by_seat) == 2 and len(ids) == 2:
                    self._record_rated(conn, outcome, by_seat, now, formula)
                else:
                    self._record_unrated(conn, outcome, by_seat, now)
        except IntegrityError:
            return False  # recorded already (the key of match_results)
        return True

    def _record_rated(self, conn: Any, outcome: Outcome, by_seat: dict[int, SeatAccount],
                      now: dict[str, Rated], formula: Formula) -> None:
        win, lose = by_seat[outcome.winner], by_seat[1 - outcome.winner]
        after_w, after_l = formula(now[win.account_id], now[lose.account_id], outcome.match_length)
        flagged = win.address_hash is not None and win.address_hash == lose.address_hash
        for me, other, after, won in ((win, lose, after_w, True), (lose, win, after_l, False)):
            self._result(conn, outcome, me.account_id, RATED, other.account_id, won, now[me.account_id], after,
                         flagged)
            conn.execute(update(PLAYER_RATINGS).where(PLAYER_RATINGS.c.account_id == me.account_id).values(
                rating=after.rating, experience=after.experience, updated_at=outcome.finished_at,
                **{"rated_wins" if won else "rated_losses":
                   (PLAYER_RATINGS.c.rated_wins if won else PLAYER_RATINGS.c.rated_losses) + 1}))

    def _record_unrated(self, conn: Any, outcome: Outcome, by_seat: dict[int, SeatAccount],
                        now: dict[str, Rated]) -> None:
        """One account against the computer (its own record) or a guest (listed only)."""
        seat, me = next(iter(by_seat.items()))
        won = outcome.winner == seat
        kind = COMPUTER if outcome.computer[1 - seat] else GUEST
        mine = now[me.account_id]
        self._result(conn, outcome, me.account_id, kind, None, won, mine, mine, False)
        if kind == COMPUTER:
            column = "computer_wins" if won else "computer_losses"
            conn.execute(update(PLAYER_RATINGS).where(PLAYER_RATINGS.c.account_id == me.account_id)
                         .values({column: PLAYER_RATINGS.c[column] + 1, "updated_at": outcome.finished_at}))

    @staticmethod
    def _result(conn: Any, outcome: Outcome, account_id: str, kind: str, opponent_id: str | None, won: bool,
                before: Rated, after: Rated, flagged: bool) -> None:
        conn.execute(insert(MATCH_RESULTS).values(
            game_id=outcome.game_id, account_id=account_id, kind=kind, opponent_id=opponent_id,
            match_length=outcome.match_length, won=won, rating_before=before.rating, rating_after=after.rating,
            experience_after=after.experience, same_address=flagged, finished_at=outcome.finished_at))

    # -- reading --------------------------------------------------------------------------

    def standing(self, account_id: str) -> Standing:
        """The account's rating and records (the start for an account with no recorded match)."""
        with self.engine.connect() as conn:
            r = conn.execute(select(PLAYER_RATINGS)
                             .where(PLAYER_RATINGS.c.account_id == account_id)).mappings().first()
        if r is None:
            return NEW_STANDING
        return Standing(float(r["rating"]), int(r["experience"]), int(r["rated_wins"]), int(r["rated_losses"]),
                        int(r["computer_wins"]), int(r["computer_losses"]))

    def results(self, account_id: str, limit: int = 100, kind: str | None = None) -> list[ResultRecord]:
        """The account's recorded matches, newest first (only ``kind`` when given)."""
        cond = MATCH_RESULTS.c.account_id == account_id
        if kind is not None:
            cond = and_(cond, MATCH_RESULTS.c.kind == kind)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(MATCH_RESULTS, ACCOUNTS.c.name.label("opponent_name"))
                .outerjoin(ACCOUNTS, ACCOUNTS.c.id == MATCH_RESULTS.c.opponent_id)
                .where(cond).order_by(MATCH_RESULTS.c.finished_at.desc(), MATCH_RESULTS.c.game_id).limit(limit)
            ).mappings().all()
        return [ResultRecord(r["game_id"], r["kind"], r["opponent_id"], r["opponent_name"],
                             int(r["match_length"]),
                             bool(r["won"]), float(r["rating_before"]), float(r["rating_after"]),
                             bool(r["same_address"]), _aware(r["finished_at"])) for r in rows]

    def leaderboard(self, min_experience: int, limit: int, offset: int) -> tuple[int, list[BoardEntry]]:
        """The accounts with at least ``min_experience``, best rating first: how many in all, and a page."""
        cond = PLAYER_RATINGS.c.experience >= min_experience
        with self.engine.connect() as conn:
            total = conn.execute(select(func.count()).select_from(PLAYER_RATINGS).where(cond)).scalar()
            rows = conn.execute(
                select(ACCOUNTS.c.name, PLAYER_RATINGS.c.rating, PLAYER_RATINGS.c.experience,
                       PLAYER_RATINGS.c.rated_wins, PLAYER_RATINGS.c.rated_losses)
                .join(ACCOUNTS, ACCOUNTS.c.id == PLAYER_RATINGS.c.account_id).where(cond)
                .order_by(PLAYER_RATINGS.c.rating.desc(), ACCOUNTS.c.name_key).limit(limit).offset(offset)
            ).all()
        return int(total or 0), [BoardEntry(str(r[0]), float(r[1]), int(r[2]), int(r[3]), int(r[4]))
                                 for r in rows]


__all__ = ["NEW_STANDING", "START_RATING", "BoardEntry", "Formula", "Outcome", "Rated", "RatingStore",
           "ResultRecord", "SeatAccount", "Standing"]
