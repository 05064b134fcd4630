"""``gammon train met``: our own match equity table from our own cubeful rollouts (issue 35).

The rules tested: an entry is player 0's chance, the mean of the 30 opening cases (15
non-double rolls, either player starting) with the rollouts' views turned to player 0's;
the table is symmetric ((a, a) = 1/2, (b, a) = 1 - (a, b)); the scores are rolled out
bottom-up, so no rollout reads a pre-Crawford entry not yet rolled out; a resumed run
gives the numbers of one that ran through; ``--out`` is never replaced without asking.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from gammon.ai.cube import CubeInfo, cube_decision
from gammon.ai.met import MatchEquityTable, RolloutMatchEquityTable, default_met, load_rollout_met
from gammon.core.position import Position
from gammon.training import met_rollouts
from gammon.training.met_rollouts import (
    CASES,
    OPENING_ROLLS,
    main,
    roll_out_score,
    score_order,
    score_seed,
)


def test_the_openings_are_the_15_non_doubles() -> None:
    assert len(OPENING_ROLLS) == len(set(OPENING_ROLLS)) == 15
    assert all(1 <= d2 < d1 <= 6 for d1, d2 in OPENING_ROLLS)
    assert CASES == 30


@pytest.mark.parametrize("n", [3, 4, 11])
def test_the_order_puts_every_reachable_score_first(n: int) -> None:
    order = score_order(n)
    assert sorted(order) == [(a, b) for a in range(2, n + 1) for b in range(a + 1, n + 1)]
    seen: set[tuple[int, int]] = set()
    for a, b in order:
        # A game at (a, b) ends with fewer points away for one side: every such
        # pre-Crawford score other than a tie must be done already.
        for x in range(2, a + 1):
            for y in range(2, b + 1):
                if (x, y) != (a, b) and x != y:
                    assert (min(x, y), max(x, y)) in seen, ((a, b), (x, y))
        seen.add((a, b))


def test_score_seeds_depend_on_the_seed_and_the_score_alone() -> None:
    assert score_seed(1, 2, 3) == score_seed(1, 2, 3)
    assert len({score_seed(1, 2, 3), score_seed(1, 3, 2), score_seed(2, 2, 3), score_seed(1, 2, 4)}) == 4


def _openings() -> list[Position]:
    return [Position.initial()] * len(OPENING_ROLLS)


def test_an_entry_is_player_0s_chance_from_both_starters() -> None:
    # A fake rollout that knows a table: the starter's MWC is the table's at the starter's
    # score.  Player 0's entry must then be the table's own (a, b): both starters' cases
    # turned to player 0's view; forgetting to turn player 1's would give 1/2.
    truth = default_met(11)
    seen: list[CubeInfo] = []

    def fake(after: Position, info: CubeInfo, table: MatchEquityTable, trials: int,
             seed: int) -> tuple[float, float]:
        seen.append(info)
        assert trials == 60 // CASES
        return truth.equity(*info.away), 0.01

    mwc, se = roll_out_score(3, 7, truth, _openings(), fake, 60, seed=5)
    assert mwc == pytest.approx(truth.equity(3, 7), abs=1e-12)
    assert se == pytest.approx(0.01 / math.sqrt(30), rel=1e-12)
    assert len(seen) == 30
    assert sum(i.away == (3, 7) for i in seen) == sum(i.away == (7, 3) for i in seen) == 15
    assert all(i.match_length == 7 and i.value == 1 and i.owner == CubeInfo().owner for i in seen)


class _Recording(RolloutMatchEquityTable):
    """The run's table, recording every pre-Crawford entry a rollout reads."""

    reads: list[tuple[frozenset[tuple[int, int]], tuple[int, int]]] = []

    def equity(self, away0: int, away1: int, crawford: bool = False) -> float:
        a, b = int(away0), int(away1)
        if a >= 2 and b >= 2 and a != b:
            _Recording.reads.append((frozenset(self.rolled), (min(a, b), max(a, b))))
        return super().equity(away0, away1, crawford)


def _cube_reading_rollout(after: Position, info: CubeInfo, table: MatchEquityTable, trials: int,
                          seed: int) -> tuple[float, float]:
    """A fake rollout that reads the table as a real one does: cube decisions at each cube
    level, and a game's end at each result; its value depends on the seed."""
    a, b = info.away
    for value in (1, 2, 4, 8):
        for probs in ((0.5, 0.15, 0.01, 0.15, 0.01), (0.75, 0.3, 0.02, 0.05, 0.0)):
            cube_decision(probs, CubeInfo(value=value, match_length=info.match_length, score=info.score),
                          0.68, table)
        for kind in (1, 2, 3):
            table.after_pre(a - kind * value, b)
            table.after_pre(a, b - kind * value)
    return 0.3 + 0.4 * (seed % 1000) / 1000, 0.02


def _run(tmp_path: Path, name: str, *extra: str) -> int:
    return main(["--out", str(tmp_path / name), "--max-away", "4", "--trials", "30", *extra])


