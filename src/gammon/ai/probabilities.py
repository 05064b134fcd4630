"""The five chances of a backgammon game and what they are worth: the one place for the formulas.

The field writes a cubeless evaluation as five probabilities for one player:
win, win a gammon, win a backgammon, lose a gammon, lose a backgammon
(gammons count backgammons).  Cubeless money equity is
``2 win - 1 + wg - lg + wbg - lbg``; the other player sees
``(1 - win, lg, lbg, wg, wbg)``.

:class:`Probabilities` is the scalar type (a named tuple of five floats: what the
engine's API returns for a position or a play); :func:`equities` and
:func:`flip_rows` do the same for ``(n, 5)`` arrays.  The compiled kernels
have their own numba copies (:func:`gammon.ai.network.equity_of` and
:func:`gammon.ai.network.flip_into`), which a test checks against these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from gammon.core.errors import GammonError


class Probabilities(NamedTuple):
    """Five chances for one player (see the module doc).

    A tuple: it unpacks, indexes and compares like the five numbers in the field's order.
    """

    win: float
    win_gammon: float = 0.0
    win_backgammon: float = 0.0
    lose_gammon: float = 0.0
    lose_backgammon: float = 0.0

    @classmethod
    def of(cls, values: Sequence[float] | np.ndarray | Probabilities) -> Probabilities:
        """From five numbers in the field's order.

        :raises GammonError: not five finite numbers.
        """
        if isinstance(values, Probabilities):
            return values
        try:
            vals = [float(v) for v in values]
        except (TypeError, ValueError):
            raise GammonError("probabilities must be five numbers") from None
        if len(vals) != 5 or not all(np.isfinite(vals)):
            raise GammonError(f"probabilities must be five finite numbers, not {values!r}")
        return cls(*vals)

    @property
    def lose(self) -> float:
        return 1.0 - self.win

    @property
    def equity(self) -> float:
        """Cubeless money equity: ``2 win - 1 + wg - lg + wbg - lbg``."""
        return (2.0 * self.win - 1.0 + self.win_gammon - self.lose_gammon
                + self.win_backgammon - self.lose_backgammon)

    def flipped(self) -> Probabilities:
        """The same game seen by the other player."""
        return Probabilities(1.0 - self.win, self.lose_gammon, self.lose_backgammon,
                             self.win_gammon, self.win_backgammon)

    def single_wins_only(self) -> Probabilities:
        """Gammons and backgammons counted as single games."""
        return Probabilities(self.win)

    def as_tuple(self) -> tuple[float, float, float, float, float]:
        """The five numbers as a plain tuple."""
        return (self.win, self.win_gammon, self.win_backgammon, self.lose_gammon,
                self.lose_backgammon)

    @classmethod
    def of_row(cls, row: Sequence[float] | np.ndarray) -> Probabilities:
        """Five numbers (a row of an ``(n, 5)`` array) as Python floats, unchecked: the kernels' output."""
        values = row.tolist() if isinstance(row, np.ndarray) else [float(v) for v in row]
        return cls._make(values)


def equities(rows: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
    """Cubeless money equities of ``(n, 5)`` probabilities (or of one row: shape ``(1,)``)."""
    p = np.asarray(rows, dtype=np.float64).reshape(-1, 5)
    out: np.ndarray = 2.0 * p[:, 0] - 1.0 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]
    return out


def equity(values: Sequence[float] | np.ndarray | Probabilities) -> float:
    """Cubeless money equity of five probabilities."""
    return float(equities(np.asarray(tuple(values), dtype=np.float64))[0])


def flip_rows(rows: np.ndarray) -> np.ndarray:
    """``(n, 5)`` probabilities seen by the other player (a new array)."""
    p = np.asarray(rows, dtype=np.float64).reshape(-1, 5)
    out: np.ndarray = np.stack([1.0 - p[:, 0], p[:, 3], p[:, 4], p[:, 1], p[:, 2]], axis=1)
    return out


__all__ = ["Probabilities", "equities", "equity", "flip_rows"]
