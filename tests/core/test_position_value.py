"""A Position is a value: built cheaply as a tuple underneath, but never usable as a sequence.

The move generator's object API builds one position per legal play, so a
position is a tuple subclass (one C call to build); these tests pin down that
the tuple stays hidden and that plays built in bulk are the same values as
positions built one checker step at a time.
"""

from __future__ import annotations

import copy
import pickle

import pytest

from gammon import Position
from gammon.core.plays import Play


def test_a_position_is_not_a_sequence() -> None:
    p = Position.initial()
    for op in (len, list, lambda x: x[0], lambda x: 1 in x):
        with pytest.raises(TypeError):
            op(p)
    with pytest.raises(TypeError):
        p + p  # noqa: B018
    with pytest.raises(TypeError):
        p * 2  # noqa: B018
    with pytest.raises(TypeError):
        p < p  # noqa: B015
    assert bool(p)


def test_a_position_is_immutable() -> None:
    p = Position.initial()
    with pytest.raises(AttributeError):
        p._board = bytes(50)  # type: ignore[misc]
    with pytest.raises(AttributeError):
        p.extra = 1  # type: ignore[attr-defined]


def test_equality_is_by_value_and_never_with_a_plain_tuple() -> None:
    p = Position.initial()
    q = Position(p.me, p.opp)
    assert p == q and hash(p) == hash(q)
    assert p != (p.board, p.variant, 0)
    assert (p.board, p.variant, 0) != p
    assert p != Position.initial("nackgammon")


@pytest.mark.parametrize("variant", ["standard", "acey-deucey", "hypergammon"])
def test_pickle_and_copies_keep_the_value(variant: str) -> None:
    p = Position.initial(variant)
    for other in (pickle.loads(pickle.dumps(p)), copy.copy(p), copy.deepcopy(p)):
        assert other == p and hash(other) == hash(p)
        assert type(other) is Position
        assert other.pool == p.pool and other.variant == p.variant


def test_plays_built_in_bulk_match_steps_applied_one_by_one() -> None:
    # 24/18 13/11 and the rest: each play's position is the one its checker steps reach.
    p = Position.initial()
    plays = p.legal_plays((6, 2))
    assert len(plays) == len(list(plays)) == len(plays.positions())
    for play in plays:
        assert p.apply_steps(play.moves) == play.position
        assert type(play.position) is Position
    assert plays[0] == list(plays)[0] and plays[-1] == list(plays)[-1]
    assert plays[1:3] == list(plays)[1:3]
    with pytest.raises(IndexError):
        plays[len(plays)]


def test_dice_fast_path_still_refuses_bad_dice() -> None:
    p = Position.initial()
    for bad in ((1.0, 2.0), (0, 3), (7, 1), ([1], 2), (1, 2, 3), "12"):
        with pytest.raises(ValueError):
            p.legal_plays(bad)  # type: ignore[arg-type]
    assert len(p.legal_plays([3, 1])) == len(p.legal_plays((3, 1))) == len(p.legal_plays((True, 3)))


def test_a_play_is_the_pair_of_its_moves_and_position() -> None:
    # A generated play keeps its moves packed until asked; it must still read, unpack,
    # pickle and copy as the pair (moves, position).
    p = Position.initial()
    play = p.parse_play("8/5 6/5", (3, 1))
    generated = next(x for x in p.legal_plays((3, 1)) if x == play)
    moves, position = generated
    assert [str(m) for m in moves] == ["8/5", "6/5"]
    assert moves == generated.moves == generated[0] and position is generated.position
    assert len(generated) == 2 and generated.dice_used == 2 and generated.hits == 0
    for other in (pickle.loads(pickle.dumps(generated)), copy.copy(generated), copy.deepcopy(generated)):
        assert other == generated and other.moves == moves and other.position == position
    built = Play(moves, position)
    assert built == generated and built.moves == moves and str(built) == str(generated) == "8/5 6/5"
    assert Play((), p).moves == () and str(Play((), p)) == ""
