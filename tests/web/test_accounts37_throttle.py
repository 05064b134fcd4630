"""Password guessing as an attacker does it, against the real app: brute force on one account,
credential stuffing across many names from one address, and telling names apart by the answers
(the timing is measured by benchmarks/login_timing.py, not asserted here)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from accounts37_helpers import SAME, TestClient, log_in, make_client, other_client, sign_up
from gammon.web.login_throttle import LoginLimits, LoginThrottle
from gammon.web.service import BusyError


@pytest.fixture(scope="module")
def app_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    yield from make_client(str(tmp_path_factory.mktemp("throttle") / "gammon.db"))


@pytest.fixture
def client(app_client: TestClient) -> TestClient:
    """The app with its login counts forgotten (every test client comes from one address)."""
    app_client.app.state.accounts.throttle = LoginThrottle()  # type: ignore[attr-defined]
    return app_client


def _attempt(c: TestClient, name: str, password: str) -> tuple[int, str, str | None]:
    r = other_client(c).post("/api/session", json={"name": name, "password": password}, headers=SAME)
    return r.status_code, r.text, r.headers.get("retry-after")


def test_the_eleventh_wrong_password_in_a_minute_is_refused(client: TestClient) -> None:
    sign_up(other_client(client), "Rex Target")
    for i in range(10):
        status, body, _ = _attempt(client, "Rex Target", f"guess number {i}")
        assert status == 401, body
    status, body, retry = _attempt(client, "Rex Target", "guess number 10")
    assert status == 429 and '"login_throttled"' in body
    assert retry is not None and 30 <= int(retry) <= 60
    # blocked means blocked: even the right password waits (the guesser learns nothing)
    status, _, _ = _attempt(client, "REX TARGET", "correct horse battery")
    assert status == 429


def test_credential_stuffing_across_names_is_throttled(client: TestClient) -> None:
    sign_up(other_client(client), "Sue Stuffed")
    for i in range(30):  # one guess at each of many names, from one address
        status, body, _ = _attempt(client, f"Someone {i}", "password123456")
        assert status == 401, body
    status, body, retry = _attempt(client, "Sue Stuffed", "correct horse battery")
    assert status == 429 and retry is not None


def test_unknown_name_and_wrong_password_get_the_same_answer(client: TestClient) -> None:
    sign_up(other_client(client), "Tom Known")
    known = other_client(client).post("/api/session", json={"name": "Tom Known", "password": "wrong password"},
                                      headers=SAME)
    unknown = other_client(client).post("/api/session", json={"name": "Tom Unknown", "password":
                                                              "wrong password"}, headers=SAME)
    assert known.status_code == unknown.status_code == 401
    assert known.content == unknown.content
    assert "set-cookie" not in known.headers and "set-cookie" not in unknown.headers
    drop = {"date", "content-length"}
    assert ({k: v for k, v in known.headers.items() if k not in drop}
            == {k: v for k, v in unknown.headers.items() if k not in drop})


def test_a_successful_login_starts_the_account_count_again(client: TestClient) -> None:
    sign_up(other_client(client), "Uma Forgetful")
    for _ in range(9):
        assert _attempt(client, "Uma Forgetful", "not my password")[0] == 401
    log_in(other_client(client), "Uma Forgetful")
    for _ in range(9):
        assert _attempt(client, "Uma Forgetful", "not my password")[0] == 401
    log_in(other_client(client), "Uma Forgetful")


def test_blocks_grow_and_wear_off() -> None:
    throttle = LoginThrottle(LoginLimits(per_account=10, per_address=1000, window=60, base_delay=60))
    now = 1000.0

    def fail_ten() -> None:
        for i in range(10):
            throttle.check("ann", "1.2.3.4", now + i * 0.1)
            throttle.failed("ann", "1.2.3.4", now + i * 0.1)

    fail_ten()
    with pytest.raises(BusyError) as first:
        throttle.check("ann", "1.2.3.4", now + 1)
    assert 58 <= first.value.retry_after <= 60
    throttle.check("bob", "5.6.7.8", now + 1)  # nobody else is blocked
    now += 61
    throttle.check("ann", "1.2.3.4", now)  # worn off
    fail_ten()
    with pytest.raises(BusyError) as second:
        throttle.check("ann", "1.2.3.4", now + 1)
    assert 118 <= second.value.retry_after <= 120  # twice as long
