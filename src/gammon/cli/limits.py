"""The edge of the command line: the ranges every option may take and bounded file reading.

Every number and file a person hands the ``gammon`` command passes through here
before any work starts, so a typo or a hostile value (a match of 100000
points, 10**20 trials, ``/dev/zero`` as a record, a random file as weights)
gets one clear :class:`~gammon.core.errors.GammonError` instead of a traceback,
a hang or gigabytes of memory.  The limits are the ones the field uses (a match
of at most 64 points, as GNU Backgammon's Match ID holds) or generous bounds
far above any real use (a million rollout trials, a 64 MiB weights file).
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import TYPE_CHECKING

from gammon.core.errors import GammonError
from gammon.core.match_id import MAX_MATCH_LENGTH
from gammon.formats.bounded_read import read_bounded
from gammon.i18n import _

if TYPE_CHECKING:
    from gammon.ai.network import Network

__all__ = [
    "MAX_AUTO_DOUBLES", "MAX_HIDDEN", "MAX_ID_TEXT", "MAX_MATCH_LENGTH", "MAX_NAME", "MAX_PLAY_MATCH_LENGTH",
    "MAX_SEED", "MAX_SELFPLAY_GAMES", "MAX_TRAIN_GAMES", "MAX_TRIALS", "MAX_TRUNCATE",
    "MAX_WEIGHTS_BYTES", "check_float", "check_int", "check_text", "load_weights", "max_processes",
    "read_bytes", "read_text",
]

# MAX_MATCH_LENGTH, the longest match any command accepts (GNU Backgammon's limit), is core's;
# MAX_RECORD_BYTES, the largest record file read, is the record registry's
# (gammon.formats.record_files; not imported here, which would load the game loop into
# every command): one set of caps for every reader.
#: Longest match ``gammon play`` offers (a person plays it; as the README says).
MAX_PLAY_MATCH_LENGTH = 25
#: Largest seed: a 63-bit whole number (the dice generators take 64-bit seeds).
MAX_SEED = 2**63 - 1
#: The most trials one rollout may ask for.
MAX_TRIALS = 1_000_000
#: The most plies a rollout trial may be cut at.
MAX_TRUNCATE = 10_000
#: The most games ``selfplay`` plays in one session.
MAX_SELFPLAY_GAMES = 100_000
#: The most games a training run may reach.
MAX_TRAIN_GAMES = 1_000_000_000
#: The most hidden units of a trained net (the shipped ones have 128).
MAX_HIDDEN = 1024
#: Most automatic doubles on opening ties (the cube reaches 64).
MAX_AUTO_DOUBLES = 6
#: Longest player name.
MAX_NAME = 40
#: Longest Position ID or XGID text (real ones are 14 and about 50 characters).
MAX_ID_TEXT = 200
#: Largest weights or checkpoint file read (the shipped weights are about 0.5 MiB).
MAX_WEIGHTS_BYTES = 64 * 1024 * 1024


def max_processes() -> int:
    """The most worker processes a command may start: the cores of this machine."""
    return max(1, os.cpu_count() or 1)


def check_int(value: int, low: int, high: int, option: str) -> int:
    """``value`` when ``low <= value <= high``, else a :class:`GammonError` naming ``option``."""
    if not low <= value <= high:
        raise GammonError(_("{option} must be from {low} to {high}, not {value}").format(
            option=option, low=f"{low:,}", high=f"{high:,}", value=_short(value)))
    return value


def check_float(value: float, low: float, high: float, option: str, *, open_low: bool = False) -> float:
    """A finite ``value`` in ``[low, high]`` (``(low, high]`` with ``open_low``)."""
    below = value <= low if open_low else value < low
    if not math.isfinite(value) or below or value > high:
        bracket = "(" if open_low else "["
        raise GammonError(_("{option} must be in {interval}, not {value}").format(
            option=option, interval=f"{bracket}{low:g}, {high:g}]", value=repr(value)))
    return value


def check_text(value: str, limit: int, option: str) -> str:
    """``value`` if it is at most ``limit`` characters with no control characters."""
    if len(value) > limit:
        raise GammonError(_("{option} is too long ({length} characters; at most {limit})").format(
            option=option, length=f"{len(value):,}", limit=limit))
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise GammonError(_("{option} must not contain control characters").format(option=option))
    return value


def _short(value: int) -> str:
    if abs(value) < 10**30:
        return str(value)
    return _("a number of {digits} digits").format(digits=len(str(abs(value))))


def read_bytes(path: Path | str, limit: int, what: str) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (``/dev/zero`` and FIFOs refused
    before a byte is read): :func:`gammon.formats.bounded_read.read_bounded`.

    :raises GammonError: a missing, unreadable, special or oversized file.
    """
    return read_bounded(path, limit, what)


