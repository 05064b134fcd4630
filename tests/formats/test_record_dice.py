"""A JSON match record's crypto dice: every roll of every game is checked against the seed.

The record's promise (``gammon.formats.record_json``): a crypto-dice record whose seed has
been revealed is checked against its commitment, every roll in order.  A match has many
games and one seed; the rolls are numbered across the whole match.  So a changed roll in the
second or last game must be caught just as one in the first.

The changes used here keep the record replayable, so the dice check is really reached: a
normal (not opening) roll with its two dice swapped allows exactly the same plays.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gammon.cli import app
from gammon.core.fair_dice import CryptoDice, derive_roll
from gammon.core.game import Move, Phase, Roll, Rules
from gammon.core.match import Match
from gammon.formats.record_json import JsonFormatError, match_to_dict, record_from_json, verify_dice

SEED = bytes(range(100, 132))


def crypto_match(length: int = 4, seed: bytes = SEED, play_seed: int = 4) -> tuple[Match, CryptoDice]:
    """A finished match between random players on crypto dice, the seed revealed."""
    dice = CryptoDice(seed)
    rng = random.Random(play_seed)
    m = Match(Rules(match_length=length, gammons=False), dice)  # one point a game: several games
    while not m.is_over:
        g = m.game
        if g.is_over:
            m.next_game()
        elif g.phase in (Phase.OPENING, Phase.ROLL):
            m.apply(Roll(g.turn))
        else:
            m.apply(Move(g.turn, rng.choice(g.legal_plays())))
    dice.reveal()
    return m, dice


def normal_rolls(doc: dict) -> list[tuple[int, int, int]]:
    """``(game, action, global roll number)`` of each roll that is not an opening throw and not a double."""
    out = []
    n = 0
    for gi, game in enumerate(doc["games"]):
        opening = True
        for ai, a in enumerate(game):
            if a["action"] != "roll":
                continue
            d = a["dice"]
            if not opening and d[0] != d[1]:
                out.append((gi, ai, n))
            if opening and d[0] != d[1]:
                opening = False
            n += 1
    return out


@pytest.fixture(scope="module")
def match() -> tuple[Match, CryptoDice]:
    m, dice = crypto_match()
    assert len(m.games) >= 3, "the fixture match should have several games"
    return m, dice


def swapped(doc: dict, gi: int, ai: int) -> dict:
    doc = json.loads(json.dumps(doc))
    d = doc["games"][gi][ai]["dice"]
    d[0], d[1] = d[1], d[0]
    return doc


def test_the_honest_record_checks_out(match: tuple[Match, CryptoDice]) -> None:
    m, dice = match
    doc = match_to_dict(m, dice_info=dice)
    record = record_from_json(doc)
    result = verify_dice(record)
    assert result is not None and result.ok
    total = sum(1 for g in doc["games"] for a in g if a["action"] == "roll")
    assert f"all {total} rolls" in result.message
    # the rolls are the seed's, numbered across the whole match
    rolls = [tuple(a["dice"]) for g in doc["games"] for a in g if a["action"] == "roll"]
    assert rolls == [derive_roll(SEED, i) for i in range(total)]


@pytest.mark.parametrize("which", ["first game", "second game", "last game"])
def test_a_swapped_roll_in_any_game_is_refused(match: tuple[Match, CryptoDice], which: str) -> None:
    m, dice = match
    doc = match_to_dict(m, dice_info=dice)
    candidates = normal_rolls(doc)
    last = len(doc["games"]) - 1
    game = {"first game": 0, "second game": 1, "last game": last}[which]
    gi, ai, n = next(c for c in candidates if c[0] == game)
    bad = swapped(doc, gi, ai)
    with pytest.raises(JsonFormatError, match="do not check out") as info:
        record_from_json(bad)
    assert info.value.where == "dice"
    assert f"roll {n + 1} " in str(info.value)


def test_verify_dice_names_the_first_bad_roll_of_a_later_game(match: tuple[Match, CryptoDice]) -> None:
    m, dice = match
    doc = match_to_dict(m, dice_info=dice)
    record = record_from_json(doc)
    gi, ai, n = next(c for c in normal_rolls(doc) if c[0] == len(doc["games"]) - 1)
    roll = record.games[gi][ai]
    assert isinstance(roll, Roll) and roll.dice is not None
    record.games[gi][ai] = Roll(roll.player, (roll.dice[1], roll.dice[0]))
    result = verify_dice(record)
    assert result is not None and not result.ok and result.first_bad_index == n


def test_a_game_played_on_other_dice_is_refused(match: tuple[Match, CryptoDice]) -> None:
    """Later games whose rolls the seed does not give: the record replays, the check fails."""
    m, dice = match
    doc = match_to_dict(m, dice_info=dice)
    first_game_rolls = sum(1 for a in doc["games"][0] if a["action"] == "roll")
    other, _ = crypto_match(seed=bytes(32), play_seed=9)
    other_doc = match_to_dict(other)
    # game 1 of the honest match, then the other match's later games (the same rules)
    spliced = dict(doc, games=doc["games"][:1] + other_doc["games"][1:], score=None)
    record_from_json(dict(spliced, dice=None))  # it replays: only the dice check can refuse it
    with pytest.raises(JsonFormatError, match="do not check out") as info:
        record_from_json(spliced)
    bad = int(str(info.value).split("(index ")[1].split(")")[0])
    assert bad >= first_game_rolls


# -- the command line: `gammon verify` ------------------------------------------------------------

runner = CliRunner()


def test_cli_verify_catches_a_swapped_roll_that_still_replays(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    made = runner.invoke(app, ["selfplay", "--level", "heuristic", "--match-length", "3", "--seed", "1",
                               "--dice", "crypto", "--out", str(out)])
    assert made.exit_code == 0, made.output
    ok = runner.invoke(app, ["verify", str(out)])
    assert ok.exit_code == 0 and ok.output.startswith("OK: ") and "all legal" in ok.output, ok.output

    doc = json.loads(out.read_text())
    for gi, ai, n in (normal_rolls(doc)[0], normal_rolls(doc)[-1]):
        bad = swapped(doc, gi, ai)
        # the changed record still replays: only the dice check can refuse it
        plain = dict(bad, dice=None)
        record_from_json(plain)
        out.write_text(json.dumps(bad))
        result = runner.invoke(app, ["verify", str(out)])
        assert result.exit_code == 1, result.output
        assert result.output.startswith("FAILED") and f"roll {n + 1} " in result.output, result.output


def test_a_seed_that_is_not_hex_is_named(match: tuple[Match, CryptoDice]) -> None:
    m, dice = match
    doc = match_to_dict(m, dice_info=dice)
    doc["dice"]["seed"] = "not hex at all"
    with pytest.raises(JsonFormatError) as info:
        record_from_json(doc)
    assert info.value.where == "dice.seed" and str(info.value) == "dice.seed: the seed is not hex"
