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

``--processes 2`` (PostgreSQL only) runs the PostgreSQL load on one server process and
then on two sharing the database, each game's two seats on different processes (their
actions reach each other through LISTEN/NOTIFY), and prints the scale-out ratio of the
actions per second.

``--accounts`` runs the same load twice on each database, once with guests (seat tokens
only) and once with logged-in players: each table's two players sign up (Argon2id),
every game is created and joined with the accounts' session cookies (so every request
passes the session and Origin checks and every seat is the account's), and the actions
go over the sockets as before.  It prints both rows and the ratio of actions per second.

``--flood`` adds the abuse case of issue 11: the same load on SQLite twice,
once quietly and once while a flooding client (in a process of its own) sends
messages as fast as it can on a spectator socket of one of the games being
measured and GETs that game's state over REST on four connections.  It prints
the games' ack p99 both times and their ratio (the server's rate limits must
keep it under 2).  The server keeps its default limits per socket and per
game; the per-address limits are raised, because every client of the
benchmark comes from 127.0.0.1.

Usage::

    .venv/bin/python benchmarks/server_load.py --games 20 --seconds 15
    .venv/bin/python benchmarks/server_load.py --games 8 --seconds 10 --flood
    .venv/bin/python benchmarks/server_load.py --games 200 --seconds 30 --processes 2
    .venv/bin/python benchmarks/server_load.py --games 20 --seconds 15 --accounts
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import connect

from gammon.web.testing import ServerProcess, auth_message, pick_action


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


async def seat_loop(url: str, token: str, seat: int, stats: Stats, deadline: float) -> bool:
    """Play one seat until the game ends (True) or time is up (False)."""
    async with connect(url, open_timeout=30, max_size=None) as ws:
        await ws.send(auth_message(token))
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


async def sign_up(base_url: str, name: str) -> httpx.AsyncClient:
    """A client logged in as a new account ``name`` (its session cookie kept, its Origin sent)."""
    client = httpx.AsyncClient(base_url=base_url, timeout=60, headers={"Origin": base_url})
    r = await client.post("/api/accounts", json={"name": name, "password": "benchmark secret 1234"})
    r.raise_for_status()
    return client


async def table(http: httpx.AsyncClient, ws_bases: list[str], variant: str, stats: Stats, deadline: float,
                first: asyncio.Queue[str] | None = None,
                players: tuple[httpx.AsyncClient, httpx.AsyncClient] | None = None) -> None:
    """Games one after the other until the time is up; seat ``s`` on server ``s % len(ws_bases)``.
    ``players``: two logged-in clients that create and join the games (else guests)."""
    host, guest = players if players is not None else (http, http)
    while time.monotonic() < deadline:
        d = (await host.post("/api/games", json={"opponent": "human", "variant": variant})).json()
        if first is not None:
            first.put_nowait(d["game_id"])  # the game the flooder picks on
            first = None
        joined = await guest.post(f"/api/games/{d['game_id']}/join",
                                  headers={"Authorization": f"Bearer {d['invite_token']}"})
        gid, tokens = d["game_id"], (d["token"], joined.json()["token"])
        done = await asyncio.gather(*(
            seat_loop(f"{ws_bases[s % len(ws_bases)]}/api/games/{gid}/ws", tokens[s], s, stats, deadline)
            for s in (0, 1)))
        if all(done):
            stats.games_finished += 1


async def load(server: ServerProcess, games: int, seconds: float, variant: str, flood: bool = False,
               others: tuple[ServerProcess, ...] = (), accounts: bool = False
               ) -> tuple[Stats, float, dict[str, int]]:
    stats = Stats()
    ws_bases = [server.ws_url, *(o.ws_url for o in others)]
    flooded: dict[str, int] = {}
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http, contextlib.AsyncExitStack() as stack:
        players: list[tuple[httpx.AsyncClient, httpx.AsyncClient] | None] = [None] * games
        if accounts:  # signed up before the clock starts: Argon2id is the sign-up's cost, not the games'
            for i in range(games):
                pair = (await sign_up(server.url, f"host{i}"), await sign_up(server.url, f"guest{i}"))
                for c in pair:
                    stack.push_async_callback(c.aclose)
                players[i] = pair
        start = time.monotonic()
        deadline = start + seconds
        first: asyncio.Queue[str] = asyncio.Queue()
        tables = [asyncio.create_task(table(http, ws_bases, variant, stats, deadline,
                                            first if i == 0 else None, players[i])) for i in range(games)]
        proc = None
        if flood:
            game_id = await first.get()
            ctx = multiprocessing.get_context("spawn")
            results: Any = ctx.Queue()
            proc = ctx.Process(target=flood_process, daemon=True,
                               args=(server.url, server.ws_url, game_id, deadline - time.monotonic(), results))
            proc.start()
        await asyncio.gather(*tables)
        elapsed = time.monotonic() - start
        if proc is not None:
            flooded = results.get(timeout=60)
            proc.join(30)
    return stats, elapsed, flooded


