"""Accounts: sign up, log in and out, the account itself, password changes, deletion, profiles.

The session travels in the cookie of :mod:`gammon.web.sessions`; a script keeps
the cookie the answers set and sends it back (with an ``Origin`` naming the
server on state-changing requests).  Password hashing runs in worker threads.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response
from starlette.concurrency import run_in_threadpool

from gammon.store.accounts import AccountRecord
from gammon.web.account_schemas import (
    AccountDeleted,
    AccountInfo,
    AccountPrivate,
    AccountSeat,
    Credentials,
    LoggedOut,
    PasswordChange,
    PasswordConfirm,
    SeatToken,
)
from gammon.web.deps import AccountsDep, SettingsDep
from gammon.web.ratelimit import client_key
from gammon.web.schemas import ErrorResponse
from gammon.web.service.accounts import SESSION_LIFETIME, LoggedIn
from gammon.web.sessions import COOKIE_NAME, clear_session_cookie, set_session_cookie

router = APIRouter(tags=["accounts"])


def get_session_id(request: Request) -> str | None:
    """The session id of the request's cookie (None without one)."""
    return request.cookies.get(COOKIE_NAME) or None


SessionDep = Annotated[str | None, Depends(get_session_id)]


def _seen(request: Request, account: AccountRecord | None) -> None:
    """Note the account as online (the list of ``GET /api/live``)."""
    finding = getattr(request.app.state, "finding", None)
    if account is not None and finding is not None:
        finding.presence.seen(account.id, account.name)


async def current_account(request: Request, accounts: AccountsDep, session_id: SessionDep) -> AccountRecord:
    """The logged-in account, or 401 ``not_logged_in``."""
    account = await run_in_threadpool(accounts.require, session_id)
    _seen(request, account)
    return account


CurrentAccount = Annotated[AccountRecord, Depends(current_account)]


async def optional_account(request: Request, accounts: AccountsDep,
                           session_id: SessionDep) -> AccountRecord | None:
    """The logged-in account, or None for a guest (no cookie, or one of an ended session)."""
    if session_id is None:
        return None
    account = await run_in_threadpool(accounts.account_for, session_id)
    _seen(request, account)
    return account


OptionalAccount = Annotated[AccountRecord | None, Depends(optional_account)]


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    text = {401: "Not logged in, or a wrong name or password (one answer for both)",
            403: "A request with the session cookie from another site's page",
            404: "No such player", 409: "The name, or one that looks the same, is taken",
            422: "A malformed request, or a name or password against the rules",
            429: "Too many failed logins for this name or from this address: see Retry-After"}
    return {s: {"model": ErrorResponse, "description": text[s]} for s in statuses}


def _secure(settings: Any) -> bool:
    return bool(settings.public_url and settings.public_url.startswith("https://"))


def _info(account: AccountRecord) -> AccountInfo:
    return AccountInfo(name=account.name, created=account.created_at,
                       password_changed=account.password_changed_at)


def _logged_in(response: Response, settings: Any, done: LoggedIn) -> AccountInfo:
    set_session_cookie(response, done.session_id, int(SESSION_LIFETIME.total_seconds()), _secure(settings))
    return _info(done.account)


@router.post("/accounts", status_code=201, response_model=AccountInfo, responses=_errors(403, 409, 422),
             summary="Sign up: make an account and log it in (sets the session cookie)")
async def sign_up(body: Credentials, response: Response, accounts: AccountsDep, settings: SettingsDep,
                  session_id: SessionDep) -> AccountInfo:
    done = await run_in_threadpool(accounts.sign_up, body.name, body.password, session_id)
    return _logged_in(response, settings, done)


@router.post("/session", response_model=AccountInfo, responses=_errors(401, 403, 422, 429),
             summary="Log in: a new session (the cookie changes at every login)")
async def log_in(body: Credentials, request: Request, response: Response, accounts: AccountsDep,
                 settings: SettingsDep, session_id: SessionDep) -> AccountInfo:
    done = await run_in_threadpool(accounts.log_in, body.name, body.password, client_key(request.scope),
                                   session_id)
    return _logged_in(response, settings, done)


@router.delete("/session", response_model=LoggedOut, responses=_errors(403),
               summary="Log out: this session ends")
async def log_out(response: Response, accounts: AccountsDep, settings: SettingsDep,
                  session_id: SessionDep) -> LoggedOut:
    known = session_id is not None and await run_in_threadpool(accounts.account_for, session_id) is not None
    await run_in_threadpool(accounts.log_out, session_id)
    clear_session_cookie(response, _secure(settings))
    return LoggedOut(sessions_ended=1 if known else 0)


@router.delete("/account/sessions", response_model=LoggedOut, responses=_errors(401, 403),
               summary="Log out everywhere: every session of the account ends, this one too")
async def log_out_everywhere(response: Response, account: CurrentAccount, accounts: AccountsDep,
                             settings: SettingsDep) -> LoggedOut:
    ended = await run_in_threadpool(accounts.log_out_everywhere, account)
    clear_session_cookie(response, _secure(settings))
    return LoggedOut(sessions_ended=ended)


@router.get("/account", response_model=AccountPrivate, responses=_errors(401),
            summary="The logged-in account: its seats in games and its sessions")
async def my_account(account: CurrentAccount, accounts: AccountsDep) -> AccountPrivate:
    seats = await run_in_threadpool(accounts.store.seats_of, account.id)
    sessions = await run_in_threadpool(accounts.store.count_sessions, account.id)
    return AccountPrivate(**_info(account).model_dump(), sessions=sessions,
                          seats=[AccountSeat(game_id=s.game_id, seat=s.seat, status=s.status) for s in seats])


@router.post("/account/password", response_model=AccountInfo, responses=_errors(401, 403, 422, 429),
             summary="Change the password: every session ends, and this client gets a new one")
async def change_password(body: PasswordChange, request: Request, response: Response, account: CurrentAccount,
                          accounts: AccountsDep, settings: SettingsDep, session_id: SessionDep) -> AccountInfo:
    done = await run_in_threadpool(accounts.change_password, account, body.password, body.new_password,
                                   client_key(request.scope), session_id)
    return _logged_in(response, settings, done)


@router.post("/account/delete", response_model=AccountDeleted, responses=_errors(401, 403, 429),
             summary="Delete the account: its password, sessions and name go; its games stay, "
                     "its seats named \"deleted player\"")
async def delete_account(body: PasswordConfirm, request: Request, response: Response, account: CurrentAccount,
                         accounts: AccountsDep, settings: SettingsDep) -> AccountDeleted:
    renamed = await run_in_threadpool(accounts.delete, account, body.password, client_key(request.scope))
    clear_session_cookie(response, _secure(settings))
    return AccountDeleted(deleted=True, games_renamed=len(renamed))


@router.post("/account/games/{game_id}/token", response_model=SeatToken, responses=_errors(401, 403, 404),
             summary="A fresh token for your account's seat in a game, to play it on this device "
                     "(the seat's previous token stops working)")
async def seat_token(game_id: Annotated[str, Path(min_length=1, max_length=32)], account: CurrentAccount,
                     accounts: AccountsDep) -> SeatToken:
    seat, token = await run_in_threadpool(accounts.seat_token, account, game_id)
    return SeatToken(game_id=game_id, seat=seat, token=token)


__all__ = ["CurrentAccount", "OptionalAccount", "SessionDep", "current_account", "optional_account", "router"]
