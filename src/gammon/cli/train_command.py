"""``gammon train ...``: the one command line of :mod:`gammon.training`.

``gammon train td`` (also plain ``gammon train``, the default) is TD(lambda)
self-play training of our own networks, a thin layer over
:func:`gammon.training.train.train`: checkpoints go to ``--out``
(``checkpoint.npz`` and ``meta.json``, the settings and the strength history),
``--resume`` continues from there, and a progress bar shows games, speed and
the latest strength figure (win rate and points per game against the fixed
heuristic bot).

The later stages keep their own option parsers and are reached through here:
``gammon train refine`` (:mod:`gammon.training.refine`), ``refine-fit``
(:mod:`gammon.training.refine_fit`), ``lopsided`` (:mod:`gammon.training.lopsided`),
``ensemble`` (:mod:`gammon.training.ensemble`), ``pruning``
(:mod:`gammon.training.pruning_fit`) and ``met`` (:mod:`gammon.training.met_rollouts`);
``gammon train refine --help``
lists a stage's options.  Nothing of the runtime imports :mod:`gammon.training`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from typer.core import TyperGroup

if TYPE_CHECKING:  # the training package is imported only when a run starts
    from gammon.training.train import Settings


def train(
    out: Annotated[Path, typer.Option("--out", help="Folder for checkpoint.npz, meta.json and snapshots.")],
    games: Annotated[int, typer.Option(help="Total games to reach (resumed games count).")] = 100_000,
    resume: Annotated[bool, typer.Option(help="Continue from the checkpoint in --out.")] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Start afresh in --out even if it holds a run (replacing it).")
    ] = False,
    seed: Annotated[int, typer.Option(help="Seed of the dice and the first weights.")] = 1,
    hidden: Annotated[int, typer.Option(help="Hidden units of each net.")] = 128,
    alpha: Annotated[float, typer.Option(help="Learning rate.")] = 0.1,
    lam: Annotated[float, typer.Option("--lambda", help="TD(lambda) trace decay.")] = 0.7,
    variant: Annotated[str, typer.Option(help="The variant self-play follows (e.g. dutch).")] = "standard",
    init: Annotated[
        Path | None, typer.Option("--init", help="Start from these weights (.npz) instead of random ones.")
    ] = None,
    epsilon: Annotated[float, typer.Option(help="Chance of a random play in self-play.")] = 0.0,
    nets: Annotated[int, typer.Option(help="2: separate contact and race nets; 1: one net.")] = 2,
    checkpoint_every: Annotated[int, typer.Option(help="Games between checkpoints.")] = 5000,
    log_every: Annotated[int, typer.Option(help="Games between progress lines.")] = 1000,
    eval_every: Annotated[int, typer.Option(help="Games between strength measurements (0: never).")] = 5000,
    eval_games: Annotated[int, typer.Option(help="Games of each strength measurement.")] = 200,
    snapshot_every: Annotated[
        int, typer.Option(help="Keep snapshots/games-N.npz every this many games (0: never).")
    ] = 100_000,
) -> None:
    """Train the evaluator by self-play (TD(lambda)) from random weights, or resume a run."""
    import dataclasses

    from gammon.cli.app import user_errors
    from gammon.cli.limits import load_weights
    from gammon.core.variants import find_variant
    from gammon.training.train import Settings

    with user_errors():
        settings = Settings(games=games, seed=seed, hidden=hidden, alpha=alpha, lam=lam,
                            variant=variant, init=None if init is None else str(init), epsilon=epsilon,
                            nets=nets, checkpoint_every=checkpoint_every, log_every=log_every,
                            eval_every=eval_every, eval_games=eval_games, snapshot_every=snapshot_every)
        _check_settings(settings)
        _check_run(out, games, resume=resume, force=force)
        settings = dataclasses.replace(settings, variant=find_variant(variant).name)
        if init is not None:
            settings = dataclasses.replace(settings, hidden=load_weights(init, "--init weights").hidden)
        _train_with_bar(settings, out, resume)
    typer.echo(f"trained to {games:,} game{'' if games == 1 else 's'}: {out / 'checkpoint.npz'}")


def _check_settings(s: Settings) -> None:
    """Refuse options out of range, each named as given on the command line.

    :raises GammonError: the first option out of its range.
    """
    from gammon.cli.limits import MAX_HIDDEN, MAX_SEED, MAX_TRAIN_GAMES, check_float, check_int

    check_int(s.games, 1, MAX_TRAIN_GAMES, "--games")
    check_int(s.hidden, 1, MAX_HIDDEN, "--hidden")
    check_int(s.seed, 0, MAX_SEED, "--seed")
    check_float(s.alpha, 0.0, 1.0, "--alpha", open_low=True)
    check_float(s.lam, 0.0, 1.0, "--lambda")
    check_float(s.epsilon, 0.0, 1.0, "--epsilon")
    check_int(s.nets, 1, 2, "--nets")
    for value, low, name in ((s.checkpoint_every, 1, "--checkpoint-every"), (s.log_every, 1, "--log-every"),
                             (s.eval_every, 0, "--eval-every"), (s.eval_games, 1, "--eval-games"),
                             (s.snapshot_every, 0, "--snapshot-every")):
        check_int(value, low, MAX_TRAIN_GAMES, name)


def _check_run(out: Path, games: int, *, resume: bool, force: bool) -> None:
    """Refuse ``--resume`` with ``--force``, an unusable ``--out`` (:func:`_check_out`), and a
    resumed run that cannot be read or has already played ``games``.

    :raises GammonError: what is wrong, before a single game is trained.
    """
    from gammon.cli.limits import load_weights
    from gammon.core.errors import GammonError

    if resume and force:
        raise GammonError("--resume continues the run in --out; --force replaces it: choose one")
    _check_out(out, resume=resume, force=force)
    if not resume:
        return
    done = load_weights(out / "checkpoint.npz", "checkpoint", checkpoint=True).meta.get("games", 0)
    snaps = sorted((out / "snapshots").glob("games-*.npz"))
    if snaps:
        load_weights(snaps[-1], "snapshot")
    if isinstance(done, int) and done >= games:
        raise GammonError(f"the run in {out} has already played {done:,} games; "
                          f"ask for more with --games")


def _train_with_bar(settings: Settings, out: Path, resume: bool) -> None:
    """Run :func:`gammon.training.train.train` with a progress bar and a log line per report."""
    from gammon.cli.warmup import PREPARING, _cached
    from gammon.training import train as train_module
    from gammon.training.train import Progress as Report
    from gammon.training.train import train as run_training

    console = Console(stderr=True)
    with Progress(
        TextColumn("training"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[info]}"),
        TimeRemainingColumn(), console=console,
    ) as bar:
        task = bar.add_task("games", total=settings.games, info="")

        def progress(p: object) -> None:
            assert isinstance(p, Report)
            info = f"{p.recent_games_per_s:.0f} games/s"
            if p.strength:
                win, ppg = p.strength.get("win", 0.0), p.strength.get("ppg", 0.0)
                info += f"  vs heuristic: win {win:.0%} ppg {ppg:+.2f}"
            bar.update(task, completed=p.games, info=info)
            console.log(p.line())

        if not _cached(train_module._train_games):
            console.print(f"{PREPARING.replace('the engine', 'the trainer')}...")
        run_training(settings, out, resume=resume, progress=progress)


def _check_out(out: Path, *, resume: bool, force: bool) -> None:
    """Refuse an ``--out`` that is not a folder for a run, one whose run would be lost, or one
    that cannot be written: before a single game is trained.

    :raises GammonError: a file in the way, a missing parent folder, a run there
        without ``--resume`` or ``--force``, ``--resume`` with nothing to resume,
        or a folder where no file can be made (tried, not guessed from permissions).
    """
    from gammon.core.errors import GammonError
    from gammon.formats.record_files import check_folder_writable

    if out.exists() and not out.is_dir():
        raise GammonError(f"--out {out} is a file; training writes a folder (checkpoint.npz, meta.json)")
    if not out.exists() and not out.parent.is_dir():
        raise GammonError(f"--out {out}: the folder {out.parent} does not exist")
    check_folder_writable(out if out.is_dir() else out.parent, f"--out {out}")
    ckpt = out / "checkpoint.npz"
    if resume:
        if not ckpt.exists():
            raise GammonError(f"nothing to resume: {ckpt} does not exist")
        return
    if out.is_dir() and any(out.iterdir()) and not force:
        what = "a training run" if ckpt.exists() else "files"
        raise GammonError(f"--out {out} already holds {what}: --resume to continue it, --force to start "
                          "afresh there, or choose another folder")


class _TdByDefault(TyperGroup):
    """``gammon train`` whose first word is not a stage's name (or none) means ``gammon train td``."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:  # ctx: typer's (vendored) click Context
        if not args or (args[0] not in self.commands and args[0] not in ("--help", "-h")):
            args = ["td", *args]
        return super().parse_args(ctx, args)


