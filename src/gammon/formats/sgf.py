"""SGF for backgammon (``GM[6]``), in GNU Backgammon's flavour: write and read.

A file is one game tree per game, each a root node and a line of move nodes::

    (;FF[4]GM[6]CA[UTF-8]AP[gammon:0.1.0]MI[length:5][game:0][ws:0][bs:0]
    PW[Alice]PB[Bob]RU[Crawford]RE[B+2]
    ;B[53qvsv]
    ;W[62xrrp]
    ;B[double]
    ;W[take]
    ...)

What the format says, checked against GNU Backgammon 1.07 (``save match``,
``load match``) and its reader and writer:

* ``W`` is GNU Backgammon's player 0 (gammon's player 0, ``PW``), ``B``
  player 1 (``PB``);
* ``MI[length:N][game:i][ws:a][bs:b]``: match length (0 = money), game number
  from 0, the score of W and B at the start of the game;
* ``RU`` lists rules joined by colons: ``Crawford`` (the match uses the
  Crawford rule), ``CrawfordGame`` (this game is the Crawford game),
  ``Jacoby``, ``NoCube``, ``Nackgammon``, ``Hypergammon1``/``2``/``3``;
  ``CV[n]``: the cube starts at ``n`` (automatic doubles);
* ``RE[W+2]``, ``RE[B+1R]``: winner, points scored, ``R`` when the loser
  resigned; a resignation has no node of its own (GNU Backgammon rebuilds it
  from ``RE``: resigned value = points / cube); ``RE[B+Time]`` (SGF's ``+T``
  or ``+Time``): the loser ran out of time on a game clock and lost the match
  (core scores it, see :class:`~gammon.core.actions.Timeout`), with a comment
  ``C[...]`` on the last node saying so;
* a turn is ``;B[53qvsv]``: the dice in the order thrown, then a letter pair
  per checker step (from, to): point ``p`` of W is ``'a' + p - 1``, of B
  ``'a' + 24 - p`` (so the letters name one fixed board), ``y`` the bar and
  ``z`` off; ``;W[63]`` is a roll with no legal play; a roll with the play
  still to come (a resignation followed) is ``;PL[B]DI[52]``;
* ``;B[double]``, ``;W[take]``, ``;W[drop]``; a beaver is the doubled
  player's ``double`` straight after the double, then the doubler's ``take``
  or ``drop`` answers it.

Rejected resignations and opening-roll ties (beyond the ``CV`` they cause)
leave no trace; gammon's JSON record keeps everything.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gammon.core.errors import GammonError
from gammon.core.match import Match
from gammon.core.phase import Phase
from gammon.core.plays import BAR_POINT, OFF_POINT, CheckerMove
from gammon.core.rules import Rules
from gammon.core.variants import HYPERGAMMON, HYPERGAMMON1, HYPERGAMMON2, NACKGAMMON, STANDARD, Variant
from gammon.formats.record import (
    CubeItem,
    GameItems,
    MatchRecordData,
    RecordBuilder,
    RecordFormatError,
    TurnItem,
    WinItem,
    game_items,
)

__all__ = ["SgfFormatError", "match_from_sgf", "read_sgf", "write_sgf"]


class SgfFormatError(RecordFormatError):
    """An SGF file that cannot be read, or a match that cannot be written as one."""


_RU_VARIANTS: dict[str, Variant] = {
    "Nackgammon": NACKGAMMON, "Hypergammon1": HYPERGAMMON1, "Hypergammon2": HYPERGAMMON2,
    "Hypergammon3": HYPERGAMMON,
}
_VARIANT_RU: dict[str, str] = {v.name: k for k, v in _RU_VARIANTS.items()}

#: Friendly names for the root properties GNU Backgammon keeps about the match.
_INFO_KEYS: dict[str, str] = {
    "Date": "DT", "Event": "EV", "Round": "RO", "Place": "PC", "Site": "PC", "Annotator": "AN",
    "Comment": "GC", "White rating": "WR", "Black rating": "BR",
}
_INFO_NAMES: dict[str, str] = {
    "DT": "Date", "EV": "Event", "RO": "Round", "PC": "Place", "AN": "Annotator", "GC": "Comment",
    "WR": "White rating", "BR": "Black rating",
}


# -- writing -------------------------------------------------------------------


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("gammon")
    except Exception:  # pragma: no cover - not installed
        return "dev"


def _escape(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace("]", "\\]")


def _letter(point: int, player: int) -> str:
    if point == BAR_POINT:
        return "y"
    if point == OFF_POINT:
        return "z"
    return chr(ord("a") + (point - 1 if player == 0 else 24 - point))


def _move_letters(moves: Sequence[CheckerMove], player: int) -> str:
    return "".join(_letter(m.from_point, player) + _letter(m.to_point, player) for m in moves)


def _info_properties(info: Mapping[str, str]) -> list[str]:
    """The match information as SGF properties (``DT[2024-05-31]``, ...).

    :raises SgfFormatError: a key that is neither a known name nor an SGF property name.
    """
    extra: list[str] = []
    for key, value in info.items():
        prop = _INFO_KEYS.get(key, key if re.fullmatch(r"[A-Z]{1,2}", key) else None)
        if prop is None:
            raise SgfFormatError(f"unknown match information {key!r}",
                                 expected=", ".join(sorted(set(_INFO_KEYS))))
        extra.append(f"{prop}[{_escape(value)}]")
    return extra


def _rules_property(rules: Rules, crawford_game: bool) -> str:
    """The ``RU[...]`` property of a game under ``rules`` (empty when no rule needs saying)."""
    ru: list[str] = []
    if not rules.uses_cube:
        ru.append("NoCube")
    if rules.match_length and rules.crawford:
        ru.append("Crawford")
    if crawford_game:
        ru.append("CrawfordGame")
    if rules.is_money and rules.jacoby:
        ru.append("Jacoby")
    if rules.variant.name in _VARIANT_RU:
        ru.append(_VARIANT_RU[rules.variant.name])
    return f"RU[{':'.join(ru)}]" if ru else ""


def _game_nodes(gi: GameItems, white: str, black: str) -> tuple[list[str], str]:
    """The nodes of one game's moves and cube actions, and what its root node gets at the end:
    the result (``RE[...]``), with the note on a win on time when the game has no node for it."""
    nodes: list[str] = []
    result = ""
    for item in gi.items:
        colour = "WB"[item.player]
        if isinstance(item, TurnItem):
            dice = f"{item.dice[0]}{item.dice[1]}"
            if item.play is None:
                nodes.append(f";PL[{colour}]DI[{dice}]")
            else:
                nodes.append(f";{colour}[{dice}{_move_letters(item.play.moves, item.player)}]")
        elif isinstance(item, CubeItem):
            if item.what == "beaver":
                nodes.append(f";{colour}[double]")  # the doubler then takes or drops it
            else:
                nodes.append(f";{colour}[{item.what}]")
        elif isinstance(item, WinItem) and item.timeout:
            # SGF's own word for a win on time, and a comment on the last node for people.
            result += f"RE[{colour}+Time]"
            loser = (white, black)[1 - item.player]
            note = (f"C[{loser} ran out of time and loses the match: {(white, black)[item.player]} "
                    f"wins {item.points} point{'' if item.points == 1 else 's'}]")
            if nodes:
                nodes[-1] += note
            else:
                result += note
        elif isinstance(item, WinItem):
            result += f"RE[{colour}+{item.points}{'R' if item.resigned else ''}]"
    return nodes, result


def write_sgf(
    match: Match,
    names: Sequence[str] = ("Player 0", "Player 1"),
    *,
    info: Mapping[str, str] | None = None,
    application: str | None = None,
) -> str:
    """The SGF text of ``match`` (finished or not), player 0 as White, in GNU Backgammon's flavour.

    ``info`` adds match information to the first game: ``Date`` (``2024-05-31``),
    ``Event``, ``Round``, ``Place``, ``Annotator``, ``Comment`` (or the SGF
    property names ``DT``, ``EV``, ...).

    :raises SgfFormatError: a variant the format cannot carry (Dutch, Acey-Deucey).
    """
    rules = match.rules
    variant = rules.variant
    if variant is not STANDARD and variant.name not in _VARIANT_RU:
        raise SgfFormatError(f"GNU Backgammon's SGF cannot carry {variant.title}; use gammon's JSON record")
    app = application or f"gammon:{_version()}"
    white, black = (_escape(str(n)) for n in names)
    extra = _info_properties(info or {})
    trees: list[str] = []
    for index, game in enumerate(match.games):
        try:
            gi = game_items(game)
        except GammonError as exc:
            raise SgfFormatError(f"game {index + 1}: {exc}") from None
        if index > 0 and not game.record:
            continue
        root = (f"(;FF[4]GM[6]CA[UTF-8]AP[{_escape(app)}]"
                f"MI[length:{rules.match_length}][game:{index}][ws:{gi.score[0]}][bs:{gi.score[1]}]"
                f"PW[{white}]PB[{black}]")
        if index == 0:
            root += "".join(extra)
        root += _rules_property(rules, gi.crawford_game)
        if gi.auto_doubles:
            root += f"CV[{1 << gi.auto_doubles}]"
        nodes, result = _game_nodes(gi, white, black)
        root += result
        trees.append(root + "".join("\n" + n for n in nodes) + ")\n")
    return "".join(trees)


# -- parsing SGF -----------------------------------------------------------------


@dataclass
class _Prop:
    ident: str
    values: list[str]
    line: int


@dataclass
class _Node:
    props: list[_Prop]
    line: int

    def get(self, ident: str) -> _Prop | None:
        return next((p for p in self.props if p.ident == ident), None)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line_starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]

    def line(self, pos: int | None = None) -> int:
        return bisect.bisect_right(self.line_starts, self.pos if pos is None else pos)

    def fail(self, message: str, expected: str | None = None, pos: int | None = None) -> SgfFormatError:
        return SgfFormatError(message, line=self.line(pos), expected=expected)

    def skip_ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_ws()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def collection(self) -> list[list[_Node]]:
        trees: list[list[_Node]] = []
        while True:
            c = self.peek()
            if not c:
                break
            if c != "(":
                raise self.fail(f"unexpected {c!r} between game trees", "'('")
            trees.append(self.tree())
        if not trees:
            raise self.fail("no game tree in the file", "'(;FF[4]GM[6]...'")
        return trees

    def tree(self) -> list[_Node]:
        start = self.pos
        self.pos += 1  # '('
        nodes: list[_Node] = []
        while self.peek() == ";":
            nodes.append(self.node())
        if not nodes:
            raise self.fail("a game tree without nodes", "';'")
        main: list[_Node] | None = None
        while self.peek() == "(":
            child = self.tree()
            if main is None:
                main = child  # the main line; other variations are skipped, as GNU Backgammon does
        c = self.peek()
        if c != ")":
            if not c:
                raise self.fail("the game tree is not closed", "')'", start)
            raise self.fail(f"unexpected {c!r} in a game tree", "';', '(' or ')'")
        self.pos += 1
        return nodes + (main or [])

    def node(self) -> _Node:
        line = self.line()
        self.pos += 1  # ';'
        props: list[_Prop] = []
        while True:
            self.skip_ws()
            m = re.compile(r"[A-Za-z]+").match(self.text, self.pos)
            if m is None:
                break
            ident_line = self.line()
            self.pos = m.end()
            values: list[str] = []
            while self.peek() == "[":
                values.append(self.value())
            if not values:
                raise self.fail(f"property {m.group()} has no value", f"'{m.group()}[...]'")
            ident = "".join(ch for ch in m.group() if ch.isupper())  # FF[3] lower-case letters are ignored
            props.append(_Prop(ident, values, ident_line))
        return _Node(props, line)

    def value(self) -> str:
        start = self.pos
        self.pos += 1  # '['
        out: list[str] = []
        text = self.text
        while self.pos < len(text):
            c = text[self.pos]
            if c == "\\":
                self.pos += 1
                if self.pos < len(text):
                    nxt = text[self.pos]
                    if nxt in "\r\n":  # a soft line break
                        self.pos += 2 if text[self.pos:self.pos + 2] in ("\r\n", "\n\r") else 1
                        continue
                    out.append(nxt)
                    self.pos += 1
                continue
            if c == "]":
                self.pos += 1
                return "".join(out)
            out.append(c)
            self.pos += 1
        raise self.fail("a property value is not closed", "']'", start)


# -- reading ---------------------------------------------------------------------

_RESULT = re.compile(r"^\s*([WBwb])\s*\+\s*(\d+)\s*([Rr]?)")
_RESULT_ON_TIME = re.compile(r"^\s*([WBwb])\s*\+\s*(?:T|Time)\s*$", re.IGNORECASE)
_TURN = re.compile(r"^([1-6])([1-6])([a-z]*)$")


def _decode_point(ch: str, player: int, line: int) -> int:
    if ch == "y":
        return BAR_POINT
    if ch == "z":
        return OFF_POINT
    i = ord(ch) - ord("a")
    if not 0 <= i <= 23:  # pragma: no cover - the pattern allows a..z only
        raise SgfFormatError(f"{ch!r} is not a point", line=line, expected="a letter a-z")
    return i + 1 if player == 0 else 24 - i


def _mi(node: _Node) -> dict[str, str]:
    prop = node.get("MI")
    out: dict[str, str] = {}
    for v in prop.values if prop else []:
        key, _, val = v.partition(":")
        out[key.strip()] = val.strip()
    return out


def _int(value: str | None, what: str, line: int, default: int = 0) -> int:
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise SgfFormatError(f"{what} {value!r} is not a number", line=line) from None


def _rules_of(root: _Node, defaults: Rules | None) -> tuple[Rules, list[str], int]:
    """The rules a root node states; the rest from ``defaults`` (else beavers allowed in money play)."""
    base = defaults or Rules()
    mi = _mi(root)
    length = _int(mi.get("length"), "the match length", root.line)
    ru = root.get("RU")
    tokens = [t for v in (ru.values if ru else []) for t in v.split(":") if t]
    variant = base.variant if defaults is not None else STANDARD
    for t in tokens:
        if t in _RU_VARIANTS:
            variant = _RU_VARIANTS[t]
    try:
        rules = Rules(variant=variant, match_length=length,
                      crawford="Crawford" in tokens or not length,
                      jacoby="Jacoby" in tokens and not length,
                      beavers=(base.beavers if defaults is not None else True) and not length,
                      cube="NoCube" not in tokens and base.cube, gammons=base.gammons,
                      cube_limit=base.cube_limit,
                      automatic_doubles=base.automatic_doubles if not length else 0)
    except GammonError as exc:
        raise SgfFormatError(str(exc), line=root.line) from None
    return rules, tokens, length


def _auto_doubles(root: _Node) -> int:
    cv = root.get("CV")
    if cv is None:
        return 0
    value = _int(cv.values[0], "the cube value", cv.line, 1)
    if value < 1 or value & (value - 1):
        raise SgfFormatError(f"CV[{value}] is not a power of two", line=cv.line, expected="CV[2], CV[4], ...")
    return value.bit_length() - 1


def read_sgf(text: str, defaults: Rules | None = None) -> MatchRecordData:
    """Read a GNU Backgammon SGF match, session or game file.

    Only the main line of each game tree is read (as GNU Backgammon does);
    analysis, comments and marks are skipped.  Every action is checked against
    the rules as it is read.  What the file does not say about the rules (SGF
    has no beaver, cube limit or gammon settings) comes from ``defaults``;
    without them beavers are allowed in money play and the cube limit rises as
    far as the file's cube goes.

    :raises SgfFormatError: with the line and what was expected: a malformed
        file, not backgammon (``GM`` other than 6), an edited position
        (``AE``/``AB``/``AW``), or an illegal action.
    """
    if not isinstance(text, str):
        raise SgfFormatError("an SGF file must be given as text", expected="a str")
    parser = _Parser(text.lstrip("\ufeff"))
    trees = [t for t in parser.collection() if (g := t[0].get("GM")) is not None and g.values[0].strip() == "6"]
    if not trees:
        raise SgfFormatError("no backgammon game in the file", line=1, expected="a root node with GM[6]")
    first = trees[0][0]
    auto = max(_auto_doubles(t[0]) for t in trees)
    rules, _, length = _rules_of(first, defaults)
    if auto:
        if length:
            raise SgfFormatError("automatic doubles (CV) in match play", line=first.line)
        rules = dataclasses.replace(rules, automatic_doubles=max(auto, rules.automatic_doubles),
                                    cube_limit=max(rules.cube_limit, 1 << auto))
    names = (_text(first, "PW", "Player 0"), _text(first, "PB", "Player 1"))
    info = {name: _text(first, key, "") for key, name in _INFO_NAMES.items() if first.get(key)}
    builder = RecordBuilder(rules, SgfFormatError, fixed_cube_limit=defaults is not None)
    scores: list[tuple[int, int]] = []
    for number, nodes in enumerate(trees, start=1):
        root = nodes[0]
        label = f"game {number}"
        mi = _mi(root)
        if _int(mi.get("length"), "the match length", root.line) != length:
            raise SgfFormatError(f"{label} has another match length than game 1", line=root.line,
                                 expected=f"MI[length:{length}]")
        score = (_int(mi.get("ws"), "the score", root.line), _int(mi.get("bs"), "the score", root.line))
        if length and builder.started and builder.match.is_over and builder.game.is_over:
            break  # games after the end of the match are ignored, as GNU Backgammon does
        builder.start_game(root.line, score, label)
        scores.append(score)
        for _ in range(_auto_doubles(root)):
            builder.opening_tie(root.line)
        ru = root.get("RU")
        if ru is not None and "CrawfordGame" in ru.values[0].split(":") and not builder.game.crawford_game:
            raise SgfFormatError(f"{label} is marked as the Crawford game, but the score says it is not",
                                 line=ru.line)
        for node in nodes[1:]:
            _read_node(builder, node)
        _read_result(builder, root)
    games = builder.finish()
    return MatchRecordData(builder.rules, names, games, scores, info)


def _text(node: _Node, ident: str, default: str) -> str:
    prop = node.get(ident)
    if prop is None:
        return default
    return " ".join(prop.values[0].split()) or default


def _read_node(builder: RecordBuilder, node: _Node) -> None:
    move = next((p for p in node.props if p.ident in ("B", "W")), None)
    for p in node.props:
        if p.ident in ("AE", "AB", "AW"):
            raise SgfFormatError("an edited position (AE/AB/AW) cannot be replayed", line=p.line,
                                 expected="moves from the starting position")
        if p.ident in ("CV", "CP"):
            raise SgfFormatError(f"a cube set by hand ({p.ident}) cannot be replayed", line=p.line)
    if move is None:
        di = node.get("DI")
        if di is not None:
            pl = node.get("PL")
            player = 1 if pl is not None and pl.values[0].strip().upper().startswith("B") else 0
            if pl is None:
                player = builder.game.turn
            m = re.match(r"^([1-6])([1-6])", di.values[0].strip())
            if m is None:
                raise SgfFormatError(f"DI[{di.values[0]}] is not a roll", line=di.line, expected="DI[52]")
            builder.roll(player, (int(m.group(1)), int(m.group(2))), di.line)
            builder.play(player, None, di.line)
        return
    player = 1 if move.ident == "B" else 0
    value = move.values[0].strip()
    low = value.lower()
    line = move.line
    g = builder.game
    if low == "double":
        if g.phase is Phase.DOUBLED and player == 1 - g.turn:
            builder.beaver(player, None, line)
        else:
            builder.double(player, None, line)
    elif low == "take":
        builder.take(player, line)
    elif low == "drop":
        builder.drop(player, line)
    elif low in ("beaver", "raccoon"):
        if low == "raccoon":
            raise SgfFormatError("raccoons are not part of gammon's rules", line=line)
        builder.beaver(player, None, line)
    else:
        m = _TURN.match(value)
        if m is None or len(m.group(3)) % 2:
            raise SgfFormatError(f"{move.ident}[{value}] is not a turn", line=line,
                                 expected="dice and letter pairs like B[52lqqs], or double, take, drop")
        dice = (int(m.group(1)), int(m.group(2)))
        letters = m.group(3)
        steps = [(_decode_point(letters[i], player, line), _decode_point(letters[i + 1], player, line))
                 for i in range(0, len(letters), 2)]
        builder.roll(player, dice, line)
        builder.play(player, steps or None, line, value, in_order=True)


def _read_result(builder: RecordBuilder, root: _Node) -> None:
    re_prop = root.get("RE")
    g = builder.game
    on_time = _RESULT_ON_TIME.match(re_prop.values[0]) if re_prop else None
    if on_time is not None and re_prop is not None:
        builder.win(1 if on_time.group(1).upper() == "B" else 0, None, re_prop.line, on_time=True)
        return
    m = _RESULT.match(re_prop.values[0]) if re_prop else None
    if m is None:
        if g.is_over:
            return
        builder.end_game(None)
        return
    winner = 1 if m.group(1).upper() == "B" else 0
    points = int(m.group(2))
    resigned = bool(m.group(3))
    assert re_prop is not None
    if not g.is_over and not resigned:
        # a forced play GNU Backgammon may have left out settles first
        builder.end_game(re_prop.line)
        if not builder.game.is_over:
            raise SgfFormatError(f"RE[{re_prop.values[0]}] says the game is over, but its moves do not end it",
                                 line=re_prop.line, expected="an R for a resignation, or the rest of the game")
    builder.win(winner, points, re_prop.line)


def match_from_sgf(text: str, defaults: Rules | None = None) -> Match:
    """The :class:`Match` an SGF file records, replayed and checked.

    :raises SgfFormatError: the file cannot be read or records an illegal action.
    """
    data = read_sgf(text, defaults)
    try:
        return data.replay()
    except GammonError as exc:  # pragma: no cover - read_sgf already checked every action
        raise SgfFormatError(str(exc)) from None
