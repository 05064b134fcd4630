"""Abuse on the server, measured (issue 33): a socket flood from one address, and a NAT neighbour.

A server process (``python -m gammon.web``, its default rate limits on) runs the code of
``--src`` (default: this checkout's ``src``), so the same script measures the old code and
the new one.  Every client has its own loopback address (127.0.0.x), as on the internet.

(a) **Socket flood.**  ``--games`` games between people, each seat a REST client on an
    address of its own, playing at a person's pace (a request every 0.3 s), for
    ``--seconds``; then the same while one address (127.0.0.2, a process of its own)
    opens ``--flood-sockets`` spectator sockets on one of those games and pings on each
    20 times a second (the per-socket rate).  Printed: the players' request latency p50/p99
    and actions/s, quiet and flooded, with the ratios (issue: p99 within 1.5x, throughput at
    least 80%); the sockets the flooder got open and the answers it got per second.
(b) **Two players behind one address.**  Ann and her neighbour share 127.0.0.60, Bob is on
    127.0.0.61; they play a clocked game (600 s reserve, no delay) while the neighbour sends
    anonymous requests as fast as it can.  Ann acts as the page does: on 429 she waits out
    ``Retry-After`` and sends again.  Printed: the 429s Ann's seat actions got, the seconds she
    waited for them, and the reserve her clock lost against Bob's (both move at once).

Bounded in time (about ``2 * seconds + 60`` s), loopback only.  Usage::

    .venv/bin/python benchmarks/server_abuse.py --label branch
    .venv/bin/python benchmarks/server_abuse.py --src /path/to/old/src --label main
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import multiprocessing
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from gammon.web.testing import ServerProcess, pick_action

FLOOD_ADDRESS = "127.0.0.2"
PACE = 0.3  # seconds between a player's requests: a person's pace, under every per-address limit


@dataclass
class Load:
    actions: int = 0
    latency: list[float] = field(default_factory=list)
    refused: int = 0


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def first_message_auth(src: Path) -> bool:
    """Whether the server of ``src`` takes a socket's token in its first message (not the URL)."""
    ws = src / "gammon" / "web" / "routes" / "ws.py"
    return "'auth'" in ws.read_text() or '"auth"' in ws.read_text()


def client(url: str, address: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=url, timeout=30,
                             transport=httpx.AsyncHTTPTransport(local_address=address))


async def new_game(host: httpx.AsyncClient, guest: httpx.AsyncClient, **body: Any) -> tuple[str, list[str]]:
    r = await host.post("/api/games", json={"opponent": "human", **body})
    r.raise_for_status()
    d = r.json()
    j = await guest.post(f"/api/games/{d['game_id']}/join",
                         headers={"Authorization": f"Bearer {d['invite_token']}"})
    j.raise_for_status()
    return str(d["game_id"]), [d["token"], j.json()["token"]]


async def timed(load: Load, request: Any) -> httpx.Response | None:
    """Send ``request`` (a coroutine factory) as the page does: on 429 wait ``Retry-After``, again."""
    start = time.perf_counter()
    for _ in range(100):
        r = await request()
        if r.status_code != 429:
            load.latency.append(time.perf_counter() - start)
            return r  # type: ignore[no-any-return]
        load.refused += 1
        await asyncio.sleep(float(r.headers.get("retry-after", "1")))
    return None


async def seat(c: httpx.AsyncClient, gid: str, token: str, load: Load, deadline: float) -> None:
    auth = {"Authorization": f"Bearer {token}"}
    while time.monotonic() < deadline:
        r = await timed(load, functools.partial(c.get, f"/api/games/{gid}", headers=auth))
        if r is None or r.status_code != 200:
            return
        state = r.json()
        if state["match"]["over"]:
            return
        action = pick_action(state)
        if action is not None:
            body = {**action, "expected_version": state["version"]}
            post = functools.partial(c.post, f"/api/games/{gid}/actions", headers=auth, json=body)
            a = await timed(load, post)
            load.actions += a is not None and a.status_code == 200
        await asyncio.sleep(PACE)


