"""More of Position and LegalPlays: the sequence of legal plays, Acey-Deucey's pool in
the plays' positions, the value protocol, errors and their words, and the move
generator used from any thread or directly with ``generator_flags``."""

from __future__ import annotations

import pickle
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from boards import pos, rows
from gammon.core import movegen
from gammon.core.errors import IllegalPlayError, InvalidDiceError
from gammon.core.plays import CheckerMove, Play
from gammon.core.position import (
    BEAR_OFF_HOME,
    LegalPlays,
    Position,
    StepReason,
    check_dice,
)
from gammon.core.variants import STANDARD, Variant

START = Position.initial()


# -- LegalPlays is a sequence like a tuple ------------------------------------


def test_legal_plays_index_like_a_tuple() -> None:
    legal = START.legal_plays((6, 2))
    plays = list(legal)
    n = len(legal)
    assert n == len(plays) > 1
    for i in range(-n, n):
        assert legal[i] == plays[i]
    assert legal[-n] == plays[0]
    assert legal[1:3] == plays[1:3]
    for bad in (n, n + 1, -n - 1):
        with pytest.raises(IndexError) as info:
            legal[bad]
        assert str(info.value) == "play index out of range"


def test_legal_plays_contain_their_plays_and_positions_only() -> None:
    """``in`` works as on a tuple of plays: a play or its position is in; other things are not."""
    for fresh in (True, False):
        legal = START.legal_plays((6, 2))
        if not fresh:
            list(legal)  # the plays built
        play = START.legal_plays((6, 2))[0]
        assert play in legal
        assert play.position in legal
        other = START.legal_plays((5, 4))[0]
        assert other not in legal and other.position not in legal
        for thing in (None, "24/18 13/11", 0, START.board, (play.moves, play.position)):
            assert thing not in legal


def test_legal_plays_repr_lists_the_plays() -> None:
    legal = pos("x: 8:1 4:1; o: 13:15").legal_plays((5, 4))
    text = repr(legal)
    assert text.startswith("<LegalPlays 2: ") and text.endswith(">")
    assert set(text[len("<LegalPlays 2: "):-1].split(", ")) == {"8/off", "8/3 4/off"}


def test_positions_of_a_pool_position_carry_the_variant_and_the_pool() -> None:
    """``positions()`` (read before any play is built) are the plays' own positions."""
    p = Position(*rows("x: bar:5 24:1; o: 6:2 13:13"), "acey-deucey", pool=(3, 0))
    for dice in ((3, 3), (6, 5), (2, 1), (5, 5)):
        positions = p.legal_plays(dice).positions()
        plays = list(p.legal_plays(dice))
        assert positions == [play.position for play in plays]
        for q, play in zip(positions, plays, strict=True):
            assert q.variant is p.variant and q.pool == play.position.pool
            assert hash(q) == hash(play.position)


# -- Acey-Deucey: hit checkers and the pool in a play -------------------------


def test_acey_deucey_hit_checkers_enter_first_and_further_entries_come_from_the_pool() -> None:
    """Two hit checkers and three never-entered ones wait: the first two entries of a play
    are the hit checkers (``bar/..``), any more come from the pool (``in/..``)."""
    p = Position(*rows("x: bar:5 24:1; o: 6:2 13:13"), "acey-deucey", pool=(3, 0))
    assert p.bar == (2, 0) and p.pool == (3, 0)
    legal = p.legal_plays((3, 3))
    assert legal
    seen_pool_entry = False
    for play in legal:
        entries = [m for m in play.moves if m.from_point == 25]
        assert [m.from_pool for m in entries] == [False] * min(2, len(entries)) + [True] * (len(entries) - 2)
        seen_pool_entry |= len(entries) > 2
        pool_entries = sum(m.from_pool for m in entries)
        assert play.position.pool == (3 - pool_entries, 0)
        assert play.position.bar == (0, 0)
        assert "in/" in str(play) if len(entries) > 2 else "in/" not in str(play)
    assert seen_pool_entry


def test_acey_deucey_a_hit_checker_that_cannot_enter_stays_on_the_bar() -> None:
    """With the 19-point held only the 5 enters: one hit checker is left on the bar
    (it does not become a pool checker), and the pool still holds three."""
    p = Position(*rows("x: bar:5 24:1; o: 6:2 13:13"), "acey-deucey", pool=(3, 0))
    legal = p.legal_plays((6, 5))
    assert [str(play) for play in legal] == ["bar/20"]
    after = legal[0].position
    assert after.pool == (3, 0) and after.bar == (1, 0)
    assert legal.positions()[0].pool == (3, 0)


# -- the move generator directly: generator_flags and from_blocks --------------


