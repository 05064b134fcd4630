"""An SGF of the match with the analysis in its comments, as GNU Backgammon loads it.

The SGF is :func:`gammon.formats.sgf.write_sgf`'s; each move, double and
answer node gets a ``C[...]`` comment (GNU Backgammon shows it as the move's
annotation) with the alternatives, the cube equities, the luck and, for a
mistake, the mark and the reason.  A cube decision without a double, and a
resignation, have no node of their own: they go into the comment of the roll
that follows (at the end of a game, of the last node).

The marks and the luck also go into the properties GNU Backgammon's own SGF
uses for them, so its move list shows them as it shows its own: ``LU[+0.123]``
the roll's luck for the player on roll; a checker play's mark ``DO[]``
(doubtful), ``BM[1]`` (error, GNU Backgammon's "bad") or ``BM[2]`` (blunder,
its "very bad"); on a roll's node the mark of the cube decision before it
(``DC[]``, ``BC[1]``, ``BC[2]``); on a double, take or pass node that
decision's mark as ``DO``/``BM``.
"""

from __future__ import annotations

import re

from gammon.analysis.analyse import MatchAnalysis
from gammon.analysis.decisions import Decision
from gammon.analysis.text import decision_lines, player_lines
from gammon.core.cube import CubeAction
from gammon.core.match import Match

_NODE = re.compile(r"^;(?:(?P<who>[WB])\[(?P<what>[^\]]*)\]|PL\[)")


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _comment(ds: list[Decision], names: tuple[str, str]) -> str:
    lines: list[str] = []
    for d in ds:
        lines += decision_lines(d, names)
    return f"C[{_escape(chr(10).join(lines))}]" if lines else ""


#: SGF skill properties by mark, for a checker play or a double/take/pass node, and for a
#: cube decision written on the roll's node (GNU Backgammon's ``WriteSkill``/``WriteSkillCube``).
_SKILL = {"doubtful": "DO[]", "error": "BM[1]", "blunder": "BM[2]"}
_SKILL_CUBE = {"doubtful": "DC[]", "error": "BC[1]", "blunder": "BC[2]"}


def _properties(want: str, taken: list[Decision]) -> str:
    """GNU Backgammon's analysis properties of a node (``want``: move, cube or take) whose
    decisions are ``taken``: the luck and marks (see the module's docstring)."""
    props = ""
    for d in taken:
        if want == "move" and d.kind == "move":
            if d.luck is not None:
                props += f"LU[{d.luck:+.3f}]"
            props += _SKILL.get(d.mark or "", "")
        elif want == "move" and d.kind == "cube":
            props += _SKILL_CUBE.get(d.mark or "", "")
        elif (want, d.kind) in (("cube", "cube"), ("take", "take")):
            props += _SKILL.get(d.mark or "", "")
    return props


def annotated_sgf(match: Match, analysis: MatchAnalysis) -> str:
    """The SGF text of ``match`` with ``analysis`` (of the same match) in comments."""
    from gammon.formats.sgf import write_sgf

    names = analysis.names
    text = write_sgf(match, names)
    trees = [t for t in re.split(r"(?m)^(?=\(;)", text) if t.strip()]
    by_game: dict[int, list[Decision]] = {}
    for d in analysis.decisions:
        by_game.setdefault(d.game, []).append(d)
    out: list[str] = []
    game_index = -1
    for tree in trees:
        m = re.search(r"MI\[length:\d+\]\[game:(\d+)\]", tree)
        game_index = int(m.group(1)) if m else game_index + 1
        queue = list(by_game.get(game_index, []))
        lines = tree.split("\n")
        last: tuple[int, str, list[Decision]] | None = None
        for i, line in enumerate(lines):
            nm = _NODE.match(line)
            if i == 0 or nm is None or nm.group("who") is None:
                continue
            what = nm.group("what").lower()
            if what == "double":
                want = "cube"
            elif what in ("take", "drop"):
                want = "take"
            else:
                want = "move"
            taken: list[Decision] = []
            while queue:
                d = queue.pop(0)
                if want == "cube" and d.kind == "take":  # a beaver: the taker's 'double'
                    taken.append(d)
                    break
                taken.append(d)
                if d.kind == want and (want != "cube" or d.played == CubeAction.DOUBLE):
                    break
            closing = line.endswith(")")
            body = line[:-1] if closing else line
            lines[i] = body + _properties(want, taken) + _comment(taken, names) + (")" if closing else "")
            last = (i, line, taken)
        if queue and last is not None:  # a resignation at the end has no node: the last one says it
            i, line, taken = last
            closing = line.endswith(")")
            body = line[:-1] if closing else line
            lines[i] = body + _comment(taken + queue, names) + (")" if closing else "")
        if game_index == 0 and lines:
            summary = [f"Analysis by gammon at {analysis.plies}-ply"]
            for p in analysis.players:
                summary += player_lines(p)
            root = lines[0]
            lines[0] = root + f"GC[{_escape(chr(10).join(summary))}]" if "GC[" not in root else root
        out.append("\n".join(lines))
    return "".join(t if t.endswith("\n") else t + "\n" for t in out)


__all__ = ["annotated_sgf"]
