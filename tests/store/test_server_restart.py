"""A server killed with SIGKILL mid-game loses no acknowledged action and goes on with the same dice.

The server runs as its own process (``python -m gammon.web``) on an SQLite
file; a client plays as fast as it can and records every action the server
acknowledged; the process is killed without warning, started again on the same
file, and the game is played to its end.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from gammon.core.fair_dice import derive_roll
from gammon.web.testing import ServerProcess, pick_action
from webclient import bearer

SEED = bytes(range(7, 39))


def play_on(url: str, gid: str, tokens: tuple[str, str], acked: dict[int, dict[str, Any]],
            resign_after: int = 100_000) -> dict[str, Any] | None:
    """Play both seats until the game ends (the final state) or the server goes away (None).

    After ``resign_after`` actions the player to act resigns and the other accepts.
    """
    with httpx.Client(base_url=url, timeout=10) as c:
        for n in range(2000):
            try:
                states = [c.get(f"/api/games/{gid}", headers=bearer(t)).json() for t in tokens]
                if states[0]["status"] == "finished":
                    return states[0]
                can_resign = ["resign" in s["allowed_actions"] for s in states]
                if n >= resign_after and any(can_resign):
                    seat = 0 if can_resign[0] else 1
                    for s, body in ((seat, {"type": "resign"}), (1 - seat, {"type": "accept"})):
                        r = c.post(f"/api/games/{gid}/actions", json=body, headers=bearer(tokens[s]))
                        assert r.status_code == 200, r.text
                        for entry in r.json()["actions"]:
                            acked[entry["seq"]] = entry
                    continue
                actions = [pick_action(s) for s in states]
                seat = 0 if actions[0] is not None else 1
                action = actions[seat]
                if action is None:  # the computer's turn: wait for it
                    time.sleep(0.02)
                    continue
                r = c.post(f"/api/games/{gid}/actions", json=action, headers=bearer(tokens[seat]))
            except httpx.TransportError:
                return None
            assert r.status_code == 200, r.text
            for entry in r.json()["actions"]:
                acked[entry["seq"]] = entry
    raise AssertionError("the game did not end")


def test_sigkill_loses_no_acknowledged_action(tmp_path: Path) -> None:
    db = str(tmp_path / "gammon.db")
    server = ServerProcess(db, log_path=tmp_path / "server.log").start()
    try:
        d = httpx.post(f"{server.url}/api/games", json={"opponent": "human", "test_seed": SEED.hex()}).json()
        joined = httpx.post(f"{server.url}/api/games/{d['game_id']}/join", headers=bearer(d["invite_token"]))
        assert joined.status_code == 200
        gid, tokens = d["game_id"], (d["token"], joined.json()["token"])
        acked: dict[int, dict[str, Any]] = {}
        player = threading.Thread(target=play_on, args=(server.url, gid, tokens, acked), daemon=True)
        player.start()
        deadline = time.monotonic() + 120
        while len(acked) < 40:
            assert time.monotonic() < deadline and player.is_alive(), "the first server played too slowly"
            time.sleep(0.005)
        server.kill()  # SIGKILL, in the middle of the client's stream of actions
        player.join(60)
        assert not player.is_alive()
    finally:
        server.kill()

    with ServerProcess(db, log_path=tmp_path / "server.log") as again:
        stored = httpx.get(f"{again.url}/api/games/{gid}/actions").json()["actions"]
        by_seq = {a["seq"]: a for a in stored}
        assert [a["seq"] for a in stored] == list(range(1, len(stored) + 1))
        assert len(acked) >= 40 and set(acked) <= set(by_seq), "an acknowledged action was lost"
        assert len(stored) - len(acked) <= 1  # at most the one in flight when the server died
        for seq, entry in acked.items():
            assert by_seq[seq] == entry
        final = play_on(again.url, gid, tokens, acked, resign_after=30)
        assert final is not None and final["status"] == "finished"
        log = httpx.get(f"{again.url}/api/games/{gid}/actions").json()["actions"]
        rolls = [a["action"]["dice"] for a in log if a["type"] == "roll"]
        before = sum(1 for a in stored if a["type"] == "roll")
        assert len(rolls) > before, "no roll after the restart"
        assert rolls == [list(derive_roll(SEED, i)) for i in range(len(rolls))], "the dice sequence changed"
        v = httpx.get(f"{again.url}/api/games/{gid}/verify").json()
        assert v["verified"] is True and v["seed"] == SEED.hex()


@pytest.mark.parametrize("delay", [0.6])
def test_the_computer_resumes_after_a_crash(tmp_path: Path, delay: float) -> None:
    db = str(tmp_path / "gammon.db")
    # A slow computer, so that the kill lands between its roll and its play.
    server = ServerProcess(db, env={"GAMMON_COMPUTER_DELAY": str(delay)}).start()
    try:
        c = httpx.Client(base_url=server.url, timeout=10)
        d = c.post("/api/games", json={"opponent": "computer", "test_seed": SEED.hex()}).json()
        gid, token = d["game_id"], d["token"]
        deadline = time.monotonic() + 120
        while True:
            s = c.get(f"/api/games/{gid}", headers=bearer(token)).json()
            if s["to_act"] == 1 and s["phase"] == "move" and s["actions"] >= 2:
                break  # the computer rolled and is "thinking" about its play
            action = pick_action(s)
            if action is not None:
                r = c.post(f"/api/games/{gid}/actions", json=action, headers=bearer(token))
                assert r.status_code == 200, r.text
            assert time.monotonic() < deadline
            time.sleep(0.01)
        c.close()
        server.kill()
    finally:
        server.kill()
    with ServerProcess(db) as again:
        deadline = time.monotonic() + 120
        while True:
            s = httpx.get(f"{again.url}/api/games/{gid}", headers=bearer(token)).json()
            if s["your_turn"]:
                break
            assert time.monotonic() < deadline, "the computer did not resume its turn after the restart"
            time.sleep(0.05)
        assert s["to_act"] == 0
