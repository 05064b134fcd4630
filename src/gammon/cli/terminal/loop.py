"""``gammon play``: a game or match of backgammon in the terminal, driven by the session.

:class:`TerminalGame` runs a :class:`~gammon.core.match.Match` between a person
and the computer (or two people at one keyboard) through one
:class:`~gammon.play.session.Session`: it asks the session which decision is
pending, lets the computer's seat answer (:meth:`Session.ask
<gammon.play.session.Session.ask>`) or reads a person's answer at a prompt
(:mod:`~gammon.cli.terminal.prompts`), and submits it; the session's typed
events are told by the :mod:`~gammon.cli.terminal.narration`.  At the end of
each game the result is shown and saving is offered
(:mod:`~gammon.cli.terminal.saving`).

Input and output are injected (:class:`~gammon.cli.terminal.screen.Screen`),
so the loop runs the same behind a terminal, a pipe or a test.
:meth:`TerminalGame.run` returns the exit status: 0, or 130 after Ctrl-C.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from rich.console import Console

from gammon.cli.terminal.hints import Hints
from gammon.cli.terminal.narration import Narrator
from gammon.cli.terminal.prompts import Prompts, cube_is_useful
from gammon.cli.terminal.saving import Quit, Saver
from gammon.cli.terminal.screen import Screen
from gammon.cli.terminal.settings import PlaySettings
from gammon.cli.warmup import STAGES_FOR_0PLY, BackgroundWarmup, is_warm
from gammon.core.dice import DiceSource, ManualDice, make_dice
from gammon.core.errors import GammonError
from gammon.core.events import GameStart
from gammon.core.game import Action, Event, Game, Move, NewGame, Phase, Roll
from gammon.core.match import Match
from gammon.i18n import _
from gammon.play.levels import make_computer_player
from gammon.play.players import Player
from gammon.play.session import Decision, DecisionKind, Person, Session

#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130


class TerminalGame:
    """A match (or money session) played at the terminal; :meth:`run` plays it to the end.

    Player 0 is the person (bottom of the board, left column of a saved
    ``.mat``); player 1 is the computer, or the second person.  ``dice`` and
    ``computer`` replace the dice and bot the settings would make (tests);
    ``match`` continues a saved match (``resumed_from`` names its file).
    """

    #: Lines of plays shown at once by ``moves`` (with the heading and prompt: within 24 rows).
    PAGE_LINES = 20

    def __init__(
        self,
        settings: PlaySettings,
        *,
        input_fn: Callable[[str], str] | None = None,
        console: Console | None = None,
        dice: DiceSource | None = None,
        computer: Player | None = None,
        match: Match | None = None,
        resumed_from: str | None = None,
        pace: float | None = None,
    ) -> None:
        self.settings = settings.checked()
        assert self.settings.names is not None
        self.names: tuple[str, str] = self.settings.names
        self.seed = self.settings.seed if self.settings.seed is not None else secrets.randbits(31)
        self.screen = Screen(console, input_fn)
        self.dice: DiceSource = dice or make_dice(
            self.settings.dice, None if self.settings.dice == "manual" else self.seed
        )
        self.match = match if match is not None else Match(self.settings.rules(), self.dice)
        if match is not None:  # a saved match, continued: its rules, score and games so far
            match.dice = match.game.dice = self.dice
        self.rules = self.match.rules
        self.resumed_from = resumed_from
        #: Seconds to pause after each computer turn the person could not answer (closed out).
        self.pace = pace if pace is not None else (0.8 if self.screen.console.is_terminal else 0.0)
        self._warmup: BackgroundWarmup | None = None
        self._computer_streak = 0
        self.humans = (True, self.settings.opponent == "human")
        bot = computer or make_computer_player(self.settings.level, self.seed + 1)
        seats = (Person(self.names[0]), Person(self.names[1]) if self.humans[1] else bot)
        self.session = Session(self.match, seats)
        #: The announcement of the game a saved match resumes with, when it stopped between games.
        self._resumed_start: list[Event] = []
        if match is not None and self.session.pending is not None \
                and self.session.pending.kind is DecisionKind.NEXT_GAME:
            # Its next game starts through the session; only that game's start is told, by play().
            number = len(match.games) + 1
            self._resumed_start = [e for e in self.session.submit(NewGame())
                                   if isinstance(e.payload, GameStart) and e.payload.game == number]
        self.narrator = Narrator(self.screen, self.match, self.names, self.humans, self.dice)
        self.saver = Saver(self.screen, self.match, self.names, self.dice, saved=match is not None)
        hints = Hints(self.screen, self.match, self.names, self.settings.level,
                      lambda: self.wait_for_engine(_("The hint engine"), search=True))
        self.prompts = Prompts(self.screen, self.narrator, self.match, hints, self.saver, self.submit,
                               lambda: self.PAGE_LINES)

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def console(self) -> Console:
        return self.screen.console

    def cube_is_useful(self, actor: int) -> bool:
        """Whether ``actor`` is asked "roll or double" (:func:`gammon.cli.terminal.prompts.cube_is_useful`)."""
        return cube_is_useful(self.game, actor)

    # -- running ------------------------------------------------------------------

    def run(self) -> int:
        """Play until the match ends or the person leaves; the exit status (0, or 130 after Ctrl-C)."""
        try:
            self.narrator.intro(self.settings, self.resumed_from)
            self.start_warmup()
            if self._warmup is not None and not self._warmup.ready(1):
                self.narrator.draw()  # the board at once; the move generator compiles meanwhile
                self._warmup.wait(self.screen.say, _("The game"), needed=1)
            self.play()
            return 0
        except Quit:
            self.screen.say(_("Bye."))
            return 0
        except EOFError:
            self.screen.say("\n" + _("End of input: leaving the game. Bye."))
            return 0
        except KeyboardInterrupt:
            self.screen.say("\n" + _("Interrupted: leaving the game. Bye."))
            return EXIT_INTERRUPTED
        except GammonError as exc:  # a dice source or bot gave up: say so, never a traceback
            self.screen.error(_("the game cannot go on: {reason}").format(reason=exc))
            return 1

    def play(self) -> None:
        """The loop: the session's pending decision, answered by its seat, until the match ends or
        the person stops after a game."""
        self.narrator.announce(self._resumed_start + self.session.begin())
        self._resumed_start = []
        while (decision := self.session.pending) is not None:
            if decision.kind is DecisionKind.NEXT_GAME:
                if not self.after_game():
                    return
                self.submit(NewGame())
            elif decision.kind is DecisionKind.OPENING_ROLL:
                self.submit(Roll(decision.player if decision.player is not None else 0))
            elif not self.session.is_person(decision.player):
                self.computer_turn(decision)
            else:
                if decision.kind is DecisionKind.MOVE:
                    self._computer_streak = 0
                self.prompts.decide(decision)
        self.after_game()

    def submit(self, action: Action) -> list[Event]:
        """The one way an action reaches the session: the manual dice are asked for a roll,
        and the events are told.

        :raises IllegalActionError: core refused the action (nothing changed).
        """
        if isinstance(action, Roll) and isinstance(self.dice, ManualDice):
            opening = self.game.phase is Phase.OPENING
            self.prompts.throw(action.player, self.dice, opening=opening)
        events = self.session.submit(action)
        if isinstance(action, Roll | Move):
            self.prompts.parts = []  # a new roll, or the play made: no parts pending
        self.narrator.announce(events)
        return events

    def computer_turn(self, decision: Decision) -> None:
        """The computer's seat decides (after the engine is ready) and the action is submitted."""
        assert decision.player is not None
        actor = decision.player
        self.wait_for_engine(self.names[actor])
        with self.screen.busy(_("{name} is thinking...").format(name=self.names[actor])):
            action = self.session.ask()
        self.submit(action)
        if isinstance(action, Move):
            self.after_computer_move(actor)

    def after_computer_move(self, actor: int) -> None:
        """Keep a run of computer turns followable: when the person could not answer the
        previous one (closed out, no legal play), show the board after each, paced."""
        self._computer_streak += 1
        if self._computer_streak < 2 or self.game.is_over:
            return
        self.screen.say(_("({name}'s turn {count} in a row: {other} could not move.)").format(
            name=self.names[actor], count=self._computer_streak, other=self.names[1 - actor]))
        self.narrator.draw(actor)
        if self.pace > 0:
            import time

            self.console.file.flush()
            time.sleep(self.pace)

    def after_game(self) -> bool:
        """Offer to save; True when another game follows."""
        self.saver.offer_save()
        if self.match.is_over:
            return False
        if not self.match.length:
            return self.screen.yes_no(_("Play another game?"), default=True)
        return True

    # -- the engine's background preparation ------------------------------------------------

    def start_warmup(self) -> None:
        """Compile the engine in the background when this is its first run (said at once)."""
        if is_warm():
            return
        if self.humans[1] or self.settings.level == "heuristic":
            self.screen.say(_("(First run: the engine behind 'hint' is being prepared in the background.)"))
        else:
            self.screen.say(_("(First run: the computer's engine is being prepared in the background; "
                              "its first move may take a minute.)"))
        self._warmup = BackgroundWarmup()

    def wait_for_engine(self, who: str, *, search: bool = False) -> None:
        """Before the engine's first use: wait for the stages of the background preparation
        it needs (``search``: 1-ply and deeper), saying so."""
        if self._warmup is None:
            return
        needed = None if search or self.settings.level in ("world-class", "strongest") else STAGES_FOR_0PLY
        self._warmup.wait(self.screen.say, who, needed)
        if self._warmup.finished:
            self._warmup = None


def run_terminal_game(settings: PlaySettings, **options: object) -> int:
    """Play ``settings`` at this terminal; the exit status (0, or 130 after Ctrl-C)."""
    if "input_fn" not in options:
        from gammon.cli.terminal.screen import enable_line_editing

        enable_line_editing()
    game = TerminalGame(settings, **options)  # type: ignore[arg-type]
    return game.run()


__all__ = ["EXIT_INTERRUPTED", "TerminalGame", "run_terminal_game"]
