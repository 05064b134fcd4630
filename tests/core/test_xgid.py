"""eXtreme Gammon XGID: known strings, the player-on-roll view, round trips, bad input."""

from __future__ import annotations

import doctest
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boards import pos
from gammon.core.errors import InvalidIdError
from gammon.core.position import Position
from gammon.core.xgid import XgidState, format_xgid, parse_xgid

START = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def mirror(xgid: str) -> str:
    """The same XGID drawn from the other side: the top player becomes the bottom one."""
    board, cube, place, turn, dice, s1, s2, *rest = xgid.removeprefix("XGID=").split(":")
    flipped = board[::-1].swapcase()
    return "XGID=" + ":".join(
        [flipped, cube, str(-int(place)), str(-int(turn)), dice, s2, s1, *rest]
    )


def random_position(rng: random.Random, plies: int) -> Position:
    """A position reached by ``plies`` random legal plays from the start."""
    p = Position.initial()
    for _ in range(plies):
        legal = p.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        if legal:
            p = legal[rng.randrange(len(legal))].position
        if p.is_game_over:
            break
        p = p.swap()
    return p


def test_start_position() -> None:
    s = parse_xgid(START)
    assert s == XgidState(position=Position.initial())
    assert s.max_cube == 1024 and s.is_money and s.dice is None
    assert format_xgid(s) == START
    assert Position.initial().xgid == START
    assert Position.from_xgid(START) == Position.initial()
    assert Position.xgid_state(START) == s


def test_money_rules_and_dice() -> None:
    text = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"
    s = parse_xgid(text)
    assert s.dice == (5, 2) and s.jacoby and s.beaver
    assert format_xgid(s) == text
    assert parse_xgid(text.replace(":3:0:10", ":1:0:10")).beaver is False
    assert parse_xgid(text.replace(":3:0:10", ":2:0:10")).jacoby is False


def test_letters_belong_to_the_bottom_and_top_players() -> None:
    # After the first player (top) played 8/5 6/5 the bottom player is on roll.
    # GNU Backgammon shows that position (the side on roll untouched) as
    # sGfwATDgc/ABMA (recorded in the referee's README from gnubg 1.07).
    s = parse_xgid("XGID=-b----E-C---eE---b-db---B-:0:0:1:00:0:0:0:0:10")
    assert s.position.position_id == "sGfwATDgc/ABMA"
    assert s.position.me == Position.initial().me  # bottom player, on roll
    assert s.position.opp[4] == 2 and s.position.opp[5] == 4 and s.position.opp[7] == 2


def test_top_player_on_roll() -> None:
    text = "XGID=-A-CCD-----a---a------dfc-:4:1:-1:33:1:0:0:9:10"
    s = parse_xgid(text)
    assert s.turn == -1
    # Lower-case letters are the top player's, now on roll: 1 on his 14, 1 on his
    # 10, then 4, 6 and 3 checkers on his 3, 2 and 1 points.
    assert s.position.pip_counts == (14 + 10 + 4 * 3 + 6 * 2 + 3, 51 - 9)
    assert s.position.me[13] == 1 and s.position.me[0] == 3
    assert s.cube_value == 16 and s.cube_owner == -1  # the bottom player (opponent) owns it
    assert s.score == (0, 1)  # (player on roll = top, bottom)
    assert s.dice == (3, 3) and s.match_length == 9 and not s.crawford
    assert format_xgid(s) == text


def test_mirror_is_the_same_state_from_the_other_side() -> None:
    text = "XGID=-A-CCD-----a---a------dfc-:4:1:-1:33:1:0:0:9:10"
    a, b = parse_xgid(text), parse_xgid(mirror(text))
    assert a.position == b.position and a.score == b.score and a.cube_owner == b.cube_owner
    assert (a.turn, b.turn) == (-1, 1)
    assert format_xgid(b) == mirror(text)


def test_bars() -> None:
    text = "XGID=aa----E-C---eE---c-e-----B:0:0:1:00:0:0:0:0:10"
    s = parse_xgid(text)
    # Character 0 is the top player's bar, character 25 the bottom player's.
    assert s.position.bar == (2, 1)
    assert s.position.me[23] == 0 and s.position.opp[23] == 1
    assert format_xgid(s) == text


def test_older_form_without_max_cube_and_loose_prefix() -> None:
    s = parse_xgid("-b----E-C---eE---c-e----B-:1:-1:1:00:0:0:1:0")
    assert s.cube_value == 2 and s.cube_owner == -1 and s.jacoby and s.max_cube == 1024
    assert format_xgid(s) == "XGID=-b----E-C---eE---c-e----B-:1:-1:1:00:0:0:1:0:10"
    assert parse_xgid("  xgid=" + START[5:] + "\n") == parse_xgid(START)


def test_cube_offers() -> None:
    base = "XGID=-b----E-C---eE---c-e----B-:1:1:1:{}:0:0:3:0:10"
    d, b, r = (parse_xgid(base.format(x)) for x in "DBR")
    assert d.double_offered and not d.beavered and d.dice is None
    assert b.double_offered and b.beavered and not b.raccooned
    assert r.raccooned
    for x in "DBR":
        assert format_xgid(parse_xgid(base.format(x))) == base.format(x)


def test_match_fields() -> None:
    text = "XGID=-b----E-C---eE---c-e----B-:2:1:1:64:6:2:1:7:10"
    s = parse_xgid(text)
    assert s.crawford and s.match_length == 7 and s.score == (6, 2) and s.cube_value == 4
    assert not s.jacoby and not s.beaver
    assert format_xgid(s) == text
    assert parse_xgid(text.replace(":1:7:", ":0:7:")).crawford is False


