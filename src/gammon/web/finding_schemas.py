"""The shapes of the API for finding an opponent (pydantic): the rated queue, challenges, live games."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field


class QueueRequest(BaseModel):
    """Join the rated queue for a match length."""

    model_config = ConfigDict(extra="forbid")

    match_length: int = Field(ge=1, le=64, description="Points to win: 1, 3, 5, 7, 9 or 11")


class QueueStatus(BaseModel):
    """Where the logged-in account stands in the rated queue.

    ``waiting``: in the queue of ``match_length`` for ``waited`` seconds, paired with anyone whose
    rating is within ``gap`` points (it widens as time passes); ``matched``: a game was made,
    ``game_id`` and ``seat`` (take a token for it with ``POST /api/account/games/{game_id}/token``);
    ``idle``: in no queue.
    """

    state: str
    match_length: int | None = None
    waited: float = 0.0
    gap: float = 0.0
    game_id: str | None = None
    seat: int | None = None
    waiting: dict[int, int] = Field(default_factory=dict,
                                    description="How many players wait in each queue, by match length")


class ChallengeRequest(BaseModel):
    """Challenge the player ``name`` to a match."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=100)
    match_length: int = Field(ge=1, le=64)


class ChallengeOut(BaseModel):
    """A challenge: ``open`` until answered or expired, then ``accepted`` (with its game),
    ``declined`` or ``cancelled``."""

    id: str
    challenger: str
    challenged: str
    match_length: int
    status: str
    game_id: str | None = None
    expires_in: float


class ChallengeList(BaseModel):
    """The challenges the logged-in account received and sent."""

    received: list[ChallengeOut]
    sent: list[ChallengeOut]


class LiveGameOut(BaseModel):
    """A game between two people being played: watch it at ``/game/{game_id}`` or its socket."""

    game_id: str
    players: list[str]
    match_length: int
    score: list[int]
    updated_at: datetime


class LiveList(BaseModel):
    """Who is online (accounts seen in the last five minutes) and the games being played."""

    online: list[str]
    games: list[LiveGameOut]


class UploadedReview(BaseModel):
    """An uploaded record, ready to review at ``url`` (kept in the server's memory for a while)."""

    id: str
    url: str
