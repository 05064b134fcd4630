"""The leaderboard and the players' pages: rendered on the server with the rating graph in SVG, every
name escaped (a name with markup in it shows as text), under the pages' CSP."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from accounts37_helpers import TestClient
from gammon.web.player_pages import rating_graph
from ratings37_helpers import new_match, player, rating_client, resign_match

MARKUP = "<b>Yo&co \"q\x27"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    yield from rating_client("sqlite", tmp_path_factory.mktemp("pages"))


def test_the_player_page_draws_the_rating_graph(client: TestClient) -> None:
    ana, bo = player(client, "Ana Page"), player(client, "Bo Page")
    for loser in (1, 0, 1):  # Ana wins, loses, wins (by seat; Ana made each game)
        gid, tokens, ana_seat = new_match(ana, bo, match_length=1)
        resign_match(client, gid, tokens, loser=loser if ana_seat == 0 else 1 - loser)
    r = client.get("/players/Ana Page")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in r.headers["content-security-policy"] and "<script" not in r.text
    rating = client.get("/api/players/Ana Page").json()["rating"]
    assert f"<strong>{rating:.2f}</strong>" in r.text and "Bo Page" in r.text
    points = re.search(r'<polyline points="([^"]+)"', r.text)
    assert points is not None and len(points.group(1).split()) == 4  # 1500, then one per rated match
    assert r.text.count("<tr><td>") == 3  # the three matches
    assert client.get("/players/Nobody Page").status_code == 404


def test_names_are_escaped_everywhere(client: TestClient) -> None:
    bad, ok = player(client, MARKUP), player(client, "Cal Plain")
    gid, tokens, seat = new_match(bad, ok, match_length=1)
    resign_match(client, gid, tokens, loser=1 - seat)
    for url in ("/players?min_experience=1", "/players/Cal Plain", f"/players/{MARKUP}"):
        r = client.get(url)
        assert r.status_code == 200, url
        assert MARKUP not in r.text and "<b>Yo" not in r.text, url
        assert "&lt;b&gt;Yo&amp;co &quot;q&#x27;" in r.text, url


def test_the_leaderboard_page_lists_best_first(client: TestClient) -> None:
    r = client.get("/players", params={"min_experience": 1})
    assert r.status_code == 200
    ratings = [float(x) for x in re.findall(r"</a></td><td>([0-9.]+)</td>", r.text)]
    assert len(ratings) >= 4 and ratings == sorted(ratings, reverse=True)
    assert client.get("/players", params={"offset": -1}).status_code == 422


def test_the_graph_scales_to_fit() -> None:
    assert "No rated match" in rating_graph([(0.0, 1500.0)])
    svg = rating_graph([(0.0, 1500.0), (1.0, 1510.0), (2.0, 1490.0)])
    found = re.search(r'points="([^"]+)"', svg)
    assert found is not None
    xy = [tuple(map(float, p.split(","))) for p in found.group(1).split()]
    assert [x for x, _ in xy] == sorted(x for x, _ in xy)
    assert min(y for _, y in xy) == xy[1][1] and max(y for _, y in xy) == xy[2][1]  # higher rating, higher up
