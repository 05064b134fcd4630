"""The analysis's outputs (issue 35): no rating estimate on no known scale (D7), a note when the
record stops before the end, in the JSON (``unfinished``), the terminal summary and the HTML, and
a summary that does not wrap when piped."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gammon.analysis import analyse_match
from gammon.analysis import marks as marks_module
from gammon.analysis.analyse import MatchAnalysis
from gammon.analysis.report import html_report
from gammon.cli import app
from gammon.core.game import AcceptResignation, Double, Move, Resign, Roll, Rules, Take
from gammon.core.match import Match
from gammon.core.position import ResultKind
from gammon.formats.record_json import match_to_json

runner = CliRunner()


def _one_game(rules: Rules, resign: bool = True) -> Match:
    """A game of two rolls that player 1 ends by resigning a single game (or an unfinished one)."""
    m = Match(rules)
    m.apply(Roll(0, (3, 1)))
    m.apply(Move(0, "8/5 6/5"))
    m.apply(Roll(1, (6, 5)))
    m.apply(Move(1, "24/13"))
    if resign:
        m.apply(Resign(0, ResultKind.SINGLE))
        m.apply(AcceptResignation(1))
    return m


def _analysis(m: Match) -> MatchAnalysis:
    return analyse_match(m, ("Ann", "Bob"), plies=0, processes=1, explain=False)


def _summary(tmp_path: Path, m: Match) -> str:
    path = tmp_path / "rec.json"
    path.write_text(match_to_json(m, ("Ann", "Bob")))
    result = runner.invoke(app, ["analyse", str(path), "--plies", "0", "--lang", "en"])
    assert result.exit_code == 0, result.output
    return result.output


# -- D7: no rating estimate -------------------------------------------------------------------


def test_no_rating_estimate_anywhere(tmp_path: Path) -> None:
    """``2100 - 8 PR`` is on no known scale: neither the JSON, the summary nor the HTML prints it."""
    m = _one_game(Rules())
    a = _analysis(m)
    assert all("rating_estimate" not in p for p in a.to_dict()["players"])
    assert all("rating_estimate" not in p for g in a.to_dict()["games"] for p in g["players"])
    assert not hasattr(marks_module, "rating_estimate")
    assert "estimate" not in html_report(a).lower()
    text = _summary(tmp_path, m)
    assert "estimate" not in text and "PR" in text


# -- an unfinished record ---------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "resign", "unfinished"), [
    (Rules(), True, False),                   # money: every game played out
    (Rules(), False, True),                   # money: the last game stops half way
    (Rules(match_length=1), True, False),     # a 1-point match won
    (Rules(match_length=5), True, True),      # 1-0 in a 5-point match: the record stops early
    (Rules(match_length=5), False, True),
])
def test_the_json_says_whether_the_record_is_unfinished(rules: Rules, resign: bool, unfinished: bool) -> None:
    assert _analysis(_one_game(rules, resign)).to_dict()["unfinished"] is unfinished


def test_the_summary_and_the_html_note_an_unfinished_match(tmp_path: Path) -> None:
    unfinished = _one_game(Rules(match_length=5))
    assert "Unfinished: the record stops before the match is over" in _summary(tmp_path, unfinished)
    assert "Unfinished:</b> the record stops before the match is over" in html_report(_analysis(unfinished))
    money = _one_game(Rules(), resign=False)
    assert "Unfinished: the last game was not played out" in _summary(tmp_path, money)
    assert "the last game was not played out" in html_report(_analysis(money))
    finished = _one_game(Rules(match_length=1))
    assert "Unfinished" not in _summary(tmp_path, finished)
    assert "Unfinished" not in html_report(_analysis(finished))


def test_the_note_is_translated(tmp_path: Path) -> None:
    path = tmp_path / "rec.json"
    path.write_text(match_to_json(_one_game(Rules(match_length=5)), ("Ann", "Bob")))
    result = runner.invoke(app, ["analyse", str(path), "--plies", "0", "--lang", "nb"])
    assert result.exit_code == 0, result.output
    assert "Uferdig: opptegnelsen slutter" in result.output
    assert json.loads(runner.invoke(app, ["analyse", str(path), "--plies", "0", "--json"]).stdout)["unfinished"]


# -- piped output does not wrap --------------------------------------------------------------


def _blunders() -> Match:
    """A money game with a wrong early double and two wrong resignations: long explanations."""
    m = Match(Rules())
    m.apply(Roll(0, (3, 1)))
    m.apply(Move(0, "8/5 6/5"))
    m.apply(Double(1))
    m.apply(Take(0))
    m.apply(Roll(1, (6, 5)))
    m.apply(Move(1, "24/13"))
    m.apply(Resign(0, ResultKind.GAMMON))
    m.apply(AcceptResignation(1))
    return m


def test_piped_text_keeps_each_explanation_on_one_line(tmp_path: Path) -> None:
    """Through a pipe the summary does not wrap at 80 columns: every explanation is one whole line."""
    m = _blunders()
    explanations = [d.explanation for d in analyse_match(m, ("Ann", "Bob"), plies=0, processes=1).decisions
                    if d.explanation]
    assert explanations and max(map(len, explanations)) > 100
    path = tmp_path / "rec.json"
    path.write_text(match_to_json(m, ("Ann", "Bob")))
    unset = ("COLUMNS", "LINES", "FORCE_COLOR", "TTY_COMPATIBLE")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(NO_COLOR="1", LANG="C", PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.run([sys.executable, "-m", "gammon", "analyse", str(path), "--plies", "0"],
                          capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr
    lines = [line.strip() for line in proc.stdout.splitlines()]
    for text in explanations:
        assert text in lines
    assert any(line.startswith("Result for Ann:") and line.endswith("points") for line in lines)


# -- the HTML report: the whole move list, checker and cube marks apart -----------------------


def _marked() -> Match:
    """At 0-ply: a doubtful opening (6-5 played 24/18 13/8, 41 mEMG), a wrong early double taken,
    a checker error (6-5 run 24/13 in reply) and a gammon resigned too soon."""
    m = Match(Rules())
    m.apply(Roll(0, (6, 5)))
    m.apply(Move(0, "24/18 13/8"))
    m.apply(Double(1))
    m.apply(Take(0))
    m.apply(Roll(1, (6, 5)))
    m.apply(Move(1, "24/13"))
    m.apply(Resign(0, ResultKind.GAMMON))
    m.apply(AcceptResignation(1))
    return m


def _cells(row: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td>(.*?)</td>", row)]


def test_the_html_lists_every_decision_with_its_mark() -> None:
    a = _analysis(_marked())
    html = html_report(a)
    table = re.search(r"<h2>Move list</h2>(.*?)<h2>", html, re.S)
    assert table is not None
    rows = re.findall(r'<tr class="mark-[a-z]+">(.*?)</tr>', table.group(1))
    assert len(rows) == len(a.decisions)
    for row, d in zip(rows, a.decisions, strict=True):
        turn, player, _dice, played, mark, loss, _better = _cells(row)
        assert (int(turn), player, played) == (d.turn, a.names[d.player], d.played)
        assert mark.startswith(d.mark or ("forced" if d.forced else ""))
        assert loss == (f"{1000 * d.equity_lost:.0f}" if d.equity_lost > 0 else "")
    marks = [d.mark for d in a.decisions]
    # 24/13 in reply is a checker error; whether it costs an error's 0.060 or a blunder's 0.120
    # depends on the net's value of it, and both are marked
    assert marks[:3] == ["doubtful", "blunder", None] and marks[3] in ("error", "blunder")
    assert marks[4:] == ["blunder", None]
    # a doubtful play loses 0.030 or more and less than an error's 0.060 (whatever the net's value)
    assert "doubtful ?!" in _cells(rows[0])[4] and 30 <= int(_cells(rows[0])[5]) < 60
    for anchor in re.findall(r'<a href="#([^"]+)">', table.group(1)):  # each error links to its boards
        assert f'id="{anchor}"' in html
    assert len(re.findall(r'<a href="#', table.group(1))) == 3


def _reply_counts(a: MatchAnalysis) -> tuple[list[str], list[str]]:
    """Bob's checker errors and blunders as the summaries count them (Ann's, Bob's): his 24/13
    in reply is one or the other (``test_the_html_lists_every_decision_with_its_mark``)."""
    reply = a.decisions[3]
    assert (a.names[reply.player], reply.kind, reply.played) == ("Bob", "move", "24/13")
    assert reply.mark in ("error", "blunder")
    return (["0", "1" if reply.mark == "error" else "0"], ["0", "1" if reply.mark == "blunder" else "0"])


def test_the_html_summary_counts_checker_and_cube_marks_apart() -> None:
    a = _analysis(_marked())
    html = html_report(a)
    errors, blunders = _reply_counts(a)

    def row(label: str) -> list[str]:
        found = re.search(rf"<tr><td>{re.escape(label)}</td>(.*?)</tr>", html)
        assert found is not None, label
        return _cells(found.group(1))

    assert row("Checker doubtfuls ?!") == ["1", "0"] and row("Checker errors ?") == errors
    assert row("Checker blunders ??") == blunders and row("Cube errors ?") == ["0", "0"]
    assert row("Cube blunders ??") == ["0", "1"] and row("Cube doubtfuls ?!") == ["0", "0"]
    assert row("Resignation errors") == ["1", "0"]


def test_the_terminal_summary_counts_checker_and_cube_marks_apart(tmp_path: Path) -> None:
    rows = {}
    for line in _summary(tmp_path, _marked()).splitlines():
        cells = [c.strip() for c in line.split("│")]
        if len(cells) == 3:
            rows[cells[0]] = cells[1:]
    errors, blunders = _reply_counts(_analysis(_marked()))
    assert rows["checker doubtfuls"] == ["1", "0"] and rows.get("checker errors", ["0", "0"]) == errors
    assert rows.get("checker blunders", ["0", "0"]) == blunders
    assert rows["cube blunders"] == ["0", "1"] and rows["cube doubtfuls"] == ["0", "0"]
    assert "blunders" not in rows  # no row mixing the two
