"""The pages the server writes itself answer in the request's language (the picker's cookie, else
``Accept-Language``), name it in ``<html lang>``, and write numbers as that language does (a
decimal comma in Norwegian, Swedish, Danish and Polish); in English they are as they were."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from accounts37_helpers import TestClient
from gammon.analysis.board_svg import board_svg
from gammon.core.position import Position
from gammon.i18n import use_language
from gammon.web.page_shell import shown_name
from ratings37_helpers import new_match, player, rating_client, resign_match

POLISH = {"accept-language": "pl-PL,pl;q=0.9"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    yield from rating_client("sqlite", tmp_path_factory.mktemp("i18n-server-pages"))


@pytest.fixture(scope="module")
def game(client: TestClient) -> str:
    ana, bo = player(client, "Ana Lang"), player(client, "Bo Lang")
    gid, tokens, seat = new_match(ana, bo, match_length=1)
    resign_match(client, gid, tokens, loser=1 - seat)
    return gid


def test_the_players_pages_in_polish(client: TestClient, game: str) -> None:
    board = client.get("/players", params={"min_experience": 0}, headers=POLISH)
    assert '<html lang="pl">' in board.text and "Ranking graczy" in board.text
    assert "Leaderboard" not in board.text
    assert re.search(r"</a></td><td>1\d{3},\d\d</td>", board.text)  # 1507,50: the decimal comma
    assert "Accept-Language" in board.headers["vary"]
    page = client.get("/players/Ana Lang", headers={"cookie": "gammon_lang=nb"})  # the picker's cookie
    assert '<html lang="nb">' in page.text and "Matcher" in page.text and "Opponent" not in page.text
    assert re.search(r"<strong>1\d{3},\d\d</strong>", page.text)
    english = client.get("/players/Ana Lang")
    assert '<html lang="en">' in english.text and re.search(r"<strong>1\d{3}\.\d\d</strong>", english.text)
    missing = client.get("/players/Nobody Lang", headers=POLISH)
    assert missing.status_code == 404 and "Nie ma takiego gracza" in missing.text


def test_the_rated_page_in_swedish(client: TestClient) -> None:
    page = client.get("/rated", headers={"accept-language": "sv-SE"})
    assert '<html lang="sv">' in page.text and "Hitta en motståndare" in page.text
    assert "Find an opponent" not in page.text and "1 poäng" in page.text


def test_the_review_page_in_danish(client: TestClient, game: str) -> None:
    page = client.get(f"/review/{game}", headers={"accept-language": "da-DK"})
    assert page.status_code == 200
    assert '<html lang="da">' in page.text and "Hent:" in page.text and "Download:" not in page.text
    assert "pips " not in page.text  # the boards' pip counts (when a play was made: the dice decide)
    with use_language("da"):
        assert ">øjne 167 / 167<" in board_svg(Position.initial())
    assert client.get("/review/no-such-game", headers=POLISH).text.count("Nie ma takiego meczu") == 2


def test_the_servers_own_names_are_translated() -> None:
    with use_language("pl"):
        assert shown_name("Computer (expert)") == "Komputer (expert)" and shown_name("Guest") == "Gość"
        assert shown_name("Computer (nonsense)") == "Computer (nonsense)" and shown_name("Ana") == "Ana"
    assert shown_name("Computer (expert)") == "Computer (expert)"
