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
from gammon.core.position import Position, StepFault, StepReason, check_dice


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

    def reaches(self, at: int, from_point: int, to_point: int) -> bool:
        """Whether one checker can go ``from_point`` -> ``to_point`` from node ``at`` by steps of the tree
        (one step, or the same checker moved on by further steps)."""
        todo, seen = [(at, from_point)], set()
        while todo:
            node, point = todo.pop()
            for st, child in self.nodes[node].steps:
                if st.from_point != point:
                    continue
                if st.to_point == to_point:
                    return True
                if st.to_point != OFF_POINT and (child, st.to_point) not in seen:
                    seen.add((child, st.to_point))
                    todo.append((child, st.to_point))
        return False

    def refusal(self, at: int, from_point: int, to_point: int) -> StepRefusal | None:
        """Why one checker cannot go ``from_point`` -> ``to_point`` from node ``at``; None when it can.

        The reason is the rule that refuses it, as a code and in words for a
        person: the single-step rule (:meth:`Position.step_fault`: bar first,
        a blocked point, Dutch no-hitting, bearing off with checkers outside or,
        in Acey-Deucey, still in the pool), then the dice (no die left covers the
        distance; a higher number bears off only from the highest point), then
        the rules of the whole roll (the higher die when only one can be played,
        as many dice as possible).  ``at`` is a node index (see :meth:`walk`).

        >>> tree = step_tree(Position.from_position_id("4HPwATDgc/ABMA"), (6, 5))
        >>> tree.refusal(0, 13, 7)
        >>> tree.refusal(0, 24, 13) is None, tree.refusal(0, 8, 4).reason.value
        (True, 'no_die')

        :raises IllegalPlayError: ``at`` is not a node of the tree.
        """
        if not (isinstance(at, int) and 0 <= at < len(self.nodes)):
            raise IllegalPlayError(f"no node {at!r} in this tree of {len(self.nodes)} nodes")
        node = self.nodes[at]
        if self.reaches(at, from_point, to_point):
            return None
        pos = node.position
        if node.complete:
            if at:
                return StepRefusal(StepReason.ROLL_PLAYED, "your roll is played: confirm the move, "
                                   "or undo a step to change it", "played")
            return StepRefusal(StepReason.ROLL_PLAYED, "your roll cannot be played at all: the turn passes",
                               "unplayable")
        fault = pos.step_fault(from_point, to_point)
        if fault is not None and fault.reason in _AT_ONCE:
            return _told(pos, from_point, to_point, fault)
        left = node.dice_left
        distance = from_point - to_point
        if distance in left or (to_point == OFF_POINT and any(d > distance for d in left)):
            if fault is not None:
                return _told(pos, from_point, to_point, fault)
            higher = _bears_off_higher(pos, from_point, max(left)) if distance not in left else None
            if to_point == OFF_POINT and higher is not None:
                return higher
            die = distance if distance in left else min(d for d in left if d > distance)
            return self._whole_roll(die)
        # More than one die: the same checker moved on.  Say what stops each way of getting there.
        ways = _ways(left, distance, to_point == OFF_POINT)
        if not ways:
            return StepRefusal(StepReason.NO_DIE, (
                f"no die left makes that move: point {to_point} is {distance} "
                f"pip{'' if distance == 1 else 's'} away"
                if to_point else f"bearing off from point {from_point} needs a {distance}")
                + f" ({_dice_words(left)})", "point" if to_point else "off",
                _facts(to=to_point, start=from_point, distance=distance, dice=left))
        first: StepRefusal | None = None
        for way in ways:
            here, point = pos, from_point
            for die in way:
                nxt = max(point - die, 0)
                problem = here.step_fault(point, nxt)
                higher = _bears_off_higher(here, point, die) if problem is None and die > point else None
                if problem is not None or higher is not None:
                    if first is None:
                        told = higher if problem is None else _told(here, point, nxt, problem)
                        assert told is not None
                        goal = "off" if to_point == OFF_POINT else f"to point {to_point}"
                        at_goal = problem is not None and nxt == to_point  # the landing point itself
                        first = told if at_goal or (point, nxt) == (from_point, to_point) else told._replace(
                            message=f"on the way {goal}: {told.message}", on_the_way_to=to_point)
                    break
                here, point = here.apply_step(point, nxt), nxt
            else:
                return self._whole_roll(way[0])
        assert first is not None
        return first

    def _whole_roll(self, die: int) -> StepRefusal:
        """The refusal of a step that the single-step rule allows, by the rules of the whole roll."""
        dice = self.dice
        most = max(len(dice) - len(n.dice_left) for n in self.nodes if n.complete)
        if most == 1 and len(set(dice)) == 2 and die < max(dice):
            return StepRefusal(StepReason.HIGHER_DIE, (
                f"only one die of this roll can be played, and then it must be the higher: "
                f"play the {max(dice)}"), facts=_facts(die=max(dice)))
        return StepRefusal(StepReason.MORE_DICE, (
            "a play must use as many dice as it can, and after that step the rest of the roll "
            "could not be played: start with another checker or another die"))

    def paths(self) -> Iterator[tuple[Step, ...]]:
        """Every complete path from the root: the legal plays as step sequences, in every order."""

        def go(at: int, path: tuple[Step, ...]) -> Iterator[tuple[Step, ...]]:
            node = self.nodes[at]
            if node.complete:
                yield path
            for st, child in node.steps:
                yield from go(child, (*path, st))

        yield from go(0, ())


