"""Move notation: what players write, read back into the one legal play it names."""

from __future__ import annotations

import doctest
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boards import pos, rows
from gammon.core.errors import (
    AmbiguousPlayError,
    GammonError,
    IllegalPlayError,
    InvalidDiceError,
    PlaySyntaxError,
)
from gammon.core.notation import ALL_ROLLS, Segment, parse_play, parse_segments
from gammon.core.plays import Play
from gammon.core.position import Position
from shared_files import find_vectors

VECTORS = find_vectors()
needs_vectors = pytest.mark.skipif(
    VECTORS is None, reason="shared vectors: not beside the repository (../shared/referee)")
START = Position.initial()


def random_position(rng: random.Random, plies: int) -> Position:
    """A position reached by ``plies`` random legal plays from the start."""
    p = START
    for _ in range(plies):
        legal = p.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        if legal:
            p = legal[rng.randrange(len(legal))].position
        if p.is_game_over:
            break
        p = p.swap()
    return p


def moved(position: Position, text: str, dice: tuple[int, int] | None = None) -> str:
    return str(parse_play(position, text, dice))


# -- what players write --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "dice", "expected"),
    [
        ("24/18 13/11", (6, 2), "24/18 13/11"),
        ("13/11 24/18", (6, 2), "24/18 13/11"),
        ("24/18 13/11", None, "24/18 13/11"),
        ("  24 / 18 ,  13/11  ", None, "24/18 13/11"),
        ("24-18 13-11", None, "24/18 13/11"),
        ("13/11(2) 6/4(2)", (2, 2), "13/11(2) 6/4(2)"),
        ("13/11 (2) 6/4 (2)", (2, 2), "13/11(2) 6/4(2)"),
        ("13/11 13/11 6/4 6/4", (2, 2), "13/11(2) 6/4(2)"),
        ("24/13", (6, 5), "24/13"),
        ("24/18/13", (6, 5), "24/13"),
        ("24/18 18/13", (6, 5), "24/13"),
        ("13/7 8/7", (6, 1), "13/7 8/7"),
        ("8/5 6/5", None, "8/5 6/5"),
        ("31: 8/5 6/5", None, "8/5 6/5"),
        ("3-1: 8/5 6/5", (1, 3), "8/5 6/5"),
        ("13/9(2)", None, "13/9(2)"),
        ("13/5(2)", (4, 4), "13/5(2)"),
        ("24/16 13/5", (4, 4), "24/16 13/5"),
    ],
)
def test_start_position_plays(text: str, dice: tuple[int, int] | None, expected: str) -> None:
    assert moved(START, text, dice) == expected


def test_bar_hits_and_case() -> None:
    p = pos("x: bar:1 13:5 8:3 6:5 24:1; o: 24:2 13:5 8:3 6:4 20:1")  # o blot on x's 5
    for text in ("bar/21 8/5*", "BAR/21 8/5", "b/21 8/5*", "25/21 8/5", "8/5* bar/21", "Bar/21, 8/5*"):
        assert moved(p, text, (4, 3)) == "bar/21 8/5*"


def test_hit_in_the_middle() -> None:
    p = pos("x: 8:2 6:5; o: 21:1 23:2")  # o blot on x's 4, o point on x's 2
    assert moved(p, "8/4*/1", (4, 3)) == "8/4*/1"
    assert moved(p, "8/4*/1", None) == "8/4*/1"
    assert moved(p, "8/4* 4/1", (4, 3)) == "8/4*/1"
    assert moved(p, "8/1", (4, 3)) == "8/1"  # 8/5/1 passes the blot by


def test_quiet_route_wins_when_the_text_writes_no_hit() -> None:
    # o has a blot on x's 18 point; 24/19/13 passes it by, 24/18*/13 hits it.
    p = pos("x: 24:2 13:5 8:3 6:5; o: 7:1 13:5 8:3 5:4 24:2")
    assert moved(p, "24/13", (6, 5)) == "24/13"
    assert moved(p, "24/18*/13", (6, 5)) == "24/18*/13"
    assert moved(p, "24/18/13", (6, 5)) == "24/18*/13"  # the written stop is on the blot
    assert moved(p, "24/13", None) == "24/13"


