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

from gammon.core.game import Action, Event
from gammon.core.position import ResultKind
from gammon.core.variants import Variant
from gammon.formats.record_actions import (
    ACTION_NAMES,
    RESIGN_KINDS,
    action_from_data,
    action_name,
    action_to_data,
)

#: The kind names of actions, as stored and as the API writes them (the record layer's names).
ACTION_KINDS = ACTION_NAMES


def action_kind(action: Action) -> str:
    """The stored name of ``action``'s kind (``roll``, ``play``, ``double``, ...)."""
    return action_name(action)


def action_to_dict(action: Action) -> dict[str, Any]:
    """JSON data for a recorded action (rolls must carry their dice): the record layer's
    :func:`~gammon.formats.record_actions.action_to_data`."""
    return action_to_data(action)


def action_from_dict(data: Mapping[str, Any], variant: Variant) -> Action:
    """The action that :func:`action_to_dict` wrote.

    :raises GammonError: data that is not a stored action (a
        :class:`~gammon.formats.record.RecordFormatError` naming the field).
    """
    return action_from_data(data, variant, where="stored action")


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
    return {"kind": event.kind.value, "player": event.player, "text": event.text, "data": json_safe(event.data)}


__all__ = [
    "ACTION_KINDS",
    "RESIGN_KINDS",
    "action_from_dict",
    "action_kind",
    "action_to_dict",
    "event_to_dict",
    "json_safe",
]
