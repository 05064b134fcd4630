"""Finding an opponent: the rated queue, challenges to a named player, who is online, live games.

Queues and challenges are for accounts (a guest gets 401 and keeps the lobby); the state lives in
this server process (:mod:`gammon.web.service.matchmaking`).  A game made by either is an
ordinary game between the two accounts' seats: each player takes a token for their seat with
``POST /api/account/games/{game_id}/token``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from starlette.concurrency import run_in_threadpool

from gammon.web.deps import FindingDep
from gammon.web.finding_schemas import (
    ChallengeList,
    ChallengeOut,
    ChallengeRequest,
    LiveGameOut,
    LiveList,
    QueueRequest,
    QueueStatus,
    UploadedReview,
)
from gammon.web.ratelimit import client_key
from gammon.web.routes.accounts import CurrentAccount
from gammon.web.schemas import ErrorResponse
from gammon.web.service.errors import InvalidError, NotFoundError
from gammon.web.service.finding import Finding
from gammon.web.service.matchmaking import CHALLENGE_TTL, Challenge, QueueState

router = APIRouter(tags=["finding"])


ChallengeId = Annotated[str, Path(min_length=1, max_length=32)]


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    text = {401: "Not logged in", 403: "Not yours to do, or a request from another site's page",
            404: "No such player or challenge", 409: "Already in another queue, a challenge to yourself, "
            "too many open challenges, or one answered already", 422: "A malformed request or a length "
            "with no queue"}
    return {s: {"model": ErrorResponse, "description": text[s]} for s in statuses}


def _status(finding: Finding, state: QueueState) -> QueueStatus:
    return QueueStatus(state=state.state, match_length=state.match_length, waited=state.waited, gap=state.gap,
                       game_id=state.game_id, seat=state.seat, waiting=finding.queue.waiting_counts())


def _challenge(c: Challenge, now: float) -> ChallengeOut:
    return ChallengeOut(id=c.id, challenger=c.sender.name, challenged=c.to_name, match_length=c.length,
                        status=c.status, game_id=c.game_id,
                        expires_in=round(max(0.0, c.created + CHALLENGE_TTL - now), 1))


@router.post("/queue", response_model=QueueStatus, responses=_errors(401, 403, 409, 422),
             summary="Join the rated queue for a match length (you are paired with the closest rating waiting)")
async def join_queue(body: QueueRequest, request: Request, account: CurrentAccount,
                     finding: FindingDep) -> QueueStatus:
    seeker = await run_in_threadpool(finding.seeker, account, client_key(request.scope))
    state = await run_in_threadpool(finding.queue.join, seeker, body.match_length)
    return _status(finding, state)


@router.get("/queue", response_model=QueueStatus, responses=_errors(401),
            summary="Your place in the rated queue: waiting, matched (the game) or idle")
async def queue_state(account: CurrentAccount, finding: FindingDep) -> QueueStatus:
    state = await run_in_threadpool(finding.queue.state, account.id)
    return _status(finding, state)


@router.delete("/queue", response_model=QueueStatus, responses=_errors(401, 403),
               summary="Leave the rated queue")
async def leave_queue(account: CurrentAccount, finding: FindingDep) -> QueueStatus:
    finding.queue.leave(account.id)
    return _status(finding, QueueState("idle"))


@router.post("/challenges", status_code=201, response_model=ChallengeOut,
             responses=_errors(401, 403, 404, 409, 422), summary="Challenge a named player to a match")
async def challenge(body: ChallengeRequest, request: Request, account: CurrentAccount,
                    finding: FindingDep) -> ChallengeOut:
    target = await run_in_threadpool(finding.account_named, body.name)
    if target is None:
        raise NotFoundError("no such player")
    seeker = await run_in_threadpool(finding.seeker, account, client_key(request.scope))
    c = finding.challenges.send(seeker, target.id, target.name, body.match_length)
    return _challenge(c, finding.challenges.now())


@router.get("/challenges", response_model=ChallengeList, responses=_errors(401),
            summary="The challenges you received and sent (open or answered, until they expire)")
async def my_challenges(account: CurrentAccount, finding: FindingDep) -> ChallengeList:
    got, sent = finding.challenges.of(account.id)
    now = finding.challenges.now()
    return ChallengeList(received=[_challenge(c, now) for c in got], sent=[_challenge(c, now) for c in sent])


async def _answer(request: Request, account: Any, finding: Finding, challenge_id: str,
                  accept: bool) -> ChallengeOut:
    me = await run_in_threadpool(finding.seeker, account, client_key(request.scope))
    c = await run_in_threadpool(finding.challenges.answer, challenge_id, me, accept)
    return _challenge(c, finding.challenges.now())


@router.post("/challenges/{challenge_id}/accept", response_model=ChallengeOut,
             responses=_errors(401, 403, 404, 409), summary="Accept a challenge: the match is made")
async def accept(challenge_id: ChallengeId, request: Request, account: CurrentAccount,
                 finding: FindingDep) -> ChallengeOut:
    return await _answer(request, account, finding, challenge_id, True)


@router.post("/challenges/{challenge_id}/decline", response_model=ChallengeOut,
             responses=_errors(401, 403, 404, 409), summary="Decline a challenge (its sender: withdraw it)")
async def decline(challenge_id: ChallengeId, request: Request, account: CurrentAccount,
                  finding: FindingDep) -> ChallengeOut:
    return await _answer(request, account, finding, challenge_id, False)


@router.get("/live", response_model=LiveList,
            summary="Who is online, and the games between people being played now (to watch)")
async def live(finding: FindingDep) -> LiveList:
    games = finding.live_games()
    return LiveList(online=finding.presence.online(), games=[
        LiveGameOut(game_id=g.game_id, players=list(g.players), match_length=g.match_length,
                    score=list(g.score), updated_at=g.updated_at) for g in games])


@router.post("/reviews", status_code=201, response_model=UploadedReview, responses=_errors(401, 403, 422),
             summary="Upload a .mat, SGF or JSON record (the request's body, at most 64 KiB) to review it "
                     "at /review/upload/{id}")
async def upload_review(request: Request, account: CurrentAccount,
                        format: Annotated[str, Query(pattern="^(mat|sgf|json)$")]) -> UploadedReview:
    body = await request.body()  # the body limit (64 KiB) was applied before this runs
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidError("the record is not UTF-8 text", "invalid_record") from None
    upload_id = await run_in_threadpool(request.app.state.uploads.add, text, f".{format}")
    return UploadedReview(id=upload_id, url=f"/review/upload/{upload_id}")


__all__ = ["router"]
