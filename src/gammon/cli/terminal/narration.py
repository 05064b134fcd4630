"""What the terminal shows of a match: the board, and each event in plain words.

:class:`Narrator` turns the session's typed events (:mod:`gammon.core.events`:
one payload class per kind, matched by type) into the lines a person reads:
the computer's plays in the person's numbering, the cube's owner as "you" or
a name, the game's banner at its ``game-start``, the result at its
``game-over``, the score and the match's winner.  It also draws the board
from the side of whoever is to act.
"""

from __future__ import annotations

from collections.abc import Sequence

from gammon.cli.board import Side, render_board
from gammon.cli.terminal.commands import plural, renumber_play
from gammon.cli.terminal.screen import Screen
from gammon.cli.terminal.settings import PlaySettings
from gammon.core import events as ev
from gammon.core.cube import RelativeOwner
from gammon.core.dice import CardDice, DiceSource
from gammon.core.events import Event, EventKind
from gammon.core.match import Match
from gammon.core.position import Position, ResultKind

#: The board's words for the cube's owner as the player on roll sees it (a centred cube: none).
_SIDES: dict[RelativeOwner, Side] = {RelativeOwner.ME: "me", RelativeOwner.OPPONENT: "opp"}


def you(name: str) -> bool:
    return name.lower() == "you"


def verb(name: str, word: str) -> str:
    """``You win`` / ``Computer wins``."""
    if you(name):
        return f"{name} {word}"
    if word.endswith(("s", "sh", "ch", "x")):
        return f"{name} {word}es"
    return f"{name} {word}s"


def possessive(name: str) -> str:
    """``your`` for You, ``Ann's`` for Ann."""
    return "your" if you(name) else f"{name}'s"


def kind_name(kind: ResultKind) -> str:
    return {ResultKind.SINGLE: "a single game", ResultKind.GAMMON: "a gammon",
            ResultKind.BACKGAMMON: "a backgammon"}[kind]


