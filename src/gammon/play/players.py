"""Players: who decides plays, cube actions and resignations in a session.

A :class:`Player` answers the questions a session asks (see
:mod:`gammon.play.session`): which legal play to make, whether to double,
how to answer a double or a resignation, which double to name after an
Acey-Deucey 1-2, and whether to resign.  Two bots live here until the neural
engine of :mod:`gammon.ai` is wired in:

* :class:`RandomPlayer` picks uniformly among the legal choices (seeded), for
  tests and as the weakest opponent;
* :class:`HeuristicPlayer` scores each resulting position by hand-written
  features (:func:`gammon.ai.heuristic.score_positions`: pips, blots weighted
  by the rolls that hit them, points made, primes, hits, bearing off) and takes
  cube decisions from a crude winning chance (the 8%-9%-12% rule of thumb in
  races).  It is fast: the scores of all candidate plays come from one
  numba-compiled loop (about a microsecond per play; compiled once and cached
  on disk).

Every board here is a position's 50 bytes (``Position.board``): indices 0..23
are the player-on-roll's points 1..24 and 24 its bar; 25..49 the opponent's,
seen from the opponent's side (its point ``k + 1`` is our point ``24 - k``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from gammon.ai.heuristic import is_contact, play_score, score_positions
from gammon.core.cube import CubeAction, cube_is_dead
from gammon.core.phase import Phase
from gammon.core.plays import Play
from gammon.core.position import Position, ResultKind
from gammon.core.rules import CENTERED

if TYPE_CHECKING:
    from gammon.core.game import Game

#: What a player answers a double with: ``TAKE``, ``DROP`` or ``BEAVER`` (core's one cube vocabulary).
DoubleAnswer = CubeAction


@runtime_checkable
class Player(Protocol):
    """What a session asks of a player; ``game`` is the game being played.

    The player's own number is ``game.player_to_act`` when it is asked.
    """

    def choose_play(self, game: Game, plays: Sequence[Play]) -> Play:
        """One of ``plays`` (the legal plays of the roll, never empty)."""
        ...

    def cube_action(self, game: Game) -> CubeAction:
        """``DOUBLE`` or ``NO_DOUBLE``; asked before rolling, only when ``game.can_double()``."""
        ...

    def answer_double(self, game: Game) -> DoubleAnswer:
        """``TAKE``, ``DROP`` or (money play with beavers on) ``BEAVER``."""
        ...

    def answer_resignation(self, game: Game, kind: ResultKind) -> bool:
        """Whether to accept the opponent's offer to resign a game of ``kind``."""
        ...

    def choose_double_number(self, game: Game) -> int:
        """Acey-Deucey: the double (1..6) to play after a 1-2."""
        ...

    def resign(self, game: Game) -> ResultKind | None:
        """Asked before each roll: the kind of game to resign, or None to play on."""
        ...


def can_beaver(game: Game) -> bool:
    """Whether the player facing a double may beaver it now (money play, beavers on, cube room)."""
    return game.can_beaver()


def win_probability(position: Position) -> float:
    """A crude cubeless chance that the player on roll wins ``position`` (0..1).

    In a race it follows the pip lead as a fraction of the roller's count (the
    8%-9%-12% rule of thumb: about 70% at an 8% lead, 75% at 12%); in contact
    it adds made home board points and checkers on the bar.
    """
    b = position.board
    mine, opp = position.pip_counts
    if mine == 0:
        return 1.0
    if opp == 0:
        return 0.0
    ratio = (opp - mine) / mine
    if mine < 30:
        # Short races are decided by the number of rolls more than by pips.
        ratio *= 1.0 + (30 - mine) / 30.0
    x = 0.4 + 5.6 * ratio
    if is_contact(b):
        my_home = sum(1 for i in range(6) if b[i] >= 2)
        opp_home = sum(1 for k in range(6) if b[25 + k] >= 2)
        x += 0.12 * (my_home - opp_home)
        x += b[49] * (0.25 + 0.1 * my_home) - b[24] * (0.25 + 0.1 * opp_home)
    return 1.0 / (1.0 + math.exp(-x))


