"""``gammon selfplay``, ``verify`` and ``convert``: making, checking and converting match records.

Every check that can fail is made before any game is played or any file is
written: the file ending names a format that can hold the match (a Dutch
session cannot go to a ``.mat`` file), the folder exists, and an existing file
is only replaced with ``--force``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from gammon.core.errors import GammonError
from gammon.play.levels import DEFAULT_LEVEL, LEVELS

# The record formats (and the game loop behind them) are imported by the commands that
# use them, not here: every ``gammon`` command imports this module to register these.

ForceOption = Annotated[bool, typer.Option("--force", help="Replace the file if it exists.")]


def write_record(match: object, path: Path, names: tuple[str, str], dice: object = None,
                 *, replace: bool = True) -> None:
    """Save ``match`` in the format the file ending names (.mat, .sgf or .json).

    :raises GammonError: an unknown ending (the message lists the known ones),
        an existing file when not ``replace``, or a match the format cannot hold.
    """
    from gammon.core.match import Match
    from gammon.formats.record_files import check_target, format_of, render_record, write_text

    assert isinstance(match, Match)
    fmt = format_of(path)
    check_target(path, replace=replace)
    write_text(path, render_record(match, fmt.suffix, names, dice))


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _plays_disagree(text: str) -> str | None:
    """Why the record's written plays do not replay, or None when they do.

    A JSON record keeps each play twice: as players write it (``"play"``) and as
    the position it leads to (``"position"``), which the reader replays.  Verifying
    replays the written plays as well, so an illegal play string, or one that
    leads elsewhere than the recorded position, fails the record.
    """
    import json

    from gammon.formats.record_json import JsonFormatError, record_from_json

    doc = json.loads(text)
    written = json.loads(text)
    for game in written.get("games") or []:
        for item in game if isinstance(game, list) else []:
            if isinstance(item, dict) and item.get("action") == "move" and isinstance(item.get("play"), str):
                item.pop("position", None)
    try:
        by_play = record_from_json(written)
    except JsonFormatError as exc:
        return f"a written play does not replay: {' '.join(str(exc).split())}"
    by_position = record_from_json(doc).replay()
    replayed = by_play.replay()
    for i, (a, b) in enumerate(zip(by_position.games, replayed.games, strict=False), 1):
        if a.position != b.position or len(a.record) != len(b.record):
            return f"game {i}: the written plays lead elsewhere than the recorded positions"
    if len(by_position.games) != len(replayed.games) or by_position.score != replayed.score:
        return "the written plays lead elsewhere than the recorded positions"
    return None


def selfplay(
    out: Annotated[Path, typer.Option("--out", help="File to write: .mat, .sgf or .json.")],
    games: Annotated[int, typer.Option(help="Money play: how many games to play.")] = 10,
    seed: Annotated[int, typer.Option(help="Seed of the dice and the players.")] = 1,
    match_length: Annotated[int, typer.Option(help="Play one match to this length (0: money).")] = 0,
    variant: Annotated[str, typer.Option(help="Rules to play.")] = "standard",
    dice: Annotated[
        str, typer.Option(help="Dice: random (seeded), crypto (committed; check with verify), cards.")
    ] = "random",
    jacoby: Annotated[
        bool, typer.Option("--jacoby/--no-jacoby",
                           help="Money play: gammons count only once the cube is turned.")
    ] = True,
    level: Annotated[
        str, typer.Option("--level", help="Both sides' level, as for 'gammon play': "
                          + ", ".join(LEVELS) + ".")
    ] = DEFAULT_LEVEL,
    force: ForceOption = False,
) -> None:
    """Let the computer play itself at one level (cube in use) and save the record."""
    from gammon.cli.app import user_errors
    from gammon.cli.limits import MAX_MATCH_LENGTH, MAX_SEED, MAX_SELFPLAY_GAMES, check_int, check_text
    from gammon.core.dice import make_dice
    from gammon.core.fair_dice import CryptoDice
    from gammon.core.rules import Rules
    from gammon.core.variants import find_variant
    from gammon.formats.record_files import FORMATS, check_can_hold, check_target, format_of
    from gammon.play.levels import find_level
    from gammon.play.selfplay import run_selfplay

    console = Console(stderr=True)
    with user_errors():
        check_int(games, 1, MAX_SELFPLAY_GAMES, "--games")
        check_int(seed, 0, MAX_SEED, "--seed")
        check_int(match_length, 0, MAX_MATCH_LENGTH, "--match-length")
        key = find_level(check_text(level, 40, "--level"))
        if dice not in ("random", "crypto", "cards"):
            raise GammonError(f"--dice is random, crypto or cards, not {dice!r}")
        if out.suffix.lower() not in FORMATS:
            raise GammonError(f"--out must end in {', '.join(FORMATS)}, not {out.name!r}")
        v = find_variant(variant)
        rules = Rules(variant=v, match_length=match_length, jacoby=jacoby and not match_length)
        check_can_hold(format_of(out).suffix, rules, dice)
        check_target(out, replace=force)
        if key != "heuristic":
            from gammon.cli.warmup import engine_ready

            engine_ready()
        with Progress(
            TextColumn("self-play"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            console=console, transient=True,
        ) as bar:
            task = bar.add_task("games", total=None if match_length else games)

            def progress(done: int, total: int | None) -> None:
                bar.update(task, completed=done, total=total)

            source = make_dice(dice) if dice == "crypto" else make_dice(dice, seed)
            match = run_selfplay(games, seed, match_length, v.name, progress=progress, dice=source,
                                 jacoby=rules.jacoby, level=key)
        if isinstance(source, CryptoDice):
            source.reveal()  # the games are over: publish the seed behind the commitment
        write_record(match, out, ("gammon 0", "gammon 1"), source, replace=force)
    length = f"{match_length}-point match" if match_length else "money session"
    a, b = match.score
    if match_length:
        result = f"gammon {0 if a > b else 1} wins {max(a, b)}-{min(a, b)}"
    else:
        result = f"points {a}-{b}"
    typer.echo(f"{_plural(len(match.games), 'game')} ({length}, level {key} against itself), "
               f"{result}: wrote {out}")


def verify(
    record: Annotated[Path, typer.Argument(help="A finished game's JSON record (gammon's own format).")],
) -> None:
    """Replay a record's every action and check its dice against the commitment.

    Exit status 0: every play is legal and every roll follows from the seed
    revealed after the game; 1: the record fails (the reason is printed); 2:
    the file cannot be read or has no commitment to check.
    """
    from gammon.cli.app import user_errors
    from gammon.formats.record_files import check_nesting, read_record_text
    from gammon.formats.record_json import JsonFormatError, record_from_json, verify_dice

    with user_errors():
        if record.suffix.lower() != ".json":
            raise GammonError(f"verify reads gammon's JSON records (.json), not {record.name!r}: "
                              "only they keep the dice commitment")
        text = read_record_text(record)
        check_nesting(text, ".json", f"record {record}")
        try:
            data = record_from_json(text)  # replays every action: an illegal play fails here
        except JsonFormatError as exc:
            if str(exc).startswith("not JSON") or "not a gammon match record" in str(exc):
                raise
            typer.echo(f"FAILED: {' '.join(str(exc).split())}")
            raise typer.Exit(1) from None
        failure = _plays_disagree(text)
        if failure is not None:
            typer.echo(f"FAILED: {failure}")
            raise typer.Exit(1)
        dice = data.dice or {}
        if dice.get("kind") != "crypto" or not dice.get("commitment"):
            raise GammonError("this record has no dice commitment to check (its dice were not crypto dice)")
        if not dice.get("seed"):
            typer.echo(
                f"not yet verifiable: the seed behind commitment {dice['commitment']} "
                "is revealed when the game ends"
            )
            raise typer.Exit(1)
        result = verify_dice(data)
        rolls = sum(1 for g in data.games for a in g if getattr(a, "dice", None) is not None)
        plays = sum(1 for g in data.games for a in g if type(a).__name__ == "Move")
        if result is None or not result:
            typer.echo(f"FAILED: {result.message if result is not None else 'nothing to check'}")
            raise typer.Exit(1)
        typer.echo(f"OK: {_plural(len(data.games), 'game')} replayed "
                   f"({_plural(plays, 'play')}, all legal); all {rolls} rolls follow from the "
                   f"revealed seed; commitment {dice['commitment']}")


def convert(
    source: Annotated[Path, typer.Argument(help="The record to read: .mat, .sgf or .json.")],
    target: Annotated[Path, typer.Argument(help="The file to write: .mat, .sgf or .json.")],
    force: ForceOption = False,
) -> None:
    """Convert a match record between .mat, SGF and gammon's JSON (the file endings decide).

    The record is replayed whole first; a match the target format cannot
    hold (Dutch backgammon in a .mat file, say) is refused with the reason
    and nothing is written.
    """
    from gammon.cli.app import user_errors
    from gammon.formats.record_files import (
        check_can_hold,
        check_target,
        format_of,
        load_record,
        render_record,
        write_text,
    )

    with user_errors():
        fmt = format_of(target)
        format_of(source)
        check_target(target, replace=force)
        if source.resolve() == target.resolve():
            raise GammonError("the source and the target are the same file")
        loaded = load_record(source)
        match = loaded.replay()
        check_can_hold(fmt.suffix, match.rules)
        text = render_record(match, fmt.suffix, loaded.names, loaded.dice)
        write_text(target, text)
    if not fmt.keeps_commitment and (loaded.dice or {}).get("kind") == "crypto":
        typer.echo(f"note: {target} keeps every roll but not the dice commitment; "
                   f"verify {source} itself", err=True)
    typer.echo(f"{source} -> {target}: {_plural(len(match.games), 'game')}, "
               f"score {match.score[0]}-{match.score[1]} ({fmt.title})")


def register(app: typer.Typer) -> None:
    """Add the record commands to the ``gammon`` app."""
    app.command()(selfplay)
    app.command()(verify)
    app.command()(convert)
