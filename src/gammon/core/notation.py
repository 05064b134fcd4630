"""Move notation as players write it, read into a legal :class:`Play`.

Accepted: ``24/18 13/11``, ``13/11(2)``, ``24/13`` (one checker with both
dice, the stop in between not written), ``bar/22*``, ``25/22``, ``b/22``,
``6/off``, ``6/0``, ``8/4*/1``, ``24/21*/20``, ``24-18``; parts in any order,
separated by spaces or commas; any letter case; ``*`` optional; an optional
roll in front (``63: 24/18 13/10``); an empty text, ``pass`` or ``-`` for a
turn with no legal play.  Points are the mover's: 25 is the bar, 0 is off.

How a text is matched: it is read into *segments*, one per ``from/to`` pair
(``8/4*/1`` is 8/4 with a hit, then 4/1; ``(2)`` repeats a part).  For each
way of covering every segment with dice of the roll (one checker walking
from ``from`` to ``to`` with one or more dice; bearing off may overshoot on
the last die) the resulting position is worked out and looked up among the
positions of ``Position.legal_plays``: the rules are only ever applied by the
move generator, so any legal play reaching that position is a fit.  Stops that
the text does not write may hit blots, but a fit that hits fewer unwritten
blots wins, so ``24/13`` names the quiet play when ``24/18*/13`` also exists,
and ``str(play)`` always reads back as ``play``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from gammon.core.errors import AmbiguousPlayError, IllegalPlayError, PlaySyntaxError
from gammon.core.legal_plays import LegalPlays
from gammon.core.plays import BAR_POINT, OFF_POINT, Play
from gammon.core.position import Position, check_dice

#: The 21 distinct rolls, tried in turn when the dice are not given.
ALL_ROLLS: tuple[tuple[int, int], ...] = tuple(
    (d1, d2) for d1 in range(6, 0, -1) for d2 in range(d1, 0, -1)
)

_PASS_WORDS = frozenset(
    {"", "pass", "-", "none", "no move", "no play", "cannot move", "can't move", "(no move)"}
)
#: ``in`` is Acey-Deucey's entry from the pool of never-entered checkers (``in/22``).
_POINT_WORDS = {"bar": BAR_POINT, "b": BAR_POINT, "in": BAR_POINT, "off": OFF_POINT, "o": OFF_POINT}
_ROLL_PREFIX = re.compile(r"\s*([1-6])\s*-?\s*([1-6])\s*:")


@dataclass(frozen=True, slots=True)
class Segment:
    """One checker's way from ``start`` to ``end`` as written (25 = bar, 0 = off).

    ``from_pool``: written ``in/..``, an Acey-Deucey entry from the pool.
    """

    start: int
    end: int
    hit: bool = False
    from_pool: bool = False

    def __str__(self) -> str:
        def name(p: int) -> str:
            return "bar" if p == BAR_POINT else "off" if p == OFF_POINT else str(p)

        start = "in" if self.from_pool else name(self.start)
        return f"{start}/{name(self.end)}{'*' if self.hit else ''}"


# -- reading the text ---------------------------------------------------------


class _Reader:
    """A hand-written scanner that knows the character offset of every error."""

    def __init__(self, text: str, start: int = 0) -> None:
        self.text = text
        self.i = start

    def error(self, expected: str, at: int | None = None) -> PlaySyntaxError:
        at = self.i if at is None else at
        found = repr(self.text[at]) if at < len(self.text) else "the end"
        err = PlaySyntaxError(
            f"cannot read the play {self.text!r}: at character {at + 1} expected "
            f"{expected}, found {found}"
        )
        err.offset = at  # type: ignore[attr-defined]
        return err

    def skip_spaces(self) -> None:
        while self.i < len(self.text) and self.text[self.i] in " \t":
            self.i += 1

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def point(self) -> tuple[int, int]:
        """A point (digits, ``bar``, ``b``, ``in``, ``off``, ``o``) and its offset."""
        at = self.i
        m = re.compile(r"\d+|[a-zA-Z]+").match(self.text, self.i)
        if m is None:
            raise self.error("a point: a number 0-25, 'bar' or 'off'")
        word = m.group().lower()
        if word.isdigit():
            value = int(word)
            if value > 25:
                raise self.error("a point from 0 (off) to 25 (the bar)", at)
        elif word in _POINT_WORDS:
            value = _POINT_WORDS[word]
        else:
            raise self.error("a point: a number 0-25, 'bar' or 'off'", at)
        self.i = m.end()
        return value, at

    def part(self) -> list[Segment]:
        """``a/b[*]/c[*]...[(n)]`` as its segments, repeats expanded."""
        start, at = self.point()
        pool = self.text[at : at + 2].lower() == "in"
        if start == OFF_POINT:
            raise self.error("a point a checker can move from (1-24 or bar), not off", at)
        segments: list[Segment] = []
        while True:
            save = self.i
            self.skip_spaces()
            if self.peek() == "/" or (self.peek() == "-" and self.i == save):
                self.i += 1
                self.skip_spaces()
            else:
                self.i = save
                break
            end, at_end = self.point()
            if end == BAR_POINT:
                raise self.error("a point a checker can move to (24 down to off), not the bar", at_end)
            if end >= start:
                raise self.error(f"a point below {start}: checkers move down to off", at_end)
            hit = False
            if self.peek() == "*":
                if end == OFF_POINT:
                    raise self.error("no '*' after off: a checker borne off hits nothing")
                hit = True
                self.i += 1
            segments.append(Segment(start, end, hit, pool and not segments))
            if end == OFF_POINT:
                break
            start = end
        if not segments:
            raise self.error("'/' and the point the checker moves to")
        save = self.i
        self.skip_spaces()
        if self.peek() == "(":
            self.i += 1
            self.skip_spaces()
            m = re.compile(r"\d+").match(self.text, self.i)
            if m is None or not 1 <= int(m.group()) <= 4:
                raise self.error("a repeat count from 1 to 4")
            count = int(m.group())
            self.i = m.end()
            self.skip_spaces()
            if self.peek() != ")":
                raise self.error("')' closing the repeat count")
            self.i += 1
            segments = segments * count
        else:
            self.i = save
        return segments


def parse_segments(text: str) -> list[Segment]:
    """The segments a play's text names, in the order written (no rules applied).

    >>> [str(s) for s in parse_segments("8/4*/1 13/11(2)")]
    ['8/4*', '4/1', '13/11', '13/11']

    :raises PlaySyntaxError: text that is not move notation; the message names
        the character where reading failed and what was expected there.
    """
    segments, _ = _read(text)
    return segments


def _read(text: str) -> tuple[list[Segment], tuple[int, int] | None]:
    """The segments and the roll written in front of them, if any."""
    if not isinstance(text, str):
        raise PlaySyntaxError(f"a play is text, not {type(text).__name__}")
    if " ".join(text.lower().split()) in _PASS_WORDS:
        return [], None
    roll: tuple[int, int] | None = None
    start = 0
    m = _ROLL_PREFIX.match(text)
    if m is not None:
        roll = (int(m.group(1)), int(m.group(2)))
        start = m.end()
        if " ".join(text[start:].lower().split()) in _PASS_WORDS:
            return [], roll
    r = _Reader(text, start)
    segments: list[Segment] = []
    r.skip_spaces()
    while r.i < len(text):
        segments.extend(r.part())
        before = r.i
        r.skip_spaces()
        if r.peek() == ",":
            r.i += 1
            r.skip_spaces()
        elif r.i < len(text) and r.i == before:
            raise r.error("a space between moves, or '*', '/' or '(n)' after a point")
    return segments, roll


# -- matching segments to legal plays ----------------------------------------


@dataclass(frozen=True, slots=True)
class _Fit:
    """A legal play the text fits: for which roll, hitting how many blots the
    text does not write, using how many dice."""

    play: Play
    dice: tuple[int, int]
    unwritten_hits: int
    dice_count: int


def _walks(
    start: int, end: int, dice: Counter[int], blocked: frozenset[int]
) -> list[tuple[list[int], list[int]]]:
    """Every way one checker goes from ``start`` to ``end`` with the dice left.

    Returns (dice used in order, points landed on, excluding off) pairs.  A
    stop on a point the opponent holds is no way; bearing off may overshoot on
    the last die only.  ``dice`` is the same after the call as before.
    """
    ways: list[tuple[list[int], list[int]]] = []
    for die in sorted(dice):
        if dice[die] == 0:
            continue
        nxt = start - die
        if end == OFF_POINT:
            if nxt <= 0:
                ways.append(([die], []))
                continue
        elif nxt < end:
            continue
        elif nxt == end:
            if end not in blocked:
                ways.append(([die], [end]))
            continue
        if nxt in blocked:
            continue
        dice[die] -= 1
        for used, landed in _walks(nxt, end, dice, blocked):
            ways.append(([die, *used], [nxt, *landed]))
        dice[die] += 1
    return ways


def _landings(
    segments: list[Segment], dice: Counter[int], blocked: frozenset[int]
) -> Iterator[frozenset[int]]:
    """For each way to walk all segments with the dice: the points landed on."""
    if not segments:
        yield frozenset()
        return
    first, rest = segments[0], segments[1:]
    seen: set[tuple[tuple[int, ...], frozenset[int]]] = set()
    for used, landed in _walks(first.start, first.end, dice, blocked):
        key = (tuple(sorted(used)), frozenset(landed))
        if key in seen:
            continue
        seen.add(key)
        for die in used:
            dice[die] -= 1
        for more in _landings(rest, dice, blocked):
            yield more | frozenset(landed)
        for die in used:
            dice[die] += 1


def _net_row(position: Position, segments: list[Segment]) -> list[int] | str:
    """The mover's row after the segments, or why it cannot be."""
    row = list(position.me)
    for s in segments:
        row[s.start - 1] -= 1
        if s.end != OFF_POINT:
            row[s.end - 1] += 1
    for idx, count in enumerate(row):
        if count < 0:
            where = "the bar" if idx == 24 else f"the {idx + 1}-point"
            have = position.me[idx]
            return (
                f"it moves more checkers from {where} than the player on roll has "
                f"there ({have})"
            )
    return row


