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
from collections.abc import Iterable
from dataclasses import dataclass

from gammon.core.errors import GammonError

__all__ = ["CRYPTO_SEED_BYTES", "CryptoDice", "VerifyResult", "commitment_for", "derive_roll", "derive_rolls",
           "verify_rolls"]

#: Length in bytes of the secret seed of :class:`CryptoDice`.
CRYPTO_SEED_BYTES = 32


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
