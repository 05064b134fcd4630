"""Jellyfish ``.mat`` match files, as GNU Backgammon and eXtreme Gammon write and read them.

A ``.mat`` file is plain text::

    ; [Site "Club night"]
    ; [Player 1 "Alice"]
    ; [Player 2 "Bob"]

     5 point match

     Game 1
     Alice : 0                      Bob : 0
      1)                             53: 8/3 6/3
      2) 62: 24/18 18/16             55: 13/8 13/8 6/1* 6/1
      3)  Doubles => 2                Takes
      ...
                                      Wins 2 points

Facts this module relies on, checked against GNU Backgammon 1.07 (``import
mat`` / ``export match mat``) and the format's other writers:

* the left column is GNU Backgammon's player 0 (gammon's player 0), the right
  column player 1; the score line names them in that order;
* each play is written from the mover's own side, 25 = bar and 0 = off
  (``bar``/``off`` are read too); GNU Backgammon writes one step per die
  (``24/18 18/16``, ``13/8 13/8``), others join steps and count repeats
  (``24/16``, ``13/8(2)``); ``*`` marks a hit but some writers leave it out;
* the dice are written in the order thrown (``21:`` and ``12:`` both occur);
  the opening roll is written in the column of the player who won it;
* ``Doubles => 2`` (the new value), ``Takes``, ``Drops``; in money play a
  beaver is ``Beavers => 4`` in the beaverer's column; the doubler's take of
  it is written only when a resignation follows at once (his next roll says
  he took it), his drop as ``Drops``;
* ``Wins N point(s)`` ends each game in the winner's column: after a bear-off,
  after a drop (the value before the double), or alone after a resignation,
  where ``N`` is the resigned value times the cube (a roll before the
  resignation is written as the dice without a play, ``52:``); a rejected
  resignation leaves no trace; a game lost on time (a game clock, see
  :class:`~gammon.core.actions.Timeout`) ends ``Wins N points on time``, ``N``
  what the winner scores by it (GNU Backgammon reads it as a resignation: its
  format has no loss on time);
* money sessions are written as `` 0 point match``; the Crawford game is not
  marked, readers work it out from the score; XG's header lines
  ``; [Variation "NackGammon"]``, ``[Crawford "On"]``, ``[Jacoby "Off"]``,
  ``[Beaver "Off"]``, ``[CubeLimit "1024"]`` carry the rules.

Opening-roll ties, rejected resignations and Acey-Deucey's chosen doubles are
not expressible here (use :mod:`gammon.formats.record_json`); reading gives
the actions a :class:`~gammon.core.match.Match` replays to the same positions.
The record layer shared with SGF is :mod:`gammon.formats.record`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gammon.core.errors import GammonError
from gammon.core.match import Match
from gammon.core.rules import Rules
from gammon.core.variants import HYPERGAMMON, NACKGAMMON, STANDARD, Variant
from gammon.formats.mat_moves import MoveStyle, format_play, parse_move_text
from gammon.formats.record import (
    CubeItem,
    GameItems,
    Item,
    MatchRecordData,
    RecordBuilder,
    RecordFormatError,
    TurnItem,
    WinItem,
    game_items,
    kind_from_points,
    resigned_value,
)

__all__ = [
    "CubeItem",
    "GameItems",
    "Item",
    "TurnItem",
    "WinItem",
    "game_items",
    "kind_from_points",
    "resigned_value",
    "RecordBuilder",
    "MatFormatError",
    "MatchRecordData",
    "RecordFormatError",
    "match_from_mat",
    "read_mat",
    "write_mat",
]


# -- errors ------------------------------------------------------------------


class MatFormatError(RecordFormatError):
    """A ``.mat`` file that cannot be read, or a match that cannot be written as one."""


# -- writing ---------------------------------------------------------------------

_VARIATION_NAMES: dict[str, str] = {
    STANDARD.name: "Backgammon", NACKGAMMON.name: "NackGammon", HYPERGAMMON.name: "HyperGammon",
}
_VARIANTS_BY_HEADER: dict[str, Variant] = {
    "backgammon": STANDARD, "standard": STANDARD, "nackgammon": NACKGAMMON, "hypergammon": HYPERGAMMON,
}


def _points_text(n: int) -> str:
    return f"Wins {n} point{'' if n == 1 else 's'}"


def _check_name(name: str) -> str:
    text = str(name).strip()
    if not text or ":" in text or "\n" in text or "\r" in text:
        raise MatFormatError(f"the player name {name!r} cannot be written in a .mat file",
                             expected="a non-empty name without ':' or line breaks")
    return text


def _header_value(value: str) -> str:
    return str(value).replace('"', "'").replace("\n", " ").replace("\r", " ")


def write_mat(
    match: Match,
    names: Sequence[str] = ("Player 0", "Player 1"),
    *,
    info: Mapping[str, str] | None = None,
    style: MoveStyle = "gnubg",
    rules_headers: bool = True,
) -> str:
    """The ``.mat`` text of ``match`` (finished or not) with player 0 in the left column.

    ``info`` adds header fields (``Site``, ``Event``, ``Round``, ``EventDate``
    as ``"2024.05.31"``, ...).  ``rules_headers`` writes XG's ``Variation``,
    ``Crawford``, ``Jacoby``, ``Beaver`` and ``CubeLimit`` fields, which GNU
    Backgammon skips and eXtreme Gammon reads.

    :raises MatFormatError: a match the format cannot carry: Dutch, Acey-Deucey
        or one- and two-checker Hypergammon, automatic doubles, or a name with ':'.
    """
    rules = match.rules
    variation = _VARIATION_NAMES.get(rules.variant.name)
    if variation is None:
        raise MatFormatError(f"a .mat file cannot carry {rules.variant.title}; use gammon's JSON record")
    left, right = (_check_name(n) for n in names)
    lines: list[str] = []
    fields: dict[str, str] = dict(info or {})
    fields.setdefault("Player 1", left)
    fields.setdefault("Player 2", right)
    if rules_headers:
        fields.setdefault("Variation", variation)
        if rules.match_length:
            fields.setdefault("Crawford", "On" if rules.crawford else "Off")
        else:
            fields.setdefault("Jacoby", "On" if rules.jacoby else "Off")
            fields.setdefault("Beaver", "On" if rules.beavers else "Off")
        fields.setdefault("CubeLimit", str(rules.cube_limit if rules.uses_cube else 1))
        if not rules.gammons:
            fields.setdefault("Gammons", "Off")
    for key, value in fields.items():
        lines.append(f'; [{_header_value(key)} "{_header_value(value)}"]')
    if lines:
        lines.append("")
    lines.append(f" {rules.match_length} point match")
    lines.append("")
    for number, game in enumerate(match.games, start=1):
        try:
            gi = game_items(game)
        except GammonError as exc:
            raise MatFormatError(f"game {number}: {exc}") from None
        if gi.auto_doubles:
            raise MatFormatError(f"game {number} began with automatic doubles, which a .mat file "
                                 "cannot record; use SGF or gammon's JSON record")
        if not gi.items and number > 1 and not game.record:
            continue  # a game started but not begun
        lines.extend(_game_lines(number, gi, (left, right), style))
    return "\n".join(lines).rstrip("\n") + "\n"


def _game_lines(number: int, gi: GameItems, names: tuple[str, str], style: MoveStyle) -> list[str]:
    score = f"{names[0]} : {gi.score[0]}"
    out = [f" Game {number}", f" {score:<31}{names[1]} : {gi.score[1]}"]
    entries: list[list[str | None] | str] = []  # a numbered row [left, right], or a line of its own

    def cell(item: Item) -> str:
        if isinstance(item, TurnItem):
            head = f"{item.dice[0]}{item.dice[1]}:"
            if item.play is None or not item.play.moves:
                return head
            return f"{head} {format_play(item.play, style)}"
        if isinstance(item, CubeItem):
            return {
                "double": f" Doubles => {item.value}", "take": " Takes", "drop": " Drops",
                "beaver": f" Beavers => {item.value}",
            }[item.what]
        n = resigned_value(item.kind, item.cube) if item.resigned else item.points
        # A loss on time: "Wins N points on time", N what the winner scores (GNU Backgammon, whose
        # format has no loss on time, reads the line as the loser's resignation and ignores the words).
        return _points_text(n) + (" on time" if item.timeout else "")

    items = gi.items
    for i, item in enumerate(items):
        before = items[i - 1] if i > 0 else None
        after = items[i + 1] if i + 1 < len(items) else None
        if (isinstance(item, CubeItem) and item.what == "take" and isinstance(before, CubeItem)
                and before.what == "beaver" and not (isinstance(after, WinItem) and after.resigned)):
            # GNU Backgammon writes (and reads) the doubler's take of a beaver only when a
            # resignation follows at once; elsewhere his next roll says he took it.
            continue
        text = cell(item)
        last = entries[-1] if entries and isinstance(entries[-1], list) else None
        if isinstance(item, WinItem):
            # In the row of the loser's last entry when that row has room (after a drop or a
            # roll before resigning), else alone, indented to the winner's column.
            if item.player == 1 and last is not None and last[0] is not None and last[1] is None:
                last[1] = text
            else:
                entries.append((" " * 6 if item.player == 0 else " " * 34) + text)
        elif item.player == 0:
            entries.append([text, None])
        elif last is not None and last[1] is None:
            last[1] = text
        else:
            entries.append([None, text])
    number = 0
    for entry in entries:
        if isinstance(entry, str):
            out.append(entry)
            continue
        number += 1
        lcell, rcell = entry
        line = f"{number:3d}) {lcell or '':<27}"
        if rcell is not None:
            # two spaces at least before a right entry without a leading space, so that
            # GNU Backgammon's reader (which splits at a double space) finds the column
            line += (" " if len(lcell or "") < 27 or rcell.startswith(" ") else "  ") + rcell
        out.append(line.rstrip())
    out.append("")
    return out


# -- reading ---------------------------------------------------------------------

_MATCH_LINE = re.compile(r"^\s*(\d+)\s*[- ]?\s*points?\s+match\b", re.IGNORECASE)
_GAME_LINE = re.compile(r"^\s*game\s+(\d+)\b(.*)$", re.IGNORECASE)
_HEADER_FIELD = re.compile(r'^\[\s*([^\]"]+?)\s+"(.*)"\s*\]\s*$')
_SCORE_LINE = re.compile(
    r"^\s*(?P<n0>[^:]*?)\s*:\s*(?P<s0>\d+)(?P<m0>\s*\*)?\s+(?P<n1>\S[^:]*?)\s*:\s*(?P<s1>\d+)"
    r"(?P<m1>\s*\*)?(?P<rest>.*)$"
)
_NUMBER_PREFIX = re.compile(r"^\s*\d+\)")
_DICE = re.compile(r"^([1-6])([1-6]):(.*)$")
_KEYWORDS = ("double", "beaver", "raccoon", "take", "drop", "pass", "win", "resign")


@dataclass
class _Cell:
    column: int
    tokens: list[str]
    kind: str  # "dice" or a keyword


def _cells(line: str) -> list[_Cell]:
    prefix = _NUMBER_PREFIX.match(line)
    start = prefix.end() if prefix else 0
    cells: list[_Cell] = []
    for m in re.finditer(r"\S+", line[start:]):
        col = m.start() + start
        tok = m.group()
        dice = _DICE.match(tok)
        low = tok.lower()
        if dice:
            cells.append(_Cell(col, [tok[:3]] + ([dice.group(3)] if dice.group(3) else []), "dice"))
        elif cells and cells[-1].kind == "dice" and low in ("cannot", "can't", "move", "???", "????"):
            cells[-1].tokens.append(tok)
        elif any(low.startswith(k) for k in _KEYWORDS):
            kind = next(k for k in _KEYWORDS if low.startswith(k))
            cells.append(_Cell(col, [tok], kind))
        elif cells:
            cells[-1].tokens.append(tok)
        else:
            cells.append(_Cell(col, [tok], "unknown"))
    return cells


def _int_after(tokens: list[str]) -> int | None:
    for t in tokens[1:]:
        if t.isdigit():
            return int(t)
    return None


def _on_off(value: str, key: str, line: int) -> bool:
    v = value.strip().lower()
    if v in ("on", "yes", "true", "1"):
        return True
    if v in ("off", "no", "false", "0"):
        return False
    raise MatFormatError(f'the header {key} says {value!r}', line=line, expected='"On" or "Off"')


def _rules_from_headers(length: int, info: Mapping[str, tuple[str, int]], line: int,
                        defaults: Rules | None) -> Rules:
    base = defaults or Rules()
    variant = base.variant
    if "Variation" in info:
        value, at = info["Variation"]
        found = _VARIANTS_BY_HEADER.get(value.strip().lower().replace(" ", ""))
        if found is None:
            raise MatFormatError(f"unknown variation {value!r}", line=at,
                                 expected="Backgammon, NackGammon or HyperGammon")
        variant = found
    crawford = _on_off(*_field(info, "Crawford", "On")) if "Crawford" in info else base.crawford
    jacoby = _on_off(*_field(info, "Jacoby", "Off")) if "Jacoby" in info else base.jacoby
    beavers = _on_off(*_field(info, "Beaver", "On")) if "Beaver" in info else (
        base.beavers if defaults is not None else length == 0)
    gammons = _on_off(*_field(info, "Gammons", "On")) if "Gammons" in info else base.gammons
    cube = base.cube
    cube_limit = base.cube_limit
    if "CubeLimit" in info:
        value, at = info["CubeLimit"]
        try:
            limit = int(value.strip())
        except ValueError:
            raise MatFormatError(f"CubeLimit {value!r} is not a number", line=at) from None
        if limit <= 1:
            cube = False
        else:
            cube_limit = 1 << min(12, max(1, limit.bit_length() - 1))
    try:
        return Rules(variant=variant, match_length=length, crawford=crawford,
                     jacoby=jacoby and length == 0, beavers=beavers and length == 0,
                     automatic_doubles=base.automatic_doubles if length == 0 else 0,
                     cube_limit=cube_limit, gammons=gammons, cube=cube)
    except GammonError as exc:
        raise MatFormatError(str(exc), line=line) from None


def _field(info: Mapping[str, tuple[str, int]], key: str, default: str) -> tuple[str, str, int]:
    value, at = info.get(key, (default, 0))
    return value, key, at


def read_mat(text: str, defaults: Rules | None = None) -> MatchRecordData:
    """Read a ``.mat`` match file as GNU Backgammon or eXtreme Gammon writes it.

    Both column layouts, ``25``/``bar``, ``0``/``off``, joined or single-step
    plays, ``*`` or no hit marks, ``(2)`` counts, Windows line endings and a
    byte-order mark are accepted.  Every action is checked against the rules as
    it is read.  The rules come from the header lines; what they leave out comes
    from ``defaults`` (gammon's defaults if None: Crawford on, beavers allowed in
    money play, and a cube limit raised as far as the file's cube goes).

    :raises MatFormatError: with the line number and what was expected.
    """
    if not isinstance(text, str):
        raise MatFormatError("a .mat file must be given as text", expected="a str")
    lines = [ln.expandtabs(8) for ln in text.lstrip("\ufeff").splitlines()]
    length, info_at, comments, i = _read_head(lines)
    rules = _rules_from_headers(length, info_at, i, defaults)
    builder = RecordBuilder(rules, MatFormatError, phantom_counts_in_wins=True,
                            fixed_cube_limit=defaults is not None or "CubeLimit" in info_at)
    info = {k: v for k, (v, _) in info_at.items()}
    if comments:
        info["Comment"] = "\n".join(comments)
    names, scores = _read_games(builder, lines, i, length)
    games = builder.finish()
    if names is None:
        names = (info.get("Player 1", "Player 0"), info.get("Player 2", "Player 1"))
    return MatchRecordData(builder.rules, names, games, scores, info)


def _read_head(lines: Sequence[str]) -> tuple[int, dict[str, tuple[str, int]], list[str], int]:
    """The file's head up to `` N point match``: the match length, the header fields (each with
    its line number), the other comment lines, and the index of the line after the match line."""
    info_at: dict[str, tuple[str, int]] = {}
    comments: list[str] = []
    i = 0
    while i < len(lines):
        raw = lines[i].strip()
        i += 1
        if not raw:
            continue
        if raw[0] in ";#":
            body = raw[1:].strip()
            m = _HEADER_FIELD.match(body)
            if m:
                info_at[m.group(1)] = (m.group(2), i)
            elif body:
                comments.append(body)
            continue
        m = _MATCH_LINE.match(raw)
        if m is None:
            raise MatFormatError(f"unexpected text {raw[:40]!r}", line=i,
                                 expected="a header line '; [...]' or ' N point match'")
        return int(m.group(1)), info_at, comments, i
    raise MatFormatError("no match length found", line=max(1, len(lines)), expected="' N point match'")


def _read_games(builder: RecordBuilder, lines: Sequence[str], start: int,
                length: int) -> tuple[tuple[str, str] | None, list[tuple[int, int]]]:
    """Every game from line index ``start`` into ``builder``: the players' names from the first
    score line (None without a game) and each game's starting score."""
    names: tuple[str, str] | None = None
    scores: list[tuple[int, int]] = []
    split = _column_split(lines[start:])
    i = start
    while i < len(lines):
        raw = lines[i]
        i += 1
        stripped = raw.strip()
        if not stripped or stripped[0] in ";#":
            continue
        gm = _GAME_LINE.match(raw)
        if gm:
            game_label = f"game {gm.group(1)}"
            game_line = i
            sm, i = _score_line(lines, i, game_label)
            score = (int(sm.group("s0")), int(sm.group("s1")))
            if length and builder.started and builder.match.is_over and builder.game.is_over:
                break  # games after the end of the match: GNU Backgammon ignores them too
            if names is None:
                names = (sm.group("n0").strip() or "Player 0", sm.group("n1").strip() or "Player 1")
            builder.start_game(game_line, score, game_label, i)
            scores.append(score)
            marked = "crawford" in (gm.group(2) + sm.group("rest")).lower()
            if marked and not builder.game.crawford_game:
                raise MatFormatError(f"{game_label} is marked as the Crawford game, but the score and "
                                     "rules say it is not", line=i)
            continue
        if not builder.started:
            raise MatFormatError(f"unexpected text {stripped[:40]!r} before the first game", line=i,
                                 expected="' Game 1'")
        _read_move_line(builder, raw, i, split)
    return names, scores


