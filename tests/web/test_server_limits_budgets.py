"""Budgets nobody else can spend (issue 33, items 3 and 6), scripted as the attacks were.

Every client here has its own loopback address (127.0.0.x), so the server sees what it
would see on the internet: two players behind one address (home, office, carrier NAT),
a stranger on another one.

* a player's seat actions spend the seat's budget only: a neighbour spending the address's
  budget does not get them refused (on the old code every move got 429 while the clock ran);
* anonymous requests on a game spend the budget of their address on that game: one address
  cannot lock all spectators and lobby joiners out of a game;
* a rematch counts as a creation (121 games a minute slipped past the creation limit);
* one address has at most two public games waiting in the lobby; a host can cancel a
  waiting game, and a game whose guest never moves is called off (by the host after 30 s,
  by the server after a few minutes in the lobby).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from gammon.web import Settings, create_app
from gammon.web.ratelimit import RateLimits
from gammon.web.testing import ThreadedServer, pick_action
from webclient import bearer, client_at

# Creations are counted by the day: the limiter's sliding window weighs the window before by the
# clock, so a run of creations that crossed a minute's boundary could pass a fifth (a flaky test).
LIMITS = RateLimits(client="10/minute", create="4/day", game="40/second", socket="20/second")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    url = str(tmp_path_factory.mktemp("budgets") / "gammon.db")
    with ThreadedServer(create_app(Settings(database_url=url, rate_limits=LIMITS))) as s:
        yield s


_next_address = iter(range(2, 250))


def new_address() -> str:
    """A loopback address no other test of this module uses (each has budgets of its own)."""
    return f"127.0.0.{next(_next_address)}"


def spend_address_budget(c: httpx.Client) -> None:
    """What the neighbour does: anonymous requests until the address's budget is gone."""
    for _ in range(50):
        if c.get("/api/lobby").status_code == 429:
            return
    raise AssertionError("the address's budget was never spent")


def people(host: httpx.Client, guest: httpx.Client) -> tuple[str, tuple[str, str]]:
    d = host.post("/api/games", json={"opponent": "human", "name": "Ann"})
    assert d.status_code == 201, d.text
    game = d.json()
    j = guest.post(f"/api/games/{game['game_id']}/join", headers=bearer(game["invite_token"]),
                   json={"name": "Bob"})
    assert j.status_code == 200, j.text
    return game["game_id"], (game["token"], j.json()["token"])


def play(clients: tuple[httpx.Client, httpx.Client], gid: str, tokens: tuple[str, str],
         actions: int) -> list[int]:
    """Both seats play ``actions`` actions (each from its own client); every status code the seats got."""
    codes: list[int] = []
    done = 0
    for _ in range(10 * actions):  # bounded: refused requests must end the test, not hang it
        if done >= actions:
            break
        for seat in (0, 1):
            r = clients[seat].get(f"/api/games/{gid}", headers=bearer(tokens[seat]))
            codes.append(r.status_code)
            if r.status_code != 200:
                continue
            state = r.json()
            if state["match"]["over"]:
                return codes
            action = pick_action(state)
            if action is None:
                continue
            a = clients[seat].post(f"/api/games/{gid}/actions", headers=bearer(tokens[seat]),
                                   json={**action, "expected_version": state["version"]})
            codes.append(a.status_code)
            done += a.status_code == 200
    return codes


def test_a_neighbour_spending_the_address_budget_never_blocks_a_players_moves(server: ThreadedServer) -> None:
    shared, far = new_address(), new_address()
    with client_at(server, shared) as ann, client_at(server, shared) as neighbour, \
            client_at(server, far) as bob:
        gid, tokens = people(ann, bob)
        spend_address_budget(neighbour)
        assert ann.get("/api/lobby").status_code == 429  # the address's budget is gone for Ann too...
        codes = play((ann, bob), gid, tokens, actions=12)
        assert 429 not in codes and codes.count(200) >= 12  # ...but not her seat's: she plays on
        # An unknown token buys no budget of its own: it is an anonymous request of the address
        # (spent again first: it earns a request back every 6 s, and the play may take that long).
        spend_address_budget(neighbour)
        assert ann.get(f"/api/games/{gid}", headers=bearer("x" * 43)).status_code == 429