def read_text(path: Path | str, limit: int, what: str) -> str:
    """A UTF-8 text file of at most ``limit`` bytes (see :func:`read_bytes`).

    :raises GammonError: as :func:`read_bytes`, or a file that is not UTF-8 text.
    """
    data = read_bytes(path, limit, what)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise GammonError(
            f"{what} {path} is not a text file (not UTF-8 at byte {exc.start:,})"
        ) from None
    if "\0" in text:
        raise GammonError(f"{what} {path} is not a text file (it holds NUL bytes)")
    return text


def load_weights(path: Path | str, what: str = "weights file", *, checkpoint: bool = False) -> Network:
    """A :class:`~gammon.ai.network.Network` read from an ``.npz`` file, checked whole.

    The file must be a regular file of at most :data:`MAX_WEIGHTS_BYTES`; it is
    read with ``allow_pickle=False`` (never unpickled), and the arrays must have
    the shapes the evaluator needs (a contact and a race net, and perhaps a third for crashed
    positions, as the shipped 0-ply net has) and finite values,
    so a truncated, empty or random file is refused here instead of crashing the
    compiled evaluator.  ``checkpoint`` also asks for the generator state a
    training checkpoint holds.
    """
    import io
    import zipfile
    import zlib

    import numpy as np

    from gammon.ai import network

    data = read_bytes(path, MAX_WEIGHTS_BYTES, what)
    if not data.startswith(b"PK"):
        raise GammonError(f"{what} {path} is not a weights file (not an .npz archive)")
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            names = set(z.files)
            missing = {"w1", "b1", "w2", "b2"} - names
            if missing:
                raise GammonError(f"{what} {path} lacks the arrays {', '.join(sorted(missing))}")
            arrays = {k: z[k] for k in ("w1", "b1", "w2", "b2")}
            meta_text = str(z["meta"]) if "meta" in names else "{}"
            extra = {k: z[k] for k in names - {"w1", "b1", "w2", "b2", "meta"}}
    except GammonError:
        raise
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error,
            NotImplementedError) as exc:
        raise GammonError(f"{what} {path} cannot be read: {exc}") from None
    w1 = arrays["w1"]
    if w1.ndim != 3 or w1.shape[0] not in (2, 3) or not 1 <= w1.shape[2] <= MAX_HIDDEN:
        raise GammonError(f"{what} {path} does not hold a contact and a race net, and perhaps a crashed"
                          f" net (w1 shape {w1.shape})")
    for name, a in arrays.items():
        if a.dtype.kind != "f" or not np.all(np.isfinite(a)):
            raise GammonError(f"{what} {path}: array {name} is not all finite numbers")
    import json

    try:
        meta = json.loads(meta_text)
    except (ValueError, RecursionError):
        meta = {}
    if not isinstance(meta, dict):
        meta = {}
    if checkpoint:
        rng = extra.get("rng")
        if rng is None or rng.dtype != np.uint64 or rng.shape != (1,):
            raise GammonError(f"{what} {path} is not a training checkpoint (no generator state)")
    return network.Network(arrays["w1"], arrays["b1"], arrays["w2"], arrays["b2"], meta)