def test_two_ways_to_hit_are_ambiguous() -> None:
    # Blots on x's 18 and 19: 24/13 with 6-5 hits one or the other.
    p = pos("x: 24:2 13:5 8:3 6:5; o: 7:1 6:1 13:5 8:3 5:3 24:2")
    with pytest.raises(AmbiguousPlayError) as info:
        parse_play(p, "24/13", (6, 5))
    message = str(info.value)
    assert "24/18*/13" in message and "24/19*/13" in message
    assert moved(p, "24/19*/13", (6, 5)) == "24/19*/13"


def test_ambiguous_without_dice() -> None:
    # 24/20 is 3-1, hitting on the 21 or on the 23 point (or 1-1 hitting both).
    p = pos("x: 24:1 6:5; o: 4:1 2:1 13:2")  # o blots on x's 21 and 23
    with pytest.raises(AmbiguousPlayError, match="3-1: 24/23\\*/20|3-1: 24/21\\*/20"):
        parse_play(p, "24/20")


def test_bearing_off() -> None:
    p = pos("x: 4:1 3:1 2:2; o: 13:15")
    assert moved(p, "4/off 3/off", (6, 5)) == "4/off 3/off"
    assert moved(p, "4/0 3/0", (6, 5)) == "4/off 3/off"
    assert moved(p, "4/OFF 3/o", (6, 5)) == "4/off 3/off"
    assert moved(p, "4/off", (6, 1)) == "4/off"  # 4/3/off: one checker, both dice
    assert moved(p, "4/off 2/1", (6, 1)) == "4/off 2/1"
    assert moved(p, "4/off(1) 3/off 2/off(2)", (6, 6)) == "4/off 3/off 2/off(2)"
    q = pos("x: 6:1 5:1; o: 13:15")
    assert moved(q, "6/off 5/off", (6, 5)) == "6/off 5/off"
    assert moved(q, "6/1/off 5/off", (5, 5)) == "6/off 5/off"


def test_pass() -> None:
    closed = pos("x: bar:1 24:14; o: 19:2 20:2 21:2 22:2 23:2 24:2 6:3")
    for text in ("", "pass", "  PASS ", "-", "no move"):
        play = parse_play(closed, text, (6, 6))
        assert play.moves == () and play.position == closed
    assert parse_play(closed, "").position == closed  # some roll cannot move
    with pytest.raises(IllegalPlayError, match="cannot move with 6-6"):
        parse_play(closed, "bar/19", (6, 6))
    with pytest.raises(IllegalPlayError, match="names no move, but 6-2 has"):
        parse_play(START, "pass", (6, 2))
    with pytest.raises(IllegalPlayError, match="every roll has a legal play"):
        parse_play(START, "")


def test_segments() -> None:
    assert [str(s) for s in parse_segments("bar/22*/16 13/11(2) 6/off")] == [
        "bar/22*", "22/16", "13/11", "13/11", "6/off",
    ]
    assert parse_segments("pass") == []


# -- errors -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        ("24/18 13/x", 10, "a point"),
        ("24/18 13/", 10, "a point"),
        ("24", 3, "'/'"),
        ("24/18 13", 9, "'/'"),
        ("26/18", 1, "0 (off) to 25"),
        ("off/3", 1, "move from"),
        ("6/bar", 3, "move to"),
        ("13/15", 4, "below 13"),
        ("13/13", 4, "below 13"),
        ("6/off*", 6, "no '*'"),
        ("13/11(5)", 7, "repeat count"),
        ("13/11(x)", 7, "repeat count"),
        ("13/11(2", 8, "')'"),
        ("13/11)", 6, "a space between moves"),
        ("13/11*8/5", 7, "a space between moves"),
        ("hello", 1, "a point"),
        ("24/18 13//11", 10, "a point"),
    ],
)
def test_syntax_errors_name_the_place(text: str, column: int, words: str) -> None:
    with pytest.raises(PlaySyntaxError) as info:
        parse_play(START, text, (6, 2))
    message = str(info.value)
    assert f"at character {column} " in message
    assert words in message
    assert info.value.offset == column - 1  # type: ignore[attr-defined]


