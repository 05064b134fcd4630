"""A play entered in parts: ``24/18``, then ``13/11``, with undo between them.

People often move one checker at a time.  :func:`follow_parts` takes the
parts written so far and says either which complete legal play they make, or
where the checkers stand after them (a :class:`PartialPlay`), with the dice
still to play and the legal plays that can still follow.  No rule is applied
here: the parts are followed through core's tree of legal single steps
(``Position.step_tree``), so a part is accepted only when it is the beginning
of a legal play, made in an order the rules allow.

How a part is matched: a written part ``a/b`` covers one checker's steps from
``a`` to ``b`` in the tree (``24/13`` with 6-5 is ``24/18 18/13`` or
``24/19 19/13``, where the tree has them); a ``*`` asks that its last step
hits.  The parts are covered in the order written.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from gammon.core.errors import AmbiguousPlayError, GammonError, IllegalPlayError
from gammon.core.notation import Segment, parse_segments
from gammon.core.plays import OFF_POINT, CheckerMove, Play, format_moves
from gammon.core.position import Position, check_dice
from gammon.core.steps import Step, StepTree


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


def _covers(tree: StepTree, at: int, segment: Segment) -> Iterator[tuple[int, list[Step]]]:
    """Ways one checker covers ``segment`` by steps of the tree from node ``at``: (node reached, steps)."""

    def go(node: int, point: int, path: list[Step]) -> Iterator[tuple[int, list[Step]]]:
        for step, child in tree.nodes[node].steps:
            if step.from_point != point:
                continue
            if step.to_point == segment.end:
                if not segment.hit or step.hit:
                    yield child, [*path, step]
            elif step.to_point > segment.end and step.to_point != OFF_POINT:
                yield from go(child, step.to_point, [*path, step])

    yield from go(at, segment.start, [])


def _plays_from(tree: StepTree, at: int) -> tuple[Play, ...]:
    """The complete plays that can still be reached from node ``at``."""
    found: dict[Position, Play] = {}
    seen: set[int] = set()
    todo = [at]
    while todo:
        node = tree.nodes[todo.pop()]
        if node.play is not None:
            found.setdefault(node.play.position, node.play)
        for _, child in node.steps:
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return tuple(found.values())


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
    tree = position.step_tree(roll)
    # Each reading so far: the node reached and the steps taken (first found = lowest dice first).
    readings: list[tuple[int, list[Step]]] = [(0, [])]
    for segment in segments:
        nxt: list[tuple[int, list[Step]]] = []
        kept: set[tuple[int, int]] = set()  # (node, hits): one reading each (orders of one checker meet)
        for at, path in readings:
            for node, steps in _covers(tree, at, segment):
                key = (node, sum(st.hit for st in path + steps))
                if key not in kept:
                    kept.add(key)
                    nxt.append((node, path + steps))
        if not nxt:
            # A part of one die's length: say why in the words of core's single-step rule.
            here = tree.nodes[readings[0][0]]
            one_die = segment.start - segment.end in here.dice_left
            reason = here.position.step_problem(segment.start, segment.end) if one_die else None
            if reason is not None:
                raise IllegalPlayError(f"cannot move {text}: {reason}") from None
            raise refusal
        readings = nxt
    # As the notation parser does: prefer the reading that hits the fewest blots not written.
    least = min(sum(st.hit for st in path) for _, path in readings)
    by_position: dict[Position, tuple[int, list[Step]]] = {}
    readings.sort(key=lambda r: tree.nodes[r[0]].play is None)  # a complete play first
    for node, path in readings:
        if sum(st.hit for st in path) == least:
            by_position.setdefault(tree.nodes[node].position, (node, path))
    if len(by_position) > 1:
        raise AmbiguousPlayError(
            f"{text!r} can be played in {len(by_position)} ways that leave different positions; "
            "write '*' where a checker hits"
        )
    at, used = next(iter(by_position.values()))
    reached = tree.nodes[at]
    if reached.play is not None:
        return reached.play
    moved = format_moves([CheckerMove(st.from_point, st.to_point, st.hit) for st in used])
    return PartialPlay(reached.position, moved, reached.dice_left, _plays_from(tree, at))


__all__ = ["PartialPlay", "Step", "follow_parts"]
