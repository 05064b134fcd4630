"""Oversized request heads against the server, before and after the head limits, in one run.

Two server processes on the same kind of SQLite database, one after the other:

* ``before``: the application under uvicorn's plain httptools protocol, as ``gammon serve``
  ran it until the limits of :mod:`gammon.web.http_limits` (no bound on a request head);
* ``after``: ``python -m gammon.web``, the same :func:`gammon.web.server.serve` as
  ``gammon serve``.

For each, an honest client GETs a game's state over and over, alone (the baseline)
and while ``--attackers`` clients each send one request with a ``--header-mib`` MiB
header as fast as the server reads it (``--seconds`` S: again and again for S seconds).
Printed: how long each attacker waited for its answer (and what it was), the honest
client's p50/p99/worst latency alone and under attack and their ratio, and the
server's peak memory.  The issue's figures: 8 x 64 MiB, refused in under
0.1 s each, the others' p99 within 1.2x of the baseline.

Usage::

    .venv/bin/python benchmarks/server_headers.py                 # 8 x 64 MiB (the before run takes minutes)
    .venv/bin/python benchmarks/server_headers.py --header-mib 4  # quicker
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field

import httpx

from gammon.web.testing import ServerProcess, free_port

BEFORE = """
import sys, uvicorn
from gammon.web.app import create_app
from gammon.web.config import Settings
uvicorn.run(create_app(Settings.from_env(database_url=sys.argv[1])), host="127.0.0.1", port=int(sys.argv[2]),
            http="httptools", log_level="warning")
"""


@dataclass
class Attack:
    waits: list[float] = field(default_factory=list)
    sent_mib: float = 0.0
    answers: set[str] = field(default_factory=set)


@dataclass
class Honest:
    times: list[float] = field(default_factory=list)

    def pct(self, q: float) -> float:
        values = sorted(self.times)
        return values[min(len(values) - 1, int(q * len(values)))] * 1000 if values else float("nan")


def attack(port: int, size: int, out: Attack, cap: float, seconds: float) -> None:
    """Send oversized heads one after the other for ``seconds`` (at least one)."""
    began = time.monotonic()
    while not out.waits or time.monotonic() - began < seconds:
        attack_once(port, size, out, cap)


def attack_once(port: int, size: int, out: Attack, cap: float) -> None:
    started = time.monotonic()
    chunk = b"a" * 65536
    total = 0
    with socket.create_connection(("127.0.0.1", port), timeout=cap) as sock:
        try:
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ")
            while total < size:
                sock.sendall(chunk)
                total += len(chunk)
            sock.sendall(b"\r\n\r\n")
        except OSError:
            pass
        data = b""
        try:
            sock.settimeout(max(1.0, cap - (time.monotonic() - started)))
            while c := sock.recv(65536):
                data += c
                if b"\r\n\r\n" in data:
                    break
        except OSError:
            pass
    out.waits.append(time.monotonic() - started)
    out.sent_mib = max(out.sent_mib, total / (1 << 20))
    out.answers.add(data.split(b"\r\n", 1)[0].decode(errors="replace") or "(closed)")


def honest_loop(url: str, path: str, until: threading.Event, out: Honest, minimum: float) -> None:
    started = time.monotonic()
    with httpx.Client(base_url=url, timeout=120) as client:
        while not until.is_set() or time.monotonic() - started < minimum:
            t = time.perf_counter()
            try:
                client.get(path)
            except httpx.HTTPError:
                pass
            out.times.append(time.perf_counter() - t)


def peak_rss_mib(pid: int) -> float:
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def measure(name: str, url: str, pid: int, port: int, attackers: int, size: int, cap: float,
            seconds: float) -> None:
    game = httpx.post(f"{url}/api/games", json={"opponent": "computer", "computer_level": "heuristic"},
                      timeout=30).json()["game_id"]
    path = f"/api/games/{game}"
    quiet = Honest()
    stop = threading.Event()
    stop.set()
    honest_loop(url, path, stop, quiet, 3.0)
    busy = Honest()
    stop = threading.Event()
    results = [Attack() for _ in range(attackers)]
    threads = [threading.Thread(target=attack, args=(port, size, r, cap, seconds)) for r in results]
    watcher = threading.Thread(target=honest_loop, args=(url, path, stop, busy, 3.0))
    watcher.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stop.set()
    watcher.join()
    waits = sorted(w for r in results for w in r.waits)
    answers = sorted(set().union(*(r.answers for r in results)))
    most = max(r.sent_mib for r in results)
    print(f"{name:<7} {len(waits)} oversized requests, each waited {waits[0]:.3f}-{waits[-1]:.3f} s, sent "
          f"{most:.1f} MiB at most, answered {answers}")
    ratio = busy.pct(0.99) / quiet.pct(0.99)
    print(f"{'':<7} honest GET p50/p99/worst: alone {quiet.pct(0.5):.1f}/{quiet.pct(0.99):.1f}/"
          f"{max(quiet.times) * 1000:.1f} ms ({len(quiet.times)}), under attack {busy.pct(0.5):.1f}/"
          f"{busy.pct(0.99):.1f}/{max(busy.times) * 1000:.1f} ms ({len(busy.times)}); p99 ratio {ratio:.2f}; "
          f"server peak memory {peak_rss_mib(pid):.0f} MiB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--attackers", type=int, default=8)
    ap.add_argument("--header-mib", type=int, default=64)
    ap.add_argument("--cap", type=float, default=300.0, help="seconds an attacker waits at most")
    ap.add_argument("--seconds", type=float, default=0.0,
                    help="attackers repeat their requests this long (default: one each)")
    ap.add_argument("--only", choices=("before", "after"), default=None)
    args = ap.parse_args()
    size = args.header_mib << 20
    print(f"{args.attackers} attackers x {args.header_mib} MiB header; {os.cpu_count()} CPUs")
    folder = tempfile.mkdtemp(prefix="gammon-headers-")
    if args.only in (None, "before"):
        port = free_port()
        env = {**os.environ, "GAMMON_RATE_LIMITS": "0"}
        proc = subprocess.Popen([sys.executable, "-c", BEFORE, os.path.join(folder, "before.db"), str(port)],
                                env=env)
        try:
            url = f"http://127.0.0.1:{port}"
            for _ in range(600):
                try:
                    urllib.request.urlopen(url + "/api/health", timeout=2)
                    break
                except OSError:
                    time.sleep(0.1)
            measure("before", url, proc.pid, port, args.attackers, size, args.cap, args.seconds)
        finally:
            proc.terminate()
            proc.wait(30)
    if args.only in (None, "after"):
        with ServerProcess(os.path.join(folder, "after.db")) as server:
            assert server.proc is not None
            measure("after", server.url, server.proc.pid, server.port, args.attackers, size, args.cap,
                    args.seconds)


if __name__ == "__main__":
    main()
