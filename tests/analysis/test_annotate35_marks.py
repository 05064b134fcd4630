"""The annotated SGF carries the analysis in GNU Backgammon's own properties (issue 35).

GNU Backgammon's SGF writes a roll's luck as ``LU[+x.xxx]`` and a decision's skill as
``DO[]`` (doubtful), ``BM[1]`` (bad), ``BM[2]`` (very bad), with ``DC``/``BC`` for the cube
decision that came before the roll.  gammon's marks map onto them (doubtful, error,
blunder), so a player who opens the file in GNU Backgammon sees the marks in its move list.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.gnubg_program import GNUBG, GNUBG_MISSING, run_gnubg
from tests.matches import play_match

from gammon.analysis import analyse_match
from gammon.analysis.annotate import annotated_sgf
from gammon.core.cube import CubeAction
from gammon.core.game import Rules

SKILL = {"doubtful": "DO[]", "error": "BM[1]", "blunder": "BM[2]"}
CUBE_SKILL = {"doubtful": "DC[]", "error": "BC[1]", "blunder": "BC[2]"}
#: A node line of a game tree: the player, the node's action (a roll and play, double, take, drop).
NODE = re.compile(r"^;([WB])\[([^\]]*)\]")


@pytest.fixture(scope="module")
def annotated() -> tuple[str, list]:
    """A 3-point match of random play (marks of every kind), analysed at 0-ply, annotated."""
    m = play_match(5, Rules(match_length=3), double_rate=0.15)
    analysis = analyse_match(m, ("Ann", "Bob"), plies=0, processes=1, explain=False)
    return annotated_sgf(m, analysis), analysis.decisions


def _nodes(text: str) -> list[tuple[str, str]]:
    """(action, the node's whole line) of every move, double, take and drop node, in order."""
    return [(m.group(2), line) for line in text.split("\n") if (m := NODE.match(line))]


def _properties(line: str) -> str:
    """A node line up to its comment (``C[``, not the ``C[`` that ends ``BC[``/``DC[``)."""
    return re.split(r"(?<![A-Z])C\[", line, maxsplit=1)[0]


def test_every_checker_mark_and_luck_is_on_its_roll_node(annotated: tuple[str, list]) -> None:
    text, decisions = annotated
    moves = [d for d in decisions if d.kind == "move"]
    rolls = [line for action, line in _nodes(text) if action not in ("double", "take", "drop")]
    assert len(rolls) == len(moves) and any(d.mark == "blunder" for d in moves)
    for d, line in zip(moves, rolls, strict=True):
        props = _properties(line)
        for mark, prop in SKILL.items():
            assert (prop in props) == (d.mark == mark), (d.played, d.mark, props)
        if d.luck is not None:
            assert f"LU[{d.luck:+.3f}]" in props


def test_cube_marks_go_on_the_double_take_and_pass_nodes(annotated: tuple[str, list]) -> None:
    text, decisions = annotated
    doubles = [d for d in decisions if d.kind == "cube" and d.played == CubeAction.DOUBLE]
    answers = [d for d in decisions if d.kind == "take"]
    nodes = _nodes(text)
    double_lines = [line for action, line in nodes if action == "double"]
    answer_lines = [line for action, line in nodes if action in ("take", "drop")]
    assert len(double_lines) == len(doubles) > 0 and len(answer_lines) == len(answers) > 0
    marked = 0
    for d, line in [*zip(doubles, double_lines, strict=True), *zip(answers, answer_lines, strict=True)]:
        props = _properties(line)
        marked += d.mark is not None
        for mark, prop in SKILL.items():
            assert (prop in props) == (d.mark == mark), (d.kind, d.mark, props)
    no_double_marks = [d for d in decisions if d.kind == "cube" and d.played != CubeAction.DOUBLE and d.mark]
    assert sum(text.count(p) for p in CUBE_SKILL.values()) == len(no_double_marks)


def test_gnubg_reads_the_checker_marks_and_the_luck_back(annotated: tuple[str, list], tmp_path: Path) -> None:
    """GNU Backgammon loads the file and, saving it again, writes the same checker-play marks and
    luck on every roll's node.  (Without its own cube analysis in the file it keeps no cube marks:
    those stay in our properties and comments only.)"""
    if GNUBG is None:
        pytest.skip(GNUBG_MISSING)
    text, _ = annotated
    (tmp_path / "a.sgf").write_text(text)
    run_gnubg(tmp_path, ["load match a.sgf", "save match back.sgf"])
    back = (tmp_path / "back.sgf").read_text()

    def rolls(sgf: str) -> list[tuple[str, set[str], str | None]]:
        out = []
        for action, line in _nodes(sgf):
            if action not in ("double", "take", "drop"):
                props = _properties(line)
                luck = re.search(r"LU\[([-+]?[0-9.]+)\]", props)
                out.append((action, set(re.findall(r"BM\[\d\]|DO\[\]", props)), luck and luck.group(1)))
        return out

    ours, theirs = rolls(text), rolls(back)
    assert len(ours) == len(theirs) and sum(bool(marks) for _, marks, _ in ours) > 10
    for (play, marks, luck), (play2, marks2, luck2) in zip(ours, theirs, strict=True):
        assert (play, marks) == (play2, marks2)
        assert (luck is None) == (luck2 is None)
        assert luck is None or float(luck) == pytest.approx(float(luck2 or "nan"), abs=1e-3)
