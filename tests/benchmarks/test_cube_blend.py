"""benchmarks/cube_blend.py: bad options are refused in one line; the weights 0 and 1 are the
1-roll and the 2-roll look-aheads themselves, costed as ``cube_errors.py``'s policies cost them."""

from __future__ import annotations

import re

import pytest

from benchmark_modules import load_benchmark


@pytest.mark.parametrize("argv, message", [
    (["--weights", "0,x"], "--weights must be numbers"),
    (["--weights", "1.5"], "weights must be 0 to 1"),
    (["--first", "5", "--last", "5"], "0 <= --first < --last"),
    (["--cache", "/no/such/file.json.gz"], "no such file"),
])
def test_bad_options_are_refused(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert load_benchmark("cube_blend").main(argv) == 2
    assert message in capsys.readouterr().err


def test_the_end_weights_are_the_two_look_aheads(capsys: pytest.CaptureFixture[str]) -> None:
    cube_errors = load_benchmark("cube_errors")
    cube_blend = load_benchmark("cube_blend")
    assert cube_blend.main(["--first", "19", "--last", "25", "--weights", "0,1"]) == 0
    out = capsys.readouterr().out
    rows = dict(re.findall(r"^\| (\d) \| ([\d.]+) \|", out, re.M))
    # Decisions 19-24 hold errors of both look-aheads (0.003 and 0.043 EMG).
    assert float(rows["1"]) > 0.01 and rows["0"] != rows["1"]
    # The same six decisions costed through cube_errors' own policy table (1 and 2 rolls ahead).
    decisions = cube_errors.load([], 2, "", cube_blend.CACHE)[19:25]
    cube_errors.policy_table(decisions, ["ahead1", "ahead2"])
    table = dict(re.findall(r"^\| ahead(\d) \| ([\d.]+) \|", capsys.readouterr().out, re.M))
    assert rows == {"0": table["1"], "1": table["2"]}
