"""Moved to :mod:`gammon.core.notation` (the rules need it); this name stays for compatibility."""

from gammon.core.notation import ALL_ROLLS, Segment, parse_play, parse_segments

__all__ = ["ALL_ROLLS", "Segment", "parse_segments", "parse_play"]
