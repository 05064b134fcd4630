"""The ``gammon`` command: a typer app whose commands are thin layers over the library.

Every command reads its input through the library's parsers, so bad input
raises a :class:`~gammon.core.errors.GammonError`; :func:`user_errors` turns it
into one ``error: ...`` line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from typer.core import TyperGroup

try:  # typer 0.2x carries its own copy of click, whose exceptions these are
    from typer._click import exceptions as click_errors
except ImportError:  # older typer runs on click itself
    from click import exceptions as click_errors  # type: ignore[no-redef]

from gammon.core.errors import GammonError, InvalidDiceError, InvalidIdError
from gammon.core.position import Dice, Position, check_dice
from gammon.core.variants import STANDARD, VARIANTS, Variant, find_variant
from gammon.play.levels import DEFAULT_LEVEL, LEVELS

if TYPE_CHECKING:
    from gammon.core.match import Match
    from gammon.core.xgid import XgidState

#: Exit status for bad input (as click uses for usage errors).
EXIT_BAD_INPUT = 2
#: Exit status after Ctrl-C (128 + SIGINT).
EXIT_INTERRUPTED = 130
#: Exit status of a fault inside gammon (not the user's input).
EXIT_INTERNAL = 1


def _one_line(text: str) -> str:
    return " ".join(text.split())


class OneLineErrors(TyperGroup):
    """The ``gammon`` group: every failure ends as one ``error: ...`` line, never a traceback.

    click's usage errors (an unknown option, a missing argument, a value out of
    an option's range) become ``error: <reason> (see 'gammon CMD --help')`` and
    exit status 2; running out of memory or recursion depth on some input is
    reported the same way; anything else unexpected is an internal error (exit
    status 1), whose traceback ``GAMMON_DEBUG=1`` shows.
    """

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            rv = super().main(args=args, prog_name=prog_name, complete_var=complete_var,
                              standalone_mode=False, **extra)
        except click_errors.NoArgsIsHelpError as exc:
            typer.echo(exc.ctx.get_help() if exc.ctx is not None else exc.format_message())
            rv = EXIT_BAD_INPUT
        except click_errors.UsageError as exc:
            where = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            typer.echo(f"error: {_one_line(exc.format_message())}{where}", err=True)
            rv = EXIT_BAD_INPUT
        except click_errors.ClickException as exc:
            typer.echo(f"error: {_one_line(exc.format_message())}", err=True)
            rv = exc.exit_code or EXIT_BAD_INPUT
        except (typer.Abort, KeyboardInterrupt):
            typer.echo("\ninterrupted", err=True)
            rv = EXIT_INTERRUPTED
        except GammonError as exc:
            typer.echo(f"error: {_one_line(str(exc))}", err=True)
            rv = EXIT_BAD_INPUT
        except (MemoryError, RecursionError, OverflowError) as exc:
            if os.environ.get("GAMMON_DEBUG"):
                raise
            kind = {MemoryError: "too large to hold in memory", RecursionError: "nested too deeply",
                    OverflowError: "a number out of range"}[type(exc)]
            typer.echo(f"error: the input is {kind}", err=True)
            rv = EXIT_BAD_INPUT
        except Exception as exc:  # noqa: BLE001  (the last line of defence: no tracebacks)
            if os.environ.get("GAMMON_DEBUG"):
                raise
            typer.echo(f"error: internal error ({type(exc).__name__}: {_one_line(str(exc))[:200]}); "
                       "GAMMON_DEBUG=1 shows the traceback", err=True)
            rv = EXIT_INTERNAL
        code = rv if isinstance(rv, int) else 0
        if standalone_mode:
            sys.exit(code)
        return code


app = typer.Typer(
    name="gammon",
    cls=OneLineErrors,
    rich_markup_mode=None,  # plain help: flags without a fake "<bool>" value
    help="Backgammon in the terminal: play against the computer or a friend, list legal moves, draw boards.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

VariantOption = Annotated[
    str,
    typer.Option(
        "--variant",
        help=f"Rules to apply: {', '.join(VARIANTS)}.",
        show_default=True,
    ),
]


def fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with status 2."""
    typer.echo(f"error: {_one_line(message)}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT)


@contextmanager
def user_errors() -> Iterator[None]:
    """Report a :class:`GammonError` raised inside the block as one line, exit status 2."""
    try:
        yield
    except GammonError as exc:
        fail(str(exc))


_DICE = re.compile(r"\s*([1-6])\s*[-,/x ]?\s*([1-6])\s*", re.IGNORECASE)


def parse_dice(text: str) -> Dice:
    """Two dice written as ``31``, ``3-1``, ``3,1``, ``3/1``, ``3x1`` or ``3 1``.

    >>> parse_dice("3-1")
    (3, 1)

    :raises InvalidDiceError: anything else (a zero, a seven, one die, three).
    """
    m = _DICE.fullmatch(text)
    if m is None:
        raise InvalidDiceError(
            f"bad dice {text!r}: write two numbers from 1 to 6, like 31 or 3-1"
        )
    return check_dice((int(m.group(1)), int(m.group(2))))


def is_xgid(text: str) -> bool:
    """Whether ``text`` looks like an XGID (``XGID=...`` or fields joined by ``:``)."""
    s = text.strip()
    return s.upper().startswith("XGID=") or ":" in s


def read_xgid(text: str, variant: Variant = STANDARD) -> XgidState:
    """The state an XGID describes: position, cube, dice, score.

    Imported on use, so the other commands start without it.

    :raises InvalidIdError: a malformed XGID, or no XGID support installed.
    """
    try:
        from gammon.core.xgid import parse_xgid
    except ImportError:
        raise InvalidIdError(
            "XGID input is not supported by this installation of gammon; give a Position ID"
        ) from None
    return parse_xgid(text, variant)


def read_position(text: str, variant: str) -> tuple[Position, XgidState | None]:
    """The position a Position ID or XGID names, and the XGID state (None for an ID).

    :raises GammonError: a bad ID or an unknown variant.
    """
    from gammon.cli.limits import MAX_ID_TEXT, MAX_MATCH_LENGTH, check_text

    check_text(text, MAX_ID_TEXT, "the position")
    v = find_variant(variant)
    if is_xgid(text):
        state = read_xgid(text, v)
        if not 0 <= state.match_length <= MAX_MATCH_LENGTH:
            raise InvalidIdError(
                f"the XGID's match length must be 0 (money) to {MAX_MATCH_LENGTH}, "
                f"not {state.match_length if state.match_length < 10**9 else 'that'}"
            )
        return state.position, state
    return Position.from_position_id(text, v), None


def board_options(state: XgidState) -> dict[str, Any]:
    """What :func:`~gammon.cli.board.render_board` shows of an XGID besides the checkers."""
    match = state.match_length > 0
    options: dict[str, Any] = {
        "cube": state.cube_value,
        "cube_owner": {1: "me", -1: "opp"}.get(state.cube_owner),
        "dice": state.dice,
        "match_length": state.match_length or None,
        "crawford": state.crawford,
        "score": state.score if match else None,
    }
    return options


def position_json(pos: Position, state: XgidState | None) -> dict[str, Any]:
    """What ``show --json`` prints: the position's IDs, checkers (index 24: the bar), pips,
    and an XGID's cube, dice and score (``null`` for a Position ID)."""
    out: dict[str, Any] = {
        "position_id": pos.position_id,
        "variant": pos.variant.name,
        "on_roll": list(pos.me),
        "opponent": list(pos.opp),
        "pips": list(pos.pip_counts),
        "xgid": None,
    }
    if state is not None:
        out["xgid"] = {
            "cube": state.cube_value, "cube_owner": {1: "on_roll", -1: "opponent"}.get(state.cube_owner),
            "dice": list(state.dice) if state.dice else None, "match_length": state.match_length,
            "score": list(state.score), "crawford": state.crawford,
        }
    return out


@app.command()
def moves(
    position: Annotated[str, typer.Argument(help="Position ID (or XGID) of the position.")],
    dice: Annotated[
        list[str] | None,
        typer.Argument(help="The roll: 31, 3-1 or 3 1 (optional with an XGID that has dice)."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print a JSON list of {play, position_id}.")
    ] = False,
    variant: VariantOption = STANDARD.name,
) -> None:
    """List the legal plays of a roll, with the Position ID each one leads to.

    The resulting IDs are seen from the mover, before the turn passes (as GNU
    Backgammon's move generator reports them).
    """
    with user_errors():
        pos, state = read_position(position, variant)
        if dice:
            roll = parse_dice(" ".join(dice))
        elif state is not None and state.dice is not None:
            roll = check_dice(state.dice)
        else:
            raise InvalidDiceError("give the dice, like 31 or 3-1")
        plays = pos.legal_plays(roll)
    if as_json:
        typer.echo(
            json.dumps([{"play": str(p), "position_id": p.position.position_id} for p in plays])
        )
        return
    d1, d2 = roll
    if not plays:
        typer.echo(
            f"{pos.position_id} with {d1}-{d2}: no legal play; the player on roll cannot move "
            "and passes."
        )
        return
    count = f"{len(plays)} legal play{'s' if len(plays) != 1 else ''}"
    typer.echo(f"{pos.position_id} with {d1}-{d2}: {count}")
    width = max(len(str(p)) for p in plays)
    for i, p in enumerate(plays, 1):
        typer.echo(f"{i:>4}. {str(p):<{width}}  {p.position.position_id}")


@app.command()
def show(
    position: Annotated[
        str | None,
        typer.Argument(help="Position ID or XGID to draw; the starting position if omitted."),
    ] = None,
    variant: VariantOption = STANDARD.name,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the position as JSON: IDs, checkers, pips, cube, score.")
    ] = False,
) -> None:
    """Draw a position as a board, seen by the player on roll (O at the bottom)."""
    from gammon.cli.board import render_board

    with user_errors():
        if position is None:
            pos, state = Position.initial(variant), None
        else:
            pos, state = read_position(position, variant)
    if as_json:
        typer.echo(json.dumps(position_json(pos, state)))
        return
    options = board_options(state) if state is not None else {}
    console = Console(highlight=False)
    console.print(render_board(pos, **options), soft_wrap=True)
    if state is not None and position is not None:
        xgid = position.strip()
        if not xgid.upper().startswith("XGID="):
            xgid = "XGID=" + xgid
        console.print(f" {xgid}", soft_wrap=True, markup=False)


#: ``play``'s options that name how the match starts, or a file it continues or replays.
OpeningOption = Annotated[
    str | None, typer.Option("--opening", help="use-opening-dice (the opening throw is the first "
                             "move) or reroll (the starter throws anew); default: the variant's usual.")
]
ResumeOption = Annotated[
    str | None, typer.Option("--resume", help="Continue the match saved in this file (.mat, .sgf "
                             "or .json); its rules and names come from the file.")
]
LangOption = Annotated[
    str | None, typer.Option("--lang", help="The game's language: en, nb (Norwegian bokmål), sv, da or pl; "
                             "default: the locale (LC_ALL, LC_MESSAGES, LANG), else English.")
]
ReplayOption = Annotated[
    str | None, typer.Option("--replay", help="Step through the match saved in this file move by "
                             "move with its analysis, at --level's depth (expert 0-ply, world-class "
                             "and strongest 2-ply; weaker levels 0-ply).")
]


@app.command()
def play(
    match_length: Annotated[
        int, typer.Option("--match-length", "-m", min=0, max=25,
                          help="Points to win the match (1-25); 0 for a money session.")
    ] = 3,
    variant: VariantOption = STANDARD.name,
    dice: Annotated[
        str, typer.Option("--dice", help="random, cards (two piles of cards) or manual "
                          "(type in the rolls of a game played on a real board).")
    ] = "random",
    level: Annotated[
        str, typer.Option("--level", help="The computer's level: " + ", ".join(LEVELS) + ".")
    ] = DEFAULT_LEVEL,
    opponent: Annotated[
        str, typer.Option("--opponent", help="computer, or human for two people at one keyboard.")
    ] = "computer",
    two_players: Annotated[
        bool, typer.Option("--two-players", help="Two people at one keyboard (--opponent human).")
    ] = False,
    jacoby: Annotated[
        bool, typer.Option("--jacoby/--no-jacoby",
                           help="Money play: gammons count only once the cube is turned.")
    ] = True,
    beavers: Annotated[
        bool, typer.Option("--beavers/--no-beavers", help="Money play: a taker may redouble at once.")
    ] = False,
    auto_doubles: Annotated[
        int, typer.Option("--auto-doubles", min=0,
                          help="Money play: at most this many automatic doubles on opening ties.")
    ] = 0,
    seed: Annotated[
        int | None, typer.Option("--seed", min=0, help="Seed for the dice and the computer: replay a game.")
    ] = None,
    name: Annotated[str, typer.Option("--name", help="Your name (player 1).")] = "",
    opponent_name: Annotated[
        str, typer.Option("--opponent-name", help="The second player's name.")
    ] = "",
    opening: OpeningOption = None,
    resume: ResumeOption = None,
    replay: ReplayOption = None,
    lang: LangOption = None,
) -> None:
    """Play backgammon in the terminal, against the computer or a friend at the same keyboard.

    Type plays as players write them (24/18 13/11, bar/22*, 6/off), or 'moves'
    and a number; 'help' lists the commands (hint, undo, double, take, drop,
    resign, save, quit).
    """
    from gammon.cli.terminal import loop
    from gammon.cli.terminal import settings as terminal_settings

    _use_language(lang)
    loaded = None
    if replay is not None:
        _replay(replay, resume, level)
        return
    with user_errors():
        _check_play_options(auto_doubles, seed, name, opponent_name, dice)
        if resume is not None:
            loaded, saved_names = _load_resumed(resume)
            rules = loaded.rules
            match_length, variant = rules.match_length, rules.variant.name
            jacoby, beavers, auto_doubles = rules.jacoby, rules.beavers, rules.automatic_doubles
            opening = opening or rules.opening
            name, opponent_name = name or saved_names[0], opponent_name or saved_names[1]
        settings = terminal_settings.PlaySettings(
            match_length=match_length, variant=find_variant(variant).name, dice=dice.strip().lower(),
            level=level,
            opponent="human" if two_players else opponent.strip().lower(),  # type: ignore[arg-type]
            jacoby=jacoby, beavers=beavers, auto_doubles=auto_doubles,
            seed=seed,
            names=(name, opponent_name),
            opening=opening.strip().lower() if opening else None,
        ).checked()
    status = loop.run_terminal_game(settings, match=loaded, resumed_from=resume)
    if status:
        raise typer.Exit(status)


def _use_language(lang: str | None) -> None:
    """Speak ``--lang``'s language, else the locale's (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English."""
    from gammon.i18n import choose_language, set_language

    set_language(choose_language(lang, os.environ))


def _replay(path: str, resume: str | None, level: str) -> None:
    """``play --replay FILE``: step through a saved match with its analysis at ``level``'s depth."""
    from gammon.i18n import _

    with user_errors():
        if resume is not None:
            raise GammonError(_("--replay and --resume cannot be used together: replay one file or "
                                "resume it"))
        from gammon.cli.analyse_command import replay_file
        from gammon.play.levels import computer_level

        replay_file(path, computer_level(level).plies)


def _check_play_options(auto_doubles: int, seed: int | None, name: str, opponent_name: str, dice: str) -> None:
    """Refuse ``play``'s numbers and names out of bounds, and a seed with dice typed in by hand."""
    from gammon.cli.limits import MAX_AUTO_DOUBLES, MAX_NAME, MAX_SEED, check_int, check_text
    from gammon.i18n import _

    check_int(auto_doubles, 0, MAX_AUTO_DOUBLES, "--auto-doubles")
    if seed is not None:
        check_int(seed, 0, MAX_SEED, "--seed")
    check_text(name, MAX_NAME, "--name")
    check_text(opponent_name, MAX_NAME, "--opponent-name")
    if seed is not None and dice.strip().lower() == "manual":
        raise GammonError(_("--seed replays random or card dice; with --dice manual you type the rolls"))


def _load_resumed(path: str) -> tuple[Match, tuple[str, str]]:
    """The unfinished match saved in ``path`` (``play --resume``) and its players' names, cleaned.

    :raises GammonError: an unreadable record, or a match that is over.
    """
    from gammon.formats.record_files import load_record
    from gammon.i18n import _

    record = load_record(path)
    loaded = record.replay()
    if loaded.is_over:
        raise GammonError(_("the match in {file} is over: there is nothing to resume").format(file=path))
    return loaded, (_clean_name(record.names[0]), _clean_name(record.names[1]))


def _clean_name(text: str) -> str:
    """A name read from a file, without control characters and cut to a sensible length."""
    from gammon.cli.limits import MAX_NAME

    return "".join(c for c in text if c.isprintable())[:MAX_NAME].strip()


def main(argv: list[str] | None = None) -> None:
    """Run the ``gammon`` command line (the console script and ``python -m gammon``)."""
    app(args=argv if argv is not None else sys.argv[1:], prog_name="gammon")
