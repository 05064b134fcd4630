"""Referee adapter for gammon's engine (``../shared/referee/judge.py`` beside the repository and ``duel.py``).

``choose(position_id, dice)`` returns the Position ID of the chosen play's
result from the mover's side (before the turn passes), or the input ID when
nothing can be played.  Environment:

* ``GAMMON_PLIES``: search depth (default 0);
* ``GAMMON_LEVEL``: a level name instead (``expert``, ``strongest``, ...);
* ``GAMMON_WEIGHTS``: a weights file instead of the packaged ones;
* ``GAMMON_PRUNE``: plays valued at each inner node of a 2-ply or deeper search after the
  pruning net's pre-filter (0: all; default: the level's, 0 with ``GAMMON_PLIES``);
* ``GAMMON_FILTERS``: the search's move filters instead of the level's, one ``extra:threshold``
  a stage, comma-separated (``8:0.16,4:0.06``: up to 8 plays within 0.16 of the best by 0-ply,
  then up to 4 within 0.06 by 1-ply).

Usage (from the repository root, with the venv that has gnubg-nn):
  python ../shared/referee/judge.py benchmarks/gammon_adapter.py --n 1000 --ply2
  python ../shared/referee/duel.py benchmarks/gammon_adapter.py --games 1000 --luck
"""

from __future__ import annotations

import os
from dataclasses import replace

from gammon import Position
from gammon.ai.engine import Engine
from gammon.ai.search import MoveFilter, find_level

_level = os.environ.get("GAMMON_LEVEL")
_plies = os.environ.get("GAMMON_PLIES")
_prune = int(os.environ["GAMMON_PRUNE"]) if os.environ.get("GAMMON_PRUNE") else None
_filters = os.environ.get("GAMMON_FILTERS")
_search = find_level(_level or "expert")
if _filters:
    _stages = [stage.split(":") for stage in _filters.split(",")]
    _search = replace(_search, filters=tuple(
        MoveFilter(0, int(extra), float(threshold)) for extra, threshold in _stages) + (None,))
ENGINE = (
    Engine(_search, weights=os.environ.get("GAMMON_WEIGHTS"), seed=1, prune=_prune)
    if _level
    else Engine(_search, plies=int(_plies or 0), weights=os.environ.get("GAMMON_WEIGHTS"), prune=_prune)
)
NAME = f"gammon {ENGINE.level.name} ({ENGINE.network.meta.get('games', '?')} training games)"


def choose(position_id: str, dice: tuple[int, int]) -> str:
    position = Position.from_position_id(position_id)
    play = ENGINE.best_play(position, (int(dice[0]), int(dice[1])))
    return play.position.position_id
