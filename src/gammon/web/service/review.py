"""The frames of a finished match's review: its board after each play, replayed on the server.

The stored actions are replayed through a fresh :class:`~gammon.web.service.live.LiveGame` (the
rules are core's, as for play: nothing is worked out again here or in the browser), and the
position after each play is kept with the action that made it.  Only a finished match is
reviewed (its dice are public then); a very long one keeps its first :data:`MAX_FRAMES` plays.

:class:`Uploads`: a record a player uploads (.mat, SGF or JSON, read by
:func:`gammon.formats.record_files.parse_record` with its limits, under the server's body limit) is
replayed the same way by core (:func:`replay_frames`) and kept in memory for its review.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass

from gammon.core.actions import Action, Move, NewGame
from gammon.core.errors import GammonError
from gammon.core.game import Game, Rules
from gammon.core.match import Match
from gammon.core.position import Position
from gammon.formats.record_files import parse_record
from gammon.store import Store
from gammon.web.service.analysis import Snapshot
from gammon.web.service.errors import ConflictError, InvalidError, NotFoundError
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


def _owner(g: Game) -> int:
    """The cube's owner as board_svg takes it: -1 centred, 0 the player on roll, 1 the opponent."""
    return -1 if int(g.cube_owner) < 0 else (0 if int(g.cube_owner) == g.turn else 1)


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
        play = action.data.get("play")
        text = play if isinstance(play, str) else str(play or "")
        frames.append(Frame(action.seq, action.player, len(lg.match.games), dice, text, g.position,
                            g.cube_value, _owner(g)))
    if not lg.is_over:
        raise ConflictError("a match is reviewed when it is over", "not_over")
    names = tuple(str(s.get("name") or f"Player {i}") for i, s in enumerate(lg.seats))
    score = lg.match.score
    return Review(lg.id, (names[0], names[1]), lg.rules.match_length, (int(score[0]), int(score[1])), frames,
                  start)


def replay_frames(rules: Rules, games: list[list[Action]],
                  games_limit: int | None) -> tuple[list[Frame], Match]:
    """The frames of a record's games (actions numbered from 1 across the match) and the match
    they make (core's :meth:`Match.apply`, as :meth:`Match.replay`).

    :raises GammonError: an action the rules refuse.
    """
    m = Match(rules, None, games_limit=games_limit)
    frames: list[Frame] = []
    seq = 0
    for i, actions in enumerate(games):
        if i > 0:
            m.apply(NewGame())
        for a in actions:
            seq += 1
            dice = m.game.rolled
            m.apply(a)
            if isinstance(a, Move) and len(frames) < MAX_FRAMES:
                g = m.game
                frames.append(Frame(seq, a.player, i + 1, dice, str(a.play), g.position, g.cube_value,
                                    _owner(g)))
    return frames, m


@dataclass(frozen=True, slots=True)
class Upload:
    """A record a player uploaded to review: its review and what its analysis needs."""

    review: Review
    snapshot: Snapshot


class Uploads:
    """Uploaded records, kept in memory under a random id (the latest :attr:`keep`)."""

    def __init__(self, keep: int = 200) -> None:
        self.keep = keep
        self._lock = threading.Lock()
        self._all: OrderedDict[str, Upload] = OrderedDict()

    def add(self, text: str, suffix: str) -> str:
        """Read ``text`` as a ``suffix`` record (.mat, .sgf or .json), replay it, keep it; its id.

        :raises InvalidError: not a record of that format, or one the rules refuse (``invalid_record``).
        """
        if suffix not in (".mat", ".sgf", ".json"):
            raise InvalidError("upload a .mat, .sgf or .json record", "invalid_record")
        try:
            loaded = parse_record(text, suffix, "the upload")
            frames, match = replay_frames(loaded.rules, loaded.games, loaded.games_limit)
        except (GammonError, ValueError, RecursionError) as exc:
            raise InvalidError(f"not a record this server can read: {exc}"[:300], "invalid_record") from None
        upload_id = secrets.token_urlsafe(12)
        names = (str(loaded.names[0]), str(loaded.names[1]))
        start = Match(loaded.rules, None, games_limit=loaded.games_limit).game.position
        score = match.score
        review = Review(f"upload-{upload_id}", names, loaded.rules.match_length, (int(score[0]), int(score[1])),
                        frames, start)
        snap = Snapshot(review.game_id, loaded.rules, tuple(tuple(g) for g in loaded.games), loaded.games_limit,
                        names, tuple(f.seq for f in frames))
        with self._lock:
            self._all[upload_id] = Upload(review, snap)
            while len(self._all) > self.keep:
                self._all.popitem(last=False)
        return upload_id

    def get(self, upload_id: str) -> Upload | None:
        with self._lock:
            return self._all.get(upload_id)


__all__ = ["MAX_FRAMES", "Frame", "Review", "Upload", "Uploads", "replay_frames", "review_of"]