def _gammon_threat(position: Position) -> bool:
    """Whether the player on roll could still be gammoned (crudely)."""
    b = position.board
    v = position.variant
    if sum(b[:25]) < v.checkers:
        return False  # already bore off a checker
    # Pips to bring every checker home, against the opponent's whole count.
    to_home = sum(b[i] * (i + 1 - 6) for i in range(6, 25))
    return to_home + 8 > position.pip_counts[1] * 0.8


def _opponent_gammon_chance(position: Position) -> bool:
    """Whether the opponent of the player on roll could still be gammoned (crudely)."""
    return _gammon_threat(position.swap())


# -- the bots ----------------------------------------------------------------

class RandomPlayer:
    """Picks uniformly among legal choices, seeded; a test opponent and the weakest bot.

    ``double_rate`` is the chance to double whenever it may; ``resign_rate`` the
    chance to offer a (random) resignation before a roll; doubles are answered
    take/drop (and beaver, when allowed, with chance ``beaver_rate``).
    """

    def __init__(
        self, seed: int | None = None, *, double_rate: float = 0.05, resign_rate: float = 0.0,
        beaver_rate: float = 0.1,
    ) -> None:
        self.rng = random.Random(seed)
        self.double_rate = double_rate
        self.resign_rate = resign_rate
        self.beaver_rate = beaver_rate

    def choose_play(self, game: Game, plays: Sequence[Play]) -> Play:
        return plays[self.rng.randrange(len(plays))]

    def cube_action(self, game: Game) -> CubeAction:
        return CubeAction.DOUBLE if self.rng.random() < self.double_rate else CubeAction.NO_DOUBLE

    def answer_double(self, game: Game) -> DoubleAnswer:
        if can_beaver(game) and self.rng.random() < self.beaver_rate:
            return CubeAction.BEAVER
        return CubeAction.TAKE if self.rng.random() < 0.5 else CubeAction.DROP

    def answer_resignation(self, game: Game, kind: ResultKind) -> bool:
        return self.rng.random() < 0.5

    def choose_double_number(self, game: Game) -> int:
        return self.rng.randint(1, 6)

    def resign(self, game: Game) -> ResultKind | None:
        if self.resign_rate and self.rng.random() < self.resign_rate:
            return self.rng.choice(list(ResultKind))
        return None

    def __repr__(self) -> str:
        return "RandomPlayer()"


