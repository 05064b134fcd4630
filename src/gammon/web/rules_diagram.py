"""The start-position diagram of a rules page: a small SVG board drawn from core's start position.

The board is seen from the player at the bottom, who moves from the 24-point (top right)
round to the 1-point (bottom right), as every rules page counts the points.  The checkers are
:meth:`gammon.core.position.Position.initial`'s, so the drawing cannot disagree with the
engine; checkers that start off the board (Dutch, Acey-Deucey) are drawn in the bar with
their count.  Only SVG attributes are used (the pages' CSP allows no inline style), and the
words (the label and the bar's meaning) come in translated from the caller.
"""

from __future__ import annotations

from html import escape

from gammon.core.position import Position
from gammon.core.variants import Variant

#: One point's width, the bar's, and the board's height, in SVG units.
COL, BAR_W, HEIGHT = 34, 34, 380
#: The most checkers drawn on a point before a count is written on the top one.
STACK = 5
_R = COL // 2 - 2
_WIDTH = 12 * COL + BAR_W
_MINE, _THEIRS, _INK = "#f6efe2", "#3b2a1c", "#3b2a1c"


def _column(point: int) -> tuple[float, bool]:
    """The centre x of ``point`` (1..24, the bottom player's numbering) and whether it is on the top row."""
    top = point > 12
    index = point - 13 if top else 12 - point  # left to right: 13..24 on top, 12..1 below
    x = index * COL + (BAR_W if index >= 6 else 0) + COL / 2
    return x, top


def _triangle(point: int) -> str:
    x, top = _column(point)
    tip = HEIGHT * 0.42
    y0, y1 = (0, tip) if top else (HEIGHT, HEIGHT - tip)
    fill = "#c8a27a" if point % 2 else "#8c5a3c"
    return (f'<polygon points="{x - COL / 2:.0f},{y0} {x + COL / 2:.0f},{y0} {x:.0f},{y1:.0f}" '
            f'fill="{fill}"/>')


def _stack(x: float, top: bool, count: int, colour: str) -> str:
    """``count`` checkers on a point (at most :data:`STACK` drawn, the top one carrying the count)."""
    out = []
    for i in range(min(count, STACK)):
        y = (_R + 2 + i * 2 * _R) if top else (HEIGHT - _R - 2 - i * 2 * _R)
        out.append(f'<circle cx="{x:.0f}" cy="{y}" r="{_R}" fill="{colour}" stroke="{_INK}"/>')
    if count > STACK:
        y = (_R + 2 + (STACK - 1) * 2 * _R) if top else (HEIGHT - _R - 2 - (STACK - 1) * 2 * _R)
        ink = _INK if colour == _MINE else _MINE
        out.append(f'<text x="{x:.0f}" y="{y + 4}" text-anchor="middle" font-size="12" '
                   f'fill="{ink}">{count}</text>')
    return "".join(out)


def start_diagram(variant: Variant, label: str) -> str:
    """The SVG of ``variant``'s start position, ``label`` read out by screen readers (already translated).

    The bottom player's checkers are light, the opponent's dark; point numbers are written
    along the edges, and checkers waiting off the board stand in the bar with their count.
    """
    start = Position.initial(variant)
    parts = [f'<rect x="0" y="0" width="{_WIDTH}" height="{HEIGHT}" fill="#e9dcc3"/>',
             f'<rect x="{6 * COL}" y="0" width="{BAR_W}" height="{HEIGHT}" fill="#5a3d28"/>']
    parts += [_triangle(p) for p in range(1, 25)]
    numbers = []
    for point in range(1, 25):
        x, top = _column(point)
        numbers.append(f'<text x="{x:.0f}" y="{-6 if top else HEIGHT + 16}" text-anchor="middle" '
                       f'font-size="11" fill="{_INK}">{point}</text>')
        mine = start.me[point - 1]
        theirs = start.opp[24 - point]  # the opponent's own point 25 - point
        if mine:
            parts.append(_stack(x, top, mine, _MINE))
        if theirs:
            parts.append(_stack(x, top, theirs, _THEIRS))
    bar_x = 6 * COL + BAR_W / 2
    for count, top, colour in ((start.opp[24], True, _THEIRS), (start.me[24], False, _MINE)):
        if count:
            parts.append(_stack(bar_x, top, 1, colour))
            y = _R + 6 if top else HEIGHT - _R + 2
            ink = _INK if colour == _MINE else _MINE
            parts.append(f'<text x="{bar_x:.0f}" y="{y}" text-anchor="middle" font-size="12" '
                         f'fill="{ink}">{count}</text>')
    return (f'<svg class="rules-diagram" viewBox="0 -20 {_WIDTH} {HEIGHT + 40}" width="{_WIDTH}" '
            f'height="{HEIGHT + 40}" role="img" aria-label="{escape(label)}">'
            f'{"".join(parts)}{"".join(numbers)}</svg>')


__all__ = ["start_diagram"]
