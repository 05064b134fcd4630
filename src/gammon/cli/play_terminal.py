"""``gammon play``: a game or match of backgammon in the terminal.

:class:`TerminalGame` runs a :class:`~gammon.core.match.Match` between a person
and the computer (or two people at one keyboard).  It draws the board with
:func:`~gammon.cli.board.render_board` before each decision a person makes,
reads what the person types (plays in the notation players write, whole or in
parts, and the commands of :data:`HELP`), announces what the computer does,
and at the end of each game shows the result and offers to save the match.

Input and output are injected, so the loop runs the same behind a terminal, a
pipe or a test: ``input_fn(prompt)`` shows the prompt and returns one line
(raising :class:`EOFError` at the end of input, :class:`KeyboardInterrupt` on
Ctrl-C) and ``console`` is a :class:`rich.console.Console`, which writes no
colour codes when ``NO_COLOR`` is set or the output is not a terminal.
:meth:`TerminalGame.run` returns the exit status: 0, or 130 after Ctrl-C.
"""

from __future__ import annotations

import datetime
import os
import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from rich.console import Console
from rich.text import Text

from gammon.cli.board import Side, render_board
from gammon.cli.limits import MAX_MATCH_LENGTH
from gammon.cli.warmup import STAGES_FOR_0PLY, BackgroundWarmup, is_warm
from gammon.core import events as ev
from gammon.core.cube import RelativeOwner, cube_is_dead
from gammon.core.dice import CardDice, DiceSource, ManualDice, make_dice
from gammon.core.errors import GammonError, PlaySyntaxError
from gammon.core.events import EventKind
from gammon.core.game import (
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    Double,
    Drop,
    Event,
    Game,
    Move,
    Phase,
    RejectResignation,
    Resign,
    Roll,
    Rules,
    Take,
)
from gammon.core.match import Match
from gammon.core.notation import parse_segments
from gammon.core.plays import Play
from gammon.core.position import Position, ResultKind, StepReason
from gammon.core.variants import find_variant
from gammon.play.levels import find_level, make_computer_player
from gammon.play.partial import PartialPlay, follow_parts
from gammon.play.players import Player, can_beaver
from gammon.play.session import MAX_ACTIONS_PER_GAME, next_action

if TYPE_CHECKING:
    from gammon.ai.cube import CubeDecision
    from gammon.ai.engine import Engine

#: The dice a person may choose for ``gammon play``.
PLAY_DICE: tuple[str, ...] = ("random", "cards", "manual")
#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130
#: Variants a ``.mat`` file can carry; the others are saved as gammon's JSON record.
_MAT_VARIANTS = frozenset({"standard", "nackgammon", "hypergammon"})
#: The board's words for the cube's owner as the player on roll sees it (a centred cube: none).
_SIDES: dict[RelativeOwner, Side] = {RelativeOwner.ME: "me", RelativeOwner.OPPONENT: "opp"}

HELP = """\
Type a play as players write it: 24/18 13/11, bar/22*, 6/off, 8/5(2), or in
parts (24/18, then 13/11). Forced plays and passes are made for you.
  moves            list the legal plays, numbered; a number makes that play
  hint             the engine's best plays with equities, or its cube advice
  undo             take back the last part of a play entered in parts
  roll  (Enter)    roll the dice, at the roll-or-double prompt
  double           offer the cube, before rolling
  take, drop, beaver                  answer a double
  resign [single|gammon|backgammon]   offer to resign (single by default)
  accept, reject  (y, n)              answer an offer to resign
  board            draw the board again
  save FILE.mat    save the match so far (FILE.json: any variant, every detail)
  help             this list
  quit             leave (asks first when the match is not saved)"""


# -- settings ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlaySettings:
    """What ``gammon play`` was asked for.

    ``match_length`` 0 is a money session (games until a player stops);
    ``jacoby``, ``beavers`` and ``auto_doubles`` apply to money play only.
    ``seed`` None picks a fresh seed, which the game reports so it can be replayed.
    """

    match_length: int = 3
    variant: str = "standard"
    dice: str = "random"
    level: str = "expert"
    opponent: Literal["computer", "human"] = "computer"
    jacoby: bool = True
    beavers: bool = False
    auto_doubles: int = 0
    seed: int | None = None
    names: tuple[str, str] | None = None
    #: "use-opening-dice" or "reroll"; None: the variant's usual reading (see gammon.core.rules.Rules).
    opening: str | None = None

    def checked(self) -> PlaySettings:
        """These settings with names filled in, or :class:`GammonError` for a bad value."""
        if not 0 <= self.match_length <= MAX_MATCH_LENGTH:
            raise GammonError(f"the match length is 0 (money) to {MAX_MATCH_LENGTH} points, "
                              f"not {self.match_length}")
        find_variant(self.variant)
        if self.dice not in PLAY_DICE:
            raise GammonError(f"unknown dice {self.dice!r}: choose one of {', '.join(PLAY_DICE)}")
        if self.opponent not in ("computer", "human"):
            raise GammonError(f"the opponent is 'computer' or 'human', not {self.opponent!r}")
        level = find_level(self.level)
        if self.auto_doubles < 0:
            raise GammonError("automatic doubles are 0 (off) or a limit above 0")
        if self.seed is not None and self.seed < 0:
            raise GammonError(f"the seed is a whole number 0 or more, not {self.seed}")
        default = ("You", "Computer") if self.opponent == "computer" else ("Player 1", "Player 2")
        given = self.names or default
        names = tuple(n.strip() or d for n, d in zip(given, default, strict=True))
        if names[0] == names[1]:
            names = (names[0], names[1] + " (2)")
        return PlaySettings(
            self.match_length, self.variant, self.dice, level, self.opponent, self.jacoby,
            self.beavers, self.auto_doubles, self.seed, (names[0], names[1]), self.rules().opening,
        )

    def rules(self) -> Rules:
        """The match rules these settings ask for."""
        money = self.match_length == 0
        return Rules(
            variant=find_variant(self.variant),
            match_length=self.match_length,
            jacoby=money and self.jacoby,
            beavers=money and self.beavers,
            automatic_doubles=self.auto_doubles if money else 0,
            opening=self.opening,
        )


