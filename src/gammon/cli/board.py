"""The board drawn in a terminal: 24 points, bar, borne-off trays and a side panel.

:func:`render_board` returns a :class:`rich.text.Text` that fits in 80x24 and
reads the same without colour (``NO_COLOR``, a pipe, a dumb terminal): checkers
are letters (``O`` for the player seen at the bottom, ``X`` for the other),
stacked up to five high with the count written in the fifth place beyond five.

The layout follows GNU Backgammon's ASCII board: the viewer's home board is at
the bottom right, points are numbered from the viewer's side (1..12 along the
bottom, 13..24 along the top).  Checkers on the bar stack from the middle of
the bar column outwards (the top player's above the middle, the bottom
player's below it); borne-off checkers sit in the ``OFF`` tray on the right.

Everything a game screen needs besides the checkers is optional, so ``gammon
show`` and the terminal game draw with the same function: cube value and
owner, dice (and the playing cards they were drawn as), score and match
length, names, and which side sits at the bottom.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from rich.text import Text

from gammon.core.position import Position
from gammon.i18n import N_, _

#: Who a field refers to, relative to the position: ``me`` is the player on roll.
Side = Literal["me", "opp"]

#: Checker rows drawn per half board before a count replaces the fifth checker.
STACK = 5
#: Default names of (player on roll, opponent).
DEFAULT_NAMES = (N_("Player"), N_("Opponent"))

_BOTTOM_STYLE = "bold cyan"
_TOP_STYLE = "bold red"
_FRAME_STYLE = "dim"
_PANEL_WIDTH = 30  # 80 columns - 1 margin - 46 board - 2 gap - 1 spare


def render_board(
    position: Position,
    *,
    cube: int | None = None,
    cube_owner: Side | None = None,
    score: tuple[int, int] | None = None,
    match_length: int | None = None,
    crawford: bool = False,
    dice: Sequence[int] | None = None,
    cards: Sequence[str] | None = None,
    names: tuple[str, str] | None = None,
    viewer: Side = "me",
    match_id: str | None = None,
    show_ids: bool = True,
) -> Text:
    """Draw ``position`` as rich text of at most 80 columns and 17 lines.

    All optional fields are given relative to the position, whose ``me`` is the
    player on roll (the player whose turn it is):

    :param cube: cube value to show (None: no cube, as in Acey-Deucey or ``show``).
    :param cube_owner: ``"me"``, ``"opp"`` or None for a centred cube.
    :param score: points won so far by (me, opp).
    :param match_length: points to win the match; None or 0 for money play.
    :param crawford: mark this game as the Crawford game.
    :param dice: the dice the player on roll rolled, drawn in the middle of the
        board on that player's side.
    :param cards: labels of playing cards the dice came from (``("3♥", "A♠")``).
    :param names: (me, opp) names; default "Player" and "Opponent".
    :param viewer: the side drawn at the bottom, whose points are numbered
        (``"opp"`` keeps a human's view while the computer is on roll).
    :param match_id: a Match ID to print under the board beside the Position ID.
    :param show_ids: print the Position ID line under the board.
    """
    bottom_is_me = viewer == "me"
    bottom, top = _side_views(position, bottom_is_me, names, score,
                              cube_owner if cube is not None else None)
    top_points = list(range(13, 25))
    bottom_points = list(range(12, 0, -1))

    lines: list[Text] = [_numbers(top_points), _frame()]
    panel_top = _panel(top, cube, match_length, cards if not bottom_is_me else None)
    for r in range(STACK):
        line = _board_line(top_points, r, top, _TOP_STYLE, bottom, top)
        _add_panel(line, panel_top[r])
        lines.append(line)

    lines.append(
        _middle(dice, roller_at_bottom=bottom_is_me, cube=cube, cube_owner=cube_owner,
                match_length=match_length, crawford=crawford)
    )

    # The bottom half is the top half mirrored: rows from the middle to the edge,
    # and the side panel with the name at the outer edge.
    panel_bottom = _panel(bottom, cube, match_length, cards if bottom_is_me else None)
    for r in reversed(range(STACK)):
        line = _board_line(bottom_points, r, bottom, _BOTTOM_STYLE, bottom, top)
        _add_panel(line, panel_bottom[r])
        lines.append(line)

    lines.append(_frame())
    lines.append(_numbers(bottom_points))
    if show_ids:
        ids = Text(" " + _("Position ID: {id}").format(id=position.position_id))
        if match_id:
            ids.append("   " + _("Match ID: {id}").format(id=match_id))
        lines.append(ids)

    out = Text("\n").join(lines)
    out.no_wrap = True
    return out


def board_text(position: Position, **options: object) -> str:
    """:func:`render_board` as plain text without styles (for logs, tests and pipes)."""
    return render_board(position, **options).plain  # type: ignore[arg-type]


class _SideView:
    """What the board shows about one player."""

    __slots__ = ("row", "symbol", "name", "pips", "off", "score", "on_roll", "owns_cube")

    def __init__(
        self,
        row: tuple[int, ...],
        symbol: str,
        name: str,
        pips: int,
        off: int,
        score: int | None,
        on_roll: bool,
        owns_cube: bool,
    ) -> None:
        self.row = row
        self.symbol = symbol
        self.name = name
        self.pips = pips
        self.off = off
        self.score = score
        self.on_roll = on_roll
        self.owns_cube = owns_cube


def _side_views(position: Position, bottom_is_me: bool, names: tuple[str, str] | None,
                score: tuple[int, int] | None, cube_owner: Side | None) -> tuple[_SideView, _SideView]:
    """What the board shows about the (bottom, top) players; ``cube_owner`` is None without a
    cube or with a centred one."""
    me_name, opp_name = names if names is not None else (_(DEFAULT_NAMES[0]), _(DEFAULT_NAMES[1]))
    pips = position.pip_counts
    off = position.checkers_off

    def side(is_me: bool) -> _SideView:
        row = position.me if is_me else position.opp
        i = 0 if is_me else 1
        return _SideView(
            row=row,
            symbol="O" if is_me == bottom_is_me else "X",
            name=me_name if is_me else opp_name,
            pips=pips[i],
            off=off[i],
            score=None if score is None else score[i],
            on_roll=is_me,
            owns_cube=cube_owner == ("me" if is_me else "opp"),
        )

    return side(bottom_is_me), side(not bottom_is_me)


# Checker cells: a list of point stacks per half, listed left to right.
# Bottom row, left to right: points 12..7 | bar | 6..1 (viewer's numbering).
# Top row: 13..18 | bar | 19..24.  A viewer point p holds the top player's
# checkers on *their* point 25 - p.
def _point_stack(view_point: int, bottom: _SideView, top: _SideView) -> tuple[int, bool]:
    """(checkers, is_bottom_player) on a point numbered from the viewer's side."""
    mine = bottom.row[view_point - 1]
    if mine:
        return mine, True
    return top.row[24 - view_point], False


def _board_line(points: list[int], r: int, view: _SideView, style: str,
                bottom: _SideView, top: _SideView) -> Text:
    """Row ``r`` of one half: its 12 points, then ``view``'s bar and off stacks."""
    line = Text(" ")
    line.append("|", _FRAME_STYLE)
    for k, p in enumerate(points):
        if k == 6:
            line.append("|", _FRAME_STYLE)
            line.append_text(_cell(view.row[24], r, style, view.symbol, from_middle=True))
            line.append("|", _FRAME_STYLE)
        n, is_bottom = _point_stack(p, bottom, top)
        line.append_text(
            _cell(n, r, _BOTTOM_STYLE if is_bottom else _TOP_STYLE, "O" if is_bottom else "X")
        )
    line.append("|", _FRAME_STYLE)
    line.append_text(_cell(view.off, r, style, view.symbol))
    line.append("|", _FRAME_STYLE)
    return line


def _cell(n: int, r: int, style: str, symbol: str, *, from_middle: bool = False) -> Text:
    """Row ``r`` (0 = outer edge) of a 3-column stack of ``n`` checkers.

    Stacks grow from the board's edge towards the middle; bar stacks
    (``from_middle``) grow from the middle outwards.  Beyond :data:`STACK`
    checkers the last visible place shows the count instead.
    """
    pos = STACK - 1 - r if from_middle else r
    if n <= pos:
        return Text("   ")
    if pos == STACK - 1 and n > STACK:
        return Text(f"{n:>2} ", style)
    return Text(f" {symbol} ", style)


def _numbers(points: list[int]) -> Text:
    """The line of point numbers above or below the board, aligned with the checkers."""
    left = "".join(f"{p:>2} " for p in points[:6])
    right = "".join(f"{p:>2} " for p in points[6:])
    return Text(f"  {left}     {right}".rstrip(), _FRAME_STYLE)


def _frame() -> Text:
    """The top or bottom border line."""
    return Text(" +" + "-" * 18 + "+---+" + "-" * 18 + "+---+", _FRAME_STYLE)


def _middle(
    dice: Sequence[int] | None,
    *,
    roller_at_bottom: bool,
    cube: int | None,
    cube_owner: Side | None,
    match_length: int | None,
    crawford: bool,
) -> Text:
    """The middle line: BAR, OFF, the dice, the kind of game and a centred cube.

    The dice lie in the right half when the player on roll sits at the bottom,
    in the left half when at the top, so a glance says whose roll it is.
    """
    empty = " " * 18
    dice_text = "  ".join(f"[{d}]" for d in dice).center(18) if dice else empty
    left, right = (empty, dice_text) if roller_at_bottom else (dice_text, empty)
    line = Text(" ")
    line.append("|", _FRAME_STYLE)
    line.append(left, "bold")
    line.append("|" + _label(_("BAR")) + "|", _FRAME_STYLE)
    line.append(right, "bold")
    line.append("|" + _label(_("OFF")) + "|", _FRAME_STYLE)
    info: list[str] = []
    if match_length:
        info.append(_("{length}-point match").format(length=match_length))
        if crawford:
            info.append(_("Crawford game"))
    elif cube is not None:
        info.append(_("money game"))
    if cube is not None and cube_owner is None and not crawford:
        info.append(_("cube {cube}").format(cube=cube))  # (no cube in the Crawford game, and no room for it)
    _add_panel(line, ", ".join(info))
    return line


def _panel(
    view: _SideView, cube: int | None, match_length: int | None, cards: Sequence[str] | None
) -> list[str]:
    """Five side-panel lines for one player, listed from the board's edge inwards."""
    return [
        f"{view.symbol}  {view.name}" + (_("  (on roll)") if view.on_roll else ""),
        _("pips {pips}   off {off}").format(pips=view.pips, off=view.off),
        "" if view.score is None else (
            _("score {score}").format(score=view.score) if not match_length
            else _("won the match ({score} points)").format(score=view.score) if view.score >= match_length
            else _("score {score} of {length}").format(score=view.score, length=match_length)
        ),
        _("cube {cube} (owns it)").format(cube=cube) if view.owns_cube and cube is not None else "",
        (_("cards") + " " + "  ".join(f"[{c}]" for c in cards)) if cards else "",
    ]


def _label(word: str) -> str:
    """A word of the board's middle line (``BAR``, ``OFF``, translated) in its 3 columns."""
    return word[:3].center(3)


def _add_panel(line: Text, text: str) -> None:
    """Append a side-panel entry, cut to fit within 80 columns."""
    if text:
        if len(text) > _PANEL_WIDTH:
            text = text[: _PANEL_WIDTH - 1] + "…"
        line.append("  " + text)
