"""Actions and events as JSON data, for the ``actions`` table and the wire.

A stored action names its kind and player and carries everything a replay
needs: the dice of a roll, the Position ID a move leads to (seen from the
mover; its notation beside it for people), the kind of a resignation, the
number of an Acey-Deucey double.  :func:`action_from_dict` is the inverse and
refuses anything malformed with a :class:`~gammon.core.errors.GammonError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

from gammon.core.errors import GammonError
from gammon.core.game import (
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    Double,
    Drop,
    Event,
    Move,
    RejectResignation,
    Resign,
    Roll,
    Take,
    Timeout,
)
from gammon.core.plays import Play
from gammon.core.position import Position, ResultKind
from gammon.core.variants import Variant

#: The kind names of actions, as stored and as the API writes them.
ACTION_KINDS: dict[type, str] = {
    Roll: "roll", Move: "play", Double: "double", Take: "take", Drop: "drop", Beaver: "beaver",
    Resign: "resign", AcceptResignation: "accept", RejectResignation: "reject",
    ChooseDouble: "choose-double", Timeout: "timeout",
}
_SIMPLE: dict[str, type] = {
    "double": Double, "take": Take, "drop": Drop, "beaver": Beaver,
    "accept": AcceptResignation, "reject": RejectResignation, "timeout": Timeout,
}
RESIGN_KINDS: dict[str, ResultKind] = {k.name.lower(): k for k in ResultKind}


def action_kind(action: Action) -> str:
    """The stored name of ``action``'s kind (``roll``, ``play``, ``double``, ...)."""
    return ACTION_KINDS[type(action)]


def action_to_dict(action: Action) -> dict[str, Any]:
    """JSON data for a recorded action (rolls must carry their dice, moves a Play or Position)."""
    kind = action_kind(action)
    out: dict[str, Any] = {"type": kind, "player": action.player}
    if isinstance(action, Roll):
        if action.dice is None:
            raise GammonError("a stored roll must carry its dice")
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
            raise GammonError("a stored move must carry the position it leads to")
    elif isinstance(action, Resign):
        out["kind"] = ResultKind(action.kind).name.lower()
    elif isinstance(action, ChooseDouble):
        out["number"] = action.number
    return out


def _int(data: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise GammonError(f"stored action: {key} must be a number from {lo} to {hi}, not {value!r}")
    return value


def action_from_dict(data: Mapping[str, Any], variant: Variant) -> Action:
    """The action that :func:`action_to_dict` wrote.

    :raises GammonError: data that is not a stored action.
    """
    if not isinstance(data, Mapping):
        raise GammonError("stored action: not an object")
    kind = data.get("type")
    player = _int(data, "player", 0, 1)
    if kind == "roll":
        dice = data.get("dice")
        if not isinstance(dice, list | tuple) or len(dice) != 2:
            raise GammonError(f"stored action: a roll needs two dice, not {dice!r}")
        d = {"a": dice[0], "b": dice[1]}
        return Roll(player, (_int(d, "a", 1, 6), _int(d, "b", 1, 6)))
    if kind == "play":
        pid = data.get("position")
        if not isinstance(pid, str):
            raise GammonError("stored action: a move needs the Position ID it leads to")
        return Move(player, Position.from_position_id(pid, variant))
    if kind == "resign":
        name = data.get("kind")
        if name not in RESIGN_KINDS:
            raise GammonError(f"stored action: bad resignation kind {name!r}")
        return Resign(player, RESIGN_KINDS[name])
    if kind == "choose-double":
        return ChooseDouble(player, _int(data, "number", 1, 6))
    cls = _SIMPLE.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise GammonError(f"stored action: unknown kind {kind!r}")
    action: Action = cls(player)
    return action


def json_safe(value: Any) -> Any:
    """``value`` with tuples made lists and enums made their names, ready for JSON."""
    if isinstance(value, Mapping):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    if isinstance(value, Enum):
        return value.name.lower() if isinstance(value, ResultKind) else value.value
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def event_to_dict(event: Event) -> dict[str, Any]:
    """JSON data for an event the engine emitted."""
    return {"kind": event.kind, "player": event.player, "text": event.text, "data": json_safe(event.data)}


__all__ = [
    "ACTION_KINDS",
    "RESIGN_KINDS",
    "action_from_dict",
    "action_kind",
    "action_to_dict",
    "event_to_dict",
    "json_safe",
]
