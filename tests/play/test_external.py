"""gammon as GNU Backgammon's external player: reading decisions, answering them, the line server."""

from __future__ import annotations

import io
import random
import socket
import threading
from collections.abc import Sequence

import pytest
from typer.testing import CliRunner

from gammon.cli import app
from gammon.core.game import Game
from gammon.core.plays import Play
from gammon.core.position import Position, ResultKind
from gammon.formats.fibs import MAX_LINE, fibs_board, parse_fibs_board
from gammon.play import external
from gammon.play.external import Controller, gnubg_move, read_decision, serve, serve_stream
from gammon.play.players import HeuristicPlayer

GNUBG_OPENING = (
    "board:gnubg:root:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:"
    "1:6:3:6:3:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1"
)
#: A race: the player on roll (15 checkers on its 1-5 points) far ahead of the opponent (its 7-11 points).
RACE = Position([3, 3, 3, 3, 3] + [0] * 20, [0] * 6 + [3, 3, 3, 3, 3] + [0] * 14)


class Scripted:
    """A player with fixed answers that records the game it was asked about."""

    def __init__(self, cube: str = "double", answer: str = "take") -> None:
        self.cube, self.reply = cube, answer
        self.games: list[Game] = []

    def choose_play(self, game: Game, plays: Sequence[Play]) -> Play:
        self.games.append(game)
        return plays[-1]

    def cube_action(self, game: Game) -> str:
        self.games.append(game)
        return self.cube

    def answer_double(self, game: Game) -> str:
        self.games.append(game)
        return self.reply

    def answer_resignation(self, game: Game, kind: ResultKind) -> bool:
        return True

    def choose_double_number(self, game: Game) -> int:
        return 6

    def resign(self, game: Game) -> ResultKind | None:
        return None


def test_the_module_examples_hold() -> None:
    import doctest

    assert doctest.testmod(external).failed == 0


# -- whose decision, and what it is ------------------------------------------------


def test_a_board_with_dice_asks_the_player_on_turn_for_a_move() -> None:
    d = read_decision(parse_fibs_board(GNUBG_OPENING))
    assert d.kind == "move" and d.dice == (6, 3)
    assert d.position == Position.initial()
    assert d.match_length == 3 and d.score == (0, 0) and d.cube == 1 and d.cube_owner == -1
    assert not d.crawford


def test_a_board_without_dice_asks_double_or_roll() -> None:
    b = fibs_board(RACE, match_length=7, score=(1, 4))
    d = read_decision(b)
    assert d.kind == "cube" and d.dice is None and d.score == (1, 4)


def test_a_double_is_answered_by_the_side_not_on_turn() -> None:
    # The opponent is on roll and has redoubled to 4: the player ("You") answers.
    b = fibs_board(RACE, match_length=7, score=(2, 3), cube=2, cube_owner=1, doubled=True,
                   player_on_roll=False)
    d = read_decision(b)
    assert d.kind == "take"
    assert d.position == RACE  # seen from the player, who decides
    assert d.score == (2, 3)
    assert d.cube == 2 and d.cube_owner == 1
    game = d.game()
    assert game.player_to_act == 0 and game.turn == 1  # the doubler (player 1) is on roll
    assert game.position == RACE.swap()


def test_the_other_side_on_turn_is_read_from_its_own_view() -> None:
    b = fibs_board(RACE, player_on_roll=False, dice=(3, 1), match_length=5, score=(4, 1), cube_owner=0)
    d = read_decision(b)
    assert d.kind == "move" and d.position == RACE.swap()
    assert d.score == (1, 4)  # (decider, other)
    assert d.cube_owner == 1  # the player owns the cube: the decider's opponent


def test_gnubg_name_quirk_the_score_follows_the_name() -> None:
    # gnubg 1.07 writes player 0's name and score in the player's fields while the
    # checkers are the external player's: the name tells whose score it is.
    line = fibs_board(RACE, dice=(6, 5), match_length=7, score=(2, 5), player="gnubg", opponent="gammon")
    assert read_decision(line).score == (2, 5)
    assert read_decision(line, name="gammon").score == (5, 2)
    assert read_decision(line, name="gnubg").score == (2, 5)
    assert read_decision(line, name="someone else").score == (2, 5)


def test_crawford_game_and_cube_owner_reach_the_game() -> None:
    b = fibs_board(RACE, match_length=7, score=(6, 3), crawford=True)
    d = read_decision(b)
    assert d.crawford
    game = d.game()
    assert game.crawford_game and not game.can_double()
    post = read_decision(fibs_board(RACE, match_length=7, score=(6, 3), post_crawford=True))
    assert not post.crawford and post.game().can_double()


