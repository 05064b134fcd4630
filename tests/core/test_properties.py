"""Property tests over random reachable positions of every variant.

Positions come from playing random legal plays from each variant's start with
random dice (seeds drawn by hypothesis), swapping sides each turn.  Besides
invariants of positions and plays, the move generator is compared with a slow
oracle written here from the rule texts alone: a tiny breadth-first generator in
plain Python.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gammon import Position
from gammon.core.variants import VARIANTS, Variant

SETTINGS = settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
ORACLE_VARIANTS = ("standard", "dutch", "acey-deucey", "hypergammon", "nackgammon")

#: (mover's 25 counts, opponent's 25 counts, how many of the mover's index-24 checkers
#: never entered: Acey-Deucey's pool, 0 elsewhere).
Board = tuple[tuple[int, ...], tuple[int, ...], int]


# -- random reachable positions ------------------------------------------------------


def _pips_outside(p: Position) -> int:
    """Pips the mover still has to travel to get everything home (a runner's policy)."""
    return sum(c * (i - 5) for i, c in enumerate(p.me) if i >= 6)


def random_game(variant: str, seed: int, turns: int) -> Iterator[tuple[Position, tuple[int, int]]]:
    """Yield ``(position, dice)`` for each turn of a seeded random game (mover on roll).

    The policy is drawn per game: uniform random, a runner that brings checkers
    home and bears off fast (reaches bear-offs and game ends), or a hitter.
    """
    rng = random.Random(seed)
    policy = rng.choice(("random", "runner", "hitter"))
    p = Position.initial(variant)
    for _ in range(turns):
        if p.is_game_over:
            return
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        yield p, dice
        results = p.legal_plays(dice).positions()
        if results:
            if policy == "runner" and rng.random() < 0.9:
                p = min(results, key=lambda q: (-q.checkers_off[0], _pips_outside(q)))
            elif policy == "hitter" and rng.random() < 0.9:
                p = max(results, key=lambda q: (q.bar[1], rng.random()))
            else:
                p = rng.choice(results)
        p = p.swap()


def reachable(variant: str, seed: int, turns: int) -> tuple[Position, tuple[int, int]]:
    """The position (and its roll) after ``turns`` turns of a seeded random game."""
    last: tuple[Position, tuple[int, int]] | None = None
    for last in random_game(variant, seed, turns):  # noqa: B007
        pass
    assert last is not None
    return last


seeds = st.integers(min_value=0, max_value=2**32 - 1)
turn_counts = st.integers(min_value=1, max_value=160)


# -- the oracle ------------------------------------------------------------------------


def _steps(board: Board, die: int, v: Variant) -> set[Board]:
    """Every board one checker moved by ``die`` can reach, by the rules.

    ``me``/``opp``: 25 counts each (points 1..24 at 0..23, the bar at 24), each
    seen from its own side; my point index ``i`` is the opponent's ``23 - i``.
    """
    me, opp, pool = board
    out: set[Board] = set()
    # "Checkers on the bar must enter before any other checker moves"; in Acey-Deucey
    # "checkers still in the pool may wait while others move", a hit checker may not.
    if me[24] > pool and v.must_enter_first:
        sources = [24]
    else:
        sources = [i for i in range(25) if me[i]]
    all_home = not any(me[6:25])
    home_or_off = any(me[0:6]) or sum(me) < v.checkers
    for s in sources:
        t = s - die
        new_me = list(me)
        new_opp = list(opp)
        new_me[s] -= 1
        # An entry takes a hit checker first; the pool shrinks once none is left.
        new_pool = pool - 1 if s == 24 and me[24] == pool else pool
        if t >= 0:
            there = opp[23 - t]
            if there >= 2:  # a point held by two or more opponents is closed
                continue
            if there == 1:
                # Dutch: "no hitting until one of your checkers has reached your home
                # board" (home or off before this move).
                if v.hit_needs_home and not home_or_off:
                    continue
                new_opp[23 - t] = 0
                new_opp[24] += 1
            new_me[t] += 1
        else:
            # Bearing off: only with every checker home; exact, or a higher number
            # from the highest occupied point.
            if not all_home:
                continue
            if t < -1 and any(me[s + 1 : 6]):
                continue
        out.add((tuple(new_me), tuple(new_opp), new_pool))
    return out


def oracle(p: Position, dice: tuple[int, int]) -> set[Board]:
    """The legal results of ``dice``: as many dice as possible, the higher when only one."""
    d1, d2 = dice
    v = p.variant
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    found: set[tuple[Board, int, int]] = set()  # (result, dice used, first die)
    for order in orders:
        frontier = {(p.me, p.opp, p.pool[0])}
        for k, die in enumerate(order):
            nxt: set[Board] = set()
            for b in frontier:
                succ = _steps(b, die, v)
                if not succ and k > 0:
                    found.add((b, k, order[0]))
                nxt |= succ
            frontier = nxt
        found |= {(b, len(order), order[0]) for b in frontier}
    if not found:
        return set()
    most = max(used for _, used, _ in found)
    keep = {(b, first) for b, used, first in found if used == most}
    if most == 1 and d1 != d2:
        higher = {b for b, first in keep if first == max(dice)}
        if higher:
            return higher
    return {b for b, _ in keep}


# -- properties ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@SETTINGS
@given(seed=seeds, turns=turn_counts)
def test_position_invariants(variant: str, seed: int, turns: int) -> None:
    v = VARIANTS[variant]
    history = [p for p, _dice in random_game(variant, seed, turns)]
    for p in history:
        me, opp = p.me, p.opp
        # Checker conservation: on the board (bar included) plus off is the variant's
        # count, and nobody ever has more than that on the board.
        assert sum(me) <= v.checkers and sum(opp) <= v.checkers
        assert sum(me) + p.checkers_off[0] == v.checkers
        assert sum(opp) + p.checkers_off[1] == v.checkers
        # No point holds both colours.
        assert not any(me[i] and opp[23 - i] for i in range(24))
    p = history[-1]
    # The constructor accepts it (all its checks pass) and rebuilds the same value.
    assert Position(p.me, p.opp, variant, p.pool) == p
    # Position ID, swap and repr round trips.
    assert Position.from_position_id(p.position_id, variant=variant, pool=p.pool) == p
    assert p.swap().swap() == p
    assert hash(p.swap().swap()) == hash(p)
    assert p.swap().pip_counts == p.pip_counts[::-1]
    assert eval(repr(p), {"Position": Position}) == p


def _check_plays(p: Position, dice: tuple[int, int]) -> None:
    """Every invariant of the plays of one roll."""
    plays = p.legal_plays(dice)
    d1, d2 = dice
    positions = plays.positions()
    # Distinct plays lead to distinct positions.
    assert len(set(positions)) == len(plays)
    if not plays:
        return
    used = {pl.dice_used for pl in plays}
    # Every play uses the same (maximal) number of dice.
    assert len(used) == 1
    n_used = used.pop()
    assert 1 <= n_used <= (4 if d1 == d2 else 2)
    for play in plays:
        q = play.position
        assert q.variant is p.variant
        assert all(pl_die in (d1, d2) for pl_die in _dice_of(play.moves, dice))
        bar_before, bar_after = p.bar[1], q.bar[1]
        # Hit checkers go to the opponent's bar; the opponent keeps every checker.
        assert bar_after - bar_before == play.hits
        assert sum(q.opp) == sum(p.opp)
        # The mover loses from the board exactly the checkers it bore off.
        off = sum(m.to_point == 0 for m in play.moves)
        assert q.checkers_off[0] - p.checkers_off[0] == off
        # Pips: the mover's drop is the sum of the dice used (less where a bear-off
        # overshoots); the opponent gains the distance of each hit checker back.
        steps = [m.from_point - m.to_point for m in play.moves]
        drop = p.pip_counts[0] - q.pip_counts[0]
        assert drop == sum(steps)
        if not any(m.to_point == 0 for m in play.moves):
            if d1 == d2:
                assert steps == [d1] * n_used
            elif n_used == 2:
                assert sorted(steps) == sorted(dice)
        assert q.pip_counts[1] - p.pip_counts[1] == sum(m.to_point for m in play.moves if m.hit)
        # Replaying the moves in their order on the board reaches the play's position,
        # and each step is legal by the oracle's rules with one die each.
        assert _replay((p.me, p.opp, p.pool[0]), play.moves) == (q.me, q.opp, q.pool[0])
        assert q.pool[1] == p.pool[1]
        assert _is_legal_sequence(p, play.moves, dice), str(play)
    # The higher-die rule: with one die of two played, the higher one whenever possible
    # (a play that bears off the last checker may do so with either die).
    if d1 != d2 and n_used == 1 and not any(q.is_game_over for q in positions):
        dies = {d for play in plays for d in _dice_of(play.moves, dice)}
        if max(dice) in {_single_die_possible(p, d) for d in dice}:
            assert dies == {max(dice)}


def _dice_of(moves: tuple, dice: tuple[int, int]) -> list[int]:
    """The die each move used (a bear-off overshoot uses the smallest die that fits)."""
    out = []
    for m in moves:
        dist = m.from_point - m.to_point
        if dist in dice:
            out.append(dist)
        else:
            assert m.to_point == 0, m
            out.append(min(d for d in dice if d >= dist))
    return out


def _single_die_possible(p: Position, die: int) -> int:
    """``die`` if a checker can move by it at all from ``p``, else 0."""
    return die if _steps((p.me, p.opp, p.pool[0]), die, p.variant) else 0


def _is_legal_sequence(p: Position, moves: tuple, dice: tuple[int, int]) -> bool:
    """Whether ``moves`` in this order, one die each, are legal steps (by the oracle)."""
    d1, d2 = dice
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    for order in orders:
        board: Board = (p.me, p.opp, p.pool[0])
        for m, die in zip(moves, order, strict=False):
            dist = m.from_point - m.to_point
            if dist != die and not (m.to_point == 0 and dist < die):
                break
            after = _replay(board, (m,))
            if after not in _steps(board, die, p.variant):
                break
            board = after
        else:
            return True
    return False


def _replay(board: Board, moves: tuple) -> Board:
    """The board after ``moves`` (checking each lands on an empty, own or hit point)."""
    me, opp, pool = list(board[0]), list(board[1]), board[2]
    for m in moves:
        s = m.from_point - 1
        # Acey-Deucey: an entry is written in/.. when it comes from the pool (no hit checker waits).
        assert m.from_pool == (s == 24 and me[24] == pool and pool > 0), m
        if m.from_pool:
            pool -= 1
        me[s] -= 1
        assert me[s] >= 0
        if m.to_point:
            t = m.to_point - 1
            assert opp[23 - t] == (1 if m.hit else 0)
            if m.hit:
                opp[23 - t] = 0
                opp[24] += 1
            me[t] += 1
    return tuple(me), tuple(opp), pool


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@SETTINGS
@given(seed=seeds, turns=turn_counts, data=st.data())
def test_play_invariants(variant: str, seed: int, turns: int, data: st.DataObject) -> None:
    p, dice = reachable(variant, seed, turns)
    _check_plays(p, dice)
    _check_plays(p, (data.draw(st.integers(1, 6)), data.draw(st.integers(1, 6))))


@pytest.mark.parametrize("variant", ORACLE_VARIANTS)
@SETTINGS
@given(seed=seeds, turns=turn_counts, data=st.data())
def test_move_generator_matches_the_oracle(
    variant: str, seed: int, turns: int, data: st.DataObject
) -> None:
    p, dice = reachable(variant, seed, turns)
    # Also try a second roll, hypothesis-chosen, on the same position.
    extra = (data.draw(st.integers(1, 6)), data.draw(st.integers(1, 6)))
    for roll in (dice, extra):
        got = {(q.me, q.opp, q.pool[0]) for q in p.legal_plays(roll).positions()}
        assert got == oracle(p, roll), (repr(p), roll)


def arbitrary_position(variant: str, seed: int) -> Position:
    """A random legal-looking position, reachable or not, biased towards the rarer
    situations: bear-offs, races, checkers on the bar, closed boards."""
    rng = random.Random(seed)
    v = VARIANTS[variant]
    me, opp = [0] * 25, [0] * 25
    mode = rng.choice(("bearoff", "race", "bar", "contact", "blocked"))
    if mode == "blocked":
        # A few mover checkers against opponent points: few dice can be played.
        for _ in range(rng.randint(1, 7)):
            i = rng.randrange(24)
            if sum(opp) - opp[i] + 2 <= v.checkers:
                opp[i] = 2
        for _ in range(rng.randint(1, 3)):
            i = 24 if rng.random() < 0.2 else rng.randrange(24)
            if i == 24 or not opp[23 - i]:
                me[i] += 1
        return Position(me, opp, variant)
    for side, row in enumerate((me, opp)):
        n = rng.randint(1 if side == 0 else 0, v.checkers)
        for _ in range(n):
            if mode == "bearoff" and side == 0:
                i = rng.randrange(6) if rng.random() < 0.9 else rng.randrange(6, 12)
            elif mode == "bar" and rng.random() < 0.15:
                i = 24
            elif mode == "race":
                i = rng.randrange(12)  # the two sides never meet
            else:
                i = rng.randrange(24) if rng.random() < 0.5 else rng.randrange(6)
            other = opp if side == 0 else me
            if i < 24 and other[23 - i]:
                continue  # the point is the other colour's
            row[i] += 1
    # Acey-Deucey: some of the checkers waiting to enter never entered (the pool).
    pool = (rng.randint(0, me[24]), rng.randint(0, opp[24])) if v.starts_in_pool else (0, 0)
    return Position(me, opp, variant, pool)


@pytest.mark.parametrize("variant", ("standard", "dutch", "acey-deucey"))
@settings(max_examples=60, deadline=None)
@given(seed=seeds)
def test_move_generator_matches_the_oracle_on_arbitrary_positions(
    variant: str, seed: int
) -> None:
    p = arbitrary_position(variant, seed)
    for roll in [(a, b) for a in range(1, 7) for b in range(1, a + 1)]:
        got = {(q.me, q.opp, q.pool[0]) for q in p.legal_plays(roll).positions()}
        assert got == oracle(p, roll), (repr(p), roll)
        _check_plays(p, roll)


@pytest.mark.parametrize("variant", ORACLE_VARIANTS)
def test_oracle_on_every_roll_along_seeded_games(variant: str) -> None:
    """A denser, deterministic sweep: all 21 rolls at every 7th turn of a few games."""
    rolls = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
    for seed in range(6):
        for n, (p, _dice) in enumerate(random_game(variant, seed, 400)):
            if n % 7:
                continue
            for roll in rolls:
                got = {(q.me, q.opp, q.pool[0]) for q in p.legal_plays(roll).positions()}
                assert got == oracle(p, roll), (repr(p), roll)
