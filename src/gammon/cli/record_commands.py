"""``gammon selfplay`` and ``gammon verify``: making match records and checking their dice."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from gammon.core.errors import GammonError

#: File endings ``selfplay --out`` can write, and what each holds.
FORMATS = {".mat": "Jellyfish .mat", ".sgf": "SGF (GNU Backgammon)", ".json": "gammon JSON record"}


def write_record(match: object, path: Path, names: tuple[str, str], dice: object = None) -> None:
    """Save ``match`` in the format the file ending names (.mat, .sgf or .json).

    :raises GammonError: an unknown ending (the message lists the known ones).
    """
    from gammon.core.match import Match
    from gammon.formats.mat import write_mat
    from gammon.formats.record_json import dice_info_of, match_to_json
    from gammon.formats.sgf import write_sgf

    assert isinstance(match, Match)
    suffix = path.suffix.lower()
    if suffix == ".mat":
        text = write_mat(match, names)
    elif suffix == ".sgf":
        text = write_sgf(match, names)
    elif suffix == ".json":
        text = match_to_json(match, names, dice_info=dice_info_of(dice))
    else:
        known = ", ".join(f"{k} ({v})" for k, v in FORMATS.items())
        raise GammonError(f"cannot tell the format of {path.name!r}: use one of {known}")
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise GammonError(f"cannot write {path}: {exc.strerror or exc}") from None


def register(app: typer.Typer) -> None:
    """Add the record commands to the ``gammon`` app."""
    from gammon.cli.app import user_errors

    @app.command()
    def selfplay(
        out: Annotated[Path, typer.Option("--out", help="File to write: .mat, .sgf or .json.")],
        games: Annotated[int, typer.Option(help="Money play: how many games to play.")] = 10,
        seed: Annotated[int, typer.Option(help="Seed of the dice and the players.")] = 1,
        match_length: Annotated[int, typer.Option(help="Play one match to this length (0: money).")] = 0,
        variant: Annotated[str, typer.Option(help="Rules to play.")] = "standard",
        dice: Annotated[
            str, typer.Option(help="Dice: random (seeded), crypto (committed; check with verify), cards.")
        ] = "random",
    ) -> None:
        """Let the computer play itself (cube in use) and save the record."""
        from gammon.core.dice import CryptoDice, make_dice
        from gammon.play.selfplay import run_selfplay

        console = Console(stderr=True)
        with user_errors():
            if out.suffix.lower() not in FORMATS:
                raise GammonError(f"--out must end in {', '.join(FORMATS)}, not {out.name!r}")
            with Progress(
                TextColumn("self-play"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                console=console, transient=True,
            ) as bar:
                task = bar.add_task("games", total=None if match_length else games)

                def progress(done: int, total: int | None) -> None:
                    bar.update(task, completed=done, total=total)

                source = make_dice(dice) if dice == "crypto" else make_dice(dice, seed)
                match = run_selfplay(games, seed, match_length, variant, progress=progress, dice=source)
            if isinstance(source, CryptoDice):
                source.reveal()  # the games are over: publish the seed behind the commitment
            write_record(match, out, ("gammon 0", "gammon 1"), source)
        length = f"{match_length}-point match" if match_length else "money session"
        typer.echo(
            f"{len(match.games)} games ({length}), score {match.score[0]}-{match.score[1]}: wrote {out}"
        )

    @app.command()
    def verify(
        record: Annotated[Path, typer.Argument(help="A finished game's JSON record (gammon's own format).")],
    ) -> None:
        """Check a record's dice against the commitment published before the first roll."""
        from gammon.formats.record_json import JsonFormatError, record_from_json, verify_dice

        with user_errors():
            try:
                text = record.read_text(encoding="utf-8")
            except OSError as exc:
                raise GammonError(f"cannot read {record}: {exc.strerror or exc}") from None
            try:
                data = record_from_json(text)
            except JsonFormatError as exc:
                if "do not check out" in str(exc):
                    typer.echo(f"FAILED: {exc}")
                    raise typer.Exit(1) from None
                raise
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
            if result is None or not result:
                typer.echo(f"FAILED: {result.message if result is not None else 'nothing to check'}")
                raise typer.Exit(1)
            typer.echo(f"OK: all {rolls} rolls follow from the revealed seed; commitment {dice['commitment']}")
