"""The continuous cube model: one player's cubeful match winning chances at every cube level.

Player 0's game-winning chance ``p`` drifts without jumps; the match winning chance of each
cube state is piecewise linear in ``p``; a player doubles at the opponent's take point, the
chance where the taker is indifferent between passing and owning the cube one level up, and so
on recursively up the cube levels.  Real positions jump, so the live-cube value is mixed with
the dead-cube value by a cube efficiency (Janowski's interpolation, carried over to match
winning chances).

Two users: :mod:`gammon.ai.met` builds the model match equity table's pre-Crawford entries with
it, and :mod:`gammon.ai.cube` values one position's cube decision at any score with the
position's own gammon rates.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["CUBE_LIMIT", "CubeModel", "WinMix"]

#: Highest cube value any computation considers.
CUBE_LIMIT = 4096

#: (single, gammon, backgammon) fractions of one player's wins.
WinMix = tuple[float, float, float]


class CubeModel:
    """Cubeful match winning chances of player 0 in the continuous cube model.

    ``after(a, b)`` is player 0's MWC once a game has ended with player 0
    ``a`` and player 1 ``b`` points away (1 and 0 for a won or lost match).
    ``mix0`` and ``mix1`` are the (single, gammon, backgammon) fractions of
    each player's wins.  ``p`` is always player 0's chance to win the game.

    A cube owner at level ``k`` has useful access when it is below the
    owner's need (``away > k``) and under ``cube_limit``; otherwise the cube
    is dead for that owner and the value is the dead-cube line.
    """

    def __init__(
        self,
        after: Callable[[int, int], float],
        a: int,
        b: int,
        mix0: WinMix,
        mix1: WinMix,
        efficiency: float,
        cube_limit: int = CUBE_LIMIT,
    ) -> None:
        self.after = after
        self.a = a
        self.b = b
        self.mix0 = mix0
        self.mix1 = mix1
        self.x = efficiency
        self.cube_limit = cube_limit
        self._cp: dict[int, float] = {}
        self._tp: dict[int, float] = {}
        # The end values by cube level, looked up once each (the cube search asks for them
        # hundreds of thousands of times).
        self._win: dict[int, float] = {}
        self._lose: dict[int, float] = {}

    # -- end values ------------------------------------------------------------------

    def win(self, k: int) -> float:
        """MWC when player 0 wins the game at cube ``k`` (gammons mixed in)."""
        v = self._win.get(k)
        if v is None:
            s, g, bg = self.mix0
            a, b, f = self.a, self.b, self.after
            v = self._win[k] = s * f(a - k, b) + g * f(a - 2 * k, b) + bg * f(a - 3 * k, b)
        return v

    def lose(self, k: int) -> float:
        """MWC when player 1 wins the game at cube ``k``."""
        v = self._lose.get(k)
        if v is None:
            s, g, bg = self.mix1
            a, b, f = self.a, self.b, self.after
            v = self._lose[k] = s * f(a, b - k) + g * f(a, b - 2 * k) + bg * f(a, b - 3 * k)
        return v

    def cash0(self, k: int) -> float:
        """MWC when player 0 wins ``k`` points (player 1 drops a double from ``k``)."""
        return self.after(self.a - k, self.b)

    def cash1(self, k: int) -> float:
        """MWC when player 1 wins ``k`` points."""
        return self.after(self.a, self.b - k)

    def dead(self, k: int, p: float) -> float:
        """Dead cube at level ``k``: the game is played out."""
        lo = self.lose(k)
        return lo + p * (self.win(k) - lo)

    # -- access ----------------------------------------------------------------------

    def live0(self, k: int) -> bool:
        """Whether player 0 owning the cube at ``k`` can usefully double."""
        return self.a > k and 2 * k <= self.cube_limit

    def live1(self, k: int) -> bool:
        return self.b > k and 2 * k <= self.cube_limit

    # -- owned cubes -----------------------------------------------------------------

    def own0(self, k: int, p: float, clamp: bool = True) -> float:
        """Player 0 owns the cube at ``k``.

        With ``clamp``, past player 0's cash point the live part is
        :meth:`play_on0` (he keeps the cube and plays on; he may still cash
        later); without it, it is the straight line the doubling points are
        solved on.
        """
        d = self.dead(k, p)
        if not self.live0(k):
            return d
        cp = self.cash_point0(k)
        lo = self.lose(k)
        c0 = self.cash0(k)
        if clamp and p > cp:
            live = self.play_on0(k, p)
        else:
            live = lo + (c0 - lo) * p / max(cp, 1e-9)
        return self.x * live + (1.0 - self.x) * d

    def own1(self, k: int, p: float, clamp: bool = True) -> float:
        """Player 1 owns the cube at ``k`` (``clamp``: below player 0's take point, :meth:`play_on1`)."""
        d = self.dead(k, p)
        if not self.live1(k):
            return d
        tp = self.take_point0(k)
        c1 = self.cash1(k)
        if clamp and p < tp:
            live = self.play_on1(k, p)
        else:
            live = c1 + (self.win(k) - c1) * (p - tp) / max(1.0 - tp, 1e-9)
        return self.x * live + (1.0 - self.x) * d

    def centered(self, k: int, p: float, clamp: bool = True) -> float:
        """Nobody owns the cube (at level ``k``, normally 1); ``clamp`` as for :meth:`own0`."""
        l0, l1 = self.live0(k), self.live1(k)
        if l0 and not l1:
            return self.own0(k, p, clamp)
        if l1 and not l0:
            return self.own1(k, p, clamp)
        d = self.dead(k, p)
        if not l0:
            return d
        tp = self.take_point0(k)
        cp = self.cash_point0(k)
        if cp - tp < 1e-9:
            return d
        c1 = self.cash1(k)
        c0 = self.cash0(k)
        if clamp and p > cp:
            live = self.play_on0(k, p)
        elif clamp and p < tp:
            live = self.play_on1(k, p)
        else:
            live = c1 + (c0 - c1) * (p - tp) / (cp - tp)
        return self.x * live + (1.0 - self.x) * d

    def play_on0(self, k: int, p: float) -> float:
        """Live value past player 0's cash point (``p`` above it) when he keeps his access to the cube.

        He need not cash: if ``p`` falls back to the cash point he doubles the opponent
        out then (``D0_k``), if it reaches 1 he wins ``W_k`` (gammons included).  So the
        live value is the line from ``(cp, D0_k)`` to ``(1, W_k)``, or playing the game
        out (the dead cube) when that is worth more.  With gammons it is above the cash,
        which is what makes a position too good to double.
        """
        cp = self.cash_point0(k)
        c0 = self.cash0(k)
        on = c0 + (self.win(k) - c0) * (p - cp) / max(1.0 - cp, 1e-9)
        return max(on, self.dead(k, p))

    def play_on1(self, k: int, p: float) -> float:
        """Player 1's :meth:`play_on0`: below player 0's take point, the line from ``(0, L_k)``
        to ``(tp, D1_k)``, or the dead cube when that is worth more to player 1."""
        tp = self.take_point0(k)
        c1 = self.cash1(k)
        lo = self.lose(k)
        on = lo + (c1 - lo) * p / max(tp, 1e-9)
        return min(on, self.dead(k, p))

    # -- doubling points ---------------------------------------------------------------

    def cash_point0(self, k: int) -> float:
        """Player 0's chance at which player 1 is indifferent to a double from ``k``.

        Player 1 takes below it and passes above; player 0 (with a live cube)
        doubles there.
        """
        cp = self._cp.get(k)
        if cp is None:
            cp = self._solve(lambda p: self.own1(2 * k, p, False), self.cash0(k))
            self._cp[k] = cp
        return cp

    def take_point0(self, k: int) -> float:
        """Player 0's lowest chance to take a double by player 1 from ``k``."""
        tp = self._tp.get(k)
        if tp is None:
            tp = self._solve(lambda p: self.own0(2 * k, p, False), self.cash1(k))
            self._tp[k] = tp
        return tp

    @staticmethod
    def _solve(f: Callable[[float], float], target: float) -> float:
        """The ``p`` in [0, 1] where the linear function ``f`` reaches ``target``."""
        f0 = f(0.0)
        slope = f(1.0) - f0
        if slope <= 1e-12:
            return 1.0 if target > f0 else 0.0
        return min(1.0, max(0.0, (target - f0) / slope))

