"""Background work of a server process: the computer's turns, PostgreSQL notifications, the heartbeat."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from gammon.store.db import libpq_url
from gammon.store.repository import NOTIFY_CHANNEL
from gammon.web.service import GameService

log = logging.getLogger("gammon.web")


class ComputerDriver:
    """Plays the computer's turns in a bounded pool of worker threads, games taking turns.

    Games whose computer has something to do wait in one round-robin queue;
    each of ``workers`` workers takes the game at the front, makes *one*
    computer action in its own thread, and puts the game back at the end of the
    queue if the computer has more to do.  So at most ``workers`` threads ever
    think at once (requests and sockets keep the rest of the machine), a game
    is never worked on by two workers, and a game against the strongest level
    (or a client with many games) cannot hold up other games' moves by more
    than one action each.  :meth:`kick` is called after every change.
    """

    def __init__(self, service: GameService, delay: float = 0.0, workers: int = 2) -> None:
        self.service = service
        self.delay = delay
        self.workers = max(1, workers)
        self._executor = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="gammon-computer")
        self._queue: asyncio.Queue[str] | None = None  # first in, first out: the round robin
        self._queued: set[str] = set()
        self._running: set[str] = set()
        self._again: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    def kick(self, game_id: str) -> None:
        """The game changed: queue it for the computer (a worker finds out whether it has to act)."""
        if game_id in self._running:
            self._again.add(game_id)  # look again once its current action is stored
            return
        if game_id in self._queued:
            return
        if self._queue is None:
            self._queue = asyncio.Queue()
            loop = asyncio.get_running_loop()
            for _ in range(self.workers):
                self._spawn(loop.create_task(self._work(self._queue)))
        self._queued.add(game_id)
        self._queue.put_nowait(game_id)

    @property
    def busy(self) -> int:
        """Games queued or being worked on."""
        return len(self._queued) + len(self._running)

    def _spawn(self, task: asyncio.Task[None]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _work(self, queue: asyncio.Queue[str]) -> None:
        loop = asyncio.get_running_loop()
        while True:
            game_id = await queue.get()
            self._queued.discard(game_id)
            self._running.add(game_id)
            acted = False
            try:
                acted = await loop.run_in_executor(self._executor, self.service.computer_step, game_id)
            except Exception:
                log.exception("game %s: the computer's turn failed", game_id)
            finally:
                self._running.discard(game_id)
            again = game_id in self._again
            self._again.discard(game_id)
            if acted and self.delay:
                self._spawn(loop.create_task(self._later(game_id)))
            elif acted or again:
                self.kick(game_id)  # to the back of the queue: the other games take their turn first

    async def _later(self, game_id: str) -> None:
        await asyncio.sleep(self.delay)
        self.kick(game_id)

    async def close(self) -> None:
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._executor.shutdown(wait=False, cancel_futures=True)


#: Seconds between two stamps of the shared heartbeat.
BEAT_EVERY = 2.0
#: A stamp older than this when a process starts means no process ran in between: an outage.
STALE_AT_START = BEAT_EVERY + 1.0
#: The same while running (more room: a busy process's beat may come late; a false outage only
#: spares the players some seconds, it never charges anyone).
STALE_WHILE_RUNNING = 3 * BEAT_EVERY


class Heartbeat:
    """Stamps the store's heartbeat every :data:`BEAT_EVERY` seconds, so that the time no server
    process ran is stored as an outage that no game clock charges (:meth:`GameService.beat`).

    :meth:`start` beats once before it returns: call it when the process is ready to serve,
    before the clocks are watched, so a restart after downtime does not time out every game.
    """

    def __init__(self, service: GameService, every: float = BEAT_EVERY) -> None:
        self.service = service
        self.every = every
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        outage = await asyncio.to_thread(self.service.beat, STALE_AT_START)
        if outage is not None:
            log.info("no server ran for %.1f s (from %s): no clock is charged for it",
                     (outage.ended - outage.started).total_seconds(), outage.started.isoformat())
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await asyncio.to_thread(self.service.beat, STALE_WHILE_RUNNING)
            except Exception as exc:  # the database may be away for a moment; the next beat tries again
                log.warning("heartbeat failed: %s", exc)

    async def close(self) -> None:
        """Stop beating; a last stamp marks the moment this process stopped."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        try:
            await asyncio.to_thread(self.service.beat, STALE_WHILE_RUNNING)
        except Exception as exc:
            log.warning("last heartbeat failed: %s", exc)


class PgListener:
    """``LISTEN gammon_games`` on its own connection; calls ``on_change(game_id, version)`` for each notice.

    Reconnects with a growing pause when the connection drops, and calls
    ``on_connect`` each time it is listening again (changes may have been missed).
    """

    def __init__(self, url: str, on_change: Callable[[str, int | None], None],
                 on_connect: Callable[[], None]) -> None:
        self.url = libpq_url(url)
        self.on_change = on_change
        self.on_connect = on_connect
        self.listening = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        import psycopg

        pause = 0.2
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self.listening.set()
                    pause = 0.2
                    self.on_connect()
                    async for note in conn.notifies():
                        game_id, _, version = note.payload.rpartition(":")
                        if game_id:
                            self.on_change(game_id, int(version) if version.isdigit() else None)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("LISTEN connection lost (%s); reconnecting in %.1fs", exc, pause)
            self.listening.clear()
            await asyncio.sleep(pause)
            pause = min(pause * 2, 5.0)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


__all__ = ["BEAT_EVERY", "ComputerDriver", "Heartbeat", "PgListener"]


async def forfeit_abandoned_regularly(service: GameService, poke: Callable[[str], None],
                                      pause: float = 600.0) -> None:
    """Every ``pause`` seconds, forfeit the games between people without a clock that have waited a
    day on one player (:meth:`GameService.forfeit_abandoned`), and tell their watchers."""
    while True:
        await asyncio.sleep(pause)
        try:
            for game_id in await asyncio.to_thread(service.forfeit_abandoned):
                poke(game_id)
        except Exception:
            log.exception("forfeiting abandoned games failed")