def test_illegal_play_lists_the_closest() -> None:
    with pytest.raises(IllegalPlayError) as info:
        parse_play(START, "24/18 13/11", (6, 3))
    message = str(info.value)
    assert message.startswith("no legal play for 6-3 moves 24/18 13/11")
    closest = message.split("closest legal plays: ")[1].split(", ")
    assert len(closest) == 5 and "24/18 13/10" in closest


@pytest.mark.parametrize(
    ("text", "dice", "words"),
    [
        ("24/18* 13/11", (6, 2), "nothing to hit on the 18-point"),
        ("13/7* 13/11", (6, 2), "nothing to hit on the 7-point"),
        ("24/19", (5, 5), "the 19-point is held by the opponent"),
        ("bar/22", (3, 1), "more checkers from the bar"),
        ("9/3", (6, 2), "more checkers from the 9-point"),
        ("6/off", (6, 6), "no legal play for 6-6"),
        ("24/18", (6, 2), "no legal play for 6-2"),  # must use both dice
        ("24/18 13/11 8/6", (6, 2), "no legal play for 6-2"),
        ("24/18 13/11", (6, 6), "no legal play for 6-6"),
        ("8/4 6/2", (6, 2), "no legal play for 6-2"),  # right net result, wrong dice
        ("6/5(3)", None, "no legal play for any roll moves 6/5 6/5 6/5"),
        ("63: 24/18 13/10", (6, 2), "written for 6-3"),
    ],
)
def test_illegal_plays(text: str, dice: tuple[int, int] | None, words: str) -> None:
    with pytest.raises(IllegalPlayError, match=words):
        parse_play(START, text, dice)


def test_bad_dice() -> None:
    with pytest.raises(InvalidDiceError):
        parse_play(START, "24/18 13/11", (7, 2))
    with pytest.raises(PlaySyntaxError):
        parse_play(START, None)  # type: ignore[arg-type]


def test_position_method() -> None:
    assert START.parse_play("24/18 13/11", (6, 2)) == parse_play(START, "24/18 13/11", (2, 6))


# -- properties ----------------------------------------------------------------


def written_variants(play: Play, rng: random.Random) -> list[str]:
    """Other ways to write ``play``: step by step, shuffled, upper case, no asterisks."""
    steps = [str(m) for m in play.moves]
    shuffled = steps[:]
    rng.shuffle(shuffled)
    return [
        " ".join(steps),
        " ".join(shuffled).upper(),
        ", ".join(reversed(str(play).split())),
    ]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 100), st.sampled_from(ALL_ROLLS))
