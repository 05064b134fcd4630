"""Our own rolled-out match equity entries (``gammon train met``), read and written safely.

The file is JSON, written by :mod:`gammon.training.met_rollouts` after every score
(it is also that run's checkpoint) and read by
:func:`gammon.ai.met.load_rollout_met`.  Its shape::

    {"format": "gammon-met-rollouts", "version": 1,
     "settings": {"max_away": 11, "trials": 16200, "seed": 1, ...},
     "provenance": {"command": "...", "git_commit": "...", ...},
     "entries": [{"a": 2, "b": 3, "mwc": 0.59, "se": 0.0014, "trials": 16200, "seconds": 130.0}, ...]}

An entry is player 0's match winning chance at ``a``-away against ``b``-away
(``2 <= a < b <= max_away``), pre-Crawford, cube centred at 1, before the
opening throw, with its standard error; the mirror score is ``1 - mwc`` and
equal scores are 1/2, so neither is stored.

A file is input like any other: at most :data:`MAX_FILE_BYTES`, a regular file,
``max_away`` at most :data:`MAX_AWAY`, every number of the right type, finite
and in range (an MWC in [0, 1]), no score twice.  Anything else is refused with
a :class:`~gammon.core.errors.GammonError` that says what and where.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gammon.core.errors import GammonError
from gammon.formats.bounded_read import read_bounded

__all__ = [
    "FORMAT",
    "MAX_AWAY",
    "MAX_FILE_BYTES",
    "VERSION",
    "RolledEntry",
    "RolloutMetFile",
    "parse_rollout_met",
    "read_rollout_met",
]

#: The ``format`` field of such a file.
FORMAT = "gammon-met-rollouts"
#: The version this module reads and writes.
VERSION = 1
#: The largest file read.
MAX_FILE_BYTES = 1 << 20
#: The longest match a file may cover (our model table's own reach is 25 by default).
MAX_AWAY = 64
#: The most trials an entry may claim (a sanity bound, far above any real run).
MAX_ENTRY_TRIALS = 10**9


@dataclass(frozen=True, slots=True)
class RolledEntry:
    """Player 0's MWC at ``a``-away/``b``-away (``a < b``) with its standard error, the
    trials it took and the seconds they ran."""

    a: int
    b: int
    mwc: float
    se: float
    trials: int
    seconds: float

    def as_json(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "mwc": self.mwc, "se": self.se, "trials": self.trials,
                "seconds": round(self.seconds, 3)}


@dataclass(frozen=True, slots=True)
class RolloutMetFile:
    """A rollout table file: the run's ``settings`` and ``provenance`` (free-form, kept as
    given) and its ``entries`` by score ``(a, b)``."""

    max_away: int
    settings: dict[str, Any]
    provenance: dict[str, Any]
    entries: dict[tuple[int, int], RolledEntry] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """The file's JSON object (entries in the order they were computed)."""
        return {"format": FORMAT, "version": VERSION, "max_away": self.max_away,
                "settings": self.settings, "provenance": self.provenance,
                "entries": [e.as_json() for e in self.entries.values()]}


def _int(value: object, low: int, high: int, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise GammonError(f"{where} must be a whole number from {low} to {high}, not {value!r}"[:200])
    return value


def _float(value: object, low: float, high: float, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise GammonError(f"{where} must be a number, not {value!r}"[:200])
    v = float(value)
    if not (math.isfinite(v) and low <= v <= high):
        raise GammonError(f"{where} must be from {low} to {high}, not {v!r}")
    return v


def _entry(raw: object, i: int, max_away: int) -> RolledEntry:
    where = f"entry {i + 1}"
    if not isinstance(raw, dict):
        raise GammonError(f"{where} is not an object")
    missing = {"a", "b", "mwc", "se", "trials", "seconds"} - raw.keys()
    if missing:
        raise GammonError(f"{where} lacks {', '.join(sorted(missing))}")
    a = _int(raw["a"], 2, max_away, f"{where}: a")
    b = _int(raw["b"], 2, max_away, f"{where}: b")
    if a >= b:
        raise GammonError(f"{where}: a ({a}) must be below b ({b}); the mirror score is implied")
    return RolledEntry(a, b, _float(raw["mwc"], 0.0, 1.0, f"{where}: mwc"),
                       _float(raw["se"], 0.0, 1.0, f"{where}: se"),
                       _int(raw["trials"], 1, MAX_ENTRY_TRIALS, f"{where}: trials"),
                       _float(raw["seconds"], 0.0, 1e9, f"{where}: seconds"))


def parse_rollout_met(data: object, what: str = "rollout table") -> RolloutMetFile:
    """The checked contents of a decoded rollout table file.

    :raises GammonError: anything that is not such a file, with what is wrong.
    """
    if not isinstance(data, dict):
        raise GammonError(f"{what}: not a JSON object")
    if data.get("format") != FORMAT:
        raise GammonError(f"{what}: not a gammon rollout table (format {FORMAT!r} expected)")
    if data.get("version") != VERSION:
        raise GammonError(f"{what}: version {data.get('version')!r} is not {VERSION}"[:200])
    try:
        max_away = _int(data.get("max_away"), 2, MAX_AWAY, "max_away")
        settings, provenance, raw = data.get("settings", {}), data.get("provenance", {}), data.get("entries")
        if not isinstance(settings, dict) or not isinstance(provenance, dict):
            raise GammonError("settings and provenance must be objects")
        if not isinstance(raw, list):
            raise GammonError("entries must be a list")
        if len(raw) > max_away * (max_away - 1) // 2:
            raise GammonError(f"{len(raw)} entries is more than the scores to {max_away}-away")
        entries: dict[tuple[int, int], RolledEntry] = {}
        for i, item in enumerate(raw):
            e = _entry(item, i, max_away)
            if (e.a, e.b) in entries:
                raise GammonError(f"entry {i + 1}: {e.a}-away/{e.b}-away twice")
            entries[e.a, e.b] = e
    except GammonError as exc:
        raise GammonError(f"{what}: {exc}") from None
    return RolloutMetFile(max_away, settings, provenance, entries)


def read_rollout_met(path: Path | str) -> RolloutMetFile:
    """The rollout table file at ``path``, checked (:func:`parse_rollout_met`).

    :raises GammonError: an unreadable, oversized, non-JSON or malformed file.
    """
    what = f"rollout table {path}"
    raw = read_bounded(path, MAX_FILE_BYTES, "rollout table")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise GammonError(f"{what} is not JSON: {exc}"[:300]) from None
    return parse_rollout_met(data, what)
