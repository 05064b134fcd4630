"""Dice sources: where the numbers come from, always explicit and injectable.

Nothing in gammon rolls dice from global state.  A game, a rollout or a test is
handed a :class:`DiceSource` and asks it for rolls, so the same code can run on

* :class:`RandomDice`: seeded pseudo-random dice; the same seed gives the same
  sequence on every run and platform (rollouts and tests reproduce);
* :class:`CryptoDice`: cryptographic dice for online play, with a commitment
  published before the first roll and the secret seed revealed at the end, from
  which anyone can re-derive and check every roll (:func:`verify_rolls`);
* :class:`ManualDice`: dice a person reads off a physical game and types in;
* :class:`CardDice`: the rule texts' way to play without dice, two piles of six
  cards (ace to six), each pile reshuffled whole before every draw;
* :class:`ScriptedDice`: a fixed list of rolls, for tests.

:func:`make_dice` builds one by name (``"random"``, ``"crypto"``, ``"cards"``,
``"manual"``, ``"scripted"``), for command-line options and settings.

Every roll is a pair ``(d1, d2)`` of numbers 1..6, in the order thrown.  The
same call serves the opening roll, where die 0 is player 0's throw and die 1
player 1's (a tie is the game's business: it asks again).

>>> dice = RandomDice(seed=7)
>>> dice.roll() == RandomDice(seed=7).roll()
True
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from gammon.core.errors import GammonError, InvalidDiceError

__all__ = [
    "DICE_KINDS",
    "CardDice",
    "CryptoDice",
    "DiceSource",
    "ManualDice",
    "RandomDice",
    "ScriptedDice",
    "VerifyResult",
    "commitment_for",
    "derive_roll",
    "derive_rolls",
    "make_dice",
    "parse_dice",
    "verify_rolls",
]

#: The names :func:`make_dice` accepts, in the order an interface should list them.
DICE_KINDS: tuple[str, ...] = ("random", "crypto", "cards", "manual", "scripted")

#: The 21 distinct rolls (higher die first) and how many of the 36 each stands for: what a
#: look-ahead over the next roll averages.
WEIGHTED_ROLLS: tuple[tuple[tuple[int, int], int], ...] = tuple(
    ((a, b), 1 if a == b else 2) for a in range(6, 0, -1) for b in range(a, 0, -1)
)

#: Length in bytes of the secret seed of :class:`CryptoDice`.
CRYPTO_SEED_BYTES = 32

_TWO_32 = 1 << 32


@runtime_checkable
class DiceSource(Protocol):
    """What a game needs from its dice.

    ``roll()`` returns two dice 1..6 in the order thrown.  ``describe()`` is a
    short label for people ("random dice (seed 7)").  ``last_shown`` is what an
    interface should show for the last roll besides the dice themselves (the
    drawn cards for :class:`CardDice`), or ``None`` when the dice say it all.
    """

    def roll(self) -> tuple[int, int]:
        """The next roll, two dice 1..6."""
        ...

    def describe(self) -> str:
        """A short human label for the source."""
        ...

    @property
    def last_shown(self) -> str | None:
        """Extra text to show for the last roll, or ``None``."""
        ...


def _is_die(d: object) -> bool:
    return isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6


def _check_roll(d1: object, d2: object) -> tuple[int, int]:
    """``(d1, d2)`` when both are ints 1..6, else :class:`InvalidDiceError`."""
    if isinstance(d1, int) and isinstance(d2, int) and _is_die(d1) and _is_die(d2):
        return d1, d2
    raise InvalidDiceError(f"dice must be two numbers from 1 to 6, not {d1!r} and {d2!r}")


def _below(rng: random.Random, n: int) -> int:
    """A uniform integer in ``0..n-1`` from 32-bit Mersenne Twister outputs.

    Our own rejection sampling over ``getrandbits(32)`` (the raw MT19937 output)
    instead of ``randrange``/``shuffle``, so the sequence for a seed depends only
    on MT19937 and this function, not on how a Python version implements those.
    Draws at or above the largest multiple of ``n`` below 2**32 are thrown away,
    so every value is exactly equally likely.
    """
    limit = _TWO_32 - _TWO_32 % n
    while True:
        x = rng.getrandbits(32)
        if x < limit:
            return x % n


def _fresh_int_seed() -> int:
    """A random 63-bit seed, for sources made without one (so ``.seed`` can be reported)."""
    return secrets.randbits(63)


def _check_int_seed(seed: object, what: str) -> int:
    if seed is None:
        return _fresh_int_seed()
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise GammonError(f"the seed of {what} must be a whole number 0 or more, not {seed!r}")
    return seed


# ---------------------------------------------------------------------------
# Seeded pseudo-random dice


class RandomDice:
    """Seeded pseudo-random dice.

    The generator is pinned: Python's ``random.Random(seed)`` (MT19937, seeded
    from a non-negative int, which CPython guarantees stable), read 32 bits at a
    time with ``getrandbits(32)``; each roll is one uniform draw of the 36
    ordered outcomes ``k = 6*(d1-1) + (d2-1)`` by rejection sampling (draws at
    or above ``2**32 - 2**32 % 36`` are discarded).  So the same seed gives the
    same rolls on every run, platform and Python version.

    Without a seed a fresh one is taken from :mod:`secrets`; :attr:`seed` tells
    it, so any game can be replayed.

    :raises GammonError: a seed that is not a whole number 0 or more.
    """

    __slots__ = ("_rng", "_seed")

    def __init__(self, seed: int | None = None) -> None:
        self._seed = _check_int_seed(seed, "random dice")
        self._rng = random.Random(self._seed)

    @property
    def seed(self) -> int:
        """The seed in use (the one given, or the one chosen when none was)."""
        return self._seed

    @property
    def last_shown(self) -> str | None:
        """Always ``None``: the dice say it all."""
        return None

    def roll(self) -> tuple[int, int]:
        """The next roll, two dice 1..6."""
        k = _below(self._rng, 36)
        return k // 6 + 1, k % 6 + 1

    def describe(self) -> str:
        """``"random dice (seed N)"``."""
        return f"random dice (seed {self._seed})"

    def __repr__(self) -> str:
        return f"RandomDice(seed={self._seed})"


# ---------------------------------------------------------------------------
# Cryptographic dice with a commitment


def commitment_for(seed: bytes) -> str:
    """The commitment to a secret seed: the hex SHA-256 of its bytes (64 characters)."""
    return hashlib.sha256(seed).hexdigest()


def derive_roll(seed: bytes, index: int) -> tuple[int, int]:
    """Roll number ``index`` (0-based) of the crypto dice with secret ``seed``.

    The derivation, fixed so that anyone can check it with a few lines in any
    language: for ``attempt = 0, 1, 2, ...`` compute

        ``block = HMAC-SHA256(key=seed, msg=index.to_bytes(8, "big") + attempt.to_bytes(8, "big"))``

    and read its 32 bytes in order; the first byte ``b < 252`` gives the
    outcome ``k = b % 36`` (252 = 7 * 36, so the rejection leaves no modulo
    bias), and the roll is ``(k // 6 + 1, k % 6 + 1)``.  If all 32 bytes are
    252 or more (chance about 1e-58) the next attempt is used.

    :raises GammonError: a negative index.
    """
    if index < 0:
        raise GammonError(f"a roll number is 0 or more, not {index}")
    msg_index = index.to_bytes(8, "big")
    attempt = 0
    while True:
        block = hmac.new(seed, msg_index + attempt.to_bytes(8, "big"), hashlib.sha256).digest()
        for b in block:
            if b < 252:
                k = b % 36
                return k // 6 + 1, k % 6 + 1
        attempt += 1


def derive_rolls(seed: bytes, n: int) -> list[tuple[int, int]]:
    """The first ``n`` rolls of the crypto dice with secret ``seed`` (see :func:`derive_roll`)."""
    return [derive_roll(seed, i) for i in range(n)]


@dataclass(frozen=True, slots=True)
class VerifyResult:
    """The outcome of :func:`verify_rolls`.

    ``first_bad_index`` is the 0-based number of the first roll that does not
    match the seed, or ``None`` when all match or when the failure is not about
    one roll (the seed does not match the commitment).
    """

    ok: bool
    message: str
    first_bad_index: int | None = None

    def __bool__(self) -> bool:
        return self.ok


def verify_rolls(seed: bytes, commitment: str, rolls: Iterable[tuple[int, int]]) -> VerifyResult:
    """Check a finished game's crypto dice: the revealed ``seed`` against the
    ``commitment`` published before the first roll, then every roll in order
    against what the seed derives.

    Never raises on bad data: a mismatch is reported in the result.
    """
    if not isinstance(seed, bytes | bytearray):
        return VerifyResult(False, f"the seed must be bytes, not {type(seed).__name__}")
    if not isinstance(commitment, str):
        return VerifyResult(False, "the commitment must be a hex string")
    expected = commitment_for(bytes(seed)).encode("ascii")
    # Bytes, not str: compare_digest refuses non-ASCII text, and a bad commitment must not raise.
    given = commitment.strip().lower().encode("utf-8", "replace")
    if not hmac.compare_digest(expected, given):
        return VerifyResult(False, "the revealed seed does not match the commitment (its SHA-256 differs)")
    count = 0
    for i, got in enumerate(rolls):
        want = derive_roll(bytes(seed), i)
        if not isinstance(got, tuple | list) or tuple(got) != want:
            return VerifyResult(
                False,
                f"roll {i + 1} (index {i}) was {_fmt(got)}, but the seed gives {_fmt(want)}",
                i,
            )
        count += 1
    return VerifyResult(True, f"the commitment and all {count} rolls check out")


def _fmt(roll: object) -> str:
    if isinstance(roll, tuple | list) and len(roll) == 2:
        return f"{roll[0]}-{roll[1]}"
    return repr(roll)


class CryptoDice:
    """Cryptographic dice with a verifiable commitment, for online play.

    A secret seed of 32 bytes (from :func:`secrets.token_bytes` unless given)
    decides every roll: roll ``i`` is :func:`derive_roll` ``(seed, i)``.  Before
    the first roll the server publishes :attr:`commitment`, the SHA-256 of the
    seed, so it cannot change the seed later without being caught; when the
    game ends :meth:`reveal` hands out the seed and anyone can run
    :func:`verify_rolls`.  Once revealed, the seed no longer hides future rolls,
    so the source refuses to roll again.

    :raises GammonError: a given seed that is not 32 bytes.
    """

    __slots__ = ("_commitment", "_count", "_revealed", "_seed")

    def __init__(self, seed: bytes | None = None) -> None:
        if seed is None:
            seed = secrets.token_bytes(CRYPTO_SEED_BYTES)
        if not isinstance(seed, bytes | bytearray) or len(seed) != CRYPTO_SEED_BYTES:
            raise GammonError(f"the secret seed of crypto dice must be {CRYPTO_SEED_BYTES} bytes")
        self._seed = bytes(seed)
        self._commitment = commitment_for(self._seed)
        self._count = 0
        self._revealed = False

    @property
    def commitment(self) -> str:
        """The hex SHA-256 of the secret seed: publish it before the first roll."""
        return self._commitment

    @property
    def rolls_made(self) -> int:
        """How many rolls this source has given (the index of the next one)."""
        return self._count

    @property
    def revealed(self) -> bool:
        """Whether :meth:`reveal` has been called (no more rolls then)."""
        return self._revealed

    @property
    def last_shown(self) -> str | None:
        """Always ``None``: the dice say it all."""
        return None

    def roll(self) -> tuple[int, int]:
        """The next roll, derived from the secret seed and the roll counter.

        :raises GammonError: after :meth:`reveal`.
        """
        if self._revealed:
            raise GammonError(
                "these crypto dice have revealed their seed, so they cannot roll again: "
                "start a new source with a new commitment"
            )
        r = derive_roll(self._seed, self._count)
        self._count += 1
        return r

    def reveal(self) -> bytes:
        """The secret seed, for checking the game's rolls; call it when the game ends.

        After this the source refuses to roll.  Calling it again returns the same seed.
        """
        self._revealed = True
        return self._seed

    def describe(self) -> str:
        """``"crypto dice (commitment 1a2b3c4d...)"``."""
        return f"crypto dice (commitment {self._commitment[:16]}...)"

    def __repr__(self) -> str:
        # Never the seed: a repr may end up in a log before the game is over.
        return f"<CryptoDice commitment={self._commitment} rolls_made={self._count}>"


# ---------------------------------------------------------------------------
# Manual entry

_COMPACT = re.compile(r"[0-9]+")
_SEPARATED = re.compile(r"([0-9]+)\s*[-,\s]\s*([0-9]+)")
_HOW = "write two numbers from 1 to 6, like 31, 3-1, 3 1 or 3,1"


def parse_dice(text: str) -> tuple[int, int]:
    """Read dice a person typed: ``31``, ``3-1``, ``3 1``, ``3,1`` (spaces around are fine).

    >>> parse_dice(" 6-5 ")
    (6, 5)

    :raises InvalidDiceError: anything else, with a message saying what is wrong.
    """
    if not isinstance(text, str):
        raise InvalidDiceError(f"dice must be given as text, not {type(text).__name__}")
    s = text.strip()
    if not s:
        raise InvalidDiceError(f"no dice given: {_HOW}")
    if _COMPACT.fullmatch(s):
        if len(s) != 2:
            raise InvalidDiceError(f"cannot read dice from {text!r}: {_HOW}")
        a, b = int(s[0]), int(s[1])
    else:
        m = _SEPARATED.fullmatch(s)
        if m is None:
            raise InvalidDiceError(f"cannot read dice from {text!r}: {_HOW}")
        a, b = int(m.group(1)), int(m.group(2))
    for d in (a, b):
        if not 1 <= d <= 6:
            raise InvalidDiceError(f"{d} is not a die in {text!r}: each die is a number from 1 to 6")
    return a, b


class ManualDice:
    """Dice entered by hand, for refereeing a physical game.

    Rolls come first from a queue an interface fills (:meth:`push`,
    :meth:`push_text`), then from ``ask`` (a callable returning the text a person
    typed, read by :func:`parse_dice`).  A bad entry raises
    :class:`InvalidDiceError` and consumes nothing, so the interface shows the
    message and asks again.

    :raises GammonError: from :meth:`roll` when the queue is empty and there is no ``ask``.
    """

    __slots__ = ("_ask", "_last", "_queue")

    def __init__(self, ask: Callable[[], str] | None = None) -> None:
        self._ask = ask
        self._queue: deque[tuple[int, int]] = deque()
        self._last: tuple[int, int] | None = None

    def push(self, d1: int, d2: int) -> None:
        """Queue a roll read from the table.

        :raises InvalidDiceError: dice that are not two numbers 1..6.
        """
        self._queue.append(_check_roll(d1, d2))

    def push_text(self, text: str) -> tuple[int, int]:
        """Queue a roll typed as text (see :func:`parse_dice`) and return it.

        :raises InvalidDiceError: text that is not two dice.
        """
        r = parse_dice(text)
        self._queue.append(r)
        return r

    @property
    def pending(self) -> int:
        """How many queued rolls are waiting."""
        return len(self._queue)

    @property
    def last_shown(self) -> str | None:
        """The last roll as entered (``"3-1"``), or ``None`` before the first."""
        return None if self._last is None else f"{self._last[0]}-{self._last[1]}"

    def roll(self) -> tuple[int, int]:
        """The next queued roll, else one asked for.

        :raises InvalidDiceError: the answer to ``ask`` is not two dice.
        :raises GammonError: nothing queued and no ``ask``.
        """
        if self._queue:
            r = self._queue.popleft()
        elif self._ask is not None:
            r = parse_dice(self._ask())
        else:
            raise GammonError("no dice entered: enter the roll from the table first")
        self._last = r
        return r

    def describe(self) -> str:
        """``"manual dice"``."""
        return "manual dice"

    def __repr__(self) -> str:
        return f"<ManualDice pending={len(self._queue)}>"


# ---------------------------------------------------------------------------
# Two piles of cards

#: Card faces for the values 1..6, plain ASCII.
CARD_RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6")
#: The suit of each pile: pile 0 (die 0) spades, pile 1 (die 1) hearts.
CARD_SUITS: tuple[str, str] = ("\u2660", "\u2665")


class CardDice:
    """Dice from two piles of cards, the rule texts' way to play without dice.

    Each pile holds six cards, ace to six (ace counts 1); pile 0 gives die 0
    and pile 1 die 1.  Before every draw each pile is reshuffled whole, all six
    cards back in, and the top card of each is drawn.  So every draw is uniform
    over 1..6 and independent of the last: the 36 outcomes are as likely as
    with real dice.

    Shuffles are Fisher-Yates over the same pinned generator as
    :class:`RandomDice` (MT19937 ``getrandbits(32)`` with rejection), so a seed
    reproduces the draws.  :attr:`last_shown` shows the drawn cards with suits
    (``"A♠ 4♥"``), :attr:`last_cards` plainly (``("A", "4")``) for terminals
    without Unicode.

    :raises GammonError: a seed that is not a whole number 0 or more.
    """

    __slots__ = ("_last", "_piles", "_rng", "_seed")

    def __init__(self, seed: int | None = None) -> None:
        self._seed = _check_int_seed(seed, "card dice")
        self._rng = random.Random(self._seed)
        self._piles: tuple[list[int], list[int]] = ([1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6])
        self._last: tuple[int, int] | None = None

    @property
    def seed(self) -> int:
        """The seed in use (the one given, or the one chosen when none was)."""
        return self._seed

    def _shuffle(self, pile: list[int]) -> None:
        # Fisher-Yates: swap each position from the top down with one at or below it.
        for i in range(len(pile) - 1, 0, -1):
            j = _below(self._rng, i + 1)
            pile[i], pile[j] = pile[j], pile[i]

    def roll(self) -> tuple[int, int]:
        """Reshuffle both piles whole and draw the top card of each."""
        for pile in self._piles:
            self._shuffle(pile)
        r = (self._piles[0][0], self._piles[1][0])
        self._last = r
        return r

    @property
    def last_cards(self) -> tuple[str, str] | None:
        """The last drawn cards in plain ASCII (``("A", "4")``), or ``None`` before the first."""
        if self._last is None:
            return None
        return CARD_RANKS[self._last[0] - 1], CARD_RANKS[self._last[1] - 1]

    @property
    def last_shown(self) -> str | None:
        """The last drawn cards with their pile's suit (``"A♠ 4♥"``), or ``None``."""
        cards = self.last_cards
        if cards is None:
            return None
        return f"{cards[0]}{CARD_SUITS[0]} {cards[1]}{CARD_SUITS[1]}"

    @property
    def last_shown_ascii(self) -> str | None:
        """The last drawn cards without suits (``"A 4"``), or ``None``."""
        cards = self.last_cards
        return None if cards is None else f"{cards[0]} {cards[1]}"

    def describe(self) -> str:
        """``"two piles of cards (seed N)"``."""
        return f"two piles of cards (seed {self._seed})"

    def __repr__(self) -> str:
        return f"CardDice(seed={self._seed})"


# ---------------------------------------------------------------------------
# Scripted dice, for tests


class ScriptedDice:
    """A fixed list of rolls, given back in order; for tests and replays.

    :raises InvalidDiceError: a roll in the script that is not two dice 1..6.
    :raises GammonError: from :meth:`roll` once the script has run out.
    """

    __slots__ = ("_given", "_rolls")

    def __init__(self, rolls: Iterable[tuple[int, int]]) -> None:
        checked: list[tuple[int, int]] = []
        for i, r in enumerate(rolls):
            try:
                d1, d2 = r
            except (TypeError, ValueError):
                raise InvalidDiceError(f"scripted roll {i + 1} must be two dice, not {r!r}") from None
            checked.append(_check_roll(d1, d2))
        self._rolls: deque[tuple[int, int]] = deque(checked)
        self._given = 0

    @property
    def remaining(self) -> int:
        """How many scripted rolls are left."""
        return len(self._rolls)

    @property
    def last_shown(self) -> str | None:
        """Always ``None``: the dice say it all."""
        return None

    def roll(self) -> tuple[int, int]:
        """The next scripted roll.

        :raises GammonError: the script has run out.
        """
        if not self._rolls:
            raise GammonError(f"the scripted dice ran out after {self._given} rolls: the script needs more")
        self._given += 1
        return self._rolls.popleft()

    def describe(self) -> str:
        """``"scripted dice (N left)"``."""
        return f"scripted dice ({len(self._rolls)} left)"

    def __repr__(self) -> str:
        return f"ScriptedDice({list(self._rolls)!r})"


# ---------------------------------------------------------------------------
# Factory


def make_dice(kind: str, seed: int | bytes | None = None, **kw: Any) -> DiceSource:
    """A dice source by name, for command-line options and settings.

    * ``"random"``: :class:`RandomDice` ``(seed)``;
    * ``"cards"``: :class:`CardDice` ``(seed)``;
    * ``"crypto"``: :class:`CryptoDice`; ``seed`` may be the 32 secret bytes
      (never an int: a number is too easy to guess), else a fresh secret;
    * ``"manual"``: :class:`ManualDice` ``(ask=kw["ask"])``, ``ask`` optional;
    * ``"scripted"``: :class:`ScriptedDice` ``(kw["rolls"])``.

    The name is case-insensitive.

    :raises GammonError: an unknown kind, a seed of the wrong type for the kind,
        or an option the kind does not take.
    """
    name = kind.strip().lower() if isinstance(kind, str) else kind
    options = dict(kw)

    def no_more_options() -> None:
        if options:
            raise GammonError(f"{name} dice take no option {', '.join(sorted(options))}")

    def int_seed() -> int | None:
        if seed is not None and not isinstance(seed, int):
            raise GammonError(f"{name} dice take a whole-number seed, not {type(seed).__name__}")
        return seed

    def no_seed() -> None:
        if seed is not None:
            raise GammonError(f"{name} dice take no seed")

    source: DiceSource
    if name == "random":
        source = RandomDice(int_seed())
    elif name in ("cards", "card"):
        source = CardDice(int_seed())
    elif name == "crypto":
        if seed is not None and not isinstance(seed, bytes | bytearray):
            raise GammonError(
                f"crypto dice take a secret seed of {CRYPTO_SEED_BYTES} bytes or none, "
                f"not {type(seed).__name__}"
            )
        source = CryptoDice(None if seed is None else bytes(seed))
    elif name == "manual":
        no_seed()
        source = ManualDice(options.pop("ask", None))
    elif name == "scripted":
        no_seed()
        if "rolls" not in options:
            raise GammonError("scripted dice need rolls=[(d1, d2), ...]")
        source = ScriptedDice(options.pop("rolls"))
    else:
        raise GammonError(f"unknown dice {kind!r}: choose one of {', '.join(DICE_KINDS)}")
    no_more_options()
    return source
