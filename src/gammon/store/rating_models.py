"""The rating tables, as SQLAlchemy 2 declarative models on :class:`gammon.store.models.Base`.

* ``player_ratings``: one row per account that finished a recorded match: its
  FIBS rating and experience (:mod:`gammon.web.fibs_rating`), its record in
  rated matches and, apart, against the computer.  Made on the account's first
  recorded match; deleted with the account.
* ``match_results``: one row per (finished game, account): the rating before and
  after, the experience after, won or lost, the opponent (an account, the
  computer, or a guest) and whether both seats played from one address
  (``same_address``: allowed, but flagged for a moderator).  Its primary key
  ``(game_id, account_id)`` is what makes a match count once: a second attempt
  to record it, by this process or another, breaks the key and changes nothing.
  ``opponent_id`` is set to NULL when the opponent deletes their account (shown
  as "deleted player").
"""

from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Table
from sqlalchemy.orm import Mapped, mapped_column

from gammon.store.models import Base

#: ``match_results.kind``: between two accounts, rated.
RATED = "rated"
#: ``match_results.kind``: against the computer (its own record, not the rating).
COMPUTER = "computer"
#: ``match_results.kind``: against a guest (no account): recorded, not rated.
GUEST = "guest"


class PlayerRatingRow(Base):
    """An account's rating, experience and records."""

    __tablename__ = "player_ratings"

    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    rating: Mapped[float] = mapped_column(Float(precision=53), nullable=False)
    experience: Mapped[int] = mapped_column(Integer, nullable=False)
    rated_wins: Mapped[int] = mapped_column(Integer, nullable=False)
    rated_losses: Mapped[int] = mapped_column(Integer, nullable=False)
    computer_wins: Mapped[int] = mapped_column(Integer, nullable=False)
    computer_losses: Mapped[int] = mapped_column(Integer, nullable=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)

    __table_args__ = (Index("ix_player_ratings_board", "experience", "rating"),)


class MatchResultRow(Base):
    """A finished match as one account played it: the result and what it did to the rating."""

    __tablename__ = "match_results"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), nullable=False)
    opponent_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True)
    match_length: Mapped[int] = mapped_column(Integer, nullable=False)
    won: Mapped[bool] = mapped_column(Boolean, nullable=False)
    rating_before: Mapped[float] = mapped_column(Float(precision=53), nullable=False)
    rating_after: Mapped[float] = mapped_column(Float(precision=53), nullable=False)
    experience_after: Mapped[int] = mapped_column(Integer, nullable=False)
    same_address: Mapped[bool] = mapped_column(Boolean, nullable=False)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)

    __table_args__ = (Index("ix_match_results_account", "account_id", "finished_at"),)


PLAYER_RATINGS = cast(Table, PlayerRatingRow.__table__)
MATCH_RESULTS = cast(Table, MatchResultRow.__table__)

__all__ = ["COMPUTER", "GUEST", "MATCH_RESULTS", "PLAYER_RATINGS", "RATED", "MatchResultRow", "PlayerRatingRow"]
