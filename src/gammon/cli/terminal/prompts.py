"""A person's decisions at the terminal: one prompt per kind of pending decision.

:class:`Prompts` answers the session's pending :class:`~gammon.play.session.Decision`
for a person's seat: it draws the board, reads lines (plays in the notation
players write, whole or in parts, and the commands of
:data:`~gammon.cli.terminal.commands.HELP`) and hands each action to the
loop's ``submit`` (the session's ``submit``: core checks it; a refused action
is said and the prompt asks again).  ``help``, ``board``, ``save`` and
``quit`` work at every prompt, the manual dice's included.
"""

from __future__ import annotations

from collections.abc import Callable

from gammon.cli.terminal.commands import (
    HELP,
    Command,
    CommandError,
    parse_command,
    resign_kind,
    why_not,
)
from gammon.cli.terminal.hints import Hints
from gammon.cli.terminal.narration import Narrator, kind_name
from gammon.cli.terminal.refusals import dice_refusal, play_refusal
from gammon.cli.terminal.saving import Saver
from gammon.cli.terminal.screen import Screen
from gammon.cli.terminal.words import plays as count_plays
from gammon.cli.terminal.words import whose
from gammon.core.cube import cube_is_dead
from gammon.core.dice import ManualDice
from gammon.core.errors import GammonError, IllegalActionError
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
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from gammon.core.match import Match
from gammon.core.plays import Play
from gammon.core.position import Position
from gammon.i18n import _
from gammon.i18n.errors import error_text
from gammon.play.partial import PartialPlay, follow_parts
from gammon.play.session import Decision, DecisionKind

#: The loop's submit: the action goes to the session, its events are shown.
Submit = Callable[[Action], object]


def cube_is_useful(game: Game, actor: int) -> bool:
    """Whether ``actor`` may double now and it could matter.

    In match play a player who wins the match by winning this game at the
    present cube gains nothing by doubling (a dead cube, core's
    :func:`~gammon.core.cube.cube_is_dead`), so the terminal rolls for
    them without asking, as for a cube they may not turn.
    """
    dead = cube_is_dead(game.rules.match_length, game.score[actor], game.cube_value)
    return game.can_double(actor) and not dead


