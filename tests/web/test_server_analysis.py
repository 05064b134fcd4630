"""The after-game analysis of the web service: ``gammon analyse``'s report, made in a thread and kept.

Issue 13, item 6: the browser's after-game page shows the same analysis as the
command line.  The endpoint's figures are checked against ``gammon.analysis``
run here on the game's exported record; the marks follow GNU Backgammon 1.07's
thresholds (0.030 / 0.060 / 0.120); a request never waits for the analysis
(it answers ``running`` with the progress), and each finished game is
analysed once.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from gammon.analysis.analyse import analyse_record
from gammon.core.errors import GammonError
from gammon.core.game import Rules
from gammon.formats.record_files import parse_record
from gammon.web.schemas import AnalysisResult
from gammon.web.service import analysis as analysis_module
from gammon.web.service.analysis import Analyses, Snapshot
from gammon.web.testing import pick_action
from webclient import TEST_SERVER, TestClient, bearer, client_fixture

SEED = "7a" * 32
PLIES = 0  # the server's depth in these tests (the default, 2-ply, is the same code, slower)


client = client_fixture("analysis", **TEST_SERVER, analysis_plies=PLIES)


def finished_game(c: TestClient, **body: Any) -> str:
    """A game against the computer played to its end by the test (random legal actions)."""
    r = c.post("/api/games", json={"opponent": "computer", "test_seed": SEED, "name": "Ann", **body})
    assert r.status_code == 201, r.text
    gid, token = r.json()["game_id"], r.json()["token"]
    for _ in range(3000):
        st = c.get(f"/api/games/{gid}", headers=bearer(token)).json()
        if st["match"]["over"]:
            return str(gid)
        action = pick_action(st)
        if action is None:
            time.sleep(0.01)
            continue
        c.post(f"/api/games/{gid}/actions", json=action, headers=bearer(token))
    raise AssertionError("the game does not end")


def until_made(c: TestClient, gid: str) -> dict[str, Any]:
    seen_running = []
    for _ in range(3000):
        r = c.get(f"/api/games/{gid}/analysis")
        assert r.status_code == 200, r.text
        a = r.json()
        if a["status"] != "running":
            return dict(a)
        assert 0 <= a["done"] <= max(a["total"], 0) or a["total"] == 0
        seen_running.append((a["done"], a["total"]))
        time.sleep(0.05)
    raise AssertionError("the analysis is never made")


@pytest.fixture(scope="module")
def hyper(client: TestClient) -> tuple[str, dict[str, Any]]:
    gid = finished_game(client, variant="hypergammon")
    return gid, until_made(client, gid)


def test_not_before_the_game_is_over(client: TestClient) -> None:
    r = client.post("/api/games", json={"opponent": "computer", "test_seed": SEED})
    r = client.get(f"/api/games/{r.json()['game_id']}/analysis")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_over"
    assert client.get("/api/games/nosuchgame/analysis").status_code == 404


def test_the_report_is_the_same_as_gammon_analyse_on_the_exported_record(
        client: TestClient, hyper: tuple[str, dict[str, Any]]) -> None:
    gid, got = hyper
    assert got["status"] == "done" and got["engine"] == f"gammon.analysis {PLIES}-ply"
    record = parse_record(client.get(f"/api/games/{gid}/export.json").text, ".json")
    expected = analyse_record(record.rules, record.games, record.names, plies=PLIES, processes=1,
                              games_limit=record.games_limit).to_dict()
    report = got["report"]
    assert report["plies"] == PLIES and report["variant"] == "hypergammon"
    for mine, theirs in zip(report["players"], expected["players"], strict=True):
        for key in ("name", "checker_error_rate", "cube_error_rate", "error_rate", "pr", "marks",
                    "unforced_moves", "close_cube_decisions", "luck", "rating"):
            assert mine[key] == theirs[key], key
    mine_d = [d for g in report["games"] for d in g["decisions"]]
    theirs_d = [d for g in expected["games"] for d in g["decisions"]]
    assert len(mine_d) == len(theirs_d) == got["total"] == got["done"] > 0
    for a, b in zip(mine_d, theirs_d, strict=True):
        assert (a["kind"], a["played"], a["best"], a["equity_lost"], a["mark"], a["explanation"]) == \
               (b["kind"], b["played"], b["best"], b["equity_lost"], b["mark"], b["explanation"])
    assert got["graph_svg"].startswith("<svg") and got["graph_svg"].rstrip().endswith("</svg>")


def test_the_record_marks_follow_gnubg_thresholds_and_the_record_numbers(
        client: TestClient, hyper: tuple[str, dict[str, Any]]) -> None:
    gid, got = hyper
    actions = {e["seq"]: e for e in client.get(f"/api/games/{gid}/actions").json()["actions"]}
    plays = got["plays"]
    assert plays, "a whole game has plays with a choice"
    symbols = {None: None, "doubtful": "?!", "error": "?", "blunder": "??"}
    decisions = [d for g in got["report"]["games"] for d in g["decisions"]]
    moves = [d for d in decisions if d["kind"] == "move" and not d["forced"]]
    assert [p["mark"] for p in plays] == [symbols[d["mark"]] for d in moves]
    for p in plays:
        assert actions[p["seq"]]["type"] == "play" and actions[p["seq"]]["player"] == p["player"]
        loss = p["loss"]
        expected = "??" if loss >= 0.12 else "?" if loss >= 0.06 else "?!" if loss >= 0.03 else None
        assert p["mark"] == expected, p


def test_a_finished_game_is_analysed_once(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = analysis_module.analyse_snapshot

    def counting(*args: Any, **kwargs: Any) -> AnalysisResult:
        calls.append(args[0].game_id)
        return real(*args, **kwargs)

    monkeypatch.setattr(analysis_module, "analyse_snapshot", counting)
    gid = finished_game(client, variant="hypergammon", cube=False)
    first = until_made(client, gid)
    again = client.get(f"/api/games/{gid}/analysis").json()
    assert again == first and calls == [gid]


# -- the analysis threads, without a server ----------------------------------------------------


def snap(game_id: str = "g1") -> Snapshot:
    return Snapshot(game_id, Rules(), ((),), None, ("Ann", "Bob"), ())


def test_requests_get_the_progress_while_the_analysis_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    started = threading.Event()

    def slow(s: Snapshot, plies: int, progress: Any = None, valuer: Any = None) -> AnalysisResult:
        progress(1, 3)
        started.set()
        assert release.wait(60)
        return AnalysisResult(game_id=s.game_id, status="done", done=3, total=3, engine="x")

    monkeypatch.setattr(analysis_module, "analyse_snapshot", slow)
    monkeypatch.setattr(Analyses, "_valuer", lambda self: None)
    jobs = Analyses(plies=0)
    try:
        assert jobs.known("g1") is None
        first = jobs.start(snap())
        assert first.status == "running"
        assert started.wait(60)
        now = jobs.known("g1")
        assert now is not None and (now.status, now.done, now.total) == ("running", 1, 3)
        assert jobs.start(snap()).status == "running"  # not queued twice
        release.set()
        made = jobs.wait("g1", 60)
        assert made is not None and made.status == "done" and made.total == 3
    finally:
        release.set()
        jobs.close()


def test_a_failed_analysis_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    def bad(s: Snapshot, plies: int, progress: Any = None, valuer: Any = None) -> AnalysisResult:
        raise GammonError("game 1, action 3: that play is not legal")

    monkeypatch.setattr(analysis_module, "analyse_snapshot", bad)
    monkeypatch.setattr(Analyses, "_valuer", lambda self: None)
    jobs = Analyses(plies=0)
    try:
        jobs.start(snap("g2"))
        made = jobs.wait("g2", 60)
        assert made is not None and made.status == "failed"
        assert made.message is not None and "not legal" in made.message and made.report is None
    finally:
        jobs.close()


def test_old_reports_are_forgotten_first(monkeypatch: pytest.MonkeyPatch) -> None:
    def quick(s: Snapshot, plies: int, progress: Any = None, valuer: Any = None) -> AnalysisResult:
        return AnalysisResult(game_id=s.game_id, status="done", done=0, total=0, engine="x")

    monkeypatch.setattr(analysis_module, "analyse_snapshot", quick)
    monkeypatch.setattr(Analyses, "_valuer", lambda self: None)
    jobs = Analyses(plies=0, cache_size=2)
    try:
        for gid in ("a", "b", "c"):
            jobs.start(snap(gid))
            assert jobs.wait(gid, 60) is not None
        assert jobs.known("a") is None and jobs.known("b") is not None and jobs.known("c") is not None
    finally:
        jobs.close()


def test_closing_stops_a_running_analysis_at_its_next_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    started = threading.Event()
    stopped = threading.Event()

    def long(s: Snapshot, plies: int, progress: Any = None, valuer: Any = None) -> AnalysisResult:
        started.set()
        try:
            for i in range(10_000):
                progress(i, 10_000)
                time.sleep(0.01)
        finally:
            stopped.set()
        raise AssertionError("not stopped")

    monkeypatch.setattr(analysis_module, "analyse_snapshot", long)
    monkeypatch.setattr(Analyses, "_valuer", lambda self: None)
    jobs = Analyses(plies=0)
    jobs.start(snap("g3"))
    assert started.wait(60)
    jobs.close()
    assert stopped.wait(60)
