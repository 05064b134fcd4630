"""The FastAPI application: :func:`create_app` wires the store, the service and the background work.

On startup the database schema is migrated (``alembic upgrade head``), the
service is built on it, and the process starts

* the hub that pushes changes to this process's WebSockets;
* the computer driver that plays the computer's turns, resuming unfinished games;
* with PostgreSQL, a ``LISTEN`` task so that actions stored by other server
  processes reach this process's sockets too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from fastapi import FastAPI
from starlette.middleware.gzip import GZipMiddleware

from gammon.play.levels import EnginePool
from gammon.store import open_store
from gammon.web.config import Settings
from gammon.web.errors import install_error_handlers
from gammon.web.guards import ASGIApp, BodyLimitMiddleware, Message, Receive, Scope, Send
from gammon.web.hub import Hub
from gammon.web.ratelimit import RateLimiter, RateLimitMiddleware
from gammon.web.routes import api_router
from gammon.web.routes.pages import install_pages
from gammon.web.service import Change, GameService
from gammon.web.service.accounts import AccountService
from gammon.web.service.finding import Finding
from gammon.web.service.ratings import RatingService
from gammon.web.service.review import Uploads
from gammon.web.sessions import OriginCheckMiddleware
from gammon.web.tasks import ComputerDriver, Heartbeat, PgListener, forfeit_abandoned_regularly

log = logging.getLogger("gammon.web")

DESCRIPTION = """
Play backgammon over the network: against the computer or a person, money games or matches,
in any variant gammon knows, with dice that can be checked.

* **Create** a game (`POST /api/games`): you get your seat's token and, against a person, an
  invitation carrying the other seat's token. Send tokens as `Authorization: Bearer <token>`.
* **Act** with `POST /api/games/{id}/actions`; read the state with `GET /api/games/{id}`.
* **Watch** on the WebSocket `/api/games/{id}/ws`: send `{"type": "auth", "token": "<your seat's token>"}`
  as the first message (`{"type": "auth"}` to spectate; a token is never accepted in a URL), then receive
  `hello` (the full state), then `action` and `state` messages; seats may send `act` messages.
  Their shapes are the `Ws*` schemas below.
* **Fair dice**: the commitment (SHA-256 of the secret seed) is in every state from the start; the seed
  is revealed when the game ends, and `/api/games/{id}/verify` checks every roll against it.

* **Hints and analysis**: `GET /api/games/{id}/hint` ranks the plays of the roll you have to play;
  once the game is over `GET /api/games/{id}/analysis` gives `gammon analyse`'s report (error rates, PR,
  marks, mistakes explained, the equity graph): it answers `running` with the progress until it is made.
* **Links** in answers are built from the server's configured public URL (`--public-url`), or are relative.
  Answers under `/api/` are never cached (`Cache-Control: no-store`): some carry tokens.
* **In a browser**: `/` starts a game, `/game/{id}#token=...` plays it, `/join/{id}#invite=...` accepts an
  invitation, `/watch/{id}` spectates (plain HTML, CSS and JavaScript modules under `/static/`).

* **Accounts** (optional; guests need none): `POST /api/accounts` and `POST /api/session` with
  `{"name", "password"}` set an `HttpOnly; SameSite=Lax` session cookie; `DELETE /api/session` logs out,
  `DELETE /api/account/sessions` logs out everywhere, `GET /api/account`, `POST /api/account/password`,
  `POST /api/account/delete`, `GET /api/players/{name}`. Seats taken while logged in are the account's:
  `POST /api/account/games/{id}/token` gives this device a fresh token for them. A request with the
  cookie that changes anything must send an `Origin` naming this server. Failed logins are throttled
  per name and per address (429 with `Retry-After`).
* **Ratings**: a match between two accounts is rated with the FIBS formula when it ends (resignation,
  timeout and a game abandoned for a day included), once; against the computer it counts in a record of
  its own; money sessions are not rated; nobody joins their own game. `GET /api/players/{name}` gives the
  rating, experience, record, rating graph and finished matches; `GET /api/leaderboard?min_experience=&
  limit=&offset=` the best first. Pages: `/players` (the leaderboard), `/players/{name}` (with the graph).
* **Finding an opponent** (accounts): `POST /api/queue {"match_length"}` joins the rated queue of that
  length (1, 3, 5, 7, 9, 11; one queue at a time), which pairs the closest ratings waiting, accepting a
  wider gap the longer a player waits; `GET /api/queue` says `waiting`, `matched` (the game and seat: take
  its token with `POST /api/account/games/{id}/token`) or `idle`; `DELETE /api/queue` leaves.
  `POST /api/challenges {"name", "match_length"}` challenges a named player, who accepts or declines
  (`POST /api/challenges/{id}/accept|decline`; open for 5 minutes); `GET /api/challenges` lists yours.
  `GET /api/live`: who is online and the games between people being played. Page: `/rated`.
  Queues, challenges and the online list live in the server process's memory.