def test_every_legal_play_reads_back(seed: int, plies: int, dice: tuple[int, int]) -> None:
    rng = random.Random(seed)
    p = random_position(rng, plies)
    legal = p.legal_plays(dice)
    for play in legal:
        assert parse_play(p, str(play), dice) == play
        assert parse_play(p, str(play), dice[::-1]) == play
        for text in written_variants(play, rng):
            assert parse_play(p, text, dice) == play, text
    if not legal:
        assert parse_play(p, "", dice).position == p


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 100), st.sampled_from(ALL_ROLLS))
def test_without_dice_the_written_play_still_names_its_position(
    seed: int, plies: int, dice: tuple[int, int]
) -> None:
    p = random_position(random.Random(seed), plies)
    for play in list(p.legal_plays(dice))[:12]:
        assert parse_play(p, str(play)).position == play.position


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789/*() ,-barofBAROF", max_size=24))
def test_any_text_gives_a_play_or_a_gammon_error(text: str) -> None:
    try:
        play = parse_play(START, text, (6, 4))
    except GammonError:
        return
    assert play in START.legal_plays((6, 4))


# -- the referee's vectors ---------------------------------------------------------


VectorCase = tuple[str, str, tuple[int, int], str, str]


def _vector_cases() -> list[VectorCase]:
    """(vector id, position ID, dice, expected result ID, notation) samples per vector."""
    cases: list[VectorCase] = []
    assert VECTORS is not None
    with VECTORS.open() as f:
        for line in f:
            v = json.loads(line)
            legal = [e for e in v["legal"] if e["move"]]
            # Every vector, up to 4 of its plays (first, last and two between).
            picks = {0, len(legal) - 1, len(legal) // 3, 2 * len(legal) // 3} if legal else set()
            for i in sorted(picks):
                e = legal[i]
                for text in (e["move"], e["move_compact"]):
                    dice = (v["dice"][0], v["dice"][1])
                    cases.append((v["id"], v["position_id"], dice, e["position_id"], text))
    return cases


@needs_vectors
def test_referee_vectors() -> None:
    failures = []
    for vid, pid, dice, want, text in _vector_cases():
        position = Position.from_position_id(pid)
        try:
            got = parse_play(position, text, dice).position.position_id
        except GammonError as exc:
            failures.append(f"{vid} {text!r}: {exc}")
            continue
        if got != want:
            failures.append(f"{vid} {text!r}: got {got}, want {want}")
    assert not failures, "\n".join(failures[:20])


@needs_vectors
def test_referee_no_move_vectors() -> None:
    assert VECTORS is not None
    with VECTORS.open() as f:
        vectors = [json.loads(line) for line in f]
    blocked = [v for v in vectors if v["dice_used"] == 0]
    for v in blocked:
        p = Position.from_position_id(v["position_id"])
        assert parse_play(p, "", tuple(v["dice"])).position.position_id == v["position_id"]


def test_docstring_examples() -> None:
    from gammon.core import notation

    result = doctest.testmod(notation)
    assert result.attempted > 0 and result.failed == 0


# -- more of what players write (from the notation's rules) -----------------------


def test_acey_deucey_pool_entries_are_written_in() -> None:
    # Acey-Deucey: a checker that never entered comes in from the pool, written in/.. .
    p = Position(*rows("x: bar:14 24:1; o: bar:15"), "acey-deucey", pool=(14, 15))
    assert moved(p, "in/20 in/19", (6, 5)) == "in/20 in/19"
    assert moved(p, "IN/19, In/20", (5, 6)) == "in/20 in/19"
    assert moved(p, "in/14", (6, 5)) == "in/14"  # one checker in with both dice
    assert moved(p, "in/20/14", (6, 5)) == "in/14"
    assert moved(p, "in/20 24/18", (6, 5)) == "in/20 24/18"
    # Only the first step of a part starts in the pool; a second 'in' is a second checker.
    segments = parse_segments("in/22/16 In/20")
    assert [(str(s), s.from_pool) for s in segments] == [
        ("in/22", True), ("22/16", False), ("in/20", True),
    ]


def test_more_pool_entries_than_the_pool_holds() -> None:
    # Two checkers wait off the board, but only one never entered (the other was hit).
    p = Position(*rows("x: bar:2 24:13; o: bar:15"), "acey-deucey", pool=(1, 15))
    with pytest.raises(IllegalPlayError, match=r"2 checker\(s\) enter from the pool .*but 1 "):
        parse_play(p, "in/20 in/19", (6, 5))
    full = Position(*rows("x: bar:2 24:13; o: bar:15"), "acey-deucey", pool=(2, 15))
    assert moved(full, "in/20 in/19", (6, 5)) == "in/20 in/19"  # as many as wait: fine


@pytest.mark.parametrize(
    "text",
    ["66: pass", "6-6:", "6 6 : no move", "none", "no play", "cannot move", "can't move",
     "(no move)", "No   Move", "\tpass"],
)
def test_every_way_to_write_no_move(text: str) -> None:
    closed = pos("x: bar:1 24:14; o: 19:2 20:2 21:2 22:2 23:2 24:2 6:3")  # 6-6 cannot enter
    play = parse_play(closed, text, (6, 6))
    assert play.moves == () and play.position == closed


def test_a_written_roll_must_match_the_dice() -> None:
    closed = pos("x: bar:1 24:14; o: 19:2 20:2 21:2 22:2 23:2 24:2 6:3")
    assert parse_play(closed, "66: pass").moves == ()  # the written roll is the roll
    with pytest.raises(IllegalPlayError, match="written for 6-6 but the roll is 6-2"):
        parse_play(closed, "66: pass", (6, 2))
    with pytest.raises(IllegalPlayError, match="written for 6-3 but the roll is 6-2"):
        parse_play(START, "6-3: 24/18 13/10", (6, 2))


def test_pass_when_a_play_exists_counts_the_plays() -> None:
    last = pos("x: 1:1; o: 13:15")  # 6-5 has exactly one play: 1/off
    with pytest.raises(IllegalPlayError, match=r"6-5 has 1 legal play here \(for example 1/off\)"):
        parse_play(last, "pass", (6, 5))
    with pytest.raises(IllegalPlayError, match=r"'pass' names no move, but 6-5 has 7 legal plays here") as info:
        parse_play(START, "pass", (6, 5))
    examples = str(info.value).split("(for example ")[1].rstrip(")").split(", ")
    assert len(examples) == 5 and set(examples) <= {str(p) for p in START.legal_plays((6, 5))}


def test_spacing_tabs_and_repeats() -> None:
    assert moved(START, "24/18\t13/11", (6, 2)) == "24/18 13/11"
    assert moved(START, "24 /18 13/ 11", (6, 2)) == "24/18 13/11"
    assert moved(START, "24/18,13/11", (6, 2)) == "24/18 13/11"
    assert moved(START, "13/11( 2 ) 6/4 (2)", (2, 2)) == "13/11(2) 6/4(2)"
    assert moved(START, "13/11(4)", (2, 2)) == "13/11(4)"  # four is the most a double moves
    assert moved(START, "13/11(1) 24/18(1)", (6, 2)) == "24/18 13/11"


@pytest.mark.parametrize(
    ("text", "column", "found"),
    [
        ("13/11(0)", 7, "found '0'"),
        ("13/11(2", 8, "found the end"),
        ("24/18 13/", 10, "found the end"),
        (",24/18", 1, "found ','"),
        ("24 - 18", 3, "found ' '"),  # the dash joins a move only when written tight: 24-18
        ("hello", 1, "found 'h'"),
        ("24/18 13/27", 10, "found '2'"),
    ],
)
def test_syntax_errors_say_what_was_found(text: str, column: int, found: str) -> None:
    with pytest.raises(PlaySyntaxError) as info:
        parse_play(START, text, (6, 2))
    message = str(info.value)
    assert message.startswith(f"cannot read the play {text!r}: at character {column} expected ")
    assert message.endswith(found)


def test_a_play_is_text() -> None:
    with pytest.raises(PlaySyntaxError, match="a play is text, not NoneType"):
        parse_play(START, None)  # type: ignore[arg-type]
    with pytest.raises(PlaySyntaxError, match="a play is text, not int"):
        parse_segments(2413)  # type: ignore[arg-type]


def test_ambiguity_messages_say_how_to_fix_them() -> None:
    p = pos("x: 24:2 13:5 8:3 6:5; o: 7:1 6:1 13:5 8:3 5:3 24:2")  # blots on x's 18 and 19
    with pytest.raises(AmbiguousPlayError) as info:
        parse_play(p, "24/13", (6, 5))
    message = str(info.value)
    assert message.startswith("the play '24/13' fits 2 legal plays for 6-5: ")
    assert message.endswith("write the play in full (with '*' for hits)")
    q = pos("x: 24:1 6:5; o: 4:1 2:1 13:2")
    with pytest.raises(AmbiguousPlayError) as info:
        parse_play(q, "24/20")
    message = str(info.value)
    assert "fits 2 legal plays for any roll: 3-1: " in message
    assert message.endswith("(with '*' for hits) or give the dice")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("24/18 13//11", "at character 10 expected a point: a number 0-25, 'bar' or 'off', found '/'"),
        ("24/18 13/x", "at character 10 expected a point: a number 0-25, 'bar' or 'off', found 'x'"),
        ("26/18", "at character 1 expected a point from 0 (off) to 25 (the bar), found '2'"),
        ("24/18X13/11", "at character 6 expected a space between moves, or '*', '/' or '(n)' after a point, "
         "found 'X'"),
        ("24/18 13/11 x", "at character 13 expected a point: a number 0-25, 'bar' or 'off', found 'x'"),
        ("off/3", "at character 1 expected a point a checker can move from (1-24 or bar), not off, found 'o'"),
        ("6/bar", "at character 3 expected a point a checker can move to (24 down to off), not the bar, "
         "found 'b'"),
        ("13/15", "at character 4 expected a point below 13: checkers move down to off, found '1'"),
        ("6/off*", "at character 6 expected no '*' after off: a checker borne off hits nothing, found '*'"),
        ("24", "at character 3 expected '/' and the point the checker moves to, found the end"),
        ("13/11(9)", "at character 7 expected a repeat count from 1 to 4, found '9'"),
        ("13/11(2]", "at character 8 expected ')' closing the repeat count, found ']'"),
    ],
)
def test_syntax_error_messages_in_full(text: str, message: str) -> None:
    with pytest.raises(PlaySyntaxError) as info:
        parse_play(START, text, (6, 2))
    assert str(info.value) == f"cannot read the play {text!r}: {message}"


def test_segments_say_where_they_hit() -> None:
    assert parse_segments("24/18 8/5*/3 in/22") == [
        Segment(24, 18, hit=False, from_pool=False),
        Segment(8, 5, hit=True, from_pool=False),
        Segment(5, 3, hit=False, from_pool=False),
        Segment(25, 22, hit=False, from_pool=True),
    ]
    assert all(type(s.hit) is bool and type(s.from_pool) is bool for s in parse_segments("24/18/13 6/off"))


