"""The game service's side of finding an opponent: a pair from the queue or a challenge becomes a
game between two accounts, each seat the account's (see :mod:`.matchmaking` for who is paired).

The game is an ordinary invitation game (:meth:`Seating.create_game`, then :meth:`Seating.join`
for the second player), so everything seating checks holds; neither seat token is handed out
here: each player takes a token for their account's seat with ``POST
/api/account/games/{id}/token``, from whichever device they are on.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime

from gammon.store.accounts import AccountRecord
from gammon.web.account_names import name_key
from gammon.web.service.accounts import AccountService
from gammon.web.service.games import GameService
from gammon.web.service.matchmaking import Challenges, MatchQueue, Paired, Presence, Seeker
from gammon.web.service.ratings import RatingService
from gammon.web.service.requests import GameSetup


@dataclass
class Finding:
    """The rated queue, the challenges and the online list of one server process."""

    games: GameService
    accounts: AccountService
    ratings: RatingService
    queue: MatchQueue = field(init=False)
    challenges: Challenges = field(init=False)
    presence: Presence = field(default_factory=Presence)

    def __post_init__(self) -> None:
        self.queue = MatchQueue(self.start_match)
        self.challenges = Challenges(self.start_match)

    def seeker(self, account: AccountRecord, address: str | None) -> Seeker:
        """The account as the queue sees it: its rating now."""
        return Seeker(account.id, account.name, self.ratings.standing(account.id).rating, address, account)

    def start_match(self, first: Seeker, second: Seeker, length: int) -> Paired:
        """A rated match of ``length`` points between two accounts, seats drawn at random."""
        seats = [first, second]
        if secrets.randbelow(2):
            seats.reverse()
        host, guest = seats
        created = self.games.create_game(GameSetup(opponent="human", match_length=length, seat=0,
                                                   name=host.name, opponent_name=guest.name))
        assert created.invite_token is not None
        joined = self.games.join(created.game_id, created.invite_token, guest.name)
        for seeker, seat in ((host, created.seat), (guest, joined.seat)):
            assert seeker.account is not None
            self.accounts.take_seat(seeker.account, created.game_id, seat, seeker.address)
        return Paired(created.game_id, {host.account_id: created.seat, guest.account_id: joined.seat})

    def account_named(self, name: str) -> AccountRecord | None:
        """The account called ``name`` (as folded: the same as sign-up's uniqueness), or None."""
        if not isinstance(name, str) or len(name) > 100:
            return None
        return self.accounts.store.by_key(name_key(name))

    def live_games(self, limit: int = 100) -> list[LiveEntry]:
        """Games between two people being played now (in this process's memory), latest move first."""
        out = []
        for lg in self.games.cached_games():
            if lg.status != "active" or lg.is_over or lg.is_computer(0) or lg.is_computer(1):
                continue
            score = lg.match.score
            out.append(LiveEntry(lg.id, (str(lg.seats[0].get("name", "")), str(lg.seats[1].get("name", ""))),
                                 lg.rules.match_length, (int(score[0]), int(score[1])), lg.updated_at))
        out.sort(key=lambda e: e.updated_at, reverse=True)
        return out[:limit]


@dataclass(frozen=True, slots=True)
class LiveEntry:
    """A game being played, as the list of games to watch shows it."""

    game_id: str
    players: tuple[str, str]
    match_length: int
    score: tuple[int, int]
    updated_at: datetime


__all__ = ["Finding", "LiveEntry"]
