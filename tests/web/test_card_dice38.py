"""Card dice in online games (issue 38): the option when a game is made, the cards in the state,
and the verify endpoint re-drawing every card from the revealed seed.

The rule texts' way to play without dice: one pile of black cards and one of red, ace to six, each
reshuffled whole before every draw; the server draws them from its committed secret seed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gammon.core.fair_dice import commitment_for, derive_rolls
from gammon.web import Settings, create_app
from gammon.web.testing import pick_action
from webclient import TEST_SERVER, TestClient, bearer, client_fixture

SEED = bytes(range(32))
RANKS = ("A", "2", "3", "4", "5", "6")

client = client_fixture("card_dice", **TEST_SERVER)


def _create(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/games", json={"opponent": "human", "test_seed": SEED.hex(), **body})
    assert r.status_code == 201, r.text
    return r.json()


def _human_card_game(c: TestClient) -> tuple[str, tuple[str, str]]:
    d = _create(c, dice="cards")
    r = c.post(f"/api/games/{d['game_id']}/join", headers=bearer(d["invite_token"]), json={"name": "Bob"})
    assert r.status_code == 200, r.text
    return d["game_id"], (d["token"], r.json()["token"])


def _state(c: TestClient, gid: str, token: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{gid}", headers=bearer(token))
    assert r.status_code == 200, r.text
    return r.json()


def _act(c: TestClient, gid: str, token: str, **body: Any) -> dict[str, Any]:
    r = c.post(f"/api/games/{gid}/actions", json=body, headers=bearer(token))
    assert r.status_code == 200, r.text
    return r.json()["state"]


def _play_turns(c: TestClient, gid: str, tokens: tuple[str, str], turns: int) -> list[list[str]]:
    """Both seats act ``turns`` times in all (first legal plays); the cards each state showed."""
    shown: list[list[str]] = []
    for _ in range(turns):
        for token in tokens:
            s = _state(c, gid, token)
            action = pick_action(s)
            if action is None:
                continue
            s = _act(c, gid, token, **action)
            cards = s["fair_dice"]["cards"]
            if s["dice"] is not None:
                assert cards is not None and len(cards) == 2
                shown.append(cards)
                # The cards are the dice: rank by value, pile 0 black spades, pile 1 red hearts.
                assert cards == [RANKS[s["dice"][0] - 1] + "\u2660", RANKS[s["dice"][1] - 1] + "\u2665"]
            break
    return shown


def test_a_card_game_shows_its_cards_and_verify_redraws_them(client: TestClient) -> None:
    gid, tokens = _human_card_game(client)
    s = _state(client, gid, tokens[0])
    assert s["fair_dice"]["draw"] == "cards" and s["fair_dice"]["commitment"] == commitment_for(SEED)
    shown = _play_turns(client, gid, tokens, 12)
    assert len(shown) >= 4
    for cards in shown:
        assert cards[0][:-1] in RANKS and cards[1][:-1] in RANKS
    before = client.get(f"/api/games/{gid}/verify").json()
    assert before["draw"] == "cards" and before["revealed"] is False and before["seed"] is None
    # End the money game: whoever may double next does, and the other drops.
    for _ in range(10):
        doubler = next((t for t in tokens if "double" in _state(client, gid, t)["allowed_actions"]), None)
        if doubler is not None:
            break
        shown += _play_turns(client, gid, tokens, 1)
    assert doubler is not None, "nobody could double in ten more actions"
    _act(client, gid, doubler, type="double")
    taker = tokens[1] if doubler == tokens[0] else tokens[0]
    assert _act(client, gid, taker, type="drop")["status"] == "finished"
    v = client.get(f"/api/games/{gid}/verify").json()
    assert v["revealed"] and v["verified"] is True and v["seed"] == SEED.hex() and v["draw"] == "cards"
    n = len(v["rolls"])
    assert n >= len(shown)
    # Every roll is the seed's card draw, and none of it is the seed's thrown dice by chance alone.
    assert v["rolls"] == [list(r) for r in derive_rolls(SEED, n, "cards")]
    assert v["rolls"] != [list(r) for r in derive_rolls(SEED, n, "dice")]
    for pile in (0, 1):
        assert {r[pile] for r in v["rolls"]} <= {1, 2, 3, 4, 5, 6}
    js = client.get(f"/api/games/{gid}/export.json").json()
    assert js["dice"]["draw"] == "cards"
    # A rematch keeps the game's settings, card dice among them.
    again = client.post(f"/api/games/{gid}/rematch", headers=bearer(tokens[0]))
    assert again.status_code == 200, again.text
    assert again.json()["state"]["fair_dice"]["draw"] == "cards"


def test_a_restarted_server_goes_on_with_the_same_cards(tmp_path: Path) -> None:
    url = str(tmp_path / "gammon.db")
    with TestClient(create_app(Settings(database_url=url, **TEST_SERVER))) as c:
        gid, tokens = _human_card_game(c)
        _play_turns(c, gid, tokens, 6)
        rolls = c.get(f"/api/games/{gid}/verify").json()["rolls"]
    with TestClient(create_app(Settings(database_url=url, **TEST_SERVER))) as c:
        _play_turns(c, gid, tokens, 4)
        after = c.get(f"/api/games/{gid}/verify").json()
    assert after["draw"] == "cards" and after["rolls"][: len(rolls)] == rolls
    assert after["rolls"] == [list(r) for r in derive_rolls(SEED, len(after["rolls"]), "cards")]


def test_thrown_dice_stay_the_default(client: TestClient) -> None:
    d = _create(client)
    assert d["state"]["fair_dice"]["draw"] == "dice" and d["state"]["fair_dice"]["cards"] is None


@pytest.mark.parametrize("bad", ["tarot", "CARDS", "", 1, True, None, ["cards"], "c" * 5000])
def test_bad_dice_options_are_refused_with_a_clear_error(client: TestClient, bad: object) -> None:
    r = client.post("/api/games", json={"opponent": "computer", "dice": bad})
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "invalid_request"
    assert "dice" in error["message"] and "cards" in error["message"], error
