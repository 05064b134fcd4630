"""An exact one-sided bear-off database, computed with our own move generator.

For every way to put up to 15 checkers on the six home points (54,264
positions, the empty one included) it holds two distributions of the number
of rolls (turns) a side needs when it plays alone, with no contact:

* ``rolls[i, n]``: probability that bearing off every checker takes exactly
  ``n`` rolls, playing each roll to minimise the expected number of rolls;
* ``first[i, n]``: probability that the first checker comes off on roll ``n``,
  playing to minimise the expected rolls to get one off (what matters when a
  side saves a gammon); 1 at ``n = 0`` for the empty position.

Both are computed by dynamic programming over positions in order of pip
count: every move lowers the pip count, so the values of all results of a roll
are known when a position is reached.  Among plays of equal expected rolls the
one whose distribution finishes sooner (the larger cumulative probability at
the first roll where they differ) is kept, so the distributions are uniquely
defined.

A second, smaller table (the *short-side* table) holds the same two
distributions for every way to put up to four checkers anywhere on the 24
points (20,475 positions): a side with few checkers left but some still far
from home, such as two stragglers after thirteen are off.  Those races are
where the race net has seen least (it valued one at 85.7% wins where a
rollout gives 34.7%), and the table makes them exact in the same one-sided
sense.  :func:`race_row` finds a side's row in either table, and
:meth:`BearoffDatabase.kernel_tables` lays the two tables end to end for the
compiled evaluator.

Two such distributions give the chances of a bear-off race between two
sides (see :func:`race_probabilities`): the player on roll, needing ``A``
rolls, wins when ``A <= B``, the opponent's rolls.  This treats the two sides
as independent, which is exact for winning when each side's best play does not
depend on the other's position (GNU Backgammon's one-sided databases make the
same approximation).

Positions are indexed combinatorially: counts ``c[0..5]`` (the 1- to 6-point)
are ranked lexicographically among all placements of at most 15 checkers, so
the empty position has index 0.  :func:`build` computes the database (a few
seconds); :func:`load` reads the copy shipped in ``gammon/ai/data`` or one
cached in ``~/.cache/gammon``, building it when neither exists.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from gammon.core.errors import GammonError

#: Home points and most checkers the database covers.
POINTS = 6
MAX_CHECKERS = 15
#: Longest bear-off (rolls) stored: 15 checkers on the six point need at most
#: 30 rolls (of 2-1, the slowest roll), so index 31 stays empty.
MAX_ROLLS = 32
#: Longest wait for the first checker off stored: the build found at most 10
#: rolls (with probability 2e-12), when play minimises the expected wait.
MAX_FIRST = 12

#: The short-side table: up to four checkers anywhere on the 24 points.  Five
#: checkers would be 118,755 positions and a 10 MB file; four are 1.5 MB.
SHORT_POINTS = 24
SHORT_CHECKERS = 4
#: Longest bear-off stored for the short-side table: the build found at most
#: 32 rolls (four checkers on the 24-point rolling 2-1).
SHORT_MAX_ROLLS = 36
#: Longest wait for the first checker off in the short-side table (the build: 27).
SHORT_MAX_FIRST = 30

#: File name of the database inside the package data and the user cache.
FILE_NAME = "bearoff1.npz"
#: Format version stored in the file; a different one is rebuilt.  2: the short-side table.
VERSION = 2


def _n_placements(points: int, checkers: int) -> int:
    """Ways to place at most ``checkers`` checkers on ``points`` points: C(c + p, p)."""
    from math import comb

    return comb(checkers + points, points)


#: Number of positions: C(21, 6).
N_POSITIONS = _n_placements(POINTS, MAX_CHECKERS)


def _offset_table(points: int = POINTS, checkers: int = MAX_CHECKERS) -> np.ndarray:
    """``T[k, r, a]``: positions ranked before count ``a`` on a point followed by ``k``
    more points, with ``r`` checkers left to place (lexicographic order)."""
    t = np.zeros((points, checkers + 1, checkers + 2), dtype=np.int64)
    for k in range(points):
        for r in range(checkers + 1):
            acc = 0
            for a in range(r + 2):
                t[k, r, a] = acc
                if a <= r:
                    acc += _n_placements(k, r - a)
    return t


OFFSETS = _offset_table()
#: Number of short-side positions: C(28, 4); their offsets.
N_SHORT = _n_placements(SHORT_POINTS, SHORT_CHECKERS)
SHORT_OFFSETS = _offset_table(SHORT_POINTS, SHORT_CHECKERS)
#: Columns of :meth:`BearoffDatabase.kernel_tables`' two arrays (the wider table's).
KERNEL_ROLLS = max(MAX_ROLLS, SHORT_MAX_ROLLS)
KERNEL_FIRST = max(MAX_FIRST, SHORT_MAX_FIRST)


@njit(cache=True)
def rank(b, o, offsets, points, checkers):  # type: ignore[no-untyped-def]
    """Lexicographic rank of the counts ``b[o:o+points]`` among all placements of at
    most ``checkers`` checkers on ``points`` points (``offsets`` from :func:`_offset_table`)."""
    r = checkers
    idx = 0
    for j in range(points):
        a = b[o + j]
        idx += offsets[points - 1 - j, r, a]
        r -= a
    return idx


@njit(cache=True)
def index_of(b, o, offsets):  # type: ignore[no-untyped-def]
    """Database index of the six home-point counts ``b[o:o+6]`` (at most 15 checkers)."""
    return rank(b, o, offsets, 6, 15)


def position_index(counts: tuple[int, ...] | list[int]) -> int:
    """Database index of six home-point counts (the 1-point first).

    >>> position_index([0, 0, 0, 0, 0, 0])
    0

    :raises GammonError: not six counts, or more than 15 checkers.
    """
    c = [int(x) for x in counts]
    if len(c) != POINTS or min(c) < 0 or sum(c) > MAX_CHECKERS:
        raise GammonError("a bear-off position is six counts with at most 15 checkers in all")
    return int(index_of(np.array(c, dtype=np.int64), 0, OFFSETS))


def short_index(counts: tuple[int, ...] | list[int]) -> int:
    """Short-side table index of 24 point counts (the 1-point first, at most four checkers).

    :raises GammonError: not 24 counts, or more than four checkers.
    """
    c = [int(x) for x in counts]
    if len(c) != SHORT_POINTS or min(c) < 0 or sum(c) > SHORT_CHECKERS:
        raise GammonError("a short-side position is 24 counts with at most four checkers in all")
    return int(rank(np.array(c, dtype=np.int64), 0, SHORT_OFFSETS, SHORT_POINTS, SHORT_CHECKERS))


def all_short_positions() -> np.ndarray:
    """Every short-side position's 24 counts, ``(N_SHORT, 24)``, row ``i`` at index ``i``."""
    from itertools import combinations_with_replacement

    out = np.zeros((N_SHORT, SHORT_POINTS), dtype=np.uint8)
    c = np.zeros(SHORT_POINTS, dtype=np.int64)
    for k in range(SHORT_CHECKERS + 1):
        for points in combinations_with_replacement(range(SHORT_POINTS), k):
            c[:] = 0
            for p in points:
                c[p] += 1
            out[rank(c, 0, SHORT_OFFSETS, SHORT_POINTS, SHORT_CHECKERS)] = c
    return out


