"""gammon's own JSON match record: everything ``.mat`` and SGF cannot say.

The record keeps every action as the game recorded it (opening-roll ties,
rejected resignations, Acey-Deucey's chosen doubles), every rules setting, any
variant, and what the dice were: a seed, or a cryptographic commitment and,
once revealed, the secret seed from which every roll can be checked.  Replaying
it gives exactly the same match::

    {
      "format": "gammon.match", "version": 1,
      "names": ["Alice", "Bob"],
      "rules": {"variant": "standard", "match_length": 5, "crawford": true, ...},
      "games_limit": null,
      "dice": {"kind": "crypto", "commitment": "9f86...", "seed": "4a1b..."},
      "info": {"Event": "Club night"},
      "score": [5, 3],
      "games": [[{"action": "roll", "player": 0, "dice": [3, 1]},
                 {"action": "move", "player": 0, "play": "8/5 6/5", "position": "4HPwATDgc/ABMA"},
                 {"action": "double", "player": 1}, ...], ...]
    }

A move is stored as the Position ID of the position it leads to (seen from the
mover) with its notation beside it for people; the position decides.  A game
clock running out is the action ``{"action": "timeout", "player": p}`` (player
``p`` lost the match on time: :class:`~gammon.core.actions.Timeout`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from gammon.core.errors import GammonError
from gammon.core.game import (
    Action,
    Roll,
    Rules,
)
from gammon.core.match import Match
from gammon.core.variants import find_variant
from gammon.formats.record import RecordFormatError
from gammon.formats.record_actions import action_from_data, action_to_data

__all__ = [
    "FORMAT",
    "VERSION",
    "JsonFormatError",
    "JsonRecord",
    "dice_info_of",
    "match_from_json",
    "match_to_dict",
    "match_to_json",
    "record_from_json",
    "rules_from_data",
    "rules_to_data",
    "verify_dice",
]

FORMAT = "gammon.match"
VERSION = 1


class JsonFormatError(RecordFormatError):
    """A JSON record that cannot be read: says where in the data and what was expected."""


@dataclass
class JsonRecord:
    """A JSON match record, read and checked: replay it with :meth:`replay`."""

    rules: Rules
    names: tuple[str, str]
    games: list[list[Action]]
    games_limit: int | None = None
    dice: dict[str, Any] | None = None
    info: dict[str, str] = field(default_factory=dict)

    def replay(self) -> Match:
        return Match.replay(self.rules, self.games, games_limit=self.games_limit)


# -- writing -----------------------------------------------------------------

#: How version 1 of the file spells the kinds that the record layer names otherwise.
_FILE_NAMES = {"play": "move", "choose-double": "choose_double"}


def dice_info_of(source: object) -> dict[str, Any] | None:
    """What a record says about a dice source from :mod:`gammon.core.dice`.

    Crypto dice give their commitment, the rolls made and, only once
    :meth:`~gammon.core.fair_dice.CryptoDice.reveal` has been called, the seed (hex);
    seeded dice and card piles give their seed; others their kind.
    """
    from gammon.core import dice as d

    if source is None:
        return None
    if isinstance(source, d.CryptoDice):
        out: dict[str, Any] = {"kind": "crypto", "commitment": source.commitment,
                               "rolls_made": source.rolls_made}
        if source.draw != "dice":
            out["draw"] = source.draw  # drawn as the rule texts' two piles of cards
        if source.revealed:
            out["seed"] = source.reveal().hex()
        return out
    if isinstance(source, d.RandomDice):
        return {"kind": "random", "seed": source.seed}
    if isinstance(source, d.CardDice):
        return {"kind": "cards", "seed": source.seed}
    if isinstance(source, d.ManualDice):
        return {"kind": "manual"}
    if isinstance(source, d.ScriptedDice):
        return {"kind": "scripted"}
    return {"kind": type(source).__name__}


def _action_dict(action: Action) -> dict[str, Any]:
    """The record layer's data for ``action`` (:func:`action_to_data`) as the file writes it:
    the kind under ``action``, a move by the position it leads to and its notation."""
    data = action_to_data(action)
    name = data.pop("type")
    data.pop("moves", None)
    return {"action": _FILE_NAMES.get(name, name), **data}


def rules_to_data(rules: Rules) -> dict[str, Any]:
    """Every rules setting as JSON data (the variant by name): :func:`rules_from_data` reads it back."""
    out: dict[str, Any] = {}
    for f in fields(Rules):
        value = getattr(rules, f.name)
        out[f.name] = value.name if f.name == "variant" else value
    return out


def match_to_dict(
    match: Match,
    names: Sequence[str] = ("Player 0", "Player 1"),
    dice_info: Mapping[str, Any] | object | None = None,
    *,
    info: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The JSON-ready record of ``match``.

    ``dice_info`` is a dice source (see :func:`dice_info_of`) or a mapping to
    store as is (it must be JSON data).
    """
    if dice_info is None or isinstance(dice_info, Mapping):
        dice = None if dice_info is None else dict(dice_info)
    else:
        dice = dice_info_of(dice_info)
    a, b = (str(n) for n in names)
    return {
        "format": FORMAT,
        "version": VERSION,
        "names": [a, b],
        "rules": rules_to_data(match.rules),
        "games_limit": match.games_limit,
        "dice": dice,
        "info": {str(k): str(v) for k, v in (info or {}).items()},
        "score": list(match.score),
        "games": [[_action_dict(x) for x in game.record] for game in match.games],
    }


