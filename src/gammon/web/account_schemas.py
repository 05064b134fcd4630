"""The shapes of the account API's requests and answers (pydantic), apart from the games' schemas."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from gammon.web.passwords import PASSWORD_MAX_LENGTH
from gammon.web.rating_schemas import FinishedMatch, PlayerRecord, RatingPoint


class Credentials(BaseModel):
    """A name and a password: to sign up, or to log in."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=100, description="The account's name")
    password: str = Field(min_length=1, max_length=PASSWORD_MAX_LENGTH, description="Its password")


class PasswordChange(BaseModel):
    """The password now (asked for again) and the new one."""

    model_config = ConfigDict(extra="forbid")

    password: str = Field(min_length=1, max_length=PASSWORD_MAX_LENGTH)
    new_password: str = Field(min_length=1, max_length=PASSWORD_MAX_LENGTH)


class PasswordConfirm(BaseModel):
    """The account's password, asked for again before something that cannot be undone."""

    model_config = ConfigDict(extra="forbid")

    password: str = Field(min_length=1, max_length=PASSWORD_MAX_LENGTH)


class AccountInfo(BaseModel):
    """The logged-in account, as its owner sees it."""

    name: str
    created: datetime
    password_changed: datetime


class AccountSeat(BaseModel):
    """A seat the account holds in a game."""

    game_id: str
    seat: int
    status: str


class AccountPrivate(AccountInfo):
    """The account with what only its owner may read: its seats and how many sessions it has."""

    sessions: int
    seats: list[AccountSeat]


class PlayerProfile(BaseModel):
    """A player's public profile: the FIBS rating and experience, the record, the rating graph
    (oldest first) and the finished matches (newest first)."""

    name: str
    created: datetime
    games_finished: int
    rating: float = Field(description="The FIBS rating (1500 before the first rated match)")
    experience: int = Field(description="The sum of the lengths of the rated matches finished")
    record: PlayerRecord
    rating_history: list[RatingPoint]
    matches: list[FinishedMatch]


class LoggedOut(BaseModel):
    """The answer to logging out: how many sessions ended."""

    sessions_ended: int


class AccountDeleted(BaseModel):
    """The answer to deleting an account: the games that now show "deleted player"."""

    deleted: bool
    games_renamed: int


class SeatToken(BaseModel):
    """A fresh token for a seat the logged-in account holds (the seat's old token stops working)."""

    game_id: str
    seat: int
    token: str


__all__ = ["AccountDeleted", "AccountInfo", "AccountPrivate", "AccountSeat", "Credentials", "LoggedOut",
           "PasswordChange", "PasswordConfirm", "PlayerProfile", "SeatToken"]