def test_a_finished_game_asks_nothing() -> None:
    b = parse_fibs_board(GNUBG_OPENING.replace(":1:6:3:6:3:", ":0:6:3:6:3:"))
    with pytest.raises(external.ExternalProtocolError, match="game is over"):
        read_decision(b)


# -- the answers -------------------------------------------------------------------


def test_moves_are_written_one_die_at_a_time_with_25_and_0() -> None:
    bear_off = Position([0] * 5 + [2] + [0] * 19, [2] + [0] * 24)
    assert [gnubg_move(p) for p in bear_off.legal_plays((6, 6))] == ["6/0 6/0"]
    entering = Position([0] * 5 + [14] + [0] * 18 + [1], [2] + [0] * 24)
    moves = [gnubg_move(p) for p in entering.legal_plays((5, 1))]
    assert moves and all("25/20" in m for m in moves)
    assert "20/19 25/20" not in moves  # the bar first, as gnubg writes it
    assert all(len(m.split()) == 2 for m in moves)


def test_a_roll_that_cannot_be_played_is_answered_with_an_empty_line() -> None:
    closed_out = Position([0] * 5 + [14] + [0] * 18 + [1], [2, 2, 2, 2, 2, 2, 3] + [0] * 18)
    assert Controller(player=HeuristicPlayer(1)).answer(str(fibs_board(closed_out, dice=(6, 5)))) == ""


def test_the_controller_answers_a_legal_play_gnubg_can_read() -> None:
    c = Controller(player=HeuristicPlayer(1))
    reply = c.answer(GNUBG_OPENING)
    play = Position.initial().parse_play(reply, (6, 3))
    assert play in Position.initial().legal_plays((6, 3))
    assert all("/" in part for part in reply.split())


def test_cube_answers_follow_the_player_and_the_rules() -> None:
    doubling = Controller(player=Scripted(cube="double"))
    assert doubling.answer(str(fibs_board(RACE, match_length=7))) == "double"
    assert Controller(player=Scripted(cube="no-double")).answer(str(fibs_board(RACE, match_length=7))) == "roll"
    # In the Crawford game nobody doubles, whatever the player would like.
    crawford = str(fibs_board(RACE, match_length=7, score=(6, 2), crawford=True))
    assert doubling.answer(crawford) == "roll"
    # The opponent owns the cube: roll.
    assert doubling.answer(str(fibs_board(RACE, match_length=7, cube=2, cube_owner=1))) == "roll"


def test_take_drop_and_beaver_answers() -> None:
    doubled = fibs_board(RACE, match_length=0, cube=1, doubled=True, player_on_roll=False)
    assert Controller(player=Scripted(answer="drop")).answer(str(doubled)) == "drop"
    assert Controller(player=Scripted(answer="take")).answer(str(doubled)) == "take"
    assert Controller(player=Scripted(answer="beaver")).answer(str(doubled)) == "beaver"
    in_match = fibs_board(RACE, match_length=7, cube=1, doubled=True, player_on_roll=False)
    assert Controller(player=Scripted(answer="beaver")).answer(str(in_match)) == "take"  # no beavers in a match


def test_the_player_sees_the_match_state() -> None:
    player = Scripted()
    c = Controller(player=player)
    c.answer(str(fibs_board(RACE, dice=(2, 1), match_length=9, score=(3, 7), cube=2, cube_owner=0)))
    game = player.games[-1]
    assert game.rules.match_length == 9 and game.score == (3, 7)
    assert game.cube_value == 2 and game.cube_owner == 0 and game.rolled == (2, 1)


def test_the_engine_drops_a_hopeless_double_and_takes_an_even_one() -> None:
    c = Controller("expert")
    hopeless = fibs_board(RACE.swap(), match_length=0, doubled=True, player_on_roll=False)
    assert c.answer(str(hopeless)) == "drop"
    even = fibs_board(Position.initial(), match_length=7, doubled=True, player_on_roll=False)
    assert c.answer(str(even)) == "take"
    assert c.errors == 0


