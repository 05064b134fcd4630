"""Provably fair dice: a commitment published before the first roll, every roll derived from
the secret seed, and the check anyone can run once the seed is revealed.

:class:`CryptoDice` is the :class:`~gammon.core.dice.DiceSource` of online play;
:func:`derive_roll` fixes how a roll comes from the seed, :func:`commitment_for`
what is published, and :func:`verify_rolls` checks a revealed seed against the
commitment and the rolls of a game.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from gammon.core.errors import GammonError

__all__ = ["CARD_RANKS", "CARD_SUITS", "CRYPTO_SEED_BYTES", "DRAWS", "CryptoDice", "VerifyResult", "card_faces",
           "commitment_for", "derive_card_roll", "derive_roll", "derive_rolls", "verify_rolls"]

#: Length in bytes of the secret seed of :class:`CryptoDice`.
CRYPTO_SEED_BYTES = 32

#: How a secret seed's rolls come out: thrown as dice, or drawn as the rule texts' two piles of
#: cards (ace to six, each pile reshuffled whole before every draw).
DRAWS: tuple[str, ...] = ("dice", "cards")

#: Card faces for the values 1..6, plain ASCII (an ace counts 1).
CARD_RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6")
#: The suit of each pile: pile 0 (die 0) black spades, pile 1 (die 1) red hearts, as the rule texts
#: make one pile of black cards and one of red.
CARD_SUITS: tuple[str, str] = ("\u2660", "\u2665")

#: The cards of a pile, ace to six, in the order it is laid out before a shuffle.
_PILE: tuple[int, ...] = (1, 2, 3, 4, 5, 6)


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


def _card_bytes(seed: bytes, index: int, pile: int) -> Iterator[int]:
    """The endless byte stream that shuffles ``pile`` before draw ``index``: the bytes of
    ``HMAC-SHA256(key=seed, msg=b"cards" + index(8 bytes) + pile(1 byte) + block(8 bytes))`` for
    ``block = 0, 1, 2, ...`` in order (big-endian counters)."""
    head = b"cards" + index.to_bytes(8, "big") + pile.to_bytes(1, "big")
    block = 0
    while True:
        yield from hmac.new(seed, head + block.to_bytes(8, "big"), hashlib.sha256).digest()
        block += 1


def derive_card_roll(seed: bytes, index: int) -> tuple[int, int]:
    """Draw number ``index`` (0-based) of the card dice with secret ``seed``: ``(pile 0, pile 1)``.

    The rule texts' way: each pile holds the six cards ace to six and is reshuffled whole before
    every draw; the top card of each pile is the die.  Fixed so anyone can check it: pile ``p``
    starts as ``[1, 2, 3, 4, 5, 6]`` and is shuffled by Fisher-Yates, for ``i = 5, 4, ..., 1``
    swapping position ``i`` with position ``j``, where ``j`` is the first byte ``b`` of the pile's
    stream (:func:`_card_bytes`) with ``b < 256 - 256 % (i + 1)``, taken as ``b % (i + 1)`` (the
    rejection leaves no modulo bias); the die is position 0 afterwards.  Each draw is uniform over
    ace to six and independent of every other, so the 36 rolls are as likely as with dice.

    :raises GammonError: a negative index.
    """
    if index < 0:
        raise GammonError(f"a roll number is 0 or more, not {index}")
    tops: list[int] = []
    for p in (0, 1):
        cards = list(_PILE)
        stream = _card_bytes(seed, index, p)
        for i in range(len(cards) - 1, 0, -1):
            n = i + 1
            limit = 256 - 256 % n
            b = next(x for x in stream if x < limit)
            j = b % n
            cards[i], cards[j] = cards[j], cards[i]
        tops.append(cards[0])
    return tops[0], tops[1]


def _deriver(draw: str) -> Callable[[bytes, int], tuple[int, int]]:
    """:func:`derive_roll` for ``"dice"``, :func:`derive_card_roll` for ``"cards"``.

    :raises GammonError: another draw.
    """
    if draw == "dice":
        return derive_roll
    if draw == "cards":
        return derive_card_roll
    raise GammonError(f"the dice are drawn as {' or '.join(DRAWS)}, not {draw!r}")


def derive_rolls(seed: bytes, n: int, draw: str = "dice") -> list[tuple[int, int]]:
    """The first ``n`` rolls of the crypto dice with secret ``seed``, thrown or drawn as ``draw``
    (see :func:`derive_roll` and :func:`derive_card_roll`).

    :raises GammonError: an unknown draw.
    """
    derive = _deriver(draw)
    return [derive(seed, i) for i in range(n)]


def card_faces(roll: tuple[int, int]) -> tuple[str, str]:
    """The two cards a roll of card dice shows, rank and suit (``(3, 1)`` is ``("3♠", "A♥")``)."""
    return (CARD_RANKS[roll[0] - 1] + CARD_SUITS[0], CARD_RANKS[roll[1] - 1] + CARD_SUITS[1])


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


def verify_rolls(
    seed: bytes, commitment: str, rolls: Iterable[tuple[int, int]], draw: str = "dice"
) -> VerifyResult:
    """Check a finished game's crypto dice: the revealed ``seed`` against the
    ``commitment`` published before the first roll, then every roll in order
    against what the seed derives, thrown as dice or drawn as cards (``draw``).

    Never raises on bad data: a mismatch is reported in the result.
    """
    if draw not in DRAWS:
        return VerifyResult(False, f"the dice are drawn as {' or '.join(DRAWS)}, not {draw!r}")
    derive = _deriver(draw)
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
        want = derive(bytes(seed), i)
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
    decides every roll: roll ``i`` is :func:`derive_roll` ``(seed, i)``, or with
    ``draw="cards"`` the two cards :func:`derive_card_roll` ``(seed, i)`` draws
    from the rule texts' two piles (:attr:`last_cards` shows them).  Before
    the first roll the server publishes :attr:`commitment`, the SHA-256 of the
    seed, so it cannot change the seed later without being caught; when the
    game ends :meth:`reveal` hands out the seed and anyone can run
    :func:`verify_rolls`.  Once revealed, the seed no longer hides future rolls,
    so the source refuses to roll again.

    :raises GammonError: a given seed that is not 32 bytes, or a draw not in :data:`DRAWS`.
    """

    __slots__ = ("_commitment", "_count", "_derive", "_draw", "_last", "_revealed", "_seed")

    def __init__(self, seed: bytes | None = None, draw: str = "dice") -> None:
        self._derive = _deriver(draw)
        self._draw = draw
        self._last: tuple[int, int] | None = None
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
    def draw(self) -> str:
        """How the rolls come out: ``"dice"`` or ``"cards"`` (see :data:`DRAWS`)."""
        return self._draw

    @property
    def last_cards(self) -> tuple[str, str] | None:
        """The two cards of the last draw (``("3♠", "A♥")``) when the dice are cards, else ``None``."""
        return card_faces(self._last) if self._draw == "cards" and self._last is not None else None

    @property
    def last_shown(self) -> str | None:
        """The last draw's cards (``"3♠ A♥"``) when the dice are cards; ``None`` when dice say it all."""
        cards = self.last_cards
        return None if cards is None else " ".join(cards)

    def roll(self) -> tuple[int, int]:
        """The next roll, derived from the secret seed and the roll counter.

        :raises GammonError: after :meth:`reveal`.
        """
        if self._revealed:
            raise GammonError(
                "these crypto dice have revealed their seed, so they cannot roll again: "
                "start a new source with a new commitment"
            )
        r = self._derive(self._seed, self._count)
        self._count += 1
        self._last = r
        return r

    def reveal(self) -> bytes:
        """The secret seed, for checking the game's rolls; call it when the game ends.

        After this the source refuses to roll.  Calling it again returns the same seed.
        """
        self._revealed = True
        return self._seed

    def describe(self) -> str:
        """``"crypto dice (commitment 1a2b3c4d...)"``."""
        what = "crypto card piles" if self._draw == "cards" else "crypto dice"
        return f"{what} (commitment {self._commitment[:16]}...)"

    def __repr__(self) -> str:
        # Never the seed: a repr may end up in a log before the game is over.
        return f"<CryptoDice draw={self._draw} commitment={self._commitment} rolls_made={self._count}>"