def test_a_written_roll_limits_the_rolls_tried() -> None:
    # 24/18 13/10 is 6-3; written for 6-2 it names no legal play, though another roll has it.
    with pytest.raises(IllegalPlayError, match="no legal play for 6-2 moves 24/18 13/10"):
        parse_play(START, "62: 24/18 13/10")
    assert moved(START, "63: 24/18 13/10") == "24/18 13/10"


def test_illegal_play_messages_in_full() -> None:
    with pytest.raises(IllegalPlayError) as info:
        parse_play(START, "24/18", (6, 2))  # both dice must be played: no reason beyond that
    assert str(info.value).startswith("no legal play for 6-2 moves 24/18; closest legal plays: ")
    with pytest.raises(IllegalPlayError) as info:
        parse_play(START, "24/18* 13/7*", (6, 6))
    assert str(info.value).startswith(
        "no legal play for 6-6 moves 24/18* 13/7*: nothing to hit on the 18-point: it is empty; "
        "nothing to hit on the 7-point: it is empty; closest legal plays: "
    )
    closed = pos("x: bar:1 24:14; o: 19:2 20:2 21:2 22:2 23:2 24:2 6:3")
    with pytest.raises(IllegalPlayError) as info:
        parse_play(closed, "bar/19", (6, 6))
    assert str(info.value) == (
        "no legal play for 6-6 moves bar/19: the 19-point is held by the opponent (3); "
        "the player on roll cannot move with 6-6 (write an empty play or 'pass')"
    )


