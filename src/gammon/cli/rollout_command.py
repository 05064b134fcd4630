"""``gammon rollout``: play a position out many times and report the averages.

A thin layer over :func:`gammon.ai.rollout.rollout`: it reads the position
(Position ID or XGID, optionally after a play), shows a progress bar while the
trials run on the chosen number of processes (or as Ray tasks with ``--ray``),
and prints the result with its standard errors, or JSON.  An XGID's cube and
score are the rollout's: at a match score a cubeful rollout reports the match
winning chances and the money-equivalent equity (EMG) of our match equity table.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from gammon.i18n import N_


def rollout(
    position: Annotated[str, typer.Argument(help="Position ID or XGID (the player on roll rolls first).")],
    trials: Annotated[int, typer.Option(help="Trials (multiples of 36 keep the dice balanced).")] = 1296,
    seed: Annotated[int, typer.Option(help="Seed of the dice: the same seed gives the same result.")] = 1,
    truncate: Annotated[int | None, typer.Option(help="Stop each trial after this many plies.")] = None,
    cubeful: Annotated[bool, typer.Option(help="Play the cube too and report cubeful equity.")] = False,
    processes: Annotated[int, typer.Option(help="Processes to use (results do not depend on it).")] = 2,
    target_se: Annotated[
        float | None, typer.Option("--target-se", help="Stop once the equity's standard error is this small.")
    ] = None,
    variance_reduction: Annotated[
        bool, typer.Option(help="Luck-adjust each roll (slower per trial, smaller errors in races).")
    ] = False,
    play_out: Annotated[
        bool, typer.Option("--play-out", help="Play cubeless trials to the end, past the point where "
                           "the bear-off tables value the race (where they stop by default).")
    ] = False,
    play: Annotated[
        str | None, typer.Option(help="Roll out the position after this play (needs --dice), e.g. '8/5 6/5'.")
    ] = None,
    dice: Annotated[str | None, typer.Option(help="The roll the --play is made with, like 31.")] = None,
    variant: Annotated[str, typer.Option("--variant", help="Rules of the position.")] = "standard",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
    ray: Annotated[
        bool, typer.Option("--ray", help="Run the trials as Ray tasks (a local Ray of --processes workers).")
    ] = False,
    address: Annotated[
        str | None, typer.Option("--address", help="The Ray cluster to use (auto, HOST:PORT); implies --ray.")
    ] = None,
    lang: Annotated[
        str | None, typer.Option("--lang", help="The printout's language: en, nb, sv, da or pl; default: "
                                 "the locale (LC_ALL, LC_MESSAGES, LANG). --json stays English.")
    ] = None,
) -> None:
    """Roll a position out with the engine: chances, equity and their standard errors."""
    from gammon.ai.rollout import RolloutSettings
    from gammon.cli.app import user_errors
    from gammon.cli.limits import (
        MAX_SEED,
        MAX_TRIALS,
        MAX_TRUNCATE,
        check_float,
        check_int,
        max_processes,
    )

    with user_errors():
        check_int(trials, 1, MAX_TRIALS, "--trials")
        check_int(seed, 0, MAX_SEED, "--seed")
        check_int(processes, 1, max_processes(), "--processes (up to this machine's cores)")
        if truncate is not None:
            check_int(truncate, 1, MAX_TRUNCATE, "--truncate")
        if target_se is not None:
            check_float(target_se, 0.0, 1.0, "--target-se", open_low=True)
        pos, label, flipped, info = _position_to_roll(position, variant, play, dice)
        settings = RolloutSettings(
            trials=trials, seed=seed, truncate_at=truncate, cubeful=cubeful, processes=processes,
            target_se=target_se, variance_reduction=variance_reduction, stop_at_bearoff=not play_out,
        )
        result = _run(pos, settings, info, ray or address is not None, address)
        if flipped:
            result = result.flipped()
    who = _AFTER_PLAY if flipped else _ON_ROLL
    if as_json:
        typer.echo(json.dumps(_as_dict(label, who, result)))
        return
    import os

    from gammon.i18n import choose_language, use_language

    with use_language(choose_language(lang, os.environ)):
        _print_result(label, who, result)


def _position_to_roll(position: str, variant: str, play: str | None,
                      dice: str | None) -> tuple[Any, str, bool, Any]:
    """The position to roll out, its label, whether it is seen from the opponent (after
    ``play``, the opponent rolls first), and the cube and score of its player on roll (an
    XGID's; a Position ID's: money, the cube centred at 1).

    :raises GammonError: an unreadable position, a finished game, or a play without its roll.
    """
    from gammon.ai.cube import CubeInfo
    from gammon.cli.app import parse_dice, read_position
    from gammon.core.errors import GammonError

    pos, state = read_position(position, variant)
    info = CubeInfo() if state is None else CubeInfo.from_xgid(state)
    if pos.outcome is not None:
        raise GammonError("the game is over in that position: there is nothing to roll out")
    flipped = False
    label = pos.position_id
    if play is not None:
        if dice is None:
            raise GammonError("--play needs the roll it is made with: --dice 31")
        chosen = pos.parse_play(play, parse_dice(dice))
        pos = chosen.position.swap()  # the opponent rolls first after the play
        info = info.swap()
        flipped = True
        label = f"{label} after {chosen}"
        if pos.outcome is not None:
            raise GammonError("that play ends the game: there is nothing to roll out")
    return pos, label, flipped, info


def _run(pos: Any, settings: Any, info: Any, ray: bool, address: str | None) -> Any:
    """Roll ``pos`` out here (or as Ray tasks with ``ray``) behind a progress bar on stderr."""
    from gammon.ai.distributed import LocalRunner, make_runner
    from gammon.ai.evaluator import default_evaluator
    from gammon.ai.rollout import rollout as run_rollout
    from gammon.cli.warmup import engine_ready

    task_runner = make_runner(address or "local", settings.processes) if ray else None
    engine_ready()
    console = Console(stderr=True)
    with task_runner or LocalRunner(), Progress(
        TextColumn("rollout"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=console, transient=True,
    ) as bar:
        task = bar.add_task("trials", total=settings.trials)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return run_rollout(pos, default_evaluator(), settings, progress=progress, cube_info=info,
                           runner=task_runner)


#: Whose view the result is in: English in JSON, translated in the printout.
_ON_ROLL = N_("the player on roll")
_AFTER_PLAY = N_("the player who made the play")
_CHANCES = (N_("win"), N_("win gammon"), N_("win backgammon"), N_("lose gammon"), N_("lose backgammon"))


def _print_result(label: str, who: str, result: Any) -> None:
    """The result for people, in the language in use: the chances and equities, each with its
    standard error."""
    from gammon.i18n import _

    head = _("{label}: {trials} trials in {seconds} s, for {who}").format(
        label=label, trials=result.trials, seconds=f"{result.seconds:.1f}", who=_(who))
    typer.echo(head + (_(" (stopped early: the target error was reached)") if result.stopped_early else ""))
    rows = [(_(name), f"{100 * value:6.2f}%", f"{100 * err:.2f}")
            for name, value, err in zip(_CHANCES, result.probs, result.se_probs, strict=True)]
    rows.append((_("cubeless equity"), f"{result.equity:+.4f}", f"{result.se_equity:.4f}"))
    if result.cubeful_equity is not None:
        name = _("cubeful EMG") if result.cubeful_mwc is not None else _("cubeful equity")
        rows.append((name, f"{result.cubeful_equity:+.4f}", f"{result.se_cubeful or 0.0:.4f}"))
    if result.cubeful_mwc is not None:
        rows.append((_("match winning chance"), f"{100 * result.cubeful_mwc:6.2f}%",
                     f"{100 * (result.se_mwc or 0.0):.2f}"))
    width = max(len(name) for name, _value, _err in rows)
    for name, value, err in rows:
        typer.echo(f"  {name:<{width}} {value}  +- {err}")


def _as_dict(label: str, who: str, result: Any) -> dict[str, Any]:
    keys = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
    out: dict[str, Any] = {
        "position": label,
        "for": who,
        "trials": result.trials,
        "stopped_early": result.stopped_early,
        "seconds": round(result.seconds, 3),
        "probabilities": {k: round(float(v), 6) for k, v in zip(keys, result.probs, strict=True)},
        "standard_errors": {k: round(float(v), 6) for k, v in zip(keys, result.se_probs, strict=True)},
        "equity": round(result.equity, 6),
        "se_equity": round(result.se_equity, 6),
    }
    if result.cubeful_equity is not None:
        out["cubeful_equity"] = round(result.cubeful_equity, 6)
        out["se_cubeful"] = round(result.se_cubeful or 0.0, 6)
    if result.cubeful_mwc is not None:  # a match score: cubeful_equity is EMG
        out["match_winning_chance"] = round(result.cubeful_mwc, 6)
        out["se_match_winning_chance"] = round(result.se_mwc or 0.0, 6)
    return out


def register(app: typer.Typer) -> None:
    """Add ``rollout`` to the ``gammon`` app."""
    app.command("rollout")(rollout)
