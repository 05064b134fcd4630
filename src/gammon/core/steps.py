"""The tree of legal single steps of one roll: how a play is built one checker at a time.

A player (or a page) moves one checker by one die at a time.  :func:`step_tree`
says, for a position and a roll, which single steps may be made now, where each
leads, and which steps may follow there, down to complete legal plays.  Only
steps that are the beginning of some legal play are in it, so a walker of the
tree cannot be led into a dead end, and every path from the root to a complete
node is a legal play.

Everything comes from the rules here in core: the steps of one die are the move
generator's own single-step rule (:func:`gammon.core.movegen.single_steps`:
bar first, open points, Dutch no-hitting, bearing off and the higher die from
the highest point), each step is applied by :meth:`Position.apply_step`
(hitting, Acey-Deucey's pool), and what counts as a complete play is
:meth:`Position.legal_plays` (as many dice as possible, the higher die when only
one can be played).

The tree is stored as a directed acyclic graph: nodes with the same position and
the same dice left are one node (``24/18 13/10`` and ``13/10 24/18`` meet), so
its size is bounded by the distinct positions part-way through the roll, not by
the number of orders the steps can be made in.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from gammon.core import movegen
from gammon.core.errors import IllegalPlayError
from gammon.core.plays import OFF_POINT, Play
from gammon.core.position import Position, check_dice


class Step(NamedTuple):
    """One checker moved by one die: points from the mover's side (25 = bar, 0 = off)."""

    from_point: int
    to_point: int
    die: int
    hit: bool


@dataclass(frozen=True, slots=True)
class StepNode:
    """A point part-way through a roll.

    ``position`` is the board after the steps that lead here (seen from the
    mover, the turn not passed); ``dice_left`` the dice still to play, highest
    first; ``steps`` the legal next steps, each with the index of the node it
    leads to; ``play`` the complete legal play this node is (None while more
    steps must follow; an empty play when the roll cannot be played at all).
    """

    position: Position
    dice_left: tuple[int, ...]
    steps: tuple[tuple[Step, int], ...]
    play: Play | None

    @property
    def complete(self) -> bool:
        """True when the steps that lead here make a whole legal play."""
        return self.play is not None


@dataclass(frozen=True, slots=True)
class StepTree:
    """The legal single steps of one roll, as a graph of :class:`StepNode` (the root is node 0)."""

    dice: tuple[int, ...]
    nodes: tuple[StepNode, ...]

    @property
    def root(self) -> StepNode:
        return self.nodes[0]

    def walk(self, steps: Iterable[Sequence[int]]) -> int:
        """The node that ``steps`` (``(from, to)`` pairs, or :class:`Step` s) lead to from the root.

        A pair names its step by where it goes from and to; where two dice make
        the same step (a bear-off by a higher die), the lower die is taken.

        :raises IllegalPlayError: a step that is not a legal next step there.
        """
        at = 0
        for k, step in enumerate(steps):
            start, end = int(step[0]), int(step[1])
            die = step[2] if isinstance(step, Step) else None
            for st, child in self.nodes[at].steps:
                if st.from_point == start and st.to_point == end and (die is None or st.die == die):
                    at = child
                    break
            else:
                raise IllegalPlayError(f"step {k + 1} ({start}/{end}) does not begin a legal play here")
        return at

    def paths(self) -> Iterator[tuple[Step, ...]]:
        """Every complete path from the root: the legal plays as step sequences, in every order."""

        def go(at: int, path: tuple[Step, ...]) -> Iterator[tuple[Step, ...]]:
            node = self.nodes[at]
            if node.complete:
                yield path
            for st, child in node.steps:
                yield from go(child, (*path, st))

        yield from go(0, ())


def _dice_of(dice: tuple[int, int]) -> tuple[int, ...]:
    return (dice[0],) * 4 if dice[0] == dice[1] else tuple(sorted(dice, reverse=True))


