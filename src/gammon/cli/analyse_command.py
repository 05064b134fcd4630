"""``gammon analyse FILE...``: GNU Backgammon-style analysis of match records (alias ``analyze``).

One file is analysed here, its decisions shared among ``--processes``; several
files are analysed one after the other, or with ``--ray`` as Ray tasks, one
per file (:mod:`gammon.ai.distributed`), with the same figures either way.

``--rollout`` (or ``--rollout-errors N``, the N closest) then rolls out the
doubtful decisions of one record (:mod:`gammon.analysis.rollouts`: cubeful,
variance-reduced, ``--rollout-trials`` games per play, truncated at 10 plies;
with ``--ray`` the trials run on Ray) and takes their verdicts from the
rollouts; the JSON gives each such decision a ``rollout`` field.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from gammon.core.errors import GammonError
from gammon.i18n import N_, _, choose_language, current_language, ngettext, use_language

if TYPE_CHECKING:
    from gammon.ai.distributed import Runner
    from gammon.ai.met import MatchEquityTable
    from gammon.analysis.analyse import MatchAnalysis
    from gammon.analysis.rollouts import RolloutOptions
    from gammon.formats.record_files import LoadedRecord


#: ``--rollout-trials``' default (:class:`~gammon.analysis.rollouts.RolloutOptions`: truncated at 10
#: plies): chosen so that the doubtful decisions of a 7-point match are rolled out in minutes on 2 cores.
DEFAULT_ROLLOUT_TRIALS = 72


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise GammonError(f"cannot write {path}: {exc.strerror or exc}") from None


def _stdout(highlight: bool = True) -> Console:
    """The console of the summary on standard output: on a terminal it wraps at the terminal's width;
    piped or redirected, it does not wrap at all (rich would wrap at 80 columns, mid-phrase), so
    each explanation stays one line for ``grep`` and friends."""
    console = Console(highlight=highlight)
    console.soft_wrap = not console.is_terminal
    return console


#: The summary's rows of marks, checker play apart from the cube: (key of the figures, mark, label).
_MARK_ROWS: tuple[tuple[str, str, str], ...] = (
    ("checker_marks", "doubtful", N_("checker doubtfuls")), ("checker_marks", "error", N_("checker errors")),
    ("checker_marks", "blunder", N_("checker blunders")), ("cube_marks", "doubtful", N_("cube doubtfuls")),
    ("cube_marks", "error", N_("cube errors")), ("cube_marks", "blunder", N_("cube blunders")),
)


def _summary(console: Console, analysis: object, language: str | None = None, moves: bool = False) -> None:
    """The analysis's summary table and worst decisions, in ``language`` (default: the one in use);
    with ``moves``, then the whole move list with every mark (``--moves``)."""
    with use_language(language or current_language()):
        _summary_lines(console, analysis)
        if moves:
            _move_list(console, analysis)


def _move_list(console: Console, analysis: object) -> None:
    """Every decision of every game with its mark, as GNU Backgammon's text export lists them."""
    from gammon.analysis.analyse import MatchAnalysis
    from gammon.analysis.move_list import move_list_lines

    assert isinstance(analysis, MatchAnalysis)
    console.print("\n[bold]" + _("Move list") + "[/bold]")
    for line in move_list_lines(analysis):
        console.print(line, markup=False, highlight=False)