def all_positions() -> np.ndarray:
    """Every position's six counts, ``(N_POSITIONS, 6)``, row ``i`` at index ``i``."""
    out = np.zeros((N_POSITIONS, POINTS), dtype=np.uint8)
    _fill_positions(out, OFFSETS)
    return out


@njit(cache=True)
def _fill_positions(out, offsets):  # type: ignore[no-untyped-def]
    c = np.zeros(6, dtype=np.int64)
    for a0 in range(16):
        for a1 in range(16 - a0):
            for a2 in range(16 - a0 - a1):
                for a3 in range(16 - a0 - a1 - a2):
                    for a4 in range(16 - a0 - a1 - a2 - a3):
                        for a5 in range(16 - a0 - a1 - a2 - a3 - a4):
                            c[0] = a0
                            c[1] = a1
                            c[2] = a2
                            c[3] = a3
                            c[4] = a4
                            c[5] = a5
                            i = index_of(c, 0, offsets)
                            for j in range(6):
                                out[i, j] = c[j]


class BearoffDatabase:
    """The one-sided database: distributions and means per position (see the module doc).

    ``rolls`` ``(N_POSITIONS, MAX_ROLLS)`` and ``first`` ``(N_POSITIONS,
    MAX_FIRST)`` hold probabilities of exactly ``n`` rolls (float32);
    ``mean_rolls`` and ``mean_first`` the expected numbers (float64).
    ``short_rolls`` ``(N_SHORT, SHORT_MAX_ROLLS)``, ``short_first`` ``(N_SHORT,
    SHORT_MAX_FIRST)`` and ``short_mean_rolls`` are the short-side table, or
    ``None`` for a database without it.
    """

    __slots__ = ("rolls", "first", "mean_rolls", "mean_first", "meta", "short_rolls", "short_first",
                 "short_mean_rolls", "_kernel")

    def __init__(self, rolls: np.ndarray, first: np.ndarray, mean_rolls: np.ndarray,
                 mean_first: np.ndarray, meta: dict[str, Any] | None = None,
                 short: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> None:
        if rolls.shape != (N_POSITIONS, MAX_ROLLS) or first.shape != (N_POSITIONS, MAX_FIRST):
            raise GammonError("bear-off database arrays have the wrong shape")
        self.rolls = np.ascontiguousarray(rolls, dtype=np.float32)
        self.first = np.ascontiguousarray(first, dtype=np.float32)
        self.mean_rolls = np.ascontiguousarray(mean_rolls, dtype=np.float64)
        self.mean_first = np.ascontiguousarray(mean_first, dtype=np.float64)
        self.meta = dict(meta or {})
        self.short_rolls: np.ndarray | None = None
        self.short_first: np.ndarray | None = None
        self.short_mean_rolls: np.ndarray | None = None
        if short is not None:
            s_rolls, s_first, s_mean = short
            if (s_rolls.shape != (N_SHORT, SHORT_MAX_ROLLS) or s_first.shape != (N_SHORT, SHORT_MAX_FIRST)
                    or s_mean.shape != (N_SHORT,)):
                raise GammonError("short-side table arrays have the wrong shape")
            self.short_rolls = np.ascontiguousarray(s_rolls, dtype=np.float32)
            self.short_first = np.ascontiguousarray(s_first, dtype=np.float32)
            self.short_mean_rolls = np.ascontiguousarray(s_mean, dtype=np.float64)
        self._kernel: tuple[np.ndarray, np.ndarray] | None = None

    def home_only(self) -> BearoffDatabase:
        """The same database without its short-side table (races with stragglers then go to
        the race net, as before the table existed: what the engine's pinned values assume)."""
        return BearoffDatabase(self.rolls, self.first, self.mean_rolls, self.mean_first, self.meta)

    def kernel_tables(self) -> tuple[np.ndarray, np.ndarray]:
        """``rolls`` and ``first`` of both tables end to end, as :func:`race_row` indexes them.

        Rows ``0..N_POSITIONS-1`` are the home table, the rest the short-side
        table (when there is one); the shorter rows are padded with zeros.
        Made once and kept (about 11 MB).
        """
        if self._kernel is None:
            if self.short_rolls is None or self.short_first is None:
                self._kernel = (self.rolls, self.first)
            else:
                rolls = np.zeros((N_POSITIONS + N_SHORT, KERNEL_ROLLS), dtype=np.float32)
                first = np.zeros((N_POSITIONS + N_SHORT, KERNEL_FIRST), dtype=np.float32)
                rolls[:N_POSITIONS, :MAX_ROLLS] = self.rolls
                first[:N_POSITIONS, :MAX_FIRST] = self.first
                rolls[N_POSITIONS:, :SHORT_MAX_ROLLS] = self.short_rolls
                first[N_POSITIONS:, :SHORT_MAX_FIRST] = self.short_first
                self._kernel = (rolls, first)
        return self._kernel

    # -- queries -----------------------------------------------------------

    def distribution(self, counts: tuple[int, ...] | list[int]) -> np.ndarray:
        """P(exactly n rolls to bear off), n = 0..MAX_ROLLS-1, for six home counts."""
        return np.asarray(self.rolls[position_index(counts)], dtype=np.float64)

    def first_off_distribution(self, counts: tuple[int, ...] | list[int]) -> np.ndarray:
        """P(first checker off on roll n), n = 0..MAX_FIRST-1 (gammon saving)."""
        return np.asarray(self.first[position_index(counts)], dtype=np.float64)

    def expected_rolls(self, counts: tuple[int, ...] | list[int]) -> float:
        """Expected rolls to bear off every checker (with best play)."""
        return float(self.mean_rolls[position_index(counts)])

    def gammon_save_chance(self, counts: tuple[int, ...] | list[int], rolls: int) -> float:
        """Probability of bearing off at least one checker within ``rolls`` rolls."""
        f = self.first[position_index(counts)]
        return float(np.sum(f[: max(0, rolls) + 1], dtype=np.float64))

    def short_distribution(self, counts: tuple[int, ...] | list[int]) -> np.ndarray:
        """P(exactly n rolls to bear off), n = 0..SHORT_MAX_ROLLS-1, for 24 point counts
        of at most four checkers (the short-side table).

        :raises GammonError: a database without the table, or a bad position.
        """
        if self.short_rolls is None:
            raise GammonError("this bear-off database has no short-side table")
        return np.asarray(self.short_rolls[short_index(counts)], dtype=np.float64)

    def race(self, me: tuple[int, ...] | list[int], opp: tuple[int, ...] | list[int],
             checkers: int = MAX_CHECKERS) -> np.ndarray:
        """Five probabilities for the player on roll of a two-sided bear-off.

        ``me`` and ``opp`` are six home counts each, from each side's own view.
        """
        out = np.zeros(5, dtype=np.float32)
        race_probabilities(self.rolls, self.first, position_index(me), position_index(opp),
                           sum(me) == checkers, sum(opp) == checkers, out)
        return out.astype(np.float64)

    # -- files -------------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write a compressed ``.npz`` (atomically)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        import json

        arrays = {"rolls": _to_fixed(self.rolls), "first": _to_fixed(self.first),
                  "mean_rolls": self.mean_rolls, "mean_first": self.mean_first,
                  "meta": np.array(json.dumps({**self.meta, "version": VERSION}, sort_keys=True))}
        if self.short_rolls is not None and self.short_first is not None:
            arrays.update(short_rolls=_to_fixed(self.short_rolls), short_first=_to_fixed(self.short_first),
                          short_mean_rolls=np.asarray(self.short_mean_rolls))
        np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
        os.replace(tmp, path)

    @classmethod
    def from_file(cls, source: str | os.PathLike[str] | io.BytesIO) -> BearoffDatabase:
        """Read a file written by :meth:`save`.

        :raises GammonError: a missing, damaged or outdated file.
        """
        import json

        try:
            with np.load(source, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                if meta.get("version") != VERSION:
                    raise GammonError(f"bear-off database version {meta.get('version')}, "
                                      f"expected {VERSION}")
                short = None
                if "short_rolls" in z.files:
                    short = (_from_fixed(z["short_rolls"]), _from_fixed(z["short_first"]),
                             z["short_mean_rolls"])
                return cls(_from_fixed(z["rolls"]), _from_fixed(z["first"]), z["mean_rolls"],
                           z["mean_first"], meta, short)
        except (OSError, KeyError, ValueError) as exc:
            if isinstance(exc, GammonError):
                raise
            raise GammonError(f"cannot read the bear-off database: {exc}") from None


#: Probabilities are stored as 32-bit fixed point (resolution 2**-32, far below
#: float32's own): small numbers below the resolution become zeros, which
#: compress to almost nothing.
_SCALE = float(2**32 - 1)


def _to_fixed(a: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(a, dtype=np.float64) * _SCALE).astype(np.uint32)


def _from_fixed(a: np.ndarray) -> np.ndarray:
    return (a.astype(np.float64) / _SCALE).astype(np.float32)


def build(progress: Callable[[int, int], None] | None = None) -> BearoffDatabase:
    """Compute the database with the move generator (about fifteen seconds):
    :func:`gammon.ai.bearoff_build.build`."""
    from gammon.ai.bearoff_build import build as build_database

    return build_database(progress)


# -- two-sided races -------------------------------------------------------------


@njit(cache=True)
def race_probabilities(rolls, first, i_me, i_opp, me_none_off, opp_none_off, out):  # type: ignore[no-untyped-def]
    """Probabilities for the player on roll of a no-contact bear-off race.

    The player on roll needs ``A`` rolls and the opponent ``B``; he rolls first,
    so he wins when ``A <= B``.  He wins a gammon when the opponent (with no
    checker off) takes his first checker off on roll ``F >= A`` or later;
    he loses one when he has none off and takes his first one later than the
    opponent's last roll (``F_me > B``).  No backgammons: both sides are home.
    """
    kr = rolls.shape[1]
    kf = first.shape[1]
    a = rolls[i_me]
    b = rolls[i_opp]
    # Tails summed from the far end, so that small chances keep their precision.
    tail_b = np.zeros(kr + 1)  # P(B >= n)
    for n in range(kr - 1, -1, -1):
        tail_b[n] = tail_b[n + 1] + b[n]
    win = 0.0
    for n in range(kr):
        win += a[n] * tail_b[n]
    wg = 0.0
    if opp_none_off:
        fo = first[i_opp]
        tail = 0.0  # P(F_opp >= n), n from the top down
        for n in range(kr - 1, -1, -1):
            if n < kf:
                tail += fo[n]
            wg += a[n] * tail
    lg = 0.0
    if me_none_off:
        fm = first[i_me]
        tail = 0.0  # P(F_me > m)
        for m in range(kr - 1, -1, -1):
            lg += b[m] * tail
            if m < kf:
                tail += fm[m]
    out[0] = min(1.0, max(0.0, win))
    out[1] = min(out[0], max(0.0, wg))
    out[2] = 0.0
    out[3] = min(1.0 - out[0], max(0.0, lg))
    out[4] = 0.0


@njit(cache=True)
def race_row(b, o, checkers):  # type: ignore[no-untyped-def]
    """Row of :meth:`BearoffDatabase.kernel_tables` for the side at ``b[o:o+25]`` in a
    race, or -1 when no table holds it.

    A side with every checker home (at most 15) is in the home table; one with
    at most four checkers anywhere on the 24 points, in the short-side table.
    A side with none off and a checker still in the opponent's home board
    (its 19- to 24-points) gets -1: it could lose a backgammon, which the
    tables do not count.
    """
    if b[o + 24] != 0:
        return -1
    total = 0
    home = True
    deep = False
    for i in range(24):
        a = b[o + i]
        total += a
        if a != 0 and i >= 6:
            home = False
            if i >= 18:
                deep = True
    if home and total <= MAX_CHECKERS:
        return index_of(b, o, OFFSETS)
    if total > SHORT_CHECKERS or (deep and total == checkers):
        return -1
    return N_POSITIONS + rank(b, o, SHORT_OFFSETS, SHORT_POINTS, SHORT_CHECKERS)


# -- loading ----------------------------------------------------------------------


def cache_path() -> Path:
    """Where a database built on this machine is kept: ``$XDG_CACHE_HOME/gammon`` or ``~/.cache/gammon``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gammon" / FILE_NAME


def load(progress: Callable[[int, int], None] | None = None) -> BearoffDatabase:
    """The database: the packaged copy, else the user cache, else built now and cached.

    The files are compressed (the packaged one 3.9 MB); decompressing one takes about 45 ms.
    The first load of a file writes its arrays uncompressed to :func:`unpacked_dir` (about
    35 MB, named by the file's SHA-256); later loads map those arrays (copy-on-write, about
    7 ms with the hashing), and every engine and process that maps them shares their pages instead of holding
    a private copy. A missing, damaged or unwritable copy costs only the decompression.
    Whoever needs the database keeps its own (an :class:`~gammon.ai.engine.Engine` owns the
    one it loaded): no process-wide copy.
    """
    try:
        ref = resources.files("gammon.ai") / "data" / FILE_NAME
        packaged = ref.read_bytes() if ref.is_file() else None
    except OSError:
        packaged = None
    db = _from_bytes(packaged) if packaged is not None else None
    if db is None:
        path = cache_path()
        if path.exists():
            try:
                db = _from_bytes(path.read_bytes())
            except OSError:
                db = None
        if db is None:
            db = build(progress)
            try:
                db.save(path)
            except OSError:
                pass
    return db


# -- the unpacked copy ------------------------------------------------------------

#: The arrays of the unpacked copy: name -> (dtype, shape). ``kernel_*`` are
#: :meth:`BearoffDatabase.kernel_tables`; the ``short_*`` ones are there only for a
#: database with the short-side table.
_UNPACKED: dict[str, tuple[type, tuple[int, ...]]] = {
    "rolls": (np.float32, (N_POSITIONS, MAX_ROLLS)),
    "first": (np.float32, (N_POSITIONS, MAX_FIRST)),
    "mean_rolls": (np.float64, (N_POSITIONS,)),
    "mean_first": (np.float64, (N_POSITIONS,)),
    "short_rolls": (np.float32, (N_SHORT, SHORT_MAX_ROLLS)),
    "short_first": (np.float32, (N_SHORT, SHORT_MAX_FIRST)),
    "short_mean_rolls": (np.float64, (N_SHORT,)),
    "kernel_rolls": (np.float32, (N_POSITIONS + N_SHORT, KERNEL_ROLLS)),
    "kernel_first": (np.float32, (N_POSITIONS + N_SHORT, KERNEL_FIRST)),
}
_SHORT = ("short_rolls", "short_first", "short_mean_rolls")


def unpacked_dir(digest: str) -> Path:
    """Where the arrays of the database file whose SHA-256 starts with ``digest`` are kept
    uncompressed: beside :func:`cache_path`."""
    return cache_path().parent / f"bearoff1-v{VERSION}-{digest}"


def _from_bytes(data: bytes) -> BearoffDatabase | None:
    """The database in the file ``data`` (its unpacked copy when there is a sound one; else
    decompressed, and the copy written), or None for a damaged or outdated file."""
    import hashlib

    folder = unpacked_dir(hashlib.sha256(data).hexdigest()[:16])
    db = read_unpacked(folder)
    if db is not None:
        return db
    try:
        db = BearoffDatabase.from_file(io.BytesIO(data))
    except GammonError:
        return None
    write_unpacked(db, folder)
    return db


def read_unpacked(folder: Path) -> BearoffDatabase | None:
    """The database mapped from ``folder`` (:func:`write_unpacked`), or None where it is
    missing, incomplete, of another version, or any array has the wrong type or shape."""
    import json

    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        if not isinstance(meta, dict) or meta.get("version") != VERSION:
            return None
        names = [n for n in _UNPACKED if n not in _SHORT or meta.get("short_table") is True]
        arrays: dict[str, np.ndarray] = {}
        for name in names:
            dtype, shape = _UNPACKED[name]
            # Copy-on-write, so numba types them as the writable arrays the kernels were
            # compiled for; nothing writes to them, so every mapping shares the file's pages.
            a = np.load(folder / f"{name}.npy", mmap_mode="c", allow_pickle=False)
            if a.dtype != dtype or a.shape != shape or not a.flags.c_contiguous:
                return None
            arrays[name] = np.asarray(a)
        short = None
        if meta.get("short_table") is True:
            short = (arrays["short_rolls"], arrays["short_first"], arrays["short_mean_rolls"])
        db = BearoffDatabase(arrays["rolls"], arrays["first"], arrays["mean_rolls"], arrays["mean_first"],
                             {k: v for k, v in meta.items() if k != "short_table"}, short)
        if short is not None:
            db._kernel = (arrays["kernel_rolls"], arrays["kernel_first"])
        return db
    except (OSError, ValueError, GammonError):
        return None


def write_unpacked(db: BearoffDatabase, folder: Path) -> bool:
    """Write ``db``'s arrays uncompressed into ``folder`` (made whole in a temporary folder,
    then renamed, so a reader never sees half of it); False where that cannot be done (a
    read-only cache, a full disk, another process that wrote it first)."""
    import json
    import shutil

    tmp = folder.with_name(f".{folder.name}.{os.getpid()}.tmp")
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        arrays = {"rolls": db.rolls, "first": db.first, "mean_rolls": db.mean_rolls,
                  "mean_first": db.mean_first}
        short = db.short_rolls is not None
        if short:
            arrays.update(short_rolls=db.short_rolls, short_first=db.short_first,
                          short_mean_rolls=db.short_mean_rolls)
            arrays["kernel_rolls"], arrays["kernel_first"] = db.kernel_tables()
        for name, a in arrays.items():
            np.save(tmp / f"{name}.npy", np.ascontiguousarray(a, dtype=_UNPACKED[name][0]))
        meta = {**db.meta, "version": VERSION, "short_table": short}
        (tmp / "meta.json").write_text(json.dumps(meta, sort_keys=True), encoding="utf-8")
        if folder.exists():
            # An unsound copy (read_unpacked refused it) or one another process has just
            # written: moved aside, not overwritten, so no mapping of it is truncated.
            old = folder.with_name(f".{folder.name}.{os.getpid()}.old")
            shutil.rmtree(old, ignore_errors=True)
            os.replace(folder, old)
            shutil.rmtree(old, ignore_errors=True)
        os.replace(tmp, folder)
        return True
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        return False