def test_one_address_cannot_lock_a_game_out_for_everyone_else(tmp_path: Any) -> None:
    # An address's own budget larger than a game's: the game's is what the flooder spends.
    limits = RateLimits(client="100/second", game="10/second")
    settings = Settings(database_url=str(tmp_path / "g.db"), rate_limits=limits)
    with ThreadedServer(create_app(settings)) as server, client_at(server, new_address()) as host, \
            client_at(server, new_address()) as flooder, client_at(server, new_address()) as watcher, \
            client_at(server, new_address()) as walk_in:
        game = host.post("/api/games", json={"opponent": "human", "public": True}).json()
        gid = game["game_id"]
        answers: list[int] = []
        while 429 not in answers and len(answers) < 600:  # until refused: a busy machine floods slowly
            answers.append(flooder.get(f"/api/games/{gid}").status_code)
        assert 429 in answers  # the flooder's own share of the game (and of its address) is gone
        assert watcher.get(f"/api/games/{gid}").status_code == 200  # a spectator elsewhere still watches
        joined = walk_in.post(f"/api/games/{gid}/join", json={"name": "Walk-in"})  # and a guest still joins
        assert joined.status_code == 200, joined.text


def _finish(clients: tuple[httpx.Client, httpx.Client], gid: str, tokens: tuple[str, str]) -> None:
    """Play to the first double, which is dropped: the (one-game) match is over."""
    for _ in range(200):
        for seat in (0, 1):
            state = clients[seat].get(f"/api/games/{gid}", headers=bearer(tokens[seat])).json()
            if state["match"]["over"]:
                return
            allowed = state["allowed_actions"]
            action = ({"type": "double"} if "double" in allowed else {"type": "drop"} if "drop" in allowed
                      else pick_action(state))
            if action is not None:
                clients[seat].post(f"/api/games/{gid}/actions", headers=bearer(tokens[seat]), json=action)
    raise AssertionError("the game did not end")


def test_a_rematch_counts_as_a_creation(server: ThreadedServer) -> None:
    with client_at(server, new_address()) as ann, client_at(server, new_address()) as bob:
        gid, tokens = people(ann, bob)  # Ann's first creation
        answers = []
        for _ in range(4):
            _finish((ann, bob), gid, tokens)
            r = ann.post(f"/api/games/{gid}/rematch", headers=bearer(tokens[0]))
            answers.append(r.status_code)
            if r.status_code != 200:
                break
            other = bob.post(f"/api/games/{gid}/rematch", headers=bearer(tokens[1]))
            assert other.status_code == 200, other.text
            gid, tokens = r.json()["state"]["id"], (r.json()["token"], other.json()["token"])
        # 4 a day: the creation and three rematches, then 429 (the old code made every rematch).
        assert answers == [200, 200, 200, 429], answers