def _score_line(lines: Sequence[str], i: int, game_label: str) -> tuple[re.Match[str], int]:
    """The score line that follows a game line (blank lines between are skipped), and the index
    of the line after it; ``i`` is the index after the game line."""
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines):
        raise MatFormatError(f"{game_label} has no score line", line=i,
                             expected="'Name1 : 0    Name2 : 0'")
    sm = _SCORE_LINE.match(lines[i])
    i += 1
    if sm is None:
        raise MatFormatError(f"{lines[i - 1].strip()[:40]!r} is not a score line", line=i,
                             expected="'Name1 : 0    Name2 : 0'")
    return sm, i


def _column_split(lines: Sequence[str]) -> float:
    lefts: list[int] = []
    rights: list[int] = []
    for line in lines:
        if _GAME_LINE.match(line) or _SCORE_LINE.match(line):
            continue
        cells = _cells(line)
        if len(cells) == 2:
            lefts.append(cells[0].column)
            rights.append(cells[1].column)
    if not rights:
        return 20.0
    return (max(lefts) + min(rights)) / 2 if max(lefts) < min(rights) else 20.0


def _read_move_line(builder: RecordBuilder, raw: str, line: int, split: float) -> None:
    cells = _cells(raw)
    if not cells:
        return
    if len(cells) > 2:
        raise MatFormatError(f"{raw.strip()[:50]!r} holds more than two entries", line=line,
                             expected="at most one entry per column")
    if len(cells) == 2:
        placed = [(0, cells[0]), (1, cells[1])]
    else:
        placed = [(1 if cells[0].column >= split else 0, cells[0])]
    for player, cell in placed:
        _read_cell(builder, player, cell, line)