class Prompts:
    """The prompts of a person's seat; actions go to ``submit``, ``page_lines()`` lines of plays a page."""

    def __init__(self, screen: Screen, narrator: Narrator, match: Match, hints: Hints, saver: Saver,
                 submit: Submit, page_lines: Callable[[], int]) -> None:
        self.screen = screen
        self.narrator = narrator
        self.match = match
        self.hints = hints
        self.saver = saver
        self.submit = submit
        self.page_lines = page_lines
        self.names = narrator.names
        #: The parts of the play entered so far this turn.
        self.parts: list[str] = []

    def decide(self, decision: Decision) -> None:
        """Read the person's answer to ``decision`` and submit it."""
        assert decision.player is not None
        {
            DecisionKind.ROLL: self.roll_or_double,
            DecisionKind.MOVE: self.move,
            DecisionKind.ANSWER_DOUBLE: self.answer_double,
            DecisionKind.ANSWER_BEAVER: self.answer_double,
            DecisionKind.ANSWER_RESIGNATION: self.answer_resignation,
            DecisionKind.CHOOSE_DOUBLE: self.choose_double,
        }[decision.kind](decision.player)

    # -- lines and the commands of every prompt ----------------------------------------------

    def throw(self, actor: int, dice: ManualDice, *, opening: bool = False) -> None:
        """Manual dice: ask for the numbers thrown at the table for ``actor``'s roll."""
        if opening:
            prompt = _("[dice] opening roll: {first} die, then {second} (like 41) > ").format(
                first=whose(self.names[0]), second=whose(self.names[1]))
        else:
            prompt = _("[dice] {whose} roll (like 31) > ").format(whose=whose(self.names[actor]))
        while True:
            line = self.screen.ask(prompt)
            try:
                dice.push_text(line)
                return
            except GammonError as exc:
                if not self.common_command(line, actor):
                    self.screen.error(dice_refusal(exc, line))

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
            self.screen.say(_(HELP))
        elif cmd.name == "board":
            self.redraw(actor)
        elif cmd.name == "save":
            self.saver.save(cmd.arg)
        elif cmd.name == "quit":
            self.saver.confirm_quit()
        else:
            return False
        return True

    def redraw(self, actor: int) -> None:
        partial = self._partial()
        if partial is not None:
            self.narrator.draw(actor, partial.position, partial.dice_left)
        else:
            self.narrator.draw(actor)

    def read(self, prompt: str, actor: int) -> Command | str:
        """A line: a command other than help/board/save/quit (those are done here), or play text."""
        while True:
            line = self.screen.ask(prompt)
            try:
                cmd = parse_command(line)
            except CommandError as exc:
                self.screen.error(str(exc))
                continue
            if cmd is None:
                return line
            if not self.run_common(cmd, actor):
                return cmd

    def not_now(self, cmd: Command | str, what: str) -> None:
        if isinstance(cmd, str):
            self.screen.error(_("{what}; type 'help' for the commands").format(what=what))
        elif cmd.name == "pick":
            self.screen.error(_("not now: {what} (a number picks a play listed by 'moves')").format(what=what))
        elif cmd.name == "enter":
            self.screen.say(_("({what}; type 'help' for the commands)").format(what=what))
        else:
            self.screen.error(_("'{command}' is not possible now: {what}").format(command=cmd.name, what=what))

    def offer(self, action: Action) -> bool:
        """Submit ``action``; when core refuses it, say why and return False."""
        try:
            self.submit(action)
        except IllegalActionError as exc:
            self.screen.error(error_text(exc))
            return False
        return True

    # -- before a roll, and the answers ----------------------------------------------------

    def roll_or_double(self, actor: int) -> None:
        if not cube_is_useful(self.match.game, actor):
            self.submit(Roll(actor))
            return
        self.narrator.draw(actor)
        name = self.names[actor]
        while True:
            cmd = self.read(_("[{name}] roll or double > ").format(name=name), actor)
            if isinstance(cmd, str):
                self.not_now(cmd, _("roll first (press Enter), or double"))
            elif cmd.name in ("enter", "roll"):
                self.submit(Roll(actor))
                return
            elif cmd.name in ("double", "resign"):
                if self.offer(Double(actor) if cmd.name == "double" else Resign(actor, resign_kind(cmd))):
                    return
            elif cmd.name == "hint":
                self.hints.cube(actor)
            else:
                self.not_now(cmd, _("roll (Enter) or double"))

    def answer_double(self, actor: int) -> None:
        self.narrator.draw(actor)
        beaver = self.match.game.can_beaver(actor)
        choices = _("take, drop or beaver") if beaver else _("take or drop")
        answers: dict[str, type[Take | Drop]] = {"take": Take, "drop": Drop}
        while True:
            cmd = self.read(f"[{self.names[actor]}] {choices} > ", actor)
            if isinstance(cmd, str):
                self.not_now(cmd, _("answer the double: {choices}").format(choices=choices))
            elif cmd.name in answers:
                self.submit(answers[cmd.name](actor))
                return
            elif cmd.name == "beaver":
                if self.offer(Beaver(actor)):
                    return
            elif cmd.name == "hint":
                self.hints.take(actor)
            elif cmd.name == "resign":
                self.not_now(cmd, _("answer the double first (a drop gives up the game)"))
            else:
                self.not_now(cmd, _("answer the double: {choices}").format(choices=choices))

    def answer_resignation(self, actor: int) -> None:
        g = self.match.game
        assert g.resignation is not None
        who, kind = g.resignation
        self.narrator.draw(actor)
        prompt = _("[{name}] accept {who}'s resignation of {kind} ({points})? (y/n) > ").format(
            name=self.names[actor], who=self.names[who], kind=kind_name(kind),
            points=self.narrator.resign_points(kind))
        while True:
            cmd = self.read(prompt, actor)
            if isinstance(cmd, Command) and cmd.name == "accept":
                self.submit(AcceptResignation(actor))
                return
            if isinstance(cmd, Command) and cmd.name == "reject":
                self.submit(RejectResignation(actor))
                return
            self.not_now(cmd, _("answer y (accept) or n (reject)"))

    def choose_double(self, actor: int) -> None:
        self.narrator.draw(actor)
        while True:
            prompt = _("[{name}] name the double to play (1-6) > ").format(name=self.names[actor])
            cmd = self.read(prompt, actor)
            if isinstance(cmd, Command) and cmd.name == "pick" and cmd.number is not None:
                try:
                    action = ChooseDouble(actor, cmd.number)
                except IllegalActionError as exc:  # a number outside 1-6: said, and asked again
                    self.screen.error(error_text(exc))
                    continue
                if self.offer(action):
                    return
            else:
                self.not_now(cmd, _("name a double: a number from 1 to 6"))

    # -- the move ----------------------------------------------------------------------------

    def _partial(self) -> PartialPlay | None:
        g = self.match.game
        if not self.parts or g.phase is not Phase.MOVE or g.rolled is None:
            return None
        try:
            result = follow_parts(g.position, g.rolled, self.parts)
        except GammonError:
            return None
        return result if isinstance(result, PartialPlay) else None

    def _partial_position(self) -> Position:
        partial = self._partial()
        return partial.position if partial is not None else self.match.game.position

    def candidates(self) -> list[Play]:
        """The plays the person may still make: all legal plays, or those the parts entered fit."""
        partial = self._partial()
        if partial is not None:
            return list(partial.plays)
        return self.match.game.legal_plays()

    def move(self, actor: int) -> None:
        g = self.match.game
        assert g.rolled is not None
        name = self.names[actor]
        plays = g.legal_plays()
        if len(plays) == 1:
            self.screen.say(_("{name}: the only legal play is {play}.").format(name=name, play=plays[0]))
            self.submit(Move(actor, plays[0]))
            return
        self.redraw(actor)
        d1, d2 = g.rolled
        while True:
            partial = self._partial()
            state = ""
            if partial is not None:
                left = " ".join(str(d) for d in partial.dice_left)
                state = _(" (moved {moved}; to play: {left})").format(moved=partial.moved, left=left)
            prompt = _("[{name}] play {first}-{second}{state} > ").format(name=name, first=d1, second=d2,
                                                                            state=state)
            cmd = self.read(prompt, actor)
            done = self.enter_play(cmd, actor) if isinstance(cmd, str) else self._move_command(cmd, actor)
            if done:
                return

    def _move_command(self, cmd: Command, actor: int) -> bool:
        """A command at the play prompt; True when it made the play (or a resignation)."""
        if cmd.name == "pick":
            assert cmd.number is not None
            options = self.candidates()
            if 1 <= cmd.number <= len(options):
                self.submit(Move(actor, options[cmd.number - 1]))
                return True
            self.screen.error(_("no play number {number}: type 'moves' for the {plays} to choose from").format(
                number=cmd.number, plays=count_plays(len(options))))
        elif cmd.name == "moves":
            self.list_moves()
        elif cmd.name == "hint":
            self.hints.plays(self.candidates())
        elif cmd.name == "undo":
            if not self.parts:
                self.screen.error(_("nothing to undo: no part of a play entered this turn"))
            else:
                undone = self.parts.pop()
                self.screen.say(_("Took back {play}.").format(play=undone))
                self.redraw(actor)
        elif cmd.name == "resign":
            return self.offer(Resign(actor, resign_kind(cmd)))
        elif cmd.name == "enter":
            self.screen.say(_("Type your play (like 24/18 13/11), 'moves' to list them, or 'help'."))
        else:
            self.not_now(cmd, _("play your roll first"))
        return False

    def enter_play(self, text: str, actor: int) -> bool:
        """Take a play or a part of one; True when the whole play was made."""
        g = self.match.game
        assert g.rolled is not None
        try:
            result = follow_parts(g.position, g.rolled, [*self.parts, text])
        except GammonError as exc:
            message = str(exc)
            reason = why_not(self._partial_position(), text) if "closest legal" in message else None
            if reason is not None and reason not in message:
                head, sep, tail = message.partition("; closest legal")
                message = f"{head}: {reason}{sep}{tail}"
            self.screen.error(play_refusal(exc, text, reason, message))
            if not any(ch.isdigit() for ch in text):
                self.screen.say(_("(type 'help' for the commands)"))
            return False
        if isinstance(result, PartialPlay):
            self.parts.append(text)
            self.narrator.draw(actor, result.position, result.dice_left)
            return False
        self.submit(Move(actor, result))
        return True

    def list_moves(self) -> None:
        """The plays in columns within 80 columns, a page of ``page_lines()`` lines at a time."""
        options = self.candidates()
        texts = [f"{i:>3}. {p}" for i, p in enumerate(options, 1)]
        width = min(79, max(len(t) for t in texts) + 2)
        per_line = max(1, 79 // width)
        head = _("Plays that still fit") if self.parts else _("Legal plays")
        self.screen.say(_("{heading} ({count}); type a number to make one:").format(heading=head,
                                                                                    count=len(options)))
        page = self.page_lines() * per_line
        for start in range(0, len(texts), page):
            chunk = texts[start : start + page]
            nrows = -(-len(chunk) // per_line)
            for r in range(nrows):  # numbered down the columns, as a reader scans them
                cells = chunk[r::nrows]
                self.screen.say("".join(t[:width].ljust(width) for t in cells).rstrip())
            left = len(texts) - start - len(chunk)
            if left > 0:
                more = _("-- {left} more: Enter for the next page, or q > ").format(left=left)
                answer = self.screen.ask(more).lower()
                if answer:
                    break


__all__ = ["Prompts", "Submit", "cube_is_useful"]