def test_two_public_games_per_address_and_a_host_can_cancel(server: ThreadedServer) -> None:
    with client_at(server, new_address()) as host, client_at(server, new_address()) as other:
        body = {"opponent": "human", "public": True, "name": "Host"}
        first, second = (host.post("/api/games", json=body).json() for _ in range(2))
        third = host.post("/api/games", json=body)
        assert third.status_code == 409 and third.json()["error"]["code"] == "too_many_public_games"
        assert other.post("/api/games", json=body).status_code == 201  # another address has its own two
        # The host cancels one: it leaves the lobby, nobody can join it, and a new public game fits.
        assert host.post(f"/api/games/{first['game_id']}/cancel").status_code == 403  # a seat's token only
        r = host.post(f"/api/games/{first['game_id']}/cancel", headers=bearer(first["token"]))
        assert r.status_code == 200 and r.json()["status"] == "cancelled"
        lobby = [g["game_id"] for g in other.get("/api/lobby").json()["games"]]
        assert first["game_id"] not in lobby and second["game_id"] in lobby
        late = other.post(f"/api/games/{first['game_id']}/join")
        assert late.status_code == 410 and late.json()["error"]["code"] == "cancelled"
        roll = host.post(f"/api/games/{first['game_id']}/actions", headers=bearer(first["token"]),
                         json={"type": "roll"})
        assert roll.status_code == 409  # a cancelled game is never played (the old code let the host roll)
        assert host.post("/api/games", json=body).status_code == 201


def _age(server_app: Any, gid: str, seconds: float) -> None:
    """Make the game's last change ``seconds`` old, in the store and in memory."""
    service = server_app.state.service
    service.evict(gid)
    with service.store.engine.begin() as conn:
        conn.execute(text("UPDATE games SET updated_at = :t WHERE id = :id"),
                     {"t": datetime.now(UTC) - timedelta(seconds=seconds), "id": gid})


def test_a_guest_who_never_moves_is_dropped(server: ThreadedServer) -> None:
    app = server.server.config.app
    with client_at(server, new_address()) as host, client_at(server, new_address()) as guest:
        body = {"opponent": "human", "public": True, "name": "Host"}
        game = host.post("/api/games", json=body).json()
        gid = game["game_id"]
        assert guest.post(f"/api/games/{gid}/join", json={"name": "Ghost"}).status_code == 200
        # The host rolls the opening until it is the guest's turn (a tie is rolled again)...
        for _ in range(10):
            state = host.post(f"/api/games/{gid}/actions", headers=bearer(game["token"]),
                              json={"type": "roll"}).json()["state"]
            if state["to_act"] == 1:
                break
            if state["to_act"] == 0:  # the host won the opening: play it, then the guest must roll
                action = pick_action(state)
                assert action is not None
                host.post(f"/api/games/{gid}/actions", headers=bearer(game["token"]), json=action)
                break
        # ... and the guest never moves.  Too soon to call it off:
        r = host.post(f"/api/games/{gid}/cancel", headers=bearer(game["token"]))
        assert r.status_code == 409 and r.json()["error"]["code"] == "cannot_cancel"
        _age(app, gid, 45)
        r = host.post(f"/api/games/{gid}/cancel", headers=bearer(game["token"]))
        assert r.status_code == 200 and r.json()["status"] == "cancelled"

        # Left alone, the server calls such a lobby game off by itself after a few minutes.
        game = host.post("/api/games", json=body).json()
        gid = game["game_id"]
        assert guest.post(f"/api/games/{gid}/join", json={"name": "Ghost"}).status_code == 200
        service = app.state.service
        assert gid not in service.cancel_idle()
        _age(app, gid, 600)
        host.get(f"/api/games/{gid}")  # in memory again, as a game someone looks at is
        assert gid in service.cancel_idle()
        assert host.get(f"/api/games/{gid}").json()["status"] == "cancelled"


def test_a_player_who_has_moved_cannot_be_dropped(server: ThreadedServer) -> None:
    with client_at(server, new_address()) as ann, client_at(server, new_address()) as bob:
        gid, tokens = people(ann, bob)
        assert 429 not in play((ann, bob), gid, tokens, actions=4)
        state = ann.get(f"/api/games/{gid}", headers=bearer(tokens[0])).json()
        waiter = 1 - state["to_act"] if state["to_act"] is not None else 0
        _age(server.server.config.app, gid, 3600)
        r = (ann, bob)[waiter].post(f"/api/games/{gid}/cancel", headers=bearer(tokens[waiter]))
        assert r.status_code == 409 and r.json()["error"]["code"] == "cannot_cancel"