def match_to_json(
    match: Match,
    names: Sequence[str] = ("Player 0", "Player 1"),
    dice_info: Mapping[str, Any] | object | None = None,
    *,
    info: Mapping[str, str] | None = None,
    indent: int | None = 1,
) -> str:
    """The record of ``match`` as JSON text (see :func:`match_to_dict`)."""
    return json.dumps(match_to_dict(match, names, dice_info, info=info), indent=indent, ensure_ascii=False)


# -- reading -----------------------------------------------------------------


def _need(cond: bool, where: str, message: str, expected: str | None = None) -> None:
    if not cond:
        raise JsonFormatError(message, where=where, expected=expected)


def _player(d: Mapping[str, Any], where: str) -> int:
    p = d.get("player")
    _need(isinstance(p, int) and not isinstance(p, bool) and p in (0, 1), f"{where}.player",
          f"bad player {p!r}", "0 or 1")
    assert isinstance(p, int)
    return p


def rules_from_data(data: Any) -> Rules:
    """The rules that :func:`rules_to_data` wrote; settings left out keep their defaults.

    :raises JsonFormatError: an unknown setting or a bad value, naming it.
    """
    _need(isinstance(data, Mapping), "rules", "the rules must be an object")
    known = {f.name: f for f in fields(Rules)}
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        _need(key in known, f"rules.{key}", f"unknown rules setting {key!r}", ", ".join(known))
        if key == "variant":
            _need(isinstance(value, str), "rules.variant", "the variant must be a name")
            try:
                kwargs[key] = find_variant(value)
            except GammonError as exc:
                raise JsonFormatError(str(exc), where="rules.variant") from None
            continue
        if key == "opening":
            _need(isinstance(value, str), "rules.opening", f"bad value {value!r}",
                  "'use-opening-dice' or 'reroll'")
            kwargs[key] = value
            continue
        default = getattr(Rules(), key)
        ok = isinstance(value, bool) if isinstance(default, bool) else (
            isinstance(value, int) and not isinstance(value, bool))
        _need(ok, f"rules.{key}", f"bad value {value!r}", type(default).__name__)
        kwargs[key] = value
    try:
        return Rules(**kwargs)
    except GammonError as exc:
        raise JsonFormatError(str(exc), where="rules") from None