def _summary_lines(console: Console, analysis: object) -> None:
    from gammon.analysis.analyse import MatchAnalysis
    from gammon.analysis.text import decision_title, mark_text, mark_word, rate, signed
    from gammon.analysis.words import explanation_text

    assert isinstance(analysis, MatchAnalysis)
    a = analysis
    kind = _("{length}-point match").format(length=a.match_length) if a.match_length else _("money session")
    games = ngettext("{n} game", "{n} games", len(a.games)).format(n=len(a.games))
    console.print("[bold]" + _("{first} vs {second}").format(first=a.names[0], second=a.names[1]) + "[/bold]: "
                  + _("{kind}, {games}, analysed at {plies}-ply").format(kind=kind, games=games, plies=a.plies))
    t = Table("", *a.names, show_edge=False)
    p0, p1 = a.players[0].to_dict(), a.players[1].to_dict()

    def row(label: str, key: str, fmt: object = rate) -> None:
        f = fmt if callable(fmt) else rate
        t.add_row(label, str(f(p0[key])), str(f(p1[key])))

    row(_("unforced moves"), "unforced_moves", str)
    row(_("checker error rate (mEMG)"), "checker_error_rate")
    row(_("close cube decisions"), "close_cube_decisions", str)
    row(_("cube error rate (mEMG)"), "cube_error_rate")
    row(_("error rate (mEMG/decision)"), "error_rate")
    row("PR", "pr")
    row(_("rating"), "rating", str)
    for group, m, label in _MARK_ROWS:
        t.add_row(_(label), str(p0[group][m]), str(p1[group][m]))
    for k in p0["cube_errors"]:
        t.add_row(mark_word(k), str(p0["cube_errors"][k]), str(p1["cube_errors"][k]))
    row(_("luck (EMG)"), "luck", signed)
    console.print(t)
    u = a.unit
    console.print(_("Result for {name}: {result} {unit}; luck {luck} {unit}; luck-adjusted {adjusted} {unit}")
                  .format(name=a.names[0], result=f"{a.result:+.3f}", luck=f"{a.luck:+.3f}",
                          adjusted=f"{a.luck_adjusted:+.3f}", unit=u))
    if a.unfinished and a.match_length:
        console.print(_("Unfinished: the record stops before the match is over; the result is the match "
                        "winning chance at the score reached."), highlight=False)
    elif a.unfinished:
        console.print(_("Unfinished: the last game was not played out; the result counts the finished "
                        "games only."), highlight=False)
    worst = sorted((d for d in a.decisions if d.mark in ("error", "blunder")), key=lambda d: -d.equity_lost)
    if worst:
        console.print("\n[bold]" + _("Errors and blunders") + "[/bold]")
        for d in worst[:15]:
            better = _("; better: {play}").format(play=d.best) if d.best and d.best != d.played else ""
            console.print(f"  {decision_title(d, a.names)}  [red]{mark_text(d)}[/red]{better}", markup=True,
                          highlight=False)
            explanation = explanation_text(d)
            if explanation:
                console.print(f"      {explanation}", highlight=False)
        if len(worst) > 15:
            console.print("  " + _("... and {count} more (see --json or --html)").format(count=len(worst) - 15))


def replay(console: Console, analysis: object, read: Callable[[str], object] | None = None) -> None:
    """Step through the analysed match, a page of 80 x 24 per decision (:mod:`gammon.cli.replay`)."""
    from gammon.analysis.analyse import MatchAnalysis
    from gammon.cli import replay as pages

    assert isinstance(analysis, MatchAnalysis)
    pages.replay(console, analysis, read)


def analyse_with_progress(rec: object, plies: int, processes: int | None, err: Console,
                          rollouts: RolloutOptions | None = None, runner: Runner | None = None
                          ) -> MatchAnalysis:
    """Analyse a loaded record (:func:`gammon.formats.record_files.load_record`), with a progress
    bar on ``err`` (and a second one for the rollouts of the doubtful decisions, if asked)."""
    from gammon.analysis.analyse import analyse_record
    from gammon.formats.record_files import LoadedRecord

    assert isinstance(rec, LoadedRecord)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as bar:
        task = bar.add_task("analysing", total=None)
        rolled = bar.add_task("rolling out", total=None, visible=False)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        def rollout_progress(done: int, total: int) -> None:
            bar.update(rolled, completed=done, total=total, visible=True)

        return analyse_record(rec.rules, rec.games, rec.names, plies=plies, processes=processes,
                              progress=progress, games_limit=rec.games_limit, info=rec.info,
                              rollouts=rollouts, rollout_progress=rollout_progress, runner=runner)


def replay_file(path: str | Path, plies: int) -> None:
    """``gammon play --replay FILE``: analyse a saved match, then step through it move by move.

    Each decision's board is drawn with its analysis (Enter: next, ``q``: stop;
    everything at once when the output is not a terminal), then the summary.

    :raises GammonError: an unreadable record, or one without a game.
    """
    import sys

    rec = _load_games(path, "replay")
    analysis = analyse_with_progress(rec, plies, None, Console(stderr=True))
    screen = Console(highlight=False)
    replay(screen, analysis, input if sys.stdin.isatty() else None)
    _summary(screen, analysis)


