"""The README's move-generation table is the stored output of ``benchmarks/movegen.py``.

Issue 16: every performance figure in the README comes from a script in the repository with its
raw output stored beside it and its target (met or missed) printed.  Here the raw output is
``benchmarks/results/movegen.txt``: the README must show its rows (calls per second, the ratio to
gnubg-nn, the over-all-rounds ratios, and each target's verdict) as that file says.
"""

from __future__ import annotations

import re

from paths import ROOT

RAW = (ROOT / "benchmarks" / "results" / "movegen.txt").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")

ROW = re.compile(r"^(?P<name>\S.*?)\s{2,}(?P<calls>[\d,]+)\s+(?P<ratio>[\d.]+x)\s+(?P<all>[\d.]+x)"
                 r"(?:\s+(?P<target>>=[\d.]+x)\s+(?P<result>MET|MISSED))?\s*$")


def raw_rows() -> list[dict[str, str | None]]:
    table = RAW.split("-" * 20, 1)[1].split("notes:", 1)[0]
    rows = [m.groupdict() for line in table.splitlines() if (m := ROW.match(line.strip()))]
    return rows


def readme_rows() -> list[list[str]]:
    table = README.split("| generator | results of a roll per second | vs gnubg-nn | target |", 1)[1]
    lines = [ln for ln in table.splitlines()[2:] if ln.startswith("|")][:6]
    return [[c.strip() for c in ln.strip("|").split("|")] for ln in lines]


def test_the_stored_output_has_every_row_with_its_target() -> None:
    rows = raw_rows()
    assert [r["name"] for r in rows][:4] == [
        "gammon fast path (generate)", "gammon batch (generate_batch)",
        "gammon object API len(legal_plays)", "gammon object API + build all plays"]
    assert all(r["target"] and r["result"] for r in rows[:4])  # each target printed with its verdict
    assert any(r["name"] == "gnubg-nn moves" and r["ratio"] == "1.00x" for r in rows)


def test_the_readme_table_is_the_stored_output() -> None:
    raw, shown = raw_rows(), readme_rows()
    assert len(shown) == len(raw) == 6
    for r, cells in zip(raw, shown, strict=True):
        assert cells[1] == r["calls"] and cells[2] == r["ratio"], (cells, r)
        if r["target"]:
            target, verdict = cells[3].split(":")
            assert target.replace(" ", "") == r["target"] and verdict.strip() == str(r["result"]).lower()
    over_all = re.search(r"Over all rounds instead of the best: ([\d.]+x), ([\d.]+x), ([\d.]+x) and ([\d.]+x)",
                         README)
    assert over_all is not None
    assert list(over_all.groups()) == [r["all"] for r in raw[:4]]
