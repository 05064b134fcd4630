"""GNU Backgammon's external-player interface, both sides of it.

GNU Backgammon can hand every decision of one player to another program
(``set player 1 external HOST:PORT`` or a local socket path): it connects to
that program and, for each decision, sends one FIBS board line
(:mod:`gammon.formats.fibs`) and reads one line back:

* before a roll, when doubling is possible: ``double`` or ``roll``;
* after a double: ``take``, ``drop`` (or ``pass``) or ``beaver``;
* with dice on the board: the play in plain notation, one ``from/to`` per
  die, 25 the bar and 0 off (``24/18 18/13``, ``25/22 6/0``); an empty line
  when no checker can move;
* a line starting ``Error: `` reports a problem (GNU Backgammon prints it
  and stops that player's turn).

GNU Backgammon sends a NUL byte after each line; it is ignored here.  It
answers offers to resign for the external player itself (1.07 never sends
them), so there is no resignation line to answer.

:class:`Controller` answers such lines with a gammon :class:`Player` (the
levels of :mod:`gammon.play.levels`): each line is turned into a
:class:`~gammon.core.game.Game` standing at that decision, with the match
length, score, Crawford game and cube of the board, and the player is asked
exactly as a session would ask it, so checker play and cube decisions are
match-aware wherever the engine is.  :func:`serve` listens on TCP or a Unix
socket and answers line after line, game after game, until the peer closes;
a bad line gets an ``Error: ...`` line back and the connection goes on.

**Whose decision, and whose score.**  The side that decides is the side on
turn, or its opponent when ``was doubled`` is set.  GNU Backgammon 1.07
writes the player's *name and score* fields for player 0 while the checkers
are seen from player 1 (the external player), except when answering a double.
The name and score travel together, so a controller that knows its own name
(``name``: set it with gnubg's ``set player 1 name``) takes its score from
the field carrying that name; otherwise the score follows the FIBS meaning
(the player's fields).

:class:`GnubgExternalClient` is the other side: it talks to GNU Backgammon's
own ``external`` command, which answers board lines with gnubg's decisions
(tests and benchmarks only; gammon never depends on GNU Backgammon), and
:class:`RemotePlayer` makes such a program a seat of a
:class:`~gammon.play.session.Session`, which asks it like any player.

**The loops.**  Neither side keeps a game loop.  The remote program owns the
game it sends lines about: :func:`serve_stream` only answers line after line,
and each line is a one-decision session (:meth:`Controller.decide`).  On the
other side the :class:`~gammon.play.session.Session` drives the match and asks
the :class:`RemotePlayer` seat when its decision is pending.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO, Literal

from gammon.core.cube import CubeAction, CubeOwner, RelativeOwner
from gammon.core.errors import GammonError
from gammon.core.game import Action, Beaver, Double, Drop, Game, Move, Phase, Roll, Rules, Take
from gammon.core.plays import Play
from gammon.core.position import Position, ResultKind
from gammon.formats.fibs import MAX_LINE, FibsBoard, fibs_board, parse_fibs_board
from gammon.formats.record_actions import action_name
from gammon.play.players import DoubleAnswer, Player
from gammon.play.session import Person, Session

#: The highest cube GNU Backgammon allows.
MAX_CUBE = 4096
#: Answers to a double, as written on the line.
DoubleReply = Literal["take", "drop", "beaver"]
DecisionKind = Literal["move", "cube", "take"]


class ExternalProtocolError(GammonError):
    """A line of the external-player protocol that cannot be answered."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision a board line asks for, seen from the side that decides.

    ``kind``: ``move`` (dice rolled), ``cube`` (double or roll) or ``take``
    (answer a double).  ``position`` is seen from the decider (for ``take``
    too).  ``score`` is (decider, other); ``cube_owner`` (a
    :class:`~gammon.core.cube.RelativeOwner`) is -1 centred, 0 the decider,
    1 the other side; ``match_length`` 0 is money play.
    """

    kind: DecisionKind
    position: Position
    dice: tuple[int, int] | None
    match_length: int
    score: tuple[int, int]
    cube: int
    cube_owner: RelativeOwner
    crawford: bool

    def game(self, *, jacoby: bool = False, beavers: bool = True) -> Game:
        """A :class:`Game` standing at this decision, the decider as player 0.

        The game has no history: it exists to ask a :class:`Player` the
        question, with the match, score, Crawford game and cube it needs.
        For ``take`` the doubler (player 1) is on roll and the game waits for
        player 0's answer.
        """
        money = self.match_length == 0
        rules = Rules(match_length=self.match_length, crawford=True, jacoby=money and jacoby,
                      beavers=money and beavers, cube_limit=MAX_CUBE)
        take = self.kind == "take"
        phase = Phase.DOUBLED if take else Phase.MOVE if self.kind == "move" else Phase.ROLL
        try:
            return Game(rules, crawford_game=self.crawford, score=self.score,
                        position=self.position.swap() if take else self.position, turn=1 if take else 0,
                        phase=phase, rolled=self.dice if self.kind == "move" else None, cube_value=self.cube,
                        cube_owner=CubeOwner.from_relative(self.cube_owner, 0))
        except GammonError as exc:  # the board names a state no game reaches
            raise ExternalProtocolError(f"the board cannot be a game: {exc}") from None


def read_decision(board: FibsBoard, name: str | None = None) -> Decision:
    """The decision ``board`` asks for (see the module docstring for whose it is).

    :raises ExternalProtocolError: the game is over, or the board asks for nothing.
    """
    if board.turn == 0:
        raise ExternalProtocolError("the board says the game is over (turn 0): there is no decision to make")
    doubled = board.was_doubled != 0
    decider_is_player = board.player_on_turn != doubled
    scores = (board.player_score, board.opponent_score)  # (the player's checkers, the opponent's)
    if name is not None and name == board.opponent and name != board.player:
        # GNU Backgammon 1.07 wrote the name and score fields for the other side.
        scores = (board.opponent_score, board.player_score)
    if not decider_is_player:
        scores = (scores[1], scores[0])
    mine, theirs = board.player_may_double, board.opponent_may_double
    owner = (RelativeOwner.ME if (mine, theirs) == (1, 0)
             else RelativeOwner.OPPONENT if (mine, theirs) == (0, 1) else RelativeOwner.CENTERED)
    if not decider_is_player:
        owner = owner.swap()
    position = board.position(from_player=decider_is_player)
    if position.outcome is not None:
        raise ExternalProtocolError("the board shows a finished game: there is no decision to make")
    dice = board.dice
    kind: DecisionKind = "take" if doubled else "move" if dice is not None else "cube"
    length = 0 if board.is_money else board.match_length
    crawford = board.crawford_game
    if crawford and owner is not RelativeOwner.CENTERED:
        crawford = False  # a cube was turned: this cannot be the Crawford game
    return Decision(kind, position, dice if kind == "move" else None, length, scores,
                    board.cube, owner, crawford)


def gnubg_move(play: Play) -> str:
    """A play as GNU Backgammon's external interface reads it: one ``from/to`` per die.

    25 is the bar and 0 is off, as gnubg writes its own answers; a pass is
    an empty string.

    >>> from gammon import Position
    >>> p = Position.initial()
    >>> gnubg_move(p.parse_play("24/13", (6, 5)))
    '24/18 18/13'
    """
    return " ".join(f"{m.from_point}/{m.to_point}" for m in play.moves)


class Controller:
    """Answers board lines with a gammon :class:`Player`.

    ``player`` defaults to the computer at ``level``; ``name`` is this
    player's name on the board lines (see the module docstring).
    """

    def __init__(self, level: str = "expert", *, player: Player | None = None, name: str | None = None,
                 jacoby: bool = False, beavers: bool = True, seed: int | None = None) -> None:
        if player is None:
            from gammon.play.levels import make_computer_player

            player = make_computer_player(level, seed)
        self.player = player
        self.name = name
        self.jacoby = jacoby
        self.beavers = beavers
        self.answered = 0
        self.errors = 0

    def decide(self, board: FibsBoard) -> str:
        """The answer to ``board``: a play, ``double``/``roll`` or ``take``/``drop``/``beaver``.

        The board becomes a one-decision :class:`~gammon.play.session.Session` (the game standing
        at the decision, this controller's player in the deciding seat): the session asks the
        player as it asks any seat, and the answer must be one of the actions the session allows
        now.  Nothing is submitted: the remote program owns the game and plays the answer itself
        (its turn order is the protocol's, one line per decision), and the game the player was
        shown stays as shown.
        """
        decision = read_decision(board, self.name)
        game = decision.game(jacoby=self.jacoby, beavers=self.beavers)
        if decision.kind == "move":
            plays = game.legal_plays()
            if not plays or not plays[0].moves:
                return ""
        session = Session(game, (_ProtocolSeat(self.player), Person()))
        pending = session.pending
        assert pending is not None and pending.player == 0  # the decider is player 0 of the game
        action = session.ask()
        if isinstance(action, Beaver) and not pending.may_beaver:  # the permission is core's
            action = Take(action.player)
        if action not in session.allowed():
            what = action.play if isinstance(action, Move) else action_name(action)
            raise ExternalProtocolError(f"the player chose an illegal play {what}")
        return _reply(action)
    def answer(self, line: str) -> str:
        """The reply to one line of the protocol (never raises).

        A board line gets a decision; anything else, or a board that cannot
        be answered, gets ``Error: ...``.
        """
        text = line.strip().strip("\x00").strip()
        try:
            if text.lower() in ("version", "help"):
                return "gammon external controller: send FIBS board lines (board:...), one per decision"
            board = parse_fibs_board(text)
            reply = self.decide(board)
        except GammonError as exc:
            self.errors += 1
            return f"Error: {exc}"
        except Exception as exc:  # noqa: BLE001 - a peer's line must never crash the server
            self.errors += 1
            return f"Error: internal error ({type(exc).__name__}: {exc})"
        self.answered += 1
        return reply


class _ProtocolSeat:
    """A controller's player as a session seat: the protocol has no line to offer a resignation
    on (GNU Backgammon answers resignations for the external player itself), so it never resigns."""

    def __init__(self, player: Player) -> None:
        self.player = player

    def choose_play(self, game: Game, plays: Sequence[Play]) -> Play:
        return self.player.choose_play(game, plays)

    def cube_action(self, game: Game) -> CubeAction:
        return self.player.cube_action(game)

    def answer_double(self, game: Game) -> DoubleAnswer:
        return self.player.answer_double(game)

    def answer_resignation(self, game: Game, kind: ResultKind) -> bool:
        return self.player.answer_resignation(game, kind)

    def choose_double_number(self, game: Game) -> int:
        return self.player.choose_double_number(game)

    def resign(self, game: Game) -> ResultKind | None:
        return None


#: The line that answers each kind of action the session's seat chose.
_ANSWER_WORDS: dict[type, str] = {Double: "double", Roll: "roll", Take: "take", Drop: "drop", Beaver: "beaver"}


def _reply(action: Action) -> str:
    """The protocol's line for ``action``: the play, or the cube word."""
    if isinstance(action, Move):
        assert isinstance(action.play, Play)
        return gnubg_move(action.play)
    return _ANSWER_WORDS[type(action)]


# -- the line loop and the listener -------------------------------------------


def read_lines(stream: IO[bytes], limit: int = MAX_LINE) -> Iterator[str | None]:
    """The lines of ``stream`` without end-of-line and NUL bytes; None for a line over ``limit`` bytes.

    An over-long line is read to its end and skipped, so the next line is
    read correctly.
    """
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            return
        if len(raw) > limit and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):
                raw = stream.readline(limit + 1)
            yield None
            continue
        text = raw.replace(b"\x00", b"").decode("utf-8", errors="replace").strip()
        if text:
            yield text


def serve_stream(controller: Controller, rfile: IO[bytes], wfile: IO[bytes],
                 log: Callable[[str], None] | None = None) -> int:
    """Answer every line of ``rfile`` on ``wfile`` until it ends; returns the lines answered."""
    count = 0
    for line in read_lines(rfile):
        if line is None:
            reply = f"Error: line longer than {MAX_LINE} bytes"
            controller.errors += 1
        else:
            reply = controller.answer(line)
        if log is not None:
            log(f"{line} => {reply}")
        wfile.write(reply.encode() + b"\n")
        wfile.flush()
        count += 1
    return count


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` as a (host, port) pair.

    :raises GammonError: no port, or a port that is not 0-65535.
    """
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise GammonError(f"bad address {text!r}: write HOST:PORT, like localhost:8123")
    return host or "localhost", int(port)


def open_listener(listen: str | None = None, socket_path: str | None = None) -> socket.socket:
    """A listening socket on ``HOST:PORT`` or a Unix socket path.

    :raises GammonError: both or neither given, a bad address, or the address is in use.
    """
    if (listen is None) == (socket_path is None):
        raise GammonError("give either --listen HOST:PORT or --socket PATH")
    try:
        if socket_path is not None:
            with contextlib.suppress(FileNotFoundError):
                if os.path.exists(socket_path) and not os.path.isdir(socket_path):
                    os.unlink(socket_path)
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.bind(socket_path)
        else:
            assert listen is not None
            host, port = parse_address(listen)
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
    except OSError as exc:
        raise GammonError(f"cannot listen on {socket_path or listen}: {exc.strerror or exc}") from None
    sock.listen(4)
    return sock


def describe(sock: socket.socket) -> str:
    """The address a listener is bound to, as gnubg's ``set player N external`` wants it."""
    name = sock.getsockname()
    if isinstance(name, tuple):
        return f"{name[0]}:{name[1]}"
    return str(name)


def serve(controller: Controller, sock: socket.socket, *, connections: int | None = 1,
          log: Callable[[str], None] | None = None) -> int:
    """Accept connections on ``sock`` one after another and answer their lines.

    Stops after ``connections`` connections have closed (None: never).
    Returns the lines answered.
    """
    total = 0
    served = 0
    while connections is None or served < connections:
        conn, _ = sock.accept()
        with conn, conn.makefile("rb") as rfile, conn.makefile("wb") as wfile:
            try:
                total += serve_stream(controller, rfile, wfile, log)
            except (ConnectionError, OSError) as exc:
                if log is not None:
                    log(f"connection ended: {exc}")
        served += 1
    return total


# -- the client of GNU Backgammon's ``external`` command ------------------------


class GnubgExternalClient:
    """A connection to GNU Backgammon's ``external`` command (gnubg listening).

    ``ask`` sends one line (a board) and returns gnubg's one-line answer.
    """

    def __init__(self, address: str, *, timeout: float = 30.0, connect_wait: float = 20.0) -> None:
        deadline = time.monotonic() + connect_wait
        while True:
            try:
                if ":" in address and "/" not in address:
                    sock = socket.create_connection(parse_address(address), timeout=timeout)
                else:
                    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    sock.settimeout(timeout)
                    sock.connect(address)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise GammonError(f"cannot reach GNU Backgammon's external command at {address}") from None
                time.sleep(0.1)
        self.sock = sock
        self.rfile = sock.makefile("rb")

    def ask(self, line: str | FibsBoard) -> str:
        """gnubg's answer to one line (a :class:`FibsBoard` is written out first)."""
        text = str(line).strip()
        if "\n" in text:
            raise GammonError("one line at a time")
        self.sock.sendall(text.encode() + b"\n")
        return self._line()

    def _line(self) -> str:
        while True:
            raw = self.rfile.readline(MAX_LINE * 4)
            if not raw:
                raise GammonError("GNU Backgammon closed the external connection")
            reply = raw.replace(b"\x00", b"").decode("utf-8", errors="replace").strip()
            if reply:
                return reply

    def version(self) -> dict[str, str]:
        """gnubg's ``version`` answer (four lines: Interface, RFBF, Engine, Software) as a dict."""
        first = self.ask("version")
        lines = [first] + [self._line() for _ in range(3)]
        return {k.strip(): v.strip() for k, _, v in (ln.partition(":") for ln in lines)}

    def decide(self, position: Position, *, dice: tuple[int, int] | None = None, doubled: bool = False,
               match_length: int = 0, score: tuple[int, int] = (0, 0), cube: int = 1, cube_owner: int = -1,
               crawford: bool = False, post_crawford: bool = False) -> Play | str:
        """gnubg's decision for the player on roll of ``position`` (or, ``doubled``, its answer).

        With ``dice``: the play gnubg chooses, as a legal :class:`Play`.
        Without: ``double`` or ``roll``.  ``doubled``: the opponent of the
        player on roll of ``position`` has doubled and that player answers
        ``take``, ``drop`` or ``beaver``.  ``score`` is (decider, other);
        ``cube_owner`` -1 centred, 0 the decider, 1 the other side.

        :raises GammonError: gnubg's answer is an error or not a legal play.
        """
        board = fibs_board(position, player_on_roll=not doubled, dice=dice if not doubled else None,
                           match_length=match_length, score=score, cube=cube, cube_owner=cube_owner,
                           doubled=doubled, crawford=crawford, post_crawford=post_crawford,
                           player="gammon", opponent="gnubg")
        reply = self.ask(board)
        if reply.lower().startswith("error"):
            raise GammonError(f"GNU Backgammon answered: {reply}")
        if dice is None or doubled:
            word = reply.split()[0].lower() if reply.split() else ""
            if word not in ("double", "roll", "take", "drop", "beaver"):
                raise GammonError(f"GNU Backgammon's answer {reply!r} is not a cube decision")
            return word
        if not reply.strip():
            plays = position.legal_plays(dice)
            if len(plays) == 1 and not plays[0].moves:
                return plays[0]
        return position.parse_play(reply, dice)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.rfile.close()
            self.sock.close()

    def __enter__(self) -> GnubgExternalClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class RemotePlayer:
    """A remote program behind the external-player protocol as a session seat (a :class:`Player`).

    Each decision the :class:`~gammon.play.session.Session` asks is sent to ``client`` (a
    :class:`GnubgExternalClient`: GNU Backgammon's ``external`` command, or any program that
    answers board lines, a :func:`serve` of ours included) as one board line seen from the
    player who decides, with the match, score, Crawford flags and cube; its answer goes back to
    the session, which checks it as any seat's.  The protocol asks only plays and cube
    decisions: this seat never offers to resign, rejects every offer (it cannot be asked), and
    cannot name Acey-Deucey's double.
    """

    def __init__(self, client: GnubgExternalClient) -> None:
        self.client = client

    def _ask(self, game: Game, viewer: int, *, dice: tuple[int, int] | None = None,
             doubled: bool = False) -> Play | str:
        from gammon.ai.cube import CubeInfo  # the engine's package loads only when a remote seat plays

        info = CubeInfo.from_game(game, viewer)
        position = game.position if viewer == game.turn else game.position.swap()
        return self.client.decide(position, dice=dice, doubled=doubled, match_length=info.match_length,
                                  score=info.score, cube=info.value, cube_owner=int(info.owner),
                                  crawford=info.crawford, post_crawford=info.post_crawford)

    def choose_play(self, game: Game, plays: Sequence[Play]) -> Play:
        play = self._ask(game, game.turn, dice=game.rolled)
        if not isinstance(play, Play):  # pragma: no cover - decide returns a play when given dice
            raise ExternalProtocolError(f"the remote program answered {play!r} for a play")
        return play

    def cube_action(self, game: Game) -> CubeAction:
        answer = self._ask(game, game.turn)
        return CubeAction.NO_DOUBLE if answer == "roll" else CubeAction.parse(answer)

    def answer_double(self, game: Game) -> DoubleAnswer:
        return CubeAction.parse(self._ask(game, game.player_to_act, doubled=True))

    def answer_resignation(self, game: Game, kind: ResultKind) -> bool:
        return False

    def choose_double_number(self, game: Game) -> int:
        raise ExternalProtocolError("the external-player protocol has no line to name Acey-Deucey's double")

    def resign(self, game: Game) -> ResultKind | None:
        return None


def gnubg_executable() -> str | None:
    """The GNU Backgammon program, if installed (``gnubg`` on PATH or /usr/games/gnubg)."""
    import shutil

    found = shutil.which("gnubg")
    if found:
        return found
    return "/usr/games/gnubg" if os.access("/usr/games/gnubg", os.X_OK) else None


def start_gnubg_external(address: str, *, plies: int = 0, gnubg: str | None = None) -> subprocess.Popen[bytes]:
    """Start GNU Backgammon's ``external`` command listening on ``address`` (``HOST:PORT`` or a path).

    Checker play and cube decisions at ``plies``.  Stop it with
    ``terminate()``; connect with :class:`GnubgExternalClient`.

    :raises GammonError: GNU Backgammon is not installed.
    """
    program = gnubg or gnubg_executable()
    if program is None:
        raise GammonError("GNU Backgammon (gnubg) is not installed")
    commands = (
        f"set evaluation chequerplay evaluation plies {plies}\n"
        f"set evaluation cubedecision evaluation plies {plies}\n"
        f"external {address}\n"
    )
    proc = subprocess.Popen([program, "-t", "-q"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    assert proc.stdin is not None
    proc.stdin.write(commands.encode())
    proc.stdin.flush()
    return proc


def log_to_stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


__all__ = [
    "Controller",
    "Decision",
    "ExternalProtocolError",
    "GnubgExternalClient",
    "RemotePlayer",
    "describe",
    "gnubg_executable",
    "gnubg_move",
    "open_listener",
    "parse_address",
    "read_decision",
    "read_lines",
    "serve",
    "serve_stream",
    "start_gnubg_external",
]
