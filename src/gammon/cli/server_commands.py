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
        public_url: Annotated[
            str | None,
            typer.Option("--public-url", help="The server's address as people reach it (https://host[/path]): "
                                              "the base of every link it hands out (default: "
                                              "GAMMON_PUBLIC_URL, else links relative to the server)."),
        ] = None,
        forwarded_allow_ips: Annotated[
            str,
            typer.Option("--forwarded-allow-ips", help="Comma-separated addresses or networks of the reverse "
                                                       "proxies whose X-Forwarded-For is believed (default: "
                                                       "none: every limit counts the connecting address)."),
        ] = "",
        max_connections: Annotated[int, typer.Option(help="Connections held at once (HTTP and WebSocket); "
                                                          "more get 503.")] = 2000,
        access_log: Annotated[bool, typer.Option(help="Log every request line (tokens are redacted).")] = False,
    ) -> None:
        """Run the server where people play each other and the computer over the network."""
        import ipaddress
        import os

        from gammon.cli.limits import check_int, check_text
        from gammon.core.errors import GammonError

        with user_errors():
            check_int(port, 1, 65535, "--port")
            check_int(max_connections, 10, 100_000, "--max-connections")
            check_text(host, 255, "--host")
            check_text(forwarded_allow_ips, 2000, "--forwarded-allow-ips")
            proxies = [p.strip() for p in forwarded_allow_ips.split(",") if p.strip()]
            for proxy in proxies:
                try:
                    ipaddress.ip_network(proxy, strict=False)
                except ValueError:
                    raise GammonError(f"--forwarded-allow-ips: {proxy!r} is not an address or network "
                                      "(e.g. 127.0.0.1 or 10.0.0.0/8)") from None
            url = database_url or os.environ.get("GAMMON_DATABASE_URL")
            if url:
                check_text(url, 2000, "--database-url")
                _check_sqlite_folder(url)
            from gammon.web.config import Settings
            from gammon.web.server import serve as run

            settings = Settings.from_env(database_url=database_url, public_url=public_url)
            run(host, port, settings=settings, forwarded_allow_ips=proxies, max_connections=max_connections,
                access_log=access_log)


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