def _find_board(legal: LegalPlays, board: bytes) -> int | None:
    """The index of the legal play reaching ``board``, or None.

    Searches the generator's result boards (50 bytes each) directly when the
    sequence has them, so that no :class:`Position` is built for the plays
    that do not match (this is the hot path of reading a play).
    """
    boards = getattr(legal, "_boards", None)
    if not isinstance(boards, list):
        boards = [p.board for p in legal.positions()]
    try:
        return boards.index(board)
    except ValueError:
        return None


def _fits(
    position: Position,
    segments: list[Segment],
    dice: tuple[int, int],
    row: list[int],
) -> list[_Fit]:
    """The legal plays of ``dice`` that ``segments`` can describe."""
    opp = position.opp
    blocked = frozenset(p for p in range(1, 25) if opp[24 - p] >= 2)
    blots = frozenset(p for p in range(1, 25) if opp[24 - p] == 1)
    written = frozenset(s.end for s in segments if s.hit)
    pool: Counter[int] = Counter([dice[0]] * 4 if dice[0] == dice[1] else list(dice))
    # Walk long segments first: they have the fewest ways.  Walks that hit the
    # same blots reach the same position (the text fixes the mover's row).
    ordered = sorted(segments, key=lambda s: s.end - s.start)
    hit_sets = {landed & blots for landed in _landings(ordered, pool, blocked)}
    hit_sets = {hits for hits in hit_sets if written <= hits}
    if not hit_sets:
        return []
    legal = position.legal_plays(dice)
    fits: list[_Fit] = []
    for hits in hit_sets:
        new_opp = list(opp)
        for p in hits:
            new_opp[24 - p] -= 1
            new_opp[24] += 1
        i = _find_board(legal, bytes(row + new_opp))
        if i is not None:
            play = legal[i]
            fits.append(_Fit(play, dice, len(hits - written), len(play.moves)))
    return fits