class HeuristicPlayer:
    """A simple, fast bot: the best play by :func:`play_score`, cube by :func:`win_probability`.

    Ties between equally scored plays are broken by a seeded generator, so games
    between two heuristic players vary with the seed.  Cube: money play doubles
    from about 70% (72% to redouble) unless too good to double while a gammon
    is likely, takes up to about 76%, beavers only hopeless doubles (below 35%).
    Match play adds: no double when the cube is already dead, the trailer
    doubles at once after the Crawford game, the leader then always takes.
    """

    double_point = 0.70
    redouble_point = 0.72
    too_good_point = 0.88
    take_point = 0.76
    beaver_point = 0.35

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    # plays
    def choose_play(self, game: Game, plays: Sequence[Play]) -> Play:
        if len(plays) == 1:
            return plays[0]
        positions_of = getattr(plays, "positions", None)
        positions = positions_of() if positions_of is not None else [p.position for p in plays]
        scores = score_positions(positions)
        best = np.flatnonzero(scores >= scores.max() - 1e-9)
        return plays[int(best[0]) if len(best) == 1 else int(self.rng.choice(best))]

    def choose_double_number(self, game: Game) -> int:
        best_n, best_score = 6, -math.inf
        for n in range(6, 0, -1):
            plays = game.position.legal_plays((n, n))
            score = (
                float(score_positions(plays.positions()).max()) if len(plays)
                else play_score(game.position)
            )
            if score > best_score:
                best_n, best_score = n, score
        return best_n

    # cube
    def cube_action(self, game: Game) -> CubeAction:
        r = game.rules
        me = game.turn
        if cube_is_dead(r.match_length, game.score[me], game.cube_value):
            return CubeAction.NO_DOUBLE  # winning this game already wins the match
        if not r.is_money:
            need_opp = r.match_length - game.score[1 - me]
            if need_opp == 1 and not game.crawford_game:
                return CubeAction.DOUBLE  # post-Crawford: the trailer doubles at once
        p = win_probability(game.position)
        point = self.double_point if game.cube_owner == CENTERED else self.redouble_point
        if p < point:
            return CubeAction.NO_DOUBLE
        gammons_count = game.points_for(ResultKind.GAMMON) > game.points_for(ResultKind.SINGLE)
        if p > self.too_good_point and gammons_count and _opponent_gammon_chance(game.position):
            return CubeAction.NO_DOUBLE  # too good: play on for the gammon
        return CubeAction.DOUBLE

    def answer_double(self, game: Game) -> DoubleAnswer:
        r = game.rules
        if game.phase is Phase.BEAVERED:
            # The doubler answers a beaver (the cube at four times): drop only when clearly behind.
            return CubeAction.TAKE if win_probability(game.position) >= 1 - self.take_point else CubeAction.DROP
        me = 1 - game.turn
        if not r.is_money:
            need_me = r.match_length - game.score[me]
            need_opp = r.match_length - game.score[1 - me]
            if need_me == 1 or need_opp <= game.cube_value:
                return CubeAction.TAKE  # post-Crawford leader, or the doubler wins the match with any win
        p = win_probability(game.position)  # the doubler's chance
        if can_beaver(game) and p < self.beaver_point:
            return CubeAction.BEAVER
        return CubeAction.TAKE if p <= self.take_point else CubeAction.DROP

    # resignations
    def answer_resignation(self, game: Game, kind: ResultKind) -> bool:
        """Accept when ``kind`` gives at least what this player would likely win."""
        r = game.rules
        if kind is ResultKind.BACKGAMMON or r.variant.pays_per_checker:
            return True
        me = game.player_to_act
        if not r.is_money and r.match_length - game.score[me] <= game.points_for(kind):
            return True  # it wins the match
        if game.points_for(ResultKind.GAMMON) == game.points_for(ResultKind.SINGLE):
            return True  # gammons would not count anyway
        who, _ = game.resignation if game.resignation is not None else (1 - me, kind)
        # The resigner's view: can the resigner still be gammoned?
        view = game.position if game.turn == who else game.position.swap()
        if kind is ResultKind.GAMMON:
            b = view.board
            backgammon_risk = sum(b[:25]) == view.variant.checkers and any(b[18:25])
            return not backgammon_risk or win_probability(view) > 0.2
        return not _gammon_threat(view)

    def resign(self, game: Game) -> ResultKind | None:
        """Resign a single game when it is surely lost and no gammon is possible.

        Only in a race: this player has borne off a checker, the opponent has
        one checker left on its 1, 2 or 3 point (it comes off with any roll) and
        this player cannot bear off everything in one roll.
        """
        if game.phase is not Phase.ROLL or game.turn != game.player_to_act:
            return None
        pos = game.position
        b = pos.board
        if is_contact(b) or sum(b[:25]) >= pos.variant.checkers:
            return None
        opp = b[25:]
        if sum(opp) != 1 or not any(opp[:3]):
            return None
        if sum(b[:25]) <= 4 and pos.pip_counts[0] <= 24:
            return None  # one roll (6-6) might still bear everything off
        return ResultKind.SINGLE

    def __repr__(self) -> str:
        return "HeuristicPlayer()"


__all__ = [
    "CubeAction",
    "DoubleAnswer",
    "HeuristicPlayer",
    "Player",
    "RandomPlayer",
    "can_beaver",
    "win_probability",
]
