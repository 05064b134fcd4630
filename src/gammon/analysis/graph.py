"""The equity graph of a match: player 0's match winning chance (or money equity) after every decision.

Match play shows player 0's MWC in percent; money play his running total in
points (the points of the games already played plus the current game's
cubeful equity times the cube).  Errors and blunders are marked on the line
(by whoever made them), very lucky and very unlucky rolls with triangles,
games separated by faint lines.

:func:`graph_points` gives the numbers (for any drawing); :func:`graph_svg`
and :func:`graph_image` draw them with matplotlib, :func:`text_graph` with
letters for a terminal.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from gammon.analysis.analyse import MatchAnalysis
from gammon.i18n import N_, _, ngettext
from gammon.i18n.numbers import decimal, percent


@dataclass(frozen=True, slots=True)
class GraphPoint:
    """One point of the graph: ``x`` the decision's number, ``y`` player 0's value after it."""

    x: int
    y: float
    game: int
    player: int
    label: str
    mark: str | None
    luck_mark: str | None


def graph_points(analysis: MatchAnalysis) -> list[GraphPoint]:
    """Player 0's value after each move and each answer to a double, in order."""
    match = analysis.match_length > 0
    out: list[GraphPoint] = []
    before = 0.0  # money: points won in the games before this one
    x = 0
    for g in analysis.games:
        for d in g.decisions:
            if d.kind == "cube" and d.mark is None:
                continue
            sign = 1 if d.player == 0 else -1
            if match:
                if d.mwc_after is None:
                    continue
                y = 100.0 * (d.mwc_after if d.player == 0 else 1.0 - d.mwc_after)
            else:
                y = before + sign * d.value_after * d.cube_value
            x += 1
            label = f"game {d.game + 1} turn {d.turn}: {analysis.names[d.player]} {d.played}"
            out.append(GraphPoint(x, y, d.game, d.player, label, d.mark, d.luck_mark))
        s = g.summary
        if s.winner is not None:
            before += s.points if s.winner == 0 else -s.points
    return out


def _figure(analysis: MatchAnalysis):  # type: ignore[no-untyped-def]
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    pts = graph_points(analysis)
    fig = Figure(figsize=(9, 3.6), dpi=100)
    ax = fig.add_subplot(1, 1, 1)
    match = analysis.match_length > 0
    xs = [p.x for p in pts]
    ys = [p.y for p in pts]
    ax.plot(xs, ys, color="#1f4e79", linewidth=1.4, label=f"{analysis.names[0]}")
    if match:
        ax.set_ylim(0, 100)
        ax.axhline(50, color="#999", linewidth=0.6)
        ax.set_ylabel(_("{name}'s match winning chance (%)").format(name=analysis.names[0]))
    else:
        ax.axhline(0, color="#999", linewidth=0.6)
        ax.set_ylabel(_("{name}'s points").format(name=analysis.names[0]))
    last_game = None
    for p in pts:
        if p.game != last_game:
            if last_game is not None:
                ax.axvline(p.x - 0.5, color="#ccc", linewidth=0.8)
            # TRANSLATORS: the graph's mark where game n of the match begins ("G" for game).
            ax.text(p.x, (97 if match else max(ys or [0])), _("G{n}").format(n=p.game + 1), fontsize=7,
                    color="#777", va="top")
            last_game = p.game
    styles = {"blunder": ("X", 70, "#c62828", N_("blunders")), "error": ("o", 36, "#ef6c00", N_("errors"))}
    for mark, (shape, size, colour, name) in styles.items():
        sel = [p for p in pts if p.mark == mark]
        if sel:
            ax.scatter([p.x for p in sel], [p.y for p in sel], marker=shape, s=size, color=colour, zorder=3,
                       label=_(name))
    for lm, shape, colour, name in (("very lucky", "^", "#2e7d32", N_("very lucky rolls")),
                                    ("very unlucky", "v", "#6a1b9a", N_("very unlucky rolls"))):
        sel = [p for p in pts if p.luck_mark == lm]
        if sel:
            ax.scatter([p.x for p in sel], [p.y for p in sel], marker=shape, s=28, color=colour, zorder=3,
                       label=_(name))
    ax.set_xlabel(_("decision"))
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(0, max(xs or [1]) + 1)
    ax.grid(alpha=0.25)
    ax.legend(loc="lower left", fontsize=7, ncol=5, frameon=False)
    n = analysis.match_length
    kind = ngettext("{n}-point match", "{n}-point match", n).format(n=n) if match else _("money session")
    ax.set_title(_("{first} vs {second}, {kind}").format(first=analysis.names[0], second=analysis.names[1],
                                                          kind=kind), fontsize=10)
    fig.tight_layout()
    return fig


