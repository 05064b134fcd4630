"""Pushing a game's changes to its WebSocket clients in this process.

Every watcher (a seat or a spectator on a socket) has a queue and remembers
the last action number and version it was sent.  When a game changes (an
action stored here, or, with PostgreSQL, a ``NOTIFY`` from another server) the
hub is *poked*; one pump task per game then asks the service for what the
watchers have not seen (actions after the oldest number any of them has, and
the current state for each kind of viewer) and queues, for each watcher, the
actions it lacks and the new state.  So every watcher gets every action once,
in order, whichever process stored it, and a slow socket never holds up the
others (its queue overflows and it is closed; the client reconnects and gets
the full state).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from gammon.web.schemas import ActionEntry, GameState
from gammon.web.service import GameService, NotFoundError

log = logging.getLogger("gammon.web")

#: Messages a watcher may have queued before it is dropped as too slow.
QUEUE_LIMIT = 2000


class Watcher:
    """One socket watching one game: ``seat`` None for a spectator."""

    def __init__(self, seat: int | None, seen_seq: int, seen_version: int) -> None:
        self.seat = seat
        self.seen_seq = seen_seq
        self.seen_version = seen_version
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.overflowed = False

    def put(self, message: dict[str, Any] | None) -> None:
        if self.overflowed:
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.overflowed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(message)

    def close(self) -> None:
        self.queue.put_nowait(None)


@dataclass
class _Game:
    watchers: set[Watcher] = field(default_factory=set)
    dirty: bool = False
    task: asyncio.Task[None] | None = None


def state_json(view: GameState) -> dict[str, Any]:
    """A state as JSON (the service builds the API's models directly: nothing to convert)."""
    return view.model_dump(mode="json")


def entry_json(action: ActionEntry) -> dict[str, Any]:
    """A stored action as JSON."""
    return action.model_dump(mode="json")


def state_message(view: GameState) -> dict[str, Any]:
    """The ``state`` message of a service view."""
    return {"type": "state", "state": state_json(view)}


class Hub:
    """The watchers of every game in this process, and their pumps."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._games: dict[str, _Game] = {}

    def watched(self) -> list[str]:
        return [gid for gid, g in self._games.items() if g.watchers]

    def watcher_count(self, game_id: str) -> int:
        g = self._games.get(game_id)
        return len(g.watchers) if g else 0

    def watchers_of(self, game_id: str) -> list[Watcher]:
        """The sockets of this process watching ``game_id`` (the chat delivers to them)."""
        g = self._games.get(game_id)
        return list(g.watchers) if g else []

    def subscribe(self, game_id: str, watcher: Watcher) -> None:
        self._games.setdefault(game_id, _Game()).watchers.add(watcher)
        self.poke(game_id)

    def unsubscribe(self, game_id: str, watcher: Watcher) -> None:
        g = self._games.get(game_id)
        if g is None:
            return
        g.watchers.discard(watcher)
        if not g.watchers and g.task is None:
            del self._games[game_id]

    def poke(self, game_id: str, version: int | None = None) -> None:
        """The game changed (to ``version``, when known): send its watchers what they have not seen.

        Nothing happens when nobody here watches the game, or when every watcher
        has already been sent ``version`` (the NOTIFY of a change made here).
        """
        g = self._games.get(game_id)
        if g is None or not g.watchers:
            return
        if version is not None and g.task is None and all(w.seen_version >= version for w in g.watchers):
            return
        g.dirty = True
        if g.task is None:
            g.task = asyncio.get_running_loop().create_task(self._pump(game_id, g))

    def poke_all(self) -> None:
        for game_id in self.watched():
            self.poke(game_id)

    async def _pump(self, game_id: str, g: _Game) -> None:
        try:
            while g.dirty and g.watchers:
                g.dirty = False
                watchers = list(g.watchers)
                after = min(w.seen_seq for w in watchers)
                seats = {w.seat for w in watchers}
                try:
                    upd = await asyncio.to_thread(self.service.updates_since, game_id, after, seats)
                except NotFoundError:
                    for w in watchers:
                        w.close()
                    return
                states = {seat: state_message(view) for seat, view in upd.views.items()}
                entries = [
                    (a.seq, {"type": "action", "game_id": game_id, "entry": entry_json(a)})
                    for a in upd.actions
                ]
                for w in watchers:
                    if w.seat not in states:  # joined while we were reading
                        g.dirty = True
                        continue
                    for seq, message in entries:
                        if seq > w.seen_seq:
                            w.put(message)
                    if upd.version > w.seen_version or upd.seq > w.seen_seq:
                        w.put(states[w.seat])
                    w.seen_seq = max(w.seen_seq, upd.seq)
                    w.seen_version = max(w.seen_version, upd.version)
        except Exception:
            log.exception("game %s: pushing changes failed", game_id)
        finally:
            g.task = None
            if not g.watchers:
                self._games.pop(game_id, None)
            elif g.dirty:
                self.poke(game_id)

    def close_all(self) -> None:
        for g in self._games.values():
            for w in g.watchers:
                w.close()
            if g.task is not None:
                g.task.cancel()
        self._games.clear()


__all__ = ["QUEUE_LIMIT", "Hub", "Watcher", "entry_json", "state_json", "state_message"]
