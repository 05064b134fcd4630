"""The shapes of the rating answers (pydantic): a player's record, rating graph and matches, the
leaderboard."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field


class PlayerRecord(BaseModel):
    """Matches won and lost: rated (between accounts) and, apart, against the computer."""

    rated_wins: int
    rated_losses: int
    computer_wins: int
    computer_losses: int


class RatingPoint(BaseModel):
    """The rating after a rated match, at the time it finished: one point of the rating graph."""

    time: datetime
    rating: float


class FinishedMatch(BaseModel):
    """A finished match in a player's history."""

    game_id: str
    kind: Literal["rated", "computer", "guest"] = Field(
        description="rated: between two accounts; computer: against the computer (its own record); "
                    "guest: against a player without an account (not rated)")
    opponent: str = Field(description="The opponent's name: an account's, \"computer\", \"guest\" or "
                                      "\"deleted player\"")
    length: int = Field(description="The match length in points")
    result: Literal["won", "lost"]
    rating_change: float = Field(description="What the match did to the rating (0 unless rated)")
    finished: datetime


class LeaderboardEntry(BaseModel):
    """One line of the leaderboard."""

    rank: int
    name: str
    rating: float
    experience: int
    rated_wins: int
    rated_losses: int


class Leaderboard(BaseModel):
    """A page of the leaderboard: players with at least ``min_experience``, best rating first."""

    min_experience: int
    total: int = Field(description="How many players are listed in all (every page)")
    offset: int
    players: list[LeaderboardEntry]


__all__ = ["FinishedMatch", "Leaderboard", "LeaderboardEntry", "PlayerRecord", "RatingPoint"]