def generated(position: Position, dice: tuple[int, int]) -> LegalPlays:
    """The plays as the engine makes them: the kernel with the position's flags, then from_blocks."""
    ws = movegen.Workspace()
    board = np.frombuffer(position.board, dtype=np.uint8).copy()
    n = movegen.generate(board, dice[0], dice[1], position.generator_flags,
                         position.variant.checkers, ws.boards, ws.moves, ws.table)
    return LegalPlays.from_blocks(position, ws.boards[:n].tobytes(), ws.moves[:n].tobytes(), n)


@pytest.mark.parametrize(
    ("position", "dice"),
    [
        (START, (6, 2)),
        (START, (3, 3)),
        (Position.initial("acey-deucey"), (6, 5)),
        (Position(*rows("x: bar:14 24:1; o: bar:15"), "acey-deucey", pool=(14, 15)), (6, 5)),
        (Position(*rows("x: bar:5 24:1; o: 6:2 13:13"), "acey-deucey", pool=(3, 0)), (3, 3)),
        (pos("x: bar:1 13:5 8:3 6:5 24:1; o: 24:2 13:5 8:3 6:4 20:1"), (4, 3)),
    ],
)
def test_the_kernel_with_generator_flags_gives_the_legal_plays(
    position: Position, dice: tuple[int, int]
) -> None:
    """``generator_flags`` carries the variant's switches and the mover's pool (pool
    checkers may wait, hit ones may not); ``from_blocks`` reads the kernel's blocks."""
    made = generated(position, dice)
    legal = position.legal_plays(dice)
    assert len(made) == len(legal) > 0
    assert made.positions() == legal.positions()
    assert list(made) == list(legal)
    assert [p.moves for p in made] == [p.moves for p in legal]


def test_legal_plays_in_another_thread() -> None:
    """Each thread gets its own generator buffers, made on its first call."""
    cases = [(START, (6, 2)), (START, (1, 1)), (Position.initial("acey-deucey"), (5, 4))]
    expected = [[str(p) for p in position.legal_plays(d)] for position, d in cases]

    def work() -> list[list[str]]:
        return [[str(p) for p in position.legal_plays(d)] for position, d in cases]

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = [f.result() for f in [pool.submit(work), pool.submit(work)]]
    assert results == [expected, expected]


# -- dice ------------------------------------------------------------------------


@pytest.mark.parametrize("dice", [(3.0, 2), (2, 3.0), (3.0, 2.0), (2.5, 2), ("3", 2)])
def test_legal_plays_refuse_what_check_dice_refuses(dice: tuple[object, object]) -> None:
    """Dice are two whole numbers 1..6: a float equal to one is refused, as check_dice does."""
    with pytest.raises(InvalidDiceError):
        check_dice(dice)  # type: ignore[arg-type]
    with pytest.raises(InvalidDiceError):
        START.legal_plays(dice)  # type: ignore[arg-type]


def test_legal_plays_take_any_whole_numbers() -> None:
    expected = set(START.legal_plays((6, 2)).positions())
    for dice in ([6, 2], (np.int64(6), 2), (2, np.int8(6)), iter((6, 2))):
        assert set(START.legal_plays(dice).positions()) == expected  # type: ignore[arg-type]


# -- the value protocol ----------------------------------------------------------


def test_positions_of_different_variants_differ_on_the_same_board() -> None:
    me, opp = list(START.me), list(START.opp)
    standard = Position(me, opp, "standard")
    nack = Position(me, opp, "nackgammon")
    assert standard.board == nack.board and standard.pool == nack.pool
    assert standard != nack and not standard == nack
    assert standard == Position(me, opp) and standard == pickle.loads(pickle.dumps(standard))


def test_distinct_positions_hash_apart() -> None:
    """Equal positions hash alike; distinct ones (the 6-2 replies) do not all share a hash."""
    positions = START.legal_plays((6, 2)).positions() + START.legal_plays((1, 1)).positions()
    assert len({hash(p) for p in positions}) == len(set(positions)) > 10
    acey = [Position(*rows("x: bar:14 24:1; o: bar:15"), "acey-deucey", pool=(n, 15)) for n in (12, 13, 14)]
    assert len({hash(p) for p in acey}) == 3
    for p in positions[:3] + acey:
        assert hash(p) == hash(pickle.loads(pickle.dumps(p)))


@pytest.mark.parametrize(
    "position",
    [
        START,
        Position(list(START.me), list(START.opp), "nackgammon"),
        Position(*rows("x: bar:14 24:1; o: bar:15"), "acey-deucey", pool=(13, 15)),
        Position(*rows("x: bar:3 24:1; o: bar:2"), "acey-deucey", pool=(0, 2)),
        Position.initial("acey-deucey"),
    ],
)
def test_repr_builds_the_position_again(position: Position) -> None:
    text = repr(position)
    assert text.startswith("Position.from_position_id(")
    assert eval(text, {"Position": Position}) == position
    assert ("variant=" in text) == (position.variant != STANDARD)
    assert ("pool=" in text) == (position.pool != (0, 0))


