"""Fair dice are a promise to players: the crypto dice verifier must see every changed roll.

Written from the specification in :mod:`gammon.core.dice`, not from the code's output:

* a roll is ``(d1, d2)`` *in the order thrown*: for the opening roll die 0 is player 0's
  throw and die 1 player 1's, so 3-1 and 1-3 are different rolls (different starters),
  and a committed sequence is a sequence of ordered pairs;
* roll ``i`` of the crypto dice is derived from ``HMAC-SHA256(seed, i (8 bytes, big
  endian) + attempt (8 bytes, big endian))``: the first byte below 252 gives ``k = b % 36``
  and the roll ``(k // 6 + 1, k % 6 + 1)``;
* the commitment is the hex SHA-256 of the seed;
* seeded random dice draw ``k`` uniformly from 36 by rejection over ``getrandbits(32)``
  (draws at or above ``2**32 - 2**32 % 36`` thrown away), the roll being ``(k // 6 + 1, k % 6 + 1)``.
"""

from __future__ import annotations

import hashlib
import hmac
import random

import pytest

from gammon.core.dice import (
    CardDice,
    CryptoDice,
    RandomDice,
    commitment_for,
    derive_roll,
    derive_rolls,
    verify_rolls,
)
from gammon.core.errors import GammonError

SEEDS = [bytes(range(k, k + 32)) for k in range(12)] + [hashlib.sha256(b"fair").digest(), bytes(32)]


def _hex(seed: object) -> str:
    return seed.hex()[:8] if isinstance(seed, bytes) else str(seed)


def spec_roll(seed: bytes, index: int) -> tuple[int, int]:
    """Roll ``index`` as the documented derivation gives it, written out independently."""
    attempt = 0
    while True:
        msg = index.to_bytes(8, "big") + attempt.to_bytes(8, "big")
        for b in hmac.new(seed, msg, hashlib.sha256).digest():
            if b < 252:
                k = b % 36
                return k // 6 + 1, k % 6 + 1
        attempt += 1


def rolls_of(seed: bytes, n: int) -> list[tuple[int, int]]:
    return [spec_roll(seed, i) for i in range(n)]


def first_non_double(rolls: list[tuple[int, int]], start: int = 0) -> int:
    return next(i for i in range(start, len(rolls)) if rolls[i][0] != rolls[i][1])


# -- the derivation ----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS[:6], ids=_hex)
def test_derivation_follows_the_published_recipe(seed: bytes) -> None:
    assert [derive_roll(seed, i) for i in range(300)] == rolls_of(seed, 300)
    assert derive_rolls(seed, 300) == rolls_of(seed, 300)
    dice = CryptoDice(seed)
    assert [dice.roll() for _ in range(50)] == rolls_of(seed, 50)
    assert dice.rolls_made == 50


def test_derivation_covers_every_ordered_outcome() -> None:
    # 36 ordered outcomes, each about 1/36: 3-1 and 1-3 are both there, apart.
    seed = SEEDS[0]
    counts: dict[tuple[int, int], int] = {}
    for r in derive_rolls(seed, 3600):
        counts[r] = counts.get(r, 0) + 1
    assert set(counts) == {(a, b) for a in range(1, 7) for b in range(1, 7)}
    assert all(50 <= c <= 160 for c in counts.values()), counts


def test_commitment_is_the_sha256_of_the_seed() -> None:
    for seed in SEEDS:
        assert commitment_for(seed) == hashlib.sha256(seed).hexdigest()
        assert CryptoDice(seed).commitment == hashlib.sha256(seed).hexdigest()


def test_negative_roll_number_is_refused() -> None:
    with pytest.raises(GammonError):
        derive_roll(SEEDS[0], -1)


# -- verification: every roll, in order, each die in its place -----------------------------------


@pytest.mark.parametrize("seed", SEEDS, ids=_hex)
def test_honest_rolls_check_out(seed: bytes) -> None:
    rolls = rolls_of(seed, 40)
    result = verify_rolls(seed, commitment_for(seed), rolls)
    assert result.ok and bool(result)
    assert result.first_bad_index is None
    assert "40" in result.message


@pytest.mark.parametrize("seed", SEEDS, ids=_hex)
def test_a_roll_with_its_dice_swapped_is_caught(seed: bytes) -> None:
    """3-1 is not 1-3: a verifier comparing the dice as a set would let a cheat pick who starts."""
    rolls = rolls_of(seed, 40)
    for i in (first_non_double(rolls), first_non_double(rolls, 20)):
        swapped = list(rolls)
        d1, d2 = swapped[i]
        swapped[i] = (d2, d1)
        result = verify_rolls(seed, commitment_for(seed), swapped)
        assert not result.ok and not bool(result)
        assert result.first_bad_index == i
        assert f"roll {i + 1} " in result.message
        assert f"{d2}-{d1}" in result.message and f"{d1}-{d2}" in result.message


def test_the_opening_roll_order_decides_who_starts() -> None:
    seed = SEEDS[0]
    rolls = rolls_of(seed, 10)
    i = first_non_double(rolls)
    # the rolls before the first non-double are opening ties; swapping the deciding throw
    # hands the game to the other player and must not verify
    swapped = rolls[:i] + [(rolls[i][1], rolls[i][0])] + rolls[i + 1:]
    assert not verify_rolls(seed, commitment_for(seed), swapped).ok


