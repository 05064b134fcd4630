"""Helpers for testing and load-testing the server: run it in a subprocess, play it with a simple client.

Not used by the server itself.  :class:`ServerProcess` starts ``python -m
gammon.web`` on a free port and waits until it answers; :func:`pick_action`
is a minimal client-side player that chooses an action from a state as the
API returns it.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pick_action(state: Mapping[str, Any], rng: random.Random | None = None) -> dict[str, Any] | None:
    """An action for the seat whose state this is, or None when it has nothing to do.

    Plays the first legal play (a random one with ``rng``), never doubles,
    takes every double, accepts every resignation, names 6s in Acey-Deucey.
    """
    allowed = state.get("allowed_actions") or []
    if "play" in allowed:
        plays = state.get("legal_plays") or []
        if not plays:
            return None
        choice = plays[rng.randrange(len(plays))] if rng is not None else plays[0]
        return {"type": "play", "play": choice["notation"]}
    for kind in ("roll", "take", "accept"):
        if kind in allowed:
            return {"type": kind}
    if "choose-double" in allowed:
        return {"type": "choose-double", "number": 6}
    return None


class ServerProcess:
    """``python -m gammon.web`` in a subprocess, on ``port`` (a free one by default).

    ``env`` adds environment variables (``GAMMON_ALLOW_TEST_SEEDS`` is set, and the rate limits are
    off unless ``env`` sets ``GAMMON_RATE_LIMITS=1``: test clients all come from one address);
    ``args`` adds command-line options (``--max-connections-per-address 1000`` for a load test).
    Use as a context manager or call :meth:`start` and :meth:`stop`/:meth:`kill`.
    """

    def __init__(self, database_url: str, port: int | None = None, env: Mapping[str, str] | None = None,
                 log_path: str | Path | None = None, args: Sequence[str] = (),
                 log_level: str = "warning") -> None:
        self.database_url = database_url
        self.port = port or free_port()
        self.env = {**os.environ, "GAMMON_ALLOW_TEST_SEEDS": "1", "GAMMON_RATE_LIMITS": "0", **(env or {})}
        self.env.pop("GAMMON_DATABASE_URL", None)
        self.log_path = Path(log_path) if log_path else None
        self.args = list(args)
        self.log_level = log_level
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0, wait_listening: bool = False) -> ServerProcess:
        out = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gammon.web", "--host", "127.0.0.1", "--port", str(self.port),
             "--database-url", self.database_url, "--log-level", self.log_level, *self.args],
            env=self.env, stdout=out, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode} while starting"
                                   + (f"; see {self.log_path}" if self.log_path else ""))
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=2) as r:
                    health = json.loads(r.read())
                if not wait_listening or health.get("notifications") != "connecting":
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"the server did not answer within {timeout} s")

    def kill(self) -> None:
        """SIGKILL: the process dies at once, as in a crash."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 10 s."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> ServerProcess:
        return self.start() if self.proc is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def reset_postgres(url: str) -> None:
    """Drop gammon's tables (and Alembic's) so the next start migrates from nothing."""
    from sqlalchemy import text

    from gammon.store.db import make_engine

    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text("DROP TABLE IF EXISTS actions, games, server_heartbeat, outages, "
                              "alembic_version, account_seats, account_sessions, accounts, chat_messages, "
                              "chat_settings, player_ratings, match_results CASCADE"))
    finally:
        engine.dispose()




def auth_message(token: str | None = None) -> str:
    """A game socket's first message: the seat's token, or none to watch."""
    return json.dumps({"type": "auth", "token": token} if token else {"type": "auth"})


@contextlib.contextmanager
def connect_game(url: str, token: str | None = None, **kwargs: Any) -> Iterator[Any]:
    """A synchronous ``websockets`` client on a game socket ``url``, authenticated with ``token``
    (a spectator without), as the page does: the token in the first message, never in the URL."""
    from websockets.sync.client import connect

    with connect(url, **kwargs) as ws:
        ws.send(auth_message(token))
        yield ws


class ThreadedServer:
    """A uvicorn server for ``app`` in a background thread of this process (real sockets, quick start)."""

    def __init__(self, app: Any, port: int | None = None,
                 max_connections_per_address: int | None = None) -> None:
        import threading

        import uvicorn

        from gammon.web.server import uvicorn_config

        self.port = port or free_port()
        # The server's own settings (request-head limits, no banner, ...), without the per-address
        # connection cap: every test client comes from 127.0.0.1.
        config = uvicorn_config(app, log_level="warning", host="127.0.0.1", port=self.port, lifespan="on",
                                max_connections_per_address=max_connections_per_address)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name=f"uvicorn-{self.port}", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> ThreadedServer:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)

    def __enter__(self) -> ThreadedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


__all__ = ["ServerProcess", "ThreadedServer", "auth_message", "connect_game", "free_port", "pick_action",
           "reset_postgres"]


def staged_game(url: str, seed: bytes, *, dice: str = "dice", actions: int = 16) -> tuple[str, str]:
    """A game between two people on the server at ``url``, played ``actions`` actions in (first
    legal plays, both seats through the API) and left with seat 0's roll on the board: for pages
    to be looked at in the middle of a game (screenshots, theme tests).

    Returns ``(game_id, seat 0's token)``.  The server must allow test seeds.
    """
    import httpx

    with httpx.Client(base_url=url, timeout=60) as c:
        made = c.post("/api/games", json={"opponent": "human", "dice": dice, "test_seed": seed.hex()})
        made.raise_for_status()
        gid, invite = made.json()["game_id"], made.json()["invite_token"]
        joined = c.post(f"/api/games/{gid}/join", json={"name": "Bob"},
                        headers={"Authorization": f"Bearer {invite}"})
        joined.raise_for_status()
        tokens = (made.json()["token"], joined.json()["token"])

        def step(seat: int) -> bool:
            headers = {"Authorization": f"Bearer {tokens[seat]}"}
            action = pick_action(c.get(f"/api/games/{gid}", headers=headers).json())
            if action is not None:
                c.post(f"/api/games/{gid}/actions", json=action, headers=headers).raise_for_status()
            return action is not None

        def ready() -> bool:
            s = c.get(f"/api/games/{gid}").json()
            return bool(s["dice"]) and s["turn"] == 0 and s["phase"] == "move"

        done = 0
        while done < actions or not ready():
            if done > actions + 12 or not (step(0) or step(1)):
                break
            done += 1
        return gid, tokens[0]
