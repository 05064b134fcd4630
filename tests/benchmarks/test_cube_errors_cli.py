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