def graph_image(analysis: MatchAnalysis, fmt: str = "png") -> bytes:
    """The graph as a PNG or SVG file's bytes."""
    from gammon.core.errors import GammonError

    if fmt not in ("png", "svg"):
        raise GammonError(f"the graph can be written as png or svg, not {fmt!r}")
    fig = _figure(analysis)
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, metadata={"Date": None} if fmt == "svg" else None)
    return buf.getvalue()


def graph_svg(analysis: MatchAnalysis) -> str:
    """The graph as an SVG element (for embedding in a page)."""
    text = graph_image(analysis, "svg").decode("utf-8")
    start = text.find("<svg")
    return text[start:] if start >= 0 else text


def _text_graph_title(who: str, match: bool) -> str:
    """The first line of :func:`text_graph`: whose value it draws ("Your" when the name is "You")."""
    if who == "You":
        text = _("Your match winning chance after each decision (X blunder, ? error):") if match else _(
            "Your points after each decision (X blunder, ? error):")
        return text
    if match:
        return _("{name}'s match winning chance after each decision (X blunder, ? error):").format(name=who)
    return _("{name}'s points after each decision (X blunder, ? error):").format(name=who)


def text_graph(analysis: MatchAnalysis, width: int = 64, height: int = 7) -> list[str]:
    """The graph drawn with plain characters for a terminal (empty with fewer than two points).

    One column per decision (or per group of decisions when there are more
    than ``width``: the group's last value and its worst mark); ``*`` the
    value, ``X`` a blunder, ``?`` an error, ``-`` the even line (50% or 0
    points).  The first line says what is drawn; the labels are the values
    of the top, even and bottom rows.
    """
    pts = graph_points(analysis)
    if len(pts) < 2 or width < 2 or height < 3:
        return []
    match = analysis.match_length > 0
    n = len(pts)
    cols = min(width, n)
    groups = [pts[c * n // cols:(c + 1) * n // cols] for c in range(cols)]
    ys = [g[-1].y for g in groups]
    if match:
        lo, hi, even = 0.0, 100.0, 50.0
    else:
        even = 0.0
        lo, hi = min(min(ys), even), max(max(ys), even)
        if hi - lo < 1e-9:
            lo, hi = lo - 1.0, hi + 1.0

    def row(y: float) -> int:
        return round((hi - y) / (hi - lo) * (height - 1))

    grid = [[" "] * cols for _ in range(height)]
    for c in range(cols):
        grid[row(even)][c] = "-"
    for c, (g, y) in enumerate(zip(groups, ys, strict=True)):
        marks = {p.mark for p in g}
        grid[row(y)][c] = "X" if "blunder" in marks else "?" if "error" in marks else "*"

    def label(y: float) -> str:
        return percent(y / 100, 0) if match else decimal(y, 1, sign=True)

    labels = {0: label(hi), row(even): label(even), height - 1: label(lo)}
    pad = max(len(v) for v in labels.values())
    out = [_text_graph_title(analysis.names[0], match)]
    out += [f"{labels.get(r, ''):>{pad}} |{''.join(grid[r])}" for r in range(height)]
    out.append(f"{'':>{pad}} +{'-' * cols} " + ngettext("{n} decision", "{n} decisions", n).format(n=n))
    return out


__all__ = ["GraphPoint", "graph_image", "graph_points", "graph_svg", "text_graph"]
