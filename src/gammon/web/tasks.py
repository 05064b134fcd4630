"""Background work of a server process: the computer's turns and PostgreSQL notifications."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from gammon.store.db import libpq_url
from gammon.store.repository import NOTIFY_CHANNEL
from gammon.web.service import GameService

log = logging.getLogger("gammon.web")


class ComputerDriver:
    """Plays the computer's turns: one task per game, each action stored and pushed in turn.

    The thinking runs in a worker thread, so other games and requests go on
    meanwhile.  :meth:`kick` is called after every change; a game's task runs
    while the computer has something to do.
    """

    def __init__(self, service: GameService, delay: float = 0.0) -> None:
        self.service = service
        self.delay = delay
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()

    def kick(self, game_id: str) -> None:
        self._again.add(game_id)
        if game_id not in self._tasks:
            self._tasks[game_id] = asyncio.get_running_loop().create_task(self._run(game_id))

    @property
    def busy(self) -> int:
        return len(self._tasks)

    async def _run(self, game_id: str) -> None:
        try:
            while game_id in self._again:
                self._again.discard(game_id)
                for _ in range(100_000):
                    acted = await asyncio.to_thread(self.service.computer_step, game_id)
                    if not acted:
                        break
                    if self.delay:
                        await asyncio.sleep(self.delay)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the computer's turn failed", game_id)
        finally:
            self._tasks.pop(game_id, None)

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


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


__all__ = ["ComputerDriver", "PgListener"]
