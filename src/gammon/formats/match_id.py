"""Moved to :mod:`gammon.core.match_id` (the rules need it); this name stays for compatibility."""

from gammon.core.match_id import (
    MAX_CUBE,
    MAX_FIELD,
    GameState,
    MatchId,
    Resignation,
    decode_match_id,
    encode_match_id,
)

__all__ = ["MAX_CUBE", "MAX_FIELD", "GameState", "Resignation", "MatchId", "encode_match_id", "decode_match_id"]
