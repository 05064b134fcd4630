"""Numbers written as the current language writes them (Babel's locale data).

English keeps Python's own formatting, so the English output stays byte for byte what
it was; the other languages take their decimal comma and their percent pattern
(``45,3 %`` in Norwegian, Swedish and Danish, with a no-break space; ``45,3%`` in Polish).
"""

from __future__ import annotations

from functools import cache

from babel import Locale
from babel.numbers import format_decimal, format_percent

from gammon.i18n import DEFAULT, current_language


@cache
def _percent_pattern(language: str, digits: int) -> str:
    """The language's percent pattern with ``digits`` decimals (``#,##0.0 %``)."""
    pattern: str = Locale.parse(language).percent_formats[None].pattern
    if digits:
        head, zero, tail = pattern.rpartition("0")
        pattern = f"{head}{zero}.{'0' * digits}{tail}"
    return pattern


def percent(value: float, digits: int = 1) -> str:
    """``value`` (a fraction) as a percentage with ``digits`` decimals: ``45.3%``, ``45,3 %``."""
    language = current_language()
    if language == DEFAULT:
        return f"{value:.{digits}%}"
    return format_percent(value, _percent_pattern(language, digits), locale=language)


def decimal(value: float, digits: int = 3, *, sign: bool = False) -> str:
    """``value`` with ``digits`` decimals, ``+``/``-`` always written when ``sign``: ``+0.123``, ``+0,123``."""
    language = current_language()
    if language == DEFAULT:
        return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"
    body = "0." + "0" * digits if digits else "0"
    pattern = f"+{body};-{body}" if sign else body
    return format_decimal(value, pattern, locale=language)


__all__ = ["decimal", "percent"]
