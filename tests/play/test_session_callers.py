"""Issue 34: the one game loop drives all five callers.

The terminal, the server, self-play, the external player and the analysis walk each drive
their match through :class:`gammon.play.session.Session` (its pending decision, ``ask`` and
``submit``); none applies an action to a match past it.  The terminal and self-play have their
own tests (``test_terminal_session.py``, ``test_session.py``); here the server's person and
computer seats, the analysis walk, the external controller and a remote program as a seat.
Each test watches the session's own methods while the interface works, so an interface that
went back to a loop of its own (``match.apply`` past the session) fails it.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from gammon.analysis.walk import walk
from gammon.core.dice import RandomDice
from gammon.core.fair_dice import derive_roll
from gammon.core.game import Action, Move, NewGame, Roll, Rules
from gammon.core.match import Match
from gammon.core.position import Position
from gammon.formats.fibs import fibs_board
from gammon.play import external
from gammon.play.external import Controller, GnubgExternalClient, RemotePlayer, serve
from gammon.play.players import HeuristicPlayer, RandomPlayer
from gammon.play.session import Session, play_match
from gammon.store.repository import open_store
from gammon.web.service import Command, GameService, GameSetup

#: A dice seed whose opening throw player 1 wins (the computer's seat below).
SEED_P1 = next(s for s in (bytes(range(k, k + 32)) for k in range(64))
               if derive_roll(s, 0)[0] < derive_roll(s, 0)[1])


@pytest.fixture
def submitted(monkeypatch: pytest.MonkeyPatch) -> list[Action]:
    """Every action any session is given by ``submit`` during the test, in order."""
    seen: list[Action] = []
    original = Session.submit

    def watch(self: Session, action: Action):  # type: ignore[no-untyped-def]
        seen.append(action)
        return original(self, action)

    monkeypatch.setattr(Session, "submit", watch)
    return seen


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[Action]:
    """Every action a session's ``ask`` returned during the test."""
    seen: list[Action] = []
    original = Session.ask

    def watch(self: Session) -> Action:
        action = original(self)
        seen.append(action)
        return action

    monkeypatch.setattr(Session, "ask", watch)
    return seen


@pytest.fixture
def service(tmp_path: Path) -> Iterator[GameService]:
    store = open_store(str(tmp_path / "gammon.db"))
    # The computer plays the heuristic here: the path of its action does not depend on the engine.
    yield GameService(store, allow_test_seeds=True, computer_factory=lambda level, seed: HeuristicPlayer(seed))
    store.dispose()


def test_the_server_submits_a_persons_action_and_the_computers_through_the_session(
        service: GameService, submitted: list[Action], asked: list[Action]) -> None:
    created = service.create_game(GameSetup(opponent="computer", test_seed=SEED_P1, seat=0))
    service.act(created.game_id, created.token, Command("roll"))  # type: ignore[arg-type]
    assert [type(a) for a in submitted] == [Roll]  # the person's opening roll, by the socket's path
    assert service.computer_step(created.game_id)  # player 1 won the opening: the computer moves
    assert len(asked) == 1 and isinstance(asked[0], Move) and asked[0].player == 1
    assert submitted[1:] == asked  # the computer's answer went through submit, as the person's did
    _, log = service.action_log(created.game_id)
    assert [(a.type, a.actor) for a in log] == [("roll", log[0].actor), ("play", "computer")]


def test_the_server_replays_its_stored_record_through_the_session(
        service: GameService, submitted: list[Action]) -> None:
    created = service.create_game(GameSetup(opponent="computer", test_seed=SEED_P1, seat=0))
    service.act(created.game_id, created.token, Command("roll"))  # type: ignore[arg-type]
    service.computer_step(created.game_id)
    submitted.clear()
    service.evict(created.game_id)  # the next call replays the game from the store
    service.view(created.game_id, created.token)
    assert [type(a) for a in submitted] == [Roll, Move]


