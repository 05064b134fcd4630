"""The game service: everything the server does with games, with no HTTP or WebSocket in sight.

:class:`GameService` creates games, seats players by token (and single-use
invitation), submits their actions and the computer's to each game's
:class:`~gammon.play.session.Session` (core checks them), stores every accepted
action before it answers, and describes a game to a seat or a spectator.  The
web layer (:mod:`gammon.web.routes`) only translates requests into these calls;
tests and other front ends may call it directly.

Each game lives in memory as a :class:`~gammon.web.service.live.LiveGame`
replayed from its stored actions (a cache of recently used games; a game
missing from it, or behind the database, is brought up to date from the stored
record).  Within one process a game's calls are serialised by a lock; between
processes the version check of :meth:`gammon.store.Store.append_action` lets
exactly one of two competing actions in.

Clocks (:mod:`gammon.web.service.clock` has the model): the service checks
the clock before every action, the computer's included (a computer move
finished after its time ran out is not stored; the timeout is), refuses a
second resignation offer in a turn, and keeps :attr:`GameService.outages` (the
stored stretches without a running server, which no clock charges) in step
with the store through :meth:`GameService.beat`.  A game between people without a clock that has
waited :data:`ABANDON_AFTER` (a day) on one player is forfeited by that player, as if a clock had
run out (:meth:`GameService.forfeit_abandoned`).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from gammon.core.errors import GammonError, IllegalActionError
from gammon.core.game import Action, NewGame, Roll, Timeout
from gammon.i18n import DEFAULT
from gammon.store import ActionRecord, VersionConflict
from gammon.store.codec import action_kind, action_to_dict, event_to_dict
from gammon.store.ratings import Outcome
from gammon.store.repository import OutageRecord
from gammon.web.schemas import (
    ActionEntry,
    AnalysisResult,
    GameState,
    HintResult,
    StepAnswer,
    StepQuery,
    VerifyResult,
)
from gammon.web.service.analysis import in_language
from gammon.web.service.base import Acted, Change, Created, JoinedSeat, Updates, log
from gammon.web.service.commands import build_action
from gammon.web.service.errors import ConflictError, ForbiddenError, NotFoundError
from gammon.web.service.live import TIMEOUT, LiveGame
from gammon.web.service.records import (
    analysis_snapshot,
    export_text,
    hint_level_of,
    hint_request,
    rank_hint,
    step_answer,
    verify_report,
)
from gammon.web.service.requests import Command
from gammon.web.service.seating import Seating
from gammon.web.service.views import action_view, game_view

#: Seconds without a move after which a game between people with no clock is forfeited by the
#: player it waits for (a game with a clock is forfeited by its clock).
ABANDON_AFTER = 24 * 3600.0
#: The actor recorded for such a forfeit.
ABANDONED = "abandoned"


class GameService(Seating):
    """Games on a :class:`~gammon.store.Store`: create, join, view, act, verify, export.

    Thread-safe: calls on one game are serialised by a lock (one of a fixed set,
    chosen by the game's id); calls on different games run side by side.

    The service owns its engines (:attr:`engines`, a
    :class:`~gammon.play.levels.EnginePool`: one per level, loaded on first use):
    every computer seat plays with a twin of its level's engine (its own noise,
    the shared nets), and the hint engines (:attr:`hint_engines`, a
    :class:`~gammon.web.hints.HintEngines` pool) are the same ones, so the memory
    does not grow with the games; two services, and two apps, share none.
    ``hint_level`` is the level of the hints between people.

    The parts: :class:`~gammon.web.service.base.ServiceBase` (the constructor, the games in
    memory, locks, listeners), :class:`~gammon.web.service.seating.Seating` (creating, joining,
    rematches, the lobby, cancelling) and this class (reading, acting, clocks, the computer,
    records).  Every action reaches a game through its session (:attr:`LiveGame.session`).

    :raises GammonError: an unknown ``hint_level``.
    """

    # -- reading ---------------------------------------------------------------------

    def view(self, game_id: str, token: str | None = None) -> GameState:
        """The game as the seat of ``token`` sees it (a spectator without a token).

        :raises ForbiddenError: a token that holds no seat here.
        """
        with self._lock(game_id):
            lg = self._current(game_id)
            seat = self._seat(lg, token) if token else None
            return game_view(lg, seat)

    def seat_for(self, game_id: str, token: str | None) -> int | None:
        """The seat of ``token`` (None without one). :raises ForbiddenError: a token with no seat."""
        with self._lock(game_id):
            lg = self._current(game_id)
            return self._seat(lg, token) if token else None

    def known_seat(self, game_id: str, token: str | None) -> tuple[bool, int | None]:
        """Without waiting for anything: whether ``game_id`` is in this process's memory, and the
        seat ``token`` holds in that copy (None: no seat there; the copy may be behind the store).

        For the rate limits, which must not block the event loop on a game's lock or the store.
        """
        lg = self._cached(game_id) if isinstance(game_id, str) else None
        if lg is None:
            return False, None
        return True, lg.seat_of(token)

    def outcome(self, game_id: str, *, cached_only: bool = False) -> Outcome | None:
        """The result of ``game_id`` as core decided it, once its match is over with a winner (None
        before, for a money session with no winner, or an unknown game); ``cached_only`` looks only
        at the copy in memory (after a change this process stored: no database read)."""
        with self._lock(game_id):
            try:
                lg = self._cached(game_id) if cached_only else self._current(game_id)
            except NotFoundError:
                return None
            if lg is None or not lg.is_over or lg.match.winner is None:
                return None
            return Outcome(game_id, lg.match.length, lg.match.winner, (lg.is_computer(0), lg.is_computer(1)),
                           lg.updated_at)

    def action_log(self, game_id: str, after_seq: int = 0) -> tuple[int, list[ActionEntry]]:
        """The version and the stored actions numbered above ``after_seq``."""
        with self._lock(game_id):
            lg = self._current(game_id)
            return lg.version, [action_view(a) for a in lg.actions[max(0, after_seq):]]

    def updates_since(self, game_id: str, after_seq: int, seats: Iterable[int | None]) -> Updates:
        """Actions numbered above ``after_seq`` and the current view for each of ``seats``."""
        with self._lock(game_id):
            lg = self._current(game_id)
            return Updates(
                lg.version, lg.seq, [action_view(a) for a in lg.actions[max(0, after_seq):]],
                {s: game_view(lg, s) for s in set(seats)},
            )

    # -- acting ----------------------------------------------------------------------

    def act(self, game_id: str, token: str | None, command: Command,
            expected_version: int | None = None, *, want_view: bool = True) -> Acted:
        """Carry out ``command`` for the seat of ``token``; stored before this returns.

        :raises ForbiddenError: no seat for the token.
        :raises ConflictError: out of turn, illegal now, or not at ``expected_version``.
        :raises InvalidError: a malformed command.
        """
        with self._lock(game_id):
            lg = self._current(game_id)
            seat = self._seat(lg, token)
            if lg.is_computer(seat):  # pragma: no cover - computer seats have no token
                raise ForbiddenError("this seat is played by the computer")
            try:
                return self._act(lg, seat, command, expected_version, want_view)
            except VersionConflict:
                if expected_version is not None:
                    raise ConflictError("another action was accepted first; reload the game",
                                        "version_conflict") from None
            # Another process stored an action first: judge the command again on the fresh state.
            lg = self._current(game_id)
            try:
                return self._act(lg, seat, command, None, want_view)
            except VersionConflict:
                raise ConflictError("another action was accepted first; reload the game",
                                    "version_conflict") from None

    def _act(self, lg: LiveGame, seat: int, command: Command, expected_version: int | None,
             want_view: bool = True) -> Acted:
        if expected_version is not None and expected_version != lg.version:
            raise ConflictError(
                f"the game is at version {lg.version}, not {expected_version}: reload it",
                "version_conflict")
        if lg.status == "active" and self._time_out(lg) is not None:
            raise ConflictError("time ran out: the game is over", "game_over")
        if lg.status == "finished" or lg.is_over:
            raise ConflictError("the game is over", "game_over")
        if lg.status in ("cancelled", "expired"):
            raise ConflictError(f"the game was {lg.status} before it was played", "game_over")
        if lg.status == "waiting":
            raise ConflictError("waiting for the opponent to join", "waiting_for_opponent")
        who = lg.to_act()
        if who is not None and who != seat:
            raise ConflictError(f"it is player {who}'s turn to act, not yours", "not_your_turn")
        if who is None and command.type != "roll":
            what = "the next game" if lg.between_games() else "the game"
            raise ConflictError(f"{what} starts with the opening roll: send 'roll'", "illegal_action")
        if command.type == "resign" and not lg.may_offer_resignation(seat):
            raise ConflictError("you offered to resign in this turn already: play on, and offer again in a "
                                "later turn", "resignation_limit")
        return self._apply(lg, build_action(lg, seat, command), want_view)

    def _apply(self, lg: LiveGame, action: Action, want_view: bool = True) -> Acted:
        """Apply ``action`` in memory and store it; on any failure the cached copy is dropped."""
        rolls_before = lg.dice.rolls_made
        new_game = lg.between_games()
        try:
            events = lg.submit(action)  # the session's: a roll between games starts the next game
        except GammonError as exc:
            if lg.dice.rolls_made != rolls_before or new_game:
                self.evict(lg.id)
            code = "illegal_action" if isinstance(exc, IllegalActionError) else "invalid_request"
            raise ConflictError(str(exc), code) from None
        except Exception:
            self.evict(lg.id)
            raise
        recorded = lg.game.record[-1]
        if isinstance(recorded, NewGame):  # pragma: no cover - a game records only its players' actions
            self.evict(lg.id)
            raise ConflictError("the game recorded no player's action", "invalid_request")
        data = action_to_dict(recorded)
        data["game"] = len(lg.match.games)
        ev = [event_to_dict(e) for e in events]
        status = "finished" if lg.match.is_over else "active"
        seq = lg.seq + 1
        try:
            actor = lg.actor(recorded.player)
            version, stored_at = self.store.append_action(lg.id, lg.version, seq, recorded.player,
                                                          action_kind(recorded), data, ev, status, actor)
        except BaseException:
            self.evict(lg.id)
            raise
        if isinstance(recorded, Roll) and recorded.dice is not None:
            lg.rolls.append(recorded.dice)
        rec = ActionRecord(seq, recorded.player, action_kind(recorded), data, ev, stored_at, actor)
        lg.actions.append(rec)
        lg.after_action(rec)
        lg.version, lg.status, lg.updated_at = version, status, rec.created_at
        if lg.match.is_over:
            lg.dice.reveal()
        self._notify(lg)
        return Acted(version, [action_view(rec)], game_view(lg, action.player) if want_view else None)

    # -- clocks ------------------------------------------------------------------------

    def _time_out(self, lg: LiveGame) -> int | None:
        """If the player to act has run out of time, store the timeout (they lose the match); the seat."""
        if lg.clock is None or lg.is_over or lg.status != "active":
            return None
        loser = lg.clock.timed_out(datetime.now(UTC))
        if loser is None:
            return None
        return loser if self._store_timeout(lg, loser, "clock") else None

    def _store_timeout(self, lg: LiveGame, loser: int, actor: str) -> bool:
        """Store that ``loser`` (whom the game waits for) lost on time, as ``actor`` saw it; whether it was."""
        name = str(lg.seats[loser].get("name") or f"player {loser}")
        try:  # what the loss scores is core's rule; the clock only says whose time ran out
            events = [event_to_dict(e) for e in lg.submit(Timeout(loser), start_next=False)]
        except GammonError:  # pragma: no cover - the clock runs only for the player the game waits for
            self.evict(lg.id)
            return False
        data = action_to_dict(Timeout(loser))
        data["game"] = len(lg.match.games)
        seq = lg.seq + 1
        try:
            version, stored_at = self.store.append_action(lg.id, lg.version, seq, loser, TIMEOUT, data, events,
                                                          "finished", actor)
        except VersionConflict:  # the copy in memory has the timeout applied: read the game again
            self.evict(lg.id)
            return False
        except BaseException:
            self.evict(lg.id)
            raise
        rec = ActionRecord(seq, loser, TIMEOUT, data, events, stored_at, actor)
        lg.actions.append(rec)
        lg.after_action(rec)
        lg.version, lg.status, lg.updated_at = version, "finished", stored_at
        lg.dice.reveal()
        log.info("game %s: %s ran out of time%s", lg.id, name, " (abandoned)" if actor == ABANDONED else "")
        self._notify(lg)
        return True

    def forfeit_abandoned(self, idle: float = ABANDON_AFTER, now: datetime | None = None) -> list[str]:
        """Forfeit the games between people, without a clock, whose awaited player has not acted for
        ``idle`` seconds (a day by default): that player loses the match on time, as a clock would
        have it (:class:`~gammon.core.game.Timeout`; core scores it).  A game between two games of a
        match (either may roll) or waiting on the computer is left alone.  The ids forfeited.
        """
        now = now or datetime.now(UTC)
        cutoff = now - timedelta(seconds=idle)
        done = []
        for game_id in self.store.idle_games(cutoff):
            with self._lock(game_id):
                try:
                    lg = self._current(game_id)
                except (NotFoundError, GammonError):
                    continue
                loser = lg.turn_owner()
                if (lg.clock is not None or lg.status != "active" or lg.is_over or lg.updated_at > cutoff
                        or loser is None or lg.is_computer(loser)):
                    continue
                if self._store_timeout(lg, loser, ABANDONED):
                    done.append(game_id)
        return done

    def beat(self, stale_after: float) -> OutageRecord | None:
        """Stamp the store's heartbeat (an outage when it was older than ``stale_after`` seconds:
        see :meth:`gammon.store.Store.beat`) and read the outages stored since the last call."""
        outage = self.store.beat(stale_after)
        self.refresh_outages()
        return outage

    def refresh_outages(self) -> int:
        """Add the outages stored since the last call (by any process) to :attr:`outages`; how many."""
        new = self.store.outages(self._outages_seen)
        for o in new:
            self.outages.add(o.started, o.ended)
            self._outages_seen = max(self._outages_seen, o.id)
        return len(new)

    def check_clock(self, game_id: str) -> bool:
        """Store the timeout of ``game_id`` if its player to act has run out of time; whether it did."""
        with self._lock(game_id):
            try:
                lg = self._current(game_id)
            except NotFoundError:
                return False
            return self._time_out(lg) is not None

    def clock_games(self) -> list[str]:
        """Games in memory whose clock is running."""
        with self._cache_lock:
            return [g.id for g in self._cache.values()
                    if g.clock is not None and g.clock.running is not None and g.status == "active"]

    def load_clock_games(self) -> int:
        """Load the unfinished games with a clock (after a restart), so that their clocks are watched."""
        n = 0
        for game_id in self.store.active_games_with("clock"):
            with self._lock(game_id):
                try:
                    lg = self._current(game_id)
                except (NotFoundError, GammonError):
                    continue
                n += lg.clock is not None
        return n

    # -- the computer ---------------------------------------------------------------

    def computer_step(self, game_id: str) -> bool:
        """Make the computer's next action in ``game_id`` if it is the computer's turn.

        Returns whether an action was stored (False: not the computer's turn, or
        another process acted first).
        """
        with self._lock(game_id):
            try:
                lg = self._current(game_id)
            except NotFoundError:
                return False
            if lg.computer_due() is None or self._time_out(lg) is not None:
                return False
            try:
                action = lg.computer_action(self.computer_factory)  # the session asks the computer's seat
                if action is None:  # pragma: no cover - computer_due said it is the computer's turn
                    return False
                # Checked like a person's move: one finished after the computer's time ran out is not
                # stored, the timeout is.
                if self._time_out(lg) is not None:
                    return False
                self._apply(lg, action, want_view=False)
            except VersionConflict:
                return True  # someone else moved on: look again
            except GammonError:
                log.exception("game %s: the computer could not act", game_id)
                return False
            return True

    def computer_games(self) -> list[str]:
        """Unfinished games with a computer seat (to resume after a restart)."""
        return list(self.store.active_computer_games())

    # -- records: the dice check, exports, hints, analysis ------------------------------------

    def verify(self, game_id: str) -> VerifyResult:
        """The dice commitment and rolls; once the game is over, the seed and the check of every roll."""
        with self._lock(game_id):
            return verify_report(self._current(game_id))

    def export(self, game_id: str, fmt: str) -> str:
        """The game's record as ``mat``, ``sgf`` or ``json`` text.

        :raises InvalidError: a format that cannot carry this game (``unsupported_export``).
        """
        with self._lock(game_id):
            return export_text(self._current(game_id), fmt)

    def hint(self, game_id: str, token: str | None, count: int = 5) -> HintResult:
        """The ``count`` best plays of the roll the seat of ``token`` must play now.

        Between people the engine helps during play only when the game was
        created with hints for both; once the match is over analysis is open to all.
        The hint is given at the computer opponent's level, or between people at
        :attr:`hint_level`, by the noiseless engine of that level, at the game's
        score and cube (see :mod:`gammon.web.hints`).

        :raises ForbiddenError: no seat for the token, or hints are off in this game (``hints_off``).
        :raises ConflictError: the seat has no roll to play now (``no_hint``).
        """
        with self._lock(game_id):
            lg = self._current(game_id)
            position, dice, version, cube = hint_request(lg, self._seat(lg, token))
            level = hint_level_of(lg, self.hint_level)
        return rank_hint(game_id, position, dice, version, count, cube, level=level,
                         engines=self.hint_engines)

    def why_not(self, game_id: str, query: StepQuery, language: str = DEFAULT) -> StepAnswer:
        """Why the checker cannot make the step ``query`` names now: core's rule (:meth:`StepTree.refusal`),
        its sentence in ``language``.

        Anyone who sees the board may ask (it tells no more than the step tree in the state).

        :raises ConflictError: no roll to play now (``no_roll``), a stale version (``stale_version``)
            or walked steps that are not the beginning of a legal play (``illegal_play``).
        """
        with self._lock(game_id):
            lg = self._current(game_id)
            return step_answer(lg, query, language)

    def analysis(self, game_id: str, token: str | None = None, requester: str | None = None,
                 language: str = DEFAULT) -> AnalysisResult:
        """The analysis of a finished game or match by :mod:`gammon.analysis`, as ``gammon analyse``.

        Answers at once: the first call queues the analysis in the analysis
        thread and gives its progress (``running``), later calls the progress
        or, once made, the report (kept: a finished match never changes).

        The queue is fair (:class:`~gammon.web.service.analysis.Analyses`): a player of the game
        (``token`` holds a seat) goes before everyone else, and ``requester`` (the address) has
        only a few analyses of other people's games waiting at once.

        :raises ConflictError: the game is not over yet (``not_over``): no help during play.
        :raises BusyError: ``requester`` has too many analyses waiting (``too_busy``).

        The report's explanations and graph are in ``language`` (:func:`in_language`).
        """
        known = self.analyses.known(game_id)
        if known is not None and (known.status != "running" or token is None):
            return in_language(known, language)
        with self._lock(game_id):
            lg = self._current(game_id)
            player = token is not None and lg.seat_of(token) is not None
            if known is not None and not player:
                return known
            snap = analysis_snapshot(lg)
        return in_language(self.analyses.start(snap, requester, player), language)

    def close(self) -> None:
        """Stop the background work the service owns (the analysis threads)."""
        self.analyses.close()


__all__ = ["Acted", "Change", "Created", "GameService", "JoinedSeat", "Updates"]
