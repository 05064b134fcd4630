"""SQLite's one writer at a time, met by every store of the server (games, chat, accounts).

SQLite lets one connection write at a time.  A transaction that first reads and then writes,
begun the deferred way, fails with "database is locked" at once, whatever the busy timeout,
when another connection wrote between its read and its write.  So every store's write must
either wait its turn or take the write lock before it reads; none may fail because two players
(or a player and the game) wrote at once.  CI once lost a chat message that way.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from gammon.store.chat import ChatStore
from gammon.store.repository import NewGameRow, Store, VersionConflict, open_store


def _store_with_game(tmp_path: Path) -> tuple[Store, Path]:
    path = tmp_path / "gammon.db"
    store = open_store(str(path))
    store.create_game(NewGameRow(id="g1", settings={}, seats=[{}, {}], seat_token_hashes=("a", "b"),
                                 dice_seed="seed", commitment="c", has_computer=False, status="playing"))
    return store, path


def test_a_write_waits_for_another_process_writer(tmp_path: Path) -> None:
    """Another connection (another server process, or the CLI) holds the write lock and commits
    while a chat message is being stored: the message waits and is stored, nothing fails."""
    store, path = _store_with_game(tmp_path)
    chat = ChatStore(store)
    other = sqlite3.connect(path, isolation_level=None, timeout=10)
    other.execute("BEGIN IMMEDIATE")
    other.execute("UPDATE games SET updated_at = updated_at WHERE id = 'g1'")
    errors: list[BaseException] = []

    def post() -> None:
        try:
            chat.add("g1", "players", 0, "Ann", "hello", 100)
        except BaseException as exc:  # noqa: BLE001 - the test reports whatever was raised
            errors.append(exc)

    poster = threading.Thread(target=post)
    poster.start()
    time.sleep(0.3)  # the message is on its way while the other writer holds the lock
    other.execute("COMMIT")
    poster.join(timeout=30)
    other.close()
    assert not poster.is_alive()
    assert errors == []
    assert [m.text for m in chat.messages("g1")] == ["hello"]
    store.dispose()


def test_stores_of_one_server_write_at_once_without_loss(tmp_path: Path) -> None:
    """Chat messages and game actions written at the same moment from many threads (the
    server's thread pool) are all stored: no "database is locked", no message lost."""
    store, _ = _store_with_game(tmp_path)
    chat = ChatStore(store)
    errors: list[BaseException] = []
    per_thread = 25
    start = threading.Barrier(4)

    def say(seat: int) -> None:
        start.wait()
        try:
            for i in range(per_thread):
                chat.add("g1", "players", seat, f"p{seat}", f"{seat}:{i}", 10_000)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    def play(offset: int) -> None:
        start.wait()
        try:
            for i in range(per_thread):
                while True:
                    version = store.get_version("g1")
                    assert version is not None
                    try:
                        store.append_action("g1", version, version + 1, offset, "move", {"i": i}, [], "playing")
                        break
                    except VersionConflict:
                        continue  # the other player's action came first: read the version again
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=say, args=(s,)) for s in (0, 1)]
    threads += [threading.Thread(target=play, args=(p,)) for p in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    texts = {m.text for m in chat.messages("g1")}
    assert texts == {f"{s}:{i}" for s in (0, 1) for i in range(per_thread)}
    assert store.count_actions("g1") == 2 * per_thread
    store.dispose()