class Narrator:
    """Shows ``match`` on ``screen``: player 0 is ``names[0]``; ``humans`` says which seats are people."""

    def __init__(self, screen: Screen, match: Match, names: tuple[str, str], humans: tuple[bool, bool],
                 dice: DiceSource) -> None:
        self.screen = screen
        self.match = match
        self.names = names
        self.humans = humans
        self.dice = dice

    # -- the board ----------------------------------------------------------------------

    def viewer(self, actor: int | None = None) -> int:
        """The seat whose side is drawn at the bottom: the person, or the person to act."""
        if all(self.humans) and actor is not None:
            return actor
        return 0

    def cards(self) -> tuple[str, str] | None:
        if not isinstance(self.dice, CardDice) or self.dice.last_cards is None:
            return None
        a, b = self.dice.last_cards
        encoding = (getattr(self.screen.console.file, "encoding", None) or "").lower()
        if "utf" in encoding:
            return f"{a}\u2660", f"{b}\u2665"
        return a, b

    def cards_shown(self) -> str:
        """`` (cards X Y)`` when the dice are cards, else nothing."""
        cards = self.cards()
        return f" (cards {cards[0]} {cards[1]})" if cards else ""

    def draw(
        self, actor: int | None = None, position: Position | None = None,
        dice: Sequence[int] | None = None,
    ) -> None:
        """The board, from the viewer's side, with the cube, score and (after a roll) the dice."""
        g = self.match.game
        turn = g.turn
        viewer: Side = "me" if self.viewer(actor) == turn else "opp"
        owner: Side | None = _SIDES.get(g.cube_owner.relative(turn))
        shown = dice if dice is not None else g.rolled
        cards = self.cards() if g.rolled is not None and dice is None else None
        board = render_board(
            position or g.position,
            cube=g.cube_value if self.match.rules.uses_cube else None,
            cube_owner=owner,
            score=(self.match.score[turn], self.match.score[1 - turn]),
            match_length=self.match.rules.match_length or None,
            crawford=g.crawford_game,
            dice=shown,
            cards=cards,
            names=(self.names[turn], self.names[1 - turn]),
            viewer=viewer,
        )
        console = self.screen.console
        console.print()
        console.print(board, soft_wrap=True)

    # -- events ---------------------------------------------------------------------------

    def announce(self, events: list[Event]) -> None:
        """Say what ``events`` (one action's, in order) tell; a game's end closes with its analysis."""
        after_opening = False
        for e in events:
            match e.payload:
                case ev.GameStart():
                    self.banner()
                case ev.GameOver():
                    self.game_over()
                case ev.Score():
                    self.score()
                case ev.MatchOver():
                    self.match_over()
                case _:
                    text = self.describe(e, after_opening)
                    if text:
                        bold = e.player is not None and not self.humans[e.player]
                        self.screen.say(text, "bold" if bold else "")
            after_opening = e.kind is EventKind.OPENING
        if any(e.kind is EventKind.GAME_OVER for e in events):
            self.report()

    def describe(self, e: Event, after_opening: bool) -> str | None:
        """The line for an event of play (None: nothing to say, as for the turn passing)."""
        name = self.names[e.player] if e.player is not None else ""
        owner = "you" if you(name) else name
        match e.payload:
            case ev.OpeningTie(dice=(d0, _)):
                return f"Opening roll: both threw {d0}, so both throw again."
            case ev.AutoDouble(cube=cube):
                return f"Automatic double: the cube is now {cube}."
            case ev.Opening(dice=(d0, d1)):
                hi, lo = max(d0, d1), min(d0, d1)
                return (f"Opening roll: {self.names[0]} {d0}, {self.names[1]} {d1}{self.cards_shown()}. "
                        f"{verb(name, 'start')} with {hi}-{lo}.")
            case ev.Rolled(dice=(d0, d1)):
                return None if after_opening else f"{verb(name, 'roll')} {d0}-{d1}{self.cards_shown()}."
            case ev.NoMove():
                return f"{name} cannot move."
            case ev.Played(play=play):
                if not play:
                    return None
                if e.player is not None and not self.humans[e.player]:
                    play = renumber_play(play)  # in the person's numbering, as on the board
                return f"{verb(name, 'play')} {play}."
            case ev.Doubled(cube=cube):
                return f"{verb(name, 'double')} to {cube}."
            case ev.Took(cube=cube):
                return f"{verb(name, 'take')}: the cube is {cube}, owned by {owner}."
            case ev.Beavered(cube=cube):
                return f"{verb(name, 'beaver')}: the cube is {cube}, owned by {owner}."
            case ev.Dropped():
                return f"{verb(name, 'drop')}."
            case ev.Resigned(resign=word):
                kind = ResultKind[word.upper()]
                return f"{verb(name, 'offer')} to resign {kind_name(kind)} ({self.resign_points(kind)})."
            case ev.ResignationAccepted():
                return f"{verb(name, 'accept')} the resignation."
            case ev.ResignationRejected():
                return f"{verb(name, 'refuse')} the resignation: play on."
            case ev.ChooseDoubleNow():
                return f"Acey-deucey! {verb(name, 'name')} a double to play."
            case ev.ChoseDouble(number=number):
                return f"{verb(name, 'play')} double {number}s."
            case ev.RollAgain():
                return f"{verb(name, 'roll')} again."
        return None  # the turn passing, a new game (its game-start says it), a timeout (no clock here)

    def resign_points(self, kind: ResultKind) -> str:
        """What a resignation of ``kind`` gives away now, in points."""
        g = self.match.game
        who = g.resignation[0] if g.resignation is not None else g.player_to_act
        row = g.position.me if who == g.turn else g.position.opp
        return plural(g.points_for(kind, sum(row)), "point")

    # -- the match around the games -------------------------------------------------------------

    def intro(self, settings: PlaySettings, resumed_from: str | None) -> None:
        """What is played, with which dice, by whom."""
        r = self.match.rules
        v = r.variant
        if r.match_length:
            what = f"a {r.match_length}-point match of {v.title}"
            if r.match_length > 1 and r.uses_cube:
                what += ", Crawford rule"
        else:
            customs = []
            if r.uses_cube:
                customs.append(f"Jacoby rule {'on' if r.jacoby else 'off'}")
                customs.append(f"beavers {'on' if r.beavers else 'off'}")
                if r.automatic_doubles:
                    customs.append(f"up to {plural(r.automatic_doubles, 'automatic double')}")
            what = f"a money session of {v.title}" + (f" ({', '.join(customs)})" if customs else "")
        say = self.screen.say
        say(f"gammon: {what}; {self.dice.describe()}.", "bold")
        if r.match_length and (settings.beavers or settings.auto_doubles):
            say("(Beavers and automatic doubles are for money play: not used in this match.)")
        a, b = self.names
        if resumed_from:
            m = self.match
            say(f"Resuming {resumed_from}: game {len(m.games)}, {a} {m.score[0]}, {b} {m.score[1]}.")
        if self.humans[1]:
            say(f"{a} and {b} take turns at this keyboard; the board turns to face "
                "whoever is to play (O, at the bottom).")
        else:
            say(f"{a} play O, at the bottom; {b} plays X ({settings.level} level).")
        say("Type 'help' for the commands.")

    def banner(self) -> None:
        """The heading of a game (its ``game-start``): its number, the score, the Crawford game."""
        m = self.match
        a, b = self.names
        text = f"Game {len(m.games)}"
        if len(m.games) > 1 or m.length:
            text += f": {a} {m.score[0]}, {b} {m.score[1]}"
            if m.length:
                text += f" in a {m.length}-point match"
        if m.game.crawford_game:
            text += " (Crawford game: no doubling)"
        self.screen.say("")
        self.screen.say(text, "bold underline")

    def game_over(self) -> None:
        """The final board and who won the game, how, and its points."""
        res = self.match.game.result
        assert res is not None
        self.draw()
        winner = self.names[res.winner]
        loser = self.names[1 - res.winner]
        if res.dropped:
            how = f"{verb(loser, 'drop')} the double"
        elif res.resigned:
            how = f"{verb(loser, 'resign')} {kind_name(res.kind)}"
        elif self.match.rules.variant.pays_per_checker:
            how = f"{loser} {'have' if you(loser) else 'has'} {plural(res.checkers_left, 'checker')} left"
        else:
            how = kind_name(res.kind)
        self.screen.say(f"{verb(winner, 'win')} game {len(self.match.games)} ({how}): "
                        f"{plural(res.points, 'point')}.", "bold")

    def score(self) -> None:
        m = self.match
        a, b = self.names
        if m.length:
            self.screen.say(f"Score: {a} {m.score[0]}, {b} {m.score[1]} in a {m.length}-point match.")
        else:
            self.screen.say(f"Total after {plural(len(m.games), 'game')}: {a} {m.score[0]}, {b} {m.score[1]}.")

    def match_over(self) -> None:
        m = self.match
        if m.winner is not None:
            w = self.names[m.winner]
            self.screen.say(f"{verb(w, 'win')} the match {max(m.score)}-{min(m.score)}!", "bold")

    def report(self) -> None:
        """The analysis of the game just ended (:mod:`gammon.analysis`), for people at a terminal only."""
        if self.screen.console.is_terminal:
            from gammon.analysis.text import game_report_lines
            for line in game_report_lines(self.match, self.names):
                self.screen.say(line)


__all__ = ["Narrator", "kind_name", "possessive", "verb", "you"]
