"""A match (or a money session): games in sequence, the score, Crawford and the end.

:class:`Match` starts each :class:`~gammon.core.game.Game` with the right
settings (the Crawford game forbids doubling; money-only customs stay off in
match play), adds each game's points to the score and knows when the match is
over.  Its record is the list of game records, from which it replays exactly.
"""

from __future__ import annotations

from gammon.core.errors import IllegalActionError
from gammon.core.game import Action, DiceSource, Event, Game, Rules


class Match:
    """Games between players 0 and 1 to ``rules.match_length`` points (0: money session).

    ``games_limit`` ends a money session after that many games (None: no limit).
    """

    def __init__(
        self, rules: Rules | None = None, dice: DiceSource | None = None,
        *, games_limit: int | None = None,
    ) -> None:
        self.rules = rules or Rules()
        self.dice = dice
        self.games_limit = games_limit
        self.score = [0, 0]
        self.games: list[Game] = []
        self.crawford_played = False
        self.game = self._new_game()

    @property
    def length(self) -> int:
        return self.rules.match_length

    @property
    def is_over(self) -> bool:
        """True when a player has reached the match length (or the session's game limit)."""
        if self.length:
            return max(self.score) >= self.length
        return self.games_limit is not None and len(self.games) >= self.games_limit and self.game.is_over

    @property
    def winner(self) -> int | None:
        if not self.is_over:
            return None
        if self.score[0] == self.score[1]:
            return None
        return 0 if self.score[0] > self.score[1] else 1

    def is_crawford_next(self) -> bool:
        """Whether the next game is the Crawford game.

        "The first game after a player reaches one point from winning is played
        without the cube; later games (post-Crawford) use it again."
        """
        if not self.length or not self.rules.crawford or self.crawford_played or not self.games:
            # The first game follows no game, so it is never the Crawford game
            # (in a 1-point match both players start one point from winning).
            return False
        return (self.length - 1) in self.score and max(self.score) < self.length

    def _new_game(self) -> Game:
        crawford = self.is_crawford_next()
        if crawford:
            self.crawford_played = True
        game = Game(self.rules, self.dice, crawford_game=crawford, score=(self.score[0], self.score[1]))
        self.games.append(game)
        return game

    @property
    def is_post_crawford(self) -> bool:
        return self.crawford_played and not self.game.crawford_game

    def apply(self, action: Action) -> list[Event]:
        """Carry out ``action`` in the current game; score it when the game ends.

        :raises IllegalActionError: the match is over, or the game refuses the action.
        """
        if self.is_over:
            raise IllegalActionError("the match is over")
        if self.game.is_over:
            self.next_game()
        events = self.game.apply(action)
        if self.game.is_over and self.game.result is not None:
            res = self.game.result
            self.score[res.winner] += res.points
            text = f"score {self.score[0]}-{self.score[1]}"
            if self.length:
                text += f" in a {self.length}-point match"
            events.append(Event("score", res.winner, text, {"score": tuple(self.score)}))
            if self.is_over:
                who = self.winner
                events.append(Event("match-over", who, f"player {who} wins the match {text}"
                                    if who is not None else f"the session ends {text}", {}))
        return events

    def next_game(self) -> Game:
        """Start the next game once the current one is over."""
        if not self.game.is_over:
            raise IllegalActionError("the current game is not over yet")
        if self.is_over:
            raise IllegalActionError("the match is over")
        self.game = self._new_game()
        return self.game

    @property
    def record(self) -> list[list[Action]]:
        """One list of actions per game, in order."""
        return [g.record for g in self.games]

    @classmethod
    def replay(cls, rules: Rules, record: list[list[Action]], *,
               games_limit: int | None = None) -> Match:
        """Rebuild a match from its record.

        :raises IllegalActionError: the record holds an illegal action.
        """
        m = cls(rules, None, games_limit=games_limit)
        for i, actions in enumerate(record):
            if i > 0:
                m.next_game()
            for a in actions:
                m.apply(a)
        return m
