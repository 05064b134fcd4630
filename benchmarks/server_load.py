"""Load on the server: N games at once, each between two WebSocket clients on loopback.

For each database (SQLite in a temporary file; PostgreSQL too when
GAMMON_TEST_POSTGRES_URL or --postgres names one) a server process is started
(``python -m gammon.web``), and ``--games`` pairs of clients play for
``--seconds`` seconds, starting a new game whenever one ends.  Each client
sends its actions on its socket (``{"type": "act", ...}``) and waits for the
result before the next one.  Printed per database:

* actions/s: actions acknowledged per second, all games together;
* ack p50/p99: from sending an action to its result (the action is stored, committed);
* push p50/p99: from sending an action to receiving the state that includes it
  (stored, then broadcast through the hub, or LISTEN/NOTIFY on PostgreSQL);
* server CPU/action: the server process's CPU time divided by the actions (Linux).

The clients run in this process, on the same machine: on a small machine they
compete with the server for the CPUs, and the figures say so.

Usage::

    .venv/bin/python benchmarks/server_load.py --games 20 --seconds 15
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import connect

from gammon.web.testing import ServerProcess, pick_action


@dataclass
class Stats:
    actions: int = 0
    errors: int = 0
    games_finished: int = 0
    ack: list[float] = field(default_factory=list)
    push: list[float] = field(default_factory=list)


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process so far (Linux), or None."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


async def seat_loop(url: str, seat: int, stats: Stats, deadline: float) -> bool:
    """Play one seat until the game ends (True) or time is up (False)."""
    async with connect(url, open_timeout=30, max_size=None) as ws:
        hello = json.loads(await ws.recv())
        state: dict[str, Any] = hello["state"]
        rid = 0
        sent_at: float | None = None
        wait_version = -1  # after a result: wait for the state that includes it
        pushed_at: float | None = None
        while True:
            if state["status"] == "finished":
                return True
            now = time.monotonic()
            if now >= deadline:
                return False
            if sent_at is None and state["version"] >= wait_version:
                action = pick_action(state)
                starter = state["to_act"] is None  # the opening roll: seat 0 throws for both
                if action is not None and (not starter or seat == 0):
                    rid += 1
                    sent_at = pushed_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "request_id": rid, "action": action}))
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, deadline - now))
            except TimeoutError:
                return False
            m = json.loads(raw)
            if m["type"] == "state":
                state = m["state"]
                if pushed_at is not None and wait_version >= 0 and state["version"] >= wait_version:
                    stats.push.append(time.perf_counter() - pushed_at)
                    pushed_at = None
            elif m["type"] == "result" and sent_at is not None:
                stats.ack.append(time.perf_counter() - sent_at)
                stats.actions += 1
                sent_at = None
                wait_version = m["version"]
                if state["version"] >= wait_version and pushed_at is not None:
                    stats.push.append(time.perf_counter() - pushed_at)
                    pushed_at = None
            elif m["type"] == "error":
                stats.errors += 1
                sent_at = pushed_at = None


async def table(http: httpx.AsyncClient, ws_base: str, variant: str, stats: Stats, deadline: float) -> None:
    while time.monotonic() < deadline:
        d = (await http.post("/api/games", json={"opponent": "human", "variant": variant})).json()
        joined = await http.post(f"/api/games/{d['game_id']}/join",
                                 headers={"Authorization": f"Bearer {d['invite_token']}"})
        gid, tokens = d["game_id"], (d["token"], joined.json()["token"])
        base = f"{ws_base}/api/games/{gid}/ws"
        done = await asyncio.gather(*(seat_loop(f"{base}?token={tokens[s]}", s, stats, deadline)
                                      for s in (0, 1)))
        if all(done):
            stats.games_finished += 1


async def load(server: ServerProcess, games: int, seconds: float, variant: str) -> tuple[Stats, float]:
    stats = Stats()
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        start = time.monotonic()
        deadline = start + seconds
        await asyncio.gather(*(table(http, server.ws_url, variant, stats, deadline) for _ in range(games)))
        elapsed = time.monotonic() - start
    return stats, elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games played at once (two clients each)")
    ap.add_argument("--seconds", type=float, default=10.0, help="how long each database is loaded")
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--postgres", default=os.environ.get("GAMMON_TEST_POSTGRES_URL"),
                    help="a PostgreSQL URL (default: $GAMMON_TEST_POSTGRES_URL)")
    args = ap.parse_args()

    targets = [("sqlite", os.path.join(tempfile.mkdtemp(prefix="gammon-load-"), "gammon.db"))]
    if args.postgres:
        targets.append(("postgresql", args.postgres))
    else:
        print("(PostgreSQL skipped: set GAMMON_TEST_POSTGRES_URL or --postgres)", file=sys.stderr)
    print(f"{args.games} games at once, two WebSocket clients each, {args.seconds:g} s per database, "
          f"{args.variant}, {os.cpu_count()} CPUs")
    head = (f"{'database':<11} {'actions':>8} {'actions/s':>10} {'ack p50':>9} {'ack p99':>9} "
            f"{'push p50':>9} {'push p99':>9} {'games':>6} {'errors':>6} {'server CPU/action':>18}")
    print(head)
    for name, url in targets:
        with ServerProcess(url) as server:
            assert server.proc is not None
            cpu0 = cpu_seconds(server.proc.pid)
            stats, elapsed = asyncio.run(load(server, args.games, args.seconds, args.variant))
            cpu1 = cpu_seconds(server.proc.pid)
        per_action = ((cpu1 - cpu0) / stats.actions * 1000 if cpu0 is not None and cpu1 is not None
                      and stats.actions else float("nan"))
        print(f"{name:<11} {stats.actions:>8} {stats.actions / elapsed:>10.1f} "
              f"{pct(stats.ack, 0.5):>7.1f}ms {pct(stats.ack, 0.99):>7.1f}ms "
              f"{pct(stats.push, 0.5):>7.1f}ms {pct(stats.push, 0.99):>7.1f}ms "
              f"{stats.games_finished:>6} {stats.errors:>6} {per_action:>16.2f}ms")


if __name__ == "__main__":
    main()
