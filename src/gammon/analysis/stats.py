"""Per-player and per-game figures from analysed decisions (see :mod:`gammon.analysis.marks`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from gammon.analysis.decisions import CUBE_ERRORS, Decision
from gammon.analysis.marks import MARK_NAMES, performance_rating, rating_name
from gammon.core.cube import CubeAction


def _rate(total: float, n: int) -> float | None:
    return None if n == 0 else 1000.0 * total / n


@dataclass(slots=True)
class PlayerStats:
    """One player's figures over a game or match.

    Losses and luck are normalised equity (EMG); ``*_rate`` in mEMG per
    decision; ``luck_points`` in points (money: luck times the cube);
    ``luck_mwc`` and ``mwc_lost`` in match winning chance (match play).
    """

    name: str
    moves: int = 0
    unforced_moves: int = 0
    checker_loss: float = 0.0
    cube_decisions: int = 0
    close_cube_decisions: int = 0
    cube_loss: float = 0.0
    mwc_lost: float = 0.0
    marks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MARK_NAMES, 0))
    checker_marks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MARK_NAMES, 0))
    cube_marks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MARK_NAMES, 0))
    cube_errors: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CUBE_ERRORS, 0))
    resign_decisions: int = 0
    resign_loss: float = 0.0
    resign_errors: dict[str, int] = field(default_factory=lambda: {
        "wrong resignation": 0, "wrong acceptance": 0, "wrong refusal": 0})
    doubles: int = 0
    takes: int = 0
    passes: int = 0
    luck: float = 0.0
    luck_points: float = 0.0
    luck_mwc: float = 0.0
    rolls: int = 0
    lucky: int = 0
    very_lucky: int = 0
    unlucky: int = 0
    very_unlucky: int = 0

    def add(self, d: Decision) -> None:
        """Count one decision of this player."""
        if d.mark is not None:
            self.marks[d.mark] += 1
        if d.mwc_lost is not None:
            self.mwc_lost += d.mwc_lost
        if d.kind == "move":
            self.moves += 1
            if not d.forced:
                self.unforced_moves += 1
                self.checker_loss += d.equity_lost
                if d.mark is not None:
                    self.checker_marks[d.mark] += 1
            if d.luck is not None:
                self.rolls += 1
                self.luck += d.luck
                self.luck_points += d.luck * d.cube_value
                self.luck_mwc += d.luck_mwc or 0.0
                lm = d.luck_mark
                if lm == "very lucky":
                    self.very_lucky += 1
                elif lm == "lucky":
                    self.lucky += 1
                elif lm == "unlucky":
                    self.unlucky += 1
                elif lm == "very unlucky":
                    self.very_unlucky += 1
            return
        if d.kind == "choice":  # Acey-Deucey's double: a way to play on, counted with the checker play
            self.unforced_moves += 1
            self.checker_loss += d.equity_lost
            if d.mark is not None:
                self.checker_marks[d.mark] += 1
            return
        if d.kind == "resign":
            self.resign_decisions += 1
            self.resign_loss += d.equity_lost
            if d.error_kind in self.resign_errors:
                self.resign_errors[d.error_kind] += 1
            return
        self.cube_decisions += 1
        if d.close:
            self.close_cube_decisions += 1
        self.cube_loss += d.equity_lost
        if d.mark is not None:
            self.cube_marks[d.mark] += 1
        if d.error_kind in self.cube_errors:
            self.cube_errors[d.error_kind] += 1
        if d.kind == "cube" and d.played == CubeAction.DOUBLE:
            self.doubles += 1
        elif d.kind == "take":
            if d.played == CubeAction.DROP:
                self.passes += 1
            else:
                self.takes += 1

    @property
    def checker_error_rate(self) -> float | None:
        """mEMG lost per unforced move."""
        return _rate(self.checker_loss, self.unforced_moves)

    @property
    def cube_error_rate(self) -> float | None:
        """mEMG lost per close cube decision."""
        return _rate(self.cube_loss, self.close_cube_decisions)

    @property
    def decisions(self) -> int:
        return self.unforced_moves + self.close_cube_decisions + self.resign_decisions

    @property
    def error_rate(self) -> float | None:
        """mEMG lost per decision (unforced moves, close cube decisions and resignations)."""
        return _rate(self.checker_loss + self.cube_loss + self.resign_loss, self.decisions)

    @property
    def pr(self) -> float | None:
        return performance_rating(self.error_rate)

    def to_dict(self) -> dict[str, Any]:
        def r(x: float | None, n: int = 2) -> float | None:
            return None if x is None else round(x, n)

        out = asdict(self)
        for k in ("checker_loss", "cube_loss", "resign_loss", "luck", "luck_points"):
            out[k] = round(out[k], 4)
        out["mwc_lost"] = round(self.mwc_lost, 5)
        out["luck_mwc"] = round(self.luck_mwc, 5)
        rate = self.error_rate
        out.update(
            checker_error_rate=r(self.checker_error_rate), cube_error_rate=r(self.cube_error_rate),
            error_rate=r(rate), decisions=self.decisions, pr=r(self.pr),
            rating=rating_name(None if rate is None else rate / 1000.0),
            luck_per_roll_memg=r(_rate(self.luck, self.rolls)),
        )
        return out


def player_stats(names: Sequence[str], decisions: Sequence[Decision]) -> list[PlayerStats]:
    """Both players' figures over ``decisions``."""
    out = [PlayerStats(str(names[0])), PlayerStats(str(names[1]))]
    for d in decisions:
        out[d.player].add(d)
    return out


def luck_difference_points(decisions: Sequence[Decision]) -> float:
    """Player 0's luck minus player 1's, in points (each roll's luck times its cube)."""
    total = 0.0
    for d in decisions:
        if d.kind == "move" and d.luck is not None:
            total += d.luck * d.cube_value * (1 if d.player == 0 else -1)
    return total


def luck_difference_mwc(decisions: Sequence[Decision]) -> float:
    """Player 0's luck minus player 1's in match winning chance."""
    total = 0.0
    for d in decisions:
        if d.kind == "move" and d.luck_mwc is not None:
            total += d.luck_mwc * (1 if d.player == 0 else -1)
    return total


__all__ = ["PlayerStats", "luck_difference_mwc", "luck_difference_points", "player_stats"]