class StepRefusal(NamedTuple):
    """Why a step is refused: the reason's code (callers branch on it) and a sentence for a person.

    Core speaks English only; an interface that speaks another language words the
    reason itself from the language-free rest: ``form``, which of the reason's
    sentences this is (``played``/``unplayable`` for ``roll_played``;
    ``opponent``/``bar``/``point`` for ``no_checker``; ``point``/``off`` for
    ``no_die``), ``facts``, the numbers the sentence names (``(name, value)`` pairs:
    points, counts, dice), and ``on_the_way_to``, the goal (0 = off) when the rule
    stops the checker on its way there rather than at the step itself.
    """

    reason: StepReason
    message: str
    form: str = ""
    facts: tuple[tuple[str, int | tuple[int, ...]], ...] = ()
    on_the_way_to: int | None = None


def _facts(**numbers: int | tuple[int, ...]) -> tuple[tuple[str, int | tuple[int, ...]], ...]:
    """The numbers a refusal's sentence names, as :attr:`StepRefusal.facts`."""
    return tuple((name, tuple(int(d) for d in v) if isinstance(v, tuple) else int(v))
                 for name, v in numbers.items())


#: Faults that refuse a step whatever the dice (the checker cannot move, or not that way).
_AT_ONCE = frozenset({StepReason.BAD_POINT, StepReason.WRONG_WAY, StepReason.NO_CHECKER, StepReason.BAR_FIRST})


