"""The network input encoder: layout and values on known positions."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from gammon.ai.encoding import (
    BASE_INPUTS,
    EXTRAS_PER_SIDE,
    FEATURES_PER_SIDE,
    NUM_EXTRAS,
    NUM_INPUTS,
    OFF_CONTACT,
    OFF_EXTRAS,
    OFF_FEATURES,
    OFF_PIPDIFF,
    RAW_PER_SIDE,
    encode,
    encode_batch,
    is_contact,
    is_crashed,
)
from gammon.ai.hits_escapes import (
    ESCAPE_WINDOW,
    ESCAPES,
    _escape_table,
    _escapes_from,
    escapes,
    hit_rolls,
    shots,
    side_extras,
)
from gammon.core import movegen


def board(me: dict[int, int], opp: dict[int, int]) -> np.ndarray:
    """50 counts from ``{point: count}`` for each side, each from its own side (25 = bar)."""
    b = np.zeros(50, dtype=np.uint8)
    for o, side in ((0, me), (25, opp)):
        for p, c in side.items():
            b[o + p - 1] = c
    return b


START = {24: 2, 13: 5, 8: 3, 6: 5}


def feature(x: np.ndarray, side: int, k: int) -> float:
    return float(x[OFF_FEATURES + FEATURES_PER_SIDE * side + k])


def test_layout_constants() -> None:
    assert NUM_INPUTS == 220 and BASE_INPUTS == 214 and NUM_EXTRAS == 2 * EXTRAS_PER_SIDE == 6
    assert OFF_FEATURES == 2 * RAW_PER_SIDE
    # The contact flag ends the inputs every net reads; the extra inputs follow it.
    assert OFF_CONTACT == BASE_INPUTS - 1 == OFF_EXTRAS - 1
    assert OFF_PIPDIFF == BASE_INPUTS - 2
    assert OFF_EXTRAS + NUM_EXTRAS == NUM_INPUTS


def extra(x: np.ndarray, side: int, k: int) -> float:
    return float(x[OFF_EXTRAS + EXTRAS_PER_SIDE * side + k])


def test_pip_loss_and_double_shots_count_each_roll_once_at_its_costliest_hit() -> None:
    # My blots on my 11 and 12 points, an opposing checker on my 8 point (its 17): the 11 is
    # hit by 14 rolls, the 12 by 15, both by 5 (test_hit_rolls_of_one_blot).  A checker hit on
    # my 11 goes back 25 - 11 = 14 pips, on my 12 13 pips; a roll hitting both costs the 14.
    x = encode(board({11: 1, 12: 1, 6: 13}, {17: 1, 1: 14}))
    assert extra(x, 0, 0) == pytest.approx((14 * 14 + (15 - 5) * 13) / (36 * 24))
    assert extra(x, 0, 1) == pytest.approx(5 / 36)
    # The opponent's blot on its 17 (my 8) is 3 pips from my 11 and 4 from my 12: the same 24
    # rolls hit it, each sending it back 25 - 17 = 8 pips; one blot is never hit twice.
    assert extra(x, 1, 0) == pytest.approx(24 * 8 / (36 * 24)) and extra(x, 1, 1) == 0
    # One blot alone: no roll hits two; its 14 rolls each cost 14 pips.
    y = encode(board({11: 1, 6: 14}, {17: 1, 1: 14}))
    assert extra(y, 0, 0) == pytest.approx(14 * 14 / (36 * 24)) and extra(y, 0, 1) == 0


def test_containment_is_the_fewest_escapes_from_the_other_sides_home_board() -> None:
    # Nothing in front of the other side's home board: every roll escapes from anywhere.
    open_board = encode(board({24: 1, 6: 14}, {1: 15}))
    assert extra(open_board, 0, 2) == 1.0
    # The opponent's points on my 14 to 18 (its 7 to 11): from my 19 only a 6 passes them
    # (11 rolls); from my 20 to 24 only one pair of dice does, over my 19 point
    # (1-6, 2-6, 3-6, 4-6, 5-6 each twice): 2 rolls.  Whether or not I have a checker there.
    five = {7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 1: 5}
    assert extra(encode(board({6: 15}, five)), 0, 2) == pytest.approx(2 / 36)
    assert extra(encode(board({19: 1, 6: 14}, five)), 0, 2) == pytest.approx(2 / 36)
    # A full prime on my 13 to 18: no escape at all.
    six = {7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 2, 1: 3}
    assert extra(encode(board({24: 2, 6: 13}, six)), 0, 2) == 0


def test_initial_position() -> None:
    x = encode(board(START, START))
    assert x.shape == (NUM_INPUTS,) and x.dtype == np.float32
    for s in (0, 1):
        base = RAW_PER_SIDE * s
        # 6 point: five checkers -> 1, 1, 1, (5 - 3) / 2
        assert list(x[base + 20 : base + 24]) == [1, 1, 1, 1.0]
        assert list(x[base + 28 : base + 32]) == [1, 1, 1, 0]  # 8 point: 3
        assert list(x[base + 92 : base + 96]) == [1, 1, 0, 0]  # 24 point: 2
        assert list(x[base : base + 4]) == [0, 0, 0, 0]
        assert x[base + 96] == 0 and x[base + 97] == 0  # bar, off
        assert feature(x, s, 0) == pytest.approx(167 / 160)
        assert feature(x, s, 1) == 0  # blots
        assert feature(x, s, 2) == 0  # shots
        assert feature(x, s, 3) == pytest.approx(1 / 6)  # 6 point made
        assert feature(x, s, 4) == pytest.approx(1 / 6)  # no two adjacent points
        assert feature(x, s, 5) == pytest.approx(1 / 2)  # the 24-point anchor
        assert feature(x, s, 6) == pytest.approx(2 / 5)  # two back
        assert feature(x, s, 7) == 0  # no roll jumps the 13-8-6 points from 24
    assert x[OFF_PIPDIFF] == 0
    assert x[OFF_CONTACT] == 1


def test_bar_off_and_race() -> None:
    x = encode(board({25: 2, 1: 3}, {3: 4}))
    assert x[96] == pytest.approx(1.0)
    assert x[97] == pytest.approx(10 / 15)
    assert x[RAW_PER_SIDE + 97] == pytest.approx(11 / 15)
    assert x[OFF_CONTACT] == 1  # a checker on the bar is behind everything
    y = encode(board({1: 3}, {3: 4}))
    assert y[OFF_CONTACT] == 0
    assert y[OFF_PIPDIFF] == pytest.approx((3 - 12) / 100)


def test_direct_and_indirect_shots() -> None:
    # My blot on my 11 point; an opposing checker on my 8 point (its 17) is 3 away.
    b = board({11: 1, 6: 14}, {17: 1, 1: 14})
    # Rolls with a 3 (11), 1-2 and 2-1, and 1-1 (three ones).
    assert shots(b, 0, 25) == 14
    x = encode(b)
    assert feature(x, 0, 1) == pytest.approx(1 / 5)
    assert feature(x, 0, 2) == pytest.approx(14 / 36)
    # Block the 9 and 10 points: 1-2 no longer hits, nor 1-1.
    b2 = board({11: 1, 10: 2, 9: 2, 6: 10}, {17: 1, 1: 14})
    assert shots(b2, 0, 25) == 11
    # From their 24 point (10 away) 6-4 and 4-6 hit too; 5-5 is blocked by my 6 point.
    b3 = board({11: 1, 6: 14}, {17: 1, 24: 14})
    assert shots(b3, 0, 25) == 16
    b4 = board({11: 1, 6: 14}, {24: 15})
    assert shots(b4, 0, 25) == 2


def test_hit_rolls_of_one_blot() -> None:
    # Two blots, my 11 and my 12 point; one opposing checker on my 8 point (its 17), which
    # moves towards my higher points.
    b = board({11: 1, 12: 1, 6: 13}, {17: 1, 1: 14})
    eleven = np.int64(1) << (23 - 10)  # my 11 point, as a bit over the opponent's indices
    twelve = np.int64(1) << (23 - 11)
    rolls_11 = int(hit_rolls(b, 0, 25, eleven))
    rolls_12 = int(hit_rolls(b, 0, 25, twelve))
    # The 11 is 3 away: any 3 (11 rolls), 1-2 and 2-1, 1-1.  The 12 is 4 away: any 4 (11),
    # 1-3 and 3-1, 2-2, 1-1.  Both: 3-4, 4-3, 1-3, 3-1 (the 3 alone hits the 11) and 1-1.
    assert bin(rolls_11).count("1") == 14 and bin(rolls_12).count("1") == 15
    assert bin(rolls_11 & rolls_12).count("1") == 5
    assert rolls_11 | rolls_12 == int(hit_rolls(b, 0, 25, np.int64(-1)))
    assert shots(b, 0, 25) == bin(rolls_11 | rolls_12).count("1") == 24
    # Each roll is its bit 6 (a - 1) + c - 1: 3-3 hits the 11, 6-6 neither, and a blot
    # behind the checker (my 4 point) is never hit.
    assert rolls_11 >> (6 * 2 + 2) & 1 and not (rolls_11 | rolls_12) >> 35 & 1
    assert hit_rolls(board({4: 1, 6: 14}, {17: 1, 1: 14}), 0, 25, np.int64(-1)) == 0


def random_play(moves: int, seed: int) -> Iterator[np.ndarray]:
    """The boards of seeded random play from the start, each with the player on roll first
    (a new game when one ends): ``moves`` plays, a board after each."""
    ws = movegen.Workspace()
    rng = np.random.default_rng(seed)
    b = board(START, START)
    for _ in range(moves):
        d1, d2 = (int(v) for v in rng.integers(1, 7, 2))
        k = movegen.generate(b, d1, d2, 1, 15, ws.boards, ws.moves, ws.table)
        nb = ws.boards[int(rng.integers(k))].copy() if k else b.copy()
        if not nb[:25].any():
            b = board(START, START)
            continue
        b = np.concatenate([nb[25:], nb[:25]])
        yield b


def _exact_shot_rolls(b: np.ndarray, ws: movegen.Workspace) -> int:
    sw = np.concatenate([b[25:], b[:25]])
    n = 0
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            k = movegen.generate(sw, d1, d2, 1, 15, ws.boards, ws.moves, ws.table)
            if any(ws.moves[r, 2:12:3].any() for r in range(k)):
                n += 1
    return n


def test_shots_match_the_move_generator_mostly() -> None:
    """The cheap count agrees with the generator's hits on most random positions."""
    ws = movegen.Workspace()
    same = total = 0
    for b in random_play(400, 7):
        if is_contact(b):
            total += 1
            same += shots(b, 0, 25) == _exact_shot_rolls(b, ws)
    assert total > 100
    assert same / total > 0.9


