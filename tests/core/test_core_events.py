"""Typed events: every kind a game, a match and the driver emit has one payload type.

The words and the ``data`` dicts are a wire format (stored with each action,
read by the page): these tests pin that they did not change, and that every
event the engine emits reads back as its kind's payload.
"""

from __future__ import annotations

import json

import pytest

from gammon.core import events as ev
from gammon.core.dice import RandomDice
from gammon.core.errors import GammonError
from gammon.core.events import PAYLOADS, Event, EventKind
from gammon.core.game import Game, Rules
from gammon.core.variants import find_variant
from gammon.play.players import RandomPlayer
from gammon.play.session import play_match
from gammon.store.codec import event_to_dict

#: The 23 words as stored in records before the enum existed.
WORDS = [
    "opening-tie", "auto-double", "opening", "rolled", "no-move", "played", "choose-double", "chose-double",
    "roll-again", "turn", "doubled", "took", "beavered", "dropped", "resigned", "resignation-accepted",
    "resignation-rejected", "timeout", "game-over", "new-game", "score", "match-over", "game-start",
]


def test_the_words_are_the_stored_ones_and_each_has_one_payload() -> None:
    assert [k.value for k in EventKind] == WORDS
    assert set(PAYLOADS) == set(EventKind)
    assert all(cls.kind is kind for kind, cls in PAYLOADS.items())
    # choose-double (the game waits for a double to be named) and chose-double (it was named)
    # are two events: both words are kept.
    assert EventKind.CHOOSE_DOUBLE != EventKind.CHOSE_DOUBLE


@pytest.mark.parametrize(("payload", "data"), [
    (ev.Opening((3, 5)), {"dice": (3, 5)}),
    (ev.Opening((3, 5), reroll=True), {"dice": (3, 5), "reroll": True}),
    (ev.GameOver(2, "gammon"), {"points": 2, "kind": "gammon"}),
    (ev.GameOver(3, "single", timeout=True), {"points": 3, "kind": "single", "timeout": True}),
    (ev.Resigned("backgammon"), {"kind": "backgammon"}),
    (ev.NoMove(), {}),
])
def test_payload_and_data_convert_both_ways(payload: ev.Payload, data: dict[str, object]) -> None:
    e = Event.of(0, "text", payload)
    assert e.kind is payload.kind and e.data == data
    assert list(e.data) == list(data)  # the key order of the stored JSON too
    assert e.payload == payload
    assert Event(payload.kind.value, 0, "text", data) == e  # the word is read as the kind


def test_an_event_refuses_an_unknown_kind_or_foreign_data() -> None:
    with pytest.raises(GammonError, match="unknown event kind 'rolls'"):
        Event("rolls", 0, "", {})
    with pytest.raises(GammonError, match="'rolled' event's data"):
        Event("rolled", 0, "", {})  # the dice are missing
    with pytest.raises(GammonError, match="'turn' event's data"):
        Event("turn", 0, "", {"dice": (1, 2)})


@pytest.mark.parametrize("variant", ["standard", "acey-deucey", "dutch"])
def test_every_emitted_event_reads_as_its_payload(variant: str) -> None:
    """Whole matches of random play: each event's payload gives back its data, and the stored
    form is the plain JSON it always was (the kind a plain string)."""
    seen: set[EventKind] = set()

    def check(e: Event) -> None:
        seen.add(e.kind)
        payload = e.payload
        assert isinstance(payload, PAYLOADS[e.kind])
        assert Event.of(e.player, e.text, payload) == e
        stored = json.loads(json.dumps(event_to_dict(e)))
        assert stored["kind"] == e.kind.value and type(event_to_dict(e)["kind"]) is str

    rules = Rules(variant=find_variant(variant), match_length=5, beavers=False)
    players = [RandomPlayer(seed=s, double_rate=0.3, resign_rate=0.02) for s in (1, 2)]
    play_match(rules, players, RandomDice(7), on_event=check)
    assert {EventKind.ROLLED, EventKind.PLAYED, EventKind.GAME_OVER, EventKind.SCORE,
            EventKind.MATCH_OVER, EventKind.GAME_START} <= seen


def test_game_events_match_on_payload_types() -> None:
    game = Game(Rules(), dice=RandomDice(3))
    kinds = []
    for e in game.apply(game.allowed_actions()[0]):
        match e.payload:
            case ev.Opening(dice=(d0, d1)):
                kinds.append(("opening", d0 != d1))
            case ev.OpeningTie(dice=(d0, d1)):
                kinds.append(("tie", d0 == d1))
            case ev.Rolled(dice=dice):
                kinds.append(("rolled", len(dice) == 2))
    assert kinds and all(ok for _, ok in kinds)
