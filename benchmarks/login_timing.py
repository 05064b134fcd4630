"""Can a stranger tell a name that exists from one that does not by how long a failed login takes?

Issue 37: an unknown name and a wrong password get the same answer *in the same time*.  The server
checks an unknown name's password against a dummy Argon2id hash with the same parameters, so both
failures do one Argon2 verification.  This benchmark measures it through the real ASGI app
(TestClient: routing, the Origin check, the database look-up, Argon2, the error answer), the
login throttle off so that every attempt is checked:

* ``--rounds`` pairs of attempts, a wrong password for an existing account and any password for a
  name nobody has, interleaved (ABAB...) so that drifts of the machine hit both alike;
* printed: the median, p10 and p90 of each, the difference of the medians (absolute and relative
  to the median), and for scale what the unknown-name path would cost without the dummy check
  (the database look-up alone).

Usage::

    .venv/bin/python benchmarks/login_timing.py --rounds 200
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

from gammon.web import Settings, create_app
from gammon.web.account_names import name_key
from gammon.web.login_throttle import LoginLimits, LoginThrottle
from gammon.web.ratelimit import RateLimits

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

HEADERS = {"Origin": "http://testserver"}


def _quantiles(xs: list[float]) -> tuple[float, float, float]:
    q = statistics.quantiles(xs, n=10)
    return q[0], statistics.median(xs), q[-1]


def _line(label: str, xs: list[float]) -> str:
    p10, p50, p90 = _quantiles(xs)
    return (f"{label:<34} median {p50 * 1000:7.2f} ms   p10 {p10 * 1000:7.2f}   p90 {p90 * 1000:7.2f}"
            f"   (n={len(xs)})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=200)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_url=str(Path(tmp) / "gammon.db"), rate_limits=RateLimits(enabled=False))
        app = create_app(settings)
        with TestClient(app) as c:
            accounts = app.state.accounts
            accounts.throttle = LoginThrottle(LoginLimits(enabled=False))
            r = c.post("/api/accounts", json={"name": "Ann Timing", "password": "correct horse battery"},
                       headers=HEADERS)
            assert r.status_code == 201, r.text
            c.cookies.clear()
            wrong: list[float] = []
            unknown: list[float] = []
            bodies = set()
            for i in range(args.rounds + 5):
                for name, sink in (("Ann Timing", wrong), (f"Nobody {i}", unknown)):
                    t0 = time.perf_counter()
                    r = c.post("/api/session", json={"name": name, "password": f"wrong password {i}"},
                               headers=HEADERS)
                    dt = time.perf_counter() - t0
                    assert r.status_code == 401, r.text
                    bodies.add(r.content)
                    if i >= 5:  # the first rounds warm up the worker threads
                        sink.append(dt)
            lookup: list[float] = []
            for i in range(args.rounds):
                t0 = time.perf_counter()
                accounts.store.by_key(name_key(f"Nobody {i}"))
                lookup.append(time.perf_counter() - t0)
    print(f"login timing through the ASGI app, {args.rounds} interleaved pairs (argon2-cffi defaults)")
    print(_line("wrong password, existing name", wrong))
    print(_line("unknown name (dummy hash check)", unknown))
    print(_line("unknown name without the dummy:", lookup) + "  <- database look-up alone")
    dm = statistics.median(unknown) - statistics.median(wrong)
    print(f"difference of the medians: {dm * 1000:+.2f} ms ({dm / statistics.median(wrong) * 100:+.1f}%)")
    print(f"distinct answer bodies: {len(bodies)} (status 401 for all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
