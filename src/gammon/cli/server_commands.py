"""``gammon serve``: the online play server (browser page, REST API and WebSockets)."""

from __future__ import annotations

from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the ``gammon`` app."""
    from gammon.cli.app import user_errors

    @app.command()
    def serve(
        host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="Port to listen on.")] = 8080,
        database_url: Annotated[
            str | None,
            typer.Option(
                "--database-url",
                help="SQLAlchemy URL (default: GAMMON_DATABASE_URL, else an SQLite file in your data folder).",
            ),
        ] = None,
    ) -> None:
        """Run the server where people play each other and the computer over the network."""
        from gammon.web.server import serve as run

        with user_errors():
            run(host, port, database_url)
