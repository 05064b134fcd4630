"""The gammon engine protocol: a line protocol over stdin/stdout, in the spirit of chess's UCI.

A graphical interface, a tournament manager or a script in any language
starts ``gammon engine`` and writes one command per line; gammon answers with
zero or more lines.  Positions are XGIDs (eXtreme Gammon's position strings,
which carry the cube, score, match length and dice).  The full description,
with a session, is ``docs/engine_protocol.md``; in short:

==============================  ==================================================
``gep``                         handshake: ``id name ...``, ``id author ...``,
                                ``option ...`` lines, then ``gepok``
``isready``                     ``readyok`` (once the engine is loaded)
``setoption name N value V``    options: ``Level``, ``Seed``, ``Jacoby``, ``Beavers``
``newgame``                     forget the position (back to the start)
``position startpos``           the starting position; ``position xgid XGID=...``
                                any position; ``... dice 31`` adds a roll
``dice 31``                     set the roll of the player on roll
``show``                        ``position xgid ...`` (the current position)
``moves``                       ``moves N`` then one ``move PLAY`` line per legal play
``eval``                        ``eval ...``: the five chances, cubeless and cubeful
                                equity and the cube action, for the player on roll
``go``                          the decision the position asks for: ``bestmove PLAY``
                                (dice rolled), ``cubeanswer take|drop|beaver`` (a
                                double pending) or ``cubeaction double|no-double``
``go move`` / ``go cube`` /      ask for one kind of decision
``go take``
``hint [N]``                    the N best plays: ``hint I PLAY equity E diff D``
``quit``                        end
==============================  ==================================================

Plays are written in standard notation (``24/18 13/11``, ``bar/22*``,
``6/off``); a roll that cannot be played is ``bestmove pass``.  Anything
wrong gets one ``error MESSAGE`` line and the session goes on; lines longer
than :data:`MAX_LINE` characters are refused, and input whose line runs past
:data:`MAX_UNENDED` characters without ending (``/dev/zero``, a binary file)
ends the session with an error instead of being read forever.  Decisions come from the same
players as everywhere else (:mod:`gammon.play.levels`), match-aware through
the XGID's score, cube and Crawford flag.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import IO, TYPE_CHECKING

from gammon.core.cube import CubeAction
from gammon.core.errors import GammonError
from gammon.core.position import Position, check_dice
from gammon.core.xgid import XgidState, format_xgid, parse_xgid
from gammon.play.external import Decision

if TYPE_CHECKING:
    from gammon.play.players import Player

#: Name the engine gives in its handshake.
ENGINE_NAME = "gammon"
#: The longest command line accepted.
MAX_LINE = 4096
#: The most characters of one over-long line skipped before the input is given up as no session.
MAX_UNENDED = 1024 * 1024
#: Largest ``Seed`` option: a 63-bit whole number, as the command line's ``--seed``.
MAX_SEED = 2**63 - 1


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("gammon")
    except Exception:  # noqa: BLE001 - an uninstalled source tree has no version
        return "dev"


def decision_from_xgid(state: XgidState, kind: str | None = None) -> Decision:
    """The decision an XGID state asks for (``kind``: move, cube or take; None: the state says).

    :raises GammonError: the state does not ask for that decision (no dice
        for a move, a double pending for a cube action, ...), or is a beaver
        or raccoon, which this protocol does not answer.
    """
    if state.beavered or state.raccooned:
        raise GammonError("the position has a beaver pending: answer it yourself")
    wanted = kind or ("take" if state.double_offered else "move" if state.dice is not None else "cube")
    if wanted not in ("move", "cube", "take"):
        raise GammonError(f"unknown decision {kind!r}: move, cube or take")
    if wanted == "take" and not state.double_offered:
        raise GammonError("no double is pending: the XGID's dice field must be D")
    if wanted != "take" and state.double_offered:
        raise GammonError("a double is pending: the only decision is take or drop (go take)")
    if wanted == "move" and state.dice is None:
        raise GammonError("no dice: give them with 'dice 31' or in the XGID")
    if wanted == "cube" and state.dice is not None:
        raise GammonError("the dice are rolled: the cube is turned before the roll")
    owner = state.relative_owner
    if state.position.outcome is not None:
        raise GammonError("the game is over in this position")
    if wanted == "take":
        # The decider is the doubler's opponent: see everything from its side.
        return Decision("take", state.position.swap(), None, state.match_length,
                        (state.score[1], state.score[0]), state.cube_value,
                        owner.swap(), state.crawford)
    return Decision("move" if wanted == "move" else "cube", state.position,
                    state.dice if wanted == "move" else None, state.match_length, state.score,
                    state.cube_value, owner, state.crawford)


class EngineProtocol:
    """One session of the protocol: :meth:`handle` turns a command line into reply lines."""

    def __init__(self, level: str = "expert", seed: int | None = None) -> None:
        from gammon.play.levels import find_level

        self.level = find_level(level)
        self.seed = None if seed is None else _seed(str(seed))
        self.jacoby = False
        self.beavers = False
        self._player: Player | None = None
        self.state = XgidState(Position.initial())
        self.done = False

    # -- the player ----------------------------------------------------------------

    @property
    def player(self) -> Player:
        if self._player is None:
            from gammon.play.levels import make_computer_player

            self._player = make_computer_player(self.level, self.seed)
        return self._player

    def _game(self, decision: Decision):  # type: ignore[no-untyped-def]
        return decision.game(jacoby=self.jacoby, beavers=self.beavers)

    # -- commands ----------------------------------------------------------------

    def handle(self, line: str) -> list[str]:
        """The reply lines to one command line (never raises; errors are ``error ...`` lines)."""
        if len(line) > MAX_LINE:
            return [f"error command longer than {MAX_LINE} characters"]
        words = line.strip().split()
        if not words:
            return []
        command, args = words[0].lower(), words[1:]
        handler: Callable[[list[str]], list[str]] | None = getattr(self, f"_cmd_{command}", None)
        if handler is None:
            return [f"error unknown command {command!r}; the commands are: {', '.join(COMMANDS)}"]
        try:
            return handler(args)
        except GammonError as exc:
            return [f"error {exc}"]
        except Exception as exc:  # noqa: BLE001 - a bad command must never end the session
            return [f"error internal error ({type(exc).__name__}: {exc})"]

    def _cmd_gep(self, args: list[str]) -> list[str]:
        from gammon.play.levels import LEVELS

        levels = " ".join(f"var {name}" for name in LEVELS)
        return [
            f"id name {ENGINE_NAME} {_version()}",
            "id author the gammon authors",
            f"option name Level type combo default {self.level} {levels}",
            "option name Seed type string default none",
            "option name Jacoby type check default false",
            "option name Beavers type check default false",
            "gepok",
        ]

    def _cmd_isready(self, args: list[str]) -> list[str]:
        _ = self.player  # load the engine now, as UCI's isready promises
        return ["readyok"]

    def _cmd_setoption(self, args: list[str]) -> list[str]:
        text = " ".join(args)
        low = text.lower()
        if not low.startswith("name ") or " value " not in low:
            raise GammonError("write: setoption name NAME value VALUE")
        at = low.index(" value ")
        name, value = text[5:at].strip().lower(), text[at + 7:].strip()
        if name == "level":
            from gammon.play.levels import find_level

            self.level = find_level(value)
            self._player = None
        elif name == "seed":
            if value.lower() == "none":
                self.seed = None
            else:
                self.seed = _seed(value)
            self._player = None
        elif name in ("jacoby", "beavers"):
            if value.lower() not in ("true", "false"):
                raise GammonError(f"{name.title()} must be true or false, not {value!r}")
            setattr(self, name, value.lower() == "true")
        else:
            raise GammonError(f"unknown option {name!r}: Level, Seed, Jacoby or Beavers")
        return []

    def _cmd_newgame(self, args: list[str]) -> list[str]:
        self.state = XgidState(Position.initial())
        return []

    def _cmd_position(self, args: list[str]) -> list[str]:
        if not args:
            raise GammonError("write: position startpos | position xgid XGID=... [dice 31]")
        dice = None
        if len(args) >= 2 and args[-2].lower() == "dice":
            dice = _dice(args[-1])
            args = args[:-2]
        kind = args[0].lower()
        if kind == "startpos" and len(args) == 1:
            state = XgidState(Position.initial())
        elif kind == "xgid" and len(args) == 2:
            state = parse_xgid(args[1])
        else:
            raise GammonError("write: position startpos | position xgid XGID=... [dice 31]")
        if dice is not None:
            state = _with_dice(state, dice)
        self.state = state
        return []

    def _cmd_dice(self, args: list[str]) -> list[str]:
        if len(args) != 1:
            raise GammonError("write: dice 31")
        self.state = _with_dice(self.state, _dice(args[0]))
        return []

    def _cmd_show(self, args: list[str]) -> list[str]:
        return [f"position xgid {format_xgid(self.state)}"]

    def _cmd_moves(self, args: list[str]) -> list[str]:
        if self.state.dice is None:
            raise GammonError("no dice: give them with 'dice 31'")
        plays = self.state.position.legal_plays(self.state.dice)
        texts = [str(p) or "pass" for p in plays] or ["pass"]  # no legal play: the pass is the one
        return [f"moves {len(texts)}", *(f"move {t}" for t in texts)]

    def _cmd_eval(self, args: list[str]) -> list[str]:
        if self.state.double_offered:
            raise GammonError("a double is pending: evaluate the position before it (or 'go take')")
        engine = getattr(self.player, "engine", None)
        if engine is None:
            raise GammonError(f"the {self.level} level cannot evaluate positions; choose a neural level")
        decision = decision_from_xgid(self.state, "cube") if self.state.dice is None else None
        game = self._game(decision) if decision is not None else None
        value = engine.evaluate(self.state.position, game)
        w, wg, wbg, lg, lbg = value.probabilities
        parts = [f"eval plies {value.plies}", f"win {w:.4f}", f"wingammon {wg:.4f}", f"winbg {wbg:.4f}",
                 f"losegammon {lg:.4f}", f"losebg {lbg:.4f}", f"equity {value.equity:+.4f}"]
        if value.cubeful_equity is not None and decision is not None:
            parts.append(f"cubeful {value.cubeful_equity:+.4f}")
            parts.append(f"cube {value.cube_action.word if value.cube_action else 'none'}")
        return [" ".join(parts)]

    def _cmd_go(self, args: list[str]) -> list[str]:
        kind = args[0].lower() if args else None
        if kind not in (None, "move", "cube", "take"):
            raise GammonError("write: go | go move | go cube | go take")
        decision = decision_from_xgid(self.state, kind)
        game = self._game(decision)
        if decision.kind == "move":
            plays = game.legal_plays()
            if not plays or not plays[0].moves:
                return ["bestmove pass"]
            return [f"bestmove {self.player.choose_play(game, plays)}"]
        if decision.kind == "cube":
            if not game.can_double():
                return ["cubeaction no-double"]
            return [f"cubeaction {CubeAction.parse(self.player.cube_action(game)).word}"]
        answer = CubeAction.parse(self.player.answer_double(game))
        if answer is CubeAction.BEAVER and not (game.rules.is_money and game.rules.beavers):
            answer = CubeAction.TAKE
        return [f"cubeanswer {answer.word}"]

    def _cmd_hint(self, args: list[str]) -> list[str]:
        count = 5
        if args:
            if not args[0].isdigit() or not 1 <= int(args[0]) <= 100:
                raise GammonError("write: hint [N], N from 1 to 100")
            count = int(args[0])
        if self.state.dice is None:
            raise GammonError("no dice: give them with 'dice 31'")
        engine = getattr(self.player, "engine", None)
        if engine is None:
            raise GammonError(f"the {self.level} level cannot rank plays; choose a neural level")
        from gammon.ai.cube import CubeInfo

        # valued at the XGID's score and cube (match equity in a match), like the plays it makes
        ranked = engine.hint(self.state.position, self.state.dice, CubeInfo.from_xgid(self.state), count=count)
        return [f"hint {i + 1} {r.play or 'pass'} equity {r.equity:+.4f} diff {r.difference:+.4f}"
                for i, r in enumerate(ranked)]

    def _cmd_quit(self, args: list[str]) -> list[str]:
        self.done = True
        return []

    def run(self, lines: Iterable[str], write: Callable[[str], None]) -> None:
        """Answer ``lines`` one by one with ``write`` until ``quit`` or the end of input."""
        for line in lines:
            for reply in self.handle(line.rstrip("\r\n")):
                write(reply)
            if self.done:
                return


COMMANDS = ("gep", "isready", "setoption", "newgame", "position", "dice", "show", "moves", "eval", "go",
            "hint", "quit")


def _seed(text: str) -> int:
    """The seed ``text`` names: a whole number from 0 to :data:`MAX_SEED`.

    :raises GammonError: anything else (a sign, a fraction, a number too large).
    """
    if not (text.isascii() and text.isdigit() and len(text) <= 19 and int(text) <= MAX_SEED):
        raise GammonError(f"Seed must be none or a whole number from 0 to {MAX_SEED}, not {text[:40]!r}")
    return int(text)


def _dice(text: str) -> tuple[int, int]:
    if len(text) != 2 or not text.isdigit():
        raise GammonError(f"bad dice {text!r}: write two digits 1-6, like 31")
    return check_dice((int(text[0]), int(text[1])))


def _with_dice(state: XgidState, dice: tuple[int, int]) -> XgidState:
    from dataclasses import replace

    if state.double_offered:
        raise GammonError("a double is pending: no dice until it is taken")
    return replace(state, dice=dice)


def serve_stdio(protocol: EngineProtocol, stdin: IO[str], stdout: IO[str]) -> None:
    """Run the protocol over text streams, flushing after every reply line.

    Memory stays bounded: at most :data:`MAX_LINE` + 2 characters are held at a
    time.  An over-long line is skipped to its end and answered with an error;
    one that has not ended after :data:`MAX_UNENDED` characters is not a
    session at all, so it is answered with an error line and then refused.

    :raises GammonError: a line ran past :data:`MAX_UNENDED` characters.
    """

    def write(text: str) -> None:
        stdout.write(text + "\n")
        stdout.flush()

    def lines() -> Iterable[str]:
        while True:
            line = stdin.readline(MAX_LINE + 2)
            if not line:
                return
            if len(line) > MAX_LINE and not line.endswith("\n"):
                skipped = len(line)
                while line and not line.endswith("\n"):
                    if skipped > MAX_UNENDED:
                        message = (f"the input has a line of more than {MAX_UNENDED:,} characters "
                                   "without an end: it is not an engine protocol session")
                        write(f"error {message}")
                        raise GammonError(message)
                    line = stdin.readline(MAX_LINE + 2)
                    skipped += len(line)
                yield "x" * (MAX_LINE + 1)  # refused as too long
                continue
            yield line

    protocol.run(lines(), write)


__all__ = ["COMMANDS", "ENGINE_NAME", "MAX_LINE", "MAX_SEED", "MAX_UNENDED", "EngineProtocol",
           "decision_from_xgid", "serve_stdio"]