def _load_games(path: str | Path, purpose: str) -> LoadedRecord:
    """The record at ``path``, refused (``{path} holds no game to {purpose}``) when it holds no game."""
    from gammon.formats.record_files import load_record

    rec = load_record(Path(path))
    if not any(rec.games):
        raise GammonError(f"{path} holds no game to {purpose}")
    return rec


def _many(records: list[Path], plies: int, processes: int | None, as_json: bool, ray: bool,
          address: str | None, err: Console, moves: bool = False) -> None:
    """Analyse several records (each a task; Ray tasks with ``ray``) and print each summary or one JSON list."""
    from gammon.ai.distributed import LocalRunner, RayRunner, make_runner
    from gammon.analysis.analyse import analyse_files, default_processes
    from gammon.cli.limits import max_processes

    for record in records:  # refuse a bad file before the long part
        _load_games(record, "analyse")
    if processes is not None and processes > max_processes():
        raise GammonError(f"--processes must be 1 to {max_processes()} (this machine's cores)")
    runner: LocalRunner | RayRunner
    if ray:
        runner = make_runner(address or "local", processes)
        inner = 1  # the files themselves run in parallel
    else:
        runner = LocalRunner()
        inner = default_processes(plies) if processes is None else processes
    with runner, Progress(TextColumn("analysing"), BarColumn(), MofNCompleteColumn(), TextColumn("files"),
                          TimeElapsedColumn(), console=err, transient=True) as bar:
        task = bar.add_task("files", total=len(records))

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        analyses = analyse_files([str(r) for r in records], plies=plies, processes=inner,
                                 runner=runner, progress=progress)
    if as_json:
        pairs = zip(records, analyses, strict=True)
        typer.echo(json.dumps([{"file": str(r), **a.to_dict()} for r, a in pairs]))
        return
    out = _stdout()
    for r, a in zip(records, analyses, strict=True):
        out.rule(str(r))
        _summary(out, a, moves=moves)


def _check_targets(records: list[Path], outputs: tuple[Path | None, Path | None, Path | None],
                   force: bool) -> None:
    """Refuse an output file that is one of the records read (whatever ``--force`` says) or
    that exists already (without ``--force``), before the long part.  (Two outputs cannot
    share a file: their endings differ.)"""
    from gammon.formats.record_files import check_target

    given = [out for out in outputs if out is not None]
    for out in given:
        for record in records:
            if out.exists() and record.exists() and out.samefile(record):  # links too
                raise GammonError(_("{file} is the record being analysed: write the analysis to another "
                                    "file").format(file=out))
        check_target(out, replace=force)


def _check_options(plies: int, processes: int | None,
                   outputs: tuple[Path | None, Path | None, Path | None]) -> None:
    """Refuse a search depth, a process count or an output file ending (``--html``,
    ``--annotated``, ``--graph``) that cannot work, before anything is read."""
    from gammon.ai.search import MAX_SEARCH_PLIES

    if not 0 <= plies <= MAX_SEARCH_PLIES:
        raise GammonError(f"--plies must be 0 to {MAX_SEARCH_PLIES}, not {plies}")
    if processes is not None and processes < 1:
        raise GammonError("--processes must be 1 or more")
    html, annotated, graph = outputs
    for out, endings in ((html, (".html", ".htm")), (annotated, (".sgf",)), (graph, (".png", ".svg"))):
        if out is not None and out.suffix.lower() not in endings:
            raise GammonError(f"{out.name!r} should end in {' or '.join(endings)}")


