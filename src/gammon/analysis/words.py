"""Sentences kept as data, worded in any language when they are shown.

The analysis explains a mistake once, when it runs; the reader may read it later in
another language (the browser's page, ``gammon analyse --lang``).  So an explanation is
kept as *words*: a catalog message (its English, the gettext id) with its fields, each
field plain text (a play's notation), a whole number, a number to write as the
language writes it (:func:`percent`, :func:`signed`, :func:`fixed`), other words, or a
list of words joined with the language's "and" (:func:`joined`).  :func:`render` writes
them in the current language (:mod:`gammon.i18n`); in English it gives byte for byte
the sentence the analysis always wrote.

Words are JSON-ready dictionaries (strings, numbers, lists), so a server can keep them
beside its cached report and word them for each request.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gammon.i18n import DEFAULT, _, current_language, ngettext
from gammon.i18n.numbers import decimal
from gammon.i18n.numbers import percent as language_percent

#: A sentence as data: ``{"say": message, "with": fields}`` (``"say": [singular, plural]`` and
#: ``"n"`` for a message with plural forms), or a number or list form (see the module).
Words = dict[str, Any]


def say(message: str, /, **fields: Any) -> Words:
    """``message`` (marked for the catalogs with ``N_`` where it is written) with its ``fields``."""
    return {"say": message, "with": fields}


def say_n(singular: str, plural: str, n: int, /, **fields: Any) -> Words:
    """The form of ``singular``/``plural`` for ``n`` (``{n}`` is filled too); written with ``Nn_``
    so that the catalogs take the pair as one message with plural forms."""
    return {"say": [singular, plural], "n": int(n), "with": fields}


def percent(value: float) -> Words:
    """A chance, written ``43%`` (English), ``43 %`` (Norwegian)."""
    return {"percent": float(value)}


def signed(value: float) -> Words:
    """An equity with its sign and three decimals: ``+0.123``, ``+0,123``."""
    return {"signed": float(value)}


def fixed(value: float) -> Words:
    """A positive difference with three decimals: ``0.123``, ``0,123``."""
    return {"fixed": float(value)}


def joined(items: Sequence[Words]) -> Words:
    """``items`` as one phrase: ``a, b and c`` in English, the language's "and" in each."""
    return {"and": list(items)}


def Nn_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - named like gettext's markers
    """Mark a message with plural forms for the catalogs (the pair, untranslated; see :func:`say_n`)."""
    return singular, plural


def _number(words: Words) -> str | None:
    """A number form in the current language (None: not a number form)."""
    english = current_language() == DEFAULT
    if "percent" in words:
        x = words["percent"]
        return f"{100 * x:.0f}%" if english else language_percent(x, 0)
    if "signed" in words:
        return f"{words['signed']:+.3f}" if english else decimal(words["signed"], 3, sign=True)
    if "fixed" in words:
        return f"{words['fixed']:.3f}" if english else decimal(words["fixed"], 3)
    return None


def _field(value: Any) -> Any:
    """A field's text: words rendered, plain values as they are."""
    return render(value) if isinstance(value, dict) else value


def render(words: Words) -> str:
    """``words`` in the current language (the English message when the catalog has none)."""
    number = _number(words)
    if number is not None:
        return number
    if "and" in words:
        parts = [render(w) for w in words["and"]]
        if len(parts) <= 1:
            return "".join(parts)
        return _("{first} and {second}").format(first=", ".join(parts[:-1]), second=parts[-1])
    fields = {name: _field(value) for name, value in words.get("with", {}).items()}
    message = words["say"]
    if isinstance(message, list):
        n = words["n"]
        return ngettext(message[0], message[1], n).format(n=n, **fields)
    return _(message).format(**fields)


def explanation_text(decision: Any) -> str | None:
    """A decision's explanation (:class:`~gammon.analysis.decisions.Decision`) in the current language:
    its words worded here, else the English it keeps (a decision read back from JSON has no words)."""
    words = getattr(decision, "explanation_words", None)
    if words is None or current_language() == DEFAULT:
        return decision.explanation  # type: ignore[no-any-return]
    return render(words)


def english(words: Words) -> str:
    """``words`` in English, whatever the language in use (what the analysis keeps as its text)."""
    from gammon.i18n import use_language

    with use_language(DEFAULT):
        return render(words)


__all__ = [
    "Nn_", "Words", "english", "explanation_text", "fixed", "joined", "percent", "render", "say", "say_n",
    "signed",
]