def test_bad_lines_get_an_error_line_and_never_raise() -> None:
    c = Controller(player=HeuristicPlayer(1))
    rng = random.Random(7)
    parts = GNUBG_OPENING.split(":")
    samples = ["", "hello", "board:", "board:a:b", GNUBG_OPENING.replace(":6:3:6:3:", ":6:0:6:3:")]
    for _ in range(300):
        mutated = list(parts)
        for _ in range(rng.randint(1, 3)):
            mutated[rng.randrange(len(mutated))] = rng.choice(["-1", "7", "x", "", "99", "-15", "25", "2"])
        samples.append(":".join(mutated))
    for line in samples:
        reply = c.answer(line)
        assert isinstance(reply, str) and "\n" not in reply
        if reply.startswith("Error: "):
            continue
        # Anything answered must be an answer to a readable board.
        parse_fibs_board(line)
    assert c.errors > 0
    assert c.answer("hello").startswith("Error: ")


# -- the line server ----------------------------------------------------------------


def test_the_stream_loop_skips_nuls_and_refuses_overlong_lines() -> None:
    c = Controller(player=HeuristicPlayer(1))
    data = (GNUBG_OPENING + "\n\x00").encode() + b"x" * (MAX_LINE * 3) + b"\n" + b"nonsense\n"
    out = io.BytesIO()
    assert serve_stream(c, io.BytesIO(data), out) == 3
    replies = out.getvalue().decode().splitlines()
    assert len(replies) == 3
    assert Position.initial().parse_play(replies[0], (6, 3))
    assert replies[1].startswith("Error: line longer than")
    assert replies[2].startswith("Error: ")


def test_serving_over_tcp_until_the_peer_closes() -> None:
    c = Controller(player=HeuristicPlayer(1))
    sock = external.open_listener("127.0.0.1:0")
    host, port = external.parse_address(external.describe(sock))
    answered: list[int] = []
    thread = threading.Thread(target=lambda: answered.append(serve(c, sock, connections=1)))
    thread.start()
    with socket.create_connection((host, port), timeout=30) as conn, conn.makefile("rwb") as f:
        for line in (GNUBG_OPENING, "junk", str(fibs_board(RACE, match_length=3))):
            f.write(line.encode() + b"\n\x00")
            f.flush()
            assert f.readline().endswith(b"\n")
    thread.join(30)
    sock.close()
    assert answered == [3]
    assert c.answered == 2 and c.errors == 1


def test_serving_on_a_unix_socket(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = str(tmp_path / "gammon.sock")
    sock = external.open_listener(socket_path=path)
    c = Controller(player=HeuristicPlayer(1))
    thread = threading.Thread(target=serve, args=(c, sock), kwargs={"connections": 1})
    thread.start()
    with socket.socket(socket.AF_UNIX) as conn:
        conn.connect(path)
        conn.sendall(GNUBG_OPENING.encode() + b"\n")
        reply = conn.makefile("rb").readline().decode().strip()
    thread.join(30)
    sock.close()
    assert Position.initial().parse_play(reply, (6, 3))


def test_listener_errors_are_clear() -> None:
    with pytest.raises(external.GammonError, match="either --listen"):
        external.open_listener()
    with pytest.raises(external.GammonError, match="HOST:PORT"):
        external.open_listener("localhost")
    with pytest.raises(external.GammonError, match="HOST:PORT"):
        external.parse_address("host:99999")


def test_cli_reports_bad_options_in_one_line() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["external", "--listen", "nowhere"])
    assert result.exit_code == 2
    assert "error: bad address" in result.output
    result = runner.invoke(app, ["external", "--listen", "127.0.0.1:0", "--level", "godlike"])
    assert result.exit_code == 2 and "unknown level" in result.output
    result = runner.invoke(app, ["external"])
    assert result.exit_code == 2 and "--listen" in result.output


@pytest.mark.parametrize(("board", "why"), [
    ({"crawford": True, "match_length": 5, "score": (4, 2)}, "no double can be pending without the cube"),
    ({"cube": 4096}, "past its limit"),
    ({"cube": 2, "cube_owner": 0}, "the doubler does not own the cube"),  # I own it, yet I am doubled
])
def test_a_board_no_game_reaches_is_refused_not_answered(board: dict[str, object], why: str) -> None:
    """The decision's game is built through Game's checks: a double in the Crawford game, past the
    largest cube or by the side without the cube gets an error line, not a take or a beaver."""
    controller = Controller(player=HeuristicPlayer(1))
    line = str(fibs_board(RACE, doubled=True, player_on_roll=False, **board))  # type: ignore[arg-type]
    reply = controller.answer(line)
    assert reply.startswith("Error: the board cannot be a game") and why in reply, reply
    assert controller.errors == 1