def _write_outputs(rec: object, analysis: MatchAnalysis, annotated: Path | None, html: Path | None,
                   graph: Path | None, language: str = "en") -> None:
    """Write the annotated SGF, the HTML report and the equity graph that were asked for: the report,
    which only people read, in ``language``; the SGF and the graph, read by programs too, in English."""
    from gammon.formats.record_files import LoadedRecord

    assert isinstance(rec, LoadedRecord)
    if annotated is not None:
        from gammon.analysis.annotate import annotated_sgf
        from gammon.core.match import Match

        m = Match.replay(rec.rules, rec.games, games_limit=rec.games_limit)
        _write(annotated, annotated_sgf(m, analysis))
    if html is not None:
        from gammon.analysis.report import html_report

        with use_language(language):
            _write(html, html_report(analysis))
    if graph is not None:
        from gammon.analysis.graph import graph_image

        data = graph_image(analysis, graph.suffix.lower().lstrip("."))
        try:
            graph.write_bytes(data)
        except OSError as exc:
            raise GammonError(f"cannot write {graph}: {exc.strerror or exc}") from None


def _load_met(path: Path | None) -> MatchEquityTable | None:
    """The table ``--met`` names (None: our own)."""
    if path is None:
        return None
    from gammon.ai.met import load_met

    return load_met(path)


@contextmanager
def _rollout_runner(rollouts: RolloutOptions | None, ray: bool, address: str | None,
                    processes: int | None) -> Iterator[Runner | None]:
    """The Ray runner the rollouts' trials run on with ``--ray``/``--address`` (None: here)."""
    if rollouts is None or not (ray or address is not None):
        yield None
        return
    from gammon.ai.distributed import make_runner

    with make_runner(address or "local", processes) as runner:
        yield runner


def _check_many(met: bool, ray: bool, outputs: tuple[Path | None, Path | None, Path | None],
                step: bool) -> None:
    """Refuse what only an analysis of one record made here can do, for several records or ``--ray``."""
    if met and ray:
        raise GammonError(_("--met is for analyses made here: leave out --ray and --address"))
    html, annotated, graph = outputs
    for flag, given in (("--html", html), ("--annotated", annotated), ("--graph", graph),
                        ("--replay", step or None)):
        if given is not None:
            raise GammonError(f"{flag} is for one record analysed here: one file, without --ray")


def _load_one(record: Path, annotated: bool) -> LoadedRecord:
    """The one record to analyse here; refused if it holds no game or (for ``--annotated``) if SGF
    cannot carry it, before the long part."""
    rec = _load_games(record, "analyse")
    if annotated:
        from gammon.core.match import Match
        from gammon.formats.sgf import write_sgf

        write_sgf(Match.replay(rec.rules, rec.games, games_limit=rec.games_limit), rec.names)
    return rec


def _rollout_options(rollout: bool, errors: int | None, trials: int, plies: int,
                     processes: int | None, records: int) -> RolloutOptions | None:
    """The rollouts ``--rollout``, ``--rollout-errors`` and ``--rollout-trials`` ask for (None: none);
    a bad value, or rollouts of several ``records``, is refused in one line before anything is read."""
    from gammon.analysis.analyse import default_processes
    from gammon.analysis.rollouts import RolloutOptions

    options = RolloutOptions(trials=trials, limit=errors,  # checked even when not used
                             processes=processes or max(1, default_processes(max(plies, 2))))
    if not rollout and errors is None:
        return None
    if records > 1:
        raise GammonError(_("--rollout is for one record: analyse the files one at a time"))
    return options


def _show(analysis: MatchAnalysis, as_json: bool, step: bool, language: str, moves: bool = False) -> None:
    """Print the analysis: as JSON, step by step then the summary (``--replay``), or the summary
    (and with ``moves`` the move list), in ``language``."""
    if as_json:
        typer.echo(json.dumps(analysis.to_dict()))
    elif step:
        import sys

        screen = _stdout(highlight=False)
        with use_language(language):
            replay(screen, analysis, input if sys.stdin.isatty() else None)
        _summary(screen, analysis, language, moves)
    else:
        _summary(_stdout(), analysis, language, moves)


def _say_written(err: Console, language: str, outs: tuple[Path | None, ...]) -> None:
    """Tell (on stderr, in ``language``) which of the asked files were written."""
    with use_language(language):
        for out in (o for o in outs if o is not None):
            err.print(_("wrote {path}").format(path=out), highlight=False)


