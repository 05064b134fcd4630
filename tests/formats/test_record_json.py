"""gammon's JSON match record: exact round trips for everything, dice commitments, errors."""

from __future__ import annotations

import json

import pytest

from gammon.core.dice import CardDice, RandomDice
from gammon.core.fair_dice import CryptoDice
from gammon.core.game import AcceptResignation, Move, Phase, RejectResignation, Resign, Roll, Rules
from gammon.core.match import Match
from gammon.core.position import ResultKind
from gammon.formats.mat import RecordFormatError
from gammon.formats.record_json import (
    FORMAT,
    JsonFormatError,
    dice_info_of,
    match_from_json,
    match_to_dict,
    match_to_json,
    record_from_json,
    verify_dice,
)
from matches import assert_same_match, play_match, trace


def assert_exact(a: Match, b: Match) -> None:
    """The same actions in the same order, game by game, and the same states."""
    assert [g.record for g in a.games] == [g.record for g in b.games]
    assert trace(a) == trace(b)
    assert a.score == b.score and a.is_over == b.is_over
    assert [g.result for g in a.games] == [g.result for g in b.games]
    assert [(g.cube_value, g.cube_owner, g.phase, g.position) for g in a.games] == \
        [(g.cube_value, g.cube_owner, g.phase, g.position) for g in b.games]


@pytest.mark.parametrize(("rules", "limit"), [
    (Rules(match_length=7), None),
    (Rules(match_length=0, beavers=True, jacoby=True, automatic_doubles=2, cube_limit=1024), 5),
    (Rules(variant="dutch", match_length=5), None),
    (Rules(variant="acey-deucey"), 3),
    (Rules(variant="nackgammon", match_length=3, crawford=False), None),
    (Rules(variant="hypergammon1", match_length=0, gammons=False), 4),
])
def test_exact_round_trip(rules: Rules, limit: int | None) -> None:
    m = play_match(9, rules, games_limit=limit, beaver_rate=0.3, resign_rate=0.02)
    text = match_to_json(m, ("Ann", "Bo"), info={"Event": "Test"})
    back = match_from_json(text)
    assert_exact(back, m)
    assert back.rules == m.rules and back.games_limit == m.games_limit
    record = record_from_json(text)
    assert record.names == ("Ann", "Bo") and record.info == {"Event": "Test"}
    assert match_to_json(back, ("Ann", "Bo"), info={"Event": "Test"}) == text


def test_keeps_what_mat_and_sgf_drop() -> None:
    # opening ties, rejected resignations, chosen doubles: all kept in order
    rules = Rules(variant="acey-deucey")
    m = play_match(3, rules, games_limit=2, resign_rate=0.05, reject_rate=0.9)
    kinds = {type(a).__name__ for g in m.games for a in g.record}
    assert {"ChooseDouble", "RejectResignation"} <= kinds
    assert_exact(match_from_json(match_to_json(m)), m)


def test_match_in_progress_in_every_phase() -> None:
    m = Match(Rules(match_length=3))
    steps = [Roll(0, (2, 2)), Roll(0, (6, 1)), Move(0, "13/7 8/7"), Roll(1, (5, 2))]
    for step in steps:
        m.apply(step)
        assert_exact(match_from_json(match_to_dict(m)), m)
    assert m.game.phase is Phase.MOVE
    m.apply(Resign(1, ResultKind.GAMMON))
    assert_exact(match_from_json(match_to_dict(m)), m)
    m.apply(RejectResignation(0))
    m.apply(Move(1, "13/11 13/8"))
    m.apply(Resign(0))
    m.apply(AcceptResignation(1))
    assert_exact(match_from_json(match_to_json(m, indent=None)), m)


def test_mat_and_json_agree_where_both_can() -> None:
    from gammon.formats.mat import match_from_mat, write_mat

    m = play_match(21, Rules(match_length=5))
    assert_same_match(match_from_json(match_to_json(m)), match_from_mat(write_mat(m)))


# -- dice --------------------------------------------------------------------------------------


def _crypto_match(reveal: bool) -> tuple[Match, CryptoDice]:
    dice = CryptoDice(bytes(range(32)))
    m = Match(Rules(match_length=1), dice)
    while not m.is_over:
        g = m.game
        if g.phase in (Phase.OPENING, Phase.ROLL):
            m.apply(Roll(g.turn))
        else:
            m.apply(Move(g.turn, g.legal_plays()[0]))
    if reveal:
        dice.reveal()
    return m, dice


