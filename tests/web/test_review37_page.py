"""The review page of a finished match (/review/{id}): the board after every play, drawn on the
server, the analysis beside it once made (the equity graph, each error with its cost and the
better play), the downloads; a match still being played is not reviewed, an unknown one is 404,
and a hostile name is escaped."""

from __future__ import annotations

import re
import time
from typing import Any

from accounts37_helpers import EVIL, SAME
from gammon.web.testing import pick_action
from webclient import TEST_SERVER, TestClient, bearer, client_fixture

SEED = "5b" * 32
HOSTILE = "<script>alert(1)"

client = client_fixture("review", **TEST_SERVER, analysis_plies=0)


def play_to_end(c: TestClient, gid: str, token: str) -> None:
    for _ in range(3000):
        st = c.get(f"/api/games/{gid}", headers=bearer(token)).json()
        if st["match"]["over"]:
            return
        action = pick_action(st)
        if action is None:
            time.sleep(0.01)
            continue
        c.post(f"/api/games/{gid}/actions", json=action, headers=bearer(token))
    raise AssertionError("the game does not end")


def new_game(c: TestClient, **body: Any) -> tuple[str, str]:
    r = c.post("/api/games", json={"opponent": "computer", "test_seed": SEED, "name": HOSTILE, **body})
    assert r.status_code == 201, r.text
    return str(r.json()["game_id"]), str(r.json()["token"])


def test_a_match_is_reviewed_when_it_is_over(client: TestClient) -> None:
    gid, token = new_game(client, match_length=1)
    r = client.get(f"/review/{gid}")
    assert r.status_code == 409 and "not over" in r.text
    assert client.get("/review/no-such-game").status_code == 404
    assert client.get("/review/" + "x" * 40).status_code in (404, 422)
    play_to_end(client, gid, token)
    page = ""
    for _ in range(600):  # the analysis is queued by the first visit; the page reloads until it is made
        r = client.get(f"/review/{gid}")
        assert r.status_code == 200, r.text
        page = r.text
        if 'class="equity-graph"' in page:
            break
        assert '<meta http-equiv="refresh"' in page
        time.sleep(0.05)
    assert 'class="equity-graph"' in page and "data:image/svg+xml;base64," in page
    assert r.headers["Content-Security-Policy"].startswith("default-src 'self'")
    plays = [a for a in client.get(f"/api/games/{gid}/actions").json()["actions"] if a["type"] == "play"]
    frames = re.findall(r'<section class="frame" id="move-\d+" data-seq="(\d+)">', page)
    assert [int(s) for s in frames] == [a["seq"] for a in plays] and len(frames) > 2
    assert page.count("<svg") >= len(frames)
    for ext in ("mat", "sgf", "json"):
        assert f'href="/api/games/{gid}/export.{ext}"' in page
    analysis = client.get(f"/api/games/{gid}/analysis").json()
    for p in analysis["plays"]:
        if p["mark"]:  # each error is marked on its board with its cost and the better play
            assert f'data-seq="{p["seq"]}"' in page and f"costs {p['loss']:.3f}" in page
    assert HOSTILE not in page and "&lt;script&gt;alert(1)" in page
    assert client.get("/static/js/review.js").status_code == 200


def test_an_uploaded_record_is_reviewed(client: TestClient) -> None:
    gid, token = new_game(client, match_length=1)
    play_to_end(client, gid, token)
    mat = client.get(f"/api/games/{gid}/export.mat").text
    plays = [a for a in client.get(f"/api/games/{gid}/actions").json()["actions"] if a["type"] == "play"]
    guest = TestClient(client.app)
    assert guest.post("/api/reviews?format=mat", content=mat, headers=SAME).status_code == 401
    player = TestClient(client.app)
    r = player.post("/api/accounts", json={"name": "Uploader", "password": "correct horse battery"},
                    headers=SAME)
    assert r.status_code == 201, r.text
    assert player.post("/api/reviews?format=mat", content=mat, headers=EVIL).status_code == 403
    assert player.post("/api/reviews?format=exe", content=mat, headers=SAME).status_code == 422
    r = player.post("/api/reviews?format=mat", content="not a match at all\n" * 10, headers=SAME)
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_record", r.text
    deep = {**SAME, "Content-Type": "text/plain"}  # nested past the record reader's limit: refused, no crash
    r = player.post("/api/reviews?format=json", content="[" * 5000, headers=deep)
    assert r.status_code == 422, r.text
    r = player.post("/api/reviews?format=mat", content="x" * (65 * 1024), headers=SAME)
    assert r.status_code == 413, r.text
    r = player.post("/api/reviews?format=mat", content=mat, headers=SAME)
    assert r.status_code == 201, r.text
    url = r.json()["url"]
    page = ""
    for _ in range(600):
        page = guest.get(url).text  # the link can be shared: anyone with it sees the review
        if 'class="equity-graph"' in page:
            break
        time.sleep(0.05)
    assert 'class="equity-graph"' in page
    assert len(re.findall(r'<section class="frame"', page)) == len(plays)
    assert "/export.mat" not in page  # an upload has no stored record to download
    assert HOSTILE not in page and "&lt;script&gt;alert(1)" in page
    assert guest.get("/review/upload/nothing-here").status_code == 404
