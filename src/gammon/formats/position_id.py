"""Moved to :mod:`gammon.core.position_id` (the rules need it); this name stays for compatibility."""

from gammon.core.position_id import decode_position_id, encode_position_id

__all__ = ["encode_position_id", "decode_position_id"]
