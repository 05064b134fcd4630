"""Why a step is refused, in the reader's language (issue 38): the code is core's, the words the page's.

gammon.core names the rule a refused step breaks as a code with the numbers it needs
(:class:`gammon.core.steps.StepRefusal`); the web edge words it in the request's
language (:mod:`gammon.web.step_words`).  Every reason core can give is found here by
trying every step on boards and rolls that reach it, and each must be worded: in English
exactly core's sentence, in Norwegian, Swedish, Danish and Polish another sentence that
still names the same numbers.  ``POST /api/games/{id}/why-not`` answers in the language
of the page's cookie.
"""

from __future__ import annotations

import re
from itertools import combinations_with_replacement

import pytest

from boards import pos, rows
from gammon import Position
from gammon.core.position import StepReason
from gammon.core.steps import StepRefusal
from gammon.i18n import LANGUAGES
from gammon.web.step_words import refusal_text, worded
from webclient import TEST_SERVER, TestClient, bearer, client_fixture

client = client_fixture("refusalwords", **TEST_SERVER)

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
DICE = list(combinations_with_replacement(range(1, 7), 2))
BOARDS = [
    Position.initial(),
    pos("x: bar:2 13:5 6:5; o: 24:2 13:5 6:2 5:2 4:2"),  # two on the bar, some entries blocked
    pos("x: 7:1 6:2 5:3; o: 24:2"),  # bearing off with one checker outside
    pos("x: 5:1 2:1; o: 13:2"),  # a higher die bears off only from the highest point
    pos("x: 24:1 13:2 6:12; o: 7:2 6:2"),  # blocked on the way
    Position.from_position_id("P4BgZA3/PwBAAA"),  # only one die playable: the higher
    Position.from_position_id("4j1kJCB+HwIAGA"),  # as many dice as possible
    pos("x: 24:14 13:1; o: bar:14 15:1", "dutch"),  # Dutch: no hitting yet
    Position(*rows("x: bar:1 6:14; o: 24:2 bar:13"), "acey-deucey", pool=(1, 13)),
    Position(*rows("x: bar:2 6:13; o: 24:2 bar:13"), "acey-deucey", pool=(2, 13)),
]


def _refusals() -> list[StepRefusal]:
    """Every distinct refusal of every step tried from the root (and after a whole play) on :data:`BOARDS`."""
    found: dict[tuple[object, ...], StepRefusal] = {}
    for board in BOARDS:
        for dice in DICE:
            tree = board.step_tree(dice)
            ends = [0] + [i for i, node in enumerate(tree.nodes) if node.complete][:1]
            for at in ends:
                for start in range(26):
                    for end in range(26):
                        r = tree.refusal(at, start, end)
                        if r is not None:
                            key = (r.reason, r.form, r.on_the_way_to is None, dict(r.facts).get("n") == 1)
                            found.setdefault(key, r)
    return list(found.values())


REFUSALS = _refusals()


def test_every_reason_is_found() -> None:
    # The sweep reaches every rule core names, so the checks below cover them all.
    assert {r.reason for r in REFUSALS} == set(StepReason)
    assert any(r.on_the_way_to is not None for r in REFUSALS)


@pytest.mark.parametrize("refusal", REFUSALS, ids=lambda r: f"{r.reason.value}-{r.form}-{r.on_the_way_to}")
def test_english_words_are_cores_sentence(refusal: StepRefusal) -> None:
    # The catalog's English must say what core says, number for number.
    assert worded(refusal) == refusal.message
    assert refusal_text(refusal, "en") == refusal.message


@pytest.mark.parametrize("language", OTHERS)
def test_each_language_words_every_reason(language: str) -> None:
    for refusal in REFUSALS:
        text = refusal_text(refusal, language)
        assert text != refusal.message, (language, text)
        assert not re.search(r"\b(the|your|checker|point|die|dice)\b", text), (language, text)
        # The numbers of the rule are the same in every language.
        numbers = sorted(re.findall(r"\d+", refusal.message))
        assert sorted(re.findall(r"\d+", text)) == numbers, (language, text, refusal.message)


def test_why_not_answers_in_the_pages_language(client: TestClient) -> None:
    d = client.post("/api/games", json={"opponent": "human", "test_seed": "00" * 32}).json()
    gid = d["game_id"]
    joined = client.post(f"/api/games/{gid}/join", headers=bearer(d["invite_token"]), json={}).json()
    tokens = (d["token"], joined["token"])
    for _ in range(20):
        s = client.post(f"/api/games/{gid}/actions", json={"type": "roll"}, headers=bearer(tokens[0])).json()
        if s["state"]["phase"] == "move":
            break
    answers = {}
    for language in LANGUAGES:
        client.cookies.set("gammon_lang", language)
        # Backwards, then a checker that is the opponent's: two of core's codes.
        back = client.post(f"/api/games/{gid}/why-not", json={"from_point": 8, "to_point": 13}).json()
        theirs = client.post(f"/api/games/{gid}/why-not", json={"from_point": 12, "to_point": 11}).json()
        assert (back["reason"], theirs["reason"]) == ("wrong_way", "no_checker")
        answers[language] = (back["message"], theirs["message"])
    client.cookies.delete("gammon_lang")
    assert answers["en"] == ("checkers move only forward, toward your home board (and off from it)",
                             "that is your opponent's checker")
    assert len(set(answers.values())) == len(LANGUAGES)  # five languages, five wordings
    assert "brikke" in answers["nb"][1] and "pionek" in answers["pl"][1]