def _roll_name(dice: tuple[int, int]) -> str:
    return f"{dice[0]}-{dice[1]}"


def _chains(play: Play) -> Counter[tuple[int, int]]:
    """The play's single moves and its parts as written, as (from, to) pairs."""
    pairs: Counter[tuple[int, int]] = Counter((m.from_point, m.to_point) for m in play.moves)
    for seg in parse_segments(str(play)):
        if (seg.start, seg.end) not in pairs:
            pairs[(seg.start, seg.end)] += 1
    return pairs


def _closest(plays: Iterable[tuple[Play, str]], segments: list[Segment], n: int = 5) -> list[str]:
    """Up to ``n`` plays, labelled, ranked by how many of the written segments they share."""
    want = Counter((s.start, s.end) for s in segments)
    starts = Counter(s.start for s in segments)
    scored = []
    for order, (play, label) in enumerate(plays):
        have = _chains(play)
        shared = sum((want & have).values())
        same_start = sum((starts & Counter(m.from_point for m in play.moves)).values())
        scored.append((-shared, -same_start, order, label))
    scored.sort()
    return [label for *_, label in scored[:n]]


def _describe(segments: list[Segment]) -> str:
    return " ".join(str(s) for s in segments)


def _obvious_problems(position: Position, segments: list[Segment]) -> list[str]:
    """Reasons no roll can make the written play (checked before trying dice)."""
    opp = position.opp
    problems = []
    for s in segments:
        if s.hit and opp[24 - s.end] != 1:
            count = opp[24 - s.end]
            what = "is empty" if count == 0 else f"holds {count} opposing checkers"
            problems.append(f"nothing to hit on the {s.end}-point: it {what}")
        if s.end != OFF_POINT and opp[24 - s.end] >= 2:
            problems.append(f"the {s.end}-point is held by the opponent ({opp[24 - s.end]})")
    return list(dict.fromkeys(problems))