# -- commands ------------------------------------------------------------------


class CommandError(GammonError):
    """A command written wrongly (``resign twice``, ``undo 3``)."""


@dataclass(frozen=True, slots=True)
class Command:
    """One line a person typed, read as a command.

    ``name`` is one of :data:`COMMANDS`, ``enter`` (an empty line) or ``pick``
    (a bare number, ``number``); ``arg`` is the file of ``save`` or the kind of
    ``resign``.
    """

    name: str
    arg: str | None = None
    number: int | None = None


_ALIASES: dict[str, str] = {
    "roll": "roll", "r": "roll",
    "double": "double", "dbl": "double",
    "take": "take", "drop": "drop", "beaver": "beaver",
    "resign": "resign",
    "accept": "accept", "yes": "accept", "y": "accept",
    "reject": "reject", "no": "reject", "n": "reject",
    "hint": "hint",
    "undo": "undo", "u": "undo",
    "moves": "moves", "m": "moves", "list": "moves",
    "save": "save",
    "board": "board", "show": "board",
    "help": "help", "h": "help", "?": "help",
    "quit": "quit", "q": "quit", "exit": "quit",
}
#: The command names :func:`parse_command` gives.
COMMANDS: tuple[str, ...] = tuple(dict.fromkeys(_ALIASES.values()))

_RESIGN_KINDS: dict[str, ResultKind] = {
    "single": ResultKind.SINGLE, "s": ResultKind.SINGLE, "1": ResultKind.SINGLE, "normal": ResultKind.SINGLE,
    "gammon": ResultKind.GAMMON, "g": ResultKind.GAMMON, "2": ResultKind.GAMMON,
    "backgammon": ResultKind.BACKGAMMON, "bg": ResultKind.BACKGAMMON, "3": ResultKind.BACKGAMMON,
}


def parse_command(text: str) -> Command | None:
    """The command ``text`` names, or None when it is not a command (then it is a play).

    >>> parse_command("resign gammon")
    Command(name='resign', arg='gammon', number=None)
    >>> parse_command("24/18 13/11") is None
    True

    :raises CommandError: a command with a wrong argument.
    """
    words = text.split()
    if not words:
        return Command("enter")
    head, rest = words[0].lower(), words[1:]
    if head.isdigit() and not rest:
        return Command("pick", number=int(head))
    name = _ALIASES.get(head)
    if name is None:
        return None
    if name == "save":
        target = text.strip()[len(words[0]):].strip()
        return Command("save", arg=target or None)
    if name == "resign":
        if len(rest) > 1:
            raise CommandError("write 'resign', 'resign gammon' or 'resign backgammon'")
        kind = rest[0].lower() if rest else "single"
        if kind not in _RESIGN_KINDS:
            raise CommandError(f"resign single, gammon or backgammon, not {rest[0]!r}")
        return Command("resign", arg=_RESIGN_KINDS[kind].name.lower())
    if rest:
        raise CommandError(f"'{head}' takes nothing after it")
    return Command(name)


_POINT = re.compile(r"(?<![(\d])(\d+)(?![\d)])")


def renumber_play(text: str) -> str:
    """A play written from the other side of the board: point ``p`` becomes ``25 - p``.

    The computer's plays are announced in the person's numbering, the one the
    board's labels show; ``bar``, ``off``, hits (``*``) and counts (``(2)``) stay.

    >>> renumber_play("24/18 13/11*")
    '1/7 12/14*'
    >>> renumber_play("bar/22 6/off 8/5(2)")
    'bar/3 19/off 17/20(2)'
    """
    return _POINT.sub(lambda m: str(25 - int(m.group(1))) if 1 <= int(m.group(1)) <= 24 else m.group(1), text)


def resign_kind(command: Command) -> ResultKind:
    """The kind of game a ``resign`` command offers."""
    return ResultKind[(command.arg or "single").upper()]


# -- helpers -------------------------------------------------------------------


class _Quit(Exception):
    """The person chose to leave."""


class _HumanSeat:
    """A seat a person fills: the session never asks it (people answer at the prompt)."""

    def _refuse(self, *_: object) -> object:
        raise RuntimeError("a person's decisions come from the terminal, not from the session")

    choose_play = cube_action = answer_double = answer_resignation = _refuse
    choose_double_number = resign = _refuse


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _you(name: str) -> bool:
    return name.lower() == "you"


def _verb(name: str, verb: str) -> str:
    """``You win`` / ``Computer wins``."""
    if _you(name):
        return f"{name} {verb}"
    if verb.endswith(("s", "sh", "ch", "x")):
        return f"{name} {verb}es"
    return f"{name} {verb}s"


def _possessive(name: str) -> str:
    """``your`` for You, ``Ann's`` for Ann."""
    return "your" if _you(name) else f"{name}'s"


