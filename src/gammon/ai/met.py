"""Our own match equity table (MET): a model of the game and the cube, with its pre-Crawford
entries to 15-away replaced by our own cubeful rollouts.

Nothing here comes from another program or a published table (see ``docs/match_equity.md``).
The **model** (:class:`MatchEquityTable`) is computed at import from a handful of documented
parameters, in three parts:

* **Post-Crawford** (the leader 1-away): the trailer doubles at once in every
  game (the leader's cube is dead) and the leader takes or drops, whichever
  leaves the trailer less.  The double is assumed to come when the trailer's
  game chances have drifted a little from 50% (three points, 50% +- ``spread``
  * sqrt(3), weights 1/6, 2/3, 1/6), so the leader's *free drop* at an even
  number away from the trailer is worth something.
* **Crawford game**: no cube; a single, gammon or backgammon for the trailer
  leads to the post-Crawford score it reaches.
* **Pre-Crawford** (both 2-away or more): the continuous cube model of
  :mod:`gammon.ai.cube_model`, the live-cube value mixed with the dead-cube value by a cube
  efficiency ``x``.

Wins are singles, gammons and backgammons in fixed proportions (``gammons``
of all games won, backgammons included, ``backgammons`` of them backgammons).

The **table in use** (:func:`default_met`) is the model with every pre-Crawford entry to
15-away taken from our own cubeful rollouts of the opening at that score (``gammon train met``,
shipped as ``data/met_rollouts.json``: :class:`RolloutMatchEquityTable`).  They stand closer to
what strong play gives than the model: the model is 0.73% from the field's standard table on
average there, the rollouts 0.46% (``benchmarks/results/met_rollouts_15.txt``).  A user's
table (GNU Backgammon's XML format) replaces it through :func:`met_in_use`.

>>> met = default_met()
>>> met.equity(1, 1)
0.5
>>> round(met.equity(2, 2), 3)
0.5
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from gammon.ai.cube_model import CubeModel, WinMix
from gammon.core.errors import GammonError
from gammon.formats.met_file import MetFile, read_met
from gammon.formats.met_rollout_file import read_rollout_met

__all__ = [
    "OUR_TABLE_NAME",
    "ROLLOUT_TABLE_FILE",
    "ROLLOUT_TABLE_NAME",
    "LoadedMatchEquityTable",
    "MatchEquityTable",
    "MetParameters",
    "RolloutMatchEquityTable",
    "default_met",
    "load_met",
    "load_rollout_met",
    "met_in_use",
]

#: The name reports give the model table alone.
OUR_TABLE_NAME = "gammon (own model)"

#: The name reports give our table with our own rolled-out pre-Crawford entries (the one in use).
ROLLOUT_TABLE_NAME = "gammon (own rollouts)"

#: Our rolled-out pre-Crawford entries to 15-away, shipped with the package: the table in use.
ROLLOUT_TABLE_FILE = Path(__file__).resolve().parent / "data" / "met_rollouts.json"


@dataclass(frozen=True, slots=True)
class MetParameters:
    """The assumptions the table is computed from (see ``docs/match_equity.md``).

    ``gammons``: fraction of games won that are gammons or backgammons;
    ``backgammons``: fraction that are backgammons; ``efficiency``: cube
    efficiency of the pre-Crawford cube model (0 dead, 1 fully live);
    ``spread``: standard deviation of the trailer's game chances when his
    post-Crawford double arrives (the value of the leader's free drop).
    """

    gammons: float = 0.26
    backgammons: float = 0.01
    efficiency: float = 0.68
    spread: float = 0.05

    def __post_init__(self) -> None:
        if not 0.0 <= self.backgammons <= self.gammons <= 1.0:
            raise GammonError("need 0 <= backgammons <= gammons <= 1")
        if not 0.0 <= self.efficiency <= 1.0:
            raise GammonError("cube efficiency must be between 0 and 1")
        if not 0.0 <= self.spread < 0.25:
            raise GammonError("spread must be between 0 and 0.25")

    @property
    def mix(self) -> WinMix:
        """(single, gammon, backgammon) fractions of the games won."""
        return (1.0 - self.gammons, self.gammons - self.backgammons, self.backgammons)


class MatchEquityTable:
    """Match winning chances by score, computed from :class:`MetParameters`.

    Scores are given as points *away* (needed to win).  ``equity(a, b)`` is
    player 0's chance to win the match at the start of a game with player 0
    ``a``-away and player 1 ``b``-away, cube centred at 1.  When one side is
    1-away, ``crawford=True`` means this game is the Crawford game (no cube),
    ``False`` a post-Crawford game.

    >>> met = MatchEquityTable(max_away=7)
    >>> met.equity(3, 1, crawford=True) + met.equity(1, 3, crawford=True)
    1.0
    """

    #: What reports call the table.
    name = OUR_TABLE_NAME

    def __init__(self, parameters: MetParameters | None = None, max_away: int = 25) -> None:
        if max_away < 1:
            raise GammonError("the table needs max_away of 1 or more")
        self.parameters = parameters or MetParameters()
        self.max_away = max_away
        self._build()

    # -- building ----------------------------------------------------------------------

    def _build(self) -> None:
        n = self.max_away
        prm = self.parameters
        s, g, bg = prm.mix
        # Post-Crawford: trailer's MWC at n-away against a 1-away leader.
        t = [0.0] * (n + 1)
        t[0] = 1.0
        if n >= 1:
            t[1] = 0.5
        d = prm.spread * math.sqrt(3.0)
        points = ((0.5 - d, 1.0 / 6.0), (0.5, 2.0 / 3.0), (0.5 + d, 1.0 / 6.0))

        def tv(k: int) -> float:
            return 1.0 if k <= 0 else t[k]

        for m in range(2, n + 1):
            win = s * tv(m - 2) + g * tv(m - 4) + bg * tv(m - 6)
            drop = tv(m - 1)
            t[m] = sum(w * min(q * win, drop) for q, w in points)
        self._post = t
        # Crawford game: trailer's MWC (no cube, the next games post-Crawford).
        c = [0.0] * (n + 1)
        c[0] = 1.0
        if n >= 1:
            c[1] = 0.5
        for m in range(2, n + 1):
            c[m] = 0.5 * (s * tv(m - 1) + g * tv(m - 2) + bg * tv(m - 3))
        self._craw = c
        # Pre-Crawford, both 2-away or more, in order of a + b.
        pre = [[0.5] * (n + 1) for _ in range(n + 1)]
        self._pre = pre
        mix = prm.mix

        def after(a: int, b: int) -> float:
            # after_pre without the checks: a side reaching 1-away plays the Crawford game.
            if a <= 0:
                return 1.0
            if b <= 0:
                return 0.0
            if a == 1:
                return 1.0 - c[b] if b > 1 else 0.5
            if b == 1:
                return c[a]
            return pre[a][b]

        for total in range(4, 2 * n + 1):
            for a in range(max(2, total - n), min(n, total - 2) + 1):
                b = total - a
                model = CubeModel(after, a, b, mix, mix, prm.efficiency)
                pre[a][b] = model.centered(1, 0.5)

    # -- lookups -------------------------------------------------------------------------

    def _check(self, a: int, b: int) -> None:
        if max(a, b) > self.max_away:
            raise GammonError(
                f"the match equity table reaches {self.max_away} points away, not {max(a, b)}"
            )

    def equity(self, away0: int, away1: int, crawford: bool = False) -> float:
        """Player 0's match winning chance at the start of a game (cube centred at 1).

        ``crawford``: with one side 1-away, whether this game is the Crawford
        game (otherwise post-Crawford).  A side 0 or fewer away has won.

        :raises GammonError: a score beyond the table (``max_away``).
        """
        a, b = int(away0), int(away1)
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        self._check(a, b)
        if a == 1 and b == 1:
            return 0.5
        if a == 1:
            return 1.0 - (self._craw[b] if crawford else self._post[b])
        if b == 1:
            return self._craw[a] if crawford else self._post[a]
        return self._pre[a][b]

    def after_pre(self, away0: int, away1: int) -> float:
        """MWC at the score reached by a pre-Crawford game: a side now 1-away starts the Crawford game."""
        return self.equity(away0, away1, crawford=True)

    def after_post(self, away0: int, away1: int) -> float:
        """MWC at the score reached by the Crawford game or a post-Crawford game."""
        return self.equity(away0, away1, crawford=False)

    def after_game(self, away0: int, away1: int, post_crawford: bool = False) -> float:
        """MWC once a game has ended at this score.

        ``post_crawford``: the game just played was the Crawford game or a later one.
        """
        return self.after_post(away0, away1) if post_crawford else self.after_pre(away0, away1)

    def mwc(self, score0: int, score1: int, length: int, crawford: bool = False) -> float:
        """:meth:`equity` by points scored in a match of ``length`` points."""
        if length < 1:
            raise GammonError("match length must be 1 or more")
        return self.equity(length - score0, length - score1, crawford)

    # -- money-equivalent equity --------------------------------------------------------

    def _bounds(self, away0: int, away1: int, cube: int, post_crawford: bool) -> tuple[float, float]:
        if cube < 1:
            raise GammonError("the cube value must be 1 or more")
        win = self.after_game(away0 - cube, away1, post_crawford)
        lose = self.after_game(away0, away1 - cube, post_crawford)
        return win, lose

    def emg_to_mwc(
        self, emg: float, away0: int, away1: int, cube: int = 1, post_crawford: bool = False
    ) -> float:
        """Match winning chance of a money-equivalent equity (EMG) at this score and cube.

        EMG +1 is winning ``cube`` points, -1 losing them, linear between and beyond.
        ``post_crawford`` as in :meth:`after_game`.
        """
        win, lose = self._bounds(away0, away1, cube, post_crawford)
        return lose + (emg + 1.0) * 0.5 * (win - lose)

    def mwc_to_emg(
        self, mwc: float, away0: int, away1: int, cube: int = 1, post_crawford: bool = False
    ) -> float:
        """The inverse of :meth:`emg_to_mwc` (0 when winning and losing ``cube`` are alike)."""
        win, lose = self._bounds(away0, away1, cube, post_crawford)
        if abs(win - lose) < 1e-12:
            return 0.0
        return 2.0 * (mwc - lose) / (win - lose) - 1.0

    # -- views ----------------------------------------------------------------------------

    def table(self, size: int | None = None) -> list[list[float]]:
        """The table as usually printed: ``[a-1][b-1]`` for 1..size away.

        Entries with a side 1-away are the Crawford game's.
        """
        n = self.max_away if size is None else min(size, self.max_away)
        return [[self.equity(a, b, crawford=True) for b in range(1, n + 1)] for a in range(1, n + 1)]

    def crawford_row(self, size: int | None = None) -> list[float]:
        """The leader's (1-away) MWC in the Crawford game against 1..size away."""
        n = self.max_away if size is None else min(size, self.max_away)
        return [self.equity(1, b, crawford=True) for b in range(1, n + 1)]

    def post_crawford_row(self, size: int | None = None) -> list[float]:
        """The leader's (1-away) MWC post-Crawford against 1..size away."""
        n = self.max_away if size is None else min(size, self.max_away)
        return [self.equity(1, b) for b in range(1, n + 1)]

    def format(self, size: int = 9) -> str:
        """:meth:`table` as text: rows player 0 away, columns player 1 away, in percent."""
        n = min(size, self.max_away)
        head = "away " + "".join(f"{b:>6}" for b in range(1, n + 1))
        rows = [head]
        for a, row in enumerate(self.table(n), start=1):
            rows.append(f"{a:>4} " + "".join(f"{100 * v:6.1f}" for v in row))
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"MatchEquityTable({self.parameters!r}, max_away={self.max_away})"


class LoadedMatchEquityTable(MatchEquityTable):
    """A published table read from a file (:func:`gammon.formats.met_file.read_met`), used
    exactly as our own: the same lookups, take points and money-equivalent conversions.

    It reaches the file's match length and no further: a longer match raises
    :class:`GammonError` as our own table does beyond its size.
    """

    def __init__(self, data: MetFile) -> None:
        self.parameters = MetParameters()
        self.max_away = data.length
        self.name = data.name or "loaded table"
        self.description = data.description
        n = data.length
        # The trailer's post-Crawford chance by points away (index 0: the trailer has won).
        self._post = [1.0] + [data.post[j] for j in range(n)]
        # The trailer's chance in the Crawford game: one minus the leader's (1-away) entry.
        self._craw = [1.0, 0.5] + [1.0 - data.pre[0][b - 1] for b in range(2, n + 1)]
        self._pre = [[0.5] * (n + 1) for _ in range(n + 1)]
        for a in range(2, n + 1):
            for b in range(2, n + 1):
                self._pre[a][b] = data.pre[a - 1][b - 1]

    def __repr__(self) -> str:
        return f"LoadedMatchEquityTable({self.name!r}, max_away={self.max_away})"


def load_met(path: Path | str) -> LoadedMatchEquityTable:
    """The table in GNU Backgammon's XML format at ``path``.

    :raises GammonError: the file is unreadable or not such a table (the message says why).
    """
    return LoadedMatchEquityTable(read_met(path))


class RolloutMatchEquityTable(MatchEquityTable):
    """Our model table with pre-Crawford entries from our own cubeful rollouts: ``entries``
    maps ``(a, b)``, ``2 <= a < b``, to player 0's chance; ``(b, a)`` is its complement,
    ``(a, a)`` 1/2, every other score the model's (the Crawford game, post-Crawford, scores
    not rolled out).  A ``gammon train met`` run plays its cube with it while it builds;
    ``rolled`` keeps the entries given, so a run can say which scores it had rolled out.

    :raises GammonError: an entry outside the table or not a chance.
    """

    name = ROLLOUT_TABLE_NAME

    def __init__(self, entries: Mapping[tuple[int, int], float], max_away: int = 25,
                 parameters: MetParameters | None = None) -> None:
        super().__init__(parameters, max_away)
        for a in range(2, max_away + 1):
            self._pre[a][a] = 0.5  # exactly, by symmetry (the model's is 1/2 to rounding)
        for (a, b), v in entries.items():
            if not 2 <= a < b <= max_away or not 0.0 <= v <= 1.0:
                why = "is not a chance" if 2 <= a < b <= max_away else f"is outside the table (to {max_away})"
                raise GammonError(f"the rolled-out entry {a}-away/{b}-away {why}: {v!r}")
            self._pre[a][b] = float(v)
            self._pre[b][a] = 1.0 - float(v)
        self.rolled = dict(entries)


def load_rollout_met(path: Path | str, max_away: int = 25) -> RolloutMatchEquityTable:
    """Our table with the pre-Crawford entries of a ``gammon train met`` file at ``path``, the
    model elsewhere; it reaches ``max_away`` or the file's reach, whichever is more.

    :raises GammonError: the file is unreadable or malformed (the message says why).
    """
    data = read_rollout_met(path)
    entries = {k: e.mwc for k, e in data.entries.items()}
    return RolloutMatchEquityTable(entries, max(max_away, data.max_away))


_lock = threading.Lock()
_tables: dict[int, MatchEquityTable] = {}
#: The table a user chose for what runs in this context (None: our own).
_chosen: ContextVar[MatchEquityTable | None] = ContextVar("gammon_met", default=None)


@contextmanager
def met_in_use(table: MatchEquityTable | None) -> Iterator[MatchEquityTable]:
    """Make ``table`` the one :func:`default_met` gives inside the ``with`` block (this thread or
    task only; None leaves our own).  How ``--met FILE`` reaches every cube and match-equity
    figure of an analysis without each call passing it.
    """
    token = _chosen.set(table)
    try:
        yield table if table is not None else default_met()
    finally:
        _chosen.reset(token)


def default_met(max_away: int = 25) -> MatchEquityTable:
    """The table in use: a table chosen by :func:`met_in_use`, else ours (the model with our
    rolled-out pre-Crawford entries, :data:`ROLLOUT_TABLE_FILE`), built once (larger on demand).

    :raises GammonError: a chosen table shorter than ``max_away``.
    """
    chosen = _chosen.get()
    if chosen is not None:
        if max_away > chosen.max_away:
            raise GammonError(f"the match equity table {chosen.name!r} reaches {chosen.max_away} "
                              f"points away, not {max_away}")
        return chosen
    with _lock:
        size = max(25, max_away)
        best = max(_tables) if _tables else 0
        if best >= size:
            return _tables[best]
        table = load_rollout_met(ROLLOUT_TABLE_FILE, size)
        _tables[size] = table
        return table
