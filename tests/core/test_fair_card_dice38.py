"""Crypto card dice (issue 38): the rule texts' two piles of cards drawn from a committed secret seed.

The piles hold ace to six and are reshuffled whole before every draw, so each card is uniform and
the draws are checkable from the revealed seed like thrown dice.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from gammon.core.errors import GammonError
from gammon.core.fair_dice import (
    CryptoDice,
    commitment_for,
    derive_card_roll,
    derive_rolls,
    verify_rolls,
)

SEED = bytes(range(32))


def _by_the_docstring(seed: bytes, index: int) -> tuple[int, int]:
    """The documented derivation written out again from its description, to pin it."""
    tops = []
    for pile in (0, 1):
        stream = bytearray()
        block = 0
        while len(stream) < 64:
            msg = b"cards" + index.to_bytes(8, "big") + bytes([pile]) + block.to_bytes(8, "big")
            stream += hmac.new(seed, msg, hashlib.sha256).digest()
            block += 1
        cards, pos = [1, 2, 3, 4, 5, 6], 0
        for i in range(5, 0, -1):
            while stream[pos] >= 256 - 256 % (i + 1):
                pos += 1
            j = stream[pos] % (i + 1)
            pos += 1
            cards[i], cards[j] = cards[j], cards[i]
        tops.append(cards[0])
    return tops[0], tops[1]


def test_the_derivation_is_the_documented_one() -> None:
    for i in range(200):
        assert derive_card_roll(SEED, i) == _by_the_docstring(SEED, i)


def test_each_pile_is_uniform_ace_to_six_and_all_36_rolls_come() -> None:
    rolls = derive_rolls(SEED, 7200, "cards")
    for pile in (0, 1):
        counts = Counter(r[pile] for r in rolls)
        assert set(counts) == {1, 2, 3, 4, 5, 6}
        assert all(abs(n - 1200) < 150 for n in counts.values()), counts  # about 4.5 standard deviations
    assert len(set(rolls)) == 36


def test_crypto_card_dice_roll_the_derivation_and_show_the_cards() -> None:
    dice = CryptoDice(SEED, draw="cards")
    assert dice.draw == "cards" and dice.last_cards is None
    rolls = [dice.roll() for _ in range(20)]
    assert rolls == derive_rolls(SEED, 20, "cards")
    ranks = "A23456"
    assert dice.last_cards == (f"{ranks[rolls[-1][0] - 1]}\u2660", f"{ranks[rolls[-1][1] - 1]}\u2665")
    assert CryptoDice(SEED).last_cards is None  # thrown dice show no cards


def test_verify_checks_card_draws_and_catches_a_changed_one() -> None:
    rolls = derive_rolls(SEED, 30, "cards")
    assert verify_rolls(SEED, commitment_for(SEED), rolls, "cards").ok
    changed = list(rolls)
    changed[7] = (changed[7][0] % 6 + 1, changed[7][1])
    bad = verify_rolls(SEED, commitment_for(SEED), changed, "cards")
    assert not bad.ok and bad.first_bad_index == 7
    # Card draws are not the thrown dice of the same seed: each kind checks only its own.
    assert not verify_rolls(SEED, commitment_for(SEED), rolls, "dice").ok


def test_an_unknown_draw_is_refused() -> None:
    with pytest.raises(GammonError, match="dice or cards"):
        CryptoDice(SEED, draw="tarot")
    assert not verify_rolls(SEED, commitment_for(SEED), [], "tarot").ok