def test_escapes() -> None:
    # A back checker on the 24 point, nothing in front of it: every roll escapes.
    assert escapes(board({24: 1}, {1: 2}), 0, 25) == 36
    # Opposing points on my 18 and 17 (their 7 and 8): the checker on 24 must reach
    # my 16 or lower.  Non-doubles summing to 8+ (12 rolls: every one has an open
    # first step), and 4-4 and 5-5; 6-6 and 3-3 are stopped on the 18 point.
    assert escapes(board({24: 1}, {7: 2, 8: 2}), 0, 25) == 14
    # No checker back: 36.
    assert escapes(board({6: 2}, {7: 2}), 0, 25) == 36


def test_batch_matches_single() -> None:
    bs = np.stack([board(START, START), board({11: 1, 6: 14}, {17: 1, 24: 14})])
    xb = encode_batch(bs)
    assert xb.shape == (2, NUM_INPUTS)
    for r in range(2):
        assert np.array_equal(xb[r], encode(bs[r]))


def test_contact() -> None:
    assert is_contact(board(START, START))
    assert not is_contact(board({6: 2}, {6: 2}))
    assert is_contact(board({6: 2}, {20: 1}))  # their 20 is my 5 point


def test_crashed_is_a_side_down_to_six_working_checkers_in_contact() -> None:
    # Working checkers: those on the board or the bar, less all but one on each of the side's
    # ace and deuce points.
    assert not is_crashed(board(START, START))
    six = {6: 2, 5: 2, 4: 2}
    seven = {6: 3, 5: 2, 4: 2}
    back = {24: 2, 13: 5, 8: 3, 6: 5}  # the other side still has checkers behind the six
    assert is_crashed(board(six, back)) and is_crashed(board(back, six))  # either side
    assert not is_crashed(board(seven, back))
    # ten checkers on the board, but 4 on the ace and 3 on the deuce point: 10 - 3 - 2 = 5 work
    assert is_crashed(board({1: 4, 2: 3, 6: 3}, back))
    assert not is_crashed(board({1: 1, 2: 1, 6: 5}, back))  # 7: one on each point works
    assert is_crashed(board({25: 1, 1: 5, 6: 2}, back))  # a checker on the bar works: 8 - 4 = 4
    # no contact: a race, never crashed, however few checkers are left
    assert not is_crashed(board({6: 2}, {6: 2}))


