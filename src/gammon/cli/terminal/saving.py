"""Saving the match at the terminal (``save``, the offer after each game) and leaving it (``quit``).

``save FILE`` writes ``.mat``, ``.sgf`` or ``.json`` by the file's ending (no
ending: the default format is added); a folder or another ending is refused,
a format that cannot hold the match is refused with the reason, and an
existing file is replaced only when the person says so.  ``quit`` asks first
when moves were played since the last save.
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

from gammon.cli.terminal.commands import Command, CommandError, parse_command
from gammon.cli.terminal.screen import Screen
from gammon.core.dice import DiceSource
from gammon.core.errors import GammonError
from gammon.core.match import Match
from gammon.i18n import _

#: Variants a ``.mat`` file can carry; the others are saved as gammon's JSON record.
_MAT_VARIANTS = frozenset({"standard", "nackgammon", "hypergammon"})


class Quit(Exception):
    """The person chose to leave."""


class Saver:
    """Writes ``match`` to files the person names; knows whether anything is unsaved."""

    def __init__(self, screen: Screen, match: Match, names: tuple[str, str], dice: DiceSource,
                 *, saved: bool = False) -> None:
        self.screen = screen
        self.match = match
        self.names = names
        self.dice = dice
        #: The actions played when the match was last saved (a resumed match: as read).
        self.saved_actions = self._actions() if saved else 0

    def _actions(self) -> int:
        return sum(len(g.record) for g in self.match.games)

    def default_file(self) -> str:
        rules = self.match.rules
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        mat = rules.variant.name in _MAT_VARIANTS and not rules.automatic_doubles
        ext = ".mat" if mat else ".json"
        return f"gammon-{stamp}{ext}"

    def offer_save(self) -> None:
        while self.screen.yes_no(_("Save the match?")):
            target = self.ask_file_name()
            if target is None or self.save(target):
                return

    def ask_file_name(self) -> str | None:
        """The file to save to, asked at a prompt that says so; None when the person cancels
        or answers with a command (``roll``, ``quit``, a number), which is never taken as a name."""
        default = self.default_file()
        answer = self.screen.ask(_("Save the match to which file? (Enter: {default}; 'cancel': do not save) > ")
                                 .format(default=default))
        if not answer:
            return default
        if answer.lower() in ("cancel", _("cancel")):
            self.screen.say(_("Not saved."))
            return None
        try:
            command = parse_command(answer)
        except CommandError:
            command = Command("resign")  # a command written wrongly is still a command
        if command is not None:
            self.screen.error(_("not saved: {answer} is a command, not a file name (type 'save FILE' to save)")
                              .format(answer=repr(answer)))
            return None
        return answer

    def _path(self, target: str) -> Path | None:
        """The file ``target`` names (the default ending added), or None after saying why not."""
        path = Path(os.path.expanduser(target))
        if path.is_dir():  # before an ending is added: 'save DIR' must not write DIR.mat beside it
            example = path / self.default_file()
            self.screen.error(_("could not save to {path}: it is a folder; give a file name, like {example}")
                              .format(path=path, example=example))
            return None
        if not path.suffix:
            path = path.with_suffix(Path(self.default_file()).suffix)
        return path

    def save(self, target: str | None) -> bool:
        """Write the match so far to ``target`` in the format its ending names; whether it was saved.

        No ``target`` (a bare ``save``): the name is asked for (:meth:`ask_file_name`).
        """
        from gammon.formats.record_files import check_can_hold, format_of, render_record, write_text

        if not target:
            target = self.ask_file_name()
            if target is None:
                return False
        path = self._path(target)
        if path is None:
            return False
        try:
            fmt = format_of(path).suffix
            check_can_hold(fmt, self.match.rules)
            if path.is_dir():
                raise GammonError(_("{path} is a folder: give a file name").format(path=path))
            if not path.parent.is_dir():
                raise GammonError(_("the folder {folder} does not exist").format(folder=path.parent))
            text = render_record(self.match, fmt, self.names, self.dice)
        except (GammonError, ImportError) as exc:
            self.screen.error(_("could not save to {path}: {reason}").format(path=path, reason=exc))
            return False
        if path.exists() and not self.screen.yes_no(_("{path} exists. Replace it?").format(path=path)):
            self.screen.say(_("Not saved."))
            return False
        try:
            write_text(path, text)
        except GammonError as exc:
            self.screen.error(_("could not save to {path}: {reason}").format(path=path, reason=exc))
            return False
        self.saved_actions = self._actions()
        self.screen.say(_("Saved the match to {path}.").format(path=path))
        return True

    def confirm_quit(self) -> None:
        """Leave (raise :class:`Quit`), asking first when moves would be lost."""
        if self._actions() in (0, self.saved_actions) or self.match.is_over:
            raise Quit
        if self.screen.yes_no(_("Quit and throw away the match played so far?")):
            raise Quit
        self.screen.say(_("Carry on."))


__all__ = ["Quit", "Saver"]
