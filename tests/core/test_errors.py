"""Bad input raises gammon's own errors, with messages a person can act on."""

from __future__ import annotations

import base64

import pytest

from gammon import (
    GammonError,
    InvalidDiceError,
    InvalidIdError,
    InvalidPositionError,
    Position,
)
from gammon.core.position_id import encode_position_id

START_ID = "4HPwATDgc/ABMA"


def _row(**points: int) -> list[int]:
    row = [0] * 25
    for name, count in points.items():
        row[24 if name == "bar" else int(name[1:]) - 1] = count
    return row


def test_errors_are_value_errors_by_kind() -> None:
    for kind in (InvalidDiceError, InvalidIdError, InvalidPositionError):
        assert issubclass(kind, GammonError)
    assert issubclass(GammonError, ValueError)


# -- Position IDs ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "4HPwATDgc/ABM",  # 13 characters
        "4HPwATDgc/ABMAA",  # 15
        START_ID + "==",  # padding is not part of an ID
        "4HPwATDgc/AB!A",  # not base64
        "4HPwATDgc-ABMA",  # the URL-safe alphabet is not used
        "4HPw ATDgc/ABM",
    ],
)
def test_malformed_position_id(text: str) -> None:
    with pytest.raises(InvalidIdError, match=r"not a Position ID.*14 characters"):
        Position.from_position_id(text)


def test_position_id_must_be_text() -> None:
    with pytest.raises(InvalidIdError, match="is text, not int"):
        Position.from_position_id(12345678901234)  # type: ignore[arg-type]


def test_position_id_with_too_many_one_bits() -> None:
    # 80 one-bits never close the 50 slots of the two sides.
    with pytest.raises(InvalidIdError, match="does not describe two sides of 25 points"):
        Position.from_position_id("//////////////")


def test_position_id_with_a_stray_bit_after_the_last_slot() -> None:
    # Hypergammon's start uses 56 of the 80 bits; set the very last one.
    key = bytearray(base64.b64decode(Position.initial("hypergammon").position_id + "=="))
    key[9] |= 0x80
    text = base64.b64encode(bytes(key)).decode()[:14]
    with pytest.raises(InvalidIdError, match="does not describe two sides"):
        Position.from_position_id(text, variant="hypergammon")


@pytest.mark.parametrize(
    ("me", "opp", "who"),
    [
        (_row(p1=1), _row(p6=16), "opponent 16 checkers"),
        (_row(p6=16), _row(p1=1), "player on roll 16 checkers"),
    ],
)
def test_position_id_with_sixteen_checkers(me: list[int], opp: list[int], who: str) -> None:
    text = encode_position_id(me, opp)
    with pytest.raises(InvalidIdError, match=f"{who} \\(at most 15\\)"):
        Position.from_position_id(text)


def test_position_id_with_more_checkers_than_the_variant_has() -> None:
    with pytest.raises(InvalidIdError, match=r"impossible position.*Hypergammon has 3"):
        Position.from_position_id(START_ID, variant="hypergammon")


def test_position_id_accepts_a_label_and_spaces() -> None:
    assert Position.from_position_id(f"  Position ID: {START_ID} ") == Position.initial()


# -- the constructor -------------------------------------------------------------------


def test_sixteen_checkers() -> None:
    with pytest.raises(InvalidPositionError, match="has 16 checkers on the board; Backgammon has 15"):
        Position(_row(p6=10, p8=6), _row(p6=5))
    with pytest.raises(InvalidPositionError, match="opponent has 16 checkers"):
        Position(_row(p6=5), _row(p6=10, bar=6))


def test_more_checkers_than_the_variant_has() -> None:
    with pytest.raises(InvalidPositionError, match="4 checkers.*Hypergammon has 3"):
        Position(_row(p24=4), _row(p24=1), "hypergammon")
    with pytest.raises(InvalidPositionError, match="2 checkers.*has 1"):
        Position(_row(p24=1), _row(p1=2), "hypergammon1")


def test_both_colours_on_one_point() -> None:
    # The mover's 6 point is the opponent's 19 point.
    with pytest.raises(InvalidPositionError, match="both sides have checkers on point 6"):
        Position(_row(p6=1), _row(p19=1))


@pytest.mark.parametrize("bad", [-1, 1.5, "2", None])
def test_bad_checker_counts(bad: object) -> None:
    me = _row(p6=2)
    me[3] = bad  # type: ignore[call-overload]
    with pytest.raises(InvalidPositionError, match="bad checker count"):
        Position(me, _row(p6=2))
    with pytest.raises(InvalidPositionError, match="opponent: bad checker count"):
        Position(_row(p6=2), me)


@pytest.mark.parametrize("length", [0, 24, 26, 50])
def test_rows_of_the_wrong_length(length: int) -> None:
    with pytest.raises(InvalidPositionError, match=f"needs 25 counts.*got {length}"):
        Position([0] * length, _row(p6=2))
    with pytest.raises(InvalidPositionError, match="opponent: a side needs 25 counts"):
        Position(_row(p6=2), [0] * length)


# -- dice ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "dice",
    [(0, 3), (7, 1), (3, -1), (6, 60), ("a", 2), (1, 2, 3), (1,), (), None, 3, "abc"],
)
def test_dice_out_of_range_or_malformed(dice: object) -> None:
    with pytest.raises(InvalidDiceError, match="dice must be two numbers from 1 to 6"):
        Position.initial().legal_plays(dice)  # type: ignore[arg-type]


def test_fractional_dice_are_rejected() -> None:
    # A die of 2.5 is bad input, not a 2: it must not be truncated silently.
    with pytest.raises(InvalidDiceError, match="dice must be two numbers from 1 to 6"):
        Position.initial().legal_plays((2.5, 3))  # type: ignore[arg-type]


# -- variants --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["backgammon2", "", "chess"])
def test_unknown_variant(name: str) -> None:
    with pytest.raises(GammonError, match=r"unknown variant.*known variants: standard.*dutch"):
        Position.initial(name)
    with pytest.raises(GammonError, match="unknown variant"):
        Position(_row(p6=1), _row(p6=1), name)
    with pytest.raises(GammonError, match="unknown variant"):
        Position.from_position_id(START_ID, variant=name)


def test_variant_names_are_case_and_alias_tolerant() -> None:
    assert Position.initial("Acey Deucey").variant.name == "acey-deucey"
    assert Position.initial("NACK").variant.name == "nackgammon"
