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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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
    cube: Annotated[
        bool, typer.Option("--cube", help="Roll out the cube decision of the player on roll: no double "
                           "(the cube kept for his first turn) and double/take, each with its standard "
                           "error (double/pass is exact), and the proper action. Implies --cubeful.")
    ] = False,
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
        if cube and play is not None:
            from gammon.core.errors import GammonError

            raise GammonError("--cube rolls out the cube decision of the player on roll: give the "
                              "position before his roll, without --play")
        pos, label, flipped, info = _position_to_roll(position, variant, play, dice)
        settings = RolloutSettings(
            trials=trials, seed=seed, truncate_at=truncate, cubeful=cubeful or cube, processes=processes,
            target_se=target_se, variance_reduction=variance_reduction, stop_at_bearoff=not play_out,
        )
        result = _run(pos, settings, info, ray or address is not None, address, cube)
        if flipped:
            result = result.flipped()
    who = _AFTER_PLAY if flipped else _ON_ROLL
    if as_json:
        typer.echo(json.dumps(_cube_dict(label, result) if cube else _as_dict(label, who, result)))
        return
    import os

    from gammon.i18n import choose_language, use_language

    with use_language(choose_language(lang, os.environ)):
        if cube:
            _print_cube(label, result)
        else:
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


@contextmanager
def trials_bar() -> Iterator[Callable[[int, int], None]]:
    """A rollout's progress bar on stderr, shown from the first ``(done, total)`` its callback
    is told (a command that may roll nothing out shows nothing)."""
    from gammon.i18n import _

    with Progress(TextColumn(_("rollout")), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("trials", total=None, visible=False)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total, visible=True)

        yield progress


def _run(pos: Any, settings: Any, info: Any, ray: bool, address: str | None, cube: bool = False) -> Any:
    """Roll ``pos`` out here (or as Ray tasks with ``ray``) behind a progress bar on stderr: the
    position (a :class:`~gammon.ai.rollout.RolloutResult`), or with ``cube`` its cube decision
    (a :class:`~gammon.ai.cube_rollout.CubeRollout`)."""
    from gammon.ai.cube_rollout import rollout_cube
    from gammon.ai.distributed import LocalRunner, make_runner
    from gammon.ai.evaluator import default_evaluator
    from gammon.ai.rollout import rollout as run_rollout
    from gammon.cli.warmup import engine_ready

    task_runner = make_runner(address or "local", settings.processes) if ray else None
    engine_ready()
    with task_runner or LocalRunner(), trials_bar() as progress:
        if cube:
            return rollout_cube(pos, default_evaluator(), settings, info, runner=task_runner, progress=progress)
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


def _print_cube(label: str, rolled: Any) -> None:
    """A rolled-out cube decision for people: the three equities (with their standard errors and,
    at a match score, match winning chances) and the proper actions."""
    from gammon.cli.terminal.hints import action_words
    from gammon.i18n import _

    d = rolled.decision
    seconds = rolled.no_double.seconds + rolled.double_take.seconds
    head = _("{label}: the cube decision rolled out, {trials} trials each in {seconds} s, for {who}")
    typer.echo(head.format(label=label, trials=rolled.trials, seconds=f"{seconds:.1f}", who=_(_ON_ROLL)))
    names = (_("no double"), _("double/take"), _("double/pass"))
    errors = (f"{rolled.se[0]:.4f}", f"{rolled.se[1]:.4f}", "0.0000")  # double/pass: exact
    mwc = d.mwc or (None, None, None)
    width = max(len(n) for n in names)
    unit = _("cubeful equity") if d.mwc is None else _("cubeful EMG")
    typer.echo(f"  {'':<{width}} {unit}")
    for name, value, err, m in zip(names, (d.no_double, d.double_take, d.double_pass), errors, mwc,
                                   strict=True):
        tail = "" if m is None else f"  ({_('match winning chance')} {100 * m:.2f}%)"
        typer.echo(f"  {name:<{width}} {value:+.4f}  +- {err}{tail}")
    typer.echo(_("Cube: {action}; the opponent should {answer}.").format(
        action=action_words(d.action), answer=action_words(d.taker_action)))


def _cube_dict(label: str, rolled: Any) -> dict[str, Any]:
    """A rolled-out cube decision for scripts (equities normalised to the cube; EMG at a score)."""
    d = rolled.decision
    out: dict[str, Any] = {
        "position": label,
        "for": _ON_ROLL,
        "trials": rolled.trials,
        "seconds": round(rolled.no_double.seconds + rolled.double_take.seconds, 3),
        "no_double": round(d.no_double, 6),
        "double_take": round(d.double_take, 6),
        "double_pass": round(d.double_pass, 6),
        "se_no_double": round(rolled.se[0], 6),
        "se_double_take": round(rolled.se[1], 6),
        "action": str(d.action),
        "taker_action": str(d.taker_action),
    }
    if d.mwc is not None:
        out["match_winning_chances"] = dict(zip(("no_double", "double_take", "double_pass"),
                                                (round(m, 6) for m in d.mwc), strict=True))
    return out


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
