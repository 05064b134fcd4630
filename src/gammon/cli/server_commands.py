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
        from gammon.cli.limits import check_int, check_text
        from gammon.core.errors import GammonError

        with user_errors():
            check_int(port, 1, 65535, "--port")
            check_text(host, 255, "--host")
            import os

            url = database_url or os.environ.get("GAMMON_DATABASE_URL")
            if url:
                check_text(url, 2000, "--database-url")
                _check_sqlite_folder(url)
            from gammon.web.server import serve as run

            try:
                run(host, port, database_url)
            except OSError as exc:
                raise GammonError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def _check_sqlite_folder(url: str) -> None:
    """An ``sqlite:///path`` URL must name a file in a folder that exists (never created silently).

    :raises GammonError: a missing folder, or a folder where the file should be.
    """
    from pathlib import Path

    from gammon.core.errors import GammonError

    if "://" not in url:  # a bare path names an SQLite file too
        path_text = url
    else:
        prefix, sep, rest = url.partition(":///")
        if not sep or not prefix.split("+")[0].lower() == "sqlite":
            return
        path_text = rest.split("?", 1)[0]
    if path_text in ("", ":memory:"):
        return
    path = Path(path_text)
    if path.is_dir():
        raise GammonError(f"--database-url names the folder {path}, not a database file")
    if not path.parent.is_dir():
        raise GammonError(f"--database-url: the folder {path.parent} does not exist (create it first)")