async def play_games(url: str, games: list[tuple[str, list[str], list[httpx.AsyncClient]]],
                     seconds: float) -> tuple[Load, float]:
    load = Load()
    start = time.monotonic()
    deadline = start + seconds
    await asyncio.gather(*(seat(cs[s], gid, tokens[s], load, deadline)
                           for gid, tokens, cs in games for s in (0, 1)))
    return load, time.monotonic() - start


# -- the flooder, in a process of its own ----------------------------------------------------------


def flood(ws_url: str, sockets: int, seconds: float, auth: bool, out: Any) -> None:
    asyncio.run(_flood(ws_url, sockets, seconds, auth, out))


async def _flood(ws_url: str, sockets: int, seconds: float, auth: bool, out: Any) -> None:
    from websockets.asyncio.client import connect

    opened = 0
    answers = 0
    stop = time.monotonic() + seconds

    async def one(i: int) -> None:
        nonlocal opened, answers
        await asyncio.sleep(i * 0.01)  # 100 connections a second
        try:
            async with connect(ws_url, local_addr=(FLOOD_ADDRESS, 0), open_timeout=10,
                               max_size=None) as ws:
                if auth:
                    await ws.send(json.dumps({"type": "auth"}))
                hello = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if hello.get("type") != "hello":
                    return
                opened += 1

                async def read() -> None:
                    nonlocal answers
                    async for _ in ws:
                        answers += 1

                reader = asyncio.create_task(read())
                while time.monotonic() < stop:
                    await ws.send('{"type": "ping"}')
                    await asyncio.sleep(0.05)
                reader.cancel()
        except Exception:  # refused, closed or timed out: the server's choice
            return

    await asyncio.gather(*(one(i) for i in range(sockets)))
    out.put((opened, answers / max(1e-9, seconds)))


# -- the scenarios -----------------------------------------------------------------------------------


async def scenario_flood(server: ServerProcess, args: argparse.Namespace, auth: bool) -> list[str]:
    clients: list[httpx.AsyncClient] = []
    games = []
    for i in range(args.games):
        pair = [client(server.url, f"127.0.0.{10 + 2 * i}"), client(server.url, f"127.0.0.{11 + 2 * i}")]
        clients += pair
        gid, tokens = await new_game(pair[0], pair[1])
        games.append((gid, tokens, pair))
    try:
        quiet, quiet_s = await play_games(server.url, games, args.seconds)
        queue: Any = multiprocessing.get_context("fork").Queue()
        flooder = multiprocessing.get_context("fork").Process(
            target=flood, args=(f"{server.ws_url}/api/games/{games[0][0]}/ws", args.flood_sockets,
                                args.seconds + 8, auth, queue))
        flooder.start()
        await asyncio.sleep(5)  # the flooder opens its sockets
        flooded, flooded_s = await play_games(server.url, games, args.seconds)
        flooder.join(60)
        opened, answers = queue.get(timeout=10) if not queue.empty() else (-1, float("nan"))
        if flooder.is_alive():
            flooder.kill()
    finally:
        for c in clients:
            await c.aclose()
    q_rate, f_rate = quiet.actions / quiet_s, flooded.actions / flooded_s
    p99q, p99f = pct(quiet.latency, 0.99), pct(flooded.latency, 0.99)
    return [
        f"(a) socket flood: {args.games} games, {args.seconds:g} s each phase, "
        f"{args.flood_sockets} flooding sockets from one address",
        f"    quiet:   {q_rate:6.1f} actions/s  p50 {pct(quiet.latency, 0.5):6.1f} ms  p99 {p99q:7.1f} ms  "
        f"429s {quiet.refused}",
        f"    flooded: {f_rate:6.1f} actions/s  p50 {pct(flooded.latency, 0.5):6.1f} ms  p99 {p99f:7.1f} ms  "
        f"429s {flooded.refused}",
        f"    flooder: {opened} sockets open, {answers:.0f} answers/s",
        f"    p99 flooded/quiet {p99f / p99q:.2f} (goal <= 1.5); throughput {100 * f_rate / q_rate:.0f}% "
        f"(goal >= 80%)",
    ]