def flood_process(url: str, ws_url: str, game_id: str, seconds: float, results: Any) -> None:
    """The abusive client: a spectator socket sending without pause, and REST GETs on 4 connections."""
    results.put(asyncio.run(flood(url, ws_url, game_id, seconds)))


async def flood(url: str, ws_url: str, game_id: str, seconds: float) -> dict[str, int]:
    counts = {"ws_sent": 0, "ws_answers": 0, "ws_rate_limited": 0, "http_sent": 0, "http_429": 0}
    deadline = time.monotonic() + seconds
    kinds = ('{"type": "state"}', '{"type": "ping"}')

    async def socket() -> None:
        try:
            async with connect(f"{ws_url}/api/games/{game_id}/ws", open_timeout=30, max_size=None) as ws:
                await ws.send(auth_message(None))  # a spectator
                async def reader() -> None:
                    async for raw in ws:
                        counts["ws_answers"] += 1
                        counts["ws_rate_limited"] += '"rate_limited"' in str(raw)

                task = asyncio.create_task(reader())
                while time.monotonic() < deadline:
                    left = max(0.01, deadline - time.monotonic())
                    await asyncio.wait_for(ws.send(kinds[counts["ws_sent"] % 2]), timeout=left)
                    counts["ws_sent"] += 1
                task.cancel()
        except Exception:  # closed by the server, or the time is up
            return

    async def getter(http: httpx.AsyncClient) -> None:
        while time.monotonic() < deadline:
            try:
                r = await http.get(f"/api/games/{game_id}")
            except httpx.HTTPError:
                continue
            counts["http_sent"] += 1
            counts["http_429"] += r.status_code == 429

    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        await asyncio.gather(socket(), *(getter(http) for _ in range(4)))
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games played at once (two clients each)")
    ap.add_argument("--seconds", type=float, default=10.0, help="how long each database is loaded")
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--postgres", default=os.environ.get("GAMMON_TEST_POSTGRES_URL"),
                    help="a PostgreSQL URL (default: $GAMMON_TEST_POSTGRES_URL)")
    ap.add_argument("--processes", type=int, choices=(1, 2), default=1,
                    help="2: PostgreSQL on one process, then on two (each game's seats on both); the ratio")
    ap.add_argument("--accounts", action="store_true",
                    help="each database twice: guests, then logged-in players (accounts' seats)")
    ap.add_argument("--flood", action="store_true",
                    help="measure SQLite quietly and beside a flooding client, and compare the p99s")
    args = ap.parse_args()
    if args.flood:
        flood_case(args.games, args.seconds, args.variant)
        return

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
    rates = {}
    for name, url in targets:
        for logged_in in (False, True) if args.accounts else (False,):
            label = f"{name[:6]} accts" if logged_in else name
            if logged_in and name == "postgresql":
                from gammon.web.testing import reset_postgres

                reset_postgres(url)
            with ServerProcess(url if not logged_in or name != "sqlite" else url + ".accounts.db",
                               env=BENCH_ENV, args=BENCH_ARGS) as server:
                assert server.proc is not None
                cpu0 = cpu_seconds(server.proc.pid)
                stats, elapsed, _ = asyncio.run(load(server, args.games, args.seconds, args.variant,
                                                     accounts=logged_in))
                cpu1 = cpu_seconds(server.proc.pid)
            print(row(label, stats, elapsed, cpu0, cpu1))
            rates[label] = stats.actions / elapsed
        if args.accounts:
            print(f"{name}: logged-in players / guests, actions/s: "
                  f"{rates[f'{name[:6]} accts'] / rates[name]:.2f}")
    if args.processes == 2 and args.postgres:
        with contextlib.ExitStack() as stack:
            a, b = (ServerProcess(args.postgres, env=BENCH_ENV, args=BENCH_ARGS) for _ in range(2))
            for p in (a, b):
                p.start(wait_listening=True)
                stack.callback(p.stop)
            pids = [p.proc.pid for p in (a, b) if p.proc is not None]
            cpu0s = [cpu_seconds(pid) for pid in pids]
            stats, elapsed, _ = asyncio.run(load(a, args.games, args.seconds, args.variant, others=(b,)))
            cpu1s = [cpu_seconds(pid) for pid in pids]
        both = [c for c in (*cpu0s, *cpu1s) if c is not None]
        cpu0 = sum(c for c in cpu0s if c is not None) if len(both) == 4 else None
        cpu1 = sum(c for c in cpu1s if c is not None) if len(both) == 4 else None
        print(row("pg x2 proc", stats, elapsed, cpu0, cpu1))
        ratio = (stats.actions / elapsed) / rates["postgresql"] if rates.get("postgresql") else float("nan")
        print(f"scale-out: 2 processes / 1 process, actions/s: {ratio:.2f} (each game's two seats on different "
              f"processes; {os.cpu_count()} CPUs shared by the servers, PostgreSQL and the clients)")