@pytest.mark.parametrize("seed", SEEDS[:4], ids=_hex)
def test_a_skipped_roll_is_caught(seed: bytes) -> None:
    rolls = rolls_of(seed, 30)
    # find a roll whose successor differs, so dropping it shifts a different roll in
    i = next(k for k in range(5, 29) if rolls[k] != rolls[k + 1])
    skipped = rolls[:i] + rolls[i + 1:]
    result = verify_rolls(seed, commitment_for(seed), skipped)
    assert not result.ok and result.first_bad_index == i


@pytest.mark.parametrize("seed", SEEDS[:4], ids=_hex)
def test_each_changed_roll_is_caught_at_its_place(seed: bytes) -> None:
    rolls = rolls_of(seed, 25)
    for i in range(len(rolls)):
        for die in (0, 1):
            changed = list(rolls)
            r = list(changed[i])
            r[die] = r[die] % 6 + 1
            changed[i] = (r[0], r[1])
            result = verify_rolls(seed, commitment_for(seed), changed)
            assert not result.ok and result.first_bad_index == i, (i, die)


def test_the_last_roll_is_checked_too() -> None:
    seed = SEEDS[1]
    rolls = rolls_of(seed, 12)
    rolls[-1] = (rolls[-1][0] % 6 + 1, rolls[-1][1])
    assert verify_rolls(seed, commitment_for(seed), rolls).first_bad_index == 11


def test_an_extra_roll_the_seed_does_not_give_is_caught() -> None:
    seed = SEEDS[2]
    rolls = rolls_of(seed, 12)
    wrong = spec_roll(seed, 12)
    extra = (wrong[0] % 6 + 1, wrong[1])
    result = verify_rolls(seed, commitment_for(seed), [*rolls, extra])
    assert not result.ok and result.first_bad_index == 12


def test_rolls_as_lists_are_accepted_and_other_shapes_refused() -> None:
    seed = SEEDS[3]
    rolls = rolls_of(seed, 5)
    assert verify_rolls(seed, commitment_for(seed), [list(r) for r in rolls]).ok
    bad = [*rolls[:2], "31", *rolls[3:]]
    result = verify_rolls(seed, commitment_for(seed), bad)  # type: ignore[list-item]
    assert not result.ok and result.first_bad_index == 2


def test_the_commitment_must_match_the_seed() -> None:
    seed, other = SEEDS[0], SEEDS[1]
    rolls = rolls_of(seed, 10)
    result = verify_rolls(seed, commitment_for(other), rolls)
    assert not result.ok and result.first_bad_index is None and "commitment" in result.message
    # the rolls of another seed do not verify under this seed's commitment either
    assert not verify_rolls(other, commitment_for(seed), rolls_of(other, 10)).ok
    # a commitment may be written in capitals or with spaces around it: it is hex
    assert verify_rolls(seed, " " + commitment_for(seed).upper() + "\n", rolls).ok
    # bad types are reported, never raised
    assert not verify_rolls("not bytes", commitment_for(seed), rolls).ok  # type: ignore[arg-type]
    assert not verify_rolls(seed, None, rolls).ok  # type: ignore[arg-type]
    assert not verify_rolls(seed, "é" * 64, rolls).ok
    assert not verify_rolls(seed, commitment_for(seed)[:-1], rolls).ok


def test_no_rolls_with_the_right_commitment_checks_out() -> None:
    seed = SEEDS[0]
    result = verify_rolls(seed, commitment_for(seed), [])
    assert result.ok and "0" in result.message


def test_crypto_dice_reveal_then_refuse_to_roll() -> None:
    dice = CryptoDice(SEEDS[4])
    rolls = [dice.roll() for _ in range(8)]
    assert dice.revealed is False
    seed = dice.reveal()
    assert dice.revealed is True and seed == SEEDS[4] and dice.reveal() == seed
    assert verify_rolls(seed, dice.commitment, rolls).ok
    with pytest.raises(GammonError, match="revealed"):
        dice.roll()
    assert dice.rolls_made == 8
    assert seed.hex() not in repr(dice)


def test_crypto_dice_refuse_a_seed_of_the_wrong_size() -> None:
    for bad in (bytes(31), bytes(33), b""):
        with pytest.raises(GammonError):
            CryptoDice(bad)


# -- seeded pseudo-random dice and cards: the pinned generators ------------------------------------


def spec_random_rolls(seed: int, n: int) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    limit = 2**32 - 2**32 % 36
    out = []
    while len(out) < n:
        x = rng.getrandbits(32)
        if x < limit:
            k = x % 36
            out.append((k // 6 + 1, k % 6 + 1))
    return out


@pytest.mark.parametrize("seed", [0, 1, 7, 2**40 + 3])
def test_random_dice_follow_the_pinned_generator(seed: int) -> None:
    dice = RandomDice(seed)
    assert [dice.roll() for _ in range(500)] == spec_random_rolls(seed, 500)
    assert dice.seed == seed


def spec_card_rolls(seed: int, n: int) -> list[tuple[int, int]]:
    rng = random.Random(seed)

    def below(m: int) -> int:
        limit = 2**32 - 2**32 % m
        while True:
            x = rng.getrandbits(32)
            if x < limit:
                return x % m

    piles = [[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6]]
    out = []
    for _ in range(n):
        for pile in piles:
            for i in range(5, 0, -1):
                j = below(i + 1)
                pile[i], pile[j] = pile[j], pile[i]
        out.append((piles[0][0], piles[1][0]))
    return out


@pytest.mark.parametrize("seed", [0, 3, 99])
def test_card_dice_follow_the_pinned_shuffle(seed: int) -> None:
    dice = CardDice(seed)
    assert [dice.roll() for _ in range(200)] == spec_card_rolls(seed, 200)