* **Review**: `/review/{id}` shows a finished match move by move (the boards drawn on the server; buttons
  and the arrow keys), its analysis (equity graph, each error with its cost and the better play, luck)
  and the downloads; `POST /api/reviews?format=mat|sgf|json` with a record as the body (at most 64 KiB)
  gives an upload's review at `/review/upload/{id}`.

Errors always read `{"error": {"code": ..., "message": ...}}`.

**Limits**: a request head over 16 KiB or with more than 64 headers gets 431 before it is parsed, one
that is not complete within 10 s gets 408; each address holds at most 128 connections at once; request
bodies over 64 KiB are refused (413) before they are read further, WebSocket messages
over 16 KiB or JSON nested deeper than 10 levels get an `error` message; requests over the rate limits
(per seat, per address, per address on a game, per socket, on creating games) get 429 with `Retry-After`
(on a socket: an `error` with code `rate_limited`, and the socket is not read for a while). A request
carrying a seat token spends only that seat's budget, so players behind one address never slow each
other down. Spectator sockets are capped at 16 per address and 200 per game, a seat may hold 4 sockets,
every socket message counts and pings are answered at most once a second. Rematches count as new games;
an address may have 2 public games waiting in the lobby. Analyses run the game's players first; others
may have 2 waiting per address.
"""


def warm_up(engines: EnginePool | None = None) -> None:
    """Load the compiled move generator and the bot before the first request, not during it
    (the first call of each numba function in a process loads its machine code: about a second);
    with ``engines``, the expert engine loads into that pool, where the games will find it."""
    from gammon.core.game import Game, Rules
    from gammon.core.position import Position
    from gammon.play.levels import make_computer_player
    from gammon.play.players import win_probability
    from gammon.play.session import next_action

    for variant in ("standard", "acey-deucey"):
        Position.initial(variant).legal_plays((6, 6))
        Position.initial(variant).step_tree((6, 6))  # the single-step kernel of the page's tree
    game = Game(Rules(), None)
    game.roll((3, 1))
    for level in ("heuristic", "expert"):  # loads the network and compiles the engine once
        player = make_computer_player(level, 0, engines)
        next_action(game, [player, player])
    win_probability(Position.initial())  # the cube decisions' helpers


async def _expire_regularly(service: GameService, hub: Hub) -> None:
    """Every minute (or sooner for short expiry times), expire the games nobody joined in time."""
    if service.expire_after is None:
        return
    pause = max(1.0, min(60.0, service.expire_after / 4))
    while True:
        await asyncio.sleep(pause)
        try:
            for game_id in await asyncio.to_thread(service.expire_waiting):
                hub.poke(game_id)
        except Exception:
            log.exception("expiring unjoined games failed")


async def _watch_clocks(service: GameService) -> None:
    """Twice a second, store the timeouts of players whose time has run out (the games with a clock
    are loaded first, so a restarted server watches the clocks it was watching)."""
    try:
        await asyncio.to_thread(service.load_clock_games)
    except Exception:
        log.exception("loading the games with a clock failed")
    while True:
        await asyncio.sleep(0.5)
        for game_id in service.clock_games():
            try:
                await asyncio.to_thread(service.check_clock, game_id)
            except Exception:
                log.exception("game %s: checking its clock failed", game_id)


class NoStoreMiddleware:
    """``Cache-Control: no-store`` on every answer under ``/api/``: seat tokens and invitations travel
    in some of them, and no shared or browser cache may keep any."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope.get("path", "").startswith("/api/"):
            await self.app(scope, receive, send)
            return

        async def send_no_store(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"cache-control"]
                message["headers"] = [*headers, (b"cache-control", b"no-store")]
            await send(message)

        await self.app(scope, receive, send_no_store)