def test_the_analysis_walk_submits_every_recorded_action_to_a_session(submitted: list[Action]) -> None:
    rules = Rules(match_length=5)
    players = [RandomPlayer(3, double_rate=0.0), RandomPlayer(4, double_rate=0.0)]
    match = play_match(rules, players, RandomDice(5))
    assert len(match.games) > 1
    submitted.clear()
    tasks, summaries = walk(rules, match.record)
    assert submitted == match.actions  # every action of the record, NewGame between games included
    assert any(isinstance(a, NewGame) for a in submitted)
    assert len(summaries) == len(match.games) and tasks


def test_the_external_controller_asks_its_player_through_a_session(asked: list[Action]) -> None:
    c = Controller(player=HeuristicPlayer(1))
    reply = c.answer(str(fibs_board(Position.initial(), dice=(3, 1))))
    assert len(asked) == 1 and isinstance(asked[0], Move)
    assert reply == external.gnubg_move(asked[0].play)  # type: ignore[arg-type]


def test_a_remote_program_is_a_seat_over_a_real_socket() -> None:
    # Our own controller serves the protocol on a TCP port; a RemotePlayer seat reaches it
    # through GnubgExternalClient, and the session plays a whole match with it.
    controller = Controller(player=HeuristicPlayer(1))
    sock = external.open_listener("127.0.0.1:0")
    thread = threading.Thread(target=serve, args=(controller, sock), kwargs={"connections": 1}, daemon=True)
    thread.start()
    try:
        with GnubgExternalClient(external.describe(sock), timeout=60) as client:
            match = play_match(Rules(match_length=3), [RemotePlayer(client), RandomPlayer(2, double_rate=0.3)],
                               RandomDice(7))
    finally:
        thread.join(60)
        sock.close()
    assert match.is_over
    assert controller.errors == 0 and controller.answered > 10
    moves = [a for a in match.actions if isinstance(a, Move) and a.player == 0]
    assert moves  # player 0's plays were the remote program's, each one checked by core on submit


def test_a_remote_seat_cannot_name_acey_deuceys_double() -> None:
    from gammon.core.errors import GammonError

    seat = RemotePlayer(None)  # type: ignore[arg-type]
    with pytest.raises(GammonError):
        seat.choose_double_number(Match(Rules(), None).game)


@pytest.mark.skipif(external.gnubg_executable() is None, reason="GNU Backgammon (gnubg) is not installed")
def test_gnubg_is_a_seat_of_a_session() -> None:
    # GNU Backgammon's own `external` command answers the RemotePlayer seat's board lines.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{s.getsockname()[1]}"
    proc = external.start_gnubg_external(address, plies=0)
    try:
        with GnubgExternalClient(address, timeout=60) as gnubg:
            match = play_match(Rules(match_length=1), [RemotePlayer(gnubg), HeuristicPlayer(5)], RandomDice(3))
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert match.is_over
    assert any(isinstance(a, Move) and a.player == 0 for a in match.actions)  # gnubg's plays, checked by core


def test_the_terminal_resumes_a_match_saved_between_games_through_its_session(submitted: list[Action]) -> None:
    import io

    from rich.console import Console

    from gammon.cli.terminal.loop import TerminalGame
    from gammon.cli.terminal.settings import PlaySettings

    saved = Match(Rules(match_length=5), RandomDice(4))
    Session(saved, [RandomPlayer(1, double_rate=0), RandomPlayer(2, double_rate=0)]).advance(next_games=False)
    assert saved.game.is_over and not saved.is_over
    submitted.clear()
    out = io.StringIO()

    def leave(prompt: str) -> str:
        raise EOFError

    game = TerminalGame(PlaySettings(seed=1, match_length=5, level="heuristic"), input_fn=leave, match=saved,
                        console=Console(file=out, width=1000, highlight=False), pace=0.0)
    assert submitted == [NewGame()]  # the next game starts by the session, not past it
    assert game.run() == 0
    shown = out.getvalue()
    assert shown.count("Game 2: You 0, Computer 2 in a 5-point match") == 1  # its start told once
