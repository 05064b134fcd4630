"""From a client's :class:`~gammon.web.service.requests.Command` to the engine's action.

The rules stay in :mod:`gammon.core`: a play given as notation is parsed by the
position, and one given as checker moves is matched against the position's
legal plays; everything else is a plain action for the game to judge.
"""

from __future__ import annotations

from collections.abc import Sequence

from gammon.core.errors import AmbiguousPlayError, IllegalPlayError, InvalidPositionError, PlaySyntaxError
from gammon.core.game import Action, Game, Move, Phase, Roll
from gammon.core.plays import Play
from gammon.formats.record import RecordFormatError
from gammon.formats.record_actions import action_from_data
from gammon.web.service.errors import ConflictError, InvalidError
from gammon.web.service.live import LiveGame
from gammon.web.service.requests import COMMAND_TYPES, Command


def build_action(lg: LiveGame, seat: int, c: Command) -> Action:
    """The engine's action for ``seat``'s command.

    A roll asks the game's dice; a play is resolved against the roll's legal
    plays; every other command is read by the record layer's one mapping of
    names to actions (:func:`~gammon.formats.record_actions.action_from_data`).

    :raises InvalidError: a malformed command.
    :raises ConflictError: a play that is illegal, ambiguous or out of phase.
    """
    t = c.type
    if t not in COMMAND_TYPES:  # the clock's timeout and the match's next game are nobody's to send
        raise InvalidError(f"unknown action {str(t)[:40]!r}: one of {', '.join(COMMAND_TYPES)}",
                           "invalid_request")
    if t == "roll":
        return Roll(seat)
    if t == "play":
        return Move(seat, resolve_play(lg.game, c.play))
    data = {"type": t, "player": seat, "kind": c.kind, "number": c.number}
    try:
        return action_from_data(data, lg.rules.variant, where="command")
    except RecordFormatError as exc:
        raise InvalidError(str(exc), "invalid_request") from None


def resolve_play(game: Game, given: str | Sequence[Sequence[int]] | None) -> Play:
    """The legal play that notation or checker moves name, for the roll to play."""
    if game.phase is not Phase.MOVE or game.rolled is None:
        raise ConflictError(f"cannot play now: the game is in the {game.phase.value} phase",
                            "illegal_action")
    try:
        if isinstance(given, str):
            return game.position.parse_play(given, game.rolled)
        if given is None:
            raise InvalidError("a play needs 'play': notation or a list of [from, to] moves",
                               "invalid_request")
        return play_from_moves(game, given)
    except PlaySyntaxError as exc:
        raise InvalidError(str(exc), "bad_play_syntax") from None
    except AmbiguousPlayError as exc:
        raise ConflictError(str(exc), "ambiguous_play") from None
    except (IllegalPlayError, InvalidPositionError) as exc:
        raise ConflictError(str(exc), "illegal_play") from None


def play_from_moves(game: Game, moves: Sequence[Sequence[int]]) -> Play:
    """The legal play that the checker moves ``[[from, to], ...]`` (mover's points) lead to."""
    pos = game.position
    if not isinstance(moves, list | tuple) or len(moves) > 4:
        raise InvalidError("moves are a list of at most four [from, to] pairs", "invalid_request")
    for k, mv in enumerate(moves):
        if (not isinstance(mv, list | tuple) or len(mv) not in (2, 3)
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in mv[:2])):
            raise InvalidError(f"move {k + 1} must be [from, to] with whole numbers", "invalid_request")
        f, t = int(mv[0]), int(mv[1])
        try:  # the step's rules are core's (bar first, open points, bearing off)
            pos = pos.apply_step(f, t)
        except IllegalPlayError as exc:
            raise IllegalPlayError(f"move {k + 1} ({f}/{t}): {str(exc).split(': ', 1)[-1]}") from None
    target = pos
    assert game.rolled is not None
    plays = game.position.legal_plays(game.rolled)
    positions = plays.positions()
    if target in positions:
        return plays[positions.index(target)]
    raise IllegalPlayError(
        f"those checker moves are not a legal play for {game.rolled[0]}-{game.rolled[1]}"
        + (f"; legal plays include {', '.join(str(p) for p in plays[:5])}" if len(plays) else ""))


__all__ = ["build_action", "play_from_moves", "resolve_play"]
