"""Match files for the command line: which format a name asks for, reading, and safe writing.

One place decides, from a file's ending, what is read or written (``.mat``,
``.sgf`` or gammon's ``.json`` record), checks before any game is played or
converted that the format can hold the match (a ``.mat`` file cannot carry
Dutch backgammon or automatic doubles; SGF cannot carry Acey-Deucey), reads
files with a size limit, and never replaces an existing file unless asked to.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gammon.cli.limits import MAX_MATCH_LENGTH, MAX_RECORD_BYTES, read_text
from gammon.core.errors import GammonError
from gammon.core.game import Rules
from gammon.core.match import Match

#: File endings the commands read and write, and what each holds.
FORMATS: dict[str, str] = {
    ".mat": "Jellyfish .mat",
    ".sgf": "SGF (GNU Backgammon)",
    ".json": "gammon JSON record",
}


def format_of(path: Path | str) -> str:
    """The format ``path``'s ending names (``.mat``, ``.sgf`` or ``.json``).

    :raises GammonError: any other ending, naming the ones known.
    """
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        known = ", ".join(f"{k} ({v})" for k, v in FORMATS.items())
        raise GammonError(f"cannot tell the format of {Path(path).name!r}: use one of {known}")
    return suffix


def check_can_hold(fmt: str, rules: Rules, dice_kind: str | None = None) -> None:
    """Refuse, with the reason, a match the format cannot record: before any work is done.

    The format's own writer is asked about an empty match with these rules, so
    the knowledge of what each format carries stays in :mod:`gammon.formats`.

    :raises GammonError: e.g. Dutch backgammon or automatic doubles in a ``.mat`` file.
    """
    if fmt == ".json":
        return
    empty = Match(rules)
    if fmt == ".mat":
        from gammon.formats.mat import write_mat

        write_mat(empty)
        if rules.automatic_doubles:
            raise GammonError("a .mat file cannot record automatic doubles; use .sgf or .json")
    elif fmt == ".sgf":
        from gammon.formats.sgf import write_sgf

        write_sgf(empty)
    if dice_kind == "crypto":
        raise GammonError(f"a {fmt} file cannot keep the dice commitment that makes crypto dice "
                          "verifiable; use .json")


@dataclass(frozen=True, slots=True)
class LoadedRecord:
    """A match read from a file: the match replayed, the names, and the dice information."""

    match: Match
    names: tuple[str, str]
    dice: dict[str, Any] | None


def read_record(path: Path | str) -> LoadedRecord:
    """Read and replay a ``.mat``, ``.sgf`` or ``.json`` match file (at most 16 MiB).

    :raises GammonError: an unknown ending, an unreadable or oversized file, or a
        record that does not replay under the rules.
    """
    fmt = format_of(path)
    text = read_text(path, MAX_RECORD_BYTES, "record")
    try:
        if fmt == ".json":
            from gammon.formats.record_json import record_from_json

            data = record_from_json(text)
            match = data.replay()
            dice = data.dice
            names = data.names
        else:
            if fmt == ".mat":
                from gammon.formats.mat import read_mat

                mdata = read_mat(text)
            else:
                from gammon.formats.sgf import read_sgf

                mdata = read_sgf(text)
            match = mdata.replay()
            names, dice = mdata.names, None
    except RecursionError:
        raise GammonError(f"record {path} is nested too deeply to read") from None
    if match.length > MAX_MATCH_LENGTH:
        raise GammonError(f"record {path}: a {match.length}-point match is longer than "
                          f"{MAX_MATCH_LENGTH} points")
    return LoadedRecord(match, (str(names[0]), str(names[1])), dice)


def render_record(match: Match, fmt: str, names: tuple[str, str], dice: object = None) -> str:
    """The text of ``match`` in format ``fmt`` (player 0 first)."""
    if fmt == ".mat":
        from gammon.formats.mat import write_mat

        return write_mat(match, [n.replace(":", " -") for n in names])
    if fmt == ".sgf":
        from gammon.formats.sgf import write_sgf

        return write_sgf(match, names)
    from gammon.formats.record_json import match_to_json

    return match_to_json(match, names, dice_info=dice if isinstance(dice, dict) else _dice_info(dice))


def _dice_info(dice: object) -> dict[str, Any] | None:
    from gammon.formats.record_json import dice_info_of

    return dice_info_of(dice)


def check_target(path: Path | str, *, replace: bool) -> Path:
    """``path`` if a record may be written there: its folder exists and, unless
    ``replace``, no file is there yet.

    :raises GammonError: a missing folder, a folder in the way, or an existing file.
    """
    p = Path(path)
    if p.is_dir():
        raise GammonError(f"{p} is a folder: give a file name")
    if not p.parent.is_dir():
        raise GammonError(f"the folder {p.parent} does not exist")
    if p.exists() and not replace:
        raise GammonError(f"{p} already exists: choose another name, or --force to replace it")
    return p


def write_text(path: Path | str, text: str) -> None:
    """Write ``text`` to ``path`` (through a temporary file, so a failure leaves no half file)."""
    import os

    p = Path(path)
    tmp = p.with_name(f".{p.name}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, p)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise GammonError(f"cannot write {p}: {exc.strerror or exc}") from None