def test_from_position_id_keeps_the_pool() -> None:
    p = Position(*rows("x: bar:5 24:1; o: 6:2 bar:13"), "acey-deucey", pool=(3, 11))
    q = Position.from_position_id(p.position_id, "acey-deucey", pool=(3, 11))
    assert q == p and q.pool == (3, 11) and q.bar == (2, 2)


def test_make_without_a_pool_is_the_checked_position() -> None:
    assert Position._make(START.board, STANDARD) == START
    assert Position._make(START.board, STANDARD).pool == (0, 0)


@pytest.mark.parametrize("use", [len, iter, lambda p: p[0], lambda p: 1 in p])
def test_a_position_is_not_a_sequence(use: object) -> None:
    with pytest.raises(TypeError) as info:
        use(START)  # type: ignore[operator]
    assert str(info.value) == "a Position is not a sequence (use .me, .opp or .board)"


# -- after and apply_steps: the checks and their words -----------------------------


def test_after_reads_notation_for_the_dice_given() -> None:
    assert START.after("24/18 13/11", (6, 2)) == START.after("13/11 24/18", (2, 6))
    with pytest.raises(IllegalPlayError, match="for 6-3"):
        START.after("24/18 13/11", (6, 3))  # a 6-2 play


def test_after_refuses_a_play_of_another_roll_or_position() -> None:
    play = START.legal_plays((6, 2))[0]
    with pytest.raises(IllegalPlayError) as info:
        START.after(play, (5, 4))
    assert str(info.value) == f"{play} is not a legal play of {START.position_id} for (5, 4)"
    other = START.legal_plays((6, 2))[1]
    forged = Play(play.moves, other.position)
    with pytest.raises(IllegalPlayError) as info:
        START.after(forged)
    assert str(info.value) == f"{forged} does not lead from {START.position_id} to its position"
    assert START.after(play) == play.position


def test_apply_steps_words() -> None:
    with pytest.raises(IllegalPlayError) as info:
        START.apply_steps([CheckerMove(8, 5, True)])
    assert str(info.value).endswith("the 5-point has no blot to hit")
    blot = pos("x: 8:3 6:5 13:5 24:2; o: 20:1 24:2 13:5 8:3 6:3")  # o blot on x's 5
    with pytest.raises(IllegalPlayError) as info:
        blot.apply_steps([CheckerMove(8, 5, False)])
    assert str(info.value).endswith("the 5-point has a blot to hit")
    assert blot.apply_steps([CheckerMove(8, 5, True)]).bar == (0, 1)
    with pytest.raises(IllegalPlayError) as info:
        START.apply_steps([(8,)])  # type: ignore[list-item]
    assert str(info.value) == "a step is (from, to), not (8,)"


# -- the single-step rule's codes -------------------------------------------------


@pytest.mark.parametrize(
    ("step", "reason"),
    [
        ((26, 3), StepReason.BAD_POINT),  # no point 26
        ((0, 3), StepReason.BAD_POINT),  # nothing moves from off
        ((-1, 3), StepReason.BAD_POINT),
        ((3, 25), StepReason.BAD_POINT),  # the bar is no landing point
        ((3, -1), StepReason.BAD_POINT),
        ((3.0, 1), StepReason.BAD_POINT),  # points are whole numbers
        ((3, 1.0), StepReason.BAD_POINT),
        ((1, 3), StepReason.WRONG_WAY),  # checkers move toward home only
        ((1, 1), StepReason.WRONG_WAY),
        ((3, 24), StepReason.WRONG_WAY),
        ((24, 24), StepReason.WRONG_WAY),
        ((13, 20), StepReason.WRONG_WAY),
    ],
)
def test_step_fault_tells_a_bad_point_from_a_wrong_way(step: tuple[int, int], reason: StepReason) -> None:
    fault = START.step_fault(*step)
    assert fault is not None and fault.reason is reason


def test_bearing_off_with_a_checker_still_to_enter() -> None:
    """Every other checker home, one still waiting: bearing off is refused with the
    home-board rule's words; in Acey-Deucey the code says the pool has not entered."""
    acey = Position(*rows("x: 6:5 5:5 bar:2; o: bar:15"), "acey-deucey", pool=(2, 15))
    fault = acey.step_fault(6, 0)
    assert fault is not None
    assert fault.reason is StepReason.POOL_NOT_ENTERED and fault.message == BEAR_OFF_HOME
    assert acey.step_problem(6, 0) == BEAR_OFF_HOME
    # A variant whose hit checkers need not enter first: the hit checker outside blocks it.
    free = Variant("free-entry", "Free entry", 15, STANDARD.start, must_enter_first=False)
    p = Position(*rows("x: 6:5 5:5 bar:1; o: 13:15"), free)
    fault = p.step_fault(6, 0)
    assert fault is not None
    assert fault.reason is StepReason.BEAR_OFF_NOT_HOME and fault.message == BEAR_OFF_HOME
    assert p.step_fault(6, 1) is None  # it may move while the other waits