#: The stages with their own option parsers: the subcommand, the module, its ``main``'s summary.
STAGES: dict[str, tuple[str, str]] = {
    "refine": ("refine", "Refine a net on our own deeper search's values of self-play positions."),
    "refine-fit": ("refine_fit", "Train a net on refinement datasets already made."),
    "lopsided": ("lopsided", "Refine a net on rollouts of a class of positions (lopsided, late hits, ...)."),
    "ensemble": ("ensemble", "Average several nets into one (a teacher for distillation)."),
    "pruning": ("pruning_fit", "Fit the 2-ply search's pruning net to our own evaluator's values."),
    "met": ("met_rollouts", "Roll out our own match equity table's pre-Crawford entries (resumable)."),
}


def _stage(module: str, summary: str) -> Callable[[typer.Context], None]:
    """The subcommand that hands its arguments to ``gammon.training.<module>.main``."""

    def run(ctx: typer.Context) -> None:
        import importlib

        main: Callable[[list[str]], int] = importlib.import_module(f"gammon.training.{module}").main
        code = main(list(ctx.args))
        if code:
            raise typer.Exit(code)

    run.__doc__ = f"{summary} (--help lists the options)"
    return run


def register(app: typer.Typer) -> None:
    """Add ``train`` and its stages to the ``gammon`` app."""
    group = typer.Typer(cls=_TdByDefault, rich_markup_mode=None,
                        help="Train our own nets: TD(lambda) self-play (td, the default), then the "
                             "refinement stages.")
    group.command("td")(train)
    passthrough: dict[str, Any] = {"allow_extra_args": True, "ignore_unknown_options": True}
    for name, (module, summary) in STAGES.items():
        group.command(name, context_settings=passthrough, add_help_option=False)(_stage(module, summary))
    app.add_typer(group, name="train")
