"""Recorded actions as plain data, and back: the one mapping every record uses.

A game record is a list of core actions (:mod:`gammon.core.actions`).  Stored
in a database, sent over the wire, written into gammon's JSON match file or
named in the analysis, each action becomes a small JSON object: its kind
(one name per kind of action, :data:`ACTION_NAMES`), its player and what a
replay needs (the dice of a roll, the Position ID a move leads to with its
notation beside it for people, the kind of a resignation, the number of an
Acey-Deucey double)::

    {"type": "roll", "player": 0, "dice": [3, 1]}
    {"type": "play", "player": 0, "play": "8/5 6/5", "moves": [[8, 5, false], [6, 5, false]],
     "position": "4HPwATCwZ/ABMA"}
    {"type": "new-game", "player": null}

:func:`action_to_data` and :func:`action_from_data` are inverses; the reader
treats its input as hostile and refuses anything malformed with a
:class:`~gammon.formats.record.RecordFormatError` that names the field.  The
store (:mod:`gammon.store.codec`), the JSON match file
(:mod:`gammon.formats.record_json`), the web service's commands and views and
the analysis's walk all name actions through this module, so no two of them
can drift apart.  Whether an action is allowed is never decided here: that is
the game's business.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gammon.core import actions as act
from gammon.core.actions import Action, ChooseDouble, Move, NewGame, Resign, Roll
from gammon.core.errors import GammonError
from gammon.core.plays import Play
from gammon.core.position import Position, ResultKind
from gammon.core.variants import Variant
from gammon.formats.record import RecordFormatError

__all__ = [
    "ACTION_NAMES", "ACTION_TYPES", "NAME_ALIASES", "RESIGN_KINDS", "action_from_data", "action_name",
    "action_to_data",
]

#: The name of each kind of action, as records, the store and the web API write it.
ACTION_NAMES: dict[type, str] = {
    act.Roll: "roll", act.Move: "play", act.Double: "double", act.Take: "take", act.Drop: "drop",
    act.Beaver: "beaver", act.Resign: "resign", act.AcceptResignation: "accept",
    act.RejectResignation: "reject", act.ChooseDouble: "choose-double", act.Timeout: "timeout",
    act.NewGame: "new-game",
}
#: The kind of action each name stands for.
ACTION_TYPES: dict[str, type] = {name: cls for cls, name in ACTION_NAMES.items()}
#: Other spellings that readers accept (gammon's JSON match file, version 1, writes these).
NAME_ALIASES: dict[str, str] = {"move": "play", "choose_double": "choose-double", "new_game": "new-game"}
#: Resignation kinds by name.
RESIGN_KINDS: dict[str, ResultKind] = {k.name.lower(): k for k in ResultKind}

#: The longest move notation a reader takes (four moves of a double, written out, fit easily).
MAX_NOTATION = 80
_PLAYERLESS = (NewGame,)


def action_name(action: Action | type) -> str:
    """The name of ``action``'s kind (``roll``, ``play``, ``double``, ...); also takes the class.

    :raises GammonError: not a kind of action.
    """
    cls = action if isinstance(action, type) else type(action)
    try:
        return ACTION_NAMES[cls]
    except KeyError:
        raise GammonError(f"not a recorded kind of action: {cls.__name__}") from None


def action_to_data(action: Action) -> dict[str, Any]:
    """JSON data for a recorded action: ``type``, ``player`` and what a replay needs.

    :raises GammonError: a roll without its dice, or a move given only as notation
        with no position (neither can be replayed exactly).
    """
    out: dict[str, Any] = {"type": action_name(action), "player": action.player}
    if isinstance(action, Roll):
        if action.dice is None:
            raise GammonError("a recorded roll must carry its dice")
        out["dice"] = [action.dice[0], action.dice[1]]
    elif isinstance(action, Move):
        play = action.play
        if isinstance(play, Play):
            out["play"] = str(play)
            out["moves"] = [[m.from_point, m.to_point, m.hit] for m in play.moves]
            out["position"] = play.position.position_id
        elif isinstance(play, Position):
            out["position"] = play.position_id
        else:
            out["play"] = play
    elif isinstance(action, Resign):
        out["kind"] = ResultKind(action.kind).name.lower()
    elif isinstance(action, ChooseDouble):
        out["number"] = action.number
    return out


def _show(value: object) -> str:
    """``value`` as the message quotes it, cut short (the input may be hostile and long)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _whole(value: object, lo: int, hi: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def action_from_data(
    data: object, variant: Variant, *, where: str = "action", kind_key: str = "type",
    error: type[RecordFormatError] = RecordFormatError,
) -> Action:
    """The action that :func:`action_to_data` wrote (the inverse).

    ``where`` names the data in error messages (``games[1][7]``); ``kind_key``
    is the field that holds the kind (``type``; gammon's JSON match file uses
    ``action``).  The reader accepts the names of :data:`NAME_ALIASES` too.  A
    move is read from its Position ID, or from its notation when it has none
    (the game then parses it against the position).

    :raises RecordFormatError: (or ``error``) data that is not a recorded action,
        naming the field and what was expected.
    """

    def need(ok: bool, field: str | None, message: str, expected: str | None = None) -> None:
        if not ok:
            raise error(message, where=f"{where}.{field}" if field else where, expected=expected)

    need(isinstance(data, Mapping), None, "an action must be an object", '{"type": ..., "player": ...}')
    assert isinstance(data, Mapping)
    raw = data.get(kind_key)
    name = NAME_ALIASES.get(raw, raw) if isinstance(raw, str) else raw
    cls = ACTION_TYPES.get(name) if isinstance(name, str) else None
    need(cls is not None, kind_key, f"unknown action {_show(raw)}", ", ".join(ACTION_TYPES))
    assert cls is not None
    player = data.get("player")
    if cls in _PLAYERLESS:
        need(player is None, "player", f"the next game is started by nobody, not player {_show(player)}",
             "null")
        return NewGame()
    need(_whole(player, 0, 1), "player", f"bad player {_show(player)}", "0 or 1")
    assert isinstance(player, int)
    if cls is Roll:
        dice = data.get("dice")
        need(isinstance(dice, list | tuple) and len(dice) == 2 and all(_whole(x, 1, 6) for x in dice),
             "dice", f"bad dice {_show(dice)}", "two numbers from 1 to 6")
        assert isinstance(dice, list | tuple)
        return Roll(player, (dice[0], dice[1]))
    if cls is Move:
        pid = data.get("position")
        if pid is None:
            text = data.get("play")
            need(isinstance(text, str) and 0 < len(text) <= MAX_NOTATION, "position",
                 "a move needs the position it leads to (or its notation)", "a Position ID")
            assert isinstance(text, str)
            return Move(player, text)
        need(isinstance(pid, str) and len(pid) <= 20, "position", "the position must be a Position ID")
        assert isinstance(pid, str)
        try:
            return Move(player, Position.from_position_id(pid, variant))
        except GammonError as exc:
            raise error(str(exc), where=f"{where}.position") from None
    if cls is Resign:
        kind = data.get("kind", "single")
        need(isinstance(kind, str) and kind in RESIGN_KINDS, "kind", f"bad resignation {_show(kind)}",
             "single, gammon or backgammon")
        assert isinstance(kind, str)
        return Resign(player, RESIGN_KINDS[kind])
    if cls is ChooseDouble:
        n = data.get("number")
        need(_whole(n, 1, 6), "number", f"bad double {_show(n)}", "a number from 1 to 6")
        assert isinstance(n, int)
        return ChooseDouble(player, n)
    action: Action = cls(player)  # the kinds that carry only their player
    return action