def _kind_name(kind: ResultKind) -> str:
    return {ResultKind.SINGLE: "a single game", ResultKind.GAMMON: "a gammon",
            ResultKind.BACKGAMMON: "a backgammon"}[kind]


def _default_input(prompt: str) -> str:
    return input(prompt)


def _enable_line_editing() -> None:
    """Arrow keys and history at the prompts, on a real terminal that takes escape codes."""
    import sys

    if not sys.stdin.isatty() or os.environ.get("NO_COLOR") or os.environ.get("TERM", "dumb") == "dumb":
        return
    try:
        import readline  # noqa: F401  (importing it is what turns line editing on)
    except ImportError:
        pass


# -- the game ------------------------------------------------------------------


class TerminalGame:
    """A match (or money session) played at the terminal; :meth:`run` plays it to the end.

    Player 0 is the person (bottom of the board, left column of a saved
    ``.mat``); player 1 is the computer, or the second person.  ``dice`` and
    ``computer`` replace the dice and bot the settings would make (tests).
    """

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
        self.console = console or Console(highlight=False)
        self.input_fn = input_fn or _default_input
        self.dice: DiceSource = dice or make_dice(
            self.settings.dice, None if self.settings.dice == "manual" else self.seed
        )
        if match is not None:  # a saved match, continued: its rules, score and games so far
            self.rules = match.rules
            self.match = match
            match.dice = self.dice
            match.game.dice = self.dice
            if match.game.is_over and not match.is_over:
                match.next_game()
        else:
            self.rules = self.settings.rules()
            self.match = Match(self.rules, self.dice)
        self.resumed_from = resumed_from
        #: Seconds to pause after each computer turn the person could not answer (closed out).
        self.pace = pace if pace is not None else (0.8 if self.console.is_terminal else 0.0)
        self._warmup: BackgroundWarmup | None = None
        self._computer_streak = 0
        self.humans = (True, self.settings.opponent == "human")
        bot = computer or make_computer_player(self.settings.level, self.seed + 1)
        self.players: list[Player] = [_HumanSeat(), _HumanSeat() if self.humans[1] else bot]  # type: ignore[list-item]
        self._engine: Engine | None = None
        self.parts: list[str] = []
        self.saved_actions = self._actions() if match is not None else 0

    # -- state --------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def manual(self) -> bool:
        return isinstance(self.dice, ManualDice)

    def _actions(self) -> int:
        return sum(len(g.record) for g in self.match.games)

    def _viewer(self, actor: int | None = None) -> int:
        """The seat whose side is drawn at the bottom: the person, or the person to act."""
        if all(self.humans) and actor is not None:
            return actor
        return 0

    # -- output ---------------------------------------------------------------

    def say(self, message: str, style: str = "") -> None:
        self.console.print(Text(message, style=style))

    def error(self, message: str) -> None:
        self.say(f"! {message}", "bold red")

    def ask(self, prompt: str) -> str:
        """One line from the person (EOFError and KeyboardInterrupt pass through)."""
        self.console.file.flush()
        return self.input_fn(prompt).strip()

    def yes_no(self, question: str, default: bool = False) -> bool:
        choices = "[Y/n]" if default else "[y/N]"
        while True:
            answer = self.ask(f"{question} {choices} > ").lower()
            if not answer:
                return default
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no"):
                return False
            self.error("answer y or n")

    def _cards(self) -> tuple[str, str] | None:
        if not isinstance(self.dice, CardDice) or self.dice.last_cards is None:
            return None
        a, b = self.dice.last_cards
        encoding = (getattr(self.console.file, "encoding", None) or "").lower()
        if "utf" in encoding:
            return f"{a}\u2660", f"{b}\u2665"
        return a, b

    def draw(
        self, actor: int | None = None, position: Position | None = None,
        dice: Sequence[int] | None = None,
    ) -> None:
        """The board, from the viewer's side, with the cube, score and (after a roll) the dice."""
        g = self.game
        turn = g.turn
        viewer: Side = "me" if self._viewer(actor) == turn else "opp"
        owner: Side | None = _SIDES.get(g.cube_owner.relative(turn))
        shown = dice if dice is not None else g.rolled
        cards = self._cards() if g.rolled is not None and dice is None else None
        board = render_board(
            position or g.position,
            cube=g.cube_value if self.rules.uses_cube else None,
            cube_owner=owner,
            score=(self.match.score[turn], self.match.score[1 - turn]),
            match_length=self.rules.match_length or None,
            crawford=g.crawford_game,
            dice=shown,
            cards=cards,
            names=(self.names[turn], self.names[1 - turn]),
            viewer=viewer,
        )
        self.console.print()
        self.console.print(board, soft_wrap=True)

    # -- announcing events --------------------------------------------------------

    def announce(self, events: list[Event]) -> None:
        after_opening = False
        for e in events:
            text = self._describe(e, after_opening)
            after_opening = e.kind is EventKind.OPENING
            if text:
                self.say(text, "bold" if e.player is not None and not self.humans[e.player] else "")

    def _describe(self, e: Event, after_opening: bool) -> str | None:
        name = self.names[e.player] if e.player is not None else ""
        owner = "you" if _you(name) else name
        match e.payload:
            case ev.OpeningTie(dice=(d0, _)):
                return f"Opening roll: both threw {d0}, so both throw again."
            case ev.AutoDouble(cube=cube):
                return f"Automatic double: the cube is now {cube}."
            case ev.Opening(dice=(d0, d1)):
                hi, lo = max(d0, d1), min(d0, d1)
                return (f"Opening roll: {self.names[0]} {d0}, {self.names[1]} {d1}{self._cards_shown()}. "
                        f"{_verb(name, 'start')} with {hi}-{lo}.")
            case ev.Rolled(dice=(d0, d1)):
                return None if after_opening else f"{_verb(name, 'roll')} {d0}-{d1}{self._cards_shown()}."
            case ev.NoMove():
                return f"{name} cannot move."
            case ev.Played(play=play):
                if not play:
                    return None
                if e.player is not None and not self.humans[e.player]:
                    play = renumber_play(play)  # in the person's numbering, as on the board
                return f"{_verb(name, 'play')} {play}."
            case ev.Doubled(cube=cube):
                return f"{_verb(name, 'double')} to {cube}."
            case ev.Took(cube=cube):
                return f"{_verb(name, 'take')}: the cube is {cube}, owned by {owner}."
            case ev.Beavered(cube=cube):
                return f"{_verb(name, 'beaver')}: the cube is {cube}, owned by {owner}."
            case ev.Dropped():
                return f"{_verb(name, 'drop')}."
            case ev.Resigned(resign=word):
                kind = ResultKind[word.upper()]
                return f"{_verb(name, 'offer')} to resign {_kind_name(kind)} ({self._resign_points(kind)})."
            case ev.ResignationAccepted():
                return f"{_verb(name, 'accept')} the resignation."
            case ev.ResignationRejected():
                return f"{_verb(name, 'refuse')} the resignation: play on."
            case ev.ChooseDoubleNow():
                return f"Acey-deucey! {_verb(name, 'name')} a double to play."
            case ev.ChoseDouble(number=number):
                return f"{_verb(name, 'play')} double {number}s."
            case ev.RollAgain():
                return f"{_verb(name, 'roll')} again."
        return None  # turn, game-over, score, match-over: shown by the game's end

    def _cards_shown(self) -> str:
        """`` (cards X Y)`` when the dice are cards, else nothing."""
        cards = self._cards()
        return f" (cards {cards[0]} {cards[1]})" if cards else ""

    def _resign_points(self, kind: ResultKind) -> str:
        g = self.game
        who = g.resignation[0] if g.resignation is not None else g.player_to_act
        row = g.position.me if who == g.turn else g.position.opp
        return _plural(g.points_for(kind, sum(row)), "point")

    # -- running ------------------------------------------------------------------

    def run(self) -> int:
        """Play until the match ends or the person leaves; the exit status (0, or 130 after Ctrl-C)."""
        try:
            self.intro()
            self.start_warmup()
            if self._warmup is not None and not self._warmup.ready(1):
                self.draw()  # the board at once; the move generator compiles meanwhile
                self._warmup.wait(self.say, "The game", needed=1)
            while True:
                self.play_game()
                if not self.after_game():
                    return 0
                self.match.next_game()
        except _Quit:
            self.say("Bye.")
            return 0
        except EOFError:
            self.say("\nEnd of input: leaving the game. Bye.")
            return 0
        except KeyboardInterrupt:
            self.say("\nInterrupted: leaving the game. Bye.")
            return EXIT_INTERRUPTED
        except GammonError as exc:  # a dice source or bot gave up: say so, never a traceback
            self.error(f"the game cannot go on: {exc}")
            return 1

    def start_warmup(self) -> None:
        """Compile the engine in the background when this is its first run (said at once)."""
        if is_warm():
            return
        if self.humans[1] or self.settings.level == "heuristic":
            self.say("(First run: the engine behind 'hint' is being prepared in the background.)")
        else:
            self.say("(First run: the computer's engine is being prepared in the background; "
                     "its first move may take a minute.)")
        self._warmup = BackgroundWarmup()

    def wait_for_engine(self, who: str, *, search: bool = False) -> None:
        """Before the engine's first use: wait for the stages of the background preparation
        it needs (``search``: 1-ply and deeper), saying so."""
        if self._warmup is None:
            return
        needed = None if search or self.settings.level in ("world-class", "strongest") else STAGES_FOR_0PLY
        self._warmup.wait(self.say, who, needed)
        if self._warmup.finished:
            self._warmup = None

    def intro(self) -> None:
        r = self.rules
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
                    customs.append(f"up to {_plural(r.automatic_doubles, 'automatic double')}")
            what = f"a money session of {v.title}" + (f" ({', '.join(customs)})" if customs else "")
        self.say(f"gammon: {what}; {self.dice.describe()}.", "bold")
        if r.match_length and (self.settings.beavers or self.settings.auto_doubles):
            self.say("(Beavers and automatic doubles are for money play: not used in this match.)")
        a, b = self.names
        if self.resumed_from:
            m = self.match
            self.say(f"Resuming {self.resumed_from}: game {len(m.games)}, {a} {m.score[0]}, "
                     f"{b} {m.score[1]}.")
        if self.humans[1]:
            self.say(f"{a} and {b} take turns at this keyboard; the board turns to face "
                     "whoever is to play (O, at the bottom).")
        else:
            level = self.settings.level
            self.say(f"{a} play O, at the bottom; {b} plays X ({level} level).")
        self.say("Type 'help' for the commands.")

    def play_game(self) -> None:
        g = self.game
        self._banner()
        while not g.is_over:
            if len(g.record) >= MAX_ACTIONS_PER_GAME:
                raise GammonError(f"the game did not end within {MAX_ACTIONS_PER_GAME} actions")
            self.step()
        self._game_over()

    def _banner(self) -> None:
        m = self.match
        a, b = self.names
        text = f"Game {len(m.games)}"
        if len(m.games) > 1 or m.length:
            text += f": {a} {m.score[0]}, {b} {m.score[1]}"
            if m.length:
                text += f" in a {m.length}-point match"
        if self.game.crawford_game:
            text += " (Crawford game: no doubling)"
        self.say("")
        self.say(text, "bold underline")

    def apply(self, action: Action) -> list[Event]:
        events = self.match.apply(action)
        if isinstance(action, Roll):
            self.parts = []
        self.announce(events)
        return events

    def step(self) -> None:
        """One decision: the computer's, or a person's read from the prompt."""
        g = self.game
        actor = g.player_to_act
        if g.phase is Phase.OPENING:
            self.roll(actor, opening=True)
        elif not self.humans[actor]:
            self.wait_for_engine(self.names[actor])
            action = next_action(g, self.players)
            if isinstance(action, Roll):
                self.roll(actor)
            else:
                self.apply(action)
                if isinstance(action, Move):
                    self.after_computer_move(actor)
        elif g.phase is Phase.ROLL:
            self.human_roll(actor)
        elif g.phase is Phase.MOVE:
            self.human_move(actor)
        elif g.phase in (Phase.DOUBLED, Phase.BEAVERED):
            self.human_answer_double(actor)
        elif g.phase is Phase.RESIGNED:
            self.human_answer_resignation(actor)
        elif g.phase is Phase.CHOOSE_DOUBLE:
            self.human_choose_double(actor)

    def after_computer_move(self, actor: int) -> None:
        """Keep a run of computer turns followable: when the person could not answer the
        previous one (closed out, no legal play), show the board after each, paced."""
        self._computer_streak += 1
        if self._computer_streak < 2 or self.game.is_over:
            return
        self.say(f"({self.names[actor]}'s turn {self._computer_streak} in a row: "
                 f"{self.names[1 - actor]} could not move.)")
        self.draw(actor)
        if self.pace > 0:
            import time

            self.console.file.flush()
            time.sleep(self.pace)

    def roll(self, actor: int, *, opening: bool = False) -> None:
        """Roll for ``actor`` (manual dice: ask for the numbers thrown at the table)."""
        if self.manual:
            assert isinstance(self.dice, ManualDice)
            if opening:
                prompt = (f"[dice] opening roll: {_possessive(self.names[0])} die, then "
                          f"{_possessive(self.names[1])} (like 41) > ")
            else:
                prompt = f"[dice] {_possessive(self.names[actor])} roll (like 31) > "
            while True:
                line = self.ask(prompt)
                try:
                    self.dice.push_text(line)
                    break
                except GammonError as exc:
                    if not self.common_command(line, actor):
                        self.error(str(exc))
        self.apply(Roll(actor))

    # -- a person's decisions ---------------------------------------------------------

    def common_command(self, line: str, actor: int) -> bool:
        """Handle help, board, save and quit; True when ``line`` was one of them."""
        try:
            cmd = parse_command(line)
        except CommandError:
            return False
        if cmd is None or cmd.name not in ("help", "board", "save", "quit"):
            return False
        self.run_common(cmd, actor)
        return True

    def run_common(self, cmd: Command, actor: int) -> bool:
        """Commands that work at every prompt; True when ``cmd`` was one of them."""
        if cmd.name == "help":
            self.say(HELP)
        elif cmd.name == "board":
            self._redraw(actor)
        elif cmd.name == "save":
            self.save(cmd.arg)
        elif cmd.name == "quit":
            self.confirm_quit()
        else:
            return False
        return True

    def _redraw(self, actor: int) -> None:
        partial = self._partial()
        if partial is not None:
            self.draw(actor, partial.position, partial.dice_left)
        else:
            self.draw(actor)

    def read(self, prompt: str, actor: int) -> Command | str:
        """A line: a command other than help/board/save/quit (those are done here), or play text."""
        while True:
            line = self.ask(prompt)
            try:
                cmd = parse_command(line)
            except CommandError as exc:
                self.error(str(exc))
                continue
            if cmd is None:
                return line
            if not self.run_common(cmd, actor):
                return cmd

    def _not_now(self, cmd: Command | str, what: str) -> None:
        if isinstance(cmd, str):
            self.error(f"{what}; type 'help' for the commands")
        elif cmd.name == "pick":
            self.error(f"not now: {what} (a number picks a play listed by 'moves')")
        elif cmd.name == "enter":
            self.say(f"({what}; type 'help' for the commands)")
        else:
            self.error(f"'{cmd.name}' is not possible now: {what}")

    def _try(self, action: Action) -> bool:
        try:
            self.apply(action)
        except GammonError as exc:
            self.error(str(exc))
            return False
        return True

    def _resign(self, cmd: Command, actor: int) -> bool:
        return self._try(Resign(actor, resign_kind(cmd)))

    def cube_is_useful(self, actor: int) -> bool:
        """Whether ``actor`` may double now and it could matter.

        In match play a player who wins the match by winning this game at the
        present cube gains nothing by doubling (a dead cube, core's
        :func:`~gammon.core.cube.cube_is_dead`), so the terminal rolls for
        them without asking, as for a cube they may not turn.
        """
        g = self.game
        return g.can_double(actor) and not cube_is_dead(self.rules.match_length, g.score[actor], g.cube_value)

    def human_roll(self, actor: int) -> None:
        if not self.cube_is_useful(actor):
            self.roll(actor)
            return
        self.draw(actor)
        name = self.names[actor]
        while True:
            cmd = self.read(f"[{name}] roll or double > ", actor)
            if isinstance(cmd, str):
                self._not_now(cmd, "roll first (press Enter), or double")
            elif cmd.name in ("enter", "roll"):
                self.roll(actor)
                return
            elif cmd.name == "double":
                if self._try(Double(actor)):
                    return
            elif cmd.name == "resign":
                if self._resign(cmd, actor):
                    return
            elif cmd.name == "hint":
                self.cube_hint(actor)
            else:
                self._not_now(cmd, "roll (Enter) or double")

    @property
    def engine(self) -> Engine:
        """The engine behind ``hint``: 1-ply (strong and still instant), or the computer's
        own depth when it looks deeper (strongest: 2-ply)."""
        self.wait_for_engine("The hint engine", search=True)
        if self._engine is None:
            from gammon.play.levels import make_engine

            level = "strongest" if self.settings.level == "strongest" else "world-class"
            self._engine = make_engine(level)
        return self._engine

    def _cube_decision(self) -> CubeDecision:
        """The hint engine's cube decision for the player on roll, at its level's cube depth."""
        g = self.game
        return self.engine.cube_action(g.position, g)

    def _hint_label(self) -> str:
        return f"Engine ({self.engine.level.name}, {self.engine.plies}-ply)"

    def cube_hint(self, actor: int) -> None:
        d = self._cube_decision()
        g = self.game
        win = self.engine.evaluate(g.position, cube=False).win  # the cube is decided above
        self.say(f"{self._hint_label()}: {self.names[actor]} {'win' if _you(self.names[actor]) else 'wins'} "
                 f"{win:.1%} of games from here. Cube: {d.action} (no double {d.no_double:+.3f}, "
                 f"double/take {d.double_take:+.3f}, double/pass {d.double_pass:+.3f}).")

    def _partial(self) -> PartialPlay | None:
        g = self.game
        if not self.parts or g.phase is not Phase.MOVE or g.rolled is None:
            return None
        try:
            result = follow_parts(g.position, g.rolled, self.parts)
        except GammonError:
            return None
        return result if isinstance(result, PartialPlay) else None

    def _partial_position(self) -> Position:
        partial = self._partial()
        return partial.position if partial is not None else self.game.position

    def candidates(self) -> list[Play]:
        """The plays the person may still make: all legal plays, or those the parts entered fit."""
        partial = self._partial()
        if partial is not None:
            return list(partial.plays)
        return self.game.legal_plays()

    def human_move(self, actor: int) -> None:
        g = self.game
        assert g.rolled is not None
        name = self.names[actor]
        self._computer_streak = 0
        plays = g.legal_plays()
        if len(plays) == 1:
            self.say(f"{name}: the only legal play is {plays[0]}.")
            self.apply(Move(actor, plays[0]))
            return
        self._redraw(actor)
        d1, d2 = g.rolled
        while True:
            partial = self._partial()
            state = ""
            if partial is not None:
                left = " ".join(str(d) for d in partial.dice_left)
                state = f" (moved {partial.moved}; to play: {left})"
            cmd = self.read(f"[{name}] play {d1}-{d2}{state} > ", actor)
            if isinstance(cmd, str):
                if self.enter_play(cmd, actor):
                    return
            elif cmd.name == "pick":
                assert cmd.number is not None
                options = self.candidates()
                if 1 <= cmd.number <= len(options):
                    self.apply(Move(actor, options[cmd.number - 1]))
                    return
                self.error(f"no play number {cmd.number}: type 'moves' for the "
                           f"{_plural(len(options), 'play')} to choose from")
            elif cmd.name == "moves":
                self.list_moves()
            elif cmd.name == "hint":
                self.play_hint()
            elif cmd.name == "undo":
                if not self.parts:
                    self.error("nothing to undo: no part of a play entered this turn")
                else:
                    undone = self.parts.pop()
                    self.say(f"Took back {undone}.")
                    self._redraw(actor)
            elif cmd.name == "resign":
                if self._resign(cmd, actor):
                    return
            elif cmd.name == "enter":
                self.say("Type your play (like 24/18 13/11), 'moves' to list them, or 'help'.")
            else:
                self._not_now(cmd, "play your roll first")

    def enter_play(self, text: str, actor: int) -> bool:
        """Take a play or a part of one; True when the whole play was made."""
        g = self.game
        assert g.rolled is not None
        try:
            result = follow_parts(g.position, g.rolled, [*self.parts, text])
        except GammonError as exc:
            message = str(exc)
            reason = why_not(self._partial_position(), text) if "closest legal" in message else None
            if reason is not None and reason not in message:
                head, sep, tail = message.partition("; closest legal")
                message = f"{head}: {reason}{sep}{tail}"
            self.error(message)
            if not any(ch.isdigit() for ch in text):
                self.say("(type 'help' for the commands)")
            return False
        if isinstance(result, PartialPlay):
            self.parts.append(text)
            self.draw(actor, result.position, result.dice_left)
            return False
        self.apply(Move(actor, result))
        return True

    #: Lines of plays shown at once by ``moves`` (with the heading and prompt: within 24 rows).
    PAGE_LINES = 20

    def list_moves(self) -> None:
        """The plays in columns within 80 columns, a page of :attr:`PAGE_LINES` lines at a time."""
        options = self.candidates()
        texts = [f"{i:>3}. {p}" for i, p in enumerate(options, 1)]
        width = min(79, max(len(t) for t in texts) + 2)
        per_line = max(1, 79 // width)
        head = "Plays that still fit" if self.parts else "Legal plays"
        self.say(f"{head} ({len(options)}); type a number to make one:")
        page = self.PAGE_LINES * per_line
        for start in range(0, len(texts), page):
            chunk = texts[start : start + page]
            nrows = -(-len(chunk) // per_line)
            for r in range(nrows):  # numbered down the columns, as a reader scans them
                cells = chunk[r::nrows]
                self.say("".join(t[:width].ljust(width) for t in cells).rstrip())
            left = len(texts) - start - len(chunk)
            if left > 0:
                answer = self.ask(f"-- {left} more: Enter for the next page, or q > ").lower()
                if answer:
                    break

    def play_hint(self, top: int = 5) -> None:
        g = self.game
        assert g.rolled is not None
        allowed = {p.position for p in self.candidates()}
        ranked = [r for r in self.engine.rank_plays(g.position, g.rolled, g) if r.play.position in allowed]
        self.say(f"Engine's best plays ({self.engine.plies}-ply; equity for you at this score and cube, "
                 "then win and gammon chances):")
        for line in hint_lines(ranked[:top]):
            self.say(line)

    def human_answer_double(self, actor: int) -> None:
        g = self.game
        self.draw(actor)
        beaver = can_beaver(g)
        choices = "take, drop or beaver" if beaver else "take or drop"
        name = self.names[actor]
        while True:
            cmd = self.read(f"[{name}] {choices} > ", actor)
            if isinstance(cmd, str):
                self._not_now(cmd, f"answer the double: {choices}")
            elif cmd.name == "take":
                self.apply(Take(actor))
                return
            elif cmd.name == "drop":
                self.apply(Drop(actor))
                return
            elif cmd.name == "beaver":
                if self._try(Beaver(actor)):
                    return
            elif cmd.name == "hint":
                d = self._cube_decision()
                win = 1 - self.engine.evaluate(g.position, cube=False).win
                self.say(f"{self._hint_label()}: {name} {'win' if _you(name) else 'wins'} {win:.1%} of games "
                         f"from here; take point {d.take_point:.1%}. Advice: {d.taker_action}.")
            elif cmd.name == "resign":
                self._not_now(cmd, "answer the double first (a drop gives up the game)")
            else:
                self._not_now(cmd, f"answer the double: {choices}")

    def human_answer_resignation(self, actor: int) -> None:
        g = self.game
        assert g.resignation is not None
        who, kind = g.resignation
        self.draw(actor)
        prompt = (f"[{self.names[actor]}] accept {self.names[who]}'s resignation of "
                  f"{_kind_name(kind)} ({self._resign_points(kind)})? (y/n) > ")
        while True:
            cmd = self.read(prompt, actor)
            if isinstance(cmd, Command) and cmd.name == "accept":
                self.apply(AcceptResignation(actor))
                return
            if isinstance(cmd, Command) and cmd.name == "reject":
                self.apply(RejectResignation(actor))
                return
            self._not_now(cmd, "answer y (accept) or n (reject)")

    def human_choose_double(self, actor: int) -> None:
        self.draw(actor)
        while True:
            cmd = self.read(f"[{self.names[actor]}] name the double to play (1-6) > ", actor)
            if isinstance(cmd, Command) and cmd.name == "pick" and cmd.number is not None:
                if self._try(ChooseDouble(actor, cmd.number)):
                    return
            else:
                self._not_now(cmd, "name a double: a number from 1 to 6")

    # -- the end of a game --------------------------------------------------------------

    def _game_over(self) -> None:
        g = self.game
        res = g.result
        assert res is not None
        self.draw()
        winner = self.names[res.winner]
        loser = self.names[1 - res.winner]
        if res.dropped:
            how = f"{_verb(loser, 'drop')} the double"
        elif res.resigned:
            how = f"{_verb(loser, 'resign')} {_kind_name(res.kind)}"
        elif self.rules.variant.pays_per_checker:
            how = f"{loser} {'have' if _you(loser) else 'has'} {_plural(res.checkers_left, 'checker')} left"
        else:
            how = _kind_name(res.kind)
        self.say(f"{_verb(winner, 'win')} game {len(self.match.games)} ({how}): "
                 f"{_plural(res.points, 'point')}.", "bold")
        m = self.match
        a, b = self.names
        if m.length:
            self.say(f"Score: {a} {m.score[0]}, {b} {m.score[1]} in a {m.length}-point match.")
        else:
            self.say(f"Total after {_plural(len(m.games), 'game')}: {a} {m.score[0]}, {b} {m.score[1]}.")
        if m.is_over and m.winner is not None:
            w = self.names[m.winner]
            self.say(f"{_verb(w, 'win')} the match {max(m.score)}-{min(m.score)}!", "bold")
        if self.console.is_terminal:  # the analysis of the game (gammon.analysis), for people only
            from gammon.analysis.text import game_report_lines
            for line in game_report_lines(self.match, self.names):
                self.say(line)

    def after_game(self) -> bool:
        """Offer to save; True when another game follows."""
        self.offer_save()
        if self.match.is_over:
            return False
        if not self.match.length:
            return self.yes_no("Play another game?", default=True)
        return True

    # -- saving and quitting ---------------------------------------------------------------

    def default_file(self) -> str:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        mat = self.rules.variant.name in _MAT_VARIANTS and not self.rules.automatic_doubles
        ext = ".mat" if mat else ".json"
        return f"gammon-{stamp}{ext}"

    def offer_save(self) -> None:
        while self.yes_no("Save the match?"):
            target = self.ask_file_name()
            if target is None or self.save(target):
                return

    def ask_file_name(self) -> str | None:
        """The file to save to, asked at a prompt that says so; None when the person cancels
        or answers with a command (``roll``, ``quit``, a number), which is never taken as a name."""
        default = self.default_file()
        answer = self.ask(f"Save the match to which file? (Enter: {default}; 'cancel': do not save) > ")
        if not answer:
            return default
        if answer.lower() == "cancel":
            self.say("Not saved.")
            return None
        try:
            command = parse_command(answer)
        except CommandError:
            command = Command("resign")  # a command written wrongly is still a command
        if command is not None:
            self.error(f"not saved: {answer!r} is a command, not a file name (type 'save FILE' to save)")
            return None
        return answer

    def save(self, target: str | None) -> bool:
        """Write the match so far to ``target`` in the format its ending names.

        ``.mat``, ``.sgf`` or ``.json`` (no ending: the default format is added);
        other endings and folders are refused, a format that cannot hold this
        match is refused with the reason, and an existing file is replaced only
        when the person says so.  No ``target`` (a bare ``save``): the name is
        asked for (:meth:`ask_file_name`).
        """
        from gammon.formats.record_files import check_can_hold, format_of, render_record, write_text

        if not target:
            target = self.ask_file_name()
            if target is None:
                return False
        path = Path(os.path.expanduser(target))
        if path.is_dir():  # before an ending is added: 'save DIR' must not write DIR.mat beside it
            example = path / self.default_file()
            self.error(f"could not save to {path}: it is a folder; give a file name, like {example}")
            return False
        if not path.suffix:
            path = path.with_suffix(Path(self.default_file()).suffix)
        try:
            fmt = format_of(path).suffix
            check_can_hold(fmt, self.rules)
            if path.is_dir():
                raise GammonError(f"{path} is a folder: give a file name")
            if not path.parent.is_dir():
                raise GammonError(f"the folder {path.parent} does not exist")
            text = render_record(self.match, fmt, self.names, self.dice)
        except (GammonError, ImportError) as exc:
            self.error(f"could not save to {path}: {exc}")
            return False
        if path.exists() and not self.yes_no(f"{path} exists. Replace it?"):
            self.say("Not saved.")
            return False
        try:
            write_text(path, text)
        except GammonError as exc:
            self.error(f"could not save to {path}: {exc}")
            return False
        self.saved_actions = self._actions()
        self.say(f"Saved the match to {path}.")
        return True

    def confirm_quit(self) -> None:
        if self._actions() in (0, self.saved_actions) or self.match.is_over:
            raise _Quit
        if self.yes_no("Quit and throw away the match played so far?"):
            raise _Quit
        self.say("Carry on.")


def why_not(position: Position, text: str) -> str | None:
    """The plain reason a typed play breaks a rule of entering or bearing off, if it does.

    The play parser names the closest legal plays; this adds the rule a newcomer
    missed: a checker on the bar enters before any other moves, and bearing off
    waits until every checker is home.  The parts are applied in the order
    written by core's single-step rule (:meth:`Position.step_fault`); only
    those two of its reasons are told here.
    """
    try:
        segments = parse_segments(text)
    except PlaySyntaxError:
        return None
    here = position
    for seg in segments:
        fault = here.step_fault(seg.start, seg.end)
        problem = None if fault is None else fault.reason
        if problem is StepReason.BAR_FIRST:
            n = here.bar[0] - here.pool[0]  # hit checkers only: pool checkers may wait
            return (f"{_plural(n, 'checker')} on the bar must enter (bar/..) before any other "
                    f"checker moves")
        if problem in (StepReason.BEAR_OFF_NOT_HOME, StepReason.POOL_NOT_ENTERED):
            outside = sum(here.me[6:25])
            return (f"bearing off starts once all checkers are in your home board (points 1-6); "
                    f"{_plural(outside, 'checker')} still outside")
        if problem is not None:
            return None
        here = here.apply_step(seg.start, seg.end)
    return None


def hint_lines(ranked: Sequence[object], width: int = 79) -> list[str]:
    """One line per ranked play, each at most ``width`` columns (long plays are cut with ...)."""
    lines = []
    for rank, r in enumerate(ranked, 1):
        gap = "" if rank == 1 else f"({r.difference:+.3f})"  # type: ignore[attr-defined]
        tail = (f" {r.equity:+.3f} {gap:<9} win {r.probabilities[0]:.1%}"  # type: ignore[attr-defined]
                f" gammon {r.probabilities[1]:.1%}")  # type: ignore[attr-defined]
        room = width - 5 - len(tail)
        play = str(r.play)  # type: ignore[attr-defined]
        if len(play) > room:
            play = play[: room - 3] + "..."
        lines.append(f"{rank:>3}. {play:<{min(22, room)}}{tail}".rstrip())
    return lines


def run_terminal_game(settings: PlaySettings, **options: object) -> int:
    """Play ``settings`` at this terminal; the exit status (0, or 130 after Ctrl-C)."""
    if "input_fn" not in options:
        _enable_line_editing()
    game = TerminalGame(settings, **options)  # type: ignore[arg-type]
    return game.run()


__all__ = [
    "COMMANDS",
    "EXIT_INTERRUPTED",
    "HELP",
    "PLAY_DICE",
    "Command",
    "CommandError",
    "PlaySettings",
    "TerminalGame",
    "parse_command",
    "resign_kind",
    "run_terminal_game",
]