def _lifespan(settings: Settings) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The server's life: open the store, warm the engine and start the service, its clocks, the
    socket hub, the computer's driver and (PostgreSQL) the change listener; stop them all at the end."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        url = settings.resolved_database_url()
        store = await asyncio.to_thread(open_store, url)
        engines = EnginePool()
        await asyncio.to_thread(warm_up, engines)
        # One server process per SQLite file; PostgreSQL may be shared by several.
        service = GameService(store, cache_size=settings.cache_size, allow_test_seeds=settings.allow_test_seeds,
                              shared=store.dialect != "sqlite", expire_after=settings.expire_unjoined,
                              analysis_plies=settings.analysis_plies, hint_level=settings.hint_level,
                              engines=engines)
        heartbeat = Heartbeat(service)  # clocks: downtime is nobody's (before any clock is looked at)
        await heartbeat.start()
        hub = Hub(service)
        driver = ComputerDriver(service, settings.computer_delay, settings.computer_workers)
        loop = asyncio.get_running_loop()

        def on_change_here(change: Change) -> None:
            hub.poke(change.game_id)
            if change.computer_due:
                driver.kick(change.game_id)

        def on_change(change: Change) -> None:  # called in worker threads after each stored change
            loop.call_soon_threadsafe(on_change_here, change)

        service.listeners.append(on_change)
        listener = None
        if store.dialect == "postgresql":
            listener = PgListener(url, hub.poke, hub.poke_all)
            listener.start()
        app.state.settings = settings
        app.state.service = service
        app.state.hub = hub
        app.state.driver = driver
        app.state.listener = listener
        app.state.kick_computer = driver.kick
        app.state.accounts, app.state.ratings = _accounts(store, service, hub, loop), _ratings(service)
        app.state.finding = Finding(service, app.state.accounts, app.state.ratings)
        app.state.uploads = Uploads()
        if settings.resume_computer_games:
            for game_id in await asyncio.to_thread(service.computer_games):
                driver.kick(game_id)
        expiry = asyncio.create_task(_expire_regularly(service, hub))
        clocks = asyncio.create_task(_watch_clocks(service))
        abandoned = asyncio.create_task(forfeit_abandoned_regularly(service, hub.poke))
        try:
            yield
        finally:
            expiry.cancel()
            clocks.cancel()
            abandoned.cancel()
            await heartbeat.close()
            hub.close_all()
            await driver.close()
            service.close()
            if listener is not None:
                await listener.close()
            store.dispose()

    return lifespan


def _ratings(service: GameService) -> RatingService:
    """The rating service, listening to the games: each finished match is recorded once, as it ends."""
    ratings = RatingService(service)
    service.listeners.append(ratings.on_change)
    return ratings


def _accounts(store: Any, service: GameService, hub: Hub, loop: asyncio.AbstractEventLoop) -> AccountService:
    """The account service; a game whose seats it renames (a deleted player) is read again and pushed."""

    def changed(game_id: str) -> None:  # called in a worker thread
        service.evict(game_id)
        loop.call_soon_threadsafe(hub.poke, game_id)

    return AccountService(store, on_game_changed=changed)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server application for ``settings`` (default: :meth:`Settings.from_env`)."""
    settings = settings or Settings.from_env()
    # No /docs or /redoc: their pages load scripts from a CDN, which the pages' CSP forbids and no
    # server should hand its visitors; /openapi.json stays for tools.
    app = FastAPI(
        title="gammon server", version="1", description=DESCRIPTION, lifespan=_lifespan(settings),
        docs_url=None, redoc_url=None,
        openapi_tags=[{"name": "games", "description": "Create, join, watch and play games"},
                      {"name": "accounts", "description": "Players' accounts and sessions"},
                      {"name": "server", "description": "The server itself"}],
    )
    install_error_handlers(app)
    # Outermost first: a request over a rate limit is refused before its body is read, and a body
    # over the size limit before it is parsed.
    limiter = RateLimiter(settings.rate_limits)
    app.state.limiter = limiter
    # Innermost: answers compressed for clients that accept it (a state with its tree of legal
    # steps is mostly repeated digits; the largest trees shrink tenfold).
    app.add_middleware(GZipMiddleware, minimum_size=2048)
    app.add_middleware(BodyLimitMiddleware)
    app.add_middleware(RateLimitMiddleware, limiter=limiter)
    app.add_middleware(NoStoreMiddleware)
    # Outermost: a cross-site request riding on the session cookie is refused before anything else.
    app.add_middleware(OriginCheckMiddleware, public_url=settings.public_url)
    app.include_router(api_router)
    install_pages(app)
    _finish_openapi(app)
    return app


def _finish_openapi(app: FastAPI) -> None:
    """Add the WebSocket messages' schemas to the OpenAPI components (OpenAPI cannot describe
    sockets), and document every 422 answer with the error shape the server really sends."""
    from fastapi.openapi.utils import get_openapi
    from pydantic.json_schema import models_json_schema

    from gammon.web.ws_messages import WS_MESSAGES

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, description=app.description,
                                 routes=app.routes, tags=app.openapi_tags)
            _, extra = models_json_schema([(m, "serialization") for m in WS_MESSAGES],
                                          ref_template="#/components/schemas/{model}")
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            for name, definition in extra.get("$defs", {}).items():
                components.setdefault(name, definition)
            # Malformed requests are answered in the one error shape, not FastAPI's default one.
            error = {"description": "A malformed request", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/ErrorResponse"}}}}
            for ops in schema.get("paths", {}).values():
                for op in ops.values():
                    for status, answer in op.get("responses", {}).items():
                        if status == "422":
                            answer.update(error)
                        elif status[0] in "45":  # errors are JSON, whatever the route's own media type
                            answer["content"] = error["content"]
            for name in ("HTTPValidationError", "ValidationError"):
                components.pop(name, None)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


__all__ = ["create_app"]
