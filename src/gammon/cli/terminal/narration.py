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
from gammon.cli.terminal.commands import renumber_play
from gammon.cli.terminal.screen import Screen
from gammon.cli.terminal.settings import PlaySettings
from gammon.cli.terminal.words import automatic_doubles, checkers, dice_words, games, is_you, kind_words, points
from gammon.core import events as ev
from gammon.core.cube import RelativeOwner
from gammon.core.dice import CardDice, DiceSource
from gammon.core.events import Event, EventKind
from gammon.core.match import Match
from gammon.core.position import Position, ResultKind
from gammon.i18n import N_, _

#: The board's words for the cube's owner as the player on roll sees it (a centred cube: none).
_SIDES: dict[RelativeOwner, Side] = {RelativeOwner.ME: "me", RelativeOwner.OPPONENT: "opp"}


def you(name: str) -> bool:
    """Whether ``name`` is the person's own default name, "you" (:func:`~gammon.cli.terminal.words.is_you`)."""
    return is_you(name)


def said(name: str, you_form: str, other_form: str, **fields: object) -> str:
    """``you_form`` (``{name} roll ...``) for "you", else ``other_form`` (``{name} rolls ...``), filled in.

    Both are messages of the catalogs: a verb agrees with "you" in English and Polish."""
    return _(you_form if is_you(name) else other_form).format(name=name, **fields)


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
    """``a single game``, ``a gammon``, ``a backgammon`` (in the current language)."""
    return kind_words(kind)


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
        return _(" (cards {first} {second})").format(first=cards[0], second=cards[1]) if cards else ""

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
        owner = _("you") if is_you(name) else name
        match e.payload:
            case ev.OpeningTie(dice=(d0, _d1)):
                return _("Opening roll: both threw {number}, so both throw again.").format(number=d0)
            case ev.AutoDouble(cube=cube):
                return _("Automatic double: the cube is now {cube}.").format(cube=cube)
            case ev.Opening(dice=(d0, d1)):
                hi, lo = max(d0, d1), min(d0, d1)
                return _("Opening roll: {first} {first_die}, {second} {second_die}{cards}. {starts}.").format(
                    first=self.names[0], first_die=d0, second=self.names[1], second_die=d1,
                    cards=self.cards_shown(),
                    starts=said(name, N_("{name} start with {high}-{low}"),
                                N_("{name} starts with {high}-{low}"), high=hi, low=lo))
            case ev.Rolled(dice=(d0, d1)):
                if after_opening:
                    return None
                return said(name, N_("{name} roll {first}-{second}{cards}."),
                            N_("{name} rolls {first}-{second}{cards}."), first=d0, second=d1,
                            cards=self.cards_shown())
            case ev.NoMove():
                return _("{name} cannot move.").format(name=name)
            case ev.Played(play=play):
                if not play:
                    return None
                if e.player is not None and not self.humans[e.player]:
                    play = renumber_play(play)  # in the person's numbering, as on the board
                return said(name, N_("{name} play {play}."), N_("{name} plays {play}."), play=play)
            case ev.Doubled(cube=cube):
                return said(name, N_("{name} double to {cube}."), N_("{name} doubles to {cube}."), cube=cube)
            case ev.Took(cube=cube):
                return said(name, N_("{name} take: the cube is {cube}, owned by {owner}."),
                            N_("{name} takes: the cube is {cube}, owned by {owner}."), cube=cube, owner=owner)
            case ev.Beavered(cube=cube):
                return said(name, N_("{name} beaver: the cube is {cube}, owned by {owner}."),
                            N_("{name} beavers: the cube is {cube}, owned by {owner}."), cube=cube, owner=owner)
            case ev.Dropped():
                return said(name, N_("{name} drop."), N_("{name} drops."))
            case ev.Resigned(resign=word):
                kind = ResultKind[word.upper()]
                return said(name, N_("{name} offer to resign {kind} ({points})."),
                            N_("{name} offers to resign {kind} ({points})."),
                            kind=kind_name(kind), points=self.resign_points(kind))
            case ev.ResignationAccepted():
                return said(name, N_("{name} accept the resignation."), N_("{name} accepts the resignation."))
            case ev.ResignationRejected():
                return said(name, N_("{name} refuse the resignation: play on."),
                            N_("{name} refuses the resignation: play on."))
            case ev.ChooseDoubleNow():
                return said(name, N_("Acey-deucey! {name} name a double to play."),
                            N_("Acey-deucey! {name} names a double to play."))
            case ev.ChoseDouble(number=number):
                return said(name, N_("{name} play double {number}s."), N_("{name} plays double {number}s."),
                            number=number)
            case ev.RollAgain():
                return said(name, N_("{name} roll again."), N_("{name} rolls again."))
        return None  # the turn passing, a new game (its game-start says it), a timeout (no clock here)

    def resign_points(self, kind: ResultKind) -> str:
        """What a resignation of ``kind`` gives away now, in points."""
        g = self.match.game
        who = g.resignation[0] if g.resignation is not None else g.player_to_act
        row = g.position.me if who == g.turn else g.position.opp
        return points(g.points_for(kind, sum(row)))

    # -- the match around the games -------------------------------------------------------------

    def intro(self, settings: PlaySettings, resumed_from: str | None) -> None:
        """What is played, with which dice, by whom."""
        r = self.match.rules
        v = r.variant
        if r.match_length:
            what = _("a {length}-point match of {variant}").format(length=r.match_length, variant=v.title)
            if r.match_length > 1 and r.uses_cube:
                what += _(", Crawford rule")
        else:
            customs = []
            if r.uses_cube:
                customs.append(_("Jacoby rule on") if r.jacoby else _("Jacoby rule off"))
                customs.append(_("beavers on") if r.beavers else _("beavers off"))
                if r.automatic_doubles:
                    customs.append(_("up to {doubles}").format(doubles=automatic_doubles(r.automatic_doubles)))
            what = _("a money session of {variant}").format(variant=v.title)
            if customs:
                what += f" ({', '.join(customs)})"
        say = self.screen.say
        say(_("gammon: {what}; {dice}.").format(what=what, dice=dice_words(self.dice)), "bold")
        if r.match_length and (settings.beavers or settings.auto_doubles):
            say(_("(Beavers and automatic doubles are for money play: not used in this match.)"))
        a, b = self.names
        if resumed_from:
            m = self.match
            say(_("Resuming {file}: game {number}, {first} {first_score}, {second} {second_score}.").format(
                file=resumed_from, number=len(m.games), first=a, first_score=m.score[0], second=b,
                second_score=m.score[1]))
        if self.humans[1]:
            say(_("{first} and {second} take turns at this keyboard; the board turns to face "
                  "whoever is to play (O, at the bottom).").format(first=a, second=b))
        else:
            say(_("{first} play O, at the bottom; {second} plays X ({level} level).").format(
                first=a, second=b, level=settings.level))
        say(_("Type 'help' for the commands."))

    def banner(self) -> None:
        """The heading of a game (its ``game-start``): its number, the score, the Crawford game."""
        m = self.match
        a, b = self.names
        text = _("Game {number}").format(number=len(m.games))
        if len(m.games) > 1 or m.length:
            text += _(": {first} {first_score}, {second} {second_score}").format(
                first=a, first_score=m.score[0], second=b, second_score=m.score[1])
            if m.length:
                text += _(" in a {length}-point match").format(length=m.length)
        if m.game.crawford_game:
            text += _(" (Crawford game: no doubling)")
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
            how = said(loser, N_("{name} drop the double"), N_("{name} drops the double"))
        elif res.resigned:
            how = said(loser, N_("{name} resign {kind}"), N_("{name} resigns {kind}"), kind=kind_name(res.kind))
        elif self.match.rules.variant.pays_per_checker:
            how = said(loser, N_("{name} have {checkers} left"), N_("{name} has {checkers} left"),
                       checkers=checkers(res.checkers_left))
        else:
            how = kind_name(res.kind)
        self.screen.say(said(winner, N_("{name} win game {number} ({how}): {points}."),
                             N_("{name} wins game {number} ({how}): {points}."),
                             number=len(self.match.games), how=how, points=points(res.points)), "bold")

    def score(self) -> None:
        m = self.match
        a, b = self.names
        fields = {"first": a, "first_score": m.score[0], "second": b, "second_score": m.score[1]}
        if m.length:
            self.screen.say(_("Score: {first} {first_score}, {second} {second_score} in a {length}-point "
                              "match.").format(length=m.length, **fields))
        else:
            self.screen.say(_("Total after {games}: {first} {first_score}, {second} {second_score}.").format(
                games=games(len(m.games)), **fields))

    def match_over(self) -> None:
        m = self.match
        if m.winner is not None:
            w = self.names[m.winner]
            self.screen.say(said(w, N_("{name} win the match {high}-{low}!"),
                                 N_("{name} wins the match {high}-{low}!"), high=max(m.score),
                                 low=min(m.score)), "bold")

    def report(self) -> None:
        """The analysis of the game just ended (:mod:`gammon.analysis`), for people at a terminal only."""
        if self.screen.console.is_terminal:
            from gammon.analysis.text import game_report_lines
            for line in game_report_lines(self.match, self.names):
                self.screen.say(line)


__all__ = ["Narrator", "kind_name", "possessive", "verb", "you"]