def analyse(
    records: Annotated[
        list[Path], typer.Argument(help="The match records: .mat, .sgf or gammon's .json (one or more).")
    ],
    plies: Annotated[int, typer.Option(help="Search depth of the analysis (0-3); 2 is GNU Backgammon's.")] = 2,
    as_json: Annotated[bool, typer.Option("--json", help="Print the whole analysis as JSON.")] = False,
    html: Annotated[Path | None, typer.Option("--html", help="Write an HTML report with graph and boards.")]
    = None,
    annotated: Annotated[
        Path | None, typer.Option("--annotated", help="Write an SGF with the analysis in comments.")
    ] = None,
    graph: Annotated[Path | None, typer.Option("--graph", help="Write the equity graph (png, svg).")] = None,
    processes: Annotated[
        int | None, typer.Option(help="Worker processes (default: every core from 2-ply on).")
    ] = None,
    step: Annotated[
        bool, typer.Option("--replay", help="Step through the match, each decision's board and analysis.")
    ] = False,
    ray: Annotated[
        bool, typer.Option("--ray", help="Analyse the files as Ray tasks, one per file (a local Ray).")
    ] = False,
    address: Annotated[
        str | None, typer.Option("--address", help="The Ray cluster (auto, HOST:PORT); implies --ray.")
    ] = None,
    lang: Annotated[
        str | None, typer.Option("--lang", help="The summary's language: en, nb, sv, da or pl; default: "
                                 "the locale (LC_ALL, LC_MESSAGES, LANG). Files written stay English.")
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace existing --html, --annotated or --graph files "
                           "(never the record analysed).")
    ] = False,
    met: Annotated[
        Path | None, typer.Option("--met", help="A match equity table in GNU Backgammon's XML format "
                                  "(e.g. Kazaross-XG2.xml) instead of our own.")
    ] = None,
    rollout: Annotated[
        bool, typer.Option("--rollout", help="Roll out the doubtful decisions (close calls, errors below a "
                           "blunder) and judge them by the rollouts; the report marks them R.")
    ] = False,
    rollout_errors: Annotated[
        int | None, typer.Option("--rollout-errors", help="Roll out only the N closest doubtful decisions "
                                 "(implies --rollout).")
    ] = None,
    moves: Annotated[
        bool, typer.Option("--moves", help="After the summary, list every decision of every game with its "
                           "mark and the equity it loses, as GNU Backgammon's text export does.")
    ] = False,
    rollout_trials: Annotated[
        int, typer.Option("--rollout-trials", help="Games per rolled-out play or cube action (cubeful, "
                          "variance-reduced).")
    ] = DEFAULT_ROLLOUT_TRIALS,
) -> None:
    """Analyse matches like GNU Backgammon: error rates, marks, cube errors, luck, PR."""
    from gammon.ai.met import met_in_use
    from gammon.cli.app import user_errors

    err = Console(stderr=True)
    language = choose_language(lang, os.environ)
    with user_errors():
        _check_options(plies, processes, (html, annotated, graph))
        with use_language(language):  # the refusals in the reader's language
            _check_targets(records, (html, annotated, graph), force)
            table = _load_met(met)
            rollouts = _rollout_options(rollout, rollout_errors, rollout_trials, plies, processes, len(records))
            if many := rollouts is None and (len(records) > 1 or ray or address is not None):
                _check_many(table is not None, ray or address is not None, (html, annotated, graph), step)
        if many:
            with use_language(language), met_in_use(table):
                _many(records, plies, 1 if table is not None else processes, as_json,
                      ray or address is not None, address, err, moves)
            return
        rec = _load_one(records[0], annotated is not None)
        with _rollout_runner(rollouts, ray, address, processes) as runner, met_in_use(table):
            analysis = analyse_with_progress(rec, plies, 1 if table is not None else processes, err,
                                             rollouts, runner)
        _write_outputs(rec, analysis, annotated, html, graph, language)
    _show(analysis, as_json, step, language, moves)
    _say_written(err, language, (annotated, html, graph))


def register(app: typer.Typer) -> None:
    """Add ``analyse`` (and its alias ``analyze``) to the ``gammon`` app."""
    app.command("analyse")(analyse)
    app.command("analyze", hidden=True)(analyse)
