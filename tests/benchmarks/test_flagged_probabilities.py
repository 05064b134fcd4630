"""``benchmarks/flagged_probabilities.py``: only the decisions of the asked kind, and a clear error
for a missing cache."""

from __future__ import annotations

import gzip
import json

from benchmark_modules import load_benchmark


def _cache(tmp_path, alerts):  # type: ignore[no-untyped-def]
    rows = [{"source": f"m game {i}", "move": 3, "action": "take", "position_id": "4HPwATDgc/ABMA",
             "match_id": "cAkAAAAAAAAA", "probs": [0.7, 0.2, 0.01, 0.05, 0.0], "nd": 0.8, "dt": 1.1,
             "dp": 1.0, "proper": "Double, pass", "alert": a, "cost": 0.1} for i, a in enumerate(alerts)]
    path = tmp_path / "cache.json.gz"
    path.write_bytes(gzip.compress(json.dumps(rows).encode()))
    return path


def test_a_missing_cache_is_a_clear_error(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    mod = load_benchmark("flagged_probabilities")
    assert mod.main(["--cache", str(tmp_path / "none.json.gz")]) == 2
    assert "no cache" in capsys.readouterr().err


def test_only_the_asked_kind_is_compared(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    mod = load_benchmark("flagged_probabilities")
    cache = _cache(tmp_path, ["", "wrong double", "wrong take"])
    assert mod.main(["--cache", str(cache), "--alert", "wrong pass"]) == 0
    assert "no decision flagged 'wrong pass'" in capsys.readouterr().out
    assert mod.main(["--cache", str(cache), "--trials", "36"]) == 0
    out = capsys.readouterr().out
    lines = [x for x in out.splitlines() if x.startswith("0.100 ")]
    assert len(lines) == 1  # the one wrong take, not the other two
    assert "0p minus gnubg (1 decisions)" in out and "ro minus gnubg (1 decisions)" in out