def _told(pos: Position, from_point: int, to_point: int, fault: StepFault) -> StepRefusal:
    """The single-step rule's fault as the sentence a player reads (the rule texts' words)."""
    r = fault.reason
    form, facts = "", _facts()
    if r is StepReason.WRONG_WAY:
        text = "checkers move only forward, toward your home board (and off from it)"
    elif r is StepReason.BAD_POINT:
        text, facts = fault.message, _facts(start=from_point, to=to_point)
    elif r is StepReason.NO_CHECKER:
        mine = pos.opp[24 - from_point] if 1 <= from_point <= 24 else 0
        text = ("that is your opponent's checker" if mine else
                f"you have no checker {'on the bar' if from_point == 25 else f'on point {from_point}'}")
        form = "opponent" if mine else "bar" if from_point == 25 else "point"
        facts = _facts(start=from_point)
    elif r is StepReason.BAR_FIRST:
        n = pos.bar[0] - pos.pool[0]
        one = n == 1
        text = (f"a checker on the bar must enter first: {n} of yours {'is' if one else 'are'} on the bar, "
                f"and nothing else moves before {'it enters' if one else 'they enter'}")
        facts = _facts(n=n)
    elif r is StepReason.BLOCKED:
        text = (f"point {to_point} is blocked: your opponent has {pos.opp[24 - to_point]} checkers there "
                "(a checker lands only where the opponent has at most one)")
        facts = _facts(to=to_point, n=pos.opp[24 - to_point])
    elif r is StepReason.NO_HIT_YET:
        text = ("Dutch backgammon: no hitting before one of your checkers has reached your home board "
                "(points 1-6)")
    elif r is StepReason.POOL_NOT_ENTERED:
        n = pos.pool[0]
        text = (f"Acey-Deucey: bearing off waits until every checker has entered and come home; "
                f"{n} still {'waits' if n == 1 else 'wait'} in the pool")
        facts = _facts(n=n)
    elif r is StepReason.BEAR_OFF_NOT_HOME:
        out = sum(pos.me[6:25])
        text = (f"bearing off needs every checker home (points 1-6); {out} "
                f"{'is' if out == 1 else 'are'} still outside")
        facts = _facts(n=out)
    else:  # pragma: no cover - the single-step rule has no other faults
        text = fault.message
    return StepRefusal(r, text, form, facts)


def _bears_off_higher(pos: Position, from_point: int, die: int) -> StepRefusal | None:
    """The refusal of bearing off from ``from_point`` with a higher ``die`` while a checker stands higher:
    "if there is no checker on the point shown, a checker on a higher point must be moved"."""
    if die <= from_point or not any(pos.me[from_point:24]):
        return None
    high = max(p + 1 for p in range(from_point, 24) if pos.me[p])
    return StepRefusal(StepReason.BEAR_OFF_HIGHER, (
        f"a higher number bears off only from the highest point: a checker still stands on point {high}, "
        f"and point {from_point} needs a {from_point} to bear off"), facts=_facts(high=high, start=from_point))


def _ways(left: tuple[int, ...], distance: int, off: bool) -> list[tuple[int, ...]]:
    """The orders of two or more of the dice ``left`` that take one checker ``distance`` pips
    (bearing off: the last die may be higher than what remains)."""
    found: set[tuple[int, ...]] = set()

    def go(rest: tuple[int, ...], used: tuple[int, ...], gone: int) -> None:
        for die in sorted(set(rest)):
            total = gone + die
            way = (*used, die)
            if total == distance or (off and total > distance and gone < distance):
                if len(way) > 1:
                    found.add(way)
            elif total < distance:
                go(_without(rest, die), way, total)

    go(left, (), 0)
    return sorted(found, key=lambda w: (len(w), [-d for d in w]))


def _dice_words(left: tuple[int, ...]) -> str:
    return f"{'dice' if len(left) > 1 else 'die'} left: {' and '.join(map(str, left))}"


def _dice_of(dice: tuple[int, int]) -> tuple[int, ...]:
    return (dice[0],) * 4 if dice[0] == dice[1] else tuple(sorted(dice, reverse=True))


def _without(left: tuple[int, ...], die: int) -> tuple[int, ...]:
    i = left.index(die)
    return left[:i] + left[i + 1 :]


def _numbered_from(nodes: list[StepNode], top: int) -> tuple[StepNode, ...]:
    """The nodes reachable from ``nodes[top]``, renumbered so that it is node 0 and children come
    after their parents (the steps' child indices follow)."""
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
    return tuple(out)


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
        if play is not None and (depth == deepest or not any(pos.board[:25])):
            # A legal play is complete here: as many dice as can be played are used, or the
            # mover's last checker is off (bearing it off with one die is the same play as with
            # two).  The mover's side, not is_game_over: in a position given with the other side
            # already off, a checker borne off is not the end of the play.
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
    return StepTree(all_dice, _numbered_from(nodes, top))


__all__ = ["Step", "StepNode", "StepReason", "StepRefusal", "StepTree", "step_tree"]