def test_variants_and_fewer_checkers() -> None:
    s = parse_xgid("XGID=-a----------------------B-:0:0:1:00:0:0:0:0:10", variant="hypergammon")
    assert s.position.variant.name == "hypergammon"
    assert s.position.checkers_off == (1, 2)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0", "9 fields"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10:3", "9 fields"),
        ("", "9 fields"),
        ("XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10", "25 characters"),
        ("XGID=-b----E-C---eE---c-e----B-x:0:0:1:00:0:0:0:0:10", "27 characters"),
        ("XGID=-b----E-C---eE---c-e----B?:0:0:1:00:0:0:0:0:10", "'?'"),
        ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "top player's bar"),
        ("XGID=-b----E-C---eE---c-e----Ba:0:0:1:00:0:0:0:0:10", "bottom player's bar"),
        ("XGID=-b----P-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "impossible position"),
        ("XGID=-b----E-C---eE---c-e---BB-:0:0:1:00:0:0:0:0:10", "17 checkers"),
        ("XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10", "whole number"),
        ("XGID=-b----E-C---eE---c-e----B-:13:0:1:00:0:0:0:0:10", "cube field 13"),
        ("XGID=-b----E-C---eE---c-e----B-:-1:0:1:00:0:0:0:0:10", "cube field -1"),
        ("XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10", "cube position 2"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10", "turn 0"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:70:0:0:0:0:10", "dice field '70'"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:5:0:0:0:0:10", "dice field '5'"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:X:0:0:0:0:10", "dice field 'X'"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:-1:0:0:0:10", "negative"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:7:0:0:7:10", "not below the match length"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:2:7:10", "in a match"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:4:0:10", "in a money game"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:-3:10", "negative"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:16", "max cube field 16"),
        ("XGID=-b----E-C---eE---c-e----B-:4:0:1:00:0:0:0:0:3", "above the maximum cube"),
        ("XGID=-b----E-C---eE---c-e----B-:1:1:1:B:0:0:0:5:10", "no beavers in match play"),
    ],
)
def test_bad_xgids(text: str, words: str) -> None:
    with pytest.raises(InvalidIdError) as info:
        parse_xgid(text)
    assert words in str(info.value)
    assert "XGID" in str(info.value)


def test_non_text_is_rejected() -> None:
    with pytest.raises(InvalidIdError, match="text"):
        parse_xgid(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"cube_value": 3},
        {"cube_owner": 2},
        {"turn": 0},
        {"dice": (0, 1)},
        {"dice": (3, 1), "double_offered": True},
        {"beavered": True},
        {"double_offered": True, "raccooned": True},
        {"match_length": 5, "jacoby": True},
        {"match_length": 5, "score": (0, 5)},
        {"crawford": True},
        {"score": (-1, 0)},
        {"max_cube": 3},
        {"cube_value": 4, "max_cube": 2},
    ],
)
def test_impossible_states_cannot_be_built(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidIdError, match="impossible XGID state"):
        XgidState(position=Position.initial(), **kwargs)  # type: ignore[arg-type]


def test_position_of_fixture() -> None:
    # x (on roll): 2 on the bar, 6-point 3; o: 1 on the bar, 5 on his 1-point.
    p = pos("x: bar:2 6:3; o: bar:1 1:5")
    text = format_xgid(XgidState(position=p))
    assert text.split(":")[0] == "XGID=a-----C-----------------eB"
    assert parse_xgid(text).position == p


@st.composite
def states(draw: st.DrawFn) -> XgidState:
    rng = random.Random(draw(st.integers(0, 2**32)))
    position = random_position(rng, draw(st.integers(0, 80)))
    length = draw(st.sampled_from([0, 0, 1, 3, 5, 7, 11, 25]))
    max_log = draw(st.integers(0, 15))
    cube_log = draw(st.integers(0, min(max_log, 12)))
    offer = draw(st.integers(0, 3 if length == 0 else 1))
    rolled = offer == 0 and draw(st.booleans())
    return XgidState(
        position=position,
        cube_value=1 << cube_log,
        cube_owner=draw(st.sampled_from([-1, 0, 1])),
        dice=(draw(st.integers(1, 6)), draw(st.integers(1, 6))) if rolled else None,
        score=(
            (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
            if length
            else (draw(st.integers(0, 50)), draw(st.integers(0, 50)))
        ),
        match_length=length,
        crawford=bool(length) and draw(st.booleans()),
        jacoby=not length and draw(st.booleans()),
        beaver=not length and draw(st.booleans()),
        max_cube=1 << max_log,
        double_offered=offer >= 1,
        beavered=offer >= 2,
        raccooned=offer >= 3,
        turn=draw(st.sampled_from([1, -1])),
    )


@settings(max_examples=150, deadline=None)
@given(states())
def test_state_round_trip(state: XgidState) -> None:
    text = format_xgid(state)
    assert parse_xgid(text) == state
    assert format_xgid(parse_xgid(text)) == text
    assert parse_xgid(mirror(text)).position == state.position
    assert Position.from_xgid(text) == state.position


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 120))
def test_reachable_positions_round_trip(seed: int, plies: int) -> None:
    p = random_position(random.Random(seed), plies)
    assert Position.from_xgid(p.xgid) == p
    assert parse_xgid(p.xgid).position.position_id == p.position_id


def test_docstring_examples() -> None:
    from gammon.core import xgid

    result = doctest.testmod(xgid)
    assert result.attempted > 0 and result.failed == 0
