"""``gammon external``: gammon as GNU Backgammon's external player; ``gammon engine``: the line protocol.

Listens on ``--listen HOST:PORT`` or ``--socket PATH``; GNU Backgammon
connects after ``set player 1 external HOST:PORT`` and sends a FIBS board line
for each decision, which :class:`gammon.play.external.Controller` answers at
the chosen level (see that module for the protocol).  The command prints the
address it listens on, serves game after game, and stops when the connection
closes (``--connections 0`` keeps listening for new connections).

``gammon engine`` speaks the gammon engine protocol on stdin and stdout
(:mod:`gammon.play.engine_protocol`, ``docs/engine_protocol.md``).
"""

from __future__ import annotations

from typing import Annotated

import typer


def external(
    listen: Annotated[
        str | None, typer.Option("--listen", help="HOST:PORT to listen on (port 0: any free port).")
    ] = None,
    socket_path: Annotated[str | None, typer.Option("--socket", help="Unix socket path to listen on.")] = None,
    level: Annotated[str, typer.Option(help="Playing level (see 'gammon play --help').")] = "expert",
    name: Annotated[
        str | None,
        typer.Option(help="This player's name in gnubg (set player 1 name NAME): orients the score fields."),
    ] = None,
    connections: Annotated[
        int, typer.Option(help="Stop after this many connections have closed (0: serve forever).")
    ] = 1,
    jacoby: Annotated[bool, typer.Option(help="Money play: the Jacoby rule is in force.")] = False,
    beavers: Annotated[bool, typer.Option(help="Money play: beavers are allowed.")] = True,
    seed: Annotated[int | None, typer.Option(help="Seed of the level's noise (weaker levels).")] = None,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Log every line and answer on stderr.")
    ] = False,
) -> None:
    """Answer GNU Backgammon's external-player interface: moves, doubles, takes, match-aware."""
    from gammon.cli.app import user_errors
    from gammon.cli.limits import MAX_SEED, check_int
    from gammon.core.errors import GammonError
    from gammon.play.external import Controller, describe, log_to_stderr, open_listener, serve
    from gammon.play.levels import find_level

    with user_errors():
        if connections < 0:
            raise GammonError("--connections must be 0 (forever) or more")
        if seed is not None:
            check_int(seed, 0, MAX_SEED, "--seed")
        key = find_level(level)
        sock = open_listener(listen, socket_path)
        try:
            controller = Controller(key, name=name, jacoby=jacoby, beavers=beavers, seed=seed)
        except BaseException:
            sock.close()
            raise
    with sock:
        typer.echo(f"gammon external: level {controller.player!r}, listening on {describe(sock)}", err=True)
        typer.echo(f"listening on {describe(sock)}")
        try:
            lines = serve(controller, sock, connections=connections or None,
                          log=log_to_stderr if verbose else None)
        except KeyboardInterrupt:
            lines = controller.answered + controller.errors
    typer.echo(f"gammon external: {lines} lines answered, {controller.errors} errors", err=True)


def engine(
    level: Annotated[str, typer.Option(help="Starting level (the Level option changes it).")] = "expert",
    seed: Annotated[int | None, typer.Option(help="Seed of the level's noise (weaker levels).")] = None,
) -> None:
    """Speak the gammon engine protocol on stdin/stdout (like chess's UCI; see docs/engine_protocol.md).

    Input that is not a protocol session (a line that never ends, as from
    ``/dev/zero``) ends the command with one ``error:`` line and exit status 2.
    """
    import sys

    from gammon.cli.app import user_errors
    from gammon.cli.limits import MAX_SEED, check_int
    from gammon.play.engine_protocol import EngineProtocol, serve_stdio

    with user_errors():
        if seed is not None:
            check_int(seed, 0, MAX_SEED, "--seed")
        protocol = EngineProtocol(level, seed)
    if hasattr(sys.stdin, "reconfigure"):  # bytes that are not UTF-8 become unknown commands, not a crash
        sys.stdin.reconfigure(errors="replace")
    with user_errors():
        serve_stdio(protocol, sys.stdin, sys.stdout)


def register(app: typer.Typer) -> None:
    app.command()(external)
    app.command()(engine)
