"""XGID number fields are written as eXtreme Gammon writes them: ASCII digits, with ``-``
before a negative value (the cube's place and the turn).  Python's ``int`` reads more
(``1_0`` as ten, ``+1``, other scripts' digits such as ``١`` or ``５``): an XGID is external
input, so such a field is refused with the field's name rather than silently read.

(Kept apart from test_xgid_more.py: the frozen mutated copy of gammon.core.xgid used by
the mutation checker predates this check.)"""

from __future__ import annotations

import pytest

from gammon.core.errors import InvalidIdError
from gammon.core.xgid import parse_xgid

FIELDS = "-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:5:10".split(":")  # a 5-point match
NAMES = {1: "cube", 2: "cube position", 3: "turn", 5: "bottom player's score",
         6: "top player's score", 7: "Crawford/Jacoby", 8: "match length", 9: "max cube"}


def with_field(index: int, value: str) -> str:
    fields = list(FIELDS)
    fields[index] = value
    return "XGID=" + ":".join(fields)


@pytest.mark.parametrize("index", sorted(NAMES))
@pytest.mark.parametrize("value", ["1_0", "+1", "١", "５", "1.0", "--1", "-", "- 1", "0x1", "1e1", "1 0"])
def test_number_fields_take_only_ascii_digits(index: int, value: str) -> None:
    text = with_field(index, value)
    with pytest.raises(InvalidIdError) as info:
        parse_xgid(text)
    assert str(info.value) == (
        f"{text!r} is not a valid XGID: field {index} ({NAMES[index]}) must be a whole number, "
        f"not {value!r}"
    )


def test_the_numbers_eXtreme_gammon_writes_are_read() -> None:
    s = parse_xgid(with_field(2, "-1"))
    assert s.cube_owner == -1
    t = parse_xgid(with_field(3, "-1"))
    assert t.turn == -1
    assert parse_xgid(with_field(8, "11")).match_length == 11
    assert parse_xgid(with_field(5, " 4 ")).score == (4, 0)  # spaces around a field are allowed
    # Leading zeros and "-0" are still plain decimal numbers.
    assert parse_xgid(with_field(1, "01")).cube_value == 2
    assert parse_xgid(with_field(2, "-0")).cube_owner == 0


def test_a_number_too_long_to_read_is_refused_with_words() -> None:
    text = with_field(6, "9" * 5000)  # past Python's limit on digits converted
    with pytest.raises(InvalidIdError, match=r"field 6 \(top player's score\) must be a whole number"):
        parse_xgid(text)
