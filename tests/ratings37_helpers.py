"""Shared helpers of the rating tests (tests/test_ratings37_*.py): an app on SQLite or on a PostgreSQL
database of these tests' own, and matches played to their end through the API."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

import webclient
from accounts37_helpers import PG_URL, SAME, TestClient, make_client, other_client, own_postgres_url, sign_up
from gammon.web.testing import reset_postgres


def rating_client(kind: str, tmp: Any) -> Iterator[TestClient]:
    """An app on a fresh SQLite file, or on the PostgreSQL database ``gammon_ratings37`` (reset)."""
    if kind == "postgresql":
        if not PG_URL:
            pytest.skip("GAMMON_TEST_POSTGRES_URL is not set: PostgreSQL tests skipped")
        url = own_postgres_url(PG_URL, "gammon_ratings37")
        reset_postgres(url)
    else:
        url = str(tmp / "gammon.db")
    yield from make_client(url)


def bearer(token: str) -> dict[str, str]:
    """A seat's Authorization header with this server's Origin (a request with the cookie needs it)."""
    return {**webclient.bearer(token), **SAME}


def player(c: TestClient, name: str) -> TestClient:
    """A new browser with a new account ``name``, logged in."""
    browser = other_client(c)
    sign_up(browser, name)
    return browser


def act(c: TestClient, gid: str, token: str, status: int = 200, **body: Any) -> dict[str, Any]:
    r = c.post(f"/api/games/{gid}/actions", json=body, headers=bearer(token))
    assert r.status_code == status, r.text
    return dict(r.json())


def state(c: TestClient, gid: str, token: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{gid}", headers=bearer(token))
    assert r.status_code == 200, r.text
    return dict(r.json())


def new_match(host: TestClient, guest: TestClient | None, **body: Any) -> tuple[str, dict[int, str], int]:
    """A game ``host`` makes and ``guest`` joins by its invitation: the id, the seats' tokens and the
    host's seat."""
    r = host.post("/api/games", json={"opponent": "human", **body}, headers=SAME)
    assert r.status_code == 201, r.text
    made = r.json()
    gid, tokens = made["game_id"], {made["seat"]: made["token"]}
    if guest is not None:
        r = guest.post(f"/api/games/{gid}/join", headers=bearer(made["invite_token"]))
        assert r.status_code == 200, r.text
        tokens[r.json()["seat"]] = r.json()["token"]
    return gid, tokens, int(made["seat"])


def resign_match(c: TestClient, gid: str, tokens: dict[int, str], loser: int,
                 kind: str = "single") -> dict[str, Any]:
    """Play the opening, then ``loser`` offers to resign (``kind``) and the other accepts: the last state."""
    for _ in range(20):
        s = act(c, gid, tokens[0], type="roll")["state"]
        if s["phase"] == "move":
            break
    mover = int(s["to_act"])
    if mover != loser:  # the winner moves first; the loser rolls and resigns on their turn
        act(c, gid, tokens[mover], type="play", play=state(c, gid, tokens[mover])["legal_plays"][0]["notation"])
        act(c, gid, tokens[loser], type="roll")
    act(c, gid, tokens[loser], type="resign", kind=kind)
    return dict(act(c, gid, tokens[1 - loser], type="accept")["state"])


def wait_finished(c: TestClient, gid: str, token: str, timeout: float = 120.0) -> dict[str, Any]:
    """The game's state once its status is finished (the computer plays in the background)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s = state(c, gid, token)
        if s["status"] == "finished":
            return s
        time.sleep(0.05)
    raise AssertionError("the game did not finish")
