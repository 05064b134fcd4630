"""The one mapping between recorded actions and plain data (gammon.formats.record_actions).

Every record names actions through it: the store, the JSON match file, the web
service's commands and views, the analysis.  These tests check that every kind of
action survives the trip to data and back, that whole matches replay the same
from the data, and that malformed data is refused with the field named.
"""

from __future__ import annotations

import json
import typing
from typing import Any

import pytest

from gammon.core.actions import (
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    Double,
    Drop,
    Move,
    NewGame,
    RejectResignation,
    Resign,
    Roll,
    Take,
    Timeout,
)
from gammon.core.errors import GammonError
from gammon.core.game import Phase, Rules
from gammon.core.match import Match
from gammon.core.plays import Play
from gammon.core.position import Position, ResultKind
from gammon.core.variants import ACEY_DEUCEY, STANDARD
from gammon.formats.record import RecordFormatError
from gammon.formats.record_actions import (
    ACTION_NAMES,
    action_from_data,
    action_name,
    action_to_data,
)
from matches import play_match

START = Position.initial()
OPENING_PLAY = START.legal_plays((3, 1))[0]

#: One action of every kind, with each value a kind can carry.
EVERY_KIND: list[Action] = [
    Roll(0, (3, 1)), Roll(1, (6, 6)), Move(0, OPENING_PLAY), Move(1, START),
    Move(0, "13/10 24/23"), Double(1), Take(0), Drop(1), Beaver(0), Take(1), Drop(0),
    Resign(0, ResultKind.SINGLE), Resign(1, ResultKind.GAMMON), Resign(0, ResultKind.BACKGAMMON),
    AcceptResignation(1), RejectResignation(0), NewGame(), Timeout(1),
    ChooseDouble(0, 1), ChooseDouble(1, 6),
]


def test_every_kind_of_action_has_one_name() -> None:
    kinds = set(typing.get_args(Action))
    assert set(ACTION_NAMES) == kinds
    assert len(set(ACTION_NAMES.values())) == len(kinds)  # no two kinds share a name
    assert {type(a) for a in EVERY_KIND} == kinds  # the table below covers every kind


@pytest.mark.parametrize("action", EVERY_KIND, ids=lambda a: f"{type(a).__name__}")
def test_round_trip_of_each_kind(action: Action) -> None:
    data = action_to_data(action)
    assert data["type"] == action_name(action) and data["player"] == action.player
    back = action_from_data(json.loads(json.dumps(data)), STANDARD)
    if isinstance(action, Move) and isinstance(action.play, Play):
        # A play is recorded by where it leads (the position decides), its notation and moves beside it.
        assert back == Move(action.player, action.play.position)
        assert data["play"] == str(action.play)
        assert data["moves"] == [[m.from_point, m.to_point, m.hit] for m in action.play.moves]
    else:
        assert back == action
        assert action_to_data(back) == data


@pytest.mark.parametrize(("rules", "limit"), [
    (Rules(match_length=5), None),
    (Rules(match_length=0, beavers=True, jacoby=True, automatic_doubles=1), 4),
    (Rules(variant="acey-deucey"), 2),
    (Rules(variant="dutch", match_length=3), None),
])
def test_whole_matches_replay_from_the_data(rules: Rules, limit: int | None) -> None:
    m = play_match(5, rules, games_limit=limit, beaver_rate=0.4, resign_rate=0.03, reject_rate=0.5)
    data = [action_to_data(a) for a in m.actions]
    back = Match.replay(rules, [action_from_data(d, rules.variant) for d in json.loads(json.dumps(data))],
                        games_limit=limit)
    assert [g.record for g in back.games] != [] and back.score == m.score
    assert [(g.position, g.cube_value, g.phase, g.result) for g in back.games] == \
        [(g.position, g.cube_value, g.phase, g.result) for g in m.games]
    names = {d["type"] for d in data}
    assert {"roll", "play"} <= names and ("new-game" in names) == (len(m.games) > 1)


def test_beaver_answers_and_chosen_double_replay() -> None:
    # A beaver is answered by the doubler (take or drop); Acey-Deucey's 1-2 names a double.
    money = Rules(match_length=0, beavers=True)
    m = Match(money)
    for a in [Roll(0, (3, 1)), Move(0, "8/5 6/5"), Double(1), Beaver(0), Take(1), Roll(1, (6, 5))]:
        m.apply(a)
    data = [action_to_data(a) for a in m.actions]
    assert [d["type"] for d in data][2:5] == ["double", "beaver", "take"]
    back = Match.replay(money, [action_from_data(d, STANDARD) for d in data])
    assert back.game.cube_value == 4 and back.game.cube_owner == 0
    ad = Rules(variant="acey-deucey")
    m = Match(ad)
    m.apply(Roll(0, (5, 3)))
    m.apply(Roll(0, (2, 1)))
    while not isinstance(m.game.record[-1], ChooseDouble):
        if m.game.phase is Phase.CHOOSE_DOUBLE:
            m.apply(ChooseDouble(m.game.turn, 4))
        else:
            m.apply(Move(m.game.turn, m.game.legal_plays()[0]))
    data = [action_to_data(a) for a in m.actions]
    assert {"type": "choose-double", "player": m.game.turn, "number": 4} in data
    back = Match.replay(ad, [action_from_data(d, ACEY_DEUCEY) for d in data])
    assert back.game.position == m.game.position and back.game.rolled == m.game.rolled


