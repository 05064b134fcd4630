"""Secrets of a game: seat tokens and invitations (stored only as hashes) and the computer's seed."""

from __future__ import annotations

import hashlib
import hmac


def hash_token(token: str) -> str:
    """The SHA-256 (hex) under which a seat token (or an invitation) is stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


#: Hex digits of a token's hash that name it in the record (``seat1:3f9a0c...``): enough to tell tokens
#: apart, useless for guessing one.
TOKEN_ID_DIGITS = 12


def token_id(token_hash: str | None) -> str | None:
    """The public name of a stored token: the first digits of its hash."""
    return token_hash[:TOKEN_ID_DIGITS] if token_hash else None


def computer_seed(secret: bytes, seat: int) -> int:
    """The seed of the computer's deliberate mistakes (lower levels) in a game whose secret dice seed is
    ``secret``: an HMAC of it, so that nobody can work out the computer's choices from the public game
    id, and a restarted server seeds it the same way.
    """
    digest = hmac.new(secret, f"gammon computer player, seat {seat}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def same_hash(token: str, stored: str | None) -> bool:
    return stored is not None and hmac.compare_digest(hash_token(token).encode("ascii"), stored.encode("ascii"))


__all__ = ["TOKEN_ID_DIGITS", "computer_seed", "hash_token", "same_hash", "token_id"]
