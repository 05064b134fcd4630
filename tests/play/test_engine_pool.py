"""The engine pool: one engine per level, shared by every computer seat, each seat with its own noise.

A server that loaded an engine (nets and bear-off database, about 20 MB) for each
computer seat would grow with its games; the pool loads a level once and gives
each seat a twin (:meth:`Engine.reseeded`).  Sharing must change no decision:
a seat plays exactly as an engine of its own with the same seed would.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import numpy as np

from gammon.ai.engine import Engine
from gammon.core.position import Position
from gammon.play.ai_player import AIPlayer
from gammon.play.levels import EnginePool
from gammon.play.players import HeuristicPlayer

SEED = "42" * 32


def positions(count: int, seed: int = 3) -> list[tuple[Position, tuple[int, int]]]:
    """Positions with a roll to play, from random play (a pass skipped), with their dice."""
    rng = np.random.default_rng(seed)
    out: list[tuple[Position, tuple[int, int]]] = []
    pos = Position.initial()
    while len(out) < count:
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        plays = pos.legal_plays(dice)
        if len(plays) > 1:
            out.append((pos, dice))
        if not plays:  # no legal play: the turn passes
            pos = pos.swap()
            continue
        nxt = plays[int(rng.integers(len(plays)))].position
        pos = Position.initial() if nxt.outcome is not None else nxt.swap()
    return out


def choices(engine: Engine, cases: list[tuple[Position, tuple[int, int]]]) -> list[str]:
    return [engine.best_play(p, d).position.position_id for p, d in cases]


def test_a_seat_plays_as_an_engine_of_its_own_with_the_same_seed() -> None:
    cases = positions(40)
    pool = EnginePool()
    # "casual" adds strong noise to each choice: the draws decide plays, so a shared or shifted
    # generator would show.
    alone = choices(Engine("casual", seed=11), cases)
    seat = pool.player("casual", 11)
    other = pool.player("casual", 12)
    assert isinstance(seat, AIPlayer) and isinstance(other, AIPlayer)
    mixed: list[str] = []
    for p, d in cases:  # the other seat plays between each of this seat's decisions
        other.engine.best_play(p, d)
        mixed.append(seat.engine.best_play(p, d).position.position_id)
    assert mixed == alone
    assert choices(pool.player("casual", 12).engine, cases) != alone  # another seed, other noise
    # The seats share the level's nets and evaluators; only the noise is theirs.
    assert seat.engine.network is other.engine.network is pool.engine("casual").network
    assert seat.engine.evaluator is other.engine.evaluator
    assert pool.loaded() == ("casual",)


def test_twins_search_side_by_side_in_threads_as_alone() -> None:
    # The server's computer seats move in worker threads, all on one engine's nets and evaluator
    # (each thread has its own search workspace): the choices are those of one thread alone.
    cases = positions(24, seed=5)
    base = Engine("world-class")
    alone = choices(base, cases)
    results: dict[int, list[str]] = {}
    threads = [threading.Thread(target=lambda i=i: results.__setitem__(i, choices(base.reseeded(i), cases)))
               for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {0: alone, 1: alone, 2: alone}


def test_the_pool_loads_each_level_once_across_threads() -> None:
    made: list[str] = []
    lock = threading.Lock()

    def loader(level: str) -> Any:
        with lock:
            made.append(level)
        time.sleep(0.05)  # a slow load: the other threads ask meanwhile
        return Engine(level)

    pool = EnginePool(loader)
    got: list[Any] = []
    levels = ["expert", "heuristic", "Expert", "world-class", "worldclass", "expert"] * 3
    threads = [threading.Thread(target=lambda lv=lv: got.append((lv, pool.engine(lv)))) for lv in levels]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(made) == ["expert", "world-class"]  # heuristic hints and plays as expert
    assert len({id(e) for lv, e in got if lv.lower() in ("expert", "heuristic")}) == 1
    assert isinstance(pool.player("heuristic", 1), HeuristicPlayer)  # the hand-written bot, no engine


def test_the_server_shares_one_engine_per_level_between_games_and_hints(tmp_path: Any) -> None:
    from gammon.web import Settings, create_app
    from gammon.web.service import GameService
    from webclient import TEST_SERVER, TestClient

    settings = Settings(database_url=str(tmp_path / "gammon.db"), **TEST_SERVER, computer_delay=0.0)
    with TestClient(create_app(settings)) as c:
        service: GameService = c.app.state.service  # type: ignore[attr-defined]
        games = []
        for _ in range(3):
            r = c.post("/api/games", json={"opponent": "computer", "computer_level": "expert",
                                           "test_seed": SEED})
            assert r.status_code == 201, r.text
            games.append(r.json()["game_id"])
        players = [service._current(gid).computer_player(1, service.computer_factory) for gid in games]
        engines = [p.engine for p in players]
        assert len({id(e) for e in engines}) == 3  # a twin each: its own noise
        shared = service.engines.engine("expert")
        assert all(e.network is shared.network for e in engines)
        assert service.hint_engines._loader("expert") is shared  # the hints use the same engine
        assert service.engines.loaded() == ("expert",)
