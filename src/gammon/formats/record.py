"""The record layer that the match-file formats share (.mat, SGF, JSON).

A game record in the terms the file formats use (:func:`game_items`: turns,
cube actions, wins), the data a reader gives (:class:`MatchRecordData`), the
error every reader raises (:class:`RecordFormatError`), and
:class:`RecordBuilder`, which turns what a file says (rolls, plays, cube
actions, wins) into checked gammon actions through a live
:class:`~gammon.core.match.Match`: every step, score and permission is core's.
The dialects live in :mod:`gammon.formats.mat` and :mod:`gammon.formats.sgf`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from gammon.core.errors import GammonError
from gammon.core.game import (
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    Double,
    Drop,
    Game,
    Move,
    Phase,
    Resign,
    Roll,
    Rules,
    Take,
    Timeout,
)
from gammon.core.match import Match
from gammon.core.plays import Play
from gammon.core.position import ResultKind

__all__ = [
    "CubeItem", "GameItems", "Item", "MatchRecordData", "RecordBuilder", "RecordFormatError", "TurnItem",
    "WinItem", "game_items", "kind_from_points", "resigned_value",
]

# -- errors ------------------------------------------------------------------


class RecordFormatError(GammonError):
    """A match file that cannot be read: says where (line, or a path in the data) and what was expected."""

    def __init__(
        self, message: str, *, line: int | None = None, expected: str | None = None,
        where: str | None = None,
    ) -> None:
        self.line = line
        self.expected = expected
        self.where = where
        self.reason = message
        text = message
        if expected:
            text += f" (expected {expected})"
        if where:
            text = f"{where}: {text}"
        if line is not None:
            text = f"line {line}: {text}"
        super().__init__(text)


# -- the data a reader gives ---------------------------------------------------


@dataclass
class MatchRecordData:
    """What a match file holds: the rules, the names and per game its actions.

    ``games[i]`` is the action list of game ``i`` as :meth:`Match.replay` takes
    it; ``scores[i]`` the score the file gives at the start of game ``i``;
    ``info`` the header fields (``Site``, ``Event``, ``EventDate``, ...).
    """

    rules: Rules
    names: tuple[str, str]
    games: list[list[Action]]
    scores: list[tuple[int, int]] = field(default_factory=list)
    info: dict[str, str] = field(default_factory=dict)

    def replay(self) -> Match:
        """The match these actions make (:meth:`Match.replay`)."""
        return Match.replay(self.rules, self.games)


# -- what a game record says, in the terms the file formats use ----------------


@dataclass(frozen=True, slots=True)
class TurnItem:
    """A roll and its play; ``play`` None: rolled, nothing played yet (a resignation followed
    or the record stops here).  A pass is a play without moves."""

    player: int
    dice: tuple[int, int]
    play: Play | None
    opening: bool = False


@dataclass(frozen=True, slots=True)
class CubeItem:
    """``what`` is double, take, drop or beaver; ``value`` the cube value it names
    (the offered value for a double, the new value for a beaver)."""

    player: int
    what: str
    value: int


@dataclass(frozen=True, slots=True)
class WinItem:
    """The end of a game: the winner, the points scored, and how (``timeout``: the loser ran out of
    time and lost the match, the points are what core's rule awards for that)."""

    player: int
    points: int
    kind: ResultKind
    cube: int
    resigned: bool = False
    dropped: bool = False
    timeout: bool = False


Item = TurnItem | CubeItem | WinItem


@dataclass(frozen=True, slots=True)
class GameItems:
    """A game as the file formats see it, plus what they need from its state."""

    items: list[Item]
    score: tuple[int, int]
    crawford_game: bool
    auto_doubles: int
    over: bool


def game_items(game: Game) -> GameItems:
    """The items of ``game``'s record: opening ties and rejected resignations dropped.

    :raises GammonError: the record holds a chosen double (Acey-Deucey) or a
        rerolled opening, which no file format but JSON can carry.
    """
    shadow = Game(game.rules, None, crawford_game=game.crawford_game, score=game.score)
    items: list[Item] = []
    pending: tuple[int, tuple[int, int], bool] | None = None
    for action in game.record:
        phase = shadow.phase
        cube_before = shadow.cube_value
        shadow.apply(action)
        if isinstance(action, Roll):
            assert action.dice is not None
            opening = phase is Phase.OPENING
            if opening:
                if shadow.phase is Phase.OPENING:
                    continue  # a tie: thrown again
                if shadow.phase is Phase.ROLL:
                    raise GammonError("this record opens with the starter throwing anew (opening "
                                      "'reroll'), which only gammon's JSON record can carry")
                hi, lo = max(action.dice), min(action.dice)
                mover, dice = shadow.turn if shadow.phase is Phase.MOVE else 1 - shadow.turn, (hi, lo)
            else:
                mover, dice = action.player, action.dice
            if shadow.phase is Phase.MOVE:
                pending = (mover, dice, opening)
            else:  # nothing to play: the game passed the turn by itself
                pass_position = shadow.position if shadow.turn == mover else shadow.position.swap()
                items.append(TurnItem(mover, dice, Play((), pass_position), opening))
        elif isinstance(action, Move):
            assert pending is not None and isinstance(action.play, Play)
            items.append(TurnItem(action.player, pending[1], action.play, pending[2]))
            pending = None
        elif isinstance(action, Double):
            items.append(CubeItem(action.player, "double", cube_before * 2))
        elif isinstance(action, Take):
            items.append(CubeItem(action.player, "take", shadow.cube_value))
        elif isinstance(action, Drop):
            items.append(CubeItem(action.player, "drop", cube_before))
        elif isinstance(action, Beaver):
            items.append(CubeItem(action.player, "beaver", cube_before * 4))
        elif isinstance(action, AcceptResignation | Timeout) and pending is not None:  # rolled, then ended
            items.append(TurnItem(pending[0], pending[1], None, pending[2]))
            pending = None
        elif isinstance(action, ChooseDouble):
            raise GammonError(
                "this record holds an Acey-Deucey chosen double, which only gammon's JSON record can carry"
            )
        if shadow.is_over and shadow.result is not None:
            r = shadow.result
            items.append(WinItem(r.winner, r.points, r.kind, r.cube, r.resigned, r.dropped, r.timeout))
    if pending is not None:
        items.append(TurnItem(pending[0], pending[1], None, pending[2]))
    return GameItems(items, game.score, game.crawford_game, shadow.auto_doubles, shadow.is_over)


def resigned_value(kind: ResultKind, cube: int) -> int:
    """What a file writes for a resignation: the resigned value times the cube (as GNU Backgammon)."""
    return int(kind) * cube


def kind_from_points(points: int, cube: int) -> ResultKind:
    """The resignation a ``Wins N points`` (or SGF ``RE[W+NR]``) stands for, as GNU Backgammon reads it."""
    if points <= cube:
        return ResultKind.SINGLE
    if points <= 2 * cube:
        return ResultKind.GAMMON
    return ResultKind.BACKGAMMON


# -- reading: the builder both text formats drive -------------------------------


class RecordBuilder:
    """Turns what a file says (rolls, plays, cube actions, wins) into checked gammon actions.

    It keeps a live :class:`Match`, so every action is checked where the file
    states it, and errors name the file's line.  Used by the ``.mat`` and SGF readers.
    """

    def __init__(self, rules: Rules, error: type[RecordFormatError] = RecordFormatError, *,
                 fixed_cube_limit: bool = True, phantom_counts_in_wins: bool = False) -> None:
        self.rules = rules
        #: False when the file does not state a cube limit: it is raised as the cube climbs.
        self.fixed_cube_limit = fixed_cube_limit
        self.error = error
        self.match = Match(rules)
        self.started = False
        self._awaiting: tuple[int, int | None] | None = None  # (player, line): rolled, play pending
        self._phantom: tuple[int, int, int | None] | None = None  # (player, value, line) of a held double
        #: whether a held double counts in the points of a following 'Wins' (.mat) or not (SGF)
        self.phantom_counts_in_wins = phantom_counts_in_wins

    @property
    def game(self) -> Game:
        return self.match.game

    def fail(self, message: str, line: int | None, expected: str | None = None) -> RecordFormatError:
        return self.error(message, line=line, expected=expected)

    def _apply(self, action: Action, line: int | None) -> None:
        self._release_phantom()  # a held double followed by anything but a resignation: check it now
        try:
            self.match.apply(action)
        except GammonError as exc:
            raise self.fail(str(exc), line) from None

    def start_game(self, line: int | None, score: tuple[int, int] | None = None,
                   label: str = "a game", score_line: int | None = None) -> None:
        """Begin the next game; ``score`` (if the file gives it) must be the score so far."""
        if self.started:
            self.end_game(line)
            if not self.game.is_over:
                raise self.fail(f"{label} starts, but the game before it did not finish", line)
            if self.match.is_over:
                raise self.fail(f"{label} starts, but the match is already over", line)
            self.match.next_game()
        self.started = True
        if score is not None and tuple(score) != tuple(self.match.score):
            raise self.fail(
                f"{label} starts at {score[0]}-{score[1]}, but the games before it end at "
                f"{self.match.score[0]}-{self.match.score[1]}", score_line or line,
            )

    def end_game(self, line: int | None) -> None:
        """Settle a roll whose play the file left out: the only legal play, as GNU Backgammon
        reads it.  ``line`` None: the file ends here, so the roll stays unplayed."""
        self._settle(None, line)
        self._release_phantom()

    def _settle(self, next_is_win_by: int | None, line: int | None) -> None:
        if self._awaiting is None:
            return
        player, roll_line = self._awaiting
        self._awaiting = None
        if next_is_win_by is not None and next_is_win_by != player:
            return  # rolled, then resigned
        if next_is_win_by is None and line is None:
            return  # the record stops after the roll (a game in progress)
        plays = self.game.legal_plays()
        if len(plays) == 1:
            self._apply(Move(player, plays[0]), roll_line)
            return
        d = self.game.rolled or (0, 0)
        raise self.fail(f"the roll {d[0]}{d[1]} has no play", roll_line, "a play like 13/8 24/23")

    def opening_tie(self, line: int | None) -> None:
        """An opening roll that tied (a file records it only through the automatic double it caused)."""
        if self.game.phase is not Phase.OPENING:
            raise self.fail("an opening tie after the opening roll", line)
        self._apply(Roll(0, (1, 1)), line)

    def roll(self, player: int, dice: tuple[int, int], line: int | None) -> None:
        """A roll by ``player``; the opening roll is credited to whoever won it."""
        self._settle(None, line)
        g = self.game
        if g.is_over:
            raise self.fail("a roll after the end of the game", line, "the next game")
        if g.phase is Phase.OPENING:
            d1, d2 = dice
            if d1 == d2:
                raise self.fail(f"the opening roll {d1}{d2} is a double", line, "two different dice")
            hi, lo = max(dice), min(dice)
            self._apply(Roll(0, (hi, lo) if player == 0 else (lo, hi)), line)
            if self.game.turn != player:  # pragma: no cover - guaranteed by the dice order
                raise self.fail("the opening roll went to the other player", line)
            return
        if g.phase is Phase.BEAVERED and g.turn == player:
            # Files that leave out the doubler's take of a beaver (gammon before 2026 did):
            # his roll says he took it.
            self._apply(Take(player), line)
        if g.phase in (Phase.DOUBLED, Phase.BEAVERED):
            raise self.fail("a roll while a double waits for an answer", line, "Takes or Drops")
        if g.phase is Phase.ROLL and g.turn != player:
            raise self.fail(f"player {player} rolls, but it is player {g.turn}'s turn", line)
        self._apply(Roll(player, dice), line)

    def play(self, player: int, moves: list[tuple[int, int]] | None, line: int | None,
             text: str = "", *, in_order: bool = False) -> None:
        """The play after a roll: ``moves`` (from, to) from the mover's side; None or
        empty = no play written (a pass, a forced play left out, or a resignation follows).

        The rules are core's: with ``in_order`` (SGF: one die per step, in the order
        played) the steps are applied by :meth:`Position.apply_steps`; otherwise
        (``.mat``: joined moves) ``text`` is read by core's notation parser.
        """
        g = self.game
        if g.phase is not Phase.MOVE:
            if moves:
                raise self.fail(f"the roll has no legal play, but the file plays {text!r}", line,
                                "no play after the dice")
            return
        if not moves:
            self._awaiting = (player, line)
            return
        dice = g.rolled
        assert dice is not None
        expected = f"a legal play for {dice[0]}{dice[1]}"
        try:
            if in_order:
                after = g.position.apply_steps(moves)
                legal = g.position.legal_plays(dice)
                chosen: Play | None = next((p for p in legal if p.position == after), None)
            else:
                chosen = g.position.parse_play(text, dice)
        except GammonError as exc:
            raise self.fail(f"{text!r}: {exc}", line, expected) from None
        if chosen is None:
            raise self.fail(f"{text!r} is not a legal play for {dice[0]}{dice[1]}", line,
                            f"one of {_sample(g.legal_plays())}")
        self._apply(Move(player, chosen), line)

    def double(self, player: int, value: int | None, line: int | None) -> None:
        self._settle(None, line)
        g = self.game
        record = g.record
        if (g.phase is Phase.ROLL and g.turn == player and g.cube_owner == 1 - player and record
                and isinstance(record[-1], Take) and record[-1].player == 1 - player):
            # GNU Backgammon 1.07 writes a double that never happened after a take when the
            # doubler then resigns (and counts it in the .mat 'Wins' value).  Hold it: only a
            # resignation may follow.
            self._phantom = (player, value or g.cube_value * 2, line)
            return
        if value is not None and value != g.cube_value * 2:
            raise self.fail(f"a double to {value} with the cube at {g.cube_value}", line,
                            f"Doubles => {g.cube_value * 2}")
        self._cube_room(g.cube_value * 2)
        self._apply(Double(player), line)

    def beaver(self, player: int, value: int | None, line: int | None) -> None:
        self._settle(None, line)
        g = self.game
        if value is not None and value != g.cube_value * 4:
            raise self.fail(f"a beaver to {value} with the cube at {g.cube_value}", line,
                            f"Beavers => {g.cube_value * 4}")
        self._cube_room(g.cube_value * 4)
        self._apply(Beaver(player), line)

    def take(self, player: int, line: int | None) -> None:
        self._settle(None, line)
        self._apply(Take(player), line)

    def drop(self, player: int, line: int | None) -> None:
        self._settle(None, line)
        self._apply(Drop(player), line)

    def win(self, player: int, points: int | None, line: int | None, *, on_time: bool = False) -> None:
        """``Wins N points`` by ``player``: confirms the end, or records the opponent's resignation;
        ``on_time``: the opponent ran out of time (core scores it; ``points``, if given, must agree)."""
        self._settle(player, line)
        g = self.game
        if on_time:
            self._timeout(1 - player, points, line)
            return
        if g.is_over:
            assert g.result is not None
            if g.result.winner != player:
                raise self.fail(f"player {player} wins, but player {g.result.winner} won this game",
                                line, f"the win in player {g.result.winner}'s column")
            return
        if g.phase is Phase.OPENING:
            raise self.fail("a win before the first roll", line)
        loser = 1 - player
        if g.player_to_act != loser and self._take_back_forced_play(loser):
            g = self.game
        if g.player_to_act != loser:
            raise self.fail(
                f"player {player} wins before the end of the game, so player {loser} resigned, "
                f"but it is player {g.player_to_act}'s turn to act", line,
                "a resignation by the player to act",
            )
        cube = g.cube_value
        if self._phantom is not None:
            if self._phantom[0] == loser and self.phantom_counts_in_wins:
                cube = self._phantom[1]
            if self._phantom[0] == loser:
                self._phantom = None
        kind = kind_from_points(points if points is not None else cube, cube)
        self._apply(Resign(loser, kind), line)
        self._apply(AcceptResignation(player), line)

    def _timeout(self, loser: int, points: int | None, line: int | None) -> None:
        g = self.game
        if g.is_over:
            raise self.fail(f"player {1 - loser} wins on time, but the game was already over", line)
        if g.phase is not Phase.OPENING and g.player_to_act != loser:
            raise self.fail(
                f"player {1 - loser} wins on time, so player {loser} ran out of time, but the game was "
                f"waiting for player {g.player_to_act}", line, "a win on time over the player to act")
        self._apply(Timeout(loser), line)
        result = self.game.result
        assert result is not None
        if points is not None and points != result.points:
            raise self.fail(f"the file says {points} points on time, but losing on time gives "
                            f"{result.points} here", line, f"Wins {result.points} points on time")

    def _cube_room(self, needed: int) -> None:
        """Raise a cube limit the file never stated, so that a cube up to ``needed`` fits."""
        if self.fixed_cube_limit or needed <= self.rules.cube_limit or needed > 4096:
            return
        self.rules = dataclasses.replace(self.rules, cube_limit=needed)
        self.match = Match.replay(self.rules, [list(g.record) for g in self.match.games])

    def _release_phantom(self) -> None:
        if self._phantom is not None:
            player, _, at = self._phantom
            self._phantom = None
            self._apply(Double(player), at)

    def _take_back_forced_play(self, loser: int) -> bool:
        """Undo the loser's last play if it was forced, so the loser resigns before it.

        gammon records "rolled, then resigned"; GNU Backgammon reads the roll as the
        only legal play when there is one, and writes it so.  Undoing that play gives
        gammon's record back (a resignation is offered by the player to act).
        """
        record = self.game.record
        if not record or not isinstance(record[-1], Move) or record[-1].player != loser:
            return False
        before = Game(self.rules, None, crawford_game=self.game.crawford_game, score=self.game.score)
        for action in record[:-1]:
            before.apply(action)
        if len(before.legal_plays()) != 1:
            return False
        games = [list(g.record) for g in self.match.games]
        games[-1] = games[-1][:-1]
        self.match = Match.replay(self.rules, games)
        return True

    def finish(self) -> list[list[Action]]:
        self._settle(None, None)
        self._release_phantom()
        return [list(g.record) for g in self.match.games] if self.started else []


def _sample(plays: Sequence[Play], n: int = 4) -> str:
    names = [str(p) or "no move" for p in plays[:n]]
    more = f" ... ({len(plays)} plays)" if len(plays) > n else ""
    return ", ".join(names) + more
