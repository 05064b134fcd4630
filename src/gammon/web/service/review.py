"""The frames of a finished match's review: its board after each play, replayed on the server.

The stored actions are replayed through a fresh :class:`~gammon.web.service.live.LiveGame` (the
rules are core's, as for play: nothing is worked out again here or in the browser), and the
position after each play is kept with the action that made it.  Only a finished match is
reviewed (its dice are public then); a very long one keeps its first :data:`MAX_FRAMES` plays.
"""

from __future__ import annotations

from dataclasses import dataclass

from gammon.core.position import Position
from gammon.store import Store
from gammon.web.service.errors import ConflictError, NotFoundError
from gammon.web.service.live import LiveGame

#: The most plays a review shows (an 11-point match has a few hundred).
MAX_FRAMES = 600


@dataclass(frozen=True, slots=True)
class Frame:
    """The board after a play: the record number, who played, the dice and the play, and the
    position seen from the side of the player now on roll, with the cube."""

    seq: int
    player: int
    game: int
    dice: tuple[int, int] | None
    play: str
    position: Position
    cube: int
    cube_owner: int  # as board_svg takes it: -1 centred, 0 the player on roll, 1 the opponent


@dataclass(frozen=True, slots=True)
class Review:
    """A finished match to review: its names, length, score and frames."""

    game_id: str
    names: tuple[str, str]
    match_length: int
    score: tuple[int, int]
    frames: list[Frame]
    start: Position


def review_of(store: Store, game_id: str) -> Review:
    """The review of the finished match ``game_id``.

    :raises NotFoundError: no such game.
    :raises ConflictError: the match is not over (``not_over``).
    """
    if not isinstance(game_id, str) or not 1 <= len(game_id) <= 32:
        raise NotFoundError("no such game")
    loaded = store.load(game_id)
    if loaded is None:
        raise NotFoundError("no such game")
    rec, actions = loaded
    lg = LiveGame.from_record(rec)
    start = lg.game.position
    frames: list[Frame] = []
    for action in actions:
        dice = lg.game.rolled
        lg.replay(action)
        if action.data.get("type") != "play" or len(frames) >= MAX_FRAMES:
            continue
        g = lg.game
        owner = -1 if int(g.cube_owner) < 0 else (0 if int(g.cube_owner) == g.turn else 1)
        play = action.data.get("play")
        text = play if isinstance(play, str) else str(play or "")
        frames.append(Frame(action.seq, action.player, len(lg.match.games), dice, text, g.position,
                            g.cube_value, owner))
    if not lg.is_over:
        raise ConflictError("a match is reviewed when it is over", "not_over")
    names = tuple(str(s.get("name") or f"Player {i}") for i, s in enumerate(lg.seats))
    score = lg.match.score
    return Review(lg.id, (names[0], names[1]), lg.rules.match_length, (int(score[0]), int(score[1])), frames,
                  start)


__all__ = ["MAX_FRAMES", "Frame", "Review", "review_of"]
