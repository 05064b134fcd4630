"""What a person types at the terminal: commands, and the words around a play.

:func:`parse_command` reads a line as a :class:`Command` (or None: the line is
a play); :data:`HELP` lists them.  :func:`renumber_play` writes the computer's
plays in the person's numbering, :func:`why_not` names the entering or
bearing-off rule a typed play breaks, and :func:`hint_lines` lays out the
engine's ranked plays within 80 columns.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from gammon.cli.terminal.words import answer_word, checkers
from gammon.core.errors import GammonError, PlaySyntaxError
from gammon.core.notation import parse_segments
from gammon.core.position import Position, ResultKind, StepReason
from gammon.i18n import N_, _
from gammon.i18n.numbers import decimal, percent

#: The commands, in English (shown with ``_(HELP)`` in the language in use).
HELP = N_("""\
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
  quit             leave (asks first when the match is not saved)""")


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
    name = _ALIASES.get(head) or answer_word(head)  # yes and no also in the language in use
    if name is None:
        return None
    if name == "save":
        target = text.strip()[len(words[0]):].strip()
        return Command("save", arg=target or None)
    if name == "resign":
        if len(rest) > 1:
            raise CommandError(_("write 'resign', 'resign gammon' or 'resign backgammon'"))
        kind = rest[0].lower() if rest else "single"
        if kind not in _RESIGN_KINDS:
            raise CommandError(_("resign single, gammon or backgammon, not {word}").format(word=repr(rest[0])))
        return Command("resign", arg=_RESIGN_KINDS[kind].name.lower())
    if rest:
        raise CommandError(_("'{command}' takes nothing after it").format(command=head))
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


def plural(n: int, word: str) -> str:
    """``1 point``, ``2 points``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


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
            return _("{checkers} on the bar must enter (bar/..) before any other "
                     "checker moves").format(checkers=checkers(n))
        if problem in (StepReason.BEAR_OFF_NOT_HOME, StepReason.POOL_NOT_ENTERED):
            outside = sum(here.me[6:25])
            return _("bearing off starts once all checkers are in your home board (points 1-6); "
                     "{checkers} still outside").format(checkers=checkers(outside))
        if problem is not None:
            return None
        here = here.apply_step(seg.start, seg.end)
    return None


def hint_lines(ranked: Sequence[object], width: int = 79) -> list[str]:
    """One line per ranked play, each at most ``width`` columns (long plays are cut with ...)."""
    lines = []
    for rank, r in enumerate(ranked, 1):
        gap = "" if rank == 1 else f"({decimal(r.difference, sign=True)})"  # type: ignore[attr-defined]
        chances = _("win {win} gammon {gammon}").format(
            win=percent(r.probabilities[0]), gammon=percent(r.probabilities[1]))  # type: ignore[attr-defined]
        tail = f" {decimal(r.equity, sign=True)} {gap:<9} {chances}"  # type: ignore[attr-defined]
        room = width - 5 - len(tail)
        play = str(r.play)  # type: ignore[attr-defined]
        if len(play) > room:
            play = play[: room - 3] + "..."
        lines.append(f"{rank:>3}. {play:<{min(22, room)}}{tail}".rstrip())
    return lines

__all__ = [
    "COMMANDS", "HELP", "Command", "CommandError", "hint_lines", "parse_command", "plural", "renumber_play",
    "resign_kind", "why_not",
]
