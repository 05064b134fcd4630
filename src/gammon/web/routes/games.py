"""Games: create, join, read, act, the action record, dice verification and exports."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query, Request
from fastapi.responses import PlainTextResponse, Response
from starlette.concurrency import run_in_threadpool

from gammon.web.deps import ServiceDep, SettingsDep, TokenDep
from gammon.web.language import request_language
from gammon.web.ratelimit import client_key
from gammon.web.routes.accounts import OptionalAccount
from gammon.web.routes.chat import export_with_chat
from gammon.web.schemas import (
    ActionLog,
    ActionRequest,
    ActionResult,
    AnalysisResult,
    CreatedGame,
    CreateGameRequest,
    ErrorResponse,
    GameState,
    HintResult,
    Invitation,
    Joined,
    JoinRequest,
    Links,
    StepAnswer,
    StepQuery,
    VerifyResult,
)
from gammon.web.service import Command, ConflictError, ForbiddenError, GameSetup

router = APIRouter(prefix="/games", tags=["games"])

GameId = Annotated[str, Path(min_length=1, max_length=32, description="The game's id (public)")]
#: ``?chat=1`` on an export: add the chat the seat of the token is sent (JSON only; none by default).
ChatFlag = Annotated[bool, Query(description="Add your seat's chat (JSON only, a seat's token)")]


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    text = {403: "The token holds no seat in this game", 404: "No such game",
            410: "The invitation has been used: the seat is taken",
            409: "The action does not fit the game now (out of turn, illegal, stale version)",
            422: "A malformed request", 429: "Too many requests, or too much of your work waiting: see "
                                              "Retry-After"}
    return {s: {"model": ErrorResponse, "description": text[s]} for s in statuses}


def state_of(view: GameState) -> GameState:
    return view


def links(public_url: str | None, game_id: str, invite: str | None) -> Links:
    """The links of a new game: under ``public_url`` when configured, else relative to the server.

    The request's ``Host`` header never goes into a link (``Host: evil.example`` would send the
    invitation there), and no token goes where a server would see it: the socket takes the seat's
    token in its first message, the invitation rides in the join page's URL fragment.
    """
    base = public_url or ""
    api = f"{base}/api/games/{game_id}"
    ws = api.replace("http://", "ws://", 1).replace("https://", "wss://", 1) + "/ws"
    return Links(state=api, websocket=ws, spectate=ws,
                 invite=f"{base}/join/{game_id}#invite={invite}" if invite else None)


@router.post("", status_code=201, response_model=CreatedGame, responses=_errors(422),
             summary="Create a game or match against the computer or a person")
async def create_game(body: CreateGameRequest, request: Request, service: ServiceDep,
                      settings: SettingsDep, account: OptionalAccount) -> CreatedGame:
    setup = GameSetup(
        opponent=body.opponent, variant=body.variant, match_length=body.match_length, games=body.games,
        crawford=body.crawford, jacoby=body.jacoby, beavers=body.beavers,
        automatic_doubles=body.automatic_doubles, cube_limit=body.cube_limit, gammons=body.gammons,
        cube=body.cube, opening=body.opening, computer_level=body.computer_level, seat=body.seat,
        name=account.name if account is not None else body.name,  # a logged-in player plays as their account
        opponent_name=body.opponent_name, hints=body.hints, public=body.public,
        clock_delay=body.clock_delay, clock_reserve=body.clock_reserve, dice=body.dice,
        test_seed=bytes.fromhex(body.test_seed) if body.test_seed else None,
    )
    # Public games are counted per address (at most two in the lobby at once) while the limits are on.
    host = client_key(request.scope) if settings.rate_limits.enabled else None
    created = await run_in_threadpool(service.create_game, setup, host)
    if account is not None:  # the seat is the account's too, not only this device's token's
        await run_in_threadpool(request.app.state.accounts.take_seat, account, created.game_id, created.seat,
                                client_key(request.scope))
    return CreatedGame(
        game_id=created.game_id, seat=created.seat, token=created.token, invite_token=created.invite_token,
        links=links(settings.public_url, created.game_id, created.invite_token),
        state=state_of(created.view),
    )


@router.get("/{game_id}", response_model=GameState, responses=_errors(403, 404),
            summary="The state of a game (your seat's view with a token, a spectator's without)")
async def get_game(game_id: GameId, request: Request, service: ServiceDep, token: TokenDep) -> GameState:
    view = await run_in_threadpool(service.view, game_id, token)
    if view.to_act is not None and view.seats[view.to_act].kind == "computer":
        # The computer owes a move (its process may have stopped mid-turn): see that it is made.
        request.app.state.kick_computer(game_id)
    return state_of(view)


@router.get("/{game_id}/invitation", response_model=Invitation, responses=_errors(403, 404, 410),
            summary="What an open invitation offers (send the invitation as the token)")
async def invitation(game_id: GameId, service: ServiceDep, token: TokenDep) -> Invitation:
    if not token:
        raise ForbiddenError("send the invitation as the token")
    invitation: Invitation = await run_in_threadpool(service.invitation, game_id, token)
    return invitation


@router.post("/{game_id}/join", response_model=Joined, responses=_errors(403, 404, 409, 410, 422),
             summary="Use an invitation (single-use; none for a public game): you get the seat and a seat "
                     "token of your own")
async def join_game(game_id: GameId, request: Request, service: ServiceDep, token: TokenDep,
                    account: OptionalAccount, body: Annotated[JoinRequest | None, Body()] = None) -> Joined:
    name = account.name if account is not None else body.name if body else None
    accounts = request.app.state.accounts
    if account is not None and await run_in_threadpool(accounts.holds_seat_in, account, game_id):
        # One account in both seats would play (and rate) a match against itself.
        raise ConflictError("your account holds the other seat of this game already", "own_game")
    joined = await run_in_threadpool(service.join, game_id, token, name)
    if account is not None:
        await run_in_threadpool(request.app.state.accounts.take_seat, account, game_id, joined.seat,
                                client_key(request.scope))
    return Joined(seat=joined.seat, token=joined.token, state=state_of(joined.view))


@router.post("/{game_id}/rematch", response_model=Joined, responses=_errors(403, 404, 409, 410),
             summary="After the game: a rematch with the same settings (the first to ask creates it, the "
                     "other player takes the other seat); you get your seat's token in the new game")
async def rematch(game_id: GameId, service: ServiceDep, token: TokenDep) -> Joined:
    if not token:
        raise ForbiddenError("a rematch needs your seat's token in this game")
    joined = await run_in_threadpool(service.rematch, game_id, token)
    return Joined(seat=joined.seat, token=joined.token, state=joined.view)


@router.post("/{game_id}/cancel", response_model=GameState, responses=_errors(403, 404, 409),
             summary="Cancel a game before it is played: while nobody has joined it, or when your opponent "
                     "has not made a single move for 30 s; it ends with no result")
async def cancel(game_id: GameId, service: ServiceDep, token: TokenDep) -> GameState:
    if not token:
        raise ForbiddenError("cancelling needs your seat's token")
    view: GameState = await run_in_threadpool(service.cancel, game_id, token)
    return view


@router.post("/{game_id}/actions", response_model=ActionResult, responses=_errors(403, 404, 409, 422),
             summary="Act: roll, play, double, take, drop, beaver, resign, accept, reject, choose-double")
async def act(game_id: GameId, body: Annotated[ActionRequest, Body()], service: ServiceDep,
              token: TokenDep) -> ActionResult:
    if not token:
        raise ForbiddenError("acting needs your seat's token")
    command = Command(
        type=body.type,
        play=getattr(body, "play", None),
        kind=getattr(body, "kind", "single"),
        number=getattr(body, "number", None),
    )
    acted = await run_in_threadpool(service.act, game_id, token, command, body.expected_version)
    assert acted.view is not None
    return ActionResult(
        version=acted.version,
        actions=acted.actions,
        state=state_of(acted.view),
    )


@router.get("/{game_id}/actions", response_model=ActionLog, responses=_errors(404),
            summary="The stored actions (dice included), after action number `after`")
async def action_log(game_id: GameId, service: ServiceDep,
                     after: Annotated[int, Query(ge=0, le=10_000_000)] = 0) -> ActionLog:
    version, actions = await run_in_threadpool(service.action_log, game_id, after)
    return ActionLog(game_id=game_id, version=version,
                     actions=actions)


@router.get("/{game_id}/hint", response_model=HintResult, responses=_errors(403, 404, 409, 422),
            summary="The best plays of the roll you have to play (your seat's token)")
async def hint(game_id: GameId, service: ServiceDep, token: TokenDep,
               count: Annotated[int, Query(ge=1, le=50)] = 5) -> HintResult:
    if not token:
        raise ForbiddenError("a hint needs your seat's token")
    hint: HintResult = await run_in_threadpool(service.hint, game_id, token, count)
    return hint


@router.post("/{game_id}/why-not", response_model=StepAnswer, responses=_errors(404, 409, 422),
             summary="Why a checker cannot go from one point to another now: gammon.core's rule, as a code "
                     "and a sentence (the page asks this when a step it tried is not in the step tree)")
async def why_not(game_id: GameId, body: Annotated[StepQuery, Body()], request: Request,
                  service: ServiceDep) -> StepAnswer:
    # The code is core's; the sentence is in the page's language (gammon.web.step_words).
    answer: StepAnswer = await run_in_threadpool(service.why_not, game_id, body, request_language(request))
    return answer


@router.get("/{game_id}/analysis", response_model=AnalysisResult, responses=_errors(404, 409, 429),
            summary="Once the game is over: gammon.analysis's report (running, with the progress, until made)")
async def analysis(game_id: GameId, request: Request, service: ServiceDep, token: TokenDep) -> AnalysisResult:
    # The players of the game first; anyone else has a few analyses waiting per address.
    requester = client_key(request.scope)
    report: AnalysisResult = await run_in_threadpool(service.analysis, game_id, token, requester,
                                                     request_language(request))
    return report


@router.get("/{game_id}/verify", response_model=VerifyResult, responses=_errors(404),
            summary="The dice commitment and rolls; once the game is over, the seed and every roll checked")
async def verify(game_id: GameId, service: ServiceDep) -> VerifyResult:
    report: VerifyResult = await run_in_threadpool(service.verify, game_id)
    return report


def _text(media: str) -> dict[int | str, dict[str, Any]]:
    return {200: {"content": {media: {"schema": {"type": "string"}}}, "description": "The record"},
            **_errors(404, 422)}


@router.get("/{game_id}/export.mat", response_class=PlainTextResponse, responses=_text("text/plain"),
            summary="The match as a Jellyfish .mat file (GNU Backgammon and eXtreme Gammon import it)")
async def export_mat(game_id: GameId, request: Request, service: ServiceDep, token: TokenDep,
                     chat: ChatFlag = False) -> Response:
    text = await run_in_threadpool(service.export, game_id, "mat")
    if chat:
        text = await export_with_chat(request, game_id, token, "mat", text)
    return PlainTextResponse(text, headers=_attachment(game_id, "mat"))


@router.get("/{game_id}/export.sgf", response_class=PlainTextResponse,
            responses=_text("application/x-go-sgf"), summary="The match as SGF (GNU Backgammon's flavour)")
async def export_sgf(game_id: GameId, request: Request, service: ServiceDep, token: TokenDep,
                     chat: ChatFlag = False) -> Response:
    text = await run_in_threadpool(service.export, game_id, "sgf")
    if chat:
        text = await export_with_chat(request, game_id, token, "sgf", text)
    return Response(text, media_type="application/x-go-sgf", headers=_attachment(game_id, "sgf"))


@router.get("/{game_id}/export.json", response_class=Response, responses=_text("application/json"),
            summary="gammon's JSON match record (every action, the dice commitment, the seed once over)")
async def export_json(game_id: GameId, request: Request, service: ServiceDep, token: TokenDep,
                     chat: ChatFlag = False) -> Response:
    text = await run_in_threadpool(service.export, game_id, "json")
    if chat:
        text = await export_with_chat(request, game_id, token, "json", text)
    return Response(text, media_type="application/json", headers=_attachment(game_id, "json"))


def _attachment(game_id: str, ext: str) -> dict[str, str]:
    safe = "".join(c for c in game_id if c.isalnum() or c in "-_")
    return {"Content-Disposition": f'attachment; filename="gammon-{safe}.{ext}"'}