def _without(left: tuple[int, ...], die: int) -> tuple[int, ...]:
    i = left.index(die)
    return left[:i] + left[i + 1 :]


def step_tree(position: Position, dice: Iterable[int]) -> StepTree:
    """The tree of legal single steps for ``dice`` on ``position`` (the player on roll moves).

    Steps at each node come highest source first and, for one source, lowest
    die first (so a walker that takes the first step for a ``from/to`` uses the
    lowest die that makes it).

    >>> tree = step_tree(Position.initial(), (3, 1))
    >>> [f"{s.from_point}/{s.to_point}" for s, _ in tree.root.steps][:4]
    ['24/23', '24/21', '13/10', '8/7']

    :raises InvalidDiceError: dice that are not two numbers 1..6.
    """
    roll = check_dice(dice)
    all_dice = _dice_of(roll)
    plays = position.legal_plays(roll)
    if not len(plays):
        return StepTree(all_dice, (StepNode(position, all_dice, (), Play((), position)),))
    finals: dict[Position, Play] = {}
    for play in plays:
        finals[play.position] = play
    deepest = max(len(p.moves) for p in finals.values())
    checkers = position.variant.checkers
    scratch = np.zeros((25, 2), dtype=np.int64)
    nodes: list[StepNode] = []
    index: dict[tuple[Position, tuple[int, ...]], int | None] = {}

    def visit(pos: Position, left: tuple[int, ...]) -> int | None:
        """The node of ``pos`` with ``left`` to play, or None when no legal play goes on from it."""
        key = (pos, left)
        if key in index:
            return index[key]
        depth = len(all_dice) - len(left)
        play = finals.get(pos)
        if play is not None and (depth == deepest or pos.is_game_over):
            # A legal play is complete here: as many dice as can be played are used, or the
            # last checker is off (bearing it off with one die is the same play as with two).
            # The same position reached with a die still playable is not (2/off with a 3 and
            # the 1 still to play, where 2/1 1/off leaves the same board).
            nodes.append(StepNode(pos, left, (), play))
            index[key] = len(nodes) - 1
            return len(nodes) - 1
        index[key] = None  # no cycles (every step uses a die), so this only guards dead ends
        if depth >= deepest:
            return None
        board = np.frombuffer(pos.board, dtype=np.uint8)
        flags = pos.generator_flags
        found: list[tuple[Step, int]] = []
        for die in sorted(set(left)):
            n = movegen.single_steps(board, die, flags, checkers, scratch)
            for s, t in scratch[:n].tolist():
                start, end = s + 1, t + 1  # index -1 (off) is point 0
                after = pos.apply_step(start, end)
                child = visit(after, _without(left, die))
                if child is not None:
                    hit = end != OFF_POINT and after.board[49] > pos.board[49]
                    found.append((Step(start, end, die, hit), child))
        if not found:
            return None
        found.sort(key=lambda sc: (-sc[0].from_point, sc[0].die, sc[0].to_point))
        nodes.append(StepNode(pos, left, tuple(found), None))
        index[key] = len(nodes) - 1
        return len(nodes) - 1

    top = visit(position, all_dice)
    if top is None:  # cannot happen while legal_plays and the single-step rule agree
        raise IllegalPlayError(f"no step of {roll} on {position.position_id} leads to a legal play")
    # Renumber so that the root is node 0 and children come after their parents.
    order: list[int] = []
    seen: set[int] = set()

    def number(i: int) -> None:
        if i in seen:
            return
        seen.add(i)
        order.append(i)
        for _, child in nodes[i].steps:
            number(child)

    number(top)
    new = {old: k for k, old in enumerate(order)}
    out: list[StepNode] = []
    for old in order:
        node = nodes[old]
        out.append(StepNode(node.position, node.dice_left,
                            tuple((st, new[child]) for st, child in node.steps), node.play))
    return StepTree(all_dice, tuple(out))


__all__ = ["Step", "StepNode", "StepTree", "step_tree"]
