"""Seating players: creating games, invitations and joining, rematches, the lobby, expiry, cancelling.

:class:`Seating` is the part of :class:`~gammon.web.service.games.GameService` that fills
a game's seats and calls a game off before it is played; nothing here plays an action
(that is :mod:`gammon.web.service.games`, through each game's session).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from gammon.core.dice import CryptoDice
from gammon.core.errors import GammonError
from gammon.core.game import Rules
from gammon.core.variants import find_variant
from gammon.formats.record_json import rules_to_data
from gammon.store import NewGameRow, VersionConflict
from gammon.web.computer import DEFAULT_LEVEL, check_level
from gammon.web.names import normalize_name
from gammon.web.schemas import GameState, Invitation, LobbyGame
from gammon.web.service.base import Created, JoinedSeat, ServiceBase, log
from gammon.web.service.clock import clock_settings
from gammon.web.service.errors import (
    ConflictError,
    ForbiddenError,
    GoneError,
    InvalidError,
    NotFoundError,
    ServiceError,
)
from gammon.web.service.live import LiveGame
from gammon.web.service.requests import GameSetup
from gammon.web.service.tokens import hash_token
from gammon.web.service.views import game_view, rules_view


class Seating(ServiceBase):
    """Creating and joining games, rematches, the lobby, expiry and cancelling (see the module)."""

    # -- creating and joining ------------------------------------------------------------

    def create_game(self, setup: GameSetup, host: str | None = None) -> Created:
        """A new game with the creator in ``setup.seat``; the other seat is the computer or a guest.

        ``host`` names the creator (the web layer passes the address) for the limit on public
        games: one host has at most :attr:`max_public_per_host` of them waiting in the lobby
        (counted in this process's memory; None: not counted).

        :raises InvalidError: impossible settings.
        :raises ConflictError: the host's public games already fill its share of the lobby
            (``too_many_public_games``).
        """
        if host is not None and setup.public and setup.opponent == "human" and setup.rematch_of is None:
            with self._hosts_lock:  # one host's creations one at a time: two at once cannot both fit
                waiting = self._waiting_public(host)
                if len(waiting) >= self.max_public_per_host:
                    raise ConflictError(
                        f"you have {len(waiting)} public games waiting in the lobby already: cancel one, "
                        "or wait for a guest", "too_many_public_games")
                created = self._create(setup)
                self._public_hosts[host] = [*waiting, created.game_id]
                self._public_hosts.move_to_end(host)
                while len(self._public_hosts) > 10_000:  # bounded: the oldest hosts are forgotten
                    self._public_hosts.popitem(last=False)
                return created
        return self._create(setup)

    def _waiting_public(self, host: str) -> list[str]:
        """The games of ``host``'s list that still wait in the lobby."""
        waiting = []
        for game_id in self._public_hosts.get(host, []):
            with self._lock(game_id):
                try:
                    lg = self._current(game_id)
                except (NotFoundError, GammonError):
                    continue
                if lg.status == "waiting" and not lg.invite_used and not self._expired(lg):
                    waiting.append(game_id)
        return waiting

    def _create(self, setup: GameSetup) -> Created:
        try:
            rules = Rules(
                variant=find_variant(setup.variant), match_length=setup.match_length,
                crawford=setup.crawford, jacoby=setup.jacoby, beavers=setup.beavers,
                automatic_doubles=setup.automatic_doubles, cube_limit=setup.cube_limit,
                gammons=setup.gammons, cube=setup.cube, opening=setup.opening,
            )
            level = check_level(setup.computer_level) if setup.opponent == "computer" else None
        except GammonError as exc:
            raise InvalidError(str(exc), "invalid_settings") from None
        if setup.opponent not in ("computer", "human"):
            raise InvalidError("the opponent is 'computer' or 'human'", "invalid_settings")
        if setup.seat not in (0, 1):
            raise InvalidError("the seat is 0 or 1", "invalid_settings")
        if rules.match_length and setup.games is not None:
            raise InvalidError("'games' is for money play; a match runs to its length", "invalid_settings")
        games_limit = None if rules.match_length else (setup.games or 1)
        try:  # test servers (fixed dice allowed) may run a clock out in a second
            clock = clock_settings(setup.clock_delay, setup.clock_reserve, short_ok=self.allow_test_seeds)
        except ValueError as exc:
            raise InvalidError(str(exc), "invalid_clock") from None
        if setup.test_seed is not None and not self.allow_test_seeds:
            raise InvalidError("this server does not accept fixed dice seeds", "invalid_settings")
        seed = setup.test_seed if setup.test_seed is not None else secrets.token_bytes(32)
        try:
            dice = CryptoDice(seed, draw=setup.dice)  # core refuses a draw it does not know
        except GammonError as exc:
            raise InvalidError(str(exc), "invalid_settings") from None
        me, other = setup.seat, 1 - setup.seat
        token = secrets.token_urlsafe(32)
        # A rematch's guest takes the seat with the old game's token (see rematch), not an invitation.
        invite = secrets.token_urlsafe(32) if setup.opponent == "human" and setup.rematch_of is None else None
        hashes: list[str | None] = [None, None]
        hashes[me] = hash_token(token)  # the guest's seat gets its token only when the invitation is used
        seats: list[dict[str, Any]] = [{}, {}]
        seats[me] = {"kind": "human", "name": normalize_name(setup.name, "Player"), "joined": True,
                     "level": None}
        if setup.opponent == "computer":
            seats[other] = {"kind": "computer", "joined": True, "level": level,
                            "name": normalize_name(setup.opponent_name, f"Computer ({level})")}
        else:
            seats[other] = {"kind": "human", "name": normalize_name(setup.opponent_name, "Guest"),
                            "joined": False, "level": None}
        row = NewGameRow(
            id=secrets.token_urlsafe(12), settings={"format": 1, "rules": rules_to_data(rules),
                                                    "games_limit": games_limit,
                                                    "hints": setup.opponent == "computer" or setup.hints,
                                                    "rematch_of": setup.rematch_of, "dice": setup.dice,
                                                    "clock": ({"delay": clock.delay, "reserve": clock.reserve}
                                                              if clock else None)},
            seats=seats, seat_token_hashes=(hashes[0], hashes[1]), dice_seed=seed.hex(),
            commitment=dice.commitment, has_computer=setup.opponent == "computer",
            status="active" if setup.opponent == "computer" else "waiting",
            invite_token_hash=hash_token(invite) if invite else None,
            public=setup.public and invite is not None,
        )
        rec = self.store.create_game(row)
        lg = LiveGame.from_record(rec, self.outages)
        with self._lock(lg.id):
            self._remember(lg)
            view = game_view(lg, me)
        return Created(lg.id, me, token, invite, view)

    def invitation(self, game_id: str, invite: str | None) -> Invitation:
        """What the invitation ``invite`` offers, while it is open.

        :raises GoneError: the invitation was used: the seat is taken (``invitation_used``).
        :raises ForbiddenError: ``invite`` is not this game's invitation.
        """
        with self._lock(game_id):
            lg = self._current(game_id)
            seat = self._open_invitation(lg, invite)
            host = next((str(s.get("name", "")) for i, s in enumerate(lg.seats) if i != seat), "")
            return Invitation.model_construct(game_id=lg.id, seat=seat, host=host, rules=rules_view(lg),
                                              status="open")

    def join(self, game_id: str, invite: str | None, name: str | None = None) -> JoinedSeat:
        """Use the invitation ``invite``: it is consumed, and the joiner gets a new seat token
        that only this answer carries (stored hashed).  A public game (listed in the lobby) is
        joined without an invitation, by whoever comes first.

        :raises GoneError: the invitation was used already (the seat is taken), or the game expired.
        :raises ForbiddenError: ``invite`` is not this game's invitation.
        """
        return self._claim(game_id, lambda lg: self._open_invitation(lg, invite), name)

    def _claim(self, game_id: str, pick_seat: Callable[[LiveGame], int], name: str | None) -> JoinedSeat:
        """Give the seat ``pick_seat`` names a fresh token, once (the store's check makes it once)."""
        with self._lock(game_id):
            for attempt in (1, 2):
                lg = self._current(game_id)
                seat = pick_seat(lg)
                seats = [dict(s) for s in lg.seats]
                seats[seat]["joined"] = True
                if name:
                    seats[seat]["name"] = normalize_name(name, seats[seat]["name"])
                status = "active" if all(s.get("joined") for s in seats) else "waiting"
                if lg.status == "finished":
                    status = "finished"
                token = secrets.token_urlsafe(32)
                token_hash = hash_token(token)
                try:
                    lg.version, lg.updated_at = self.store.claim_seat(game_id, lg.version, seat, token_hash,
                                                                      seats, status)
                except VersionConflict:
                    self.evict(game_id)  # another process changed the game, or used the invitation
                    if attempt == 2:
                        raise ConflictError("the game changed meanwhile; try again",
                                            "version_conflict") from None
                    continue
                hashes = list(lg.token_hashes)
                hashes[seat] = token_hash
                lg.token_hashes = (hashes[0], hashes[1])
                lg.seats, lg.status, lg.invite_used = seats, status, True
                self._notify(lg)
                return JoinedSeat(seat, token, game_view(lg, seat))
        raise AssertionError("unreachable")  # pragma: no cover

    def _open_invitation(self, lg: LiveGame, invite: str | None) -> int:
        """The seat the open invitation ``invite`` (or, in a public game, no invitation) is for."""
        if lg.status == "expired" or self._expired(lg):
            raise GoneError("this game has expired: nobody joined it in time", "expired")
        if lg.status == "cancelled":
            raise GoneError("this game was cancelled", "cancelled")
        if not (lg.public and not invite) and (not invite or not lg.is_invitation(invite)):
            raise ForbiddenError("this is not an invitation to this game")
        seat = lg.invited_seat()
        if lg.invite_used or seat is None:
            raise GoneError("this invitation has been used: the seat is taken")
        return seat

    def _expired(self, lg: LiveGame) -> bool:
        return (lg.status == "waiting" and self.expire_after is not None
                and lg.created_at < datetime.now(UTC) - timedelta(seconds=self.expire_after))

    # -- rematches, the lobby, expiry ------------------------------------------------------

    def rematch(self, game_id: str, token: str | None) -> JoinedSeat:
        """A rematch of the finished game ``game_id`` for the seat of ``token``.

        The first player to ask creates it (the same settings and seats, linked
        to the old game both ways) and gets their seat in it; against a person,
        the other player asks next and takes the other seat, each with a fresh
        token.  The old game's state shows the link to both.

        :raises ConflictError: the game is not over (``not_over``).
        :raises GoneError: the seat in the rematch is taken already (``rematch_taken``).
        """
        with self._lock(game_id):
            lg = self._current(game_id)
            seat = self._seat(lg, token)
            if not lg.is_over:
                raise ConflictError("a rematch comes when the game is over", "not_over")
            rematch_id = lg.rematch_id
            if rematch_id is None:
                created = self.create_game(self._rematch_setup(lg, seat))
                linked = self.store.set_rematch(game_id, created.game_id)
                if linked is not None:
                    lg.rematch_id = created.game_id
                    lg.version, lg.updated_at = linked
                    self._notify(lg)
                    return JoinedSeat(created.seat, created.token, created.view)
                self.evict(game_id)  # the other player made one first: take a seat in theirs
                rematch_id = self._current(game_id).rematch_id
                assert rematch_id is not None

        def other_seat(new: LiveGame) -> int:
            if new.rematch_of != game_id:
                raise ForbiddenError("that game is not this game's rematch")
            if new.seats[seat].get("joined"):
                raise GoneError("your seat in the rematch is taken already", "rematch_taken")
            return seat

        return self._claim(rematch_id, other_seat, None)

    @staticmethod
    def _rematch_setup(lg: LiveGame, seat: int) -> GameSetup:
        other = lg.seats[1 - seat]
        rules = rules_to_data(lg.rules)
        return GameSetup(
            opponent="computer" if lg.is_computer(1 - seat) else "human", variant=rules["variant"],
            match_length=rules["match_length"], games=None if rules["match_length"] else lg.games_limit,
            crawford=rules["crawford"], jacoby=rules["jacoby"], beavers=rules["beavers"],
            automatic_doubles=rules["automatic_doubles"], cube_limit=rules["cube_limit"],
            gammons=rules["gammons"], cube=rules["cube"], seat=seat,
            computer_level=str(other.get("level") or DEFAULT_LEVEL),
            name=str(lg.seats[seat].get("name") or "Player"), opponent_name=str(other.get("name") or "Guest"),
            hints=lg.hints, rematch_of=lg.id, dice=lg.draw,
            clock_delay=lg.clock.settings.delay if lg.clock else 0.0,
            clock_reserve=lg.clock.settings.reserve if lg.clock else 0.0,
        )

    def lobby(self, limit: int = 50) -> list[LobbyGame]:
        """Public games waiting for a guest (not expired), newest first."""
        after = datetime.now(UTC) - timedelta(seconds=self.expire_after or 10 ** 9)
        out = []
        for rec in self.store.lobby(after, limit):
            lg = LiveGame.from_record(rec)
            seat = lg.invited_seat()
            if seat is None:
                continue
            out.append(LobbyGame.model_construct(
                game_id=lg.id, seat=seat, host=str(lg.seats[1 - seat].get("name", "")), rules=rules_view(lg),
                created_at=lg.created_at))
        return out

    def expire_waiting(self) -> list[str]:
        """Mark expired the games nobody joined within ``expire_after`` seconds, and cancel the public
        games whose player to act never acted (:meth:`cancel_idle`); their ids."""
        ids = self.cancel_idle()
        if self.expire_after is None:
            return ids
        expired = self.store.expire_waiting(datetime.now(UTC) - timedelta(seconds=self.expire_after))
        for game_id in expired:
            self.evict(game_id)
        return ids + expired

    # -- calling a game off before it is played ----------------------------------------------

    def cancel(self, game_id: str, token: str | None) -> GameState:
        """Cancel ``game_id`` for the seat of ``token``: its status becomes ``cancelled``, nobody can
        join or act any more, and it has no result.

        Allowed while the game waits for its guest (the host cancels the invitation or leaves the
        lobby), and in a game between people that has not changed for :attr:`cancel_grace` seconds
        while nothing was played at all or it waits on an opponent who has never acted (a guest who
        took the seat and never moved: nothing was played that a result could be given for).

        :raises ForbiddenError: no seat for the token.
        :raises ConflictError: the game cannot be cancelled now (``cannot_cancel``), and why.
        """
        with self._lock(game_id):
            lg = self._current(game_id)
            seat = self._seat(lg, token)
            if lg.status != "waiting":
                if not self._stalled(lg, seat):
                    raise ConflictError("only a game nobody joined, or one whose opponent never moved, can be "
                                        "cancelled", "cannot_cancel")
                waited = (datetime.now(UTC) - lg.updated_at).total_seconds()
                if waited < self.cancel_grace:
                    raise ConflictError(f"your opponent has had {waited:.0f} s to move: you can cancel after "
                                        f"{self.cancel_grace:.0f} s", "cannot_cancel")
            self._set_cancelled(lg)
            return game_view(lg, seat)

    def cancel_idle(self) -> list[str]:
        """Cancel the public games in this process's memory that have waited :attr:`idle_abort` seconds
        with nothing played, or on a player who never acted (a lobby guest who took the seat and
        left); their ids."""
        if self.idle_abort is None:
            return []
        limit = datetime.now(UTC) - timedelta(seconds=self.idle_abort)
        with self._cache_lock:
            candidates = [g.id for g in self._cache.values() if g.public and g.status == "active"
                          and g.updated_at < limit]
        cancelled = []
        for game_id in candidates:
            with self._lock(game_id):
                try:
                    lg = self._current(game_id)
                    if lg.status == "active" and lg.updated_at < limit and self._stalled(lg):
                        self._set_cancelled(lg)
                        cancelled.append(game_id)
                except (ServiceError, VersionConflict, GammonError):
                    continue
        return cancelled

    @staticmethod
    def _stalled(lg: LiveGame, by: int | None = None) -> bool:
        """Whether an active game between people is stalled before it was played: nothing played at
        all, or the game waits on a player (other than ``by``) who has never acted."""
        if lg.status != "active" or lg.is_over or any(lg.is_computer(s) for s in (0, 1)):
            return False
        if not lg.actions:
            return True
        who = lg.to_act()
        return who is not None and who != by and not any(a.player == who for a in lg.actions)

    def _set_cancelled(self, lg: LiveGame) -> None:
        try:
            lg.version, lg.updated_at = self.store.set_status(lg.id, lg.version, "cancelled")
        except VersionConflict:
            self.evict(lg.id)
            raise ConflictError("the game changed meanwhile; try again", "version_conflict") from None
        lg.status = "cancelled"
        self._notify(lg)
        log.info("game %s: cancelled", lg.id)


__all__ = ["Seating"]
