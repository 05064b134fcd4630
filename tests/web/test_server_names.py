"""Names, the health check and the computer's seed (issue 11, security item 4).

* names are normalised once (NFC; control, format and bidirectional-override
  characters removed; white space collapsed) with one length limit, and the
  longest allowed names go through the ``.mat`` export to gammon's reader and
  to GNU Backgammon intact;
* the computer's deliberate mistakes are seeded from the game's secret, not
  from its public id;
* the health check asks the database.
"""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from gammon.formats.mat import read_mat
from gammon.web.names import NAME_MAX_LENGTH, normalize_name
from gammon.web.service import computer_seed
from gammon.web.testing import pick_action
from gnubg_program import GNUBG, GNUBG_MISSING
from webclient import TEST_SERVER, TestClient, bearer, client_fixture

client = client_fixture("names", **TEST_SERVER)


@pytest.mark.parametrize(("raw", "expected"), [
    ("Ann", "Ann"),
    ("  Ann \t\n Lee  ", "Ann Lee"),
    ("Ann\u202eeL", "AnneL"),  # a right-to-left override would show the name reversed
    ("\u2066Bob\u2069\u200b\u00ad", "Bob"),  # isolates, a zero-width space, a soft hyphen
    ("Zoe\x00\x07\x1b[31m", "Zoe[31m"),  # control characters (an escape sequence loses its ESC)
    ("Cafe\u0301", "Caf\u00e9"),  # NFC: one name, one string
    ("\u202e\u200b ", "Guest"),
    ("x" * 30, "x" * NAME_MAX_LENGTH),
])
def test_normalize_name(raw: str, expected: str) -> None:
    assert normalize_name(raw, "Guest") == expected


def test_the_api_stores_normalised_names_and_refuses_long_ones(client: TestClient) -> None:
    d = client.post("/api/games", json={"opponent": "human", "name": "\u202eAnn\u0007 ",
                                        "opponent_name": "B\u200bob"}).json()
    assert [s["name"] for s in d["state"]["seats"]] == ["Ann", "Bob"]
    invite = bearer(d["invite_token"])
    joined = client.post(f"/api/games/{d['game_id']}/join", headers=invite,
                         json={"name": "\u2067Carol\u2069"}).json()
    assert joined["state"]["seats"][1]["name"] == "Carol"
    too_long = client.post("/api/games", json={"name": "x" * (NAME_MAX_LENGTH + 1)})
    assert too_long.status_code == 422
    assert client.get("/api/info").json()["name_max_length"] == NAME_MAX_LENGTH


def test_the_pages_use_the_same_limit() -> None:
    from gammon.web.routes.pages import STATIC_DIR

    util = (STATIC_DIR / "js" / "util.js").read_text()
    assert re.search(r"export const NAME_MAX_LENGTH = (\d+);", util).group(1) == str(NAME_MAX_LENGTH)  # type: ignore[union-attr]
    for page in ("start.js", "join.js"):
        assert "maxlength: 40" not in (STATIC_DIR / "js" / page).read_text()


def finished_game(client: TestClient, names: tuple[str, str]) -> str:
    d = client.post("/api/games", json={
        "opponent": "computer", "variant": "hypergammon", "computer_level": "heuristic", "name": names[0],
        "opponent_name": names[1], "test_seed": "12" * 32}).json()
    gid, token = d["game_id"], d["token"]
    deadline = time.monotonic() + 60
    while True:
        s = client.get(f"/api/games/{gid}", headers=bearer(token)).json()
        if s["status"] == "finished":
            return str(gid)
        assert time.monotonic() < deadline
        action = pick_action(s) if s["your_turn"] else None
        if action:
            client.post(f"/api/games/{gid}/actions", json=action, headers=bearer(token))
        else:
            time.sleep(0.01)


LONGEST = ("Ånna-Maria Łopez-Garcíaxy", "Zed the Computer, level9")


def test_the_longest_names_survive_the_mat_export(client: TestClient, tmp_path: Path) -> None:
    names = tuple(n[:NAME_MAX_LENGTH] for n in LONGEST)
    assert all(len(n) == NAME_MAX_LENGTH for n in names)
    mat = client.get(f"/api/games/{finished_game(client, names)}/export.mat").text  # type: ignore[arg-type]
    assert read_mat(mat).names == names
    if GNUBG is None:
        pytest.skip(f"{GNUBG_MISSING}: the .mat file was checked with gammon's reader only")
    from gammon.formats.sgf import read_sgf

    (tmp_path / "home").mkdir()
    (tmp_path / "in.mat").write_text(mat)
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin", "LANG": "C", "LC_ALL": "C", "TERM": "dumb"}
    proc = subprocess.run([GNUBG, "-t", "-q", "-r"], input="set confirm new off\nimport mat in.mat\n"
                          "save match out.sgf\nquit\n", capture_output=True, text=True, cwd=tmp_path, env=env,
                          timeout=240, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "warning" not in out.lower() and "invalid" not in out.lower(), out[-2000:]
    assert read_sgf((tmp_path / "out.sgf").read_text()).names == names


def test_every_export_cleans_names_as_the_record_registry_does(client: TestClient) -> None:
    """The server's exports render through :func:`gammon.formats.record_files.render_record`, as ``gammon
    convert`` and the terminal's ``save`` do: one way to clean a name (a ``.mat`` file cannot hold ':')."""
    from gammon.formats.record_files import parse_record

    names = ("Ann: the first", "Bo:b")
    gid = finished_game(client, names)
    mat = client.get(f"/api/games/{gid}/export.mat").text
    assert read_mat(mat).names == ("Ann - the first", "Bo -b")
    sgf = client.get(f"/api/games/{gid}/export.sgf").text
    assert parse_record(sgf, ".sgf").names == names


# -- the computer's seed and the health check ------------------------------------------------------


def test_the_computers_seed_comes_from_the_game_secret() -> None:
    a, b = bytes(32), bytes([1]) * 32
    assert computer_seed(a, 0) == computer_seed(a, 0)
    assert len({computer_seed(a, 0), computer_seed(a, 1), computer_seed(b, 0), computer_seed(b, 1)}) == 4


def test_the_service_seeds_the_computer_from_the_secret(client: TestClient) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    seeds: list[Any] = []
    real = service.computer_factory
    service.computer_factory = lambda level, seed: seeds.append(seed) or real(level, seed)
    try:
        d = client.post("/api/games", json={"opponent": "computer", "computer_level": "beginner",
                                            "test_seed": "34" * 32}).json()
        deadline = time.monotonic() + 30
        while not seeds:
            mine = bearer(d["token"])
            s = client.get(f"/api/games/{d['game_id']}", headers=mine).json()
            action = pick_action(s) if s["your_turn"] else None
            if action:
                client.post(f"/api/games/{d['game_id']}/actions", json=action,
                            headers=bearer(d["token"]))
            assert time.monotonic() < deadline
            time.sleep(0.01)
    finally:
        service.computer_factory = real
    assert seeds[0] == computer_seed(bytes.fromhex("34" * 32), 1)


def test_health_reports_the_database(client: TestClient) -> None:
    h = client.get("/api/health")
    assert h.status_code == 200
    body = h.json()
    assert body["status"] == "ok" and body["database_state"] == "ok" and body["schema_revision"]
    store = client.app.state.service.store  # type: ignore[attr-defined]

    def down() -> None:
        raise OSError("connection refused")

    store.ping = down
    try:
        h = client.get("/api/health")
    finally:
        del store.ping
    assert h.status_code == 503 and h.json()["status"] == "degraded"
    assert h.json()["database_state"] == "unreachable"
