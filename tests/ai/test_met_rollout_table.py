"""Our table with rolled-out pre-Crawford entries (``gammon train met`` files).

The rules: the file's entries replace the model's pre-Crawford ones, their mirrors are the
complements and ties stay 1/2; every other score (the Crawford game, post-Crawford, scores
not rolled out, beyond the file's reach) stays the model's; the table in use is the shipped
file's (loading another file changes nothing of it); and a malformed or hostile file is
refused with a GammonError that says what is wrong, never loaded in part.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gammon.ai.met import (
    OUR_TABLE_NAME,
    ROLLOUT_TABLE_FILE,
    ROLLOUT_TABLE_NAME,
    MatchEquityTable,
    RolloutMatchEquityTable,
    default_met,
    load_rollout_met,
)
from gammon.core.errors import GammonError
from gammon.formats.met_rollout_file import MAX_FILE_BYTES


def _file(**over: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": "gammon-met-rollouts", "version": 1, "max_away": 5,
        "settings": {"trials": 30}, "provenance": {"command": "gammon train met"},
        "entries": [{"a": 2, "b": 3, "mwc": 0.61, "se": 0.002, "trials": 30, "seconds": 1.5},
                    {"a": 2, "b": 4, "mwc": 0.67, "se": 0.002, "trials": 30, "seconds": 1.5}],
    }
    data.update(over)
    return data


def _write(tmp_path: Path, data: object) -> Path:
    p = tmp_path / "met.json"
    p.write_text(json.dumps(data))
    return p


def test_entries_replace_the_models_and_the_rest_stays_the_models(tmp_path: Path) -> None:
    model = MatchEquityTable(max_away=25)
    table = load_rollout_met(_write(tmp_path, _file()))
    assert table.name == ROLLOUT_TABLE_NAME
    assert table.max_away == 25
    assert table.equity(2, 3) == 0.61 and table.equity(3, 2) == pytest.approx(0.39)
    assert table.equity(2, 4) == 0.67 and table.equity(4, 2) == pytest.approx(0.33)
    for a in range(2, 12):
        assert table.equity(a, a) == 0.5
    assert table.equity(3, 4) == model.equity(3, 4)  # not rolled out
    assert table.equity(9, 20) == model.equity(9, 20)  # beyond the file's reach
    for b in range(1, 12):
        for crawford in (True, False):
            assert table.equity(1, b, crawford) == model.equity(1, b, crawford)
            assert table.equity(b, 1, crawford) == model.equity(b, 1, crawford)


def test_the_table_in_use_is_the_shipped_rollouts_over_the_model() -> None:
    shipped = json.loads(ROLLOUT_TABLE_FILE.read_text(encoding="utf-8"))
    entries = {(e["a"], e["b"]): e["mwc"] for e in shipped["entries"]}
    # Every pre-Crawford score to the file's reach (11-away at least) is rolled out, the
    # leader's side stored once.
    reach = shipped["max_away"]
    assert reach >= 11
    assert set(entries) == {(a, b) for a in range(2, reach + 1) for b in range(a + 1, reach + 1)}
    table, model = default_met(), MatchEquityTable()
    assert table.name == ROLLOUT_TABLE_NAME != OUR_TABLE_NAME
    for (a, b), v in entries.items():
        assert table.equity(a, b) == v and table.equity(b, a) == 1.0 - v
        assert abs(v - model.equity(a, b)) < 0.01  # the model was already close
    assert table.equity(reach + 1, 7) == model.equity(reach + 1, 7)  # beyond the rollouts' reach
    for b in range(1, 26):
        assert table.equity(1, b, True) == model.equity(1, b, True)
        assert table.equity(1, b, False) == model.equity(1, b, False)
    # A larger table asked for keeps the rolled-out entries.
    assert default_met(30).equity(4, 2) == 1.0 - entries[(2, 4)]
    # Its provenance names its commands with files, never a folder of the machine that made it.
    provenance = shipped["provenance"]
    commands = [provenance["command"]] + [r["command"] for r in provenance.get("resumed", [])]
    assert all(c.startswith("gammon train met --out ") and "/" not in c for c in commands)


def test_entries_outside_the_table_or_not_chances_are_refused() -> None:
    with pytest.raises(GammonError, match="outside the table"):
        RolloutMatchEquityTable({(3, 2): 0.4}, max_away=5)
    with pytest.raises(GammonError, match="outside the table"):
        RolloutMatchEquityTable({(2, 6): 0.7}, max_away=5)
    with pytest.raises(GammonError, match="not a chance"):
        RolloutMatchEquityTable({(2, 3): float("nan")}, max_away=5)


def _entry(**over: Any) -> dict[str, Any]:
    return {"a": 2, "b": 3, "mwc": 0.6, "se": 0.01, "trials": 30, "seconds": 1.0, **over}


@pytest.mark.parametrize(("data", "said"), [
    ([1, 2], "not a JSON object"),
    (_file(format="gnubg"), "not a gammon rollout table"),
    (_file(version=2), "version 2"),
    (_file(max_away="11"), "max_away must be a whole number"),
    (_file(max_away=True), "max_away must be a whole number"),
    (_file(max_away=10**9), "max_away must be a whole number from 2 to 64"),
    (_file(entries={"a": 2}), "entries must be a list"),
    (_file(settings=[]), "settings and provenance must be objects"),
    (_file(entries=[_entry()] * 11), "more than the scores to 5-away"),
    (_file(entries=["2-3"]), "entry 1 is not an object"),
    (_file(entries=[{"a": 2, "b": 3}]), "entry 1 lacks mwc, se, seconds, trials"),
    (_file(entries=[_entry(a="2")]), "entry 1: a must be a whole number"),
    (_file(entries=[_entry(a=2.0)]), "entry 1: a must be a whole number"),
    (_file(entries=[_entry(mwc=1.5)]), "entry 1: mwc must be from 0.0 to 1.0"),
    (_file(entries=[_entry(mwc=-0.1)]), "entry 1: mwc must be from 0.0 to 1.0"),
    (_file(entries=[_entry(mwc=float("nan"))]), "entry 1: mwc must be from"),
    (_file(entries=[_entry(mwc=True)]), "entry 1: mwc must be a number"),
    (_file(entries=[_entry(mwc="0.6")]), "entry 1: mwc must be a number"),
    (_file(entries=[_entry(se=-0.01)]), "entry 1: se must be from"),
    (_file(entries=[_entry(trials=0)]), "entry 1: trials must be a whole number"),
    (_file(entries=[_entry(seconds=float("inf"))]), "entry 1: seconds must be from"),
    (_file(entries=[_entry(a=3, b=2)]), "must be below b"),
    (_file(entries=[_entry(a=1, b=3)]), "entry 1: a must be a whole number from 2"),
    (_file(entries=[_entry(b=6)]), "entry 1: b must be a whole number from 2 to 5"),
    (_file(entries=[_entry(), _entry(mwc=0.7)]), "entry 2: 2-away/3-away twice"),
])
def test_malformed_files_are_refused(tmp_path: Path, data: object, said: str) -> None:
    with pytest.raises(GammonError, match=said):
        load_rollout_met(_write(tmp_path, data))


def test_files_that_are_not_json_huge_or_deeply_nested_are_refused(tmp_path: Path) -> None:
    p = tmp_path / "met.json"
    p.write_bytes(b"\xff\xfe not json")
    with pytest.raises(GammonError, match="is not JSON"):
        load_rollout_met(p)
    p.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(GammonError, match="is not JSON"):
        load_rollout_met(p)
    p.write_text(" " * (MAX_FILE_BYTES + 1) + "{}")
    with pytest.raises(GammonError, match="too large"):
        load_rollout_met(p)
    with pytest.raises(GammonError, match="cannot read"):
        load_rollout_met(tmp_path / "missing.json")
    with pytest.raises(GammonError):
        load_rollout_met(tmp_path)  # a folder