#: The server's default limits, but for the per-address ones: every client here is 127.0.0.1.
BENCH_ENV = {"GAMMON_RATE_LIMITS": "1", "GAMMON_RATE_LIMIT_CLIENT": "100000/second",
             "GAMMON_RATE_LIMIT_CREATE": "100000/minute"}
BENCH_ARGS = ["--max-connections-per-address", "100000"]


def row(name: str, stats: Stats, elapsed: float, cpu0: float | None, cpu1: float | None) -> str:
    per_action = ((cpu1 - cpu0) / stats.actions * 1000 if cpu0 is not None and cpu1 is not None
                  and stats.actions else float("nan"))
    return (f"{name:<11} {stats.actions:>8} {stats.actions / elapsed:>10.1f} "
            f"{pct(stats.ack, 0.5):>7.1f}ms {pct(stats.ack, 0.99):>7.1f}ms "
            f"{pct(stats.push, 0.5):>7.1f}ms {pct(stats.push, 0.99):>7.1f}ms "
            f"{stats.games_finished:>6} {stats.errors:>6} {per_action:>16.2f}ms")


def flood_case(games: int, seconds: float, variant: str) -> None:
    """The same load twice on SQLite, quiet and beside a flooding client; the p99s and their ratio."""
    print(f"flood case: {games} games at once, {seconds:g} s each run, {variant}, {os.cpu_count()} CPUs")
    print(f"{'run':<11} {'actions':>8} {'actions/s':>10} {'ack p50':>9} {'ack p99':>9} "
          f"{'push p50':>9} {'push p99':>9} {'games':>6} {'errors':>6} {'server CPU/action':>18}")
    p99 = {}
    for name in ("quiet", "flooded"):
        url = os.path.join(tempfile.mkdtemp(prefix="gammon-flood-"), "gammon.db")
        with ServerProcess(url, env=BENCH_ENV, args=BENCH_ARGS) as server:
            assert server.proc is not None
            cpu0 = cpu_seconds(server.proc.pid)
            run = load(server, games, seconds, variant, flood=name == "flooded")
            stats, elapsed, flooded = asyncio.run(run)
            cpu1 = cpu_seconds(server.proc.pid)
        print(row(name, stats, elapsed, cpu0, cpu1))
        p99[name] = pct(stats.ack, 0.99)
        if flooded:
            print(f"{'':<11} the flooder: {flooded}")
    ratio = p99["flooded"] / p99["quiet"]
    verdict = "within" if ratio <= 2 else "OVER"
    print(f"ack p99 beside the flooder / quiet: {ratio:.2f} ({verdict} the 2x bound)")

if __name__ == "__main__":
    main()