def record_from_json(data: str | bytes | Mapping[str, Any]) -> JsonRecord:
    """Read and check a JSON match record (text or already parsed).

    Every action is replayed against the rules; a crypto-dice record whose seed
    has been revealed is checked against its commitment (:func:`verify_dice`).

    :raises JsonFormatError: naming the place in the data (``games[1][7].dice``)
        and what was expected, or the line and column of a JSON syntax error.
    """
    if isinstance(data, str | bytes):
        try:
            doc = json.loads(data)
        except json.JSONDecodeError as exc:
            raise JsonFormatError(f"not JSON: {exc.msg} (column {exc.colno})", line=exc.lineno) from None
    else:
        doc = data
    _need(isinstance(doc, Mapping), "top level", "the record must be a JSON object")
    _need(doc.get("format") == FORMAT, "format", f"not a gammon match record ({doc.get('format')!r})",
          repr(FORMAT))
    version = doc.get("version")
    _need(version == VERSION, "version", f"unsupported version {version!r}", str(VERSION))
    rules = rules_from_data(doc.get("rules", {}))
    names = doc.get("names", ["Player 0", "Player 1"])
    _need(isinstance(names, list) and len(names) == 2 and all(isinstance(n, str) for n in names),
          "names", "the names must be two strings")
    limit = doc.get("games_limit")
    _need(limit is None or (isinstance(limit, int) and not isinstance(limit, bool) and limit > 0),
          "games_limit", f"bad games limit {limit!r}", "null or a positive number")
    dice = doc.get("dice")
    _need(dice is None or isinstance(dice, Mapping), "dice", "the dice must be an object or null")
    info = doc.get("info") or {}
    _need(isinstance(info, Mapping) and all(isinstance(v, str) for v in info.values()), "info",
          "the information must map names to strings")
    games_data = doc.get("games")
    _need(isinstance(games_data, list), "games", "the games must be a list of action lists")
    games: list[list[Action]] = []
    match = Match(rules, games_limit=limit)
    for gi, game in enumerate(games_data):
        _need(isinstance(game, list), f"games[{gi}]", "a game must be a list of actions")
        if gi > 0:
            try:
                match.next_game()
            except GammonError as exc:
                raise JsonFormatError(str(exc), where=f"games[{gi}]") from None
        for ai, item in enumerate(game):
            where = f"games[{gi}][{ai}]"
            action = action_from_data(item, rules.variant, where=where, kind_key="action",
                                      error=JsonFormatError)
            try:
                match.apply(action)
            except GammonError as exc:
                raise JsonFormatError(str(exc), where=where) from None
        games.append(list(match.game.record))
    score = doc.get("score")
    if score is not None:
        _need(score == list(match.score), "score",
              f"the record says the score is {score}, but its games make {list(match.score)}",
              str(list(match.score)))
    record = JsonRecord(rules, (names[0], names[1]), games, limit,
                        None if dice is None else dict(dice), dict(info))
    result = verify_dice(record)
    if result is not None and not result:
        raise JsonFormatError(f"the dice do not check out: {result.message}", where="dice")
    return record


def verify_dice(record: JsonRecord) -> Any:
    """Check a crypto-dice record: its revealed seed against the commitment and every roll
    (thrown as dice, or drawn as cards where the record's ``dice.draw`` says ``"cards"``).

    Returns :class:`gammon.core.fair_dice.VerifyResult`, or None when there is
    nothing to check (other dice, or a seed not yet revealed).
    """
    from gammon.core.fair_dice import verify_rolls

    dice = record.dice
    if not dice or dice.get("kind") != "crypto" or not dice.get("seed") or not dice.get("commitment"):
        return None
    try:
        seed = bytes.fromhex(str(dice["seed"]))
    except ValueError:
        raise JsonFormatError("the seed is not hex", where="dice.seed") from None
    rolls = [a.dice for game in record.games for a in game if isinstance(a, Roll) and a.dice is not None]
    return verify_rolls(seed, str(dice["commitment"]), rolls, str(dice.get("draw", "dice")))


def match_from_json(data: str | bytes | Mapping[str, Any]) -> Match:
    """The :class:`Match` a JSON record holds, replayed exactly (see :func:`record_from_json`).

    :raises JsonFormatError: the record cannot be read or does not replay.
    """
    return record_from_json(data).replay()
