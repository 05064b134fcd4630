"""Hints for the browser page: the best plays of a roll, ranked by the strongest engine at hand.

(The analysis after a game, marks included, is :mod:`gammon.analysis`'s: see
:mod:`gammon.web.service.analysis`.)

The neural engine of :mod:`gammon.ai` (``Engine("expert")``: the nets, no
lookahead) ranks the plays with cubeless money equities when it can be
imported and loaded; otherwise, or when it fails on a position (a variant its
nets were not made for), the fast heuristic of :mod:`gammon.play.players`
orders them, without equities.  One engine serves the whole process, behind a
lock (its search buffers are shared).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gammon.core.plays import Play
from gammon.core.position import Position

log = logging.getLogger("gammon.web")

#: The engine level hints use.
HINT_LEVEL = "expert"


@dataclass(frozen=True, slots=True)
class RankedHint:
    """One candidate play: equity and difference to the best are None from the heuristic."""

    play: Play
    equity: float | None
    difference: float | None
    win: float | None


class _EngineHolder:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.engine: Any = None
        self.failed = False

    def get(self) -> Any:
        """The shared engine, loaded on first use; None when gammon.ai cannot provide one."""
        if self.engine is None and not self.failed:
            try:
                from gammon.ai.engine import Engine

                self.engine = Engine(HINT_LEVEL)
            except Exception:  # not importable yet, or no weights: the heuristic stands in
                log.info("hints: the neural engine is unavailable; using the heuristic", exc_info=True)
                self.failed = True
        return self.engine


_holder = _EngineHolder()


def _by_engine(position: Position, dice: tuple[int, int], match: object | None = None,
               ) -> list[RankedHint] | None:
    with _holder.lock:
        engine = _holder.get()
        if engine is None:
            return None
        try:
            ranked = engine.rank_plays(position, dice, match)
        except Exception:
            log.warning("hints: the engine failed on %s %s; using the heuristic", position.position_id,
                        dice, exc_info=True)
            return None
    return [RankedHint(r.play, float(r.equity), float(r.difference), float(r.probabilities[0]))
            for r in ranked]


def _by_heuristic(position: Position, dice: tuple[int, int]) -> list[RankedHint]:
    from gammon.play.players import score_positions

    plays = position.legal_plays(dice)
    if len(plays) == 0:
        return []
    scores = score_positions(plays.positions())
    order = sorted(range(len(plays)), key=lambda i: -float(scores[i]))
    return [RankedHint(plays[i], None, None, None) for i in order]


def rank_for_hint(position: Position, dice: Sequence[int], count: int = 5,
                  match: object | None = None) -> tuple[str, list[RankedHint]]:
    """The name of the ranking used and the ``count`` best plays for ``dice`` in ``position``,
    valued at the score and cube ``match`` (a ``CubeInfo``, ``Game`` or ``Match``; None: money).

    An empty list means nothing can be played.
    """
    d = (int(dice[0]), int(dice[1]))
    ranked = _by_engine(position, d, match)
    name = f"gammon.ai {HINT_LEVEL}"
    if ranked is None:
        ranked, name = _by_heuristic(position, d), "heuristic"
    return name, ranked[:count] if count > 0 else ranked


__all__ = [
    "HINT_LEVEL", "RankedHint", "rank_for_hint",
]
