"""Why a step is refused, in the reader's language: core's code and numbers, worded here.

gammon.core says why a checker cannot make a step (:meth:`gammon.core.steps.StepTree.refusal`)
as a stable code (:class:`~gammon.core.position.StepReason`), which of the code's sentences
it is (``form``), and the numbers it names (``facts``), with an English sentence beside them.
Core speaks no other language; this module words the same rule from the code and the
numbers with the catalogs (:func:`refusal_text`), as :mod:`gammon.web.error_words` does
for the API's error codes.  In English the answer is core's own sentence, unchanged
(:func:`worded` gives the same words from the catalog's English, which a test holds to
core's for every reason).
"""

from __future__ import annotations

from collections.abc import Sequence

from gammon.core.position import StepReason
from gammon.core.steps import StepRefusal
from gammon.i18n import DEFAULT, N_, _, ngettext, use_language

#: One sentence per reason (and form) without a number to agree with.
_FIXED: dict[tuple[StepReason, str], str] = {
    (StepReason.ROLL_PLAYED, "played"): N_("your roll is played: confirm the move, or undo a step "
                                           "to change it"),
    (StepReason.ROLL_PLAYED, "unplayable"): N_("your roll cannot be played at all: the turn passes"),
    (StepReason.WRONG_WAY, ""): N_("checkers move only forward, toward your home board (and off from it)"),
    (StepReason.BAD_POINT, ""): N_("a step goes from 1-25 (25 = bar) down to 0-24 (0 = off), not {start}/{to}"),
    (StepReason.NO_CHECKER, "opponent"): N_("that is your opponent's checker"),
    (StepReason.NO_CHECKER, "bar"): N_("you have no checker on the bar"),
    (StepReason.NO_CHECKER, "point"): N_("you have no checker on point {start}"),
    (StepReason.NO_HIT_YET, ""): N_("Dutch backgammon: no hitting before one of your checkers has reached "
                                    "your home board (points 1-6)"),
    (StepReason.BEAR_OFF_HIGHER, ""): N_("a higher number bears off only from the highest point: a checker "
                                         "still stands on point {high}, and point {start} needs a {start} "
                                         "to bear off"),
    (StepReason.HIGHER_DIE, ""): N_("only one die of this roll can be played, and then it must be the "
                                    "higher: play the {die}"),
    (StepReason.MORE_DICE, ""): N_("a play must use as many dice as it can, and after that step the rest of "
                                   "the roll could not be played: start with another checker or another die"),
}


def _counted(reason: StepReason, form: str, n: int) -> str | None:
    """The sentence of a reason that names a count (its plural form for ``n``), or None."""
    if reason is StepReason.BAR_FIRST:
        return ngettext("a checker on the bar must enter first: {n} of yours is on the bar, and nothing else "
                        "moves before it enters",
                        "a checker on the bar must enter first: {n} of yours are on the bar, and nothing else "
                        "moves before they enter", n)
    if reason is StepReason.BLOCKED:
        return ngettext("point {to} is blocked: your opponent has {n} checker there (a checker lands only "
                        "where the opponent has at most one)",
                        "point {to} is blocked: your opponent has {n} checkers there (a checker lands only "
                        "where the opponent has at most one)", n)
    if reason is StepReason.POOL_NOT_ENTERED:
        return ngettext("Acey-Deucey: bearing off waits until every checker has entered and come home; "
                        "{n} still waits in the pool",
                        "Acey-Deucey: bearing off waits until every checker has entered and come home; "
                        "{n} still wait in the pool", n)
    if reason is StepReason.BEAR_OFF_NOT_HOME:
        return ngettext("bearing off needs every checker home (points 1-6); {n} is still outside",
                        "bearing off needs every checker home (points 1-6); {n} are still outside", n)
    if reason is StepReason.NO_DIE and form == "point":
        return ngettext("no die left makes that move: point {to} is {n} pip away ({dice})",
                        "no die left makes that move: point {to} is {n} pips away ({dice})", n)
    if reason is StepReason.NO_DIE and form == "off":
        return _("bearing off from point {start} needs a {n} ({dice})")
    return None


def _joined(items: Sequence[str]) -> str:
    """``items`` joined with the language's "and" (``6 and 5``, ``4 and 4 and 4``)."""
    text = items[0]
    for item in items[1:]:
        text = _("{first} and {second}").format(first=text, second=item)
    return text


def _dice(left: Sequence[int]) -> str:
    """The dice left, as the refusal names them: ``dice left: 6 and 5``, ``die left: 3``."""
    return ngettext("die left: {dice}", "dice left: {dice}", len(left)).format(
        dice=_joined([str(d) for d in left]))


def worded(refusal: StepRefusal) -> str | None:
    """The refusal in the current language from its code, form and numbers (None: a reason worded
    nowhere here, for which core's English is all there is)."""
    facts = dict(refusal.facts)
    numbers = {k: v for k, v in facts.items() if isinstance(v, int)}
    dice = facts.get("dice")
    if refusal.reason is StepReason.NO_DIE:
        numbers["n"] = numbers.get("distance", 0)
    template = _FIXED.get((refusal.reason, refusal.form))
    text = _(template) if template is not None else _counted(refusal.reason, refusal.form, numbers.get("n", 0))
    if text is None:
        return None
    try:
        sentence = text.format(dice=_dice(dice) if isinstance(dice, tuple) and dice else "", **numbers)
    except (KeyError, IndexError):  # a refusal without the numbers its sentence names
        return None
    goal = refusal.on_the_way_to
    if goal is None:
        return sentence
    way = _("on the way off: {rule}") if goal == 0 else _("on the way to point {to}: {rule}")
    return way.format(rule=sentence, to=goal)


def refusal_text(refusal: StepRefusal, language: str) -> str:
    """What to tell a person in ``language`` about ``refusal``: core's sentence in English, else
    :func:`worded` in that language (core's sentence when it has no wording here)."""
    if language == DEFAULT:
        return refusal.message
    with use_language(language):
        return worded(refusal) or refusal.message


__all__ = ["refusal_text", "worded"]