def test_crypto_commitment_then_reveal() -> None:
    m, dice = _crypto_match(reveal=False)
    doc = match_to_dict(m, dice_info=dice)
    assert doc["dice"]["commitment"] == dice.commitment and "seed" not in doc["dice"]
    assert verify_dice(record_from_json(doc)) is None  # nothing to check yet
    dice.reveal()
    doc = match_to_dict(m, dice_info=dice)
    assert doc["dice"]["seed"] == bytes(range(32)).hex()
    result = verify_dice(record_from_json(json.dumps(doc)))
    assert result is not None and result.ok
    assert_exact(match_from_json(doc), m)


def test_tampered_roll_or_seed_is_refused() -> None:
    m, dice = _crypto_match(reveal=True)
    doc = match_to_dict(m, dice_info=dice)
    record = record_from_json(doc)
    # a roll that is not what the seed gives
    game = record.games[0]
    index = max(i for i, a in enumerate(game) if isinstance(a, Roll))
    roll = game[index]
    assert isinstance(roll, Roll) and roll.dice is not None
    game[index] = Roll(roll.player, (roll.dice[0] % 6 + 1, roll.dice[1]))
    result = verify_dice(record)
    assert result is not None and not result.ok and "roll" in result.message
    # a seed that does not match the commitment
    bad_seed = match_to_dict(m, dice_info=dice)
    bad_seed["dice"]["seed"] = bytes(32).hex()
    with pytest.raises(JsonFormatError, match="commitment") as info:
        record_from_json(bad_seed)
    assert info.value.where == "dice"


def test_dice_info_of_sources() -> None:
    assert dice_info_of(RandomDice(5)) == {"kind": "random", "seed": 5}
    assert dice_info_of(CardDice(7)) == {"kind": "cards", "seed": 7}
    assert dice_info_of(None) is None
    m = play_match(1, Rules(match_length=1))
    doc = match_to_dict(m, dice_info={"kind": "cards", "seed": 7, "shown": ["A♠ 4♥"]})
    assert record_from_json(json.dumps(doc, ensure_ascii=False)).dice == {"kind": "cards", "seed": 7,
                                                                         "shown": ["A♠ 4♥"]}


# -- errors --------------------------------------------------------------------------------------


def _doc() -> dict[str, object]:
    m = Match(Rules(match_length=3))
    for a in [Roll(0, (6, 1)), Move(0, "13/7 8/7"), Roll(1, (5, 2)), Move(1, "13/11 13/8"), Resign(0),
              AcceptResignation(1)]:
        m.apply(a)
    return match_to_dict(m)


@pytest.mark.parametrize(("change", "where"), [
    (lambda d: d.update(format="other"), "format"),
    (lambda d: d.update(version=9), "version"),
    (lambda d: d["rules"].update(match_length="five"), "rules.match_length"),
    (lambda d: d["rules"].update(colour="red"), "rules.colour"),
    (lambda d: d["rules"].update(variant="chess"), "rules.variant"),
    (lambda d: d.update(names=["one"]), "names"),
    (lambda d: d["games"][0][0].update(dice=[7, 1]), "games[0][0].dice"),
    (lambda d: d["games"][0][0].update(action="dance"), "games[0][0].action"),
    (lambda d: d["games"][0][1].update(player=2), "games[0][1].player"),
    (lambda d: d["games"][0][1].update(position="not an id"), "games[0][1].position"),
    (lambda d: d["games"][0].insert(1, {"action": "double", "player": 0}), "games[0][1]"),
    (lambda d: d.update(score=[0, 0]), "score"),
])
def test_bad_records_name_the_place(change: object, where: str) -> None:
    doc = json.loads(json.dumps(_doc()))
    change(doc)  # type: ignore[operator]
    with pytest.raises(JsonFormatError) as info:
        record_from_json(doc)
    assert isinstance(info.value, RecordFormatError)
    assert info.value.where == where, str(info.value)
    assert str(info.value).startswith(f"{where}:")


def test_json_syntax_error_has_a_line() -> None:
    with pytest.raises(JsonFormatError) as info:
        record_from_json('{\n "format": "gammon.match",\n "version": 1,,\n}')
    assert info.value.line == 3


def test_format_name() -> None:
    assert _doc()["format"] == FORMAT
