"""Players in public: a player's profile (rating, record, rating graph, finished matches) and the
leaderboard.  Both are open to anyone, logged in or not; neither shows anything private (no seat
tokens, no addresses, no flags)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from starlette.concurrency import run_in_threadpool

from gammon.store.accounts import DELETED_NAME
from gammon.store.rating_models import COMPUTER, GUEST
from gammon.store.ratings import ResultRecord
from gammon.web.account_schemas import PlayerProfile
from gammon.web.deps import AccountsDep, RatingsDep
from gammon.web.rating_schemas import FinishedMatch, Leaderboard, LeaderboardEntry, PlayerRecord, RatingPoint
from gammon.web.schemas import ErrorResponse
from gammon.web.service import NotFoundError
from gammon.web.service.ratings import DEFAULT_MIN_EXPERIENCE, MAX_OFFSET, MAX_PAGE, RatingService

router = APIRouter(tags=["accounts"])


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    text = {404: "No such player", 422: "A malformed request, or paging beyond the bounds"}
    return {s: {"model": ErrorResponse, "description": text[s]} for s in statuses}


def _opponent(r: ResultRecord) -> str:
    if r.kind == COMPUTER:
        return "computer"
    if r.kind == GUEST:
        return "guest"
    return r.opponent_name or DELETED_NAME


def _match(r: ResultRecord) -> FinishedMatch:
    return FinishedMatch(game_id=r.game_id, kind=r.kind, opponent=_opponent(r),  # type: ignore[arg-type]
                         length=r.match_length, result="won" if r.won else "lost",
                         rating_change=r.rating_after - r.rating_before, finished=r.finished_at)


def player_profile(accounts: Any, ratings: RatingService, name: str) -> PlayerProfile:
    """The public profile of the player ``name`` (their unrecorded finished matches recorded first).

    :raises NotFoundError: no such player.
    """
    found = accounts.profile(name)
    if found is None:
        raise NotFoundError("no such player")
    account, finished = found
    ratings.catch_up(account.id, [s.game_id for s in finished])
    standing = ratings.standing(account.id)
    return PlayerProfile(
        name=account.name, created=account.created_at, games_finished=len(finished),
        rating=standing.rating, experience=standing.experience,
        record=PlayerRecord(rated_wins=standing.rated_wins, rated_losses=standing.rated_losses,
                            computer_wins=standing.computer_wins, computer_losses=standing.computer_losses),
        rating_history=[RatingPoint(time=r.finished_at, rating=r.rating_after)
                        for r in ratings.rating_points(account.id)],
        matches=[_match(r) for r in ratings.history(account.id)],
    )


@router.get("/players/{name}", response_model=PlayerProfile, responses=_errors(404),
            summary="A player's public profile: rating, experience, record, rating graph, finished matches")
async def player(name: Annotated[str, Path(min_length=1, max_length=100)], accounts: AccountsDep,
                 ratings: RatingsDep) -> PlayerProfile:
    return await run_in_threadpool(player_profile, accounts, ratings, name)


@router.get("/leaderboard", response_model=Leaderboard, responses=_errors(422),
            summary="The leaderboard: players with at least min_experience, best FIBS rating first")
async def leaderboard(ratings: RatingsDep,
                      min_experience: Annotated[int, Query(ge=0, le=1_000_000)] = DEFAULT_MIN_EXPERIENCE,
                      limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
                      offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0) -> Leaderboard:
    total, rows = await run_in_threadpool(ratings.leaderboard, min_experience, limit, offset)
    return Leaderboard(min_experience=min_experience, total=total, offset=offset, players=[
        LeaderboardEntry(rank=offset + i + 1, name=r.name, rating=r.rating, experience=r.experience,
                         rated_wins=r.rated_wins, rated_losses=r.rated_losses) for i, r in enumerate(rows)])


__all__ = ["player_profile", "router"]
