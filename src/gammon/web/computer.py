"""The computer as a player on the server: the levels a client may choose.

The levels and the factory are :mod:`gammon.play.levels`' (one hook for every
interface); this module only names them for the API.
"""

from __future__ import annotations

from gammon.core.errors import GammonError
from gammon.play.levels import DEFAULT_LEVEL, LEVELS, find_level, make_computer_player

#: The levels a client may choose, weakest first.
COMPUTER_LEVELS: tuple[str, ...] = LEVELS


def check_level(level: str) -> str:
    """The canonical name of ``level``, or :class:`GammonError` listing the levels."""
    try:
        return find_level(level)
    except GammonError:
        raise GammonError(f"unknown computer level {level!r}: choose one of {', '.join(LEVELS)}") from None


__all__ = ["COMPUTER_LEVELS", "DEFAULT_LEVEL", "check_level", "make_computer_player"]
