"""Moved to :mod:`gammon.core.xgid` (the rules need it); this name stays for compatibility."""

from gammon.core.xgid import DEFAULT_MAX_CUBE, MAX_CUBE_LOG2, XgidState, format_xgid, parse_xgid

__all__ = ["MAX_CUBE_LOG2", "DEFAULT_MAX_CUBE", "XgidState", "parse_xgid", "format_xgid"]
