"""The tree of legal single steps (``Position.step_tree``), checked against the rules.

A play may be made one checker and one die at a time, in any order the rules of a
single step allow on the way (bar first, open points, Dutch no-hitting, bearing
off), as long as the whole is a legal play of the roll (as many dice as possible,
the higher die when only one can be played).  The oracle below enumerates every
such sequence from the rule texts alone, with the slow result oracle of
``test_properties``; the tree's complete paths must be exactly those sequences.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_properties import Board, arbitrary_position, oracle, reachable

from boards import pos
from gammon import Play, Position
from gammon.core.errors import IllegalPlayError, InvalidDiceError
from gammon.core.steps import Step
from gammon.core.variants import VARIANTS, Variant

Sequence_ = tuple[tuple[int, int, int, bool], ...]


def _moves(board: Board, die: int, v: Variant) -> list[tuple[int, int, bool, Board]]:
    """Every single step of one checker by ``die``: (from point, to point, hit, board after).

    Points from the mover's side (25 = bar, 0 = off); rows as in ``test_properties``.
    """
    me, opp, pool = board
    out = []
    # "A checker on the bar enters before any other checker moves" (Acey-Deucey's pool may wait).
    sources = [24] if me[24] > pool and v.must_enter_first else [i for i in range(25) if me[i]]
    all_home = not any(me[6:25])
    home_or_off = any(me[0:6]) or sum(me) < v.checkers
    for s in sources:
        t = s - die
        new_me, new_opp = list(me), list(opp)
        new_me[s] -= 1
        new_pool = pool - 1 if s == 24 and me[24] == pool else pool  # hit checkers enter first
        hit = False
        if t >= 0:
            there = opp[23 - t]
            if there >= 2:  # a point held by two or more opponents is closed
                continue
            if there == 1:
                if v.hit_needs_home and not home_or_off:  # Dutch: no hitting before reaching home
                    continue
                new_opp[23 - t], new_opp[24], hit = 0, new_opp[24] + 1, True
            new_me[t] += 1
        elif not all_home or (t < -1 and any(me[s + 1 : 6])):
            continue  # bearing off: all home; a higher number only from the highest point
        out.append((s + 1, max(t + 1, 0), hit, (tuple(new_me), tuple(new_opp), new_pool)))
    return out


def legal_sequences(p: Position, dice: tuple[int, int]) -> set[Sequence_]:
    """Every order of single steps that makes a legal play of ``dice`` (the rules' answer)."""
    finals = oracle(p, dice)
    left0 = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    sequences: list[tuple[Board, Sequence_]] = []

    def go(board: Board, left: list[int], path: Sequence_) -> None:
        sequences.append((board, path))
        if not any(board[0]):
            return  # the last checker is off: the game is over
        for die in sorted(set(left)):
            rest = list(left)
            rest.remove(die)
            for start, end, hit, after in _moves(board, die, p.variant):
                go(after, rest, (*path, (start, end, die, hit)))

    go((p.me, p.opp, p.pool[0]), left0, ())
    # "Play as many dice as possible": a legal result, reached with the most dice any
    # sequence plays, or with the last checker off (the game ends there).
    most = max(len(path) for _, path in sequences)
    return {path for board, path in sequences
            if board in finals and (len(path) == most or not any(board[0]))}


def tree_sequences(p: Position, dice: tuple[int, int]) -> set[Sequence_]:
    return {tuple((s.from_point, s.to_point, s.die, s.hit) for s in path) for path in p.step_tree(dice).paths()}


def _check(p: Position, dice: tuple[int, int]) -> None:
    tree = p.step_tree(dice)
    plays = p.legal_plays(dice)
    if not len(plays):
        assert len(tree.nodes) == 1 and tree.root.complete and tree.root.play is not None
        assert tree.root.play.moves == () and not tree.root.steps
        return
    assert tree_sequences(p, dice) == legal_sequences(p, dice), (repr(p), dice)
    # Each node is the board its steps lead to (by core's single step), and no node repeats.
    keys = {(n.position, n.dice_left) for n in tree.nodes}
    assert len(keys) == len(tree.nodes)
    for path in tree.paths():
        end = tree.nodes[tree.walk(path)]
        assert end.position == p.apply_steps([(s.from_point, s.to_point) for s in path])
        assert end.play is not None and end.play in plays and end.play.position == end.position
    # Every legal play is reachable through the tree in the generator's own order.
    for play in plays:
        assert tree.nodes[tree.walk([(m.from_point, m.to_point) for m in play.moves])].play == play


seeds = st.integers(min_value=0, max_value=2**32 - 1)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@settings(max_examples=40, deadline=None)
@given(seed=seeds, turns=st.integers(min_value=1, max_value=160), d1=st.integers(1, 6), d2=st.integers(1, 6))
def test_complete_paths_are_the_legal_plays_in_every_order(variant: str, seed: int, turns: int,
                                                            d1: int, d2: int) -> None:
    p, dice = reachable(variant, seed, turns)
    _check(p, dice)
    _check(p, (d1, d2))


@pytest.mark.parametrize("variant", ("standard", "dutch", "acey-deucey"))
@settings(max_examples=25, deadline=None)
@given(seed=seeds, d1=st.integers(1, 6), d2=st.integers(1, 6))
# Dutch, the other side already off: 3/off with the 3 still leaves the 1 to play (2/1).
@example(seed=6554, d1=1, d2=3)
def test_complete_paths_on_arbitrary_positions(variant: str, seed: int, d1: int, d2: int) -> None:
    _check(arbitrary_position(variant, seed), (d1, d2))


def test_dutch_no_hit_before_home_is_no_step() -> None:
    """Dutch: "no hitting until one of your checkers has reached your home board"."""
    p = pos("x: 24:2 13:13; o: 4 bar:14", "dutch")
    steps = {(s.from_point, s.to_point) for s, _ in p.step_tree((3, 5)).root.steps}
    assert (24, 21) not in steps and (24, 19) in steps and (13, 10) in steps


def test_higher_die_bears_off_only_from_the_highest_point() -> None:
    """"A higher number than needed may bear off only from the highest occupied point."""
    tree = pos("x: 4 2:2; o: 1:2").step_tree((6, 1))
    first = {(s.from_point, s.to_point, s.die) for s, _ in tree.root.steps}
    assert first == {(4, 0, 6), (4, 3, 1), (2, 1, 1)}


def test_only_the_higher_die_when_one_can_be_played() -> None:
    """"If only one number can be played, the higher one must be played when either could be.\""""
    # One checker on 24; 6-5: 24/18 and 24/19 each block the other die (points 13 and 14 closed).
    p = pos("x: 24 ; o: 12:2 11:2 bar:11")
    tree = p.step_tree((6, 5))
    assert [(s.from_point, s.to_point) for s, _ in tree.root.steps] == [(24, 18)]
    assert tree.nodes[tree.root.steps[0][1]].complete


def test_acey_deucey_pool_entries_are_steps() -> None:
    tree = Position.initial("acey-deucey").step_tree((6, 4))
    assert {(s.from_point, s.to_point) for s, _ in tree.root.steps} == {(25, 19), (25, 21)}
    after = tree.nodes[tree.walk([(25, 19)])]
    assert after.position.pool == (14, 15) and after.dice_left == (4,)


def test_a_pass_is_one_complete_node() -> None:
    p = pos("x: bar; o: 1:2 2:2 3:2 4:2 5:2 6:2")
    tree = p.step_tree((3, 5))
    assert len(tree.nodes) == 1 and tree.root.play is not None and tree.root.play.moves == ()


def test_walk_refuses_a_step_that_begins_no_legal_play() -> None:
    tree = Position.initial().step_tree((3, 1))
    with pytest.raises(IllegalPlayError, match="step 2"):
        tree.walk([(8, 5), (24, 20)])
    assert tree.nodes[tree.walk([Step(8, 5, 3, False), Step(6, 5, 1, False)])].play is not None


def test_bad_dice_are_refused() -> None:
    with pytest.raises(InvalidDiceError):
        Position.initial().step_tree((0, 7))


# -- what the page gets: bounded ------------------------------------------------------------------

#: A bound on the JSON the page gets with a state (bytes), measured on the largest trees:
#: the opening with doubles, a bear-off with doubles, and a made-up worst case (fifteen
#: checkers on fifteen points, no contact), where a double has thousands of distinct
#: positions part-way.
SIZE_CASES = [
    ("opening 1-1", Position.initial(), (1, 1), 20_000),
    ("opening 2-2", Position.initial(), (2, 2), 30_000),
    ("opening 6-6", Position.initial(), (6, 6), 10_000),
    ("bear-off 1-1", pos("x: 1:3 2:3 3:3 4:2 5:2 6:2; o: 1:2"), (1, 1), 40_000),
    ("bear-off 2-2", pos("x: 1:3 2:3 3:3 4:2 5:2 6:2; o: 1:2"), (2, 2), 30_000),
    ("spread 4-4", pos("x: " + " ".join(str(i) for i in range(10, 25)) + "; o: bar:2"), (4, 4), 500_000),
]


@pytest.mark.parametrize(("name", "p", "dice", "bound"), SIZE_CASES, ids=[c[0] for c in SIZE_CASES])
def test_the_tree_the_page_gets_is_bounded(name: str, p: Position, dice: tuple[int, int], bound: int) -> None:
    from gammon.web.service.views import step_tree_view

    tree = p.step_tree(dice)
    text = json.dumps(step_tree_view(tree).model_dump(mode="json"), separators=(",", ":"))
    assert len(text) < bound, (name, len(text))
    # Sharing: fewer nodes than the orders the plays can be made in.
    assert len(tree.nodes) <= sum(1 for _ in tree.paths()) + 1


# -- the terminal's partial plays follow the tree ------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@settings(max_examples=15, deadline=None)
@given(seed=seeds, turns=st.integers(min_value=1, max_value=160))
def test_parts_entered_one_by_one_make_each_legal_play(variant: str, seed: int, turns: int) -> None:
    """Every legal play, typed one checker move at a time, is followed part by part to that play."""
    from gammon.play.partial import PartialPlay, follow_parts

    p, dice = reachable(variant, seed, turns)
    for play in list(p.legal_plays(dice))[:12]:
        parts = [str(m) for m in play.moves]
        for k in range(1, len(parts)):
            got = follow_parts(p, dice, parts[:k])
            if isinstance(got, Play):
                # The text so far names a whole play too (``2/off`` with 3-1 is also 2/1/off):
                # the terminal takes the whole play, as the notation reads.
                assert got in p.legal_plays(dice)
                break
            assert isinstance(got, PartialPlay), (repr(p), dice, parts[:k])
            assert play in got.plays
            assert len(got.dice_left) == len(tree_dice(dice)) - k
        else:
            assert follow_parts(p, dice, parts) == play


def tree_dice(dice: tuple[int, int]) -> tuple[int, ...]:
    return (dice[0],) * 4 if dice[0] == dice[1] else dice


def test_a_part_that_begins_no_legal_play_is_refused() -> None:
    from gammon.play.partial import follow_parts

    # 6-5 from the start: 13/8 is legal, but not a second 13/8 (the 6 must still be played).
    with pytest.raises(IllegalPlayError):
        follow_parts(Position.initial(), (6, 5), ["13/8", "13/8"])
    # Dutch: no hitting before reaching home, so 24/21* is no part of any play.
    with pytest.raises(IllegalPlayError):
        follow_parts(pos("x: 24:2 13:13; o: 4 bar:14", "dutch"), (3, 5), ["24/21*"])