def test_other_spellings_are_read() -> None:
    # gammon's JSON match file (version 1) writes "move" and "choose_double".
    assert action_from_data({"action": "move", "player": 0, "position": START.position_id}, STANDARD,
                            kind_key="action") == Move(0, START)
    assert action_from_data({"type": "choose_double", "player": 1, "number": 3}, STANDARD) == ChooseDouble(1, 3)


@pytest.mark.parametrize(("data", "words"), [
    ("roll", "action: an action must be an object"),
    ({"type": "castle", "player": 0}, "action.type: unknown action 'castle'"),
    ({"type": "double", "player": 2}, "action.player: bad player"),
    ({"type": "double", "player": True}, "action.player: bad player"),
    ({"type": "roll", "player": 0, "dice": [7, 1]}, "action.dice: bad dice"),
    ({"type": "roll", "player": 0}, "action.dice: bad dice"),
    ({"type": "play", "player": 0}, "action.position: a move needs the position"),
    ({"type": "play", "player": 0, "play": "8/5 " * 100}, "action.position: a move needs the position"),
    ({"type": "play", "player": 0, "position": "!!!"}, "action.position"),
    ({"type": "resign", "player": 0, "kind": "triple"}, "action.kind: bad resignation 'triple'"),
    ({"type": "choose-double", "player": 0, "number": 0}, "action.number: bad double 0"),
    ({"type": "new-game", "player": 0}, "action.player: the next game is started by nobody"),
])
def test_malformed_data_is_refused_with_the_field_named(data: object, words: str) -> None:
    with pytest.raises(RecordFormatError) as info:
        action_from_data(data, STANDARD)
    assert words in str(info.value)


def test_a_roll_without_dice_cannot_be_recorded() -> None:
    with pytest.raises(GammonError, match="must carry its dice"):
        action_to_data(Roll(0))


def test_everyone_uses_the_one_mapping() -> None:
    # The store, the web API's command names and the analysis's answers are the record layer's names.
    from gammon.analysis.walk import TakeTask, walk
    from gammon.store.codec import action_from_dict, action_kind, action_to_dict
    from gammon.web.service.requests import COMMAND_TYPES

    assert set(COMMAND_TYPES) <= set(ACTION_NAMES.values())
    assert action_kind(Beaver(0)) == "beaver" and action_to_dict(ChooseDouble(0, 2)) == action_to_data(
        ChooseDouble(0, 2))
    assert action_from_dict({"type": "timeout", "player": 1}, STANDARD) == Timeout(1)
    m = Match(Rules(match_length=0, beavers=True))
    for a in [Roll(0, (3, 1)), Move(0, "8/5 6/5"), Double(1), Drop(0)]:
        m.apply(a)
    tasks, _ = walk(m.rules, [list(g.record) for g in m.games])
    assert [t.answer for t in tasks if isinstance(t, TakeTask)] == ["pass"]  # as the field writes a drop


class _Answers:
    """A player who answers every double with ``reply``."""

    def __init__(self, reply: str) -> None:
        self.reply = reply

    def answer_double(self, game: object) -> str:
        return self.reply


def test_a_players_answer_becomes_the_action_it_names() -> None:
    from gammon.play.session import next_action

    m = Match(Rules(match_length=0, beavers=True))
    for a in [Roll(0, (3, 1)), Move(0, "8/5 6/5"), Double(1)]:
        m.apply(a)
    players: list[Any] = [_Answers("beaver"), _Answers("take")]
    assert next_action(m.game, players) == Beaver(0)
    m.apply(Beaver(0))
    assert next_action(m.game, players) == Take(1)  # the doubler answers the beaver
    # No raccoons: the doubler may not beaver back; a word that names no answer is refused too.
    with pytest.raises(GammonError, match="a beaver .no raccoons. is answered 'take' or 'drop', not 'beaver'"):
        next_action(m.game, [_Answers("take"), _Answers("beaver")])
    with pytest.raises(GammonError, match="not 'maybe'"):
        next_action(m.game, [_Answers("take"), _Answers("maybe")])
