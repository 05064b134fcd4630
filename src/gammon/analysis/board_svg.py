"""A backgammon board drawn as SVG, for reports (no rules here: it only draws a position).

The player the position is seen from (on roll) plays from the top left round to
the bottom right: his points 1-6 are the bottom right quarter, 7-12 bottom
left, 13-18 top left, 19-24 top right; his checkers are light, the
opponent's dark.  Stacks taller than five show their count.
"""

from __future__ import annotations

from html import escape

from gammon.core.position import Position
from gammon.i18n import _

W, H = 330, 250
MARGIN = 10
BAR_W = 24
OFF_W = 26
POINT_W = (W - 2 * MARGIN - BAR_W - OFF_W) / 12
CHECKER = POINT_W * 0.92
POINT_H = (H - 2 * MARGIN) * 0.42
LIGHT, DARK = "#f4efe2", "#2f2a26"


def _point_x(point: int) -> tuple[float, bool]:
    """Left edge of the mover's ``point`` (1..24) and whether it is on the bottom half."""
    if point <= 12:
        col = 12 - point  # 12 at the left, 1 at the right
        bottom = True
    else:
        col = point - 13  # 13 at the left, 24 at the right
        bottom = False
    x = MARGIN + col * POINT_W + (BAR_W if col >= 6 else 0)
    return x, bottom


def _stack(x: float, bottom: bool, count: int, fill: str, stroke: str) -> list[str]:
    out: list[str] = []
    cx = x + POINT_W / 2
    r = CHECKER / 2
    shown = min(count, 5)
    for i in range(shown):
        cy = (H - MARGIN - r - i * CHECKER) if bottom else (MARGIN + r + i * CHECKER)
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r - 0.6:.1f}" fill="{fill}" stroke="{stroke}"/>')
    if count > 5:
        cy = (H - MARGIN - r - 4 * CHECKER) if bottom else (MARGIN + r + 4 * CHECKER)
        colour = DARK if fill == LIGHT else LIGHT
        out.append(f'<text x="{cx:.1f}" y="{cy + 4:.1f}" font-size="11" text-anchor="middle" '
                   f'fill="{colour}" font-family="sans-serif">{count}</text>')
    return out


def _points(highlight: set[int]) -> list[str]:
    """The 24 points (triangles, alternating colours) with their numbers; ``highlight`` outlined."""
    parts = []
    for point in range(1, 25):
        x, bottom = _point_x(point)
        colour = "#a33b2a" if point % 2 else "#efe6cf"
        if bottom:
            base = H - MARGIN
            pts = f"{x:.1f},{base} {x + POINT_W:.1f},{base} {x + POINT_W / 2:.1f},{base - POINT_H:.1f}"
            ly = H - 1
        else:
            pts = f"{x:.1f},{MARGIN} {x + POINT_W:.1f},{MARGIN} {x + POINT_W / 2:.1f},{MARGIN + POINT_H:.1f}"
            ly = MARGIN - 2
        stroke = ' stroke="#1565c0" stroke-width="2.5"' if point in highlight else ""
        parts.append(f'<polygon points="{pts}" fill="{colour}"{stroke}/>')
        parts.append(f'<text x="{x + POINT_W / 2:.1f}" y="{ly}" font-size="7" text-anchor="middle" '
                     f'fill="#f0e0c0" font-family="sans-serif">{point}</text>')
    return parts