async def scenario_nat(server: ServerProcess, args: argparse.Namespace) -> list[str]:
    shared, far = "127.0.0.60", "127.0.0.61"
    ann, neighbour, bob = client(server.url, shared), client(server.url, shared), client(server.url, far)
    try:
        gid, tokens = await new_game(ann, bob, clock_reserve=600, clock_delay=0)
        stop = asyncio.Event()
        spent = 0

        async def spend() -> None:
            nonlocal spent
            while not stop.is_set():
                r = await neighbour.get("/api/lobby")
                spent += 1
                if r.status_code == 429:
                    await asyncio.sleep(0.01)

        spender = asyncio.create_task(spend())
        await asyncio.sleep(2)  # the address's budget is spent before Ann's first move
        loads = [Load(), Load()]
        deadline = time.monotonic() + args.nat_seconds
        await asyncio.gather(seat(ann, gid, tokens[0], loads[0], deadline),
                             seat(bob, gid, tokens[1], loads[1], deadline))
        stop.set()
        await spender
        state = (await bob.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {tokens[1]}"})).json()
    finally:
        for c in (ann, neighbour, bob):
            await c.aclose()
    clock = state.get("clock") or {}
    remaining = clock.get("remaining") or [float("nan"), float("nan")]
    waited = sum(x for x in loads[0].latency if x > 0.5)
    return [
        f"(b) two players behind one address, the neighbour spending its budget ({spent} requests), "
        f"{args.nat_seconds:g} s",
        f"    Ann (shared address): {loads[0].actions} actions, 429s on her requests {loads[0].refused}, "
        f"{waited:.1f} s spent in requests over 0.5 s, p99 {pct(loads[0].latency, 0.99):.1f} ms",
        f"    Bob (own address):    {loads[1].actions} actions, 429s {loads[1].refused}, "
        f"p99 {pct(loads[1].latency, 0.99):.1f} ms",
        f"    reserve lost: Ann {600 - remaining[0]:.1f} s, Bob {600 - remaining[1]:.1f} s "
        f"(status {state.get('status')}, over: {state.get('match', {}).get('over')})",
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1] / "src",
                        help="the gammon source tree the server runs (default: this checkout's)")
    parser.add_argument("--label", default="this checkout")
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=12)
    parser.add_argument("--flood-sockets", type=int, default=300)
    parser.add_argument("--nat-seconds", type=float, default=20)
    parser.add_argument("--out", type=Path, default=None, help="also write the figures to this file")
    args = parser.parse_args(argv)
    random.seed(1)
    src = args.src.resolve()
    auth = first_message_auth(src)
    repo = Path(__file__).resolve().parents[1]
    # The report names the source tree without this machine's paths: relative to this checkout,
    # or "another checkout" for code elsewhere (the label says which commit it was).
    shown = src.relative_to(repo) if src.is_relative_to(repo) else "another checkout's src"
    lines = [f"server_abuse.py: {args.label} ({shown}), socket auth in the first message: {auth}",
             f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {time.strftime('%Y-%m-%d %H:%M')}"]
    with tempfile.TemporaryDirectory() as tmp:
        env = {"PYTHONPATH": str(src), "GAMMON_RATE_LIMITS": "1", "PYTHONDONTWRITEBYTECODE": "1",
               "NUMBA_CACHE_DIR": str(Path(tmp) / "numba")}
        with ServerProcess(str(Path(tmp) / "g.db"), env=env) as server:
            lines += asyncio.run(scenario_flood(server, args, auth))
        with ServerProcess(str(Path(tmp) / "n.db"), env=env) as server:
            lines += asyncio.run(scenario_nat(server, args))
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