def _read_cell(builder: RecordBuilder, player: int, cell: _Cell, line: int) -> None:
    toks = cell.tokens
    kind = cell.kind
    if kind == "dice":
        dice = (int(toks[0][0]), int(toks[0][1]))
        rest = list(toks[1:])
        low = [t.lower() for t in rest]
        builder.roll(player, dice, line)
        if not rest or low[:2] == ["cannot", "move"] or low == ["can't", "move"] or all(
                t.strip("?") == "" for t in rest):
            builder.play(player, None, line)
            return
        text = " ".join(rest)
        try:
            moves, _hits = parse_move_text(text)
        except ValueError as exc:
            raise MatFormatError(str(exc), line=line, expected="moves like 13/8 24/23") from None
        builder.play(player, moves, line, text)
    elif kind in ("double", "raccoon") or kind == "beaver":
        value = _int_after(toks)
        if kind == "raccoon":
            raise MatFormatError("raccoons are not part of gammon's rules", line=line)
        if kind == "beaver":
            builder.beaver(player, value, line)
        else:
            builder.double(player, value, line)
    elif kind == "take":
        builder.take(player, line)
    elif kind in ("drop", "pass"):
        builder.drop(player, line)
    elif kind == "win":
        on_time = [t.lower() for t in toks[-2:]] == ["on", "time"]
        builder.win(player, _int_after(toks), line, on_time=on_time)
    elif kind == "resign":
        return  # a .gam "resigns" note; the Wins line that follows records it
    else:
        raise MatFormatError(f"{' '.join(toks)[:40]!r} is not a move, cube action or result", line=line,
                             expected="'52: 13/8 13/11', 'Doubles => 2', 'Takes', 'Drops' or 'Wins 1 point'")


def match_from_mat(text: str, defaults: Rules | None = None) -> Match:
    """The :class:`Match` a ``.mat`` file records, replayed and checked.

    :raises MatFormatError: the file cannot be read or records an illegal action.
    """
    data = read_mat(text, defaults)
    try:
        return data.replay()
    except GammonError as exc:  # pragma: no cover - read_mat already checked every action
        raise MatFormatError(str(exc)) from None