def board_svg(position: Position, *, title: str = "", cube: int = 1, cube_owner: int = -1,
              dice: tuple[int, int] | None = None, highlight: set[int] | None = None, label: str = "") -> str:
    """An SVG drawing of ``position`` from the side of the player on roll.

    ``cube_owner``: -1 centred, 0 the player on roll, 1 the opponent.
    ``highlight``: the mover's points to outline (where the play differs).
    ``label``: what a screen reader says for the drawing (default: the title, else "Backgammon board").
    """
    spoken = label or title or _("Backgammon board")
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H + (18 if title else 0)}" '
             f'width="{W}" height="{H + (18 if title else 0)}" role="img" aria-label="{escape(spoken)}">']
    oy = 0
    if title:
        parts.append(f'<text x="{W / 2}" y="13" font-size="12" text-anchor="middle" '
                     f'font-family="sans-serif">{escape(title)}</text>')
        oy = 18
    parts.append(f'<g transform="translate(0,{oy})">')
    parts.append(f'<rect x="0" y="0" width="{W}" height="{H}" fill="#7a5230" rx="6"/>')
    inner_w = 12 * POINT_W + BAR_W
    inner_h = H - 2 * MARGIN
    parts.append(f'<rect x="{MARGIN}" y="{MARGIN}" width="{inner_w}" height="{inner_h}" fill="#d9c49a"/>')
    bar_x = MARGIN + 6 * POINT_W
    parts.append(f'<rect x="{bar_x}" y="{MARGIN}" width="{BAR_W}" height="{inner_h}" fill="#5c3d22"/>')
    off_x = MARGIN + inner_w + 2
    parts.append(f'<rect x="{off_x}" y="{MARGIN}" width="{OFF_W - 4}" height="{inner_h}" fill="#5c3d22"/>')
    parts += _points(highlight or set())
    me, opp = position.me, position.opp
    for point in range(1, 25):
        x, bottom = _point_x(point)
        if me[point - 1]:
            parts += _stack(x, bottom, me[point - 1], LIGHT, "#555")
        q = 25 - point  # the opponent's number for this point
        if opp[q - 1]:
            parts += _stack(x, bottom, opp[q - 1], DARK, "#000")
    # The bar: the mover's checkers wait in the top half (they enter on the opponent's home board).
    r = CHECKER / 2
    cx = bar_x + BAR_W / 2
    for count, top, fill in ((me[24], True, LIGHT), (opp[24], False, DARK)):
        for i in range(min(count, 4)):
            cy = (MARGIN + 30 + r + i * CHECKER) if top else (H - MARGIN - 30 - r - i * CHECKER)
            parts.append(f'<circle cx="{cx}" cy="{cy:.1f}" r="{r - 0.6:.1f}" fill="{fill}" stroke="#000"/>')
        if count:
            cy = (MARGIN + 20) if top else (H - MARGIN - 14)
            parts.append(f'<text x="{cx}" y="{cy}" font-size="10" text-anchor="middle" fill="#fff" '
                         f'font-family="sans-serif">{count}</text>')
    off_me, off_opp = position.checkers_off
    ox = off_x + (OFF_W - 4) / 2
    parts.append(f'<text x="{ox}" y="{H - MARGIN - 4}" font-size="10" text-anchor="middle" fill="#fff" '
                 f'font-family="sans-serif">{off_me or ""}</text>')
    parts.append(f'<text x="{ox}" y="{MARGIN + 12}" font-size="10" text-anchor="middle" fill="#fff" '
                 f'font-family="sans-serif">{off_opp or ""}</text>')
    # The cube: middle of the bar when centred, else on its owner's side.
    cy = H / 2 if cube_owner < 0 else (H - MARGIN - 70 if cube_owner == 0 else MARGIN + 50)
    parts.append(f'<rect x="{cx - 10}" y="{cy - 10}" width="20" height="20" fill="#fff" stroke="#000" rx="3"/>')
    parts.append(f'<text x="{cx}" y="{cy + 4}" font-size="11" text-anchor="middle" '
                 f'font-family="sans-serif">{64 if cube == 1 and cube_owner < 0 else cube}</text>')
    if dice is not None:
        for i, d in enumerate(dice):
            dx = MARGIN + 9 * POINT_W + BAR_W + i * 26
            dy = H / 2 - 11
            parts.append(f'<rect x="{dx}" y="{dy}" width="22" height="22" rx="4" fill="#fff" stroke="#333"/>')
            parts.append(f'<text x="{dx + 11}" y="{dy + 16}" font-size="14" text-anchor="middle" '
                         f'font-family="sans-serif">{d}</text>')
    pips = position.pip_counts
    label = escape(_("pips {mine} / {theirs}").format(mine=pips[0], theirs=pips[1]))  # the reader's language
    parts.append(f'<text x="{MARGIN + 2}" y="{H / 2 + 4}" font-size="10" fill="#333" '
                 f'font-family="sans-serif">{label}</text>')
    parts.append("</g></svg>")
    return "".join(parts)


def changed_points(a: Position, b: Position) -> set[int]:
    """The mover's points (1..24) where two positions differ."""
    return {p for p in range(1, 25) if a.me[p - 1] != b.me[p - 1] or a.opp[24 - p] != b.opp[24 - p]}


__all__ = ["board_svg", "changed_points"]
