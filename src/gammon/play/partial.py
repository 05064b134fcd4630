"""A play entered in parts: ``24/18``, then ``13/11``, with undo between them.

People often move one checker at a time.  :func:`follow_parts` takes the
parts written so far and says either which complete legal play they make, or
where the checkers stand after them (a :class:`PartialPlay`), with the dice
still to play and the legal plays that can still follow.  No rule is applied
here: the legal plays come from the move generator (``Position.legal_plays``)
and a part is accepted only when it is a piece of one of them.

How a part is matched: each legal play's checker moves are single-die steps
``(from, to, hit)``; one checker's steps form a chain (``24/18 18/13``).  The
move generator keeps one way of writing each play, so a chain is also tried
with its dice in the other orders (``24/19/13`` for ``24/18/13``) where the
stops in between are free and the same blots are hit.  A written part
``a/b`` covers one chain of steps from ``a`` to ``b`` (a ``*`` asks that the
last step hits); the parts fit a legal play when they cover some of its steps,
each step once.  The board after the parts applies the covered steps in the
order written, so a part that moves before the checkers on the bar have
entered is refused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import permutations, product

from gammon.core.errors import AmbiguousPlayError, GammonError, IllegalPlayError
from gammon.core.notation import Segment, parse_segments
from gammon.core.plays import OFF_POINT, CheckerMove, Play, chain_moves, format_moves
from gammon.core.position import Position, check_dice

#: One checker moved by one die: (from point, to point, hit), points from the mover's side.
Step = tuple[int, int, bool]


@dataclass(frozen=True, slots=True)
class PartialPlay:
    """Where the checkers stand after the parts of a play entered so far.

    ``position`` is seen from the mover (as ``Play.position``); ``moved`` is
    the notation of what was moved; ``dice_left`` the dice still to play;
    ``plays`` the legal plays of the whole roll that the parts are a piece of.
    """

    position: Position
    moved: str
    dice_left: tuple[int, ...]
    plays: tuple[Play, ...]


def _dice_pool(dice: tuple[int, int]) -> Counter[int]:
    return Counter([dice[0]] * 4 if dice[0] == dice[1] else list(dice))


def _chain_orders(chain: list[CheckerMove], position: Position, pool: Counter[int]) -> list[list[Step]]:
    """The chain as written by the generator, and its other dice orders that reach the same position."""
    written = [(m.from_point, m.to_point, m.hit) for m in chain]
    orders = [written]
    distances = [m.from_point - m.to_point for m in chain]
    if len(chain) < 2 or Counter(distances) - pool:
        return orders  # one step, or a bear-off that overshoots: no other order
    opp = position.opp
    hits = {m.to_point for m in chain if m.hit}
    for order in sorted(set(permutations(distances))):
        if list(order) == distances:
            continue
        point = chain[0].from_point
        steps: list[Step] = []
        for d in order:
            to = point - d
            held = opp[24 - to] if to > OFF_POINT else 0
            if held >= 2:
                break
            steps.append((point, to, held == 1))
            point = to
        else:
            if {s[1] for s in steps if s[2]} == hits:
                orders.append(steps)
    return orders


def _decompositions(play: Play, position: Position, pool: Counter[int]) -> Iterator[list[Step]]:
    """Every list of single-die steps that makes ``play`` (one per choice of chain orders)."""
    options = [_chain_orders(chain, position, pool) for chain in chain_moves(play.moves)]
    for combo in product(*options):
        yield [step for chain in combo for step in chain]


def _paths(segment: Segment, steps: list[Step]) -> Iterator[tuple[list[Step], list[Step]]]:
    """Ways one checker covers ``segment`` with some of ``steps``: (steps used, steps left)."""

    def go(point: int, rest: list[Step], path: list[Step]) -> Iterator[tuple[list[Step], list[Step]]]:
        seen: set[Step] = set()
        for j, step in enumerate(rest):
            if step[0] != point or step in seen:
                continue
            seen.add(step)
            left = rest[:j] + rest[j + 1 :]
            if step[1] == segment.end:
                if segment.hit and not step[2]:
                    continue
                yield [*path, step], left
            elif step[1] > segment.end:
                yield from go(step[1], left, [*path, step])

    yield from go(segment.start, steps, [])


def _covers(segments: list[Segment], steps: list[Step]) -> Iterator[tuple[list[Step], list[Step]]]:
    """Ways all ``segments`` are covered by ``steps``: (steps used in order, steps left)."""
    if not segments:
        yield [], steps
        return
    for used, left in _paths(segments[0], steps):
        for more, rest in _covers(segments[1:], left):
            yield used + more, rest


def _after(position: Position, steps: list[Step]) -> Position | str:
    """The position after ``steps`` in order, or why they cannot be made in that order.

    Every step is checked and applied by core (:meth:`Position.step_problem`,
    :meth:`Position.apply_step`): the bar first, open points, bearing off.
    """
    for start, end, hit in steps:
        problem = position.step_problem(start, end)
        if problem is not None:
            return problem
        blot = end != OFF_POINT and position.opp[24 - end] == 1
        if blot != hit:
            return "the parts cannot be made in the order written"
        position = position.apply_step(start, end)
    return position


def _dice_left(pool: Counter[int], steps: list[Step]) -> tuple[int, ...]:
    """The dice of ``pool`` left after ``steps`` (a bear-off that overshoots uses the next higher die)."""
    left = Counter(pool)
    for start, end, _ in steps:
        distance = start - end
        if left[distance] > 0:
            left[distance] -= 1
        else:
            bigger = [d for d in left.elements() if d > distance]
            if bigger:
                left[min(bigger)] -= 1
    return tuple(sorted(left.elements(), reverse=True))


def follow_parts(position: Position, dice: tuple[int, int], parts: Sequence[str]) -> Play | PartialPlay:
    """The legal play that ``parts`` make together, or where they leave the checkers.

    ``position`` is seen from the player on roll, ``dice`` is the roll, and
    ``parts`` are texts in move notation (``["24/18", "13/11"]``), in the
    order entered.

    :raises PlaySyntaxError: a part that is not move notation.
    :raises IllegalPlayError: the parts are no piece of any legal play; the
        message is the notation parser's, with the closest legal plays.
    :raises AmbiguousPlayError: the parts can be read in ways that leave
        different positions (write ``*`` where a checker hits).
    """
    roll = check_dice(dice)
    for part in parts:
        parse_segments(part)  # a syntax error points into the part that has it
    text = " ".join(p.strip() for p in parts if p.strip())
    try:
        return position.parse_play(text, roll)
    except IllegalPlayError as exc:
        refusal: GammonError = exc
    segments = parse_segments(text)
    if not segments:
        raise refusal
    pool = _dice_pool(roll)
    found: dict[Position, tuple[list[Play], list[Step], bool]] = {}
    hits_of: dict[Position, int] = {}
    reason: str | None = None
    for play in position.legal_plays(roll):
        for steps in _decompositions(play, position, pool):
            for used, left in _covers(segments, steps):
                after = _after(position, used)
                if isinstance(after, str):
                    reason = after
                    continue
                entry = found.setdefault(after, ([], used, False))
                if play not in entry[0]:
                    entry[0].append(play)
                if not left:
                    found[after] = (entry[0], entry[1], True)
                hits_of[after] = sum(s[2] for s in used)
    if not found:
        if reason is not None:
            raise IllegalPlayError(f"cannot move {text}: {reason}") from None
        raise refusal
    # As the notation parser does: prefer the reading that hits the fewest blots not written.
    least = min(hits_of.values())
    readings = {pos: v for pos, v in found.items() if hits_of[pos] == least}
    if len(readings) > 1:
        raise AmbiguousPlayError(
            f"{text!r} can be played in {len(readings)} ways that leave different positions; "
            "write '*' where a checker hits"
        )
    after, (plays, used, complete) = next(iter(readings.items()))
    if complete:
        return next(p for p in plays if p.position == after)
    moved = format_moves([CheckerMove(s, e, h) for s, e, h in used])
    return PartialPlay(after, moved, _dice_left(pool, used), tuple(plays))


__all__ = ["PartialPlay", "Step", "follow_parts"]
