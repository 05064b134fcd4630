"""``gammon train``: TD(lambda) self-play training of our own networks, resumable, with progress.

A thin layer over :func:`gammon.ai.train.train`: checkpoints go to ``--out``
(``checkpoint.npz`` and ``meta.json``, the settings and the strength history),
``--resume`` continues from there, and a progress bar shows games, speed and
the latest strength figure (win rate and points per game against the fixed
heuristic bot).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn


def train(
    out: Annotated[Path, typer.Option("--out", help="Folder for checkpoint.npz, meta.json and snapshots.")],
    games: Annotated[int, typer.Option(help="Total games to reach (resumed games count).")] = 100_000,
    resume: Annotated[bool, typer.Option(help="Continue from the checkpoint in --out.")] = False,
    seed: Annotated[int, typer.Option(help="Seed of the dice and the first weights.")] = 1,
    hidden: Annotated[int, typer.Option(help="Hidden units of each net.")] = 128,
    alpha: Annotated[float, typer.Option(help="Learning rate.")] = 0.1,
    lam: Annotated[float, typer.Option("--lambda", help="TD(lambda) trace decay.")] = 0.7,
) -> None:
    """Train the evaluator by self-play (TD(lambda)) from random weights, or resume a run."""
    from gammon.ai.train import Settings
    from gammon.ai.train import train as run_training
    from gammon.cli.app import user_errors
    from gammon.core.errors import GammonError

    console = Console(stderr=True)
    with user_errors():
        if games < 1 or hidden < 1 or not 0 < alpha <= 1 or not 0 <= lam <= 1:
            raise GammonError("need --games >= 1, --hidden >= 1, 0 < --alpha <= 1 and 0 <= --lambda <= 1")
        if resume and not (out / "checkpoint.npz").exists():
            raise GammonError(f"nothing to resume: {out / 'checkpoint.npz'} does not exist")
        settings = Settings(games=games, seed=seed, hidden=hidden, alpha=alpha, lam=lam)
        with Progress(
            TextColumn("training"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[info]}"),
            TimeRemainingColumn(), console=console,
        ) as bar:
            task = bar.add_task("games", total=games, info="")

            def progress(p: object) -> None:
                from gammon.ai.train import Progress as Report

                assert isinstance(p, Report)
                info = f"{p.recent_games_per_s:.0f} games/s"
                if p.strength:
                    win, ppg = p.strength.get("win", 0.0), p.strength.get("ppg", 0.0)
                    info += f"  vs heuristic: win {win:.0%} ppg {ppg:+.2f}"
                bar.update(task, completed=p.games, info=info)
                console.log(p.line())

            run_training(settings, out, resume=resume, progress=progress)
    typer.echo(f"trained to {games} games: {out / 'checkpoint.npz'}")


def register(app: typer.Typer) -> None:
    """Add ``train`` to the ``gammon`` app."""
    app.command("train")(train)