def parse_play(position: Position, text: str, dice: Iterable[int] | None = None) -> Play:
    """The legal play of ``position`` that ``text`` names, for ``dice`` if given.

    Without ``dice`` every roll is tried (or the one written in front, as in
    ``63: 24/18 13/10``) and the text must fit exactly one resulting position.
    An empty text or ``pass`` names the empty play when nothing is legal.

    >>> str(parse_play(Position.initial(), "13/11 24/18", (6, 2)))
    '24/18 13/11'

    :raises PlaySyntaxError: unreadable notation (the message names the
        character and what was expected there).
    :raises IllegalPlayError: no legal play fits; the message says why where it
        can and lists up to five closest legal plays.
    :raises AmbiguousPlayError: more than one resulting position fits; the
        message lists them.
    :raises InvalidDiceError: ``dice`` that are not two numbers 1..6.
    """
    segments, written_roll = _read(text)
    given = check_dice(dice) if dice is not None else None
    if given is not None and written_roll is not None and sorted(given) != sorted(written_roll):
        raise IllegalPlayError(
            f"the play {text!r} is written for {_roll_name(written_roll)} "
            f"but the roll is {_roll_name(given)}"
        )
    roll = given if given is not None else written_roll
    rolls = [roll] if roll is not None else list(ALL_ROLLS)
    shown = _describe(segments) or "nothing (a pass)"
    for_roll = f"for {_roll_name(roll)}" if roll is not None else "for any roll"

    if not segments:
        return _parse_pass(position, text, roll, rolls)

    row = _net_row(position, segments)
    if isinstance(row, str):
        raise IllegalPlayError(f"no legal play {for_roll} moves {shown}: {row}")
    from_pool = sum(s.from_pool for s in segments)
    if from_pool > position.pool[0]:
        raise IllegalPlayError(
            f"no legal play {for_roll} moves {shown}: {from_pool} checker(s) enter from the pool "
            f"(in/..), but {position.pool[0]} never-entered checker(s) wait there"
        )
    problems = _obvious_problems(position, segments)

    fits = [f for r in rolls for f in _fits(position, segments, r, row)]

    if not fits:
        why = f": {'; '.join(problems)}" if problems else ""
        message = f"no legal play {for_roll} moves {shown}{why}"
        if roll is not None:
            legal = position.legal_plays(roll)
            if not legal:
                message += (
                    f"; the player on roll cannot move with {_roll_name(roll)} "
                    "(write an empty play or 'pass')"
                )
            else:
                close = _closest(((p, str(p)) for p in legal), segments)
                message += f"; closest legal plays: {', '.join(close)}"
        raise IllegalPlayError(message)

    # Prefer fits that hit no blot the text does not write, then fewer dice.
    least = min(f.unwritten_hits for f in fits)
    fits = [f for f in fits if f.unwritten_hits == least]
    by_position: dict[Position, _Fit] = {}
    for f in fits:
        old = by_position.get(f.play.position)
        if old is None or f.dice_count < old.dice_count:
            by_position[f.play.position] = f
    if len(by_position) == 1:
        return next(iter(by_position.values())).play
    labels = [
        str(f.play) if roll is not None else f"{_roll_name(f.dice)}: {f.play}"
        for f in by_position.values()
    ]
    raise AmbiguousPlayError(
        f"the play {text!r} fits {len(labels)} legal plays {for_roll}: "
        f"{', '.join(labels)}; write the play in full (with '*' for hits)"
        + (" or give the dice" if roll is None else "")
    )


def _parse_pass(
    position: Position, text: str, roll: tuple[int, int] | None, rolls: list[tuple[int, int]]
) -> Play:
    """The empty play, when the roll (or some roll, without dice) allows nothing."""
    if any(not position.legal_plays(r) for r in rolls):
        return Play((), position)
    if roll is None:
        raise IllegalPlayError(
            f"{text!r} names no move, but every roll has a legal play here"
        )
    legal = position.legal_plays(roll)
    sample = ", ".join(str(p) for p in list(legal)[:5])
    raise IllegalPlayError(
        f"{text!r} names no move, but {_roll_name(roll)} has {len(legal)} legal "
        f"play{'s' if len(legal) != 1 else ''} here (for example {sample})"
    )
