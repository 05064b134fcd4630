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

from gammon.core.dice import CardDice, RandomDice
from gammon.core.errors import GammonError
from gammon.core.fair_dice import CryptoDice, commitment_for, derive_roll, derive_rolls, verify_rolls

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


# -- the rejection steps that make the dice fair (rare, so forced here) ----------------------------


class _Bits:
    """A stand-in for ``random.Random`` that hands out the given 32-bit draws."""

    def __init__(self, draws: list[int]) -> None:
        self.draws = list(draws)

    def getrandbits(self, k: int) -> int:
        assert k == 32
        return self.draws.pop(0)


def test_uniform_draws_reject_the_biased_top_of_the_range() -> None:
    from gammon.core.dice import _below

    for n in (2, 6, 36):
        limit = 2**32 - 2**32 % n
        # the largest multiple of n at or below 2**32 and above it are thrown away
        assert _below(_Bits([limit, 5]), n) == 5 % n  # type: ignore[arg-type]
        assert _below(_Bits([2**32 - 1, limit - 1]), n) == (limit - 1) % n  # type: ignore[arg-type]
        assert _below(_Bits([limit - 1]), n) == (limit - 1) % n  # type: ignore[arg-type]


class _FakeHmac:
    """``hmac.new`` whose first ``rejected`` attempts give blocks of bytes all 252 or more."""

    def __init__(self, rejected: int) -> None:
        self.rejected = rejected
        self.attempts: list[int] = []

    def new(self, key: bytes, msg: bytes, digestmod: object) -> object:
        attempt = int.from_bytes(msg[8:], "big")
        self.attempts.append(attempt)
        real = hmac.new(key, msg, hashlib.sha256)
        if attempt < self.rejected:
            return type("Block", (), {"digest": lambda self: bytes([252 + attempt % 4] * 32)})()
        return real


@pytest.mark.parametrize("rejected", [1, 2])
def test_a_block_with_no_usable_byte_moves_on_to_the_next_attempt(
        monkeypatch: pytest.MonkeyPatch, rejected: int) -> None:
    import gammon.core.fair_dice as dice_module

    fake = _FakeHmac(rejected)
    monkeypatch.setattr(dice_module, "hmac", type("H", (), {"new": fake.new})())
    seed = SEEDS[5]
    got = derive_roll(seed, 9)
    assert fake.attempts == list(range(rejected + 1))
    # the roll comes from the first usable attempt, as the recipe says
    block = hmac.new(seed, (9).to_bytes(8, "big") + rejected.to_bytes(8, "big"), hashlib.sha256).digest()
    k = next(b for b in block if b < 252) % 36
    assert got == (k // 6 + 1, k % 6 + 1)


# -- errors and labels say what is wrong -----------------------------------------------------------


def test_verify_reports_each_kind_of_failure_plainly() -> None:
    seed = SEEDS[0]
    rolls = rolls_of(seed, 4)
    r = verify_rolls("seed", commitment_for(seed), rolls)  # type: ignore[arg-type]
    assert r.ok is False and r.message == "the seed must be bytes, not str"
    r = verify_rolls(seed, 12, rolls)  # type: ignore[arg-type]
    assert r.ok is False and r.message == "the commitment must be a hex string"
    r = verify_rolls(seed, commitment_for(SEEDS[1]), rolls)
    assert r.ok is False
    assert r.message == "the revealed seed does not match the commitment (its SHA-256 differs)"
    # text that cannot even be encoded is a mismatch, not an exception
    r = verify_rolls(seed, "\udc80" * 64, rolls)
    assert r.ok is False and "commitment" in r.message
    r = verify_rolls(seed, commitment_for(seed), [*rolls[:2], "31"])  # type: ignore[list-item]
    assert r.ok is False and r.message.startswith("roll 3 (index 2) was '31', but the seed gives ")
    r = verify_rolls(seed, commitment_for(seed), [rolls[0], (rolls[1][0] % 6 + 1, rolls[1][1])])
    assert r.message == (f"roll 2 (index 1) was {rolls[1][0] % 6 + 1}-{rolls[1][1]}, "
                         f"but the seed gives {rolls[1][0]}-{rolls[1][1]}")
    assert verify_rolls(seed, commitment_for(seed), rolls).message == "the commitment and all 4 rolls check out"


def test_sources_describe_themselves_and_name_bad_seeds() -> None:
    from gammon.core.dice import InvalidDiceError, ManualDice, ScriptedDice, make_dice, parse_dice

    c = CryptoDice(SEEDS[0])
    assert c.describe() == f"crypto dice (commitment {commitment_for(SEEDS[0])[:16]}...)"
    assert len(CryptoDice().reveal()) == 32
    assert ManualDice().describe() == "manual dice"
    assert 0 <= RandomDice().seed < 2**63 and 0 <= CardDice().seed < 2**63
    with pytest.raises(GammonError, match="the seed of random dice must be a whole number 0 or more, not -1"):
        RandomDice(-1)
    with pytest.raises(GammonError, match="the seed of card dice must be a whole number 0 or more, not 'x'"):
        CardDice("x")  # type: ignore[arg-type]
    with pytest.raises(InvalidDiceError, match="dice must be two numbers from 1 to 6, not 7 and 1"):
        ManualDice().push(7, 1)
    with pytest.raises(InvalidDiceError, match="dice must be given as text, not int"):
        parse_dice(31)  # type: ignore[arg-type]
    with pytest.raises(GammonError, match="^no dice entered: enter the roll from the table first$"):
        ManualDice().roll()
    with pytest.raises(GammonError, match="^a roll number is 0 or more, not -1$"):
        derive_roll(SEEDS[0], -1)
    with pytest.raises(InvalidDiceError, match=r"scripted roll 2 must be two dice, not 5"):
        ScriptedDice([(1, 2), 5])  # type: ignore[list-item]
    assert repr(ScriptedDice([(1, 2)])) == "ScriptedDice([(1, 2)])"
    dice = CryptoDice(SEEDS[0])
    dice.reveal()
    with pytest.raises(GammonError) as info:
        dice.roll()
    assert str(info.value) == ("these crypto dice have revealed their seed, so they cannot roll again: "
                               "start a new source with a new commitment")
    # the factory: names, aliases, options and seeds
    assert isinstance(make_dice("card", 3), CardDice) and isinstance(make_dice(" Cards ", 3), CardDice)
    with pytest.raises(GammonError, match="unknown dice 5"):
        make_dice(5)  # type: ignore[arg-type]
    with pytest.raises(GammonError, match="random dice take no option a, b"):
        make_dice("random", 1, b=1, a=2)
    with pytest.raises(GammonError, match="random dice take a whole-number seed, not str"):
        make_dice("random", "7")  # type: ignore[arg-type]
    with pytest.raises(GammonError, match="crypto dice take a secret seed of 32 bytes or none, not int"):
        make_dice("crypto", 7)
    with pytest.raises(GammonError, match=r"^scripted dice need rolls=\[\(d1, d2\), \.\.\.\]$"):
        make_dice("scripted")
    manual = make_dice("manual")
    assert isinstance(manual, ManualDice)
    with pytest.raises(GammonError, match="no dice entered"):
        manual.roll()  # no ask given: nothing to ask
