"""Dice sources: where the numbers come from, always explicit and injectable.

Nothing in gammon rolls dice from global state.  A game, a rollout or a test is
handed a :class:`DiceSource` and asks it for rolls, so the same code can run on

* :class:`RandomDice`: seeded pseudo-random dice; the same seed gives the same
  sequence on every run and platform (rollouts and tests reproduce);
* :class:`CryptoDice`: cryptographic dice for online play, with a commitment
  published before the first roll and the secret seed revealed at the end, from
  which anyone can re-derive and check every roll (:mod:`gammon.core.fair_dice`);
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

import random
import re
import secrets
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, Protocol, runtime_checkable

from gammon.core.errors import GammonError, InvalidDiceError
from gammon.core.fair_dice import CARD_RANKS, CARD_SUITS, CRYPTO_SEED_BYTES, CryptoDice

__all__ = [
    "DICE_KINDS",
    "CardDice",
    "CryptoDice",  # a dice source of make_dice's; its home is gammon.core.fair_dice
    "DiceSource",
    "ManualDice",
    "RandomDice",
    "ScriptedDice",
    "make_dice",
    "parse_dice",
]

#: The names :func:`make_dice` accepts, in the order an interface should list them.
DICE_KINDS: tuple[str, ...] = ("random", "crypto", "cards", "manual", "scripted")

#: The 21 distinct rolls (higher die first) and how many of the 36 each stands for: what a
#: look-ahead over the next roll averages.
WEIGHTED_ROLLS: tuple[tuple[tuple[int, int], int], ...] = tuple(
    ((a, b), 1 if a == b else 2) for a in range(6, 0, -1) for b in range(a, 0, -1)
)

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
