"""A match (or a money session): games in sequence, the score, Crawford and the end.

:class:`Match` starts each :class:`~gammon.core.game.Game` with the right
settings (the Crawford game forbids doubling; money-only customs stay off in
match play), adds each game's points to the score and knows when the match is
over.  A game ends; the next one starts only with an explicit, recorded
:class:`~gammon.core.actions.NewGame` action, which is refused while a game is
running or once the match is over.  Every refused action leaves the whole
match unchanged.  ``actions`` is the full record (``NewGame`` included), from
which :meth:`Match.replay` rebuilds the match exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from gammon.core.actions import Action, NewGame
from gammon.core.dice import DiceSource
from gammon.core.errors import GammonError, IllegalActionError, InvalidIdError, Reason
from gammon.core.events import Event, MatchOver, NewGameStarted, Score
from gammon.core.game import Game
from gammon.core.phase import Phase
from gammon.core.rules import Rules
from gammon.core.variants import Variant


class MatchPhase(StrEnum):
    """Where a match stands.  Str-valued: the words are the ones ``Match.phase`` always returned."""

    GAME = "game"  # a game is being played
    BETWEEN_GAMES = "between-games"  # a game is over and the next waits for NewGame
    OVER = "over"  # the match (or the money session) is over


class Match:
    """Games between players 0 and 1 to ``rules.match_length`` points (0: money session).

    ``games_limit`` ends a money session after that many games (None: no
    limit).  To build a match in the middle, give ``score`` (players 0 and
    1), ``crawford_game`` (whether the current game is the Crawford game;
    None works it out from the score), ``post_crawford`` (the Crawford game
    has been played) and ``game`` (the current game, at any state).

    :raises GammonError: a score or game that does not fit the match.
    """

    def __init__(
        self, rules: Rules | None = None, dice: DiceSource | None = None,
        *, games_limit: int | None = None, score: tuple[int, int] = (0, 0),
        crawford_game: bool | None = None, post_crawford: bool = False, game: Game | None = None,
    ) -> None:
        self.rules = rules or Rules()
        self.dice = dice
        if games_limit is not None and (isinstance(games_limit, bool) or not isinstance(games_limit, int)
                                        or games_limit < 1):
            raise GammonError(f"a session's game limit is a positive number, not {games_limit!r}")
        self.games_limit = games_limit
        if (len(score) != 2 or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0
                                       for s in score)):
            raise GammonError(f"the score is two whole numbers from 0 up, not {score!r}")
        self.score = [score[0], score[1]]
        if self.length and max(self.score) >= self.length:
            raise GammonError(f"score {score[0]}-{score[1]} has already reached the match length {self.length}")
        self.games: list[Game] = []
        self.actions: list[Action] = []
        self.crawford_played = bool(post_crawford)
        if crawford_game is None:
            crawford_game = game.crawford_game if game is not None else (
                self._crawford_due() and not post_crawford)
        if crawford_game and post_crawford:
            raise GammonError("a game cannot be the Crawford game and after it")
        if crawford_game and not (self.length and self.rules.crawford and self.length - 1 in self.score):
            raise GammonError("the Crawford game is the game after a player reaches one point from winning")
        self.crawford_played = bool(crawford_game or post_crawford)
        if game is None:
            game = Game(self.rules, dice, crawford_game=crawford_game, score=(score[0], score[1]))
        elif (game.rules != self.rules or game.score != (score[0], score[1])
              or game.crawford_game != crawford_game):
            raise GammonError("the game's rules, score or Crawford flag differ from the match's")
        if game.dice is None:
            game.dice = dice
        self.game = game
        self.games.append(game)

    @property
    def length(self) -> int:
        return self.rules.match_length

    @property
    def is_over(self) -> bool:
        """True when a player has reached the match length (or the session's game limit), or has
        lost the match on time."""
        if self.timed_out is not None:
            return True
        if self.length:
            return max(self.score) >= self.length
        return self.games_limit is not None and len(self.games) >= self.games_limit and self.game.is_over

    @property
    def timed_out(self) -> int | None:
        """The player who ran out of time (:class:`~gammon.core.actions.Timeout`) and so lost the match."""
        result = self.game.result
        return 1 - result.winner if result is not None and result.timeout else None

    @property
    def winner(self) -> int | None:
        if not self.is_over:
            return None
        if self.timed_out is not None:  # the match is lost on time, whatever a money session's score
            return 1 - self.timed_out
        if self.score[0] == self.score[1]:
            return None
        return 0 if self.score[0] > self.score[1] else 1

    def _crawford_due(self) -> bool:
        # "The first game after a player reaches one point from winning is played
        # without the cube."  In a 1-point match both start one point away, so
        # nobody *reached* it: no Crawford game there.
        return (self.length > 1 and self.rules.crawford and not self.crawford_played
                and (self.length - 1) in self.score and max(self.score) < self.length)

    def is_crawford_next(self) -> bool:
        """Whether the next game is the Crawford game.

        "The first game after a player reaches one point from winning is played
        without the cube; later games (post-Crawford) use it again."
        """
        return self._crawford_due()

    @property
    def is_post_crawford(self) -> bool:
        return self.crawford_played and not self.game.crawford_game

    @property
    def phase(self) -> MatchPhase:
        """``GAME`` while a game runs, ``BETWEEN_GAMES`` when the next waits, ``OVER``."""
        if self.is_over:
            return MatchPhase.OVER
        return MatchPhase.BETWEEN_GAMES if self.game.is_over else MatchPhase.GAME

    def allowed_actions(self) -> list[Action]:
        """Every action :meth:`apply` accepts now: the game's, or ``NewGame`` between games."""
        if self.is_over:
            return []
        if self.game.is_over:
            return [NewGame()]
        return self.game.allowed_actions()

    def apply(self, action: Action) -> list[Event]:
        """Carry out ``action``: start the next game (``NewGame``) or act in the current one.

        A game's end adds its points to the score; the next game waits for ``NewGame``.

        :raises IllegalActionError: the match is over (``MATCH_OVER``), the game is
            over and the action is not ``NewGame`` (``GAME_OVER``), ``NewGame``
            while a game runs (``GAME_IN_PROGRESS``), or the game refuses the
            action.  Nothing changes then.
        """
        if self.is_over:
            raise IllegalActionError("the match is over", Reason.MATCH_OVER)
        if isinstance(action, NewGame):
            if not self.game.is_over:
                raise IllegalActionError("cannot start a new game: the current game is not over yet",
                                         Reason.GAME_IN_PROGRESS)
            self._start_next()
            self.actions.append(action)
            crawford = " (the Crawford game)" if self.game.crawford_game else ""
            return [Event.of(None, f"game {len(self.games)} starts{crawford}",
                             NewGameStarted(len(self.games), self.game.crawford_game))]
        if self.game.is_over:
            raise IllegalActionError("the game is over: start the next one with NewGame", Reason.GAME_OVER)
        events = self.game.apply(action)
        self.actions.append(self.game.record[-1])
        if self.game.is_over and self.game.result is not None:
            res = self.game.result
            self.score[res.winner] += res.points
            text = f"score {self.score[0]}-{self.score[1]}"
            if self.length:
                text += f" in a {self.length}-point match"
            events.append(Event.of(res.winner, text, Score((self.score[0], self.score[1]))))
            if self.is_over:
                who = self.winner
                on_time = " on time" if res.timeout else ""
                events.append(Event.of(who, f"player {who} wins the match{on_time} {text}"
                                       if who is not None else f"the session ends {text}", MatchOver()))
        return events

    def _start_next(self) -> Game:
        crawford = self._crawford_due()
        if crawford:
            self.crawford_played = True
        self.game = Game(self.rules, self.dice, crawford_game=crawford, score=(self.score[0], self.score[1]))
        self.games.append(self.game)
        return self.game

    def next_game(self) -> Game:
        """Start the next game once the current one is over (``apply(NewGame())``)."""
        self.apply(NewGame())
        return self.game

    @property
    def record(self) -> list[list[Action]]:
        """One list of actions per game, in order (``actions`` has them all, ``NewGame`` included)."""
        return [g.record for g in self.games]

    @classmethod
    def replay(cls, rules: Rules, record: Sequence[Sequence[Action]] | Sequence[Action], *,
               games_limit: int | None = None) -> Match:
        """Rebuild a match from its record: ``actions`` (with ``NewGame``) or one list per game.

        :raises IllegalActionError: the record holds an illegal action.
        """
        m = cls(rules, None, games_limit=games_limit)
        if all(isinstance(item, Sequence) for item in record):
            for i, actions in enumerate(record):
                if i > 0:
                    m.apply(NewGame())
                for a in actions:  # type: ignore[union-attr]
                    m.apply(a)
        else:
            for a in record:
                m.apply(a)  # type: ignore[arg-type]
        return m

    # -- building at a state from IDs -------------------------------------------

    @classmethod
    def from_xgid(cls, text: str, rules: Rules | None = None, dice: DiceSource | None = None,
                  *, variant: str | Variant | None = None, games_limit: int | None = None) -> Match:
        """The match an XGID describes, its current game at the XGID's state.

        A game that is not the Crawford game with a player one point from
        winning is post-Crawford.

        :raises InvalidIdError: a malformed XGID or an impossible state.
        """
        game = Game.from_xgid(text, rules, dice, variant=variant)
        return cls._around(game, dice, games_limit)

    @classmethod
    def from_ids(cls, position_id: str, match_id: str, rules: Rules | None = None,
                 dice: DiceSource | None = None, *, games_limit: int | None = None) -> Match:
        """The match a GNU Backgammon Position ID and Match ID describe.

        :raises InvalidIdError: malformed IDs or an impossible state.
        """
        game = Game.from_ids(position_id, match_id, rules, dice)
        return cls._around(game, dice, games_limit)

    @classmethod
    def _around(cls, game: Game, dice: DiceSource | None, games_limit: int | None) -> Match:
        r = game.rules
        post = bool(r.match_length and r.crawford and not game.crawford_game
                    and r.match_length - 1 in game.score and r.match_length > 1)
        try:
            return cls(r, dice, games_limit=games_limit, score=game.score, crawford_game=game.crawford_game,
                       post_crawford=post, game=game)
        except GammonError as exc:
            raise InvalidIdError(f"the IDs name an impossible match: {exc}") from None

    def snapshot(self) -> dict[str, object]:
        """Every piece of the match's state, comparable."""
        return {"rules": self.rules, "score": tuple(self.score), "games": len(self.games),
                "crawford_played": self.crawford_played, "games_limit": self.games_limit,
                "actions": tuple(self.actions), "game": self.game.snapshot()}

    def __repr__(self) -> str:
        """A call that builds this state again (history not included)."""
        if self.is_over:
            return f"<Match over: score {self.score[0]}-{self.score[1]}>"
        between = self.game.phase is Phase.OVER
        parts = [repr(self.rules)]
        if self.games_limit is not None:
            parts.append(f"games_limit={self.games_limit!r}")
        if self.score != [0, 0]:
            parts.append(f"score={tuple(self.score)!r}")
        if self.crawford_played and (between or not self.game.crawford_game):
            parts.append("post_crawford=True")
        if not between:
            # Between games the call builds the next game's start (NewGame applied).
            parts.append(f"game={self.game!r}")
        return f"Match({', '.join(parts)})"


__all__ = ["Match", "MatchPhase"]