def test_ambiguous_plays_are_listed_one_by_one() -> None:
    p = pos("x: 24:2 13:5 8:3 6:5; o: 7:1 6:1 13:5 8:3 5:3 24:2")  # blots on x's 18 and 19
    with pytest.raises(AmbiguousPlayError) as info:
        parse_play(p, "24/13", (6, 5))
    listed = str(info.value).split("for 6-5: ", 1)[1].split("; write", 1)[0]
    assert set(listed.split(", ")) == {"24/19*/13", "24/18*/13"}  # no roll in front: it was given


def test_without_dice_the_play_uses_the_fewest_dice() -> None:
    # 2/off fits every roll; the play named is the single move, not 2/1/off with 1-1.
    last = pos("x: 2:1; o: 13:15")
    play = parse_play(last, "2/off")
    assert [(m.from_point, m.to_point) for m in play.moves] == [(2, 0)]


def test_a_hit_on_a_point_held_by_the_opponent_says_how_many_stand_there() -> None:
    # the opponent's 6-point (our 19-point) holds 5 at the start: nothing to hit, and it is held
    with pytest.raises(IllegalPlayError) as info:
        parse_play(START, "24/19* 13/11", (5, 2))
    assert str(info.value).startswith(
        "no legal play for 5-2 moves 24/19* 13/11: nothing to hit on the 19-point: it holds 5 opposing "
        "checkers; the 19-point is held by the opponent (5); closest legal plays: ")


