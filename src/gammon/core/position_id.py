"""GNU Backgammon's Position ID: 14 base64 characters for the 80-bit position key.

The key lists the side *not* on roll first, then the side on roll; for each of
its 25 slots (points 1..24, then the bar) as many 1 bits as checkers, then a 0.
Bits fill each byte from its lowest bit up.  This is the bit order GNU
Backgammon itself prints and accepts.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence

from gammon.core.errors import InvalidIdError

_ALPHABET = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


def encode_position_id(me: Sequence[int], opp: Sequence[int]) -> str:
    """The Position ID of two rows of 25 counts (``me`` is the side on roll).

    >>> start = [0] * 5 + [5, 0, 3, 0, 0, 0, 0, 5] + [0] * 10 + [2, 0]
    >>> encode_position_id(start, start)
    '4HPwATDgc/ABMA'
    """
    key = bytearray(10)
    bit = 0
    for row in (opp, me):
        for count in row:
            for _ in range(count):
                key[bit >> 3] |= 1 << (bit & 7)
                bit += 1
            bit += 1
    return base64.b64encode(bytes(key)).decode("ascii")[:14]


def decode_position_id(text: str) -> tuple[list[int], list[int]]:
    """The rows ``(me, opp)`` a Position ID names (``me`` is the side on roll).

    Leading and trailing spaces are ignored, and a ``Position ID:`` label too.

    :raises InvalidIdError: not 14 base64 characters, or a key that does not
        describe 25 slots per side with at most 15 checkers each.
    """
    if not isinstance(text, str):
        raise InvalidIdError(f"a Position ID is text, not {type(text).__name__}")
    s = text.strip()
    if s.lower().startswith("position id:"):
        s = s[len("position id:") :].strip()
    if len(s) != 14 or not set(s) <= _ALPHABET:
        raise InvalidIdError(
            f"{text!r} is not a Position ID: expected 14 characters of A-Z a-z 0-9 + /"
        )
    try:
        key = base64.b64decode(s + "==", validate=True)
    except binascii.Error:
        raise InvalidIdError(f"{text!r} is not valid base64") from None
    rows: list[list[int]] = [[], []]
    side = 0
    count = 0
    for bit in range(80):
        if key[bit >> 3] >> (bit & 7) & 1:
            count += 1
            continue
        if side == 2:
            # Only padding zeros may follow the 50th slot; a 1 is caught below.
            continue
        rows[side].append(count)
        count = 0
        if len(rows[side]) == 25:
            side += 1
    if side < 2 or count:
        raise InvalidIdError(f"{text!r} does not describe two sides of 25 points")
    opp, me = rows
    for who, row in (("player on roll", me), ("opponent", opp)):
        if sum(row) > 15:
            raise InvalidIdError(f"{text!r} gives the {who} {sum(row)} checkers (at most 15)")
    return me, opp
