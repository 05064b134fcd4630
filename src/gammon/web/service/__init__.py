"""The game service, one job per module, with no HTTP or WebSocket in sight.

* :mod:`.games`: :class:`GameService` (view, act, clocks, the computer's turns, records), built on
  :mod:`.base` (settings, the games in memory, locks, listeners) and :mod:`.seating` (create,
  join, rematches, the lobby, cancelling);
* :mod:`.live`: a game replayed in memory and driven by its session;
* :mod:`.tokens`: seat tokens, invitations, seeds;
* :mod:`.commands`: a client's command to the engine's action;
* :mod:`.views`: what a seat or a spectator sees, as the API's own models (:mod:`gammon.web.schemas`);
* :mod:`.records`: the dice check, exports, hints and the analysis;
* :mod:`.requests`, :mod:`.errors`: what clients ask, and what the service refuses.
"""

from __future__ import annotations

from gammon.web.service.errors import (
    BusyError,
    ConflictError,
    ForbiddenError,
    GoneError,
    InvalidError,
    NotFoundError,
    ServiceError,
)
from gammon.web.service.games import Acted, Change, Created, GameService, JoinedSeat, Updates
from gammon.web.service.requests import COMMAND_TYPES, Command, GameSetup
from gammon.web.service.tokens import computer_seed, hash_token, token_id

__all__ = [
    "COMMAND_TYPES",
    "Acted",
    "BusyError",
    "Change",
    "Command",
    "ConflictError",
    "Created",
    "ForbiddenError",
    "GameService",
    "GameSetup",
    "GoneError",
    "InvalidError",
    "JoinedSeat",
    "NotFoundError",
    "ServiceError",
    "Updates",
    "computer_seed",
    "hash_token",
    "token_id",
]