def test_swapping_sides_swaps_the_blocks() -> None:
    b = board({24: 1, 13: 4, 11: 1, 8: 3, 6: 4, 5: 2}, {25: 1, 20: 2, 13: 5, 9: 1, 6: 4, 1: 1})
    x = encode(b)
    y = encode(np.concatenate([b[25:], b[:25]]))
    r = RAW_PER_SIDE
    f = FEATURES_PER_SIDE
    assert np.array_equal(x[:r], y[r : 2 * r]) and np.array_equal(x[r : 2 * r], y[:r])
    fx, fy = x[OFF_FEATURES:OFF_PIPDIFF], y[OFF_FEATURES:OFF_PIPDIFF]
    assert np.array_equal(fx[:f], fy[f:]) and np.array_equal(fx[f:], fy[:f])
    assert x[OFF_PIPDIFF] == -y[OFF_PIPDIFF] != 0
    assert x[OFF_CONTACT] == y[OFF_CONTACT] == 1
    e = EXTRAS_PER_SIDE
    ex, ey = x[OFF_EXTRAS:], y[OFF_EXTRAS:]
    assert np.array_equal(ex[:e], ey[e:]) and np.array_equal(ex[e:], ey[:e]) and ex.any()


def test_the_shipped_escape_table_is_the_escapes_of_each_window() -> None:
    assert ESCAPES.shape == (1 << ESCAPE_WINDOW,) and np.array_equal(ESCAPES, _escape_table())
    assert ESCAPES[0] == 36  # nothing made in front: every roll passes
    assert ESCAPES[(1 << ESCAPE_WINDOW) - 1] == 0  # all made: nothing lands


def test_containment_from_the_table_is_the_point_by_point_count() -> None:
    # Positions of random play (contact, races, checkers on the bar): the containment read from
    # the table is the least of the escapes counted from each of the six points.
    seen = set()
    for b in random_play(3000, 11):
        for s in (0, 1):
            oy = 25 * (1 - s)
            want = min(int(_escapes_from(b, oy, p)) for p in range(18, 24))
            got = int(side_extras(b, s)[2])
            assert got == want, (b.tolist(), s)
            seen.add(got)
    assert len(seen) > 8  # many different containments met, not just 36
