"""Checks shared by the tests of the analysis's explanations in other languages (issue 38)."""

from __future__ import annotations

import re
from collections import Counter

#: English words of the explanations that no translation keeps.
ENGLISH = re.compile(r"\b(the|instead|leaves|gives|does not|hits|wins|gammoned|cubeless|should|doubling|"
                     r"playing on|worth|better|weaker)\b")


def same_numbers(english_text: str, text: str) -> bool:
    """Whether ``text`` names the numbers ``english_text`` names (a decimal comma splits them as a point
    does; plays keep their notation), but for a bar point, which a language may call point 7."""
    mine, theirs = Counter(re.findall(r"\d+", english_text)), Counter(re.findall(r"\d+", text))
    extra = theirs - mine
    return not mine - theirs and set(extra) <= {"7"} and extra["7"] <= english_text.count("the bar point")
