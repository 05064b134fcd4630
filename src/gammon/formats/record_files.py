"""Match record files: one registry of the formats by file ending, read and written with one set of caps.

Every command that reads or writes a match file (``gammon convert``,
``analyse``, ``play --resume`` and ``--replay``, ``verify``, ``selfplay``, the
terminal's ``save``) goes through here, so they accept the same endings
(:data:`FORMATS`: ``.mat``, ``.sgf``, ``.json``) and refuse the same hostile
files in the same words:

* only a regular file is read: a FIFO, a device, a folder or a link to one of
  them is refused before a byte is read, and the file is opened without
  blocking, so a FIFO with no writer cannot hang the reader;
* at most :data:`MAX_RECORD_BYTES` are ever read (``/dev/zero`` behind a link
  never gets that far), and the text must be UTF-8 without NUL bytes;
* nesting is measured before parsing (:data:`MAX_NESTING`: JSON arrays and
  objects, SGF variations), so a deeply nested file is a clear error, never a
  ``RecursionError``;
* every action is replayed through core's rules (which also bound a match to
  64 points), so what a reader returns is a legal match.

Writing renders through the same registry; :func:`check_target` refuses a
folder, a missing or unwritable folder and (unless asked) an existing file
before any work is done, and :func:`write_text` replaces a file atomically.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gammon.core.errors import GammonError
from gammon.core.game import Action, Rules
from gammon.core.match import Match
from gammon.formats.bounded_read import read_bounded
from gammon.formats.mat import read_mat, write_mat
from gammon.formats.record_json import dice_info_of, match_to_json, record_from_json
from gammon.formats.sgf import read_sgf, write_sgf

__all__ = [
    "FORMATS", "MAX_NESTING", "MAX_RECORD_BYTES", "LoadedRecord", "RecordFormat",
    "check_can_hold", "check_folder_writable", "check_nesting", "check_target", "format_of", "load_record",
    "parse_record", "read_record_text", "render_record", "write_text",
]

#: Largest record file read: a long session is a few hundred KiB.
MAX_RECORD_BYTES = 16 * 1024 * 1024
#: Deepest nesting read: JSON arrays and objects (a record needs 5), SGF variations.
MAX_NESTING = 100


@dataclass
class LoadedRecord:
    """What a match file holds, read and checked: rules, names, each game's actions, and more.

    ``dice`` is what a JSON record says of its dice (a commitment, a seed);
    ``.mat`` and SGF files keep none.
    """

    rules: Rules
    names: tuple[str, str]
    games: list[list[Action]]
    games_limit: int | None = None
    info: dict[str, str] = field(default_factory=dict)
    dice: dict[str, Any] | None = None

    def replay(self) -> Match:
        """The match these actions make (:meth:`Match.replay`)."""
        return Match.replay(self.rules, self.games, games_limit=self.games_limit)


@dataclass(frozen=True, slots=True)
class RecordFormat:
    """One file format: its ending, its name for people, and how it is read, written and limited.

    ``parse(text)`` reads a file's text; ``render(match, names, dice)`` writes
    one; ``refuse(rules)`` raises when the format cannot hold a match with these
    rules; ``nesting(text)`` measures the depth that :data:`MAX_NESTING` bounds.
    """

    suffix: str
    title: str
    parse: Callable[[str], LoadedRecord]
    render: Callable[[Match, tuple[str, str], dict[str, Any] | None], str]
    refuse: Callable[[Rules], None]
    keeps_commitment: bool
    nesting: Callable[[str], int]


# -- nesting, measured without recursion -------------------------------------------------------

_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_JSON_BRACKET = re.compile(r"[\[\]{}]")
_SGF_VALUE = re.compile(r"\[(?:[^\]\\]|\\.)*\]", re.DOTALL)
_SGF_PAREN = re.compile(r"[()]")


def _depth(text: str, strings: re.Pattern[str], brackets: re.Pattern[str], openers: str) -> int:
    """The deepest nesting of ``brackets`` in ``text`` outside the ``strings`` it holds."""
    depth = deepest = 0
    for m in brackets.finditer(strings.sub("", text)):
        depth += 1 if m.group() in openers else -1
        deepest = max(deepest, depth)
    return deepest


def _json_depth(text: str) -> int:
    return _depth(text, _JSON_STRING, _JSON_BRACKET, "[{")


def _sgf_depth(text: str) -> int:
    return _depth(text, _SGF_VALUE, _SGF_PAREN, "(")


def _flat(text: str) -> int:
    return 0  # a .mat file is lines: nothing nests


# -- the three formats ---------------------------------------------------------------------------


def _parse_mat(text: str) -> LoadedRecord:
    m = read_mat(text)
    return LoadedRecord(m.rules, m.names, m.games, None, dict(m.info))


def _parse_sgf(text: str) -> LoadedRecord:
    m = read_sgf(text)
    return LoadedRecord(m.rules, m.names, m.games, None, dict(m.info))


def _parse_json(text: str) -> LoadedRecord:
    j = record_from_json(text)
    return LoadedRecord(j.rules, j.names, j.games, j.games_limit, dict(j.info), j.dice)


def _render_mat(match: Match, names: tuple[str, str], dice: dict[str, Any] | None) -> str:
    return write_mat(match, [n.replace(":", " -") for n in names])


def _render_sgf(match: Match, names: tuple[str, str], dice: dict[str, Any] | None) -> str:
    return write_sgf(match, names)


def _render_json(match: Match, names: tuple[str, str], dice: dict[str, Any] | None) -> str:
    return match_to_json(match, names, dice_info=dice)


def _refuse_mat(rules: Rules) -> None:
    write_mat(Match(rules))  # the writer knows which variants a .mat file carries
    if rules.automatic_doubles:
        raise GammonError("a .mat file cannot record automatic doubles; use .sgf or .json")


def _refuse_sgf(rules: Rules) -> None:
    write_sgf(Match(rules))


def _refuse_nothing(rules: Rules) -> None:
    return None


#: The formats by file ending (lower case): the one registry every reader and writer uses.
FORMATS: Mapping[str, RecordFormat] = {
    ".mat": RecordFormat(".mat", "Jellyfish .mat", _parse_mat, _render_mat, _refuse_mat, False, _flat),
    ".sgf": RecordFormat(".sgf", "SGF (GNU Backgammon)", _parse_sgf, _render_sgf, _refuse_sgf, False,
                         _sgf_depth),
    ".json": RecordFormat(".json", "gammon JSON record", _parse_json, _render_json, _refuse_nothing, True,
                          _json_depth),
}


def format_of(path: Path | str) -> RecordFormat:
    """The format ``path``'s ending names.

    :raises GammonError: any other ending, naming the ones known.
    """
    suffix = Path(path).suffix.lower()
    fmt = FORMATS.get(suffix)
    if fmt is None:
        known = ", ".join(f"{k} ({v.title})" for k, v in FORMATS.items())
        raise GammonError(f"cannot tell the format of {Path(path).name!r}: use one of {known}")
    return fmt


def check_can_hold(suffix: str, rules: Rules, dice_kind: str | None = None) -> None:
    """Refuse, with the reason, a match the format cannot record: before any work is done.

    :raises GammonError: e.g. Dutch backgammon or automatic doubles in a ``.mat``
        file, or crypto dice (whose commitment only JSON keeps) in another format.
    """
    fmt = format_of(f"x{suffix}")
    fmt.refuse(rules)
    if dice_kind == "crypto" and not fmt.keeps_commitment:
        raise GammonError(f"a {fmt.suffix} file cannot keep the dice commitment that makes crypto dice "
                          "verifiable; use .json")


# -- reading -------------------------------------------------------------------------------------


def read_record_text(path: Path | str, what: str = "record") -> str:
    """The text of the record file ``path``: a regular UTF-8 file of at most :data:`MAX_RECORD_BYTES`.

    :raises GammonError: as :func:`~gammon.formats.bounded_read.read_bounded`, or a file that is not UTF-8 text.
    """
    data = read_bounded(path, MAX_RECORD_BYTES, what)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise GammonError(f"{what} {path} is not a text file (not UTF-8 at byte {exc.start:,})") from None
    if "\0" in text:
        raise GammonError(f"{what} {path} is not a text file (it holds NUL bytes)")
    return text


def check_nesting(text: str, suffix: str, where: str = "the record") -> RecordFormat:
    """The format ``suffix`` names, once ``text`` is found nested no deeper than :data:`MAX_NESTING`.

    :raises GammonError: an unknown format, or a text nested too deeply.
    """
    fmt = format_of(f"x{suffix}")
    if fmt.nesting(text) > MAX_NESTING:
        raise GammonError(f"{where} is nested too deeply to read (more than {MAX_NESTING} levels)")
    return fmt


def parse_record(text: str, suffix: str, where: str = "the record") -> LoadedRecord:
    """Read ``text`` as the format ``suffix`` names, with the registry's nesting and length caps.

    :raises GammonError: an unknown format, a record nested too deeply, or one
        that cannot be read or does not replay.
    """
    fmt = check_nesting(text, suffix, where)
    try:
        return fmt.parse(text)
    except RecursionError:
        raise GammonError(f"{where} is nested too deeply to read") from None


def load_record(path: Path | str) -> LoadedRecord:
    """Read the record in ``path`` (its ending names the format), with every cap of this module.

    :raises GammonError: an unknown ending, or as :func:`read_record_text` and :func:`parse_record`.
    """
    fmt = format_of(path)
    return parse_record(read_record_text(path), fmt.suffix, f"record {path}")


# -- writing -------------------------------------------------------------------------------------


def render_record(match: Match, suffix: str, names: tuple[str, str], dice: object = None) -> str:
    """The text of ``match`` in the format ``suffix`` names (player 0 first).

    ``dice`` is a dice source (:mod:`gammon.core.dice`) or what a record said
    of its dice; only JSON keeps it.
    """
    info = dice if isinstance(dice, dict) or dice is None else dice_info_of(dice)
    return format_of(f"x{suffix}").render(match, names, info)


def check_folder_writable(folder: Path | str, what: str) -> None:
    """Refuse a folder that is missing, not a folder, or cannot take a new file.

    Writability is tried, not guessed from permission bits (which say nothing
    to root, or of a read-only file system or ``/proc``): a temporary file is
    made there and removed.

    :raises GammonError: naming ``what`` and the reason.
    """
    d = Path(folder)
    if not d.is_dir():
        raise GammonError(f"{what}: the folder {d} does not exist")
    try:
        fd, probe = tempfile.mkstemp(prefix=".gammon-probe-", dir=d)
    except OSError as exc:
        raise GammonError(f"{what}: cannot write in {d} ({exc.strerror or exc})") from None
    os.close(fd)
    os.unlink(probe)


def check_target(path: Path | str, *, replace: bool) -> Path:
    """``path`` if a record may be written there: it is not a folder, its folder
    exists and takes files, and, unless ``replace``, no file is there yet.

    :raises GammonError: a folder in the way, a missing or unwritable folder, or an existing file.
    """
    p = Path(path)
    if p.is_dir():
        raise GammonError(f"{p} is a folder: give a file name")
    check_folder_writable(p.parent, str(p))
    if p.exists() and not replace:
        raise GammonError(f"{p} already exists: choose another name, or --force to replace it")
    return p


def write_text(path: Path | str, text: str) -> None:
    """Write ``text`` to ``path`` (through a temporary file, so a failure leaves no half file)."""
    p = Path(path)
    tmp = p.with_name(f".{p.name}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, p)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise GammonError(f"cannot write {p}: {exc.strerror or exc}") from None
