"""Engine commands of the ``gammon`` CLI: ``hint``, ``eval`` and ``bearoff-build``.

Wired into the main app with :func:`register`.  Like the other commands, bad
input prints one ``error: ...`` line on stderr and exits with status 2.
The engine is imported when a command runs, so the rest of the CLI starts
without loading numba code or weights.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer

from gammon.core.errors import GammonError, InvalidDiceError
from gammon.core.position import Dice, Position, check_dice

if TYPE_CHECKING:
    from gammon.ai.engine import Engine
    from gammon.core.xgid import XgidState

#: Exit status for bad input (as the rest of the CLI).
EXIT_BAD_INPUT = 2

PliesOption = Annotated[
    int | None,
    typer.Option("--plies", "-p", help="Search depth: 0 (nets alone) to 3. Default: the level's."),
]
LevelOption = Annotated[
    str,
    typer.Option("--level", help="Playing level when --plies is not given (expert = 0-ply)."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
WeightsOption = Annotated[
    str | None, typer.Option("--weights", help="Network weights file (default: the packaged ones).")
]
VariantOption = Annotated[str, typer.Option("--variant", help="Rules of the position.")]


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(EXIT_BAD_INPUT)


def _read_position(text: str, variant: str) -> tuple[Position, XgidState | None]:
    from gammon.cli.app import read_position

    return read_position(text, variant)


def _read_dice(parts: list[str] | None, state: XgidState | None) -> Dice:
    from gammon.cli.app import parse_dice

    if parts:
        return parse_dice(" ".join(parts))
    if state is not None and state.dice is not None:
        return check_dice(state.dice)
    raise InvalidDiceError("give the dice, like 31 or 3-1")


def _engine(level: str, plies: int | None, weights: str | None) -> Engine:
    """The engine asked for; the weights file is read and checked whole first.

    The first use on a machine compiles the engine's kernels (numba caches
    them on disk): :func:`~gammon.cli.warmup.announce_first_use` says so at once.
    """
    from gammon.cli.limits import check_int, check_text, load_weights

    check_text(level, 40, "--level")
    if plies is not None:
        check_int(plies, 0, 3, "--plies")
    network = load_weights(weights) if weights is not None else None
    from gammon.cli.warmup import engine_ready

    engine_ready()
    from gammon.ai.engine import Engine

    return Engine(level, plies=plies, weights=network)


def _probs_dict(p: tuple[float, ...] | list[float]) -> dict[str, float]:
    names = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
    return {k: round(float(v), 6) for k, v in zip(names, p, strict=True)}


def _probs_text(p: tuple[float, ...]) -> str:
    return (f"win {100 * p[0]:5.1f}%  gammon {100 * p[1]:4.1f}%  bg {100 * p[2]:4.1f}%  |  "
            f"lose gammon {100 * p[3]:4.1f}%  bg {100 * p[4]:4.1f}%")


def _hint_table(shown: list[Any]) -> list[str]:
    """The ranked plays as a table within 80 columns: play, equity, its gap to the best,
    depth, then the chances in percent (win, gammon, backgammon | lose gammon, backgammon);
    the column names follow the rows (the first row is the best play)."""
    width = max(4, min(24, max(len(str(r.play)) for r in shown)))
    lines: list[str] = []
    for i, r in enumerate(shown, 1):
        play = str(r.play)
        if len(play) > width:
            play = play[: width - 3] + "..."
        diff = "" if i == 1 else f"({r.difference:+.3f})"
        p = [100 * v for v in r.probabilities]
        lines.append(f"{i:>4}. {play:<{width}}  {r.equity:+.3f} {diff:>8}  {r.plies:>3}  "
                     f"{p[0]:4.1f} {p[1]:4.1f} {p[2]:3.1f} | {p[3]:4.1f} {p[4]:3.1f}")
    lines.append(f"{'':>4}  {'':<{width}}  {'equity':>6} {'(diff)':>8}  ply   win   wg wbg |   lg lbg")
    return lines


def hint(
    position: Annotated[str, typer.Argument(help="Position ID or XGID (the player on roll moves).")],
    dice: Annotated[
        list[str] | None,
        typer.Argument(help="The roll: 31, 3-1 or 3 1 (optional with an XGID that has dice)."),
    ] = None,
    plies: PliesOption = None,
    level: LevelOption = "expert",
    count: Annotated[int, typer.Option("--count", "-n", help="Plays to show (0: all).")] = 5,
    as_json: JsonOption = False,
    weights: WeightsOption = None,
    variant: VariantOption = "standard",
) -> None:
    """The engine's best plays for a roll, with equities (mover's view).

    A Position ID is valued as cubeless money; an XGID at its score and cube
    (cubeful: EMG in a match, money equity per cube in a money game).

    Plays searched to the full depth come first; the others keep the value of
    the shallower stage that filtered them out (its depth is shown).
    """
    try:
        from gammon.cli.limits import check_int

        check_int(count, 0, 10_000, "--count")
        pos, state = _read_position(position, variant)
        roll = _read_dice(dice, state)
        engine = _engine(level, plies, weights)
        from gammon.ai.cube import CubeInfo

        ranked = engine.rank_plays(pos, roll, None if state is None else CubeInfo.from_xgid(state))
    except GammonError as exc:
        raise _fail(str(exc)) from None
    shown = ranked if count <= 0 else ranked[:count]
    games = engine.network.meta.get("games")
    if as_json:
        typer.echo(json.dumps({
            "position_id": pos.position_id,
            "dice": list(roll),
            "plies": engine.plies,
            "level": engine.level.name,
            "weights_games": games,
            "plays": [
                {"play": str(r.play), "position_id": r.play.position.position_id,
                 "equity": round(r.equity, 6), "difference": round(r.difference, 6),
                 "plies": r.plies, "probabilities": _probs_dict(r.probabilities)}
                for r in shown
            ],
        }))
        return
    d1, d2 = roll
    head = f"{pos.position_id} with {d1}-{d2}: {engine.level.name}"
    if games is not None:
        head += f" (weights: {games} training games)"
    typer.echo(head)
    if not ranked:
        typer.echo("  no legal play: the player on roll passes")
        return
    for line in _hint_table(shown):
        typer.echo(line)


def _cube_fields(engine: Engine, pos: Position, state: XgidState | None) -> dict[str, Any] | None:
    """The engine's cube decision at its level's cube depth (an XGID's cube and score, else money
    with the cube centred); None for a finished game."""
    from gammon.ai.cube import CubeInfo

    if pos.outcome is not None:
        return None
    info = CubeInfo() if state is None else CubeInfo.from_xgid(state)
    from gammon.cli.rollout_command import trials_bar

    with trials_bar() as progress:  # a close call the level rolls out takes seconds
        d = engine.cube_action(pos, info, progress=progress)
    out: dict[str, Any] = {
        "action": d.action, "taker_action": d.taker_action,
        "no_double": round(d.no_double, 6), "double_take": round(d.double_take, 6),
        "double_pass": round(d.double_pass, 6), "cubeful_equity": round(d.equity, 6),
        "explanation": d.explanation, "can_double": d.can_double,
    }
    if d.mwc is not None:
        out["mwc"] = [round(m, 6) for m in d.mwc]
    return out


def evaluate(
    position: Annotated[str, typer.Argument(help="Position ID or XGID (the player on roll).")],
    plies: PliesOption = None,
    level: LevelOption = "expert",
    as_json: JsonOption = False,
    weights: WeightsOption = None,
    variant: VariantOption = "standard",
) -> None:
    """Winning chances and equity of the player on roll, before the roll (and the cube decision).

    An XGID's cube and score are used for the cube decision; a Position ID is
    taken as money play with the cube centred.
    """
    try:
        pos, state = _read_position(position, variant)
        engine = _engine(level, plies, weights)
        ev = engine.evaluate(pos, cube=False)  # the cube is decided once, below, at the XGID's score
        cube_info = _cube_fields(engine, pos, state)
    except GammonError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps({
            "position_id": pos.position_id,
            "plies": ev.plies,
            "level": engine.level.name,
            "class": ev.position_class.name.lower(),
            "weights_games": engine.network.meta.get("games"),
            "probabilities": _probs_dict(ev.probabilities),
            "equity": round(ev.equity, 6),
            "cube": cube_info,
        }))
        return
    typer.echo(f"{pos.position_id}: {ev.position_class.name.lower()} position, {ev.plies}-ply, "
               "player on roll")
    typer.echo(f"  {_probs_text(ev.probabilities)}")
    typer.echo(f"  cubeless equity {ev.equity:+.3f}")
    if cube_info is not None:
        if not cube_info["can_double"]:  # Crawford, a dead or owned cube, the limit: say why
            typer.echo(f"  cube: no double ({cube_info['explanation']}); cubeful equity "
                       f"{cube_info['no_double']:+.3f}")
        else:
            typer.echo(f"  cube: {cube_info['action']} (no double {cube_info['no_double']:+.3f}, "
                       f"double/take {cube_info['double_take']:+.3f}, "
                       f"double/pass {cube_info['double_pass']:+.3f}); taker: {cube_info['taker_action']}")


def bearoff_build(
    out: Annotated[
        str | None,
        typer.Option("--out", help="Where to write the database (default: the user cache)."),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace the --out file if it exists.")] = False,
) -> None:
    """Compute the one-sided bear-off database (54,264 home positions and 20,475 with at most
    four checkers anywhere) with a progress bar.

    An existing ``--out`` file is replaced only with ``--force`` (the database in
    the user cache is gammon's own and is always rebuilt); the folder is checked
    to take a file before the build starts.
    """
    from pathlib import Path

    from rich.progress import Progress

    from gammon.ai import bearoff
    from gammon.formats.record_files import check_folder_writable

    path = Path(out) if out else bearoff.cache_path()
    try:
        if out:
            if path.is_dir():
                raise GammonError(f"--out {path} is a folder: give a file name")
            check_folder_writable(path.parent, f"--out {path}")
            if path.exists() and not force:
                raise GammonError(f"--out {path} already exists: choose another name, or --force to replace it")
        elif path.parent.is_dir():
            check_folder_writable(path.parent, f"the cache {path}")
    except GammonError as exc:
        raise _fail(str(exc)) from None
    with Progress(transient=True) as progress:
        task = progress.add_task("bear-off database", total=bearoff.N_POSITIONS + bearoff.N_SHORT)

        def report(done: int, total: int) -> None:
            progress.update(task, completed=done)

        db = bearoff.build(report)
    try:
        db.save(path)
    except OSError as exc:
        raise _fail(f"cannot write {path}: {exc}") from None
    typer.echo(f"bear-off database: {bearoff.N_POSITIONS} + {bearoff.N_SHORT} positions in "
               f"{db.meta.get('build_seconds', '?')} s, written to {path}")


def register(app: typer.Typer) -> None:
    """Add ``hint``, ``eval`` and ``bearoff-build`` to ``app``."""
    app.command("hint")(hint)
    app.command("eval")(evaluate)
    app.command("bearoff-build")(bearoff_build)
