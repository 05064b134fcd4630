"""The move notation of ``.mat`` files: reading what every writer puts there, writing what every
reader accepts.

Points are seen from the mover, 25 = bar and 0 = off (``bar``/``off`` and ``b``/``o`` are
read too); GNU Backgammon writes one step per die (``24/18 18/16``), others join steps and
count repeats (``24/16``, ``13/8(2)``); ``*`` marks a hit.  :mod:`gammon.formats.mat` reads
and writes the whole file.
"""

from __future__ import annotations

import re
from typing import Literal

from gammon.core.plays import BAR_POINT, OFF_POINT, Play

#: How :func:`format_play` writes a play: GNU Backgammon's one step per die, or gammon's notation.
MoveStyle = Literal["gnubg", "standard"]


_POINT_RE = r"(?:\d{1,2}|bar|b|off|o)"
_STEP_TOKEN = re.compile(
    rf"^(?P<chain>{_POINT_RE}\*?(?:[/-]{_POINT_RE}\*?)+)(?:\((?P<count>\d)\))?$", re.IGNORECASE
)


def _point_value(text: str, first: bool) -> int:
    t = text.lower().rstrip("*")
    if t in ("bar", "b"):
        return BAR_POINT
    if t in ("off", "o"):
        return OFF_POINT
    n = int(t)
    if not 0 <= n <= 25:
        raise ValueError(f"point {n} does not exist (1-24, 25 = bar, 0 = off)")
    if n == BAR_POINT and not first:
        raise ValueError("a checker cannot move to the bar")
    if n == OFF_POINT and first:
        raise ValueError("a checker cannot move from off the board")
    return n


def parse_move_text(text: str) -> tuple[list[tuple[int, int]], list[int]]:
    """The moves (from, to) and the marked hit points of ``13/8 24/18*/13 8/5(2) bar/22 6/off``.

    Joined moves count as one move from their first to their last point.

    :raises ValueError: text that is not move notation (the message says why).
    """
    moves: list[tuple[int, int]] = []
    hits: list[int] = []
    for token in text.split():
        m = _STEP_TOKEN.match(token)
        if m is None:
            raise ValueError(f"{token!r} is not a move like 13/8, bar/22*, 6/off or 8/5(2)")
        parts = re.split(r"[/-]", m.group("chain"))
        points = [_point_value(p, i == 0) for i, p in enumerate(parts)]
        if any(v in (BAR_POINT, OFF_POINT) for v in points[1:-1]):
            raise ValueError(f"{token!r} passes through the bar or off the board")
        count = int(m.group("count") or 1)
        if count < 1:
            raise ValueError(f"{token!r} moves no checker")
        marks = [v for p, v in zip(parts[1:], points[1:], strict=True) if p.endswith("*")]
        for _ in range(count):
            moves.append((points[0], points[-1]))
            hits.extend(marks)
    return moves, hits



def _step(point: int, style: MoveStyle) -> str:
    if style == "gnubg":
        return str(point)
    return "bar" if point == BAR_POINT else "off" if point == OFF_POINT else str(point)


def format_play(play: Play, style: MoveStyle = "gnubg") -> str:
    """A play as a ``.mat`` file writes it.

    ``"gnubg"``: one step per die, in an order that can be played out, 25 = bar,
    0 = off (``24/18 18/16``, ``25/22*``, ``6/0``), as GNU Backgammon writes it
    and every reader accepts.  ``"standard"``: gammon's notation (``24/16``,
    ``bar/22*``, ``8/5(2)``).
    """
    if style == "standard":
        return str(play)
    return " ".join(
        f"{_step(m.from_point, style)}/{_step(m.to_point, style)}{'*' if m.hit else ''}" for m in play.moves
    )
