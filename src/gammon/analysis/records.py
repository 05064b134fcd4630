"""Read a match record for analysis: ``.mat``, SGF or gammon's JSON record, by file ending."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from gammon.core.errors import GammonError
from gammon.core.game import Action, Rules

#: File endings the analysis reads, and what each holds.
RECORD_FORMATS = {".mat": "Jellyfish .mat", ".sgf": "SGF (GNU Backgammon)", ".json": "gammon JSON record"}


@dataclass
class Record:
    """What the analysis needs from a file: rules, names and the actions of each game."""

    rules: Rules
    names: tuple[str, str]
    games: list[list[Action]]
    games_limit: int | None = None
    info: dict[str, str] = field(default_factory=dict)


def parse_record(text: str, suffix: str) -> Record:
    """Read ``text`` as the format ``suffix`` (``.mat``, ``.sgf`` or ``.json``) names.

    :raises GammonError: an unknown format or a record that cannot be read.
    """
    s = suffix.lower()
    if s == ".mat":
        from gammon.formats.mat import read_mat

        m = read_mat(text)
        return Record(m.rules, m.names, m.games, None, dict(m.info))
    if s == ".sgf":
        from gammon.formats.sgf import read_sgf

        m = read_sgf(text)
        return Record(m.rules, m.names, m.games, None, dict(m.info))
    if s == ".json":
        from gammon.formats.record_json import record_from_json

        j = record_from_json(text)
        return Record(j.rules, j.names, j.games, j.games_limit, dict(j.info))
    known = ", ".join(f"{k} ({v})" for k, v in RECORD_FORMATS.items())
    raise GammonError(f"cannot tell the format of a {suffix or 'nameless'} file: use one of {known}")


def load_record(path: str | Path) -> Record:
    """Read the record in ``path`` (the file ending names the format).

    :raises GammonError: a missing or unreadable file, or a bad record.
    """
    p = Path(path)
    if p.suffix.lower() not in RECORD_FORMATS:
        parse_record("", p.suffix)  # raises with the list of formats
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise GammonError(f"{p} is not a text file") from None
    except OSError as exc:
        raise GammonError(f"cannot read {p}: {exc.strerror or exc}") from None
    return parse_record(text, p.suffix)


__all__ = ["RECORD_FORMATS", "Record", "load_record", "parse_record"]
