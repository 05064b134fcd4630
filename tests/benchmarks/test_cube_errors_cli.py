"""benchmarks/cube_errors.py: a missing net or table is refused before any analysis starts, and the
match equity table asked for (``--met``) is the one our cube code uses and the output names."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmark_modules import load_benchmark


def test_missing_weights_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cube_errors = load_benchmark("cube_errors")
    cache = tmp_path / "decisions.json.gz"
    cache.write_bytes(b"")  # never read: the net is checked first
    missing = tmp_path / "no-such-net.npz"
    rc = cube_errors.main(["x", "--cache", str(cache), "--policies", "ahead2", "--weights", str(missing)])
    assert rc == 2
    assert f"no such weights file: {missing}" in capsys.readouterr().err


def _one_decision_cache(tmp_path: Path) -> Path:
    """A cache holding the first match-play decision of the stored expert run."""
    import gzip
    import json

    from paths import ROOT

    stored = ROOT / "benchmarks" / "results" / "cube_decisions_expert_3805k.json.gz"
    rows = json.loads(gzip.decompress(stored.read_bytes()))
    cache = tmp_path / "one.json"
    cache.write_text(json.dumps([next(r for r in rows if "/match_" in r["source"])]))
    return cache


@pytest.mark.parametrize(("met", "name"), [(None, "gammon (own rollouts)"), ("model", "gammon (own model)"),
                                           ("/usr/share/gnubg/met/Kazaross-XG2.xml", None)])
def test_the_table_used_is_the_one_asked_for_and_named(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        met: str | None, name: str | None) -> None:
    if met is not None and met.startswith("/") and not Path(met).exists():
        pytest.skip("GNU Backgammon's tables are not installed")
    cube_errors = load_benchmark("cube_errors")
    cache = _one_decision_cache(tmp_path)
    argv = ["x", "--cache", str(cache), "--summary-only"] + (["--met", met] if met else [])
    assert cube_errors.main(argv) == 0
    first = capsys.readouterr().out.splitlines()[0]
    if name is not None:
        assert first == f"match equity table: {name}"
    else:
        assert first.startswith("match equity table: Kazaross")


def test_an_unreadable_table_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cube_errors = load_benchmark("cube_errors")
    never_read = tmp_path / "never-read.json"
    rc = cube_errors.main(["x", "--cache", str(never_read), "--met", str(tmp_path / "no.xml")])
    assert rc == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "no.xml" in err and len(err.strip().splitlines()) == 1


def test_where_lost_splits_races_from_contact_and_lists_the_costliest_first() -> None:
    cube_errors = load_benchmark("cube_errors")

    def decision(move: int, action: str) -> object:
        return cube_errors.Decision("m", move, action, f"ID{move}", "MID", (0.5, 0.1, 0.0, 0.1, 0.0),
                                    0.1, 0.2, 1.0, "Double, take", "", 0.0)

    decisions = [decision(i, a) for i, a in enumerate(["double", "no double", "take", "pass"])]
    costs = [0.0, 0.30, 0.05, 0.15]
    races = [True, False, True, False]
    text = cube_errors.where_lost("ahead2", decisions, costs, races)
    lines = text.splitlines()
    assert lines[0] == ("ahead2: contact 0.450 EMG in 2 decisions (2 in error), "
                        "races 0.050 EMG in 2 decisions (1 in error)")
    assert lines[1].startswith("ahead2: its 4 costliest decisions 0.500 EMG (100% of it)")
    assert [line.split()[0] for line in lines[2:]] == ["0.300", "0.150", "0.050", "0.000"]
    assert "ID1:MID" in lines[2]


def test_a_race_is_a_position_without_contact() -> None:
    from gammon import Position

    cube_errors = load_benchmark("cube_errors")
    assert not cube_errors.is_race(Position.from_position_id("4HPwATDgc/ABMA"))  # the opening
    assert cube_errors.is_race(Position.from_position_id("EwEAQBUAAAAAAA"))  # a race of the replay


def test_a_close_call_is_the_one_the_decision_is_about() -> None:
    # The doubler's call is close when no double and double are near (by our own equities);
    # the taker's when take and pass are: each decision is rolled out only on its own question.
    from gammon.ai.cube import DOUBLE_TAKE, TAKE, CubeDecision

    cube_errors = load_benchmark("cube_errors")

    def decision(action: str) -> object:
        return cube_errors.Decision("m", 1, action, "ID", "MID", (0.7, 0.1, 0.0, 0.05, 0.0),
                                    0.5, 0.6, 1.0, "Double, take", "", 0.0)

    ours = CubeDecision(DOUBLE_TAKE, 0.50, 0.55, 1.0, TAKE, "", True, 0.4, 0.2, 0.7)
    assert cube_errors.is_close(decision("double"), ours, 0.08)  # ND 0.50 against D/T 0.55
    assert not cube_errors.is_close(decision("take"), ours, 0.08)  # D/T 0.55 against D/P 1.0
    passable = CubeDecision(DOUBLE_TAKE, 0.50, 0.97, 1.0, TAKE, "", True, 0.4, 0.2, 0.7)
    assert not cube_errors.is_close(decision("no double"), passable, 0.08)  # ND far below
    assert cube_errors.is_close(decision("pass"), passable, 0.08)  # take 0.97 against pass 1.0