def test_a_hit_on_a_blot_is_no_reason_a_play_is_illegal() -> None:
    # 24/20* hits the blot on our 20-point; the play is illegal only because 4-4 cannot play 24/21
    blot = pos("x: 24:2 13:5; o: 5:1 6:5")
    with pytest.raises(IllegalPlayError) as info:
        parse_play(blot, "24/20* 24/21", (4, 4))
    assert str(info.value).startswith("no legal play for 4-4 moves 24/20* 24/21; closest legal plays: ")


def test_the_closest_plays_share_the_written_moves_first() -> None:
    # "ranked by how many of the written segments they share": with 6-3 no play has both 24/18
    # and 13/11, and exactly five move a checker from 24 to 18 (24/15 through 18 included); the
    # one that also starts from 13, as written, comes first
    with pytest.raises(IllegalPlayError) as info:
        parse_play(START, "24/18 13/11", (6, 3))
    closest = str(info.value).split("closest legal plays: ")[1].split(", ")
    assert closest[0] == "24/18 13/10"
    assert set(closest) == {"24/18 13/10", "24/21 24/18", "24/15", "24/18 8/5", "24/18 6/3"}


def test_a_closest_play_shares_a_move_written_as_one_chain() -> None:
    # 24/15 is written as one segment; the legal 24/15 (6-3 through 18 or 21) shares it, and no
    # other 6-3 play shares a written segment (13/11 is no 6 or 3): it comes first
    with pytest.raises(IllegalPlayError) as info:
        parse_play(START, "24/15 13/11", (6, 3))
    closest = str(info.value).split("closest legal plays: ")[1].split(", ")
    assert closest[0] == "24/15"


def test_a_point_with_two_opposing_checkers_is_held() -> None:
    # "a point held by two or more opponents": the opponent's two back checkers hold our 1-point
    with pytest.raises(IllegalPlayError) as info:
        parse_play(START, "6/1 13/11", (5, 2))
    assert str(info.value).startswith(
        "no legal play for 5-2 moves 6/1 13/11: the 1-point is held by the opponent (2); closest legal plays: ")


def test_moving_more_checkers_than_stand_there_says_how_many_do() -> None:
    with pytest.raises(IllegalPlayError) as info:
        parse_play(START, "8/2(4)", (6, 6))  # three checkers stand on the 8-point at the start
    assert str(info.value) == (
        "no legal play for 6-6 moves 8/2 8/2 8/2 8/2: it moves more checkers from the 8-point than the player "
        "on roll has there (3)")