def test_no_rollout_reads_an_entry_not_yet_rolled_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _Recording.reads = []
    monkeypatch.setattr(met_rollouts, "RolloutMatchEquityTable", _Recording)
    monkeypatch.setattr(met_rollouts, "engine_case_rollout", lambda ev, vr: _cube_reading_rollout)
    assert _run(tmp_path, "m.json") == 0
    # The fake did read pre-Crawford entries, the earlier scores among them.
    assert {score for _, score in _Recording.reads} >= {(2, 3), (2, 4)}
    for rolled, score in _Recording.reads:
        assert score in rolled, score


def test_the_built_table_is_symmetric(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(met_rollouts, "engine_case_rollout", lambda ev, vr: _cube_reading_rollout)
    assert _run(tmp_path, "m.json") == 0
    table = load_rollout_met(tmp_path / "m.json")
    assert set(table.rolled) == {(2, 3), (2, 4), (3, 4)}
    for a in range(2, 5):
        assert table.equity(a, a) == 0.5
        for b in range(2, 5):
            assert table.equity(a, b) + table.equity(b, a) == pytest.approx(1.0, abs=1e-12)


def test_a_resumed_run_gives_the_numbers_of_one_that_ran_through(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # The real rollouts, one trial per opening case.
    assert _run(tmp_path, "whole.json") == 0
    real = met_rollouts.roll_out_score
    calls = 0

    def stops_at_the_second_score(*args: object, **kw: object) -> tuple[float, float]:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise KeyboardInterrupt  # the run is killed while rolling out the second score
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(met_rollouts, "roll_out_score", stops_at_the_second_score)
    with pytest.raises(KeyboardInterrupt):
        _run(tmp_path, "parts.json")
    first = json.loads((tmp_path / "parts.json").read_text())
    assert [(e["a"], e["b"]) for e in first["entries"]] == [(2, 3)]
    monkeypatch.setattr(met_rollouts, "roll_out_score", real)
    assert _run(tmp_path, "parts.json", "--resume") == 0
    whole = json.loads((tmp_path / "whole.json").read_text())["entries"]
    parts = json.loads((tmp_path / "parts.json").read_text())["entries"]
    assert [(e["a"], e["b"], e["mwc"], e["se"], e["trials"]) for e in parts] == \
        [(e["a"], e["b"], e["mwc"], e["se"], e["trials"]) for e in whole]
    assert all(0.0 <= e["mwc"] <= 1.0 for e in whole)
    # The resumption is in the provenance, with its command (files named without folders).
    resumed = json.loads((tmp_path / "parts.json").read_text())["provenance"]["resumed"]
    assert [r["command"] for r in resumed] == [
        "gammon train met --out parts.json --max-away 4 --trials 30 --seed 1 --resume"]


def test_the_file_records_settings_and_provenance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(met_rollouts, "engine_case_rollout", lambda ev, vr: _cube_reading_rollout)
    assert _run(tmp_path, "m.json", "--seed", "7") == 0
    data = json.loads((tmp_path / "m.json").read_text())
    assert data["settings"] == {"max_away": 4, "trials": 30, "seed": 7, "variance_reduction": False,
                                "weights": None}
    prov = data["provenance"]
    assert prov["command"].startswith("gammon train met --out")
    assert prov["command"] == "gammon train met --out m.json --max-away 4 --trials 30 --seed 7"
    assert str(tmp_path) not in json.dumps(data)  # a table names no folder of the machine that made it
    assert isinstance(prov["net_games"], int) and prov["started"] and prov["updated"]
    assert all(set(e) == {"a", "b", "mwc", "se", "trials", "seconds"} for e in data["entries"])
    out = capsys.readouterr().out
    assert "2-away/3-away: MWC" in out and "ETA" in out


@pytest.mark.parametrize(("args", "said"), [
    (["--trials", "31"], "--trials must be a multiple of 30"),
    (["--trials", "0"], "--trials must be a multiple of 30"),
    (["--max-away", "2"], "--max-away must be from 3"),
    (["--max-away", "1000"], "--max-away must be from 3"),
    (["--seed", "-1"], "--seed must be from 0"),
    (["--weights", "/nonexistent/w.npz"], "no such file"),
    (["--resume"], "nothing to resume"),
    (["--resume", "--force"], "choose one"),
])
def test_bad_settings_are_refused(tmp_path: Path, args: list[str], said: str,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(tmp_path, "m.json", *args) == 2
    assert said in capsys.readouterr().err
    assert not (tmp_path / "m.json").exists()


def test_an_existing_file_is_kept_without_resume_or_force(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(met_rollouts, "engine_case_rollout", lambda ev, vr: _cube_reading_rollout)
    out = tmp_path / "m.json"
    out.write_text("precious")
    assert _run(tmp_path, "m.json") == 2
    assert "--resume to continue it, --force to start afresh" in capsys.readouterr().err
    assert out.read_text() == "precious"
    assert _run(tmp_path, "m.json", "--force") == 0
    assert len(json.loads(out.read_text())["entries"]) == 3


def test_a_resume_with_other_settings_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(met_rollouts, "engine_case_rollout", lambda ev, vr: _cube_reading_rollout)
    assert _run(tmp_path, "m.json") == 0
    before = (tmp_path / "m.json").read_text()
    assert main(["--out", str(tmp_path / "m.json"), "--max-away", "4", "--trials", "60", "--resume"]) == 2
    assert "resume with the same settings" in capsys.readouterr().err
    assert (tmp_path / "m.json").read_text() == before
